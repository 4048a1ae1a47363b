/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pipe(): writes messages to a named pipe such as /dev/xconsole. The pipe
 * is opened without blocking, so a pipe nobody reads holds this
 * destination's messages (retried after time-reopen()) instead of holding
 * the daemon; a reader that stops reading is waited on only briefly. */
#include "plugins/destinations/pipe/pipe-rsyslog.h"
#include "core/config/error.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/plugin/plugin.h"
#include "core/io/stream-writer.h"
#include "core/message/template.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFAULT_TEMPLATE "${DATE} ${HOST} ${MSGHDR}${MESSAGE}\n"
/* how long a batch waits for a reader that does not make room */
#define WAIT_MS 1000

typedef struct
{
  SlDriver super;
  const gchar *path;
  SlTemplate *template;
  gboolean create_pipe;
  gint perm;
  const gchar *owner_name;
  const gchar *group_name;

  const SlTemplateEnv *env;
  uid_t owner;
  gid_t group;
  gint fd;
  SlStreamWriter *writer;
  gboolean held;         /* the last write failed: tick() looks for a reader */
} PipeDestination;

/* The mode and owner of what it makes come from options {} as file()'s
 * do, as in syslog-ng. */
static const SlOptionSpec pipe_options[] = {
  { "path", SL_STRING (PipeDestination, path), NULL, "the named pipe to write", .flags = SL_OPT_POSITIONAL },
  { "template", SL_TEMPLATE (PipeDestination, template), DEFAULT_TEMPLATE,
    "how each message is written (a template or a template's name)" },
  { "create-pipe", SL_BOOL (PipeDestination, create_pipe), "yes", "make the named pipe when it does not exist" },
  { "perm", SL_INT (PipeDestination, perm), "0600", "mode of a pipe this driver makes", .inherit = "perm", SL_RANGE_MODE },
  { "owner", SL_STRING (PipeDestination, owner_name), NULL, "owner of a pipe this driver makes", .inherit = "owner" },
  { "group", SL_STRING (PipeDestination, group_name), NULL, "group of a pipe this driver makes", .inherit = "group" },
  { NULL }
};

/* A name the system lacks leaves the id unset (the pipe keeps what it is
 * made with), with a warning: syslog-ng logs "Error resolving user" and
 * goes on. */
static void
read_owner (PipeDestination *self)
{
  SlOptions *o = self->super.options;
  const gchar *user = self->owner_name;
  const gchar *group = self->group_name;
  self->owner = (uid_t) -1;
  self->group = (gid_t) -1;
  if (user && *user)
    {
      struct passwd *pw = getpwnam (user);
      gchar *end;
      guint64 id = g_ascii_strtoull (user, &end, 10);
      SlCfgPos pos = sl_options_pos (o, "owner");
      if (pw || !*end)
        self->owner = pw ? pw->pw_uid : (uid_t) id;
      else
        sl_log (SL_LOG_WARNING, _("%s:%d:%d: unknown user '%s' in owner(); it is not set, as syslog-ng goes on "
                                  "after \"Error resolving user\""), pos.file, pos.line, pos.column, user);
    }
  if (group && *group)
    {
      struct group *gr = getgrnam (group);
      gchar *end;
      guint64 id = g_ascii_strtoull (group, &end, 10);
      SlCfgPos pos = sl_options_pos (o, "group");
      if (gr || !*end)
        self->group = gr ? gr->gr_gid : (gid_t) id;
      else
        sl_log (SL_LOG_WARNING, _("%s:%d:%d: unknown group '%s' in group(); it is not set, as syslog-ng goes on "
                                  "after \"Error resolving group\""), pos.file, pos.line, pos.column, group);
    }
}

static gboolean
pipe_init (SlDriver *d, GError **error)
{
  PipeDestination *self = (PipeDestination *) d;
  self->fd = -1;
  self->writer = sl_stream_writer_new (FALSE);
  if (!self->path || !*self->path)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("pipe() needs the path of the named pipe"));
      return FALSE;
    }
  self->env = sl_driver_template_env (d);
  read_owner (self);
  return TRUE;
}

