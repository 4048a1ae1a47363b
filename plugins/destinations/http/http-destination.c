/* SPDX-License-Identifier: GPL-2.0-or-later */
/* http(): messages in batches as the bodies of HTTP requests, syslog-ng's
 * options. A write() is cut into requests of batch-lines() messages, sent
 * at once through libcurl's multi interface; its messages are
 * acknowledged only when their request got a 2xx (or a status that
 * response-action() says to drop), so flow control and disk-buffer() hold
 * them until then. */
#include "plugins/destinations/http/http-destination.h"
#include "core/config/error.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/io/tls-block-curl.h"
#include "core/version.h"

#include <stdlib.h>
#include <string.h>

static const SlOptionWord method_words[] = {
  { "POST", HTTP_METHOD_POST },
  { "PUT", HTTP_METHOD_PUT },
  { NULL }
};

static const SlOptionWord compression_words[] = {
  { "identity", HTTP_COMPRESS_NONE },
  { "gzip", HTTP_COMPRESS_GZIP },
  { NULL }
};

static const SlOptionWord bulk_response_words[] = {
  { "auto", HTTP_BULK_AUTO },
  { "elasticsearch", HTTP_BULK_ELASTICSEARCH },
  { "ignore", HTTP_BULK_IGNORE },
  { NULL }
};

static const SlOptionWord action_words[] = {
  { "success", HTTP_ACTION_SUCCESS },
  { "retry", HTTP_ACTION_RETRY },
  { "drop", HTTP_ACTION_DROP },
  { "disconnect", HTTP_ACTION_DISCONNECT },
  { NULL }
};

static const SlOptionSpec http_options[] = {
  { "url", SL_LIST (HttpDestination, urls), "http://localhost/",
    "where to send; several: workers() start on different ones and fail over to the next" },
  { "method", SL_CHOICE (HttpDestination, method), "POST", "the request method", .words = method_words },
  { "headers", SL_LIST (HttpDestination, headers), NULL, "request headers, each \"Name: value\"" },
  { "user", SL_STRING (HttpDestination, user), NULL, "user name for basic authentication" },
  { "password", SL_STRING (HttpDestination, password), NULL, "password for basic authentication" },
  { "user-agent", SL_STRING (HttpDestination, user_agent), "sluice/" SL_VERSION, "the User-Agent header" },
  { "body", SL_TEMPLATE (HttpDestination, body), "${MESSAGE}", "how each message is written into the body" },
  { "template", SL_TEMPLATE (HttpDestination, body), NULL, "the same as body()" },
  { "batch-lines", SL_INT (HttpDestination, batch_lines), "1", "most messages in one request", SL_RANGE_POSITIVE },
  { "batch-bytes", SL_SIZE (HttpDestination, batch_bytes), "0",
    "most bytes of messages in one request (a longer message goes alone); 0: no limit" },
  { "body-prefix", SL_STRING (HttpDestination, body_prefix), NULL, "text before the messages of a request" },
  { "delimiter", SL_STRING (HttpDestination, delimiter), "\n", "text between the messages of a request" },
  { "body-suffix", SL_STRING (HttpDestination, body_suffix), NULL, "text after the messages of a request" },
  { "timeout", SL_DURATION (HttpDestination, timeout_ms), "10",
    "how long a request may take before it is retried; 0: no limit" },
  { "retries", SL_INT (HttpDestination, retries), "3",
    "attempts of a request, with back-off and on the next url(), before its messages wait time-reopen(); none is dropped",
    SL_RANGE_POSITIVE },
  { "tls", SL_BLOCK (HttpDestination, tls_node), NULL,
    "the TLS options (doc/tls.md, 8) that libcurl can do: all but crl-dir(), "
    "trusted-keys(), trusted-dn(), trusted-names(), sni(no), handshake-timeout() and use-system-cert-store(yes) "
    "beside ca-file()" },
  /* as syslog-ng 3 also takes them */
  SL_TLS_INLINE_OPTIONS,
  { "proxy", SL_STRING (HttpDestination, proxy), NULL, "proxy URL; libcurl's environment variables when unset" },
  { "content-compression", SL_CHOICE (HttpDestination, compression), "identity",
    "compress request bodies (Content-Encoding)", .words = compression_words },
  { "response-action", SL_LIST (HttpDestination, response_action), NULL,
    "pairs of status and success, retry, drop or disconnect: response-action(404 retry 500 drop)" },
  { "accept-redirects", SL_BOOL (HttpDestination, accept_redirects), "no", "follow 3xx redirects" },
  { "bulk-response", SL_CHOICE (HttpDestination, bulk_response), "auto",
    "read a 2xx reply as Elasticsearch's bulk API answers and settle each message by its item's status "
    "(as response-action() says; by default 429 and 5xx retried alone, other 4xx dropped); auto: when a url() "
    "ends in /_bulk, as elasticsearch-http()'s does",
    .words = bulk_response_words },
  { NULL }
};

