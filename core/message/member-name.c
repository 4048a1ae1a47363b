/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/message/member-name.h"

void
sl_member_name_append (GString *out, const gchar *member, gsize len)
{
  for (gsize i = 0; i < len; i++)
    {
      if (member[i] == '.' || member[i] == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, member[i]);
    }
}

const gchar *
sl_member_name_end (const gchar *p)
{
  for (; *p && *p != '.'; p++)
    if (*p == '\\' && p[1])
      p++;
  return p;
}

const gchar *
sl_member_name_last (const gchar *name)
{
  const gchar *last = NULL;

  for (const gchar *p = sl_member_name_end (name); *p; p = sl_member_name_end (p + 1))
    last = p;
  return last;
}

void
sl_member_name_unescape (GString *out, const gchar *p, gsize len)
{
  for (gsize i = 0; i < len; i++)
    {
      if (p[i] == '\\' && i + 1 < len)
        i++;
      g_string_append_c (out, p[i]);
    }
}
