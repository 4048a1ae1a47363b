/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "daemon/stats-file.h"

#include "core/i18n.h"
#include "core/internal.h"
#include "core/stats-private.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

struct _SlStatsFile
{
  guint timer;
  gint freq;
  gchar *path;
  SlStatsFileFormat format;
};

G_DEFINE_AUTOPTR_CLEANUP_FUNC (json_t, json_decref)

/* A string as json-c writes it, which impstats' JSON lines are */
static void
append_json_string (GString *out, const gchar *text)
{
  g_string_append_c (out, '"');
  for (const gchar *p = text; *p; p++)
    {
      guchar c = (guchar) *p;
      if (c == '"' || c == '\\' || c == '/')
        g_string_append_printf (out, "\\%c", c);
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c < 0x20)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_c (out, (gchar) c);
    }
  g_string_append_c (out, '"');
}

typedef struct
{
  GString *out;
  SlStatsFileFormat format;
  gboolean first;
} Line;

static void
line_start (Line *line, const gchar *name, const gchar *origin)
{
  if (line->format == SL_STATS_FILE_LEGACY)
    {
      g_string_append_printf (line->out, "%s: origin=%s ", name, origin);
      return;
    }
  if (line->format == SL_STATS_FILE_CEE)
    g_string_append (line->out, "@cee: ");
  g_string_append (line->out, "{ \"name\": ");
  append_json_string (line->out, name);
  g_string_append (line->out, ", \"origin\": ");
  append_json_string (line->out, origin);
}

static void
line_counter (Line *line, const gchar *name, gint64 value)
{
  if (line->format == SL_STATS_FILE_LEGACY)
    {
      g_string_append_printf (line->out, "%s=%" G_GINT64_FORMAT " ", name, value);
      return;
    }
  g_autofree gchar *key = g_strdup (name);
  if (line->format == SL_STATS_FILE_JSON_ES)
    g_strdelimit (key, ".", '!');
  g_string_append (line->out, ", ");
  append_json_string (line->out, key);
  g_string_append_printf (line->out, ": %" G_GINT64_FORMAT, value);
}

static void
line_end (Line *line)
{
  g_string_append (line->out, line->format == SL_STATS_FILE_LEGACY ? "\n" : " }\n");
}

/* rsyslog's name of a Sluice counter: a source's messages are its
 * "submitted", a destination's "processed" and, dropped, "failed" */
static const gchar *
rsyslog_counter (const gchar *kind, const gchar *name)
{
  if (g_str_equal (kind, "source") && g_str_equal (name, "received"))
    return "submitted";
  if (g_str_equal (kind, "destination") && g_str_equal (name, "dropped"))
    return "failed";
  return name;
}

/* The component's name: its id without the driver's "#N", and for the
 * rsyslog front end's sources ("PREFIX_sN:NAME") the input's name */
static gchar *
component_name (const gchar *kind, const gchar *id)
{
  const gchar *hash = strrchr (id, '#');
  g_autofree gchar *name = hash ? g_strndup (id, (gsize) (hash - id)) : g_strdup (id);
  const gchar *colon = g_str_equal (kind, "source") ? strrchr (name, ':') : NULL;

  if (!*name)
    return g_strdup (kind);
  return g_strdup (colon ? colon + 1 : name);
}

static gint64
open_files (void)
{
  gint64 n = 0;
  GDir *dir = g_dir_open ("/proc/self/fd", 0, NULL);
  while (dir && g_dir_read_name (dir))
    n++;
  if (dir)
    g_dir_close (dir);
  return n;
}

/* impstats' resource-usage line, from getrusage() as it reads it */
static void
append_resource_usage (Line *line)
{
  struct rusage ru = { 0 };
  getrusage (RUSAGE_SELF, &ru);
  const struct
  {
    const gchar *name;
    gint64 value;
  } usage[] = {
    { "utime", (gint64) ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec },
    { "stime", (gint64) ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec },
    { "maxrss", ru.ru_maxrss }, { "minflt", ru.ru_minflt }, { "majflt", ru.ru_majflt },
    { "inblock", ru.ru_inblock }, { "oublock", ru.ru_oublock }, { "nvcsw", ru.ru_nvcsw },
    { "nivcsw", ru.ru_nivcsw }, { "openfiles", open_files () },
  };
  line_start (line, "resource-usage", "impstats");
  for (guint i = 0; i < G_N_ELEMENTS (usage); i++)
    line_counter (line, usage[i].name, usage[i].value);
  line_end (line);
}

gchar *
sl_stats_file_lines (SlStatsFileFormat format)
{
  g_autofree gchar *text = sl_stats_to_json ();
  g_autoptr (json_t) components = json_loads (text, 0, NULL);
  Line line = { g_string_new (NULL), format, TRUE };
  gsize i;
  json_t *component;

  json_array_foreach (components, i, component)
    {
      const gchar *kind = json_string_value (json_object_get (component, "kind"));
      const gchar *instance = json_string_value (json_object_get (component, "instance"));
      g_autofree gchar *name = component_name (kind, json_string_value (json_object_get (component, "id")));
      g_autofree gchar *origin = g_str_equal (kind, "destination") ? g_strdup ("core.action")
                                 : *instance                       ? g_strconcat (kind, ".", instance, NULL)
                                                                   : g_strdup (kind);
      const gchar *counter;
      json_t *value;

      line_start (&line, name, origin);
      json_object_foreach (json_object_get (component, "counters"), counter, value)
        line_counter (&line, rsyslog_counter (kind, counter), json_integer_value (value));
      line_end (&line);
    }
  append_resource_usage (&line);
  return g_string_free (line.out, FALSE);
}

static gboolean
on_timer (gpointer data)
{
  SlStatsFile *file = data;
  g_autofree gchar *lines = sl_stats_file_lines (file->format);
  gchar stamp[32];
  time_t now = time (NULL);

  /* impstats starts each line with ctime()'s text */
  ctime_r (&now, stamp);
  stamp[strcspn (stamp, "\n")] = '\0';
  g_autoptr (GString) out = g_string_new (NULL);
  g_auto (GStrv) each = g_strsplit (lines, "\n", -1);
  for (guint k = 0; each[k] && *each[k]; k++)
    g_string_append_printf (out, "%s: %s\n", stamp, each[k]);
  gint fd = open (file->path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0 || write (fd, out->str, out->len) != (gssize) out->len)
    sl_log (SL_LOG_ERROR, _("stats(file()): cannot write the statistics; file='%s', error='%s'"), file->path,
            g_strerror (errno));
  if (fd >= 0)
    close (fd);
  return G_SOURCE_CONTINUE;
}

SlStatsFile *
sl_stats_file_new (void)
{
  return g_new0 (SlStatsFile, 1);
}

void
sl_stats_file_apply (SlStatsFile *file, const SlStatsSettings *settings)
{
  file->format = settings->file_format;
  if (file->timer && settings->file && g_strcmp0 (settings->file, file->path) == 0 && settings->file_freq == file->freq)
    return;
  if (file->timer)
    g_source_remove (file->timer);
  g_free (file->path);
  file->path = g_strdup (settings->file);
  file->freq = settings->file_freq;
  file->timer = file->path ? g_timeout_add_seconds (file->freq, on_timer, file) : 0;
}

void
sl_stats_file_free (SlStatsFile *file)
{
  if (file && file->timer)
    g_source_remove (file->timer);
  if (file)
    g_free (file->path);
  g_free (file);
}
