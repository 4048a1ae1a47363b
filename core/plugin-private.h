/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Loading the plugins of a search path (folders joined by ':'): the
 * daemon's, not the plugin kit's. */
#ifndef SL_PLUGIN_PRIVATE_H
#define SL_PLUGIN_PRIVATE_H

#include "core/plugin.h"

G_BEGIN_DECLS

gboolean              sl_plugins_load       (const gchar *search_path, GError **error);

G_END_DECLS

#endif
