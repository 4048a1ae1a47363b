/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A stream source written against the installed kit only:
 * tail-lines("PATH") reads a file that grows, one message a line, on a
 * thread of its own. It holds back under flow control (the source's
 * window) and keeps its position in the persist file, so that a restart
 * goes on after the last line delivered: nothing is lost, and at most the
 * lines of one read are read twice after a crash. It does not follow
 * rotation or truncation as file() does.
 * doc/plugin-guide.md ("A stream source") walks through it. */
#include <sluice/plugin.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TAIL_LINES_CHUNK (64 * 1024)
#define TAIL_LINES_BATCH 64
/* how long stop() lets the thread deliver what it read */
#define TAIL_LINES_STOP_GRACE_USEC (2 * G_USEC_PER_SEC)

typedef struct
{
  SlDriver super;
  const gchar *path;
  gint64 follow_freq;    /* ms */
  gchar *persist_key;

  SlSource *source;
  SlWindow *window;
  GThread *thread;
  GMutex lock;
  GCond changed;         /* stopping or finished */
  gboolean stopping;
  gboolean finished;

  /* the reading thread's own */
  gint fd;
  gint64 offset;         /* where the first byte of buf is in the file */
  gchar *buf;
  gsize size, len;
  gboolean missing_logged;
  SlMessage *batch[TAIL_LINES_BATCH];
  guint batched;
} TailLines;

static const SlOptionSpec tail_lines_options[] = {
  { "path", SL_STRING (TailLines, path), NULL, "the file to read", .flags = SL_OPT_POSITIONAL },
  { "follow-freq", SL_DURATION (TailLines, follow_freq), "1",
    "how long to wait at the end of the file before looking again" },
  { NULL }
};

static gboolean
tail_lines_init (SlDriver *d, GError **error)
{
  TailLines *self = (TailLines *) d;
  /* free() runs after a failed init() too */
  g_mutex_init (&self->lock);
  g_cond_init (&self->changed);
  self->fd = -1;
  if (!self->path || !*self->path)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos,
                        _("tail-lines() needs the file's path, as in tail-lines(\"/var/log/app.log\")"));
      return FALSE;
    }
  /* persist-name(), which the core adds to every source, names the
   * position instead of the path: the position then survives a change of
   * path, and two sources of one file keep two positions */
  const gchar *name = sl_driver_persist_name_option (d);
  self->persist_key = name ? g_strdup (name) : g_strdup_printf ("tail-lines(%s)", self->path);
  return TRUE;
}

static void
tail_lines_free (SlDriver *d)
{
  TailLines *self = (TailLines *) d;
  g_free (self->persist_key);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->changed);
}

/* Sleeps for follow-freq() or until stop(); FALSE when stopping. */
static gboolean
tail_lines_sleep (TailLines *self)
{
  gint64 until = g_get_monotonic_time () + self->follow_freq * G_TIME_SPAN_MILLISECOND;
  g_mutex_lock (&self->lock);
  while (!self->stopping && g_cond_wait_until (&self->changed, &self->lock, until))
    ;
  gboolean go_on = !self->stopping;
  g_mutex_unlock (&self->lock);
  return go_on;
}

static gboolean
tail_lines_stopping (TailLines *self)
{
  g_mutex_lock (&self->lock);
  gboolean stopping = self->stopping;
  g_mutex_unlock (&self->lock);
  return stopping;
}

/* Opens the file at the position saved for it: the start when there is
 * none or the file is shorter now. */
static gboolean
tail_lines_open (TailLines *self)
{
  self->fd = open (self->path, O_RDONLY | O_CLOEXEC);
  if (self->fd < 0)
    {
      if (!self->missing_logged)
        sl_log (SL_LOG_NOTICE, _("%s: cannot read %s yet (%s); waiting for it"), self->super.id, self->path,
                g_strerror (errno));
      self->missing_logged = TRUE;
      return FALSE;
    }
  self->missing_logged = FALSE;
  gchar *saved = sl_persist_get (self->persist_key);
  gint64 offset = saved ? g_ascii_strtoll (saved, NULL, 10) : 0;
  g_free (saved);
  struct stat st;
  if (offset < 0 || fstat (self->fd, &st) < 0 || offset > st.st_size
      || lseek (self->fd, offset, SEEK_SET) != offset)
    offset = 0;
  self->offset = offset;
  self->len = 0;
  sl_log (SL_LOG_INFO, _("%s: reading %s from byte %" PRId64), self->super.id, self->path, offset);
  return TRUE;
}

/* Posts the batch, then waits while the window is full: a destination
 * that cannot keep up holds the reading here, not the messages in a
 * queue that grows. FALSE when stop() cancelled the wait. */
static gboolean
tail_lines_post (TailLines *self)
{
  if (self->batched)
    sl_source_post (self->source, self->batch, self->batched);
  self->batched = 0;
  return sl_window_wait (self->window);
}

static gboolean
tail_lines_add (TailLines *self, const gchar *line, gsize len)
{
  if (len && line[len - 1] == '\r')
    len--;
  if (!len)
    return TRUE;
  SlMessage *msg = sl_source_parse (self->source, line, len, NULL);
  /* the message takes a place in the window until every flow-controlled
   * destination that took it has written it */
  sl_message_bind_window (msg, self->window);
  self->batch[self->batched++] = msg;
  return self->batched < TAIL_LINES_BATCH || tail_lines_post (self);
}

