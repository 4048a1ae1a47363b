/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Transfers: one libcurl multi handle per writer drives all of a write's
 * requests at once on the writer's own thread (no thread per request),
 * retries a failed one after a back-off on the next url(), and settles
 * each as its response says. */
#include "plugins/destinations/http/http-destination.h"
#include "core/route/destination.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/io/tls-block-curl.h"

#include <string.h>

/* Back-off before the second attempt of a request, doubled for each
 * further one up to the cap. */
#define BACKOFF_FIRST_MS 100
#define BACKOFF_MAX_MS 5000
/* While the destination stops, a request the receiver has not answered
 * for this long is given up, so that a stalled receiver cannot hold the
 * daemon's shutdown for timeout(). */
#define STALLED_AT_STOP_US (2 * G_USEC_PER_SEC)

static size_t
discard_response (gchar *data, size_t size, size_t n, gpointer user_data)
{
  return size * n;
}

/* For bulk replies: the body, up to HTTP_REPLY_MAX. */
static size_t
keep_response (gchar *data, size_t size, size_t n, gpointer user_data)
{
  HttpRequest *r = user_data;
  if (r->reply->len + size * n > HTTP_REPLY_MAX)
    r->reply_overflow = TRUE;
  else
    g_string_append_len (r->reply, data, size * n);
  return size * n;
}

static void
setup_easy (HttpDestination *self, HttpRequest *r)
{
  CURL *e = r->easy;
  curl_easy_setopt (e, CURLOPT_PRIVATE, r);
  curl_easy_setopt (e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt (e, CURLOPT_WRITEFUNCTION, self->bulk ? keep_response : discard_response);
  curl_easy_setopt (e, CURLOPT_WRITEDATA, r);
  curl_easy_setopt (e, CURLOPT_HTTPHEADER, self->header_list);
  curl_easy_setopt (e, CURLOPT_USERAGENT, self->user_agent);
  curl_easy_setopt (e, CURLOPT_TIMEOUT_MS, (long) self->timeout_ms);
  curl_easy_setopt (e, CURLOPT_FOLLOWLOCATION, self->accept_redirects ? 1L : 0L);
  if (self->method == HTTP_METHOD_PUT)
    curl_easy_setopt (e, CURLOPT_CUSTOMREQUEST, "PUT");
  if (self->user)
    {
      curl_easy_setopt (e, CURLOPT_HTTPAUTH, (long) CURLAUTH_BASIC);
      curl_easy_setopt (e, CURLOPT_USERNAME, self->user);
      curl_easy_setopt (e, CURLOPT_PASSWORD, self->password ? self->password : "");
    }
  if (self->proxy)
    curl_easy_setopt (e, CURLOPT_PROXY, self->proxy);
  sl_tls_block_fill_curl (self->tls, e);
}

gboolean
http_transfer_open (HttpDestination *self, GError **error)
{
  self->multi = curl_multi_init ();
  curl_multi_setopt (self->multi, CURLMOPT_MAXCONNECTS, (long) HTTP_MAX_IN_FLIGHT);
  for (guint i = 0; i < HTTP_MAX_IN_FLIGHT; i++)
    {
      HttpRequest *r = &self->requests[i];
      r->easy = curl_easy_init ();
      r->body = g_string_sized_new (64 * 1024);
      r->reply = g_string_new (NULL);
      r->members = g_array_new (FALSE, FALSE, sizeof (guint));
      setup_easy (self, r);
    }
  return TRUE;
}

void
http_transfer_close (HttpDestination *self)
{
  for (guint i = 0; i < HTTP_MAX_IN_FLIGHT; i++)
    {
      HttpRequest *r = &self->requests[i];
      if (r->easy && r->in_flight)
        curl_multi_remove_handle (self->multi, r->easy);
      if (r->easy)
        curl_easy_cleanup (r->easy);
      if (r->body)
        g_string_free (r->body, TRUE);
      if (r->reply)
        g_string_free (r->reply, TRUE);
      if (r->members)
        g_array_unref (r->members);
      memset (r, 0, sizeof *r);
    }
  if (self->multi)
    curl_multi_cleanup (self->multi);
  self->multi = NULL;
}

static void
start_attempt (HttpDestination *self, HttpRequest *r)
{
  r->url = self->current_url;
  r->in_flight = TRUE;
  r->started = g_get_monotonic_time ();
  r->attempts++;
  g_string_truncate (r->reply, 0);
  r->reply_overflow = FALSE;
  curl_easy_setopt (r->easy, CURLOPT_URL, (const gchar *) g_ptr_array_index (self->urls, r->url));
  curl_easy_setopt (r->easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t) r->body->len);
  curl_easy_setopt (r->easy, CURLOPT_POSTFIELDS, r->body->str);
  curl_multi_add_handle (self->multi, r->easy);
  sl_counter_add (self->requests_sent, 1);
}

/* A failed attempt: the next one goes to the next url(), and the writer
 * stays there until that one fails too. */
