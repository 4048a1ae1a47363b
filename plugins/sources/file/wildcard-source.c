/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wildcard-file(): follows every file under base-dir() whose name matches
 * filename-pattern() (a glob), in its folders too with recursive(yes), up
 * to max-files() at once. Files that appear later are picked up: inotify
 * on base-dir() wakes the scan at once, and it looks again every
 * follow-freq(). Each file is followed as file() follows its one
 * (file-follower.c), its position kept under the same persist name. */
#include "core/config/error.h"
#include "core/route/driver.h"
#include "core/plugin/plugin.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "plugins/sources/file/file-follower.h"
#include "plugins/sources/file/file-private.h"

#include <errno.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

/* follow-freq(0) without inotify would never look again */
#define FALLBACK_SCAN_MS 1000

typedef struct
{
  SlDriver super;
  const gchar *base_dir;
  const gchar *pattern;
  gboolean recursive;
  gint max_files;
  gint64 follow_freq;       /* ms */
  FileMultiLine multi_line;
  gboolean rsyslog_metadata;
  gboolean rsyslog_reopen;
  GPatternSpec *spec;

  SlSource *source;
  GHashTable *followers;    /* path -> FileFollower, started */
  gboolean full_logged;
  GThread *thread;
  gint wake;                /* eventfd: stop() */
  gint inotify;
  gint stopping;
} WildcardSource;

static const SlOptionSpec wildcard_options[] = {
  { "base-dir", SL_STRING (WildcardSource, base_dir), NULL, "the folder the files are in", .flags = SL_OPT_REQUIRED },
  { "filename-pattern", SL_STRING (WildcardSource, pattern), NULL,
    "which files to follow: a glob (* and ?) matched against their names", .flags = SL_OPT_REQUIRED },
  { "recursive", SL_BOOL (WildcardSource, recursive), "no", "also the files in the folders under base-dir()" },
  { "max-files", SL_INT (WildcardSource, max_files), "100", "the most files followed at once; more are left alone",
    SL_RANGE_POSITIVE },
  { "follow-freq", SL_DURATION (WildcardSource, follow_freq), "1",
    "how long between looks for new files and new lines; inotify also wakes the reader at once" },
  FILE_MULTI_LINE_OPTIONS (WildcardSource, multi_line),
  FILE_RSYSLOG_METADATA_OPTION (WildcardSource, rsyslog_metadata),
  FILE_RSYSLOG_REOPEN_ON_TRUNCATE_OPTION (WildcardSource, rsyslog_reopen),
  { NULL }
};

static gboolean
wildcard_init (SlDriver *d, GError **error)
{
  WildcardSource *self = (WildcardSource *) d;
  const gchar *missing = !*self->base_dir ? "base-dir" : !*self->pattern ? "filename-pattern" : NULL;
  if (missing)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("wildcard-file() needs %s()"), missing);
      return FALSE;
    }
  g_autoptr (GError) local = NULL;
  self->multi_line.ml = sl_multi_line_new (d, &self->multi_line.options, &local);
  if (local)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  self->spec = g_pattern_spec_new (self->pattern);
  self->followers = g_hash_table_new (g_str_hash, g_str_equal);
  self->wake = -1;
  self->inotify = -1;
  return TRUE;
}

static void
follow (WildcardSource *self, const gchar *path)
{
  if (g_hash_table_contains (self->followers, path))
    return;
  if (g_hash_table_size (self->followers) >= (guint) self->max_files)
    {
      if (!self->full_logged)
        sl_log (SL_LOG_WARNING, _("%s: already following max-files(%d) files; %s and others are left alone"),
                self->super.id, self->max_files, path);
      self->full_logged = TRUE;
      return;
    }
  const gchar *persist_name = sl_driver_persist_name_option (&self->super);
  g_autofree gchar *key = persist_name ? g_strdup_printf ("%s(%s)", persist_name, path) : NULL;
  FileFollower *follower = file_follower_new (self->super.id, path, key, (gint) MIN (self->follow_freq, G_MAXINT),
                                              &self->multi_line, self->rsyslog_metadata, self->rsyslog_reopen);
  GError *error = NULL;
  if (!file_follower_start (follower, self->source, &error))
    {
      sl_log (SL_LOG_ERROR, _("%s: cannot follow %s: %s"), self->super.id, path, error->message);
      g_error_free (error);
      file_follower_free (follower);
      return;
    }
  g_hash_table_insert (self->followers, (gpointer) file_follower_path (follower), follower);
}

