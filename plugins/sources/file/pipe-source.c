/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pipe() reads a named pipe, made when it is missing; stdin() reads the
 * daemon's standard input and, as in syslog-ng, stops the daemon at its
 * end. Both are read as lines through the core's stream reader, under flow
 * control: a full window stops reading, and then writers block on the
 * full pipe instead of losing messages. */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/route/source.h"
#include "core/io/stream.h"
#include "plugins/sources/file/file-private.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct
{
  SlDriver super;
  const gchar *path;        /* NULL for stdin() */
  gint perm;
  gboolean create_dirs;
  gint fd;
  SlStreamReader *reader;
  GThread *thread;
  gint stopping;
} PipeSource;

static const SlOptionSpec pipe_options[] = {
  { "path", SL_STRING (PipeSource, path), NULL, "the named pipe to read; made when missing",
    .flags = SL_OPT_POSITIONAL },
  { "perm", SL_INT (PipeSource, perm), "0600", "mode of the pipe when it is made", SL_RANGE_MODE },
  { "create-dirs", SL_BOOL (PipeSource, create_dirs), "no", "create the pipe's folder" },
  { NULL }
};

static gboolean
pipe_init (SlDriver *d, GError **error)
{
  PipeSource *self = (PipeSource *) d;
  self->fd = -1;
  if (d->klass == &stdin_source_class)
    return TRUE;
  if (!self->path || !*self->path)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("pipe() needs the path of the named pipe"));
      return FALSE;
    }
  return TRUE;
}

/* Opened for writing too: the daemon is then a writer itself, so the pipe
 * never reaches its end when the last program writing to it closes, and
 * the reader waits for the next one instead of spinning on end of file. */
static gint
open_pipe (PipeSource *self, GError **error)
{
  struct stat st;
  if (stat (self->path, &st) == 0 && !S_ISFIFO (st.st_mode))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST, _("pipe(): %s exists and is not a named pipe"),
                   self->path);
      return -1;
    }
  if (self->create_dirs)
    {
      gchar *dir = g_path_get_dirname (self->path);
      g_mkdir_with_parents (dir, 0755);
      g_free (dir);
    }
  if (mkfifo (self->path, self->perm) == 0)
    {
      if (chmod (self->path, self->perm) < 0)
        sl_log (SL_LOG_WARNING, _("cannot set the mode of %s: %s"), self->path, g_strerror (errno));
    }
  else if (errno != EEXIST)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), _("pipe(): cannot make %s: %s"),
                   self->path, g_strerror (errno));
      return -1;
    }
  gint fd = open (self->path, O_RDWR | O_CLOEXEC);
  if (fd < 0)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), _("pipe(): cannot open %s: %s"),
                 self->path, g_strerror (errno));
  return fd;
}

static gint
open_stdin (GError **error)
{
  /* a copy, so that stopping (on reload) leaves the daemon's stdin open
   * for the next configuration */
  gint fd = fcntl (STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
  if (fd < 0)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                 _("stdin(): the daemon has no standard input: %s"), g_strerror (errno));
  return fd;
}

static gpointer
reader_thread (gpointer data)
{
  PipeSource *self = data;
  sl_stream_reader_run (self->reader);
  if (!self->path && !g_atomic_int_get (&self->stopping))
    {
      sl_log (SL_LOG_NOTICE, _("stdin() reached the end of its input; stopping once what it read is written"));
      kill (getpid (), SIGTERM);
    }
  return NULL;
}

static gboolean
pipe_start (SlDriver *d, SlSource *source, GError **error)
{
  PipeSource *self = (PipeSource *) d;
  self->fd = self->path ? open_pipe (self, error) : open_stdin (error);
  if (self->fd < 0)
    return FALSE;
  self->stopping = 0;
  sl_source_set_transport (source, self->path ? "local+pipe" : "local+stdin");
  self->reader = sl_stream_reader_new (source, self->fd, NULL, SL_STREAM_FRAME_NEWLINE);
  self->thread = g_thread_new (self->path ? "sl-pipe" : "sl-stdin", reader_thread, self);
  sl_log (SL_LOG_INFO, _("%s: reading %s"), d->id, self->path ? self->path : "stdin");
  return TRUE;
}

static void
pipe_stop (SlDriver *d)
{
  PipeSource *self = (PipeSource *) d;
  g_atomic_int_set (&self->stopping, 1);
  sl_stream_reader_cancel (self->reader);
  g_thread_join (self->thread);
  sl_stream_reader_free (self->reader);
  close (self->fd);
  self->thread = NULL;
  self->reader = NULL;
  self->fd = -1;
}

static const SlSourceOps pipe_ops = {
  .start = pipe_start,
  .stop = pipe_stop,
};

const SlDriverClass pipe_source_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "pipe",
  .summary = "read lines from a named pipe, made when missing",
  .options = pipe_options,
  .capabilities = SL_CAP_PARSES,
  .instance_size = sizeof (PipeSource),
  .init = pipe_init,
  .ops.source = &pipe_ops,
};

const SlDriverClass stdin_source_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "stdin",
  .summary = "read lines from the daemon's standard input; its end stops the daemon",
  .capabilities = SL_CAP_PARSES,
  .instance_size = sizeof (PipeSource),
  .init = pipe_init,
  .ops.source = &pipe_ops,
};
