/* file(): writes each message to the file its templated path names. One
 * open file per expanded path, cached; a batch is written with one write
 * per run of messages that go to the same file. */
#include "core/config.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/plugin.h"
#include "core/stats.h"
#include "core/template.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFAULT_TEMPLATE "${DATE} ${HOST} ${MSGHDR}${MESSAGE}\n"

typedef struct
{
  gint fd;
  gint64 last_used;   /* monotonic µs */
} OpenFile;

typedef struct
{
  SlDriver super;
  SlTemplate *path;
  SlTemplate *template;
  SlTemplateEnv env;
  gboolean create_dirs;
  gint perm;
  gint dir_perm;
  uid_t owner;
  gid_t group;
  uid_t dir_owner;
  gid_t dir_group;
  gint64 time_reap_us;
  gboolean fsync;
  GHashTable *files;      /* expanded path -> OpenFile */
  GString *name;
  GString *buf;
  gint64 last_reap;
  gboolean error_logged;
  SlCounter *spurious;
} FileDestination;

static const SlOptionSpec file_options[] = {
  { "path", SL_OPT_TEMPLATE, NULL, "file to write; macros make one file per value", NULL, TRUE },
  { "template", SL_OPT_TEMPLATE, NULL, "how each message is written (a template or a template's name)" },
  { "create-dirs", SL_OPT_BOOL, "no", "create missing folders of the path" },
  { "perm", SL_OPT_INT, "0600", "mode of new files" },
  { "dir-perm", SL_OPT_INT, "0700", "mode of new folders" },
  { "owner", SL_OPT_STRING, NULL, "owner of new files" },
  { "group", SL_OPT_STRING, NULL, "group of new files" },
  { "dir-owner", SL_OPT_STRING, NULL, "owner of new folders" },
  { "dir-group", SL_OPT_STRING, NULL, "group of new folders" },
  { "time-reap", SL_OPT_INT, "60", "seconds after which an idle file of a templated path is closed" },
  { "fsync", SL_OPT_BOOL, "no", "fsync() after every batch" },
  { "overwrite-if-older", SL_OPT_INT, "0", "accepted for syslog-ng compatibility" },
  SL_DESTINATION_COMMON_OPTIONS,
  { NULL }
};

static gboolean
lookup_user (SlOptions *o, const gchar *name, uid_t *out, GError **error)
{
  const gchar *v = sl_options_string (o, name);
  *out = (uid_t) -1;
  if (!v || !*v)
    return TRUE;
  struct passwd *pw = getpwnam (v);
  gchar *end;
  guint64 id = g_ascii_strtoull (v, &end, 10);
  if (pw)
    *out = pw->pw_uid;
  else if (!*end)
    *out = id;
  else
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (o, name), _("unknown user '%s'"), v);
      return FALSE;
    }
  return TRUE;
}

static gboolean
lookup_group (SlOptions *o, const gchar *name, gid_t *out, GError **error)
{
  const gchar *v = sl_options_string (o, name);
  *out = (gid_t) -1;
  if (!v || !*v)
    return TRUE;
  struct group *gr = getgrnam (v);
  gchar *end;
  guint64 id = g_ascii_strtoull (v, &end, 10);
  if (gr)
    *out = gr->gr_gid;
  else if (!*end)
    *out = id;
  else
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (o, name), _("unknown group '%s'"), v);
      return FALSE;
    }
  return TRUE;
}

static void
open_file_free (gpointer p)
{
  OpenFile *f = p;
  close (f->fd);
  g_free (f);
}

static gboolean
file_init (SlDriver *d, SlOptions *o, GError **error)
{
  FileDestination *self = (FileDestination *) d;
  self->files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, open_file_free);
  self->name = g_string_new (NULL);
  self->buf = g_string_sized_new (64 * 1024);
  self->spurious = sl_stats_counter ("destination", d->id, d->klass->name, "spurious_paths");
  if (!sl_options_string (o, "path"))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("file() needs the path of the file to write"));
      return FALSE;
    }
  self->path = sl_config_template (d->cfg, o, "path", NULL, error);
  self->template = self->path ? sl_config_template (d->cfg, o, "template", DEFAULT_TEMPLATE, error) : NULL;
  self->create_dirs = sl_options_bool (o, "create-dirs");
  self->perm = sl_options_int (o, "perm");
  self->dir_perm = sl_options_int (o, "dir-perm");
  self->time_reap_us = MAX (sl_options_int (o, "time-reap"), 1) * G_USEC_PER_SEC;
  self->fsync = sl_options_bool (o, "fsync");
  return self->template
         && sl_config_template_env (d->cfg, o, &self->env, error)
         && lookup_user (o, "owner", &self->owner, error)
         && lookup_group (o, "group", &self->group, error)
         && lookup_user (o, "dir-owner", &self->dir_owner, error)
         && lookup_group (o, "dir-group", &self->dir_group, error);
}

/* A macro value such as a PROGRAM of "../../etc/x" must not lead a path
 * out of the folder the configuration names, as syslog-ng refuses too. */
static gboolean
path_escapes (const gchar *path)
{
  for (const gchar *p = path; (p = strstr (p, "..")); p += 2)
    if ((p == path || p[-1] == '/') && (p[2] == '/' || p[2] == '\0'))
      return TRUE;
  return FALSE;
}

static void
count_spurious (FileDestination *self, const gchar *path)
{
  if (sl_counter_get (self->spurious) == 0)
    sl_log (SL_LOG_ERROR, "spurious path, message not written; path='%s', driver='%s'", path, self->super.id);
  sl_counter_add (self->spurious, 1);
}

