/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/internal-private.h"

#include <stdio.h>

static GMutex internal_lock;
static SlInternalSink current_sink;
static gpointer current_data;
static gboolean to_stderr = TRUE;
static gboolean verbose_on;
static gboolean debug_on;

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
sl_internal_set_verbosity (gboolean verbose, gboolean debug)
{
  verbose_on = verbose || debug;
  debug_on = debug;
}

static const gchar *const level_names[] = {
  "emerg", "alert", "crit", "error", "warning", "notice", "info", "debug"
};

void
sl_log (SlLogLevel level, const gchar *format, ...)
{
  if ((level == SL_LOG_DEBUG && !debug_on) || (level == SL_LOG_INFO && !verbose_on && !current_sink))
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