/* What a status means unless response-action() says otherwise: 2xx
 * delivered; 408, 429 and 5xx passing trouble on the server's side;
 * anything else (3xx not followed, 4xx) a request that will never be
 * taken. */
static HttpAction
default_action (gint status)
{
  if (status >= 200 && status < 300)
    return HTTP_ACTION_SUCCESS;
  if (status == 408 || status == 429 || status >= 500 || status < 200)
    return HTTP_ACTION_RETRY;
  return HTTP_ACTION_DROP;
}

static gboolean
read_response_action (HttpDestination *self, GError **error)
{
  for (gint s = 100; s < 600; s++)
    self->actions[s - 100] = (guint8) default_action (s);
  GPtrArray *list = self->response_action;
  if (!list)
    return TRUE;
  SlCfgPos pos = sl_options_pos (self->super.options, "response-action");
  if (list->len % 2)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos,
                        _("response-action() takes pairs of a status and an action, as 404 retry"));
      return FALSE;
    }
  for (guint i = 0; i < list->len; i += 2)
    {
      const gchar *status = g_ptr_array_index (list, i), *word = g_ptr_array_index (list, i + 1);
      gchar *end;
      glong s = strtol (status, &end, 10);
      if (*end || s < 100 || s > 599)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos,
                            _("response-action(): '%s' is no HTTP status (100 to 599)"), status);
          return FALSE;
        }
      const SlOptionWord *w = action_words;
      while (w->word && g_ascii_strcasecmp (w->word, word) != 0)
        w++;
      if (!w->word)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos,
                            _("response-action(): '%s' is no action; one of success, retry, drop, disconnect"), word);
          return FALSE;
        }
      self->actions[s - 100] = (guint8) w->value;
    }
  return TRUE;
}

static gboolean
read_urls (HttpDestination *self, GError **error)
{
  for (guint i = 0; i < self->urls->len; i++)
    {
      const gchar *url = g_ptr_array_index (self->urls, i);
      if (!g_str_has_prefix (url, "http://") && !g_str_has_prefix (url, "https://"))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (self->super.options, "url"),
                            _("url() takes http:// or https:// URLs, not '%s'"), url);
          return FALSE;
        }
    }
  if (!self->urls->len)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (self->super.options, "url"),
                        _("url() needs at least one URL"));
      return FALSE;
    }
  /* each worker is an instance of its own: they start on different URLs */
  static gint instances;
  self->current_url = (guint) g_atomic_int_add (&instances, 1) % self->urls->len;
  return TRUE;
}

/* A message of the batch's rest, as store_outcomes() left it: the outcome
 * of each time it came (one message may be queued twice, by two paths). */
typedef struct
{
  GByteArray *seen;
  guint taken;
} HttpHeld;

static void
held_free (gpointer data)
{
  HttpHeld *h = data;
  g_byte_array_unref (h->seen);
  g_free (h);
}

static gpointer
global_init (gpointer data)
{
  return GINT_TO_POINTER (curl_global_init (CURL_GLOBAL_DEFAULT) == CURLE_OK);
}

