/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CRC-32C (Castagnoli), as iSCSI, ext4 and btrfs use it: the checksum of
 * every disk-buffer record. */
#ifndef SL_CRC32C_H
#define SL_CRC32C_H

#include <glib.h>

G_BEGIN_DECLS

/* Continues crc (0 to begin) over len bytes of data. */
guint32 sl_crc32c (guint32 crc, gconstpointer data, gsize len);

G_END_DECLS

#endif
