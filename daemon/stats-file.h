/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options { stats(file(PATH) file-freq(N) file-format(F)) }: every N
 * seconds every counter is appended to PATH, a line per component, in
 * the shape of rsyslog's impstats log.file= (doc/rsyslog.md says which
 * Sluice counter stands under which rsyslog name). */
#ifndef SL_STATS_FILE_H
#define SL_STATS_FILE_H

#include "core/stats.h"

G_BEGIN_DECLS

typedef struct _SlStatsFile SlStatsFile;

SlStatsFile *sl_stats_file_new   (void);
/* Takes a configuration's settings: the timer starts over when the file
 * or the period changed. */
void         sl_stats_file_apply (SlStatsFile *file, const SlStatsSettings *settings);
void         sl_stats_file_free  (SlStatsFile *file);
/* The lines of one writing, each ended by a newline, without the time
 * each starts with in the file. */
gchar       *sl_stats_file_lines (SlStatsFileFormat format);

G_END_DECLS

#endif
