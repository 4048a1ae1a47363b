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
/* The plugin that serves rsyslog's module name (lower case, without .so),
 * for sluiced's rsyslog front end; NULL when none does. */
const SlRsModule     *sl_plugins_rsyslog_lookup (const gchar *name);

G_END_DECLS

#endif
