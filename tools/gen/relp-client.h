/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluice-gen --relp: a connection's RELP session. Messages count as sent
 * only once the receiver answered them; after a break the sender connects
 * again and sends the unanswered ones anew, so a break loses nothing. */
#ifndef SL_GEN_RELP_CLIENT_H
#define SL_GEN_RELP_CLIENT_H

#include <glib.h>

G_BEGIN_DECLS

/* The connection's bytes, as the sender moves them (plain or TLS): the
 * count moved, or -1 with errno. */
typedef gssize (*SlGenRelpIo) (gpointer conn, gchar *buf, gsize len);

typedef struct
{
  SlGenRelpIo read;
  SlGenRelpIo write;
  gpointer conn;
  guint window;             /* frames sent before their answers came */
  guint32 txnr;             /* the next frame's */
  GString *out;
  GString *in;
  guint8 *answered;
  guint answered_cap;
} SlGenRelp;

void     sl_gen_relp_init   (SlGenRelp *r, guint window);
void     sl_gen_relp_clear  (SlGenRelp *r);
/* A new session on a new connection: "open", and its answer. */
gboolean sl_gen_relp_open   (SlGenRelp *r, SlGenRelpIo read, SlGenRelpIo write, gpointer conn, GError **error);
/* Sends messages[offsets[i] .. offsets[i + 1]) for i in first .. first +
 * count - 1 and waits for their answers; *answered: how many from the
 * first were answered "200", also when it fails. FALSE (errno set) when
 * the session broke or was refused. */
gboolean sl_gen_relp_send   (SlGenRelp *r, const gchar *messages, const gsize *offsets, guint first,
                             guint count, guint *answered);

G_END_DECLS

#endif
