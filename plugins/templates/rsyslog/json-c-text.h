/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A JSON value as rsyslogd writes one, in json-c's spaced format:
 * "[ 1, 2 ]", "{ \"k\": \"v\" }", slashes escaped, reals with 17 digits.
 * Shared by the rsyslog script functions and rsyslog-foreach(). */
#ifndef RS_JSON_C_TEXT_H
#define RS_JSON_C_TEXT_H

#include <glib.h>
#include <jansson.h>

G_BEGIN_DECLS

void rs_json_c_append (GString *out, json_t *value);

G_END_DECLS

#endif