static void
make_pipe (PipeDestination *self)
{
  if (mkfifo (self->path, self->perm) < 0)
    return;
  chmod (self->path, self->perm);
  if ((self->owner != (uid_t) -1 || self->group != (gid_t) -1) && chown (self->path, self->owner, self->group) < 0)
    sl_log (SL_LOG_WARNING, _("cannot set the owner of a new pipe; pipe='%s', error='%s'"), self->path, g_strerror (errno));
}

/* ENXIO (nobody reads the pipe) fails at once instead of blocking. */
static gboolean
open_pipe (PipeDestination *self, SlWriteBatch *batch)
{
  if (self->create_pipe && !g_file_test (self->path, G_FILE_TEST_EXISTS))
    make_pipe (self);
  self->fd = open (self->path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (self->fd >= 0)
    return TRUE;
  self->held = TRUE;
  sl_write_batch_fail (batch, SL_WRITE_RETRY, errno, errno == ENXIO ? _("nobody reads the pipe %s") : _("cannot open the pipe %s"),
                       self->path);
  return FALSE;
}

/* A reader that went away (EPIPE) does not close the pipe here: what it
 * holds stays for the next reader, which opens the same pipe; the rest is
 * retried after time-reopen(), or sooner when tick() sees a reader. */
static SlWriteResult
pipe_write (SlDriver *d, SlWriteBatch *batch)
{
  PipeDestination *self = (PipeDestination *) d;
  if (self->fd < 0 && !open_pipe (self, batch))
    return SL_WRITE_RETRY;
  gint err = 0;
  batch->done = sl_stream_writer_write (self->writer, self->fd, self->template, self->env,
                                        batch->msgs, batch->n, WAIT_MS, &err);
  if (batch->done < batch->n)
    {
      self->held = TRUE;
      return sl_write_batch_fail (batch, SL_WRITE_RETRY, err,
                                  err == EPIPE ? _("nobody reads the pipe %s") : _("cannot write to the pipe %s"), self->path);
    }
  if (!sl_stream_writer_pending (self->writer))
    self->held = FALSE;
  return SL_WRITE_OK;
}

/* Finishes a message a full pipe cut once the reader made room, without
 * waiting for the next message; while writes fail, says when a reader is
 * back so the held messages need not wait for time-reopen(). */
static gboolean
pipe_tick (SlDriver *d)
{
  PipeDestination *self = (PipeDestination *) d;
  gint err = 0;
  if (self->fd >= 0 && sl_stream_writer_pending (self->writer))
    sl_stream_writer_flush (self->writer, self->fd, 0, &err);
  if (!self->held)
    return FALSE;
  if (self->fd < 0)
    {
      self->fd = open (self->path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
      return self->fd >= 0;
    }
  struct pollfd p = { .fd = self->fd, .events = POLLOUT };
  return poll (&p, 1, 0) == 1 && p.revents == POLLOUT;
}

static void
pipe_close (SlDriver *d)
{
  PipeDestination *self = (PipeDestination *) d;
  if (self->fd >= 0)
    close (self->fd);
  self->fd = -1;
}

static void
pipe_free (SlDriver *d)
{
  PipeDestination *self = (PipeDestination *) d;
  pipe_close (d);
  sl_stream_writer_free (self->writer);
}

static const SlDestinationOps pipe_ops = {
  .write = pipe_write,
  .reopen = pipe_close,
  .close = pipe_close,
  .tick = pipe_tick,
};

static const SlDriverClass pipe_destination_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "pipe",
  .summary = "write messages to a named pipe, such as /dev/xconsole",
  .options = pipe_options,
  .defaults = (const gchar *const[]) { "mark-mode", "none", NULL },
  .capabilities = SL_CAP_TEMPLATES | SL_CAP_SUPPRESS | SL_CAP_MARKS,
  .instance_size = sizeof (PipeDestination),
  .init = pipe_init,
  .free = pipe_free,
  .ops.destination = &pipe_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "pipe-destination",
  .drivers = (const SlDriverClass *const[]) { &pipe_destination_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &pipe_ompipe, NULL },
};
