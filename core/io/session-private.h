/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What SlListener does with a session it hands to its own thread. */
#ifndef SL_SESSION_PRIVATE_H
#define SL_SESSION_PRIVATE_H

#include "core/io/admission.h"
#include "core/io/session.h"

G_BEGIN_DECLS

/* Called on the session's thread once it is over (the protocol's closed
 * ran): the listener forgets it and closes fd. */
typedef void (*SlSessionEnded) (SlSession *s, gpointer data);

/* Starts the session's thread on fd (non-blocking; tls handshaken or
 * NULL, both still the caller's). */
SlSession   *sl_session_start   (const SlSessionOps *ops, gpointer data, gint fd, SlTls *tls, const gchar *peer,
                                 gint64 accepted, SlSessionEnded ended, gpointer ended_data, GError **error);
/* Frees what the session has (not fd nor tls): from ended. */
void         sl_session_free    (SlSession *s);
/* What SlAdmission judges, read from any thread. */
SlAdmitFacts sl_session_facts   (SlSession *s);
/* From any thread while the session runs: ends its read and writes. */
void         sl_session_shut    (SlSession *s);
/* See SlSessionOps.cancel. */
void         sl_session_cancel  (SlSession *s);

G_END_DECLS

#endif
