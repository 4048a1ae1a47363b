/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's variable names ignore case: rsyslogd keeps its JSON trees in
 * libfastjson with case-insensitive keys, so $!foo reads a member parsed
 * as "Foo", set $!foo replaces its value and keeps the spelling "Foo",
 * and unset $!FOO removes it. The front end names $!a!b the field "!a.b";
 * these find a message's fields by such names as rsyslogd finds members. */
#ifndef RSYSLOG_VARIABLE_NAME_H
#define RSYSLOG_VARIABLE_NAME_H

#include "core/message/message.h"

/* The field that holds name in msg: exact (name's own handle) when set,
 * else the first field, in the order set, whose name is name in another
 * case; SL_F_NONE when there is none. */
SlHandle rs_variable_find (const SlMessage *msg, const gchar *name, SlHandle exact);

/* Whether field's name starts with prefix, ignoring case. */
gboolean rs_variable_has_prefix (const gchar *field, const gchar *prefix);

/* name spelt as msg's variables already spell it: each part ("!a", then
 * "!a.b") that names a member msg has takes that member's spelling, as
 * libfastjson keeps a key's first spelling when a value replaces its own;
 * NULL when that is name's own spelling. */
gchar *rs_variable_spelling (const SlMessage *msg, const gchar *name);

/* Whether value is a JSON object held whole: an empty one that mmjsonparse,
 * parse_json() or an unset left, which members may be set in. */
gboolean rs_variable_is_object (const SlValue *value);

/* Whether a variable that name is a member of ("!a" of "!a.b") holds a
 * string, a number, a boolean, null or an array: rsyslogd's set then
 * leaves the tree as it is. */
gboolean rs_variable_under_scalar (const SlMessage *msg, const gchar *name);

#endif
