/* SPDX-License-Identifier: GPL-2.0-or-later */
/* file(): writes each message to the file its templated path names. One
 * open file per expanded path, cached; a batch is written with one write
 * per run of messages that go to the same file. A file that cannot take
 * the bytes (full disk, I/O error) keeps the messages in the queue, and
 * never keeps half of one. In the path, what macros put in cannot hold
 * '/' or control characters (they become '_'), so a sender's $HOST or
 * $PROGRAM names one file or folder inside the one the template names. */
#include "plugins/destinations/file/file-rsyslog.h"
#include "core/config/error.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/plugin/plugin.h"
#include "core/stats.h"
#include "core/message/template.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define DEFAULT_TEMPLATE "${DATE} ${HOST} ${MSGHDR}${MESSAGE}\n"

typedef struct
{
  gint fd;
  gint64 last_used;   /* monotonic µs */
  gint64 size;        /* bytes in the file, for logrotate(size()) */
} OpenFile;

/* A message rendered into the run's buffer: where its text ends, and its
 * place in the batch. */
typedef struct
{
  gsize end;
  guint index;
} Rendered;

/* What logrotate() says. */
typedef struct
{
  gboolean enable;
  gint64 size;
  gint rotations;
} Logrotate;

typedef struct
{
  SlDriver super;
  SlTemplate *path;
  SlTemplate *template;
  gboolean create_dirs;
  gint perm;
  gint dir_perm;
  const gchar *owner_name;
  const gchar *group_name;
  const gchar *dir_owner_name;
  const gchar *dir_group_name;
  gint64 time_reap_ms;
  gboolean fsync;
  const SlCfgNode *logrotate;
  gint64 max_size;
  const gchar *size_command;
  gboolean stuck;         /* size-command() left the file at max-size(): nothing goes into it until it is smaller */
  gint gzip_level;

  const SlTemplateEnv *env;
  SlTemplateEnv path_env; /* env, with macro values made safe in a file name */
  gboolean literal;
  uid_t owner;
  gid_t group;
  uid_t dir_owner;
  gid_t dir_group;
  Logrotate rotate;
  GHashTable *files;      /* expanded path -> OpenFile */
  GString *name;          /* the path of the last message whose path was rendered */
  SlTemplateMemo *path_memo;  /* what name was rendered from */
  GString *buf;
  GByteArray *zipped;     /* gzip-level(): the run as a gzip member */
  GArray *rendered;       /* Rendered, one per message in buf */
  GArray *refused;        /* guint: places in the batch of messages of a spurious path */
  SlCounter *spurious;
  SlCounter *unwritable;
} FileDestination;

/* The options of files and folders it makes, and time-reap(), may be set
 * for every file() in options {}. */
