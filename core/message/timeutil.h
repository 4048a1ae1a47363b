/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Timestamps: formatting in the forms syslog uses, with the formatted
 * second cached per thread, and the zone arithmetic parsers need. */
#ifndef SL_TIMEUTIL_H
#define SL_TIMEUTIL_H

#include <glib.h>
#include "core/message/message.h"
#include "core/plugin/options.h"

G_BEGIN_DECLS

typedef enum
{
  SL_TS_RFC3164,   /* Feb  3 12:34:56 */
  SL_TS_ISO,       /* 2026-02-03T12:34:56+01:00, the RFC 3339 / 5424 form */
  SL_TS_FULL,      /* 2026 Feb  3 12:34:56 */
  SL_TS_UNIX,      /* 1770118496 */
} SlTsFormat;

/* The words ts-format() takes and the format of each. */
extern const SlOptionWord sl_ts_format_words[];


/* Appends t in format, with frac_digits (0-6) of the second where the format
 * has them. zone, when not NULL, converts t to that zone first. */
void  sl_time_append   (GString *out, const SlTime *t, SlTsFormat format,
                        gint frac_digits, GTimeZone *zone);
/* Breaks t down in its own zone, or in zone when not NULL. */
void  sl_time_to_tm    (const SlTime *t, GTimeZone *zone, struct tm *tm, gint32 *gmtoff);
/* The local zone's offset, seconds east of UTC, at the given UTC second. */
gint32 sl_time_local_gmtoff (gint64 utc_sec);
/* Seconds since the epoch for a broken-down time that is in UTC. */
gint64 sl_time_timegm  (const struct tm *tm);
/* "+01:00" */
void  sl_time_append_offset (GString *out, gint32 gmtoff);

G_END_DECLS

#endif
