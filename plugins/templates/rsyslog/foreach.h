/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog-foreach(), the parser of RainerScript's foreach, which the
 * script functions' module offers beside them (it renders elements with
 * their json-c-text.c). */
#ifndef RSYSLOG_FOREACH_H
#define RSYSLOG_FOREACH_H

#include "core/plugin/plugin.h"

extern const SlDriverClass rsyslog_foreach_class;

#endif
