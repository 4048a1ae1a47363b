/* SPDX-License-Identifier: GPL-2.0-or-later */
/* file(): follows one file (file-follower.c): rotation, truncation, and
 * the position kept across restarts, so that nothing is lost or read
 * twice. */
#include "core/config/error.h"
#include "core/route/driver.h"
#include "core/plugin/plugin.h"
#include "core/i18n.h"
#include "plugins/sources/file/file-follower.h"
#include "plugins/sources/file/file-private.h"
#include "core/route/source.h"

#include <sys/stat.h>

typedef struct
{
  SlDriver super;
  const gchar *path;
  gint64 follow_freq;       /* ms */
  FileMultiLine multi_line;
  gboolean rsyslog_metadata;
  gboolean rsyslog_reopen;
  FileFollower *follower;
  const gchar *transport;
} FileSource;

static const SlOptionSpec file_options[] = {
  { "path", SL_STRING (FileSource, path), NULL, "the file to follow", .flags = SL_OPT_POSITIONAL },
  { "follow-freq", SL_DURATION (FileSource, follow_freq), "1",
    "how long between looks for new lines, rotation and truncation; inotify also wakes the reader at once" },
  FILE_MULTI_LINE_OPTIONS (FileSource, multi_line),
  FILE_RSYSLOG_METADATA_OPTION (FileSource, rsyslog_metadata),
  FILE_RSYSLOG_REOPEN_ON_TRUNCATE_OPTION (FileSource, rsyslog_reopen),
  { NULL }
};

/* TRANSPORT as syslog-ng 4.8's file() names what it reads, seen once as
 * the configuration loads (affile-source.c) */
static const gchar *
transport_name (const gchar *path)
{
  struct stat st;
  if (g_str_equal (path, "/proc/kmsg"))
    return "local+prockmsg";
  if (stat (path, &st) < 0 || S_ISREG (st.st_mode))
    return "local+file";
  return g_str_equal (path, "/dev/kmsg") ? "local+devkmsg" : "local+device";
}

static gboolean
file_init (SlDriver *d, GError **error)
{
  FileSource *self = (FileSource *) d;
  if (!self->path || !*self->path)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("file() needs the path of the file to follow"));
      return FALSE;
    }
  g_autoptr (GError) local = NULL;
  self->multi_line.ml = sl_multi_line_new (d, &self->multi_line.options, &local);
  if (local)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  /* persist-name() names the position instead of the path, as in syslog-ng */
  self->follower = file_follower_new (d->id, self->path, sl_driver_persist_name_option (d),
                                         (gint) MIN (self->follow_freq, G_MAXINT), &self->multi_line,
                                      self->rsyslog_metadata, self->rsyslog_reopen);
  self->transport = transport_name (self->path);
  return TRUE;
}

static gboolean
file_start (SlDriver *d, SlSource *source, GError **error)
{
  FileSource *self = (FileSource *) d;
  sl_source_set_transport (source, self->transport);
  return file_follower_start (self->follower, source, error);
}

static void
file_stop (SlDriver *d)
{
  file_follower_stop (((FileSource *) d)->follower);
}

static void
file_free (SlDriver *d)
{
  FileSource *self = (FileSource *) d;
  if (self->follower)
    file_follower_free (self->follower);
  if (self->multi_line.ml)
    sl_multi_line_free (self->multi_line.ml);
}

static const SlSourceOps file_ops = {
  .start = file_start,
  .stop = file_stop,
};

const SlDriverClass file_source_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "file",
  .summary = "follow a file as it grows, through rotation and truncation, resuming where it stopped",
  .options = file_options,
  .defaults = (const gchar *const[]) { "log-iw-size", "100", NULL },
  .capabilities = SL_CAP_PARSES,
  .instance_size = sizeof (FileSource),
  .init = file_init,
  .free = file_free,
  .ops.source = &file_ops,
};