static void
fail_over (HttpDestination *self, HttpRequest *r, const gchar *why)
{
  const gchar *url = g_ptr_array_index (self->urls, r->url);
  sl_counter_add (self->request_errors, 1);
  g_strlcpy (r->why, why, sizeof r->why);
  if (self->urls->len > 1 && self->current_url == r->url)
    {
      self->current_url = (r->url + 1) % self->urls->len;
      sl_counter_add (self->failovers, 1);
      sl_log (SL_LOG_NOTICE, _("failing over; from='%s', to='%s', driver='%s'"), url,
              (const gchar *) g_ptr_array_index (self->urls, self->current_url), self->super.id);
    }
}

static gint64
backoff_us (guint attempts)
{
  gint64 ms = BACKOFF_FIRST_MS;
  for (guint i = 1; i < attempts && ms < BACKOFF_MAX_MS; i++)
    ms *= 2;
  return MIN (ms, BACKOFF_MAX_MS) * 1000;
}

/* A transfer ended: result is libcurl's, the status the server's. */
static void
finish_attempt (HttpDestination *self, HttpRequest *r, CURLcode result, gint64 now)
{
  curl_multi_remove_handle (self->multi, r->easy);
  r->in_flight = FALSE;
  r->status = 0;
  HttpAction action;
  gchar why[64];
  if (result == CURLE_OK)
    {
      curl_easy_getinfo (r->easy, CURLINFO_RESPONSE_CODE, &r->status);
      action = http_status_action (self, r->status);
      g_snprintf (why, sizeof why, "HTTP %ld", r->status);
    }
  else
    {
      action = HTTP_ACTION_DISCONNECT;
      g_strlcpy (why, curl_easy_strerror (result), sizeof why);
    }
  if (action == HTTP_ACTION_SUCCESS && self->bulk && !http_bulk_settle (self, r))
    {
      /* the server answers; some items are to be sent again */
      r->failure = HTTP_ACTION_RETRY;
      g_strlcpy (r->why, _("the bulk reply refused some items for now"), sizeof r->why);
      if (r->attempts < (guint) MAX (self->retries, 1))
        sl_counter_add (self->retried, 1);
      r->next_at = now + backoff_us (r->attempts);
      return;
    }
  switch (action)
    {
    case HTTP_ACTION_SUCCESS:
    case HTTP_ACTION_DROP:
      r->settled = TRUE;
      r->dropped = action == HTTP_ACTION_DROP;
      if (r->dropped)
        sl_log (SL_LOG_WARNING, _("HTTP request refused, dropping its messages; url='%s', status='%ld', messages='%u', driver='%s'"),
                (const gchar *) g_ptr_array_index (self->urls, r->url), r->status, r->members->len, self->super.id);
      return;
    case HTTP_ACTION_RETRY:
    case HTTP_ACTION_DISCONNECT:
      r->failure = action;
      fail_over (self, r, why);
      if (r->attempts < (guint) MAX (self->retries, 1))
        sl_counter_add (self->retried, 1);
      r->next_at = now + backoff_us (r->attempts);
      return;
    }
}

static void
collect (HttpDestination *self, gint64 now)
{
  CURLMsg *m;
  gint left;
  while ((m = curl_multi_info_read (self->multi, &left)))
    if (m->msg == CURLMSG_DONE)
      {
        HttpRequest *r;
        curl_easy_getinfo (m->easy_handle, CURLINFO_PRIVATE, (gchar **) &r);
        finish_attempt (self, r, m->data.result, now);
      }
}

/* Whether r waits for an attempt (now or after its back-off). */
static gboolean
pending (const HttpDestination *self, const HttpRequest *r)
{
  return !r->settled && !r->in_flight && r->attempts < (guint) MAX (self->retries, 1);
}

void
http_transfer_run (HttpDestination *self, HttpRequest *requests, guint n)
{
  for (guint i = 0; i < n; i++)
    start_attempt (self, &requests[i]);
  for (;;)
    {
      gint running;
      curl_multi_perform (self->multi, &running);
      gint64 now = g_get_monotonic_time ();
      collect (self, now);

      gboolean stopping = sl_destination_stopping ();
      gboolean busy = FALSE;
      gint64 wake = now + G_USEC_PER_SEC;
      for (guint i = 0; i < n; i++)
        {
          HttpRequest *r = &requests[i];
          if (r->in_flight && stopping && now - r->started > STALLED_AT_STOP_US)
            {
              curl_multi_remove_handle (self->multi, r->easy);
              r->in_flight = FALSE;
              r->failure = HTTP_ACTION_DISCONNECT;
              g_strlcpy (r->why, _("no answer"), sizeof r->why);
              r->attempts = MAX (r->attempts, (guint) MAX (self->retries, 1));
              sl_log (SL_LOG_ERROR, _("HTTP server answers nothing while the destination stops, giving up; url='%s', driver='%s'"),
                      (const gchar *) g_ptr_array_index (self->urls, r->url), self->super.id);
              continue;
            }
          if (pending (self, r))
            {
              if (r->next_at <= now)
                start_attempt (self, r);
              else
                wake = MIN (wake, r->next_at);
            }
          busy |= r->in_flight || pending (self, r);
        }
      if (!busy)
        return;
      gint wait_ms = (gint) MAX ((wake - now) / 1000, 1);
      curl_multi_poll (self->multi, NULL, 0, MIN (wait_ms, 100), NULL);
    }
}
