/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What only a configuration calls of the templates: not the plugin kit's. */
#ifndef SL_TEMPLATE_PRIVATE_H
#define SL_TEMPLATE_PRIVATE_H

#include "core/message/template.h"

G_BEGIN_DECLS

/* The table sl_template_named() gives while a configuration compiles
 * (name as sl_cfg_name_normalize() writes it -> SlTemplate); then NULL. */
void sl_template_set_named (GHashTable *templates);
/* What sl_template_typed_values() says while a configuration compiles; then FALSE. */
void sl_template_set_typed_values (gboolean typed);

G_END_DECLS

#endif
