/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as a template, compiled and rendered against
 * a message with fields set. */
#include "core/message/template.h"

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  static SlMessage *msg;
  if (!msg)
    {
      msg = sl_message_new ("raw", 3);
      sl_time_now (&msg->stamp);
      msg->recvd = msg->stamp;
      sl_message_set (msg, SL_F_HOST, "host", -1);
      sl_message_set (msg, SL_F_PROGRAM, "prog", -1);
      sl_message_set (msg, sl_field_handle (".SDATA.a@1.b"), "v\"]", -1);
    }
  gchar *text = g_strndup ((const gchar *) data, size);
  GError *error = NULL;
  SlTemplate *t = sl_template_compile (text, &error);
  if (t)
    {
      GString *out = g_string_new (NULL);
      sl_template_append (t, msg, NULL, out);
      g_string_free (out, TRUE);
      sl_template_unref (t);
    }
  g_clear_error (&error);
  g_free (text);
  return 0;
}
