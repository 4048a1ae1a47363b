/* SPDX-License-Identifier: GPL-2.0-or-later */
/* smart-multi-line.fsm as text, generated into smart-multi-line-rules.c
 * by the build. */
#ifndef SMART_MULTI_LINE_RULES_H
#define SMART_MULTI_LINE_RULES_H

extern const char smart_multi_line_rules[];

#endif
