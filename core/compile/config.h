/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A configuration as compiled: its tree, its objects, its drivers and the
 * log paths between them. What a plugin asks of the one it belongs to;
 * loading, starting and stopping one is the daemon's (core/compile/config-run.h). */
#ifndef SL_CONFIG_H
#define SL_CONFIG_H

#include <glib.h>
#include "core/plugin/plugin.h"
#include "core/message/template.h"

G_BEGIN_DECLS

/* The parsed tree, for a plugin that reads a top-level statement of its
 * own (the code of `python { ... };`). */
const SlCfgNode *sl_config_tree (const SlConfig *cfg);

/* A template a driver builds from text of its own making: a template
 * object's name or template text; an error points at pos. */
SlTemplate *sl_config_compile_template (SlConfig *cfg, const gchar *text, SlCfgPos pos,
                                        GError **error);

/* A driver made of others that the registry holds (system() is
 * unix-dgram() and kmsg(), or systemd-journal()): makes the driver node
 * names, of parent's kind, as a configuration written with node's text
 * would (its options checked, options {} inherited), and calls its init.
 * The part is known as "PARENT-ID/NAME" in messages; parent starts and
 * stops it through its class's operations, and frees it with
 * sl_config_part_free() before node. */
SlDriver   *sl_config_part_new  (SlDriver *parent, const SlCfgNode *node, GError **error);
void        sl_config_part_free (SlDriver *part);

G_END_DECLS

#endif
