/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlSocketReader: the core reader a bound socket needs: for a stream
 * socket a listener whose connections the I/O workers read, for a
 * datagram socket a datagram reader. What socket sources share once they opened their socket. */
#ifndef SL_SOCKET_READER_H
#define SL_SOCKET_READER_H

#include <glib.h>
#include "core/io/listener.h"

G_BEGIN_DECLS

typedef struct _SlSocketReader SlSocketReader;

/* Takes fd (listening when stream, bound otherwise); settings apply to
 * streams. NULL with *error set when it cannot start. */
SlSocketReader *sl_socket_reader_start (SlSource *src, gint fd, gboolean stream,
                                        const SlListenerSettings *settings, GError **error);
void            sl_socket_reader_stop  (SlSocketReader *r);

G_END_DECLS

#endif
