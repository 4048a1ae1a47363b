/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What only sluiced asks of the loader: loading the plugins of a search
 * path (folders joined by ':'), indexing them, and a class's defaults for
 * the reference. */
#ifndef SL_LOADER_PRIVATE_H
#define SL_LOADER_PRIVATE_H

#include "core/compile/loader.h"

G_BEGIN_DECLS

typedef enum
{
  SL_PLUGINS_ALL,       /* every plugin of the path is loaded now */
  SL_PLUGINS_AS_NAMED,  /* one a folder's index lists is loaded once a lookup names it */
} SlPluginsLoading;

gboolean              sl_plugins_load       (const gchar *search_path, SlPluginsLoading how, GError **error);
/* Loads every plugin of the path's folders and writes each folder's index
 * (core/compile/plugin-index.h). */
gboolean              sl_plugins_write_index (const gchar *search_path, GError **error);
/* The default klass gives option: its defaults' override of an option the
 * core adds, or the table's. */
const gchar          *sl_driver_class_default (const SlDriverClass *klass, const SlOptionSpec *option);

G_END_DECLS

#endif