static const SlOptionSpec file_options[] = {
  { "path", SL_TEMPLATE (FileDestination, path), NULL, "file to write; macros make one file per value",
    .flags = SL_OPT_POSITIONAL },
  { "template", SL_TEMPLATE (FileDestination, template), DEFAULT_TEMPLATE,
    "how each message is written (a template or a template's name)" },
  { "create-dirs", SL_BOOL (FileDestination, create_dirs), "no", "create missing folders of the path",
    .inherit = "create-dirs" },
  { "perm", SL_INT (FileDestination, perm), "0600", "mode of new files", .inherit = "perm", SL_RANGE_MODE },
  { "dir-perm", SL_INT (FileDestination, dir_perm), "0700", "mode of new folders", .inherit = "dir-perm", SL_RANGE_MODE },
  { "owner", SL_STRING (FileDestination, owner_name), NULL, "owner of new files", .inherit = "owner" },
  { "group", SL_STRING (FileDestination, group_name), NULL, "group of new files", .inherit = "group" },
  { "dir-owner", SL_STRING (FileDestination, dir_owner_name), NULL, "owner of new folders", .inherit = "dir-owner" },
  { "dir-group", SL_STRING (FileDestination, dir_group_name), NULL, "group of new folders", .inherit = "dir-group" },
  { "time-reap", SL_DURATION (FileDestination, time_reap_ms), "60", "how long an idle file of a templated path stays open",
    .inherit = "time-reap" },
  { "fsync", SL_BOOL (FileDestination, fsync), "no", "fsync() after every batch" },
  { "logrotate", SL_BLOCK (FileDestination, logrotate), NULL,
    "rotate by size: logrotate(enable(yes) size(10MB) rotations(5))" },
  { "max-size", SL_SIZE (FileDestination, max_size), "0",
    "once a message is written to a file of this size or more, close it and run size-command(), as rsyslog's "
    "$outchannel; a file still this large after it is not written to until it is smaller; 0: no limit" },
  { "size-command", SL_STRING (FileDestination, size_command), NULL,
    "the program max-size() runs, waiting for it; what follows its first blank is its one argument" },
  { "gzip-level", SL_INT (FileDestination, gzip_level), "0",
    "write each batch as a gzip member compressed at this level, so that zcat reads the file at any time "
    "(rsyslog's omfile zipLevel); sizes count the bytes in the file; 0: plain text", SL_RANGE (0, 9) },
  { "overwrite-if-older", SL_UNBOUND (SL_OPT_INT), "0", "accepted for syslog-ng compatibility" },
  { NULL }
};

static const SlOptionSpec logrotate_options[] = {
  { "enable", SL_BOOL (Logrotate, enable), "no", "rotate files that grow past size()" },
  { "size", SL_SIZE (Logrotate, size), "10MB", "largest size of a file; the message that would pass it starts a new one",
    SL_RANGE (1, G_MAXINT64) },
  { "rotations", SL_INT (Logrotate, rotations), "1", "old files kept as NAME.1 (newest) to NAME.N", SL_RANGE (0, 1000) },
  { NULL }
};

/* A name the system lacks leaves the id unset (the file keeps what it is
 * made with), with a warning: syslog-ng logs "Error resolving user" and
 * goes on. */
static void
lookup_user (SlOptions *o, const gchar *name, const gchar *v, uid_t *out)
{
  *out = (uid_t) -1;
  if (!v || !*v)
    return;
  struct passwd *pw = getpwnam (v);
  gchar *end;
  guint64 id = g_ascii_strtoull (v, &end, 10);
  if (pw)
    *out = pw->pw_uid;
  else if (!*end)
    *out = id;
  else
    {
      SlCfgPos pos = sl_options_pos (o, name);
      sl_log (SL_LOG_WARNING, _("%s:%d:%d: unknown user '%s' in %s(); it is not set, as syslog-ng goes on "
                                "after \"Error resolving user\""), pos.file, pos.line, pos.column, v, name);
    }
}

static void
lookup_group (SlOptions *o, const gchar *name, const gchar *v, gid_t *out)
{
  *out = (gid_t) -1;
  if (!v || !*v)
    return;
  struct group *gr = getgrnam (v);
  gchar *end;
  guint64 id = g_ascii_strtoull (v, &end, 10);
  if (gr)
    *out = gr->gr_gid;
  else if (!*end)
    *out = id;
  else
    {
      SlCfgPos pos = sl_options_pos (o, name);
      sl_log (SL_LOG_WARNING, _("%s:%d:%d: unknown group '%s' in %s(); it is not set, as syslog-ng goes on "
                                "after \"Error resolving group\""), pos.file, pos.line, pos.column, v, name);
    }
}

static gboolean
read_logrotate (FileDestination *self, GError **error)
{
  if (!self->logrotate)
    return TRUE;
  const SlOptionSpec *const tables[] = { logrotate_options, NULL };
  SlOptions *lr = sl_options_new ("logrotate()", tables, NULL, self->logrotate, NULL, error);
  if (!lr)
    return FALSE;
  gboolean ok = sl_options_bind (lr, logrotate_options, &self->rotate, NULL, error);
  sl_options_free (lr);
  return ok;
}

