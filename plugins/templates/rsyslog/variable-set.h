/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog-set() and rsyslog-unset(), the parsers of RainerScript's set and
 * unset, which the script functions' module offers beside them. */
#ifndef RSYSLOG_VARIABLE_SET_H
#define RSYSLOG_VARIABLE_SET_H

#include "core/plugin/plugin.h"

extern const SlDriverClass rsyslog_set_class;
extern const SlDriverClass rsyslog_unset_class;

#endif
