/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluiced --test FILE: the test cases kept beside a configuration, run
 * against it between in-memory ends. See doc/testing.md. */
#ifndef SL_TEST_CASES_H
#define SL_TEST_CASES_H

#include <glib.h>
#include <stdio.h>
#include "core/compile/config.h"

G_BEGIN_DECLS

/* Runs every case of the file at path against cfg (loaded, never
 * started), writing one line per case to out and, for a case that fails,
 * its input, what was expected and what came out, as a diff. 0 when every
 * case passed, 1 otherwise (a test file that cannot be read is reported
 * on err with its place). */
gint sl_test_cases_run (SlConfig *cfg, const gchar *path, FILE *out, FILE *err);

G_END_DECLS

#endif
