/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What only sluiced asks of the registry: loading the plugins of a search
 * path (folders joined by ':'), a class's defaults for the reference, and
 * the rsyslog modules plugins serve. */
#ifndef SL_PLUGIN_PRIVATE_H
#define SL_PLUGIN_PRIVATE_H

#include "core/plugin.h"

G_BEGIN_DECLS

gboolean              sl_plugins_load       (const gchar *search_path, GError **error);
/* The default klass gives option: its defaults' override of an option the
 * core adds, or the table's. */
const gchar          *sl_driver_class_default (const SlDriverClass *klass, const SlOptionSpec *option);
/* The plugin that serves rsyslog's module name (lower case, without .so),
 * for sluiced's rsyslog front end; NULL when none does. */
const SlRsModule     *sl_plugins_rsyslog_lookup (const gchar *name);

G_END_DECLS

#endif
