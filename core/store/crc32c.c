/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/store/crc32c.h"

/* Reflected Castagnoli polynomial. Slicing by eight: eight table lookups
 * per 8 bytes, several times the speed of one lookup per byte, with no
 * dependency beyond the 8 KiB of tables. */
#define POLY 0x82f63b78u

static guint32 table[8][256];

static gpointer
make_tables (gpointer data)
{
  for (guint32 i = 0; i < 256; i++)
    {
      guint32 c = i;
      for (gint k = 0; k < 8; k++)
        c = c & 1 ? (c >> 1) ^ POLY : c >> 1;
      table[0][i] = c;
    }
  for (guint32 i = 0; i < 256; i++)
    for (gint t = 1; t < 8; t++)
      table[t][i] = (table[t - 1][i] >> 8) ^ table[0][table[t - 1][i] & 0xff];
  return NULL;
}

guint32
sl_crc32c (guint32 crc, gconstpointer data, gsize len)
{
  static GOnce once = G_ONCE_INIT;
  g_once (&once, make_tables, NULL);
  const guint8 *p = data;
  crc = ~crc;
  while (len && ((guintptr) p & 7))
    {
      crc = (crc >> 8) ^ table[0][(crc ^ *p++) & 0xff];
      len--;
    }
  while (len >= 8)
    {
      guint32 lo = crc ^ (p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24);
      crc = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^ table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24]
            ^ table[3][p[4]] ^ table[2][p[5]] ^ table[1][p[6]] ^ table[0][p[7]];
      p += 8;
      len -= 8;
    }
  while (len--)
    crc = (crc >> 8) ^ table[0][(crc ^ *p++) & 0xff];
  return ~crc;
}
