/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/message/scratch.h"

/* A buffer that once held a huge value is not kept at that size. */
#define SCRATCH_KEEP (256 * 1024)

/* What a key holds for a thread: its buffers, the first depth in use. */
typedef struct
{
  GPtrArray *buffers;
  guint depth;
} Scratch;

static void
buffer_free (gpointer buffer)
{
  g_string_free (buffer, TRUE);
}

void
sl_scratch_free (gpointer scratch)
{
  Scratch *s = scratch;
  g_ptr_array_unref (s->buffers);
  g_free (s);
}

static Scratch *
scratch_of (GPrivate *key)
{
  Scratch *s = g_private_get (key);
  if (G_UNLIKELY (!s))
    {
      s = g_new0 (Scratch, 1);
      s->buffers = g_ptr_array_new_with_free_func (buffer_free);
      g_ptr_array_add (s->buffers, g_string_sized_new (256));
      g_private_set (key, s);
    }
  return s;
}

static GString *
emptied (Scratch *s, guint i)
{
  GString *buffer = g_ptr_array_index (s->buffers, i);
  if (G_UNLIKELY (buffer->allocated_len > SCRATCH_KEEP))
    {
      g_string_free (buffer, TRUE);
      buffer = g_string_sized_new (256);
      s->buffers->pdata[i] = buffer;
    }
  g_string_truncate (buffer, 0);
  return buffer;
}

GString *
sl_scratch_get (GPrivate *key)
{
  return emptied (scratch_of (key), 0);
}

GString *
sl_scratch_push (GPrivate *key)
{
  Scratch *s = scratch_of (key);
  if (s->depth == s->buffers->len)
    g_ptr_array_add (s->buffers, g_string_sized_new (256));
  return emptied (s, s->depth++);
}

void
sl_scratch_pop (GPrivate *key)
{
  Scratch *s = g_private_get (key);
  s->depth--;
}
