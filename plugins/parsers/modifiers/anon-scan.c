/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The addresses anonymize-ip() finds, as rsyslog 8.2302's mmanon finds
 * them (each checked against what it wrote): wherever one starts, even
 * inside a word or a longer number, and only whole by its own rules (an
 * IPv6 group of five digits, a ":::" or a second "::" spoil the place,
 * which is then tried again one byte on). */
#include "plugins/parsers/modifiers/modifiers.h"

#include <string.h>

/* One to three digits, at most 255: its length, 0 if none */
static gsize
octet_at (const gchar *p, const gchar *end, guint *value)
{
  gsize n = 0;

  *value = 0;
  while (p + n < end && g_ascii_isdigit (p[n]))
    {
      *value = *value * 10 + (guint) (p[n] - '0');
      if (++n > 3)
        return 0;
    }
  return *value <= 255 ? n : 0;
}

gsize
anon_ipv4_at (const gchar *p, const gchar *end, guint32 *address, gsize starts[4])
{
  gsize at = 0;

  *address = 0;
  for (guint i = 0; i < 4; i++)
    {
      guint value;
      if (i > 0)
        {
          if (p + at >= end || p[at] != '.')
            return 0;
          at++;
        }
      gsize n = octet_at (p + at, end, &value);
      if (!n)
        return 0;
      starts[i] = at;
      *address = (*address << 8) | value;
      at += n;
    }
  return at;
}

static gboolean
is_double_colon (const gchar *p, const gchar *end)
{
  return p + 1 < end && p[0] == ':' && p[1] == ':';
}

/* Groups of hex digits joined by ':', one "::" among them; embedded: up
 * to six, then an IPv4 address. Reading stops at eight groups, or where
 * no group follows. mmanon places the groups after an embedded address's
 * "::" one group early and leaves the sixth zero (::ffff:10.1.2.3 is
 * 0:0:0:0:ffff:0 and 10.1.2.3), which shows once bits leave them be. */
gsize
anon_ipv6_at (const gchar *p, const gchar *end, gboolean embedded, guint16 group[8])
{
  guint16 before[8], after[8];
  guint n_before = 0, n_after = 0;
  guint limit = embedded ? 6 : 8;
  gboolean compressed = FALSE;
  gboolean have_ipv4 = FALSE;
  guint32 ipv4 = 0;
  const gchar *q = p;

  if (is_double_colon (q, end))
    {
      compressed = TRUE;
      q += 2;
      if (q < end && *q == ':')
        return 0;
    }
  while (q < end)
    {
      gsize starts[4];
      gsize n = embedded ? anon_ipv4_at (q, end, &ipv4, starts) : 0;
      if (n)
        {
          have_ipv4 = TRUE;
          q += n;
          break;
        }
      guint value = 0;
      for (n = 0; q + n < end && g_ascii_isxdigit (q[n]); n++)
        {
          if (n == 4)
            return 0;
          value = value * 16 + (guint) g_ascii_xdigit_value (q[n]);
        }
      if (!n)
        break;
      if (n_before + n_after == limit)
        return 0;
      if (compressed)
        after[n_after++] = (guint16) value;
      else
        before[n_before++] = (guint16) value;
      q += n;
      if (!embedded && n_before + n_after == 8)
        break;
      if (is_double_colon (q, end))
        {
          if (compressed || (q + 2 < end && q[2] == ':'))
            return 0;
          compressed = TRUE;
          q += 2;
        }
      else if (q + 1 < end && q[0] == ':' && g_ascii_isxdigit (q[1]))
        q++;
      else
        break;
    }
  guint n = n_before + n_after;
  if (embedded && (!have_ipv4 || (compressed ? n > 5 : n != 6)))
    return 0;
  if (!embedded && (compressed ? n > 7 : n != 8))
    return 0;
  memset (group, 0, 8 * sizeof *group);
  memcpy (group, before, n_before * sizeof *group);
  guint from = embedded && compressed ? 5 - n_after : 8 - n_after;
  memcpy (group + from, after, n_after * sizeof *group);
  if (embedded)
    {
      group[6] = (guint16) (ipv4 >> 16);
      group[7] = (guint16) ipv4;
    }
  return (gsize) (q - p);
}

void
anon_ipv6_append (GString *out, const guint16 group[8], gboolean embedded)
{
  for (guint i = 0; i < (embedded ? 6u : 8u); i++)
    g_string_append_printf (out, "%s%x", i ? ":" : "", group[i]);
  if (embedded)
    g_string_append_printf (out, ":%u.%u.%u.%u", group[6] >> 8, group[6] & 0xff, group[7] >> 8, group[7] & 0xff);
}
