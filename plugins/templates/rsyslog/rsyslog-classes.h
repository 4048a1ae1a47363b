/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The classes of the rsyslog template functions that live in files of
 * their own; rsyslog-functions.c lists them in the module. */
#ifndef RSYSLOG_CLASSES_H
#define RSYSLOG_CLASSES_H

#include "core/plugin/plugin.h"

/* $(rsyslog-property): rsyslog's property options applied to a value */
extern const SlDriverClass rsyslog_property_class;
/* $(rsyslog-date): rsyslog's own date numbers (wday, ordinal, week) */
extern const SlDriverClass rsyslog_date_class;

/* $(rsyslog-tree): one of rsyslog's variable trees ($!) as JSON */
extern const SlDriverClass rsyslog_tree_class;
/* $(rsyslog-var): one rsyslog variable, its name compared ignoring case */
extern const SlDriverClass rsyslog_var_class;

#endif
