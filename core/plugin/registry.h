/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The registry of driver classes and rsyslog modules the loaded plugins
 * serve: what configurations look up. Registering a module is
 * core/compile/loader.h's; the registry only refuses a name taken twice. */
#ifndef SL_REGISTRY_H
#define SL_REGISTRY_H

#include <glib.h>
#include "core/plugin/plugin.h"

G_BEGIN_DECLS

/* A plugin whose folder's index announced name is loaded on its first
 * lookup. */
const SlDriverClass  *sl_plugins_lookup     (SlDriverKind kind, const gchar *name);
/* Names of the drivers of a kind, loaded or announced, sorted; free the
 * array with g_ptr_array_unref. */
GPtrArray            *sl_plugins_names      (SlDriverKind kind);
/* Calls func for every class, in kind and name order, once every plugin
 * announced is loaded. */
void                  sl_plugins_foreach    (void (*func) (const SlDriverClass *klass, gpointer user_data),
                                             gpointer user_data);
const gchar          *sl_driver_kind_name   (SlDriverKind kind);

G_END_DECLS

#endif
