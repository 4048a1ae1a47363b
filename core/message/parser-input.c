/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/message/parser-input.h"
#include "core/message/scratch.h"

static GPrivate input_buffer = SL_SCRATCH_INIT;

gchar *
sl_parser_input (const SlTemplate *template, const SlMessage *msg, gsize *len)
{
  GString *buffer = sl_scratch_get (&input_buffer);
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
