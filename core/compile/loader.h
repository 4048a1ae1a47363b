/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Putting a plugin's module into the registry: its classes checked against
 * the ABI and the option tables the core adds (sluiced loads the plugins'
 * files: core/compile/loader-private.h). */
#ifndef SL_LOADER_H
#define SL_LOADER_H

#include <glib.h>
#include "core/plugin/plugin.h"

G_BEGIN_DECLS

/* Registers every class and rsyslog module of module, or none: a class of
 * an unknown kind, without its kind's required operations, with a table
 * that names an option twice (its own or one the core adds), or named like
 * a class another module registered is refused, naming both files; so is
 * an rsyslog module served twice. file is where module came from. */
gboolean              sl_plugins_register   (const SlModule *module, const gchar *file, GError **error);
/* A class's summary and options, as sluiced --help-driver prints them. */
gchar                *sl_plugins_help       (const SlDriverClass *klass);

G_END_DECLS

#endif