static void
open_file_free (gpointer p)
{
  OpenFile *f = p;
  close (f->fd);
  g_free (f);
}

static gboolean
file_init (SlDriver *d, GError **error)
{
  FileDestination *self = (FileDestination *) d;
  SlOptions *o = d->options;
  self->files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, open_file_free);
  self->name = g_string_new (NULL);
  self->buf = g_string_sized_new (64 * 1024);
  self->zipped = g_byte_array_new ();
  self->rendered = g_array_new (FALSE, FALSE, sizeof (Rendered));
  self->refused = g_array_new (FALSE, FALSE, sizeof (guint));
  self->spurious = sl_stats_counter ("destination", d->id, d->klass->name, "spurious_paths");
  self->unwritable = sl_stats_counter ("destination", d->id, d->klass->name, "unwritable_paths");
  if (!self->path)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("file() needs the path of the file to write"));
      return FALSE;
    }
  self->env = sl_driver_template_env (d);
  self->path_env = *self->env;
  self->path_env.file_name = TRUE;
  self->literal = sl_template_is_literal (self->path);
  self->path_memo = sl_template_memo_new (self->path);
  /* tick() looks about once a second */
  self->time_reap_ms = MAX (self->time_reap_ms, 1000);
  lookup_user (o, "owner", self->owner_name, &self->owner);
  lookup_group (o, "group", self->group_name, &self->group);
  lookup_user (o, "dir-owner", self->dir_owner_name, &self->dir_owner);
  lookup_group (o, "dir-group", self->dir_group_name, &self->dir_group);
  return read_logrotate (self, error);
}

/* Macro values cannot hold '/' (path_env turns it into '_'), but one that
 * is ".." or "." beside a dot of the template's own text still makes a
 * ".." step: such a path is refused, as syslog-ng refuses it. */
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
    sl_log (SL_LOG_ERROR, _("spurious path, message not written; path='%s', driver='%s'"), path, self->super.id);
  sl_counter_add (self->spurious, 1);
}

static void
set_owner (const gchar *path, gint fd, uid_t owner, gid_t group)
{
  if (owner == (uid_t) -1 && group == (gid_t) -1)
    return;
  gint rc = fd >= 0 ? fchown (fd, owner, group) : chown (path, owner, group);
  if (rc < 0)
    sl_log (SL_LOG_WARNING, _("cannot set the owner of a new file; filename='%s', error='%s'"), path, g_strerror (errno));
}

/* Creates the missing folders above path, outermost first; the ones that
 * already exist keep their mode and owner. Returns 0, or the errno of the
 * mkdir() that failed, which says more than the open() after it would. */
static gint
make_dirs (FileDestination *self, const gchar *path)
{
  gchar *dir = g_path_get_dirname (path);
  gint err = 0;
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      gchar *parent = g_path_get_dirname (dir);
      if (strcmp (parent, dir) != 0)
        err = make_dirs (self, dir);
      g_free (parent);
      if (!err && mkdir (dir, self->dir_perm) == 0)
        {
          /* the umask must not narrow the mode the configuration asked for */
          chmod (dir, self->dir_perm);
          set_owner (dir, -1, self->dir_owner, self->dir_group);
        }
      else if (!err && errno != EEXIST)
        err = errno;
    }
  g_free (dir);
  return err;
}

/* Errors after which this path will fail the same way until someone acts:
 * its messages are dropped and counted rather than held, so one bad path
 * does not stop the files of every other host. */
static gboolean
error_is_lasting (gint err)
{
  return err == EACCES || err == EPERM || err == EISDIR || err == ENOTDIR || err == ENOENT
         || err == ENAMETOOLONG || err == ELOOP || err == EROFS || err == ENXIO || err == EINVAL;
}

