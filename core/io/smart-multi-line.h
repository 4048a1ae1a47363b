/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* multi-line-mode(smart): syslog-ng 4's state machine over lines that
 * knows the stack traces of Java, Python, PHP, Go, Ruby and Dart, its
 * rules those of smart-multi-line.fsm (built in). */
#ifndef SL_SMART_MULTI_LINE_H
#define SL_SMART_MULTI_LINE_H

#include "core/io/multi-line-state.h"

G_BEGIN_DECLS

/* Compiles the rules once per process; FALSE with an error when they do not. */
gboolean           sl_smart_multi_line_init (GError **error);
/* sl_multi_line_add() in smart mode: the whole line always kept. */
SlMultiLineVerdict sl_smart_multi_line_add  (SlMultiLineState *s, gsize held_len, const gchar *line, gsize len);

G_END_DECLS

#endif
