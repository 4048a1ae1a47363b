/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The differential check of json-parser() for its unit test and its fuzz
 * target: the scanner must set what jansson's tree sets. */
#ifndef JSON_CHECK_H
#define JSON_CHECK_H

#include "tests/unit/parser-harness.h"

G_BEGIN_DECLS

/* Runs text (len bytes, as MESSAGE) through p (a json-parser() without
 * template()) as a log path would, and through json_tree_flatten();
 * aborts unless both accept or refuse it alike, set the same fields to the
 * same values and skip as many keys. */
void json_check_against_tree (SlTestParser *p, const gchar *text, gsize len);

G_END_DECLS

#endif
