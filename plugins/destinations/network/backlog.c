/* NetBacklog: a stream destination's bytes until the peer acknowledged
 * them. A write() that succeeded only put them into our kernel's send
 * buffer; when the peer goes away, what it had not acknowledged is sent
 * again on the next connection (a duplicate at worst, never a loss). */
#include "plugins/destinations/network/network-destination.h"

#include <string.h>

/* Acknowledged bytes are dropped from the front only once they are half
 * the buffer, so that a slow peer does not cost a memmove per batch. */
#define COMPACT_MIN (64 * 1024)

void
net_backlog_init (NetBacklog *b)
{
  b->bytes = g_string_sized_new (64 * 1024);
  b->ends = g_array_new (FALSE, FALSE, sizeof (gsize));
  b->first = 0;
  b->start = 0;
  b->sent = 0;
}

void
net_backlog_clear (NetBacklog *b)
{
  if (b->bytes)
    g_string_free (b->bytes, TRUE);
  if (b->ends)
    g_array_unref (b->ends);
  memset (b, 0, sizeof *b);
}

guint
net_backlog_messages (const NetBacklog *b)
{
  return b->ends->len - b->first;
}

void
net_backlog_compact (NetBacklog *b)
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

/* unacked counts bytes of the current connection only, so everything
 * given to it before those has arrived. A unix socket reports memory, not
 * bytes, which is more: then less is taken as arrived, never more. */
void
net_backlog_delivered (NetBacklog *b, gsize unacked)
{
  if (unacked >= b->sent - b->start)
    return;
  gsize arrived = b->sent - unacked;
  while (b->first < b->ends->len && g_array_index (b->ends, gsize, b->first) <= arrived)
    b->start = g_array_index (b->ends, gsize, b->first++);
}

void
net_backlog_rewind (NetBacklog *b)
{
  b->sent = b->start;
}
