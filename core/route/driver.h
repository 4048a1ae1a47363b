/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What a driver asks of the instance the core made of its class: the
 * source flags, persist-name() and template environment of the options the
 * core adds, and the option tables a class is bound with. */
#ifndef SL_DRIVER_H
#define SL_DRIVER_H

#include <glib.h>
#include "core/plugin/options.h"
#include "core/plugin/plugin.h"

G_BEGIN_DECLS

/* For a source whose protocol fixes how it reads, whatever flags() says
 * (syslog() reads RFC 5424): syslog-ng's flags() add to such a driver's own
 * flags, where Sluice's replace the default. Called from init(). */
void                  sl_driver_source_add_flags (SlDriver *driver, guint32 flags);
/* persist-name() as written, or NULL: a source keeps its state under it. */
const gchar          *sl_driver_persist_name_option (const SlDriver *driver);

/* The environment a destination with SL_CAP_TEMPLATES renders in, from its
 * ts-format(), frac-digits(), time-zone() and template-escape(). */
const SlTemplateEnv  *sl_driver_template_env (const SlDriver *driver);

/* The option tables of a class: its own, then those the core adds for its
 * kind and capabilities; NULL-terminated, at most SL_DRIVER_TABLES_MAX. */
#define SL_DRIVER_TABLES_MAX 11
void                  sl_driver_class_tables (const SlDriverClass *klass,
                                              const SlOptionSpec *tables[SL_DRIVER_TABLES_MAX + 1]);

G_END_DECLS

#endif
