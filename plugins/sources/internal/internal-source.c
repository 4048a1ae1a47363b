/* SPDX-License-Identifier: GPL-2.0-or-later */
/* internal(): the daemon's own messages, routed like any other. They are
 * handed over from whatever thread logs them and posted from this source's
 * own thread, so a destination that logs a drop never routes into itself.
 * After mark-freq() seconds in which it posted nothing it posts a MARK, as
 * syslog-ng's internal() does. */
#include "core/internal.h"
#include "core/message/macros.h"
#include "core/message/mark.h"
#include "core/plugin/plugin.h"
#include "core/route/source.h"
#include "core/stats.h"

#include <string.h>
#include <unistd.h>

/* Past this many waiting messages the oldest news is not worth memory:
 * further ones are counted as dropped. */
#define MAX_PENDING 10000

typedef struct
{
  SlDriver super;
  SlSource *source;
  GAsyncQueue *pending;
  GThread *thread;
  SlMessage *stop_marker;
  SlCounter *stamp;
  gint mark_freq;
} InternalSource;

static const SlOptionSpec internal_options[] = {
  { "log-fifo-size", SL_UNBOUND (SL_OPT_INT), NULL, "accepted for syslog-ng compatibility" },
  { "log-iw-size", SL_UNBOUND (SL_OPT_INT), NULL, "accepted for syslog-ng compatibility" },
  { "tags", SL_UNBOUND (SL_OPT_LIST), NULL, "accepted for syslog-ng compatibility" },
  /* syslog-ng takes them only in options {} */
  { "mark-freq", SL_INT (InternalSource, mark_freq), "1200",
    "seconds without a message of its own after which it posts a MARK (Sluice's own: syslog-ng takes only the "
    "global one, which this inherits); 0: none", .inherit = "mark-freq", SL_RANGE_NON_NEGATIVE },
  { "mark", SL_INT (InternalSource, mark_freq), NULL, "the old name of mark-freq()", .flags = SL_OPT_DEPRECATED,
    .inherit = "mark", SL_RANGE_NON_NEGATIVE },
  { NULL }
};

/* As syslog-ng writes its own: facility syslog, program sluiced, our pid
 * and host name, stamped now. */
static SlMessage *
internal_message (SlLogLevel level, const gchar *text)
{
  gsize len = strlen (text);
  SlMessage *msg = sl_message_new (text, len);
  sl_time_now (&msg->recvd);
  msg->stamp = msg->recvd;
  msg->pri = SL_PRI_MAKE (5, level);
  msg->flags |= SL_MSG_LOCAL;
  sl_message_set_slice (msg, SL_F_MESSAGE, msg->raw, len);
  sl_message_set (msg, SL_F_PROGRAM, "sluiced", -1);
  gchar pid[16];
  g_snprintf (pid, sizeof pid, "%d", (int) getpid ());
  sl_message_set (msg, SL_F_PID, pid, -1);
  sl_message_set (msg, SL_F_HOST, sl_macro_loghost (), -1);
  return msg;
}

static void
sink (SlLogLevel level, const gchar *text, gpointer data)
{
  InternalSource *self = data;
  if (g_async_queue_length (self->pending) >= MAX_PENDING)
    {
      sl_source_count (self->source, "dropped", 1);
      return;
    }
  g_async_queue_push (self->pending, internal_message (level, text));
}

/* The next message, or, once mark-freq() passed since the last one
 * posted, a MARK. */
static SlMessage *
next_message (InternalSource *self, gint64 mark_at)
{
  if (!self->mark_freq)
    return g_async_queue_pop (self->pending);
  gint64 wait = mark_at - g_get_monotonic_time ();
  SlMessage *msg = wait > 0 ? g_async_queue_timeout_pop (self->pending, (guint64) wait) : NULL;
  if (msg)
    return msg;
  msg = sl_mark_message_new (SL_MARK_TEXT);
  msg->flags |= SL_MSG_MARK;
  return msg;
}

static gpointer
post_thread (gpointer data)
{
  InternalSource *self = data;
  SlMessage *batch[64];
  gint64 mark_at = g_get_monotonic_time () + (gint64) self->mark_freq * G_USEC_PER_SEC;
  for (;;)
    {
      guint n = 0;
      SlMessage *msg = next_message (self, mark_at);
      gboolean stop = msg == self->stop_marker;
      while (!stop)
        {
          batch[n++] = msg;
          if (n == G_N_ELEMENTS (batch) || !(msg = g_async_queue_try_pop (self->pending)))
            break;
          stop = msg == self->stop_marker;
        }
      if (n)
        {
          sl_source_count (self->source, "received", n);
          /* syslog-ng's stamp: when the newest of its messages was made */
          sl_counter_set (self->stamp, batch[n - 1]->stamp.usec / G_USEC_PER_SEC);
          sl_source_post (self->source, batch, n);
          mark_at = g_get_monotonic_time () + (gint64) self->mark_freq * G_USEC_PER_SEC;
        }
      if (stop)
        break;
    }
  /* the reference the queue held on the marker was popped with it */
  sl_message_unref (self->stop_marker);
  return NULL;
}

static gboolean
internal_start (SlDriver *d, SlSource *source, GError **error)
{
  InternalSource *self = (InternalSource *) d;
  self->source = source;
  self->stamp = sl_stats_gauge ("source", d->id, d->klass->name, "stamp");
  self->pending = g_async_queue_new_full ((GDestroyNotify) sl_message_unref);
  self->stop_marker = sl_message_new ("", 0);
  self->thread = g_thread_new ("internal", post_thread, self);
  sl_internal_set_sink (sink, self);
  return TRUE;
}

static void
internal_stop (SlDriver *d)
{
  InternalSource *self = (InternalSource *) d;
  sl_internal_set_sink (NULL, NULL);
  g_async_queue_push (self->pending, sl_message_ref (self->stop_marker));
  g_thread_join (self->thread);
  sl_message_unref (self->stop_marker);
  g_async_queue_unref (self->pending);
  self->thread = NULL;
}

static const SlSourceOps internal_ops = {
  .start = internal_start,
  .stop = internal_stop,
};

static const SlDriverClass internal_source_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "internal",
  .summary = "the daemon's own messages: start, stop, reload, errors and drops",
  .options = internal_options,
  .instance_size = sizeof (InternalSource),
  .ops.source = &internal_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "internal-source",
  .drivers = (const SlDriverClass *const[]) { &internal_source_class, NULL },
};