static gboolean
make_dirs (FileDestination *self, const gchar *path)
{
  gchar *dir = g_path_get_dirname (path);
  gboolean ok = TRUE;
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      gchar *parent = g_path_get_dirname (dir);
      if (strcmp (parent, dir) != 0)
        make_dirs (self, dir);
      g_free (parent);
      ok = mkdir (dir, self->dir_perm) == 0 || errno == EEXIST;
      if (ok && (self->dir_owner != (uid_t) -1 || self->dir_group != (gid_t) -1)
          && chown (dir, self->dir_owner, self->dir_group) < 0)
        sl_log (SL_LOG_WARNING, "cannot set the owner of %s: %s", dir, g_strerror (errno));
    }
  g_free (dir);
  return ok;
}

static OpenFile *
open_path (FileDestination *self, const gchar *path)
{
  OpenFile *f = g_hash_table_lookup (self->files, path);
  if (f)
    return f;
  if (self->create_dirs)
    make_dirs (self, path);
  gint fd = open (path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, self->perm);
  if (fd < 0)
    {
      if (!self->error_logged)
        sl_log (SL_LOG_ERROR, "cannot open file for writing; filename='%s', error='%s', driver='%s'",
                path, g_strerror (errno), self->super.id);
      self->error_logged = TRUE;
      return NULL;
    }
  self->error_logged = FALSE;
  if ((self->owner != (uid_t) -1 || self->group != (gid_t) -1) && fchown (fd, self->owner, self->group) < 0)
    sl_log (SL_LOG_WARNING, "cannot set the owner of %s: %s", path, g_strerror (errno));
  f = g_new0 (OpenFile, 1);
  f->fd = fd;
  g_hash_table_insert (self->files, g_strdup (path), f);
  return f;
}

static gboolean
write_all (FileDestination *self, OpenFile *f, const gchar *data, gsize len)
{
  while (len)
    {
      gssize n = write (f->fd, data, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          sl_log (SL_LOG_ERROR, "error writing file; driver='%s', error='%s'", self->super.id, g_strerror (errno));
          return FALSE;
        }
      data += n;
      len -= n;
    }
  if (self->fsync)
    fsync (f->fd);
  return TRUE;
}

static gboolean
flush_run (FileDestination *self, const gchar *path)
{
  if (!self->buf->len)
    return TRUE;
  OpenFile *f = open_path (self, path);
  gboolean ok = f && write_all (self, f, self->buf->str, self->buf->len);
  if (f)
    f->last_used = g_get_monotonic_time ();
  if (!ok && f)
    g_hash_table_remove (self->files, path);
  g_string_truncate (self->buf, 0);
  return ok;
}

static void
reap_idle (FileDestination *self)
{
  gint64 now = g_get_monotonic_time ();
  if (now - self->last_reap < G_USEC_PER_SEC)
    return;
  self->last_reap = now;
  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init (&it, self->files);
  while (g_hash_table_iter_next (&it, NULL, &value))
    if (now - ((OpenFile *) value)->last_used > self->time_reap_us)
      g_hash_table_iter_remove (&it);
}

/* Messages going to one file are gathered and written together; a failed
 * write returns how many messages before the failed run were written, so
 * the rest is retried by the core. */
static guint
file_write (SlDriver *d, SlMessage **msgs, guint n)
{
  FileDestination *self = (FileDestination *) d;
  gboolean literal = sl_template_is_literal (self->path);
  gchar *current = NULL;
  guint run_start = 0;
  gboolean failed = FALSE;

  for (guint i = 0; i < n && !failed; i++)
    {
      if (!literal || !current)
        {
          g_string_truncate (self->name, 0);
          sl_template_append (self->path, msgs[i], &self->env, self->name);
          if (!literal && path_escapes (self->name->str))
            {
              count_spurious (self, self->name->str);
              continue;
            }
          if (!current || strcmp (current, self->name->str) != 0)
            {
              if (current && !flush_run (self, current))
                {
                  failed = TRUE;
                  break;
                }
              run_start = i;
              g_free (current);
              current = g_strdup (self->name->str);
            }
        }
      sl_template_append (self->template, msgs[i], &self->env, self->buf);
    }
  guint written = run_start;
  if (!failed && current && flush_run (self, current))
    written = n;
  g_string_truncate (self->buf, 0);
  g_free (current);
  if (!literal)
    reap_idle (self);
  return written;
}

static void
file_reopen (SlDriver *d)
{
  FileDestination *self = (FileDestination *) d;
  g_hash_table_remove_all (self->files);
}

static void
file_free (SlDriver *d)
{
  FileDestination *self = (FileDestination *) d;
  if (self->path)
    sl_template_unref (self->path);
  if (self->template)
    sl_template_unref (self->template);
  if (self->files)
    g_hash_table_unref (self->files);
  if (self->name)
    g_string_free (self->name, TRUE);
  if (self->buf)
    g_string_free (self->buf, TRUE);
}

static const SlDriverClass file_destination_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "file",
  .summary = "write messages to files whose path may use macros",
  .options = file_options,
  .instance_size = sizeof (FileDestination),
  .init = file_init,
  .free = file_free,
  .write = file_write,
  .reopen = file_reopen,
  .close = file_reopen,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "file-destination",
  .drivers = (const SlDriverClass *const[]) { &file_destination_class, NULL },
};