static gboolean
http_init (SlDriver *d, GError **error)
{
  HttpDestination *self = (HttpDestination *) d;
  static GOnce once = G_ONCE_INIT;
  if (!GPOINTER_TO_INT (g_once (&once, global_init, NULL)))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("http(): libcurl cannot be initialised"));
      return FALSE;
    }
  self->requests_sent = sl_stats_counter ("destination", d->id, d->klass->name, "requests");
  self->request_errors = sl_stats_counter ("destination", d->id, d->klass->name, "request_errors");
  self->retried = sl_stats_counter ("destination", d->id, d->klass->name, "retries");
  self->failovers = sl_stats_counter ("destination", d->id, d->klass->name, "failovers");
  self->bulk_retried = sl_stats_counter ("destination", d->id, d->klass->name, "bulk_retried_items");
  self->bulk_dropped = sl_stats_counter ("destination", d->id, d->klass->name, "bulk_dropped_items");
  self->outcomes = g_array_new (FALSE, TRUE, sizeof (guint8));
  self->settled = g_hash_table_new_full (g_direct_hash, g_direct_equal, (GDestroyNotify) sl_message_unref, held_free);
  self->rendered = g_string_sized_new (64 * 1024);
  self->env = *sl_driver_template_env (d);
  if (!read_urls (self, error) || !read_response_action (self, error))
    return FALSE;
  self->tls = sl_tls_block_new ("http()", self->tls_node, d->options, SL_TLS_CAN_CURL, "libcurl", d->pos, error);
  if (!self->tls)
    return FALSE;
  self->bulk = self->bulk_response == HTTP_BULK_ELASTICSEARCH;
  for (guint i = 0; self->bulk_response == HTTP_BULK_AUTO && i < self->urls->len; i++)
    self->bulk |= http_bulk_url (g_ptr_array_index (self->urls, i));
  for (guint i = 0; self->headers && i < self->headers->len; i++)
    self->header_list = curl_slist_append (self->header_list, g_ptr_array_index (self->headers, i));
  /* libcurl would wait a second for "100 Continue" before a large body */
  self->header_list = curl_slist_append (self->header_list, "Expect:");
  if (self->compression == HTTP_COMPRESS_GZIP)
    self->header_list = curl_slist_append (self->header_list, "Content-Encoding: gzip");
  return TRUE;
}

static gboolean
http_open (SlDriver *d, GError **error)
{
  return http_transfer_open ((HttpDestination *) d, error);
}

static void
http_close (SlDriver *d)
{
  http_transfer_close ((HttpDestination *) d);
}

/* Requests from the batch's pending messages from *pos on: as many as
 * may be in flight at once; how many were made, *pos moved past their
 * messages. */
static guint
make_requests (HttpDestination *self, SlWriteBatch *batch, guint *pos)
{
  const guint8 *outcomes = (const guint8 *) self->outcomes->data;
  guint k = 0;
  while (k < HTTP_MAX_IN_FLIGHT && *pos < batch->n)
    {
      HttpRequest *r = &self->requests[k];
      g_array_set_size (r->members, 0);
      for (; *pos < batch->n && r->members->len < (guint) self->batch_lines; ++*pos)
        if (outcomes[*pos] == HTTP_MSG_PENDING)
          g_array_append_val (r->members, *pos);
      if (!r->members->len)
        break;
      guint taken = http_body_build (self, batch->msgs, (guint *) r->members->data, r->members->len, r->body);
      g_array_set_size (r->members, taken);
      if (!http_body_compress (self, r->body))
        {
          *pos = g_array_index (r->members, guint, 0);
          break;
        }
      *pos = g_array_index (r->members, guint, taken - 1) + 1;
      r->attempts = 0;
      r->settled = r->dropped = FALSE;
      r->next_at = 0;
      r->status = 0;
      k++;
    }
  return k;
}

/* What the messages of the batch already were: those settled by an
 * earlier write whose batch stopped before them (the same messages come
 * back, referenced by the table until then). */
static void
load_outcomes (HttpDestination *self, SlWriteBatch *batch)
{
  g_array_set_size (self->outcomes, batch->n);
  guint8 *outcomes = (guint8 *) self->outcomes->data;
  for (guint i = 0; i < batch->n; i++)
    {
      HttpHeld *h = g_hash_table_lookup (self->settled, batch->msgs[i]);
      outcomes[i] = h && h->taken < h->seen->len ? h->seen->data[h->taken++] : HTTP_MSG_PENDING;
    }
}

/* Messages are acknowledged in order, up to the first still pending;
 * when some after it are settled, the outcomes of the rest are kept in
 * the table for the batch's retry. */
