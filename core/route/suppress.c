/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/route/suppress.h"
#include "core/message/macros.h"

#include <string.h>
#include <unistd.h>

/* syslog-ng writes the first 20 bytes of the repeated text into a summary
 * of at most 1023 bytes; rsyslog the first 800. */
#define SYSLOG_NG_EXCERPT 20
#define SYSLOG_NG_SUMMARY_MAX 1024
#define RSYSLOG_EXCERPT 800
#define MARK_TEXT "-- MARK --"

struct _SlSuppress
{
  SlSuppressStyle style;
  gint64 seconds;
  SlCounter *suppressed;
  GMutex lock;
  SlMessage *last;           /* the last message let through, or NULL */
  guint count;               /* repeats of it held back */
  gint64 deadline;           /* syslog-ng: when a run with repeats is summed up (monotonic µs) */
};

SlSuppress *
sl_suppress_new (SlSuppressStyle style, gint seconds, SlCounter *suppressed)
{
  SlSuppress *s = g_new0 (SlSuppress, 1);
  s->style = style;
  s->seconds = seconds;
  s->suppressed = suppressed;
  g_mutex_init (&s->lock);
  if (style == SL_SUPPRESS_SYSLOG_NG)
    sl_macro_local_fqdn ();
  return s;
}

void
sl_suppress_free (SlSuppress *s)
{
  if (!s)
    return;
  if (s->last)
    sl_message_unref (s->last);
  g_mutex_clear (&s->lock);
  g_free (s);
}

/* Values compared as syslog-ng and rsyslog compare them: as C strings,
 * a field not set being the empty one. */
static const gchar *
value_of (const SlMessage *msg, SlHandle h, gsize *len)
{
  const gchar *value = sl_message_get (msg, h, len);
  if (!value)
    {
      *len = 0;
      return "";
    }
  const gchar *nul = memchr (value, '\0', *len);
  if (nul)
    *len = nul - value;
  return value;
}

static gboolean
same_value (const SlMessage *a, const SlMessage *b, SlHandle h)
{
  gsize alen, blen;
  const gchar *av = value_of (a, h, &alen), *bv = value_of (b, h, &blen);
  return alen == blen && memcmp (av, bv, alen) == 0;
}

static gboolean
is_repeat (const SlMessage *msg, const SlMessage *last)
{
  return same_value (msg, last, SL_F_MESSAGE) && same_value (msg, last, SL_F_HOST)
         && same_value (msg, last, SL_F_PROGRAM) && same_value (msg, last, SL_F_PID);
}

/* syslog-ng never holds back a text that is the start of "-- MARK --",
 * the empty one included: it compares only as many bytes as the text has. */
static gboolean
is_mark (const SlMessage *msg)
{
  gsize len;
  const gchar *text = value_of (msg, SL_F_MESSAGE, &len);
  return len <= strlen (MARK_TEXT) && memcmp (text, MARK_TEXT, len) == 0;
}

static gint64
recvd_second (const SlMessage *msg)
{
  return msg->recvd.usec / G_USEC_PER_SEC;
}

static gboolean
holds_back (SlSuppress *s, const SlMessage *msg)
{
  if (!s->last || !is_repeat (msg, s->last))
    return FALSE;
  if (s->style == SL_SUPPRESS_RSYSLOG)
    return TRUE;
  return recvd_second (s->last) >= recvd_second (msg) - s->seconds && !is_mark (msg);
}

