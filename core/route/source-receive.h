/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* How a source takes what it receives before parsing it: the values of
 * its trim-large-messages() and escape-control-chars(). */
#ifndef SL_SOURCE_RECEIVE_H
#define SL_SOURCE_RECEIVE_H

/* What becomes of the rest of a line longer than log-msg-size() */
typedef enum
{
  SL_TRIM_SPLIT,              /* the next message, as syslog-ng reads it */
  SL_TRIM_DROP_REST,
  SL_TRIM_SPLIT_LOSING_ONE,   /* the next message less its first byte, as rsyslogd's imtcp */
} SlTrimLargeMessages;

/* Which control characters become # and three octal digits */
typedef enum
{
  SL_ESCAPE_CC_NONE,
  SL_ESCAPE_CC_ALL,
  SL_ESCAPE_CC_BUT_TAB,
} SlEscapeControlChars;

#endif