static void
count_unwritable (FileDestination *self, const gchar *path, gint err, guint n)
{
  gint64 before = sl_counter_get (self->unwritable);
  sl_counter_add (self->unwritable, n);
  if (before == 0 || (before + n) / 10000 != before / 10000)
    sl_log (SL_LOG_ERROR, _("cannot open file for writing, messages dropped; filename='%s', error='%s', driver='%s', dropped='%" PRId64 "'"),
            path, g_strerror (err), self->super.id, before + n);
}

/* The open file of path, opened (and created with the configured mode and
 * owner) when it is not yet; NULL and *err when it cannot be. */
static OpenFile *
open_path (FileDestination *self, const gchar *path, gint *err)
{
  OpenFile *f = g_hash_table_lookup (self->files, path);
  if (f)
    return f;
  if (self->create_dirs && (*err = make_dirs (self, path)) != 0)
    return NULL;
  const gint flags = O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY;
  gint fd = open (path, flags | O_CREAT | O_EXCL, self->perm);
  gboolean created = fd >= 0;
  if (fd < 0 && errno == EEXIST)
    fd = open (path, flags);
  if (fd < 0)
    {
      *err = errno;
      return NULL;
    }
  if (created)
    {
      fchmod (fd, self->perm);
      set_owner (path, fd, self->owner, self->group);
    }
  struct stat st;
  f = g_new0 (OpenFile, 1);
  f->fd = fd;
  f->size = fstat (fd, &st) == 0 && S_ISREG (st.st_mode) ? st.st_size : 0;
  g_hash_table_insert (self->files, g_strdup (path), f);
  return f;
}

/* Writes len bytes; *done says how many made it, also when it fails. */
static gboolean
write_all (gint fd, const gchar *data, gsize len, gsize *done, gint *err)
{
  *done = 0;
  while (*done < len)
    {
      gssize n = write (fd, data + *done, len - *done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          *err = n < 0 ? errno : ENOSPC;
          return FALSE;
        }
      *done += n;
    }
  return TRUE;
}

/* len bytes as one whole gzip member in self->zipped, made as rsyslog's
 * omfile makes one with veryRobustZip (zlib's gzip wrapper, memLevel 9),
 * so that a file cut short still reads up to its last whole member */
