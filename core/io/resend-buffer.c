/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/io/resend-buffer.h"

#include <string.h>

/* Bytes that arrived are dropped from the front only once they are half
 * the buffer, so that a slow peer does not cost a memmove per batch. */
#define COMPACT_MIN (64 * 1024)

void
sl_resend_buffer_init (SlResendBuffer *b)
{
  b->bytes = g_string_sized_new (64 * 1024);
  b->ends = g_array_new (FALSE, FALSE, sizeof (gsize));
  b->first = 0;
  b->start = 0;
  b->sent = 0;
}

void
sl_resend_buffer_clear (SlResendBuffer *b)
{
  if (b->bytes)
    g_string_free (b->bytes, TRUE);
  if (b->ends)
    g_array_unref (b->ends);
  memset (b, 0, sizeof *b);
}

void
sl_resend_buffer_end_message (SlResendBuffer *b)
{
  g_array_append_val (b->ends, b->bytes->len);
}

guint
sl_resend_buffer_messages (const SlResendBuffer *b)
{
  return b->ends->len - b->first;
}

gboolean
sl_resend_buffer_unsent (const SlResendBuffer *b)
{
  return b->sent < b->bytes->len;
}

/* missing counts bytes of the current peer only, so everything given to it
 * before those has arrived. A unix socket reports memory, not bytes, which
 * is more: then less is taken as arrived, never more. */
void
sl_resend_buffer_delivered (SlResendBuffer *b, gsize missing)
{
  if (missing >= b->sent - b->start)
    return;
  gsize arrived = b->sent - missing;
  while (b->first < b->ends->len && g_array_index (b->ends, gsize, b->first) <= arrived)
    b->start = g_array_index (b->ends, gsize, b->first++);
}

void
sl_resend_buffer_rewind (SlResendBuffer *b)
{
  b->sent = b->start;
}

void
sl_resend_buffer_compact (SlResendBuffer *b)
{
  if (b->first == b->ends->len && b->sent == b->bytes->len)
    {
      g_string_truncate (b->bytes, 0);
      g_array_set_size (b->ends, 0);
      b->first = 0;
      b->start = b->sent = 0;
      return;
    }
  if (b->start < COMPACT_MIN || b->start < b->bytes->len / 2)
    return;
  g_string_erase (b->bytes, 0, b->start);
  g_array_remove_range (b->ends, 0, b->first);
  for (guint i = 0; i < b->ends->len; i++)
    g_array_index (b->ends, gsize, i) -= b->start;
  b->sent -= b->start;
  b->first = 0;
  b->start = 0;
}

guint
sl_resend_buffer_mark (const SlResendBuffer *b)
{
  return b->ends->len;
}

static gsize
message_start (const SlResendBuffer *b, guint i)
{
  return i ? g_array_index (b->ends, gsize, i - 1) : 0;
}

guint
sl_resend_buffer_take_back (SlResendBuffer *b, guint mark, gboolean keep_cut)
{
  guint keep = mark;
  while (keep < b->ends->len && g_array_index (b->ends, gsize, keep) <= b->sent)
    keep++;
  if (keep_cut && keep < b->ends->len && message_start (b, keep) < b->sent)
    keep++;
  g_string_truncate (b->bytes, message_start (b, keep));
  g_array_set_size (b->ends, keep);
  /* a cut message taken out leaves part of it with the peer: only a
   * rewind to a new peer makes sense then */
  b->sent = MIN (b->sent, b->bytes->len);
  return keep - mark;
}
