/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* How much the daemon says and whether to stderr (-e, -v, -d): its own
 * settings, not the plugin kit's. */
#ifndef SL_INTERNAL_PRIVATE_H
#define SL_INTERNAL_PRIVATE_H

#include "core/internal.h"

G_BEGIN_DECLS

void sl_internal_set_stderr (gboolean on);
void sl_internal_set_verbosity (gboolean verbose, gboolean debug);

G_END_DECLS

#endif
