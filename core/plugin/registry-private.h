/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the loader and sluiced's rsyslog front end ask of the registry. */
#ifndef SL_REGISTRY_PRIVATE_H
#define SL_REGISTRY_PRIVATE_H

#include "core/plugin/registry.h"

G_BEGIN_DECLS

/* Adds every class and rsyslog module of module, or none: a class named
 * like one another module registered is refused, naming both files; so is
 * an rsyslog module served twice or without a lower-case name, a kind and
 * write(). file is where module came from. The loader checked the classes. */
gboolean              sl_registry_add       (const SlModule *module, const gchar *file, GError **error);
/* What a plugin serves, as its folder's index lists it
 * (core/compile/plugin-index.h): NULL-terminated name lists. */
typedef struct
{
  gchar **drivers[SL_DRIVER_KIND_COUNT]; /* class names by kind */
  gchar **rsyslog;                       /* rsyslog module names */
  gchar **inherits;                      /* global options its classes inherit */
} SlPluginNames;

/* Loads a plugin file whose names were announced: the loader's; called
 * without the registry's lock, once per file. */
typedef void (*SlRegistryLoad) (const gchar *file);
void                  sl_registry_set_loader (SlRegistryLoad load);
/* Takes what file serves without loading it: a lookup of one of its names
 * loads it then. All or none, as sl_registry_add(): a name registered or
 * announced by another file refuses the file, naming both. */
gboolean              sl_registry_announce  (const gchar *file, const SlPluginNames *names, GError **error);
/* Loads the first plugin announced to inherit the global option name;
 * FALSE when none was. */
gboolean              sl_plugins_load_inheriting (const gchar *name);
/* sl_plugins_foreach() over the classes loaded so far, loading nothing. */
void                  sl_plugins_foreach_loaded (void (*func) (const SlDriverClass *klass, gpointer user_data),
                                                 gpointer user_data);
/* The plugin that serves rsyslog's module name (lower case, without .so),
 * for sluiced's rsyslog front end; NULL when none does. */
const SlRsModule     *sl_plugins_rsyslog_lookup (const gchar *name);

G_END_DECLS

#endif
