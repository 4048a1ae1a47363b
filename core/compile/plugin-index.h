/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The index of a plugin folder (sluice-plugins.index): what each plugin in
 * it serves, so that sluiced loads a plugin, and the libraries it links,
 * only once a configuration names one of its drivers or rsyslog modules.
 * An entry holds while its file has the GNU build id it was indexed with:
 * a plugin rebuilt, replaced or added since is loaded at start, as one
 * without an index is. */
#ifndef SL_PLUGIN_INDEX_H
#define SL_PLUGIN_INDEX_H

#include <glib.h>
#include "core/plugin/registry-private.h"

G_BEGIN_DECLS

#define SL_PLUGIN_INDEX_FILE "sluice-plugins.index"

typedef struct
{
  gchar *file;                           /* the plugin's path */
  SlPluginNames names;
} SlPluginEntry;

/* The GNU build id of an ELF file in hex, or NULL when it has none or is
 * not an ELF file of this machine's class. */
gchar        *sl_plugin_build_id           (const gchar *path);
/* dir's index: base name -> SlPluginEntry, only the entries whose file has
 * the build id the index names; NULL when dir has no index. */
GHashTable   *sl_plugin_index_read         (const gchar *dir);
/* Writes dir's index of modules[i] loaded from files[i] (full paths in
 * dir), replacing the old one at once. */
gboolean      sl_plugin_index_write        (const gchar *dir, GPtrArray *files, GPtrArray *modules,
                                            GError **error);
void          sl_plugin_entry_free         (SlPluginEntry *entry);

G_END_DECLS

#endif