/* Makes messages of the complete lines in buf (and of all of it when it
 * is full and holds no line end: log-msg-size() cuts it, and counts it),
 * then waits until all of them were delivered before it records the
 * position after them. FALSE when stop() gave up waiting: the position
 * stays before those lines, which are read again at the next start. */
static gboolean
tail_lines_deliver (TailLines *self)
{
  gsize used = 0;
  while (used < self->len)
    {
      gchar *nl = memchr (self->buf + used, '\n', self->len - used);
      gsize end = nl ? (gsize) (nl - self->buf) : self->len;
      if (!nl && (used > 0 || self->len < self->size))
        break;
      if (!tail_lines_add (self, self->buf + used, end - used))
        return FALSE;
      used = nl ? end + 1 : end;
    }
  if (!tail_lines_post (self) || !sl_window_wait_empty (self->window, -1))
    return FALSE;
  self->offset += (gint64) used;
  gchar position[32];
  g_snprintf (position, sizeof position, "%" G_GINT64_FORMAT, self->offset);
  /* in the persist file at once: a kill -9 from here on repeats nothing */
  sl_persist_set (self->persist_key, position);
  memmove (self->buf, self->buf + used, self->len - used);
  self->len -= used;
  return TRUE;
}

static gpointer
tail_lines_run (gpointer data)
{
  TailLines *self = data;
  while (!tail_lines_stopping (self))
    {
      if (self->fd < 0 && !tail_lines_open (self))
        {
          tail_lines_sleep (self);
          continue;
        }
      gssize n = read (self->fd, self->buf + self->len, self->size - self->len);
      if (n > 0)
        {
          /* the messages of one read share one receive time */
          sl_source_mark_read_time ();
          self->len += (gsize) n;
          if (!tail_lines_deliver (self))
            break;
        }
      else if (n == 0)
        tail_lines_sleep (self);
      else if (errno != EINTR)
        {
          sl_source_count (self->source, "read_errors", 1);
          sl_log (SL_LOG_ERROR, _("%s: cannot read %s: %s; opening it again"), self->super.id, self->path,
                  g_strerror (errno));
          close (self->fd);
          self->fd = -1;
          tail_lines_sleep (self);
        }
    }
  g_mutex_lock (&self->lock);
  self->finished = TRUE;
  g_cond_broadcast (&self->changed);
  g_mutex_unlock (&self->lock);
  return NULL;
}

/* start() runs on the main thread; the reading goes to a thread of its
 * own, as it waits on the file and on the window. */
static gboolean
tail_lines_start (SlDriver *d, SlSource *source, GError **error)
{
  TailLines *self = (TailLines *) d;
  self->source = source;
  /* log-iw-size() places (divided among max-connections(), which this
   * source does not have) */
  self->window = sl_source_new_window (source);
  self->size = MAX (TAIL_LINES_CHUNK, sl_source_max_msg_size (source) + 1);
  self->buf = g_malloc (self->size);
  self->len = 0;
  self->stopping = FALSE;
  self->finished = FALSE;
  self->thread = g_thread_new ("tail-lines", tail_lines_run, self);
  return TRUE;
}

/* stop() runs on the main thread, before the destinations stop: the
 * lines read so far are usually delivered within the grace period. A
 * reader still waiting after it is cancelled; what it did not deliver is
 * read again at the next start. */
static void
tail_lines_stop (SlDriver *d)
{
  TailLines *self = (TailLines *) d;
  gint64 deadline = g_get_monotonic_time () + TAIL_LINES_STOP_GRACE_USEC;
  g_mutex_lock (&self->lock);
  self->stopping = TRUE;
  g_cond_broadcast (&self->changed);
  while (!self->finished && g_cond_wait_until (&self->changed, &self->lock, deadline))
    ;
  gboolean finished = self->finished;
  g_mutex_unlock (&self->lock);
  if (!finished)
    {
      sl_log (SL_LOG_NOTICE,
              _("%s: the last lines of %s were not delivered in time; they will be read again at the next start"),
              d->id, self->path);
      sl_window_cancel (self->window);
    }
  g_thread_join (self->thread);
  self->thread = NULL;
  if (self->fd >= 0)
    close (self->fd);
  self->fd = -1;
  g_clear_pointer (&self->buf, g_free);
  /* messages still queued hold references of their own */
  g_clear_pointer (&self->window, sl_window_unref);
}

static const SlSourceOps tail_lines_ops = {
  .start = tail_lines_start,
  .stop = tail_lines_stop,
};

static const SlDriverClass tail_lines_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "tail-lines",
  .summary = "read a growing file, one message a line, resuming where it stopped",
  .options = tail_lines_options,
  .capabilities = SL_CAP_PARSES,
  .instance_size = sizeof (TailLines),
  .init = tail_lines_init,
  .free = tail_lines_free,
  .ops.source = &tail_lines_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "example-tail-lines",
  .drivers = (const SlDriverClass *const[]) { &tail_lines_class, NULL },
};