static SlMessage *
syslog_ng_summary (SlSuppress *s)
{
  gsize len;
  const gchar *text = value_of (s->last, SL_F_MESSAGE, &len);
  gchar buf[SYSLOG_NG_SUMMARY_MAX];
  gint n = g_snprintf (buf, sizeof buf, "Last message '%.*s' repeated %u times, suppressed by syslog-ng on %s",
                       (gint) MIN (len, SYSLOG_NG_EXCERPT), text, s->count, sl_macro_local_fqdn ());
  gsize size = MIN ((gsize) n, sizeof buf - 1);
  /* made as syslog-ng makes its own messages (stamped now, local, its
   * pid), then given the repeated message's host and program */
  SlMessage *summary = sl_message_new (buf, size);
  sl_time_now (&summary->recvd);
  summary->stamp = summary->recvd;
  summary->pri = s->last->pri;
  summary->flags |= SL_MSG_LOCAL;
  sl_message_set_slice (summary, SL_F_MESSAGE, summary->raw, size);
  gchar pid[16];
  g_snprintf (pid, sizeof pid, "%d", (int) getpid ());
  sl_message_set (summary, SL_F_PID, pid, -1);
  const gchar *value = value_of (s->last, SL_F_HOST, &len);
  sl_message_set (summary, SL_F_HOST, value, len);
  value = value_of (s->last, SL_F_PROGRAM, &len);
  sl_message_set (summary, SL_F_PROGRAM, value, len);
  return summary;
}

/* rsyslog's text starts with the space its msg property keeps after the
 * tag, and so does the repeated msg inside the brackets: both are the
 * MESSAGE here, after a tag whose ": " holds that space. */
static SlMessage *
rsyslog_summary (SlSuppress *s)
{
  if (s->count == 1)
    return sl_message_ref (s->last);
  gsize len;
  const gchar *text = value_of (s->last, SL_F_MESSAGE, &len);
  gboolean tagged = sl_message_has (s->last, SL_F_PROGRAM);
  gsize excerpt = MIN (len, (gsize) RSYSLOG_EXCERPT - (tagged ? 1 : 0));
  gchar *line = g_strdup_printf ("message repeated %u times: [%s%.*s]", s->count, tagged ? " " : "",
                                 (gint) excerpt, text);
  SlMessage *summary = sl_message_clone (s->last);
  sl_message_set (summary, SL_F_MESSAGE, line, -1);
  g_free (line);
  return summary;
}

/* The summary of the open run, which ends. */
static SlMessage *
close_run (SlSuppress *s)
{
  SlMessage *summary = s->count ? (s->style == SL_SUPPRESS_SYSLOG_NG ? syslog_ng_summary (s) : rsyslog_summary (s))
                       : NULL;
  g_clear_pointer (&s->last, sl_message_unref);
  s->count = 0;
  return summary;
}

SlQueueItem *
sl_suppress_filter (SlSuppress *s, const SlQueueItem *items, guint *n, gint64 now)
{
  SlQueueItem *out = g_new (SlQueueItem, 2 * *n);
  guint kept = 0, held = 0;
  g_mutex_lock (&s->lock);
  for (guint i = 0; i < *n; i++)
    {
      SlMessage *msg = items[i].msg;
      if (holds_back (s, msg))
        {
          if (++s->count == 1)
            s->deadline = (now / G_USEC_PER_SEC + s->seconds) * G_USEC_PER_SEC;
          if (s->style == SL_SUPPRESS_RSYSLOG)
            {
              /* the summary carries the newest repeat's stamps */
              sl_message_unref (s->last);
              s->last = sl_message_ref (msg);
            }
          sl_queue_item_free (&items[i]);
          held++;
          continue;
        }
      SlMessage *summary = close_run (s);
      if (summary)
        out[kept++] = (SlQueueItem) { summary, FALSE };
      s->last = sl_message_ref (msg);
      out[kept++] = items[i];
    }
  g_mutex_unlock (&s->lock);
  if (held && s->suppressed)
    sl_counter_add (s->suppressed, held);
  *n = kept;
  return out;
}

SlMessage *
sl_suppress_expire (SlSuppress *s, gint64 now, gboolean stopping)
{
  SlMessage *summary = NULL;
  g_mutex_lock (&s->lock);
  if (s->count && (s->style == SL_SUPPRESS_SYSLOG_NG ? !stopping && now >= s->deadline : stopping))
    summary = close_run (s);
  g_mutex_unlock (&s->lock);
  return summary;
}
