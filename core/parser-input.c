/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/parser-input.h"

/* A buffer that once held a huge message is not kept at that size. */
#define SL_PARSER_INPUT_KEEP (256 * 1024)

static void
buffer_free (gpointer buffer)
{
  g_string_free (buffer, TRUE);
}

static GPrivate input_buffer = G_PRIVATE_INIT (buffer_free);

gchar *
sl_parser_input (const SlTemplate *template, const SlMessage *msg, gsize *len)
{
  GString *buffer = g_private_get (&input_buffer);
  if (buffer && buffer->allocated_len > SL_PARSER_INPUT_KEEP)
    {
      g_private_replace (&input_buffer, NULL);
      buffer = NULL;
    }
  if (!buffer)
    {
      buffer = g_string_sized_new (1024);
      g_private_set (&input_buffer, buffer);
    }

  g_string_truncate (buffer, 0);
  if (template)
    sl_template_append (template, msg, NULL, buffer);
  else
    {
      gsize message_len;
      const gchar *message = sl_message_get (msg, SL_F_MESSAGE, &message_len);
      if (message)
        g_string_append_len (buffer, message, message_len);
    }
  *len = buffer->len;
  return buffer->str;
}
