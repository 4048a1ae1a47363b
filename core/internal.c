/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/internal-private.h"

#include <stdio.h>

static GMutex internal_lock;
static SlInternalSink current_sink;
static gpointer current_data;
static gboolean to_stderr = TRUE;
/* SlInternalLevel; read by every thread that logs, changed by the main one */
static gint level_now;

void
sl_internal_set_sink (SlInternalSink sink, gpointer user_data)
{
  g_mutex_lock (&internal_lock);
  current_sink = sink;
  current_data = user_data;
  g_mutex_unlock (&internal_lock);
}

void
sl_internal_set_stderr (gboolean on)
{
  to_stderr = on;
}

void
sl_internal_set_level (SlInternalLevel level)
{
  g_atomic_int_set (&level_now, level);
}

SlInternalLevel
sl_internal_level (void)
{
  return g_atomic_int_get (&level_now);
}

static const gchar *const internal_level_names[] = { "default", "verbose", "debug", "trace" };

const gchar *
sl_internal_level_name (SlInternalLevel level)
{
  return internal_level_names[level];
}

gboolean
sl_internal_level_parse (const gchar *name, SlInternalLevel *level)
{
  for (guint i = 0; i < G_N_ELEMENTS (internal_level_names); i++)
    if (g_ascii_strcasecmp (name, internal_level_names[i]) == 0)
      {
        *level = i;
        return TRUE;
      }
  return FALSE;
}

static const gchar *const level_names[] = {
  "emerg", "alert", "crit", "error", "warning", "notice", "info", "debug"
};

void
sl_log (SlLogLevel level, const gchar *format, ...)
{
  SlInternalLevel now = sl_internal_level ();
  gboolean verbose_on = now >= SL_INTERNAL_VERBOSE;
  if ((level == SL_LOG_DEBUG && now < SL_INTERNAL_DEBUG) || (level == SL_LOG_INFO && !verbose_on && !current_sink))
    return;

  va_list ap;
  va_start (ap, format);
  gchar *text = g_strdup_vprintf (format, ap);
  va_end (ap);

  g_mutex_lock (&internal_lock);
  SlInternalSink sink = current_sink;
  gpointer data = current_data;
  gboolean print = to_stderr || !sink;
  if (print && (level <= SL_LOG_NOTICE || verbose_on))
    fprintf (stderr, "sluiced: %s: %s\n", level_names[level], text);
  if (sink && level != SL_LOG_DEBUG)
    sink (level, text, data);
  g_mutex_unlock (&internal_lock);
  g_free (text);
}