static gboolean
gzip_member (FileDestination *self, const gchar *data, gsize len)
{
  z_stream z = { 0 };

  if (deflateInit2 (&z, self->gzip_level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
    return FALSE;
  g_byte_array_set_size (self->zipped, deflateBound (&z, len));
  z.next_in = (Bytef *) data;
  z.avail_in = len;
  z.next_out = self->zipped->data;
  z.avail_out = self->zipped->len;
  gint ret = deflate (&z, Z_FINISH);
  g_byte_array_set_size (self->zipped, z.total_out);
  deflateEnd (&z);
  return ret == Z_STREAM_END;
}

/* Takes back the start of a message that did not fit, so that the retry
 * writes it whole instead of after a torn copy. */
static void
drop_partial (gint fd, gsize partial)
{
  struct stat st;
  if (partial && fstat (fd, &st) == 0 && S_ISREG (st.st_mode) && (gsize) st.st_size >= partial
      && ftruncate (fd, st.st_size - partial) < 0)
    sl_log (SL_LOG_WARNING, _("cannot remove a partly written message; error='%s'"), g_strerror (errno));
}

/* Writes the run's bytes from start to end, or its gzip member. When it
 * fails, what is not whole in the file is taken back, and *in_file says
 * how many of the run's messages, from first on, are. */
static gboolean
write_run (FileDestination *self, OpenFile *f, gsize start, gsize end, guint first, guint *in_file, gsize *wrote,
           gint *err)
{
  const Rendered *r = (const Rendered *) self->rendered->data;

  *in_file = first;
  if (!self->gzip_level)
    {
      if (write_all (f->fd, self->buf->str + start, end - start, wrote, err))
        return TRUE;
      while (r[*in_file].end <= start + *wrote)
        (*in_file)++;
      drop_partial (f->fd, start + *wrote - (*in_file ? r[*in_file - 1].end : 0));
      return FALSE;
    }
  *wrote = 0;
  if (!gzip_member (self, self->buf->str + start, end - start))
    {
      *err = ENOMEM;
      return FALSE;
    }
  if (write_all (f->fd, (const gchar *) self->zipped->data, self->zipped->len, wrote, err))
    return TRUE;
  drop_partial (f->fd, *wrote);
  *wrote = 0;
  return FALSE;
}

/* NAME.N-1 becomes NAME.N, ..., NAME becomes NAME.1; what was NAME.N is
 * replaced, so rotations() old files are kept. */
static gboolean
rotate_file (FileDestination *self, const gchar *path)
{
  g_hash_table_remove (self->files, path);
  gboolean ok = TRUE;
  for (gint k = self->rotate.rotations; k >= 1 && ok; k--)
    {
      gchar *from = k > 1 ? g_strdup_printf ("%s.%d", path, k - 1) : g_strdup (path);
      gchar *to = g_strdup_printf ("%s.%d", path, k);
      if (rename (from, to) < 0 && errno != ENOENT)
        {
          sl_log (SL_LOG_ERROR, _("cannot rotate file; from='%s', to='%s', error='%s', driver='%s'"),
                  from, to, g_strerror (errno), self->super.id);
          ok = FALSE;
        }
      g_free (from);
      g_free (to);
    }
  if (ok && self->rotate.rotations == 0 && unlink (path) < 0 && errno != ENOENT)
    {
      sl_log (SL_LOG_ERROR, _("cannot rotate file; filename='%s', error='%s', driver='%s'"),
              path, g_strerror (errno), self->super.id);
      ok = FALSE;
    }
  return ok;
}

/* A message written to a file that had reached max-size(): the file is
 * closed and size-command() run, as rsyslogd runs its $outchannel's
 * command (its program, and what follows the first blank as one
 * argument, no shell). FALSE (and *err) when the file is still that large
 * after it, or there is no command. */
static gboolean
resolve_max_size (FileDestination *self, const gchar *path, gint *err)
{
  g_hash_table_remove (self->files, path);
  if (self->size_command)
    {
      const gchar *blank = strchr (self->size_command, ' ');
      g_autofree gchar *program = blank ? g_strndup (self->size_command, (gsize) (blank - self->size_command))
                                        : g_strdup (self->size_command);
      gchar *argv[] = { program, blank ? (gchar *) blank + 1 : NULL, NULL };
      g_autoptr (GError) error = NULL;
      if (!g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                         NULL, &error))
        sl_log (SL_LOG_ERROR, _("cannot run size-command(); command='%s', error='%s', driver='%s'"),
                self->size_command, error->message, self->super.id);
    }
  struct stat st;
  if (stat (path, &st) == 0 && st.st_size >= self->max_size)
    {
      *err = EFBIG;
      return FALSE;
    }
  return TRUE;
}

/* How many of the rendered messages from first on fit into f before it
 * passes logrotate(size()); a message that does not fit even into an empty
 * file goes alone. */
static guint
messages_that_fit (FileDestination *self, OpenFile *f, guint first, gsize start)
{
  const Rendered *r = (const Rendered *) self->rendered->data;
  guint last = first;
  while (last < self->rendered->len && f->size + (gint64) (r[last].end - start) <= self->rotate.size)
    last++;
  if (last == first && f->size == 0)
    last++;
  return last - first;
}

/* Writes the rendered run to path; returns how many of its messages are in
 * the file, and when not all are, the error and whether it came from
 * opening the file. */
static guint
write_rendered (FileDestination *self, const gchar *path, gint *err, gboolean *at_open)
{
  const Rendered *r = (const Rendered *) self->rendered->data;
  guint count = self->rendered->len;
  guint done = 0;
  gsize start = 0;
  OpenFile *f = open_path (self, path, err);
  *at_open = TRUE;
  while (f && done < count)
    {
      guint take = self->max_size ? 1 : count - done;
      if (self->stuck && f->size >= self->max_size)
        {
          *err = EFBIG;
          *at_open = FALSE;
          return done;
        }
      self->stuck = FALSE;
      gint64 before = f->size;
      if (self->rotate.enable)
        {
          take = messages_that_fit (self, f, done, start);
          if (!take)
            {
              gboolean rotated = rotate_file (self, path);
              f = open_path (self, path, err);
              /* a file that cannot be moved grows rather than loses
               * messages; the next try is size() bytes later */
              if (f && !rotated)
                f->size = 0;
              continue;
            }
        }
      gsize end = r[done + take - 1].end;
      gsize wrote;
      guint in_file;
      gboolean ok = write_run (self, f, start, end, done, &in_file, &wrote, err);
      f->size += wrote;
      if (!ok)
        {
          done = in_file;
          /* the next try opens the file anew, in case this descriptor is what broke */
          g_hash_table_remove (self->files, path);
          *at_open = FALSE;
          return done;
        }
      if (self->fsync && fsync (f->fd) < 0)
        sl_log (SL_LOG_WARNING, _("fsync failed; filename='%s', error='%s', driver='%s'"),
                path, g_strerror (errno), self->super.id);
      done += take;
      start = end;
      f->last_used = g_get_monotonic_time ();
      /* rsyslogd checks the size written before a message, once it is
       * written */
      if (self->max_size && before >= self->max_size)
        {
          self->stuck = !resolve_max_size (self, path, err);
          if (self->stuck)
            {
              *at_open = FALSE;
              return done;
            }
          f = done < count ? open_path (self, path, err) : NULL;
        }
    }
  return done;
}

/* Writes the gathered run; returns the place in the batch of the first
 * message not written, or end when the whole run was written or dropped.
 * Adds the messages it dropped to batch->dropped; says why the rest was
 * not written. */
static guint
flush_run (FileDestination *self, SlWriteBatch *batch, const gchar *path, guint end)
{
  const Rendered *r = (const Rendered *) self->rendered->data;
  guint count = self->rendered->len;
  gint err = 0;
  gboolean at_open = FALSE;
  guint done = count ? write_rendered (self, path, &err, &at_open) : 0;
  guint next = done == count ? end : r[done].index;
  if (done < count && at_open && !self->literal && error_is_lasting (err))
    {
      /* a templated path that cannot be opened drops its messages, counted,
       * as syslog-ng does; the files of the other values go on */
      count_unwritable (self, path, err, count - done);
      batch->dropped += count - done;
      next = end;
    }
  else if (done < count)
    sl_write_batch_fail (batch, SL_WRITE_RETRY, err, at_open ? _("cannot open %s for writing") : _("cannot write to %s"), path);
  g_string_truncate (self->buf, 0);
  g_array_set_size (self->rendered, 0);
  return next;
}

/* Messages going to one file are gathered and written together. A failed
 * write reports how many messages before it were handled, and the core
 * keeps the rest and retries on its back-off, up to time-reopen(). Messages of a spurious
 * or lastingly unwritable path are handled by dropping them. */
static SlWriteResult
file_write (SlDriver *d, SlWriteBatch *batch)
{
  FileDestination *self = (FileDestination *) d;
  SlMessage *const *msgs = batch->msgs;
  guint n = batch->n;
  gchar *current = NULL;
  guint written = n;
  g_array_set_size (self->refused, 0);

  /* the last message went to current: a message whose path is made of
   * the same host, date, ... goes there too, without rendering it */
  gboolean on_current = FALSE;
  for (guint i = 0; i < n; i++)
    {
      if (!self->literal || !current)
        {
          gboolean same_inputs = sl_template_memo_same (self->path_memo, msgs[i], &self->path_env);
          if (!same_inputs)
            {
              g_string_truncate (self->name, 0);
              sl_template_append (self->path, msgs[i], &self->path_env, self->name);
            }
          if (!(same_inputs && on_current) && (!current || strcmp (current, self->name->str) != 0))
            {
              if (!self->literal && path_escapes (self->name->str))
                {
                  count_spurious (self, self->name->str);
                  g_array_append_val (self->refused, i);
                  on_current = FALSE;
                  continue;
                }
              guint reached = current ? flush_run (self, batch, current, i) : i;
              if (reached < i)
                {
                  written = reached;
                  break;
                }
              g_free (current);
              current = g_strdup (self->name->str);
            }
          on_current = TRUE;
        }
      Rendered r = { 0, i };
      sl_template_append (self->template, msgs[i], self->env, self->buf);
      r.end = self->buf->len;
      g_array_append_val (self->rendered, r);
    }
  if (current && written == n)
    written = flush_run (self, batch, current, n);
  g_string_truncate (self->buf, 0);
  g_array_set_size (self->rendered, 0);
  g_free (current);
  /* a spurious message after the first one not written is met again in
   * the retry */
  for (guint k = 0; k < self->refused->len && g_array_index (self->refused, guint, k) < written; k++)
    batch->dropped++;
  batch->done = written;
  return written == n ? SL_WRITE_OK : SL_WRITE_RETRY;
}

/* Files of templated paths that took no message for time-reap() are
 * closed; a literal path stays open. A full disk gives no sign when it has
 * room again, so retries come on the core's back-off. */
static gboolean
file_tick (SlDriver *d)
{
  FileDestination *self = (FileDestination *) d;
  if (self->literal)
    return FALSE;
  gint64 now = g_get_monotonic_time ();
  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init (&it, self->files);
  while (g_hash_table_iter_next (&it, NULL, &value))
    if (now - ((OpenFile *) value)->last_used > self->time_reap_ms * 1000)
      g_hash_table_iter_remove (&it);
  return FALSE;
}

/* After logrotate moved the files: let go of them, and start the literal
 * path's file again at once, so the new file is there before any message
 * (when it cannot be, the next write says why). */
static void
file_reopen (SlDriver *d)
{
  FileDestination *self = (FileDestination *) d;
  gchar *literal_path = NULL;
  if (self->literal)
    {
      GHashTableIter it;
      gpointer key;
      g_hash_table_iter_init (&it, self->files);
      if (g_hash_table_iter_next (&it, &key, NULL))
        literal_path = g_strdup (key);
    }
  g_hash_table_remove_all (self->files);
  gint err;
  if (literal_path)
    open_path (self, literal_path, &err);
  g_free (literal_path);
}

static void
file_close (SlDriver *d)
{
  FileDestination *self = (FileDestination *) d;
  g_hash_table_remove_all (self->files);
}

static void
file_free (SlDriver *d)
{
  FileDestination *self = (FileDestination *) d;
  if (self->files)
    g_hash_table_unref (self->files);
  if (self->name)
    g_string_free (self->name, TRUE);
  sl_template_memo_free (self->path_memo);
  if (self->buf)
    g_string_free (self->buf, TRUE);
  if (self->zipped)
    g_byte_array_unref (self->zipped);
  if (self->rendered)
    g_array_unref (self->rendered);
  if (self->refused)
    g_array_unref (self->refused);
}

static const SlDestinationOps file_ops = {
  .write = file_write,
  .reopen = file_reopen,
  .close = file_close,
  .tick = file_tick,
};

static const SlDriverClass file_destination_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "file",
  .summary = "write messages to files whose path may use macros",
  .options = file_options,
  .defaults = (const gchar *const[]) { "mark-mode", "none", NULL },
  .capabilities = SL_CAP_TEMPLATES | SL_CAP_SUPPRESS | SL_CAP_MARKS,
  .instance_size = sizeof (FileDestination),
  .init = file_init,
  .free = file_free,
  .ops.destination = &file_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "file-destination",
  .drivers = (const SlDriverClass *const[]) { &file_destination_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &file_omfile, NULL },
};
