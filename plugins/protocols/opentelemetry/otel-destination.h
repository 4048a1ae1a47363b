/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the parts of the opentelemetry() destination share. */
#ifndef OTEL_DESTINATION_H
#define OTEL_DESTINATION_H

#include "otel-encode.h"
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

  gchar *endpoint;           /* the URL requests go to */
  SlTlsBlock *tls;
  struct curl_slist *header_list;
  OtelEncoder *encoder;
  GByteArray *records;       /* the ExportLogsServiceRequest */
  GByteArray *body;          /* what is sent: framed, compressed */
  GByteArray *response;
  gint grpc_status;          /* from the last answer's headers or trailers; -1: none */
  gchar *grpc_message;
  gint64 retry_after_s;      /* Retry-After of the last answer, 0: none */
  gchar why[SL_WRITE_REASON_MAX]; /* how the last failed request ended: the write's reason */
  CURL *easy;

  SlCounter *requests;
  SlCounter *retried;
  SlCounter *rejected;
} OtelDestination;

/* The easy handle's options that do not change between requests */
void        otel_transfer_setup (OtelDestination *self);
/* Sends self->body and reads the answer; *retry_after_ms the wait the
 * receiver asked for (0: none). A failure leaves why in self->why. */
OtelOutcome otel_transfer_send  (OtelDestination *self, gint64 *retry_after_ms);

#endif
