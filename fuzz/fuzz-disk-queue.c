/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as a disk-buffer file. The first byte
 * chooses how: bit 0 clear, the rest is a segment file as found on disk;
 * set, the rest is cut into records (a byte of length each) given valid
 * CRCs, so that the message decoder sees what the CRC would hide; bit 1
 * set, the first 36 bytes of the rest are the head file. The queue is
 * opened, every record read and decoded, and acknowledged. */
#include "core/store/crc32c.h"
#include "core/store/disk-queue.h"
#include "core/store/disk-record.h"

#include <glib/gstdio.h>
#include <string.h>

static const guint8 segment_header[32] = { 'S', 'L', 'D', 'Q', 'S', 'E', 'G', 'M', 1, 0, 0, 0, 0, 0, 0, 0, 1 };

static void
put_le32 (guint8 *p, guint32 v)
{
  v = GUINT32_TO_LE (v);
  memcpy (p, &v, 4);
}

static GByteArray *
records_from (const guint8 *data, gsize size)
{
  GByteArray *file = g_byte_array_new ();
  guint8 header[32];
  memcpy (header, segment_header, sizeof header);
  put_le32 (header + 24, sl_crc32c (0, header, 24));
  g_byte_array_append (file, header, sizeof header);
  while (size)
    {
      gsize len = MIN ((gsize) data[0], size - 1);
      guint8 rec[8];
      put_le32 (rec, len ? len : 1);
      put_le32 (rec + 4, sl_crc32c (sl_crc32c (0, rec, 4), data + 1, len));
      g_byte_array_append (file, rec, sizeof rec);
      g_byte_array_append (file, data + 1, len);
      data += len + 1;
      size -= len + 1;
    }
  return file;
}

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  static gchar *dir, *segment, *head;
  if (!dir)
    {
      dir = g_dir_make_tmp ("sluice-fuzz-dq-XXXXXX", NULL);
      segment = g_build_filename (dir, "fz.0000000000000001.dq", NULL);
      head = g_build_filename (dir, "fz.dq-head", NULL);
    }
  if (!size)
    return 0;
  guint8 mode = data[0];
  data++, size--;
  g_unlink (head);
  if ((mode & 2) && size >= 36)
    {
      g_file_set_contents (head, (const gchar *) data, 36, NULL);
      data += 36, size -= 36;
    }
  GByteArray *file = mode & 1 ? records_from (data, size) : g_byte_array_append (g_byte_array_new (), data, size);
  g_file_set_contents (segment, (const gchar *) file->data, file->len, NULL);
  g_byte_array_unref (file);

  SlDiskQueueLimits limits = { 1 << 20, 4096, FALSE };
  GError *error = NULL;
  SlDiskQueue *q = sl_disk_queue_open (dir, "fz", &limits, NULL, &error);
  if (q)
    {
      const guint8 *payload;
      gsize len;
      SlDiskPos end;
      guint64 skipped, n = 0, bytes = 0;
      SlDiskReadResult r;
      while ((r = sl_disk_queue_read (q, &payload, &len, &end, &skipped)) != SL_DISK_READ_NONE)
        if (r == SL_DISK_READ_RECORD)
          {
            SlMessage *msg = sl_disk_record_decode (payload, len);
            if (msg)
              sl_message_unref (msg);
            n++;
            bytes += len;
          }
      if (n)
        sl_disk_queue_ack (q, end, n, bytes);
      sl_disk_queue_close (q);
    }
  g_clear_error (&error);
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;
  while (d && (name = g_dir_read_name (d)))
    {
      gchar *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
      g_free (path);
    }
  if (d)
    g_dir_close (d);
  return 0;
}
