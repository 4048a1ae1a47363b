/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the parts of the http() destination share: the driver instance,
 * the request bodies a write() is cut into, and the transfers that carry
 * them through one libcurl multi handle per writer. */
#ifndef SL_HTTP_DESTINATION_H
#define SL_HTTP_DESTINATION_H

#include "core/plugin.h"
#include "core/stats.h"
#include "core/template.h"

#include <curl/curl.h>

G_BEGIN_DECLS

/* Requests of one writer in flight at once: enough to hide a round trip
 * behind the others, few enough that a receiver is not flooded with
 * connections when batch-lines() is small. */
#define HTTP_MAX_IN_FLIGHT 16

/* What a response (or a failed transfer) means for its batch; the
 * words of response-action(). */
typedef enum
{
  HTTP_ACTION_SUCCESS,     /* delivered */
  HTTP_ACTION_RETRY,       /* kept, sent again (to the next url()) after a back-off */
  HTTP_ACTION_DROP,        /* can never be delivered: dropped and counted */
  HTTP_ACTION_DISCONNECT,  /* kept; the writer closes and waits time-reopen() */
} HttpAction;

typedef enum
{
  HTTP_METHOD_POST,
  HTTP_METHOD_PUT,
} HttpMethod;

typedef enum
{
  HTTP_COMPRESS_NONE,
  HTTP_COMPRESS_GZIP,
} HttpCompression;

/* The options of tls(...) */
typedef struct
{
  const gchar *ca_file;
  const gchar *ca_dir;
  const gchar *cert_file;
  const gchar *key_file;
  gboolean peer_verify;
  const gchar *cipher_suite;
  gint ssl_version;         /* CURL_SSLVERSION_* */
  gboolean use_system_cert_store;
} HttpTls;

/* One request: messages [first, first + count) of the write's batch. */
typedef struct
{
  CURL *easy;
  guint first;
  guint count;
  GString *body;            /* what is sent: the batch, compressed when asked */
  guint attempts;
  gboolean in_flight;
  gboolean settled;         /* delivered or dropped */
  gboolean dropped;
  HttpAction failure;       /* why the last attempt failed */
  gint64 started;           /* monotonic µs of the attempt */
  gint64 next_at;           /* monotonic µs: not before, after a failed attempt */
  guint url;                /* the url() index of the attempt */
  glong status;             /* of the last response, 0: none */
} HttpRequest;

typedef struct
{
  SlDriver super;
  /* options */
  GPtrArray *urls;
  gint method;              /* HttpMethod */
  GPtrArray *headers;
  const gchar *user;
  const gchar *password;
  const gchar *user_agent;
  SlTemplate *body;
  gint batch_lines;
  gint64 batch_bytes;
  const gchar *body_prefix;
  const gchar *delimiter;
  const gchar *body_suffix;
  gint64 timeout_ms;
  gint retries;
  const SlCfgNode *tls_node;
  HttpTls tls;
  const gchar *proxy;
  gint compression;         /* HttpCompression */
  GPtrArray *response_action;
  gboolean accept_redirects;

  /* what a status means: index status - 100 */
  guint8 actions[500];
  SlOptions *tls_options;
  struct curl_slist *header_list;
  gchar *auth;              /* user:password */
  SlTemplateEnv env;

  CURLM *multi;
  guint current_url;        /* where requests go; moves on when one fails */
  HttpRequest requests[HTTP_MAX_IN_FLIGHT];
  GString *rendered;        /* scratch for one message */
  gboolean failing;         /* the last request failed: log only the first */

  SlCounter *requests_sent;
  SlCounter *request_errors;
  SlCounter *retried;
  SlCounter *failovers;
} HttpDestination;

/* The body of a request from msgs[0..) : as many messages as batch-lines()
 * and batch-bytes() allow, at least one; how many it took. */
guint       http_body_build     (HttpDestination *self, SlMessage *const *msgs, guint n, GString *body);
/* body compressed as content-compression() says; FALSE (logged) when zlib failed. */
gboolean    http_body_compress  (HttpDestination *self, GString *body);

/* The multi handle and one easy handle per request slot. */
gboolean    http_transfer_open  (HttpDestination *self, GError **error);
void        http_transfer_close (HttpDestination *self);
/* Sends the requests and waits until each is settled or failed as its
 * last retry allowed. */
void        http_transfer_run   (HttpDestination *self, HttpRequest *requests, guint n);
/* What a response's status means, response-action() first. */
HttpAction  http_status_action  (const HttpDestination *self, glong status);

G_END_DECLS

#endif