static void
scan (WildcardSource *self, const gchar *dir_path)
{
  GDir *dir = g_dir_open (dir_path, 0, NULL);
  if (!dir)
    return;
  const gchar *name;
  while ((name = g_dir_read_name (dir)))
    {
      gchar *path = g_build_filename (dir_path, name, NULL);
      struct stat st;
      if (stat (path, &st) == 0)
        {
          if (S_ISDIR (st.st_mode) && self->recursive)
            scan (self, path);
          else if (S_ISREG (st.st_mode) && g_pattern_spec_match_string (self->spec, name))
            follow (self, path);
        }
      g_free (path);
    }
  g_dir_close (dir);
}

static void
watch_base_dir (WildcardSource *self)
{
  if (self->inotify >= 0)
    return;
  self->inotify = inotify_init1 (IN_NONBLOCK | IN_CLOEXEC);
  if (self->inotify >= 0
      && inotify_add_watch (self->inotify, self->base_dir, IN_CREATE | IN_MOVED_TO | IN_ONLYDIR) < 0)
    {
      /* it may not exist yet: tried again at the next scan */
      close (self->inotify);
      self->inotify = -1;
    }
}

static void
wait_for_change (WildcardSource *self)
{
  struct pollfd fds[2] = { { self->wake, POLLIN, 0 }, { self->inotify, POLLIN, 0 } };
  gint timeout = self->follow_freq > 0 ? (gint) MIN (self->follow_freq, G_MAXINT)
                 : self->inotify >= 0 ? -1 : FALLBACK_SCAN_MS;
  if (poll (fds, self->inotify >= 0 ? 2 : 1, timeout) > 0 && fds[1].revents)
    {
      gchar events[4096] __attribute__ ((aligned (__alignof__ (struct inotify_event))));
      while (read (self->inotify, events, sizeof events) > 0)
        ;
    }
}

static gpointer
scanner_thread (gpointer data)
{
  WildcardSource *self = data;
  while (!g_atomic_int_get (&self->stopping))
    {
      watch_base_dir (self);
      scan (self, self->base_dir);
      wait_for_change (self);
    }
  return NULL;
}

static gboolean
wildcard_start (SlDriver *d, SlSource *source, GError **error)
{
  WildcardSource *self = (WildcardSource *) d;
  self->wake = eventfd (0, EFD_CLOEXEC);
  if (self->wake < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "eventfd: %s", g_strerror (errno));
      return FALSE;
    }
  self->source = source;
  self->stopping = 0;
  self->full_logged = FALSE;
  self->thread = g_thread_new ("sl-wildcard", scanner_thread, self);
  return TRUE;
}

static void
wildcard_stop (SlDriver *d)
{
  WildcardSource *self = (WildcardSource *) d;
  g_atomic_int_set (&self->stopping, 1);
  eventfd_write (self->wake, 1);
  g_thread_join (self->thread);
  self->thread = NULL;
  GHashTableIter it;
  gpointer follower;
  g_hash_table_iter_init (&it, self->followers);
  while (g_hash_table_iter_next (&it, NULL, &follower))
    {
      file_follower_stop (follower);
      file_follower_free (follower);
      g_hash_table_iter_remove (&it);
    }
  close (self->wake);
  self->wake = -1;
  if (self->inotify >= 0)
    close (self->inotify);
  self->inotify = -1;
}

static void
wildcard_free (SlDriver *d)
{
  WildcardSource *self = (WildcardSource *) d;
  if (self->spec)
    g_pattern_spec_free (self->spec);
  if (self->followers)
    g_hash_table_unref (self->followers);
  if (self->multi_line.ml)
    sl_multi_line_free (self->multi_line.ml);
}

static const SlSourceOps wildcard_ops = {
  .start = wildcard_start,
  .stop = wildcard_stop,
};

const SlDriverClass wildcard_file_source_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "wildcard-file",
  .summary = "follow every file of a folder whose name matches a glob, new ones too, each as file() does",
  .options = wildcard_options,
  .defaults = (const gchar *const[]) { "log-iw-size", "100", NULL },
  .capabilities = SL_CAP_PARSES,
  .instance_size = sizeof (WildcardSource),
  .init = wildcard_init,
  .free = wildcard_free,
  .ops.source = &wildcard_ops,
};
