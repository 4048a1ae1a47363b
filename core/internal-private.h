/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* How much the daemon says and whether to stderr (-e, -v, -d, sluicectl log-level): its own
 * settings, not the plugin kit's. */
#ifndef SL_INTERNAL_PRIVATE_H
#define SL_INTERNAL_PRIVATE_H

#include "core/internal.h"

G_BEGIN_DECLS

void sl_internal_set_stderr (gboolean on);
/* syslog-ng's log levels, set with -v and -d or at run time (sluicectl
 * log-level). Sluice has no trace messages: trace says what debug does. */
typedef enum
{
  SL_INTERNAL_DEFAULT,
  SL_INTERNAL_VERBOSE,
  SL_INTERNAL_DEBUG,
  SL_INTERNAL_TRACE,
} SlInternalLevel;

void            sl_internal_set_level (SlInternalLevel level);
SlInternalLevel sl_internal_level     (void);
/* The level's name (default, verbose, debug, trace), and back: FALSE for
 * another name. */
const gchar    *sl_internal_level_name  (SlInternalLevel level);
gboolean        sl_internal_level_parse (const gchar *name, SlInternalLevel *level);

G_END_DECLS

#endif
