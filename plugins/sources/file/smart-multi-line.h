/* SPDX-License-Identifier: GPL-2.0-or-later */
/* multi-line-mode(smart): syslog-ng 4's state machine over lines that
 * knows the stack traces of Java, Python, PHP, Go, Ruby and Dart, its
 * rules those of smart-multi-line.fsm (built in). */
#ifndef SMART_MULTI_LINE_H
#define SMART_MULTI_LINE_H

#include <glib.h>

G_BEGIN_DECLS

/* Where one file is in the rules: kept by its reader, zeroed to start. */
typedef struct
{
  gint state;             /* 0: between traces */
  gboolean in_trace;      /* the message held so far is (the start of) a trace */
  gboolean replay;        /* the next line was judged already: it starts the next message */
  gboolean replay_trace;  /* and whether it is part of a trace */
} SmartMultiLine;

typedef enum
{
  SMART_WAIT,    /* the line is part of a trace that may go on */
  SMART_END,     /* the message ends with this line */
  SMART_BEFORE,  /* the message ended before this line, which is judged already */
} SmartVerdict;

/* Compiles the rules once per process; FALSE with an error when they do not. */
gboolean     smart_multi_line_init (GError **error);
/* Where line (without its newline) goes, held_len bytes of the message
 * being read; held_len 0: the line starts one. */
SmartVerdict smart_multi_line_add  (SmartMultiLine *s, gsize held_len, const gchar *line, gsize len);

G_END_DECLS

#endif
