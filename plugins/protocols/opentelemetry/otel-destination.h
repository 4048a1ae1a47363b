/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the parts of the opentelemetry() destination share. */
#ifndef OTEL_DESTINATION_H
#define OTEL_DESTINATION_H

#define OTEL_GRPC_LOGS_PATH "/opentelemetry.proto.collector.logs.v1.LogsService/Export"
#define OTEL_BACKOFF_FIRST_MS 100
#define OTEL_BACKOFF_MAX_MS 5000

#include "otel-encode.h"
#include "otel-grpc-client.h"
#include "core/plugin/plugin.h"
#include "core/stats.h"
#include "core/io/tls-block.h"

#include <curl/curl.h>

typedef enum
{
  OTEL_DEST_GRPC,
  OTEL_DEST_HTTP,
} OtelDestTransport;

/* What an answer means for its request's messages */
typedef enum
{
  OTEL_OUTCOME_ACCEPTED,   /* done */
  OTEL_OUTCOME_RETRY,      /* kept, sent again */
  OTEL_OUTCOME_DROP,       /* the receiver will never take it: dropped and counted */
} OtelOutcome;

typedef struct
{
  SlDriver super;
  /* options */
  const gchar *url;
  gint transport;
  gint batch_lines;
  gint64 batch_bytes;
  gboolean compression;
  GPtrArray *headers;
  gint64 timeout_ms;
  gint retries;
  const SlCfgNode *tls_node;

  gchar *endpoint;           /* where requests go: the URL (HTTP), host:port (gRPC) */
  OtelEncoder *encoder;
  GByteArray *records;       /* the ExportLogsServiceRequest */
  gchar why[SL_WRITE_REASON_MAX]; /* how the last failed request ended: the write's reason */

  /* OTLP/HTTP: libcurl, one request at a time */
  SlTlsBlock *tls;
  struct curl_slist *header_list;
  GByteArray *body;          /* what is sent: compressed */
  GByteArray *response;
  gint64 retry_after_s;      /* Retry-After of the last answer, 0: none */
  CURL *easy;

  /* OTLP/gRPC: otel-grpc-client.c, calls in flight across write()s */
  gchar *host, *port;
  SlTlsContext *grpc_tls;
  GPtrArray *grpc_headers;   /* lower-case names and values alternating, NULL-terminated */
  OtelGrpcClient *client;    /* NULL: not connected */
  GQueue calls;              /* OtelGrpcCall in flight, oldest first */
  GQueue spare;              /* answered calls, their buffers kept for the next */

  SlCounter *requests;
  SlCounter *retried;
  SlCounter *rejected;
} OtelDestination;

/* OTLP/gRPC's write() (otel-grpc-write.c) and its connection */
SlWriteResult otel_grpc_write (OtelDestination *self, SlWriteBatch *batch);
gboolean    otel_grpc_open  (OtelDestination *self, GError **error);
void        otel_grpc_close (OtelDestination *self);

/* OTLP/HTTP: the easy handle's options that do not change between requests */
void        otel_transfer_setup (OtelDestination *self);
/* OTLP/HTTP's write(): requests of batch-lines() one after the other,
 * each answered (and retried) before the next */
SlWriteResult otel_transfer_write (OtelDestination *self, SlWriteBatch *batch);

#endif
