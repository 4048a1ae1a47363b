/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mark(): Sluice's own source (syslog-ng has none of this name) of a MARK
 * every freq() seconds, whatever else comes: rsyslog's immark, which
 * mark-rsyslog.c maps onto it. Its messages are ordinary local ones,
 * not internal()'s MARKs, so every destination writes them whatever its
 * mark-mode(). */
#include "plugins/sources/mark/mark-rsyslog.h"
#include "core/message/mark.h"
#include "core/plugin/plugin.h"
#include "core/route/source.h"

typedef struct
{
  SlDriver super;
  gint freq;
  const gchar *text;
  const gchar *program;
  SlSource *source;
  GThread *thread;
  GMutex lock;
  GCond cond;
  gboolean stopping;
} MarkSource;

static const SlOptionSpec mark_options[] = {
  { "freq", SL_INT (MarkSource, freq), "1200", "seconds between its messages, the first one freq() after the start",
    .inherit = "mark-freq", SL_RANGE_POSITIVE },
  { "text", SL_STRING (MarkSource, text), SL_MARK_TEXT, "the message's text" },
  { "program", SL_STRING (MarkSource, program), NULL, "its PROGRAM; none by default, as syslog-ng's MARK" },
  { NULL }
};

static SlMessage *
make_mark (MarkSource *self)
{
  SlMessage *msg = sl_mark_message_new (self->text);
  if (self->program && *self->program)
    sl_message_set (msg, SL_F_PROGRAM, self->program, -1);
  return msg;
}

static gpointer
mark_thread (gpointer data)
{
  MarkSource *self = data;
  gint64 next = g_get_monotonic_time () + (gint64) self->freq * G_USEC_PER_SEC;
  g_mutex_lock (&self->lock);
  while (!self->stopping)
    {
      if (g_get_monotonic_time () < next)
        {
          g_cond_wait_until (&self->cond, &self->lock, next);
          continue;
        }
      /* as immark sleeps its interval after each one */
      next = g_get_monotonic_time () + (gint64) self->freq * G_USEC_PER_SEC;
      g_mutex_unlock (&self->lock);
      SlMessage *msg = make_mark (self);
      sl_source_count (self->source, "received", 1);
      sl_source_post (self->source, &msg, 1);
      g_mutex_lock (&self->lock);
    }
  g_mutex_unlock (&self->lock);
  return NULL;
}

static gboolean
mark_start (SlDriver *d, SlSource *source, GError **error)
{
  MarkSource *self = (MarkSource *) d;
  self->source = source;
  self->stopping = FALSE;
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->thread = g_thread_new ("mark", mark_thread, self);
  return TRUE;
}

static void
mark_stop (SlDriver *d)
{
  MarkSource *self = (MarkSource *) d;
  g_mutex_lock (&self->lock);
  self->stopping = TRUE;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);
  g_thread_join (self->thread);
  self->thread = NULL;
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
}

static const SlSourceOps mark_ops = {
  .start = mark_start,
  .stop = mark_stop,
};

static const SlDriverClass mark_source_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "mark",
  .summary = "Sluice's own: a MARK message every freq() seconds, as rsyslog's immark makes them",
  .options = mark_options,
  .instance_size = sizeof (MarkSource),
  .ops.source = &mark_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "mark-source",
  .drivers = (const SlDriverClass *const[]) { &mark_source_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &mark_immark, NULL },
};
