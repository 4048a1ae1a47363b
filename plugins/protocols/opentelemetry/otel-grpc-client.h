/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The opentelemetry() destination's gRPC client: one HTTP/2 connection
 * (h2c, or TLS with ALPN "h2") framed by nghttp2, with several unary
 * Export calls on it at once, each answered by the grpc-status of its
 * trailers. */
#ifndef OTEL_GRPC_CLIENT_H
#define OTEL_GRPC_CLIENT_H

#include <glib.h>
#include "core/io/tls.h"

typedef struct _OtelGrpcClient OtelGrpcClient;

/* One Export call: the framed request (kept, so that it can be sent
 * again) and, once closed, its answer. The caller owns it; the client
 * points at it while the call is on the connection. */
typedef struct
{
  GByteArray *body;          /* the length-prefixed message */
  guint messages;            /* the caller's: how many messages it carries */
  gint attempts;             /* the caller's */
  gint64 since;              /* monotonic µs it was submitted */
  gsize sent;                /* bytes of body on their way */
  gint32 stream_id;          /* 0: not on a connection */
  gboolean closed;           /* the answer is complete */
  gint http_status;          /* :status, 0: none */
  gint grpc_status;          /* -1: none */
  gchar *grpc_message;
  GByteArray *response;      /* the answer's length-prefixed message */
} OtelGrpcCall;

typedef enum
{
  OTEL_GRPC_OK,
  OTEL_GRPC_TIMEOUT,         /* nothing came before the deadline */
  OTEL_GRPC_STOPPED,         /* the destination stops */
  OTEL_GRPC_BROKEN,          /* the connection is lost: otel_grpc_client_failure() */
} OtelGrpcIo;

OtelGrpcCall   *otel_grpc_call_new  (void);
/* Back to a call not submitted, its answer forgotten, for a resend. */
void            otel_grpc_call_reset (OtelGrpcCall *call);
void            otel_grpc_call_free (OtelGrpcCall *call);

/* Connects to host:port and sends HTTP/2's preface, within timeout_ms;
 * with tls (whose ALPN is set to "h2" by the caller) through TLS.
 * headers: the request's headers after the pseudo-headers, lower-case
 * names and values alternating, NULL-terminated; the client keeps the
 * pointer. */
OtelGrpcClient *otel_grpc_client_connect (const gchar *host, const gchar *port, SlTlsContext *tls,
                                          const gchar *path, const gchar *const *headers, gint timeout_ms,
                                          GError **error);
void            otel_grpc_client_free    (OtelGrpcClient *c);
/* How many calls the server lets be open at once (its
 * SETTINGS_MAX_CONCURRENT_STREAMS), at most cap. */
guint           otel_grpc_client_room    (OtelGrpcClient *c, guint cap);
/* Puts call on the connection; its body goes out after the body of
 * every call submitted before it, so the server reads them in order. */
gboolean        otel_grpc_client_submit  (OtelGrpcClient *c, OtelGrpcCall *call);
/* Writes what the connection can take and reads what came; with wait,
 * until at least one call closed or deadline (monotonic µs). */
OtelGrpcIo      otel_grpc_client_pump    (OtelGrpcClient *c, gboolean wait, gint64 deadline);
/* How the connection was lost, in a few words. */
const gchar    *otel_grpc_client_failure (OtelGrpcClient *c);

#endif
