/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a reply means: its status, through response-action(); and
 * Elasticsearch's bulk replies: a 200 whose "errors" is true lists in
 * "items" one object per action of the body, in order, {"<op>": {"status":
 * N, "error": {...}}}. Each item's status goes through the same table as a
 * response's (response-action(), then 2xx taken, 408/429/5xx retried,
 * other 4xx dropped); the items retried are sent again alone. A reply that
 * does not read so (no JSON, items that do not match the body) is taken
 * as the status said. */
#include "plugins/destinations/http/http-destination.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <jansson.h>
#include <string.h>

HttpAction
http_status_action (const HttpDestination *self, glong status)
{
  if (status < 100 || status > 599)
    return HTTP_ACTION_DISCONNECT;
  return (HttpAction) self->actions[status - 100];
}

gboolean
http_bulk_url (const gchar *url)
{
  gsize end = strcspn (url, "?#");
  while (end > 0 && url[end - 1] == '/')
    end--;
  return end >= strlen ("/_bulk") && strncmp (url + end - strlen ("/_bulk"), "/_bulk", strlen ("/_bulk")) == 0;
}

/* The status of one item: that of its only member, the op's object. */
static glong
item_status (json_t *item)
{
  void *it = json_is_object (item) ? json_object_iter (item) : NULL;
  json_t *op = it ? json_object_iter_value (it) : NULL;
  json_t *status = json_is_object (op) ? json_object_get (op, "status") : NULL;
  return json_is_integer (status) ? (glong) json_integer_value (status) : 0;
}

static void
log_refused (HttpDestination *self, HttpRequest *r, glong status, guint retried, guint dropped)
{
  gint64 total = sl_counter_get (self->bulk_retried) + sl_counter_get (self->bulk_dropped);
  gint64 before = total - retried - dropped;
  if (before && before / 1000 == total / 1000)
    return;
  sl_log (SL_LOG_WARNING, _("Elasticsearch refused items of a bulk request (logged the first time and then once "
                            "per 1000); status='%ld', retried='%u', dropped='%u', url='%s', driver='%s'"),
          status, retried, dropped, (const gchar *) g_ptr_array_index (self->urls, r->url), self->super.id);
}

gboolean
http_bulk_settle (HttpDestination *self, HttpRequest *r)
{
  json_t *root = r->reply_overflow ? NULL : json_loadb (r->reply->str, r->reply->len, 0, NULL);
  json_t *items = json_is_object (root) ? json_object_get (root, "items") : NULL;
  guint n = r->members->len;
  if (!json_is_true (json_object_get (root, "errors")) || !json_is_array (items) || json_array_size (items) != n)
    {
      json_decref (root);
      return TRUE;
    }
  guint kept = 0, retried = 0, dropped = 0;
  glong first_status = 0;
  guint *members = (guint *) r->members->data;
  guint8 *outcomes = (guint8 *) self->outcomes->data;
  for (guint i = 0; i < n; i++)
    {
      glong status = item_status (json_array_get (items, i));
      HttpAction action = http_status_action (self, status);
      if (action != HTTP_ACTION_SUCCESS && !first_status)
        first_status = status;
      if (action == HTTP_ACTION_SUCCESS)
        outcomes[members[i]] = HTTP_MSG_DELIVERED;
      else if (action == HTTP_ACTION_DROP)
        {
          outcomes[members[i]] = HTTP_MSG_DROPPED;
          dropped++;
        }
      else
        {
          members[kept++] = members[i];
          retried++;
        }
    }
  json_decref (root);
  g_array_set_size (r->members, kept);
  sl_counter_add (self->bulk_retried, retried);
  sl_counter_add (self->bulk_dropped, dropped);
  if (retried || dropped)
    log_refused (self, r, first_status, retried, dropped);
  if (!kept)
    return TRUE;
  /* fewer of the same messages: they fit as they did */
  http_body_build (self, self->batch, members, kept, r->body);
  if (!http_body_compress (self, r->body))
    r->attempts = (guint) MAX (self->retries, 1);
  return FALSE;
}
