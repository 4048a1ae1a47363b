/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What only sluiced asks of the loader: loading the plugins of a search
 * path (folders joined by ':'), and a class's defaults for the reference. */
#ifndef SL_LOADER_PRIVATE_H
#define SL_LOADER_PRIVATE_H

#include "core/compile/loader.h"

G_BEGIN_DECLS

gboolean              sl_plugins_load       (const gchar *search_path, GError **error);
/* The default klass gives option: its defaults' override of an option the
 * core adds, or the table's. */
const gchar          *sl_driver_class_default (const SlDriverClass *klass, const SlOptionSpec *option);

G_END_DECLS

#endif
