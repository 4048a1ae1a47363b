/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* smart-multi-line.fsm as text, generated into smart-multi-line-rules.c
 * by the build (Makefile.am). */
#ifndef SL_SMART_MULTI_LINE_RULES_H
#define SL_SMART_MULTI_LINE_RULES_H

extern const char sl_smart_multi_line_rules[];

#endif
