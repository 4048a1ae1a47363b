/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the parts of the http() destination share: the driver instance,
 * the request bodies a write() is cut into, and the transfers that carry
 * them through one libcurl multi handle per writer. */
#ifndef HTTP_DESTINATION_H
#define HTTP_DESTINATION_H

#include "core/plugin/plugin.h"
#include "core/plugin/rsyslog-module.h"
#include "core/stats.h"
#include "core/message/template.h"
#include "core/io/tls-block.h"

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

/* bulk-response(): whether a 2xx reply is read as Elasticsearch's bulk
 * API answers, item by item */
typedef enum
{
  HTTP_BULK_AUTO,           /* when a url()'s path ends in /_bulk */
  HTTP_BULK_ELASTICSEARCH,
  HTTP_BULK_IGNORE,
} HttpBulkResponse;

/* What became of a message of the write's batch. */
typedef enum
{
  HTTP_MSG_PENDING,
  HTTP_MSG_DELIVERED,
  HTTP_MSG_DROPPED,
} HttpOutcome;

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

/* One request: the messages of the write's batch whose indexes are in
 * members, in order. */
typedef struct
{
  CURL *easy;
  GArray *members;          /* guint: indexes into the batch; under bulk replies, those not yet settled */
  GString *body;            /* what is sent: the members, compressed when asked */
  GString *reply;           /* the response's body, read only for bulk replies */
  gboolean reply_overflow;  /* longer than HTTP_REPLY_MAX: not read */
  guint attempts;
  gboolean in_flight;
  gboolean settled;         /* delivered or dropped */
  gboolean dropped;
  HttpAction failure;       /* why the last attempt failed */
  gchar why[64];            /* its status or libcurl's error, for the write's reason */
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
  const gchar *proxy;
  gint compression;         /* HttpCompression */
  GPtrArray *response_action;
  gboolean accept_redirects;
  gint bulk_response;       /* HttpBulkResponse */

  /* what a status means: index status - 100 */
  guint8 actions[500];
  SlTlsBlock *tls;
  struct curl_slist *header_list;
  gchar *auth;              /* user:password */
  SlTemplateEnv env;

  CURLM *multi;
  guint current_url;        /* where requests go; moves on when one fails */
  HttpRequest requests[HTTP_MAX_IN_FLIGHT];
  GString *rendered;        /* scratch for one message */
  gboolean bulk;            /* replies are read as Elasticsearch's bulk API's */
  SlMessage *const *batch;  /* the messages of the write under way */
  GArray *outcomes;         /* HttpOutcome (guint8) per message of that batch */
  /* When messages after the first one left pending were delivered or
   * dropped already: each message of the batch's rest (referenced) -> the
   * outcomes of its places in it, so that the retried batch does not send
   * them again. */
  GHashTable *settled;

  SlCounter *requests_sent;
  SlCounter *request_errors;
  SlCounter *retried;
  SlCounter *failovers;
  SlCounter *bulk_retried;  /* items a bulk reply refused for now, sent again */
  SlCounter *bulk_dropped;  /* items a bulk reply refused for good */
} HttpDestination;

/* The most of a response's body that is read */
#define HTTP_REPLY_MAX (64 * 1024 * 1024)

/* The body of a request from the messages msgs[members[0..n)]: as many as
 * batch-lines() and batch-bytes() allow, at least one; how many it took. */
guint       http_body_build     (HttpDestination *self, SlMessage *const *msgs, const guint *members, guint n,
                                 GString *body);
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

/* Whether url is an Elasticsearch bulk endpoint: its path ends in /_bulk. */
gboolean    http_bulk_url       (const gchar *url);
/* The 2xx reply of r read as Elasticsearch's bulk answer: each member
 * that its item says was taken or refused for good gets that outcome,
 * and the members left (refused for now) make r's body anew. TRUE when
 * none is left. */
gboolean    http_bulk_settle    (HttpDestination *self, HttpRequest *r);

/* rsyslog's omelasticsearch and omhttp (http-rsyslog.c) */
extern const SlRsModule http_omelasticsearch;
extern const SlRsModule http_omhttp;

G_END_DECLS

#endif
