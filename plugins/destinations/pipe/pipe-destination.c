/* pipe(): writes messages to a named pipe such as /dev/xconsole. The pipe
 * is opened without blocking, so a pipe nobody reads holds this
 * destination's messages (retried after time-reopen()) instead of holding
 * the daemon; a reader that stops reading is waited on only briefly. */
#include "core/config.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/plugin.h"
#include "core/stream-writer.h"
#include "core/template.h"

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
  gchar *path;
  SlTemplate *template;
  SlTemplateEnv env;
  gboolean create_pipe;
  gint perm;
  uid_t owner;
  gid_t group;
  gint fd;
  SlStreamWriter *writer;
  gboolean failing;      /* an error was logged and writing has not worked since */
} PipeDestination;

static const SlOptionSpec pipe_options[] = {
  { "path", SL_OPT_STRING, NULL, "the named pipe to write", NULL, TRUE },
  { "template", SL_OPT_TEMPLATE, NULL, "how each message is written (a template or a template's name)" },
  { "create-pipe", SL_OPT_BOOL, "yes", "make the named pipe when it does not exist" },
  { "perm", SL_OPT_INT, "0600", "mode of a pipe this driver makes" },
  { "owner", SL_OPT_STRING, NULL, "owner of a pipe this driver makes" },
  { "group", SL_OPT_STRING, NULL, "group of a pipe this driver makes" },
  SL_DESTINATION_COMMON_OPTIONS,
  { NULL }
};

static gboolean
read_owner (PipeDestination *self, SlOptions *o, GError **error)
{
  const gchar *user = sl_options_string (o, "owner");
  const gchar *group = sl_options_string (o, "group");
  self->owner = (uid_t) -1;
  self->group = (gid_t) -1;
  if (user && *user)
    {
      struct passwd *pw = getpwnam (user);
      gchar *end;
      guint64 id = g_ascii_strtoull (user, &end, 10);
      if (!pw && *end)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (o, "owner"), _("unknown user '%s'"), user);
          return FALSE;
        }
      self->owner = pw ? pw->pw_uid : (uid_t) id;
    }
  if (group && *group)
    {
      struct group *gr = getgrnam (group);
      gchar *end;
      guint64 id = g_ascii_strtoull (group, &end, 10);
      if (!gr && *end)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (o, "group"), _("unknown group '%s'"), group);
          return FALSE;
        }
      self->group = gr ? gr->gr_gid : (gid_t) id;
    }
  return TRUE;
}

static gboolean
pipe_init (SlDriver *d, SlOptions *o, GError **error)
{
  PipeDestination *self = (PipeDestination *) d;
  self->fd = -1;
  self->writer = sl_stream_writer_new (FALSE);
  const gchar *path = sl_options_string (o, "path");
  if (!path || !*path)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("pipe() needs the path of the named pipe"));
      return FALSE;
    }
  self->path = g_strdup (path);
  self->create_pipe = sl_options_bool (o, "create-pipe");
  self->perm = sl_options_int (o, "perm");
  self->template = sl_config_template (d->cfg, o, "template", DEFAULT_TEMPLATE, error);
  return self->template
         && sl_config_template_env (d->cfg, o, &self->env, error)
         && read_owner (self, o, error);
}

static void
report_failure (PipeDestination *self, const gchar *what, gint err)
{
  if (!self->failing)
    sl_log (SL_LOG_ERROR, "%s; pipe='%s', error='%s', driver='%s'", what, self->path, g_strerror (err), self->super.id);
  self->failing = TRUE;
}

static void
report_success (PipeDestination *self)
{
  if (self->failing)
    sl_log (SL_LOG_NOTICE, "pipe writable again; pipe='%s', driver='%s'", self->path, self->super.id);
  self->failing = FALSE;
}

static void
make_pipe (PipeDestination *self)
{
  if (mkfifo (self->path, self->perm) < 0)
    return;
  chmod (self->path, self->perm);
  if ((self->owner != (uid_t) -1 || self->group != (gid_t) -1) && chown (self->path, self->owner, self->group) < 0)
    sl_log (SL_LOG_WARNING, "cannot set the owner of a new pipe; pipe='%s', error='%s'", self->path, g_strerror (errno));
}

/* ENXIO (nobody reads the pipe) fails at once instead of blocking. */
static gboolean
open_pipe (PipeDestination *self)
{
  if (self->create_pipe && !g_file_test (self->path, G_FILE_TEST_EXISTS))
    make_pipe (self);
  self->fd = open (self->path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (self->fd < 0)
    report_failure (self, errno == ENXIO ? "nobody reads the pipe, holding messages" : "cannot open pipe", errno);
  return self->fd >= 0;
}

/* A reader that went away (EPIPE) does not close the pipe here: what it
 * holds stays for the next reader, which opens the same pipe. */
static guint
pipe_write (SlDriver *d, SlMessage **msgs, guint n)
{
  PipeDestination *self = (PipeDestination *) d;
  if (self->fd < 0 && !open_pipe (self))
    return 0;
  gint err = 0;
  guint done = sl_stream_writer_write (self->writer, self->fd, self->template, &self->env, msgs, n, WAIT_MS, &err);
  if (done < n)
    report_failure (self, err == EPIPE ? "nobody reads the pipe, holding messages" : "error writing pipe", err);
  else if (!sl_stream_writer_pending (self->writer))
    report_success (self);
  return done;
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
  if (!self->failing)
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
  if (self->template)
    sl_template_unref (self->template);
  sl_stream_writer_free (self->writer);
  g_free (self->path);
}

static const SlDriverClass pipe_destination_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "pipe",
  .summary = "write messages to a named pipe, such as /dev/xconsole",
  .options = pipe_options,
  .instance_size = sizeof (PipeDestination),
  .init = pipe_init,
  .free = pipe_free,
  .write = pipe_write,
  .reopen = pipe_close,
  .close = pipe_close,
  .tick = pipe_tick,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "pipe-destination",
  .drivers = (const SlDriverClass *const[]) { &pipe_destination_class, NULL },
};
