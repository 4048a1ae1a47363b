/* SPDX-License-Identifier: GPL-2.0-or-later */
/* usertty(): writes messages to the terminals of a logged-in user, or of
 * every user with "*", as syslogd does with emergencies. The users come
 * from utmp, read once per batch; each terminal is written once, without
 * waiting: one that would block (a stopped terminal) is skipped, and a
 * user who is not logged in gets nothing. */
#include "plugins/destinations/usertty/usertty-rsyslog.h"
#include "core/config/error.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/plugin/plugin.h"
#include "core/message/template.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utmp.h>
#include <utmpx.h>

#define DEFAULT_TEMPLATE "${DATE} ${HOST} ${MSGHDR}${MESSAGE}\r\n"

typedef struct
{
  SlDriver super;
  const gchar *username;
  const gchar *utmp_file;
  SlTemplate *template;

  const gchar *user;      /* NULL: every user */
  const SlTemplateEnv *env;
  GString *buf;
  GPtrArray *terminals;   /* "/dev/..." paths of this batch */
} UserttyDestination;

static const SlOptionSpec usertty_options[] = {
  { "username", SL_STRING (UserttyDestination, username), NULL,
    "the user whose terminals get the messages; \"*\" for everyone logged in", .flags = SL_OPT_POSITIONAL },
  { "template", SL_TEMPLATE (UserttyDestination, template), DEFAULT_TEMPLATE,
    "how each message is written (a template or a template's name)" },
  { "utmp-file", SL_STRING (UserttyDestination, utmp_file), _PATH_UTMP, "where the logged-in users are listed" },
  { NULL }
};

/* utmpxname() and the getutxent() walk are one process-wide state. */
static GMutex utmp_lock;

static gboolean
usertty_init (SlDriver *d, GError **error)
{
  UserttyDestination *self = (UserttyDestination *) d;
  self->buf = g_string_sized_new (4096);
  self->terminals = g_ptr_array_new_with_free_func (g_free);
  const gchar *user = self->username;
  if (!user || !*user)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("usertty() needs a user name, or \"*\" for every user"));
      return FALSE;
    }
  if (strlen (user) > sizeof (((struct utmpx *) NULL)->ut_user))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "username"),
                        _("user name '%s' is longer than utmp keeps"), user);
      return FALSE;
    }
  self->user = strcmp (user, "*") == 0 ? NULL : user;
  self->env = sl_driver_template_env (d);
  return TRUE;
}

/* A terminal name from utmp names a device under /dev, nothing else. */
static gboolean
line_is_safe (const gchar *line)
{
  if (!*line || *line == '/')
    return FALSE;
  for (const gchar *p = line; (p = strstr (p, "..")); p += 2)
    if ((p == line || p[-1] == '/') && (p[2] == '/' || p[2] == '\0'))
      return FALSE;
  return TRUE;
}

static void
add_terminal (UserttyDestination *self, const gchar *line, gsize max)
{
  gchar *name = g_strndup (line, strnlen (line, max));
  gchar *path = line_is_safe (name) ? g_strconcat ("/dev/", name, NULL) : NULL;
  g_free (name);
  if (!path)
    return;
  for (guint i = 0; i < self->terminals->len; i++)
    if (strcmp (g_ptr_array_index (self->terminals, i), path) == 0)
      {
        g_free (path);
        return;
      }
  g_ptr_array_add (self->terminals, path);
}

static void
find_terminals (UserttyDestination *self)
{
  g_ptr_array_set_size (self->terminals, 0);
  g_mutex_lock (&utmp_lock);
  if (utmpxname (self->utmp_file) == 0)
    {
      setutxent ();
      struct utmpx *u;
      while ((u = getutxent ()))
        if (u->ut_type == USER_PROCESS
            && (!self->user || strncmp (u->ut_user, self->user, sizeof u->ut_user) == 0))
          add_terminal (self, u->ut_line, sizeof u->ut_line);
      endutxent ();
    }
  g_mutex_unlock (&utmp_lock);
}

/* Only a terminal is written: a utmp entry naming another device is not
 * even opened, as opening some devices does something by itself. */
static void
write_terminal (const gchar *path, const GString *text)
{
  struct stat st;
  if (stat (path, &st) < 0 || !S_ISCHR (st.st_mode))
    return;
  gint fd = open (path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return;
  if (isatty (fd) && write (fd, text->str, text->len) < 0 && errno != EAGAIN)
    sl_log (SL_LOG_DEBUG, _("cannot write terminal; terminal='%s', error='%s'"), path, g_strerror (errno));
  close (fd);
}

/* Messages for terminals are a courtesy, as in syslogd: nobody logged in,
 * or a terminal that cannot take them now, does not hold them. */
static SlWriteResult
usertty_write (SlDriver *d, SlWriteBatch *batch)
{
  UserttyDestination *self = (UserttyDestination *) d;
  batch->done = batch->n;
  find_terminals (self);
  if (!self->terminals->len)
    return SL_WRITE_OK;
  g_string_truncate (self->buf, 0);
  for (guint i = 0; i < batch->n; i++)
    sl_template_append (self->template, batch->msgs[i], self->env, self->buf);
  for (guint i = 0; i < self->terminals->len; i++)
    write_terminal (g_ptr_array_index (self->terminals, i), self->buf);
  return SL_WRITE_OK;
}

static void
usertty_free (SlDriver *d)
{
  UserttyDestination *self = (UserttyDestination *) d;
  if (self->buf)
    g_string_free (self->buf, TRUE);
  if (self->terminals)
    g_ptr_array_unref (self->terminals);
}

static const SlDestinationOps usertty_ops = {
  .write = usertty_write,
};

static const SlDriverClass usertty_destination_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "usertty",
  .summary = "write messages to the terminals of a logged-in user, or of everyone",
  .options = usertty_options,
  .capabilities = SL_CAP_TEMPLATES,
  .instance_size = sizeof (UserttyDestination),
  .init = usertty_init,
  .free = usertty_free,
  .ops.destination = &usertty_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "usertty-destination",
  .drivers = (const SlDriverClass *const[]) { &usertty_destination_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &usertty_omusrmsg, NULL },
};
