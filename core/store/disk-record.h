/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A message as a disk-buffer record's payload, and back: the received
 * bytes, stamps, priority and flags, every field that is set (builtin and
 * dynamic alike) by name, and its tags. Only the public message API is
 * used, so the message's own layout can change without changing files.
 * Values that are slices of the received bytes are stored as their place
 * in them, so a parsed message costs little more than its raw text. */
#ifndef SL_DISK_RECORD_H
#define SL_DISK_RECORD_H

#include <glib.h>
#include "core/message/message.h"

G_BEGIN_DECLS

/* Appends msg's payload to out. */
void       sl_disk_record_encode (const SlMessage *msg, GByteArray *out);
/* A new message (one reference) from a payload, or NULL when the payload
 * is malformed: any bytes are safe to give it. */
SlMessage *sl_disk_record_decode (const guint8 *data, gsize len);

G_END_DECLS

#endif
