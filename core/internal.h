/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The daemon's own messages: to stderr while no configuration runs or with
 * -e, and through internal() sources once one exists. */
#ifndef SL_INTERNAL_H
#define SL_INTERNAL_H

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  SL_LOG_ERROR = 3,
  SL_LOG_WARNING = 4,
  SL_LOG_NOTICE = 5,
  SL_LOG_INFO = 6,
  SL_LOG_DEBUG = 7,
} SlLogLevel;

void sl_log (SlLogLevel level, const gchar *format, ...) G_GNUC_PRINTF (2, 3);

/* Where internal messages go: sink receives each line's level and text
 * (not debug ones), on the thread that logged it, and makes of them what
 * it wants (internal() makes a message). NULL sink: to stderr only. */
typedef void (*SlInternalSink) (SlLogLevel level, const gchar *text, gpointer user_data);
void sl_internal_set_sink   (SlInternalSink sink, gpointer user_data);

G_END_DECLS

#endif
