/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What only a configuration calls of the templates: not the plugin kit's. */
#ifndef SL_TEMPLATE_PRIVATE_H
#define SL_TEMPLATE_PRIVATE_H

#include "core/message/template.h"

G_BEGIN_DECLS

/* The table sl_template_named() gives while a configuration compiles
 * (name as sl_cfg_name_normalize() writes it -> SlTemplate); then NULL. */
void sl_template_set_named (GHashTable *templates);
/* The table sl_template_set_user_functions() set, or NULL. */
GHashTable *sl_template_user_functions (void);

G_END_DECLS

#endif
