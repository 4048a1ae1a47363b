/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Taking the sockets systemd passed and closing the unclaimed ones: the
 * daemon's, not the plugin kit's. */
#ifndef SL_ACTIVATION_PRIVATE_H
#define SL_ACTIVATION_PRIVATE_H

#include "core/io/activation.h"

G_BEGIN_DECLS

/* Takes the sockets passed to this process, if any, and removes the
 * variables from the environment so that programs the daemon runs do not
 * take them for theirs. Call once, before anything forks. */
void  sl_activation_init            (void);
/* Closes the passed sockets that no source took since the previous call,
 * saying so with each one's name and address: what systemd gives and the
 * configuration does not use would otherwise hold its port for nothing. */
void  sl_activation_close_unclaimed (void);

G_END_DECLS

#endif
