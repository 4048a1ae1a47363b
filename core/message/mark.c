/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/message/mark.h"
#include "core/message/macros.h"

#include <string.h>

/* syslog-ng's LOG_SYSLOG | LOG_INFO */
#define MARK_FACILITY 5
#define MARK_SEVERITY 6

SlMessage *
sl_mark_message_new (const gchar *text)
{
  gsize len = strlen (text);
  SlMessage *msg = sl_message_new (text, len);
  sl_time_now (&msg->recvd);
  msg->stamp = msg->recvd;
  msg->pri = SL_PRI_MAKE (MARK_FACILITY, MARK_SEVERITY);
  msg->flags |= SL_MSG_LOCAL;
  sl_message_set_slice (msg, SL_F_MESSAGE, msg->raw, len);
  sl_message_set (msg, SL_F_HOST, sl_macro_loghost (), -1);
  return msg;
}
