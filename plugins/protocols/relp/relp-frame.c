/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/protocols/relp/relp-frame.h"

#include <string.h>

static gboolean
is_digit (gchar c)
{
  return c >= '0' && c <= '9';
}

static gboolean
is_alpha (gchar c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A number of one to nine digits ending in a space (or, for the data
 * length, in the trailer): the position after it, or 0 when incomplete,
 * G_MAXSIZE when malformed. */
static gsize
read_number (const gchar *buf, gsize len, gsize at, guint32 *value, gboolean may_end_frame)
{
  guint32 v = 0;
  gsize i = at;
  while (i < len && is_digit (buf[i]))
    {
      if (i - at == 9)
        return G_MAXSIZE;
      v = v * 10 + (guint32) (buf[i] - '0');
      i++;
    }
  if (i == len)
    return 0;
  if (i == at || (buf[i] != ' ' && !(may_end_frame && buf[i] == '\n')))
    return G_MAXSIZE;
  *value = v;
  return i;
}

RelpFrameStatus
relp_frame_parse (const gchar *buf, gsize len, gsize max_data, RelpFrame *frame, gsize *consumed)
{
  gsize at = read_number (buf, len, 0, &frame->txnr, FALSE);
  if (at == G_MAXSIZE)
    return RELP_FRAME_MALFORMED;
  if (!at)
    return RELP_FRAME_INCOMPLETE;
  at++;
  gsize cmd = 0;
  while (at < len && is_alpha (buf[at]))
    {
      if (cmd == RELP_COMMAND_MAX)
        return RELP_FRAME_MALFORMED;
      frame->command[cmd++] = buf[at++];
    }
  if (at == len)
    return RELP_FRAME_INCOMPLETE;
  if (!cmd || buf[at] != ' ')
    return RELP_FRAME_MALFORMED;
  frame->command[cmd] = '\0';
  guint32 datalen = 0;
  gsize after = read_number (buf, len, at + 1, &datalen, TRUE);
  if (after == G_MAXSIZE)
    return RELP_FRAME_MALFORMED;
  if (!after)
    return RELP_FRAME_INCOMPLETE;
  if (datalen > max_data)
    return RELP_FRAME_TOO_LONG;
  at = after;
  if (datalen == 0)
    {
      /* an empty frame may still carry the separator before its trailer */
      if (buf[at] == ' ')
        {
          if (++at == len)
            return RELP_FRAME_INCOMPLETE;
        }
      if (buf[at] != '\n')
        return RELP_FRAME_MALFORMED;
      frame->data = buf + at;
      frame->len = 0;
      *consumed = at + 1;
      return RELP_FRAME_OK;
    }
  if (buf[at] != ' ')
    return RELP_FRAME_MALFORMED;
  at++;
  if (len - at < (gsize) datalen + 1)
    return RELP_FRAME_INCOMPLETE;
  if (buf[at + datalen] != '\n')
    return RELP_FRAME_MALFORMED;
  frame->data = buf + at;
  frame->len = datalen;
  *consumed = at + datalen + 1;
  return RELP_FRAME_OK;
}

void
relp_frame_append (GString *out, guint32 txnr, const gchar *command, const gchar *data, gsize len)
{
  g_string_append_printf (out, "%u %s %" G_GSIZE_FORMAT, txnr, command, len);
  if (len)
    {
      g_string_append_c (out, ' ');
      g_string_append_len (out, data, (gssize) len);
    }
  g_string_append_c (out, '\n');
}

guint32
relp_txnr_next (guint32 txnr)
{
  return txnr >= RELP_TXNR_MAX ? 1 : txnr + 1;
}

guint
relp_rsp_code (const gchar *data, gsize len)
{
  if (len < 3 || !is_digit (data[0]) || !is_digit (data[1]) || !is_digit (data[2]))
    return 0;
  if (len > 3 && data[3] != ' ' && data[3] != '\n')
    return 0;
  return (guint) ((data[0] - '0') * 100 + (data[1] - '0') * 10 + (data[2] - '0'));
}
