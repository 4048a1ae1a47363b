/* SPDX-License-Identifier: GPL-2.0-or-later */
/* program(): starts a command with /bin/sh -c and writes each message to
 * its stdin. A program that exits is started again after a back-off (1 s,
 * doubling up to a minute), and what it had not read yet is written again
 * to the new one, so messages are not lost with it. At shutdown or reload
 * its stdin is closed, it gets a moment to finish, then SIGTERM. */
#include "plugins/destinations/program/program-rsyslog.h"
#include "core/config/error.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/plugin/plugin.h"
#include "core/io/stream-writer.h"
#include "core/message/template.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEFAULT_TEMPLATE "${DATE} ${HOST} ${MSGHDR}${MESSAGE}\n"
/* how long a batch waits for a program that does not read */
#define WAIT_MS 1000
#define FIRST_BACKOFF_US G_USEC_PER_SEC
#define MAX_BACKOFF_US (60 * G_USEC_PER_SEC)
/* how long a stopping program may take after its stdin closed, and after SIGTERM */
#define EXIT_GRACE_MS 1000

typedef struct
{
  SlDriver super;
  const gchar *command;
  SlTemplate *template;
  gboolean inherit_environment;

  const SlTemplateEnv *env;
  GPid pid;             /* the running program's process (and group), or 0 */
  gint fd;              /* its stdin, or -1 */
  gint64 started;       /* monotonic µs */
  gint64 restart_at;    /* no program is started before this */
  gint64 backoff_us;
  SlStreamWriter *writer;
  gboolean start_failed;
  gboolean stalled;
} ProgramDestination;

static const SlOptionSpec program_options[] = {
  { "command", SL_STRING (ProgramDestination, command), NULL, "the command, run with /bin/sh -c",
    .flags = SL_OPT_POSITIONAL },
  { "template", SL_TEMPLATE (ProgramDestination, template), DEFAULT_TEMPLATE,
    "how each message is written (a template or a template's name)" },
  { "inherit-environment", SL_BOOL (ProgramDestination, inherit_environment), "yes",
    "give the program the daemon's environment; no: an empty one" },
  { "keep-alive", SL_UNBOUND (SL_OPT_BOOL), "no", "accepted for syslog-ng compatibility; the program is restarted at reload",
    .inherit = "keep-alive" },
  { NULL }
};

static gboolean
program_init (SlDriver *d, GError **error)
{
  ProgramDestination *self = (ProgramDestination *) d;
  self->fd = -1;
  self->backoff_us = FIRST_BACKOFF_US;
  self->writer = sl_stream_writer_new (TRUE);
  if (!self->command || !*self->command)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("program() needs the command to run"));
      return FALSE;
    }
  self->env = sl_driver_template_env (d);
  return TRUE;
}

/* In the child, before exec: a process group of its own, so that SIGTERM
 * reaches what the shell started too, and the default SIGPIPE the daemon
 * ignores. Only async-signal-safe calls. */
static void
child_setup (gpointer data)
{
  setpgid (0, 0);
  signal (SIGPIPE, SIG_DFL);
}

static gboolean
start_program (ProgramDestination *self)
{
  const gchar *argv[] = { "/bin/sh", "-c", self->command, NULL };
  const gchar *empty[] = { NULL };
  GError *error = NULL;
  gint in = -1;
  self->started = g_get_monotonic_time ();
  if (!g_spawn_async_with_pipes_and_fds (NULL, argv, self->inherit_environment ? NULL : empty,
                                         G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                         child_setup, NULL, -1, -1, -1, NULL, NULL, 0,
                                         &self->pid, &in, NULL, NULL, &error))
    {
      if (!self->start_failed)
        sl_log (SL_LOG_ERROR, _("cannot start program; command='%s', error='%s', driver='%s'"),
                self->command, error->message, self->super.id);
      g_error_free (error);
      self->start_failed = TRUE;
      self->pid = 0;
      self->restart_at = self->started + self->backoff_us;
      self->backoff_us = MIN (self->backoff_us * 2, MAX_BACKOFF_US);
      return FALSE;
    }
  self->start_failed = FALSE;
  self->fd = in;
  fcntl (self->fd, F_SETFL, fcntl (self->fd, F_GETFL) | O_NONBLOCK);
  fcntl (self->fd, F_SETFD, FD_CLOEXEC);
  sl_log (SL_LOG_INFO, _("program started; command='%s', pid='%d', driver='%s'"),
          self->command, (int) self->pid, self->super.id);
  return TRUE;
}

/* Waits up to ms for the program to exit; TRUE with its status when it did. */
static gboolean
wait_exit (ProgramDestination *self, gint ms, gint *status)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) ms * 1000;
  for (;;)
    {
      pid_t done = waitpid (self->pid, status, WNOHANG);
      if (done == self->pid || (done < 0 && errno != EINTR))
        return TRUE;
      if (g_get_monotonic_time () >= deadline)
        return FALSE;
      g_usleep (10 * 1000);
    }
}

/* Closes the program's stdin and reaps it: given EXIT_GRACE_MS to finish
 * what it read, then SIGTERM, then SIGKILL. What it did not read stays in
 * the writer for the next one. */