static void
store_outcomes (HttpDestination *self, SlWriteBatch *batch)
{
  const guint8 *outcomes = (const guint8 *) self->outcomes->data;
  g_hash_table_remove_all (self->settled);
  guint i = 0;
  for (; i < batch->n && outcomes[i] != HTTP_MSG_PENDING; i++)
    if (outcomes[i] == HTTP_MSG_DROPPED)
      batch->dropped++;
  batch->done = i;
  gboolean any = FALSE;
  for (guint k = i; k < batch->n && !any; k++)
    any = outcomes[k] != HTTP_MSG_PENDING;
  for (; any && i < batch->n; i++)
    {
      HttpHeld *h = g_hash_table_lookup (self->settled, batch->msgs[i]);
      if (!h)
        {
          h = g_new0 (HttpHeld, 1);
          h->seen = g_byte_array_new ();
          g_hash_table_insert (self->settled, sl_message_ref (batch->msgs[i]), h);
        }
      g_byte_array_append (h->seen, &outcomes[i], 1);
    }
}

/* A request that failed holds back the messages after it, even those of
 * requests that were delivered: they are not sent again unless the
 * retried batch brings other messages (a disk buffer read back): then a
 * duplicate is possible, a loss is not. */
static SlWriteResult
http_write (SlDriver *d, SlWriteBatch *batch)
{
  HttpDestination *self = (HttpDestination *) d;
  self->batch = batch->msgs;
  load_outcomes (self, batch);
  guint8 *outcomes = (guint8 *) self->outcomes->data;
  SlWriteResult result = SL_WRITE_OK;
  guint pos = 0;
  while (pos < batch->n && result == SL_WRITE_OK)
    {
      guint k = make_requests (self, batch, &pos);
      if (!k && pos < batch->n)
        {
          result = sl_write_batch_fail (batch, SL_WRITE_ERROR, 0, _("the request body could not be compressed"));
          break;
        }
      http_transfer_run (self, self->requests, k);
      for (guint i = 0; i < k; i++)
        {
          HttpRequest *r = &self->requests[i];
          if (!r->settled)
            {
              result = sl_write_batch_fail (batch, r->failure == HTTP_ACTION_DISCONNECT ? SL_WRITE_NOT_CONNECTED : SL_WRITE_RETRY,
                                            0, _("the request to %s failed: %s"),
                                            (const gchar *) g_ptr_array_index (self->urls, r->url), r->why);
              continue;
            }
          for (guint m = 0; m < r->members->len; m++)
            outcomes[g_array_index (r->members, guint, m)] = r->dropped ? HTTP_MSG_DROPPED : HTTP_MSG_DELIVERED;
        }
    }
  store_outcomes (self, batch);
  self->batch = NULL;
  return batch->done == batch->n ? SL_WRITE_OK : result;
}

static void
http_free (SlDriver *d)
{
  HttpDestination *self = (HttpDestination *) d;
  http_transfer_close (self);
  if (self->header_list)
    curl_slist_free_all (self->header_list);
  sl_tls_block_free (self->tls);
  if (self->rendered)
    g_string_free (self->rendered, TRUE);
  if (self->outcomes)
    g_array_unref (self->outcomes);
  if (self->settled)
    g_hash_table_unref (self->settled);
}

static const SlDestinationOps http_ops = {
  .open = http_open,
  .write = http_write,
  .close = http_close,
};

/* Order is given up for workers(), which start on different url()s;
 * batch-timeout() lets a batch fill before its requests go. */
static const SlDriverClass http_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "http",
  .summary = "send batches of messages as HTTP requests (webhooks, Elasticsearch bulk, Splunk HEC, Loki)",
  .options = http_options,
  .capabilities = SL_CAP_TEMPLATES | SL_CAP_WORKERS | SL_CAP_DISK_BUFFER | SL_CAP_BATCHES,
  .instance_size = sizeof (HttpDestination),
  .init = http_init,
  .free = http_free,
  .ops.destination = &http_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "http-destination",
  .drivers = (const SlDriverClass *const[]) { &http_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &http_omelasticsearch, &http_omhttp, NULL },
};
