/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A configuration run between in-memory ends, for sluiced --test: its
 * sources and destinations are never started (no socket, file or
 * connection is opened), a test's input enters at a source as if that
 * source had read it, and what the paths queue for a destination is
 * taken from its queue. Everything between (parsers, filters, rewrites,
 * templates, junctions, flags) runs as in production. The daemon's. */
#ifndef SL_CONFIG_TEST_H
#define SL_CONFIG_TEST_H

#include <glib.h>
#include "core/compile/config.h"
#include "core/message/message.h"
#include "core/message/template.h"

G_BEGIN_DECLS

/* cfg, loaded and not started, is readied for input. */
void         sl_config_test_prepare  (SlConfig *cfg);
/* The id of the driver a test's input named name enters at, or NULL: a
 * driver's own id ("s_local#1"), or a source object's name ("s_net", or
 * the part after the ':' the rsyslog front end puts before an input's own
 * name) for its first driver that is not internal(). */
const gchar *sl_config_test_source   (SlConfig *cfg, const gchar *name);
/* data as the source named source read it: each line one message,
 * parsed as the source parses (escaping, trimming and its flags), routed
 * down its paths. FALSE with an error when there is no such source. */
gboolean     sl_config_test_input    (SlConfig *cfg, const gchar *source, const gchar *data, GError **error);
/* Whether a destination is named name (as sources are). */
gboolean     sl_config_test_has_destination (SlConfig *cfg, const gchar *name);
/* The messages queued for the destination named name since the last
 * call, in order (SlMessage, unref'd with the array), each taken as
 * written; and in *format the template its driver writes them with, or
 * NULL when it writes none (kept by the driver). */
GPtrArray   *sl_config_test_output   (SlConfig *cfg, const gchar *name, const SlTemplate **format,
                                      const SlTemplateEnv **env);
/* Empties every destination's queue. */
void         sl_config_test_discard  (SlConfig *cfg);

G_END_DECLS

#endif
