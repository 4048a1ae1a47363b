/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlResendBuffer: messages written to a peer (a socket, a pipe) but not
 * yet known to have arrived (acknowledged, or read), kept so that after a
 * broken connection or a dead reader they can be written again, whole, to
 * the next one. A duplicate is possible, a loss is not.
 *
 * The writer appends a message's bytes to bytes and calls
 * sl_resend_buffer_end_message(); it writes bytes from sent on and
 * advances sent. */
#ifndef SL_RESEND_BUFFER_H
#define SL_RESEND_BUFFER_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  GString *bytes;
  GArray *ends;             /* gsize: where each message ends in bytes */
  guint first;              /* ends[first] ends the oldest message not known to have arrived */
  gsize start;              /* where that message begins; what lies before it arrived */
  gsize sent;               /* bytes [start, sent) were written to the current peer */
} SlResendBuffer;

void     sl_resend_buffer_init     (SlResendBuffer *b);
void     sl_resend_buffer_clear    (SlResendBuffer *b);
/* The message appended last ends here. */
void     sl_resend_buffer_end_message (SlResendBuffer *b);
/* Messages kept: not known to have arrived. */
guint    sl_resend_buffer_messages (const SlResendBuffer *b);
/* True while bytes wait to be written to the current peer. */
gboolean sl_resend_buffer_unsent   (const SlResendBuffer *b);
/* The peer has all it was given but the last `missing` bytes (not yet
 * acknowledged, or still unread in a pipe); messages it has whole are
 * forgotten. */
void     sl_resend_buffer_delivered (SlResendBuffer *b, gsize missing);
/* A new peer: everything kept is written again. */
void     sl_resend_buffer_rewind   (SlResendBuffer *b);
/* Frees the room of what arrived; offsets into bytes and marks change. */
void     sl_resend_buffer_compact  (SlResendBuffer *b);
/* Where the next message will go, to hand to sl_resend_buffer_take_back();
 * valid until the next compaction. */
guint    sl_resend_buffer_mark     (const SlResendBuffer *b);
/* A write stopped short: of the messages appended since mark, those not
 * written whole are taken out again, except, with keep_cut, one that was
 * written in part and must be finished before anything else. Returns how
 * many of them stay. */
guint    sl_resend_buffer_take_back (SlResendBuffer *b, guint mark, gboolean keep_cut);

G_END_DECLS

#endif