static gint
stop_program (ProgramDestination *self)
{
  gint status = 0;
  if (self->fd >= 0)
    {
      sl_stream_writer_reader_gone (self->writer, self->fd);
      close (self->fd);
      self->fd = -1;
    }
  if (!self->pid)
    return 0;
  if (!wait_exit (self, EXIT_GRACE_MS, &status))
    {
      kill (-self->pid, SIGTERM);
      if (!wait_exit (self, EXIT_GRACE_MS, &status))
        {
          kill (-self->pid, SIGKILL);
          wait_exit (self, G_MAXINT, &status);
        }
    }
  g_spawn_close_pid (self->pid);
  self->pid = 0;
  return status;
}

/* Started again after the back-off, which doubles while the program keeps
 * exiting soon after its start. */
static void
schedule_restart (ProgramDestination *self, gint status)
{
  gint64 now = g_get_monotonic_time ();
  if (now - self->started >= MAX_BACKOFF_US)
    self->backoff_us = FIRST_BACKOFF_US;
  self->restart_at = now + self->backoff_us;
  sl_log (SL_LOG_WARNING, _("program exited, restarting it in %" PRId64 "s; command='%s', status='%d', driver='%s'"),
          self->backoff_us / G_USEC_PER_SEC, self->command,
          WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status), self->super.id);
  self->backoff_us = MIN (self->backoff_us * 2, MAX_BACKOFF_US);
}

static gboolean
program_open (SlDriver *d, GError **error)
{
  start_program ((ProgramDestination *) d);
  return TRUE;
}

static gboolean
ensure_running (ProgramDestination *self)
{
  if (self->pid)
    return TRUE;
  return g_get_monotonic_time () >= self->restart_at && start_program (self);
}

/* A program that exited is started again by this driver after its
 * back-off, not by a close() and open(): the rest is a RETRY. */
static SlWriteResult
program_write (SlDriver *d, SlWriteBatch *batch)
{
  ProgramDestination *self = (ProgramDestination *) d;
  if (!ensure_running (self))
    return sl_write_batch_fail (batch, SL_WRITE_RETRY, 0, _("the program '%s' is not running"), self->command);
  guint n = batch->n;
  gint err = 0;
  guint done = sl_stream_writer_write (self->writer, self->fd, self->template, self->env,
                                       batch->msgs, n, WAIT_MS, &err);
  if (done < n && err == EPIPE)
    schedule_restart (self, stop_program (self));
  self->stalled = done < n && err != EPIPE;
  batch->done = done;
  if (done == n)
    return SL_WRITE_OK;
  return sl_write_batch_fail (batch, SL_WRITE_RETRY, err,
                              err == EPIPE ? _("the program '%s' exited") : _("the program '%s' does not read its input"),
                              self->command);
}

/* Notices a program that exited while no message came and starts the
 * next one once its back-off passed; the held messages are retried then,
 * and when a program that did not read makes room again. */
static gboolean
program_tick (SlDriver *d)
{
  ProgramDestination *self = (ProgramDestination *) d;
  gint status;
  if (self->pid && waitpid (self->pid, &status, WNOHANG) == self->pid)
    {
      g_spawn_close_pid (self->pid);
      self->pid = 0;
      stop_program (self);
      schedule_restart (self, status);
    }
  gboolean was_down = !self->pid;
  if (!ensure_running (self))
    return FALSE;
  gint err = 0;
  if (sl_stream_writer_pending (self->writer))
    sl_stream_writer_flush (self->writer, self->fd, 0, &err);
  struct pollfd p = { .fd = self->fd, .events = POLLOUT };
  return was_down || (self->stalled && poll (&p, 1, 0) == 1 && p.revents == POLLOUT);
}

static void
program_close (SlDriver *d)
{
  ProgramDestination *self = (ProgramDestination *) d;
  gint err = 0;
  if (self->fd >= 0 && sl_stream_writer_pending (self->writer))
    sl_stream_writer_flush (self->writer, self->fd, WAIT_MS, &err);
  stop_program (self);
  if (sl_stream_writer_pending (self->writer))
    sl_log (SL_LOG_WARNING, _("program stopped before it read every message; command='%s', driver='%s'"),
            self->command, d->id);
}

static void
program_free (SlDriver *d)
{
  ProgramDestination *self = (ProgramDestination *) d;
  stop_program (self);
  sl_stream_writer_free (self->writer);
}

static const SlDestinationOps program_ops = {
  .open = program_open,
  .write = program_write,
  .close = program_close,
  .tick = program_tick,
};

static const SlDriverClass program_destination_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "program",
  .summary = "write messages to the standard input of a program",
  .options = program_options,
  .capabilities = SL_CAP_TEMPLATES | SL_CAP_DISK_BUFFER | SL_CAP_SUPPRESS | SL_CAP_MARKS,
  .instance_size = sizeof (ProgramDestination),
  .init = program_init,
  .free = program_free,
  .ops.destination = &program_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "program-destination",
  .drivers = (const SlDriverClass *const[]) { &program_destination_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &program_omprog, NULL },
};
