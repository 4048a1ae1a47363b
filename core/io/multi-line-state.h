/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What multi-line-mode() keeps of a stream and says of each line: the
 * types multi-line.h and its smart mode share. */
#ifndef SL_MULTI_LINE_STATE_H
#define SL_MULTI_LINE_STATE_H

#include <glib.h>

G_BEGIN_DECLS

/* Where one stream of lines is (a file, a key's messages): zeroed to start. */
typedef struct
{
  gint state;             /* smart: the rules' state, 0 between traces */
  gboolean in_trace;      /* smart: the message held so far is (the start of) a trace */
  gboolean replay;        /* smart: the next line was judged already: it starts the next message */
  gboolean replay_trace;  /* and whether it is part of a trace */
} SlMultiLineState;

typedef enum
{
  SL_MULTI_LINE_WAIT,       /* the line belongs to the message, which may go on */
  SL_MULTI_LINE_END,        /* the message ends in this line, after *keep of its bytes */
  SL_MULTI_LINE_BEFORE,     /* the message ended before this line, which starts the next */
} SlMultiLineVerdict;

G_END_DECLS

#endif
