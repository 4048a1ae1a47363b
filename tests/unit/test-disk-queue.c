/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/store/disk-queue.h"
#include "core/store/disk-record.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

typedef struct
{
  gchar *dir;
} Fixture;

static void
setup (Fixture *f, gconstpointer data)
{
  f->dir = g_dir_make_tmp ("sluice-dq-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
}

static void
teardown (Fixture *f, gconstpointer data)
{
  GDir *dir = g_dir_open (f->dir, 0, NULL);
  const gchar *name;
  while ((name = g_dir_read_name (dir)))
    {
      gchar *path = g_build_filename (f->dir, name, NULL);
      g_unlink (path);
      g_free (path);
    }
  g_dir_close (dir);
  g_rmdir (f->dir);
  g_free (f->dir);
}

static SlDiskQueue *
open_queue (Fixture *f, gint64 max_bytes, gint64 segment_size, SlDiskQueueReport *report)
{
  SlDiskQueueLimits limits = { max_bytes, segment_size, FALSE };
  GError *error = NULL;
  SlDiskQueue *q = sl_disk_queue_open (f->dir, "d_test", &limits, report, &error);
  g_assert_no_error (error);
  return q;
}

/* Appends "record N" for N in [from, to), flushed, synced and published. */
static void
append_range (SlDiskQueue *q, guint from, guint to)
{
  GError *error = NULL;
  for (guint i = from; i < to; i++)
    {
      gchar *text = g_strdup_printf ("record %u", i);
      SlDiskPos end;
      if (!sl_disk_queue_append (q, (const guint8 *) text, strlen (text), &end))
        {
          g_assert_true (sl_disk_queue_flush (q, &error));
          g_assert_true (sl_disk_queue_append (q, (const guint8 *) text, strlen (text), &end));
        }
      g_free (text);
    }
  g_assert_true (sl_disk_queue_flush (q, &error));
  g_assert_true (sl_disk_queue_sync (q, &error));
  g_assert_no_error (error);
  sl_disk_queue_publish (q);
}

/* Reads the next n records, checks they are "record from".., acks them. */
static void
read_range (SlDiskQueue *q, guint from, guint n, gboolean ack)
{
  SlDiskPos end = { 0 };
  guint64 bytes = 0;
  for (guint i = from; i < from + n; i++)
    {
      const guint8 *payload;
      gsize len;
      guint64 skipped;
      g_assert_cmpint (sl_disk_queue_read (q, &payload, &len, &end, &skipped), ==, SL_DISK_READ_RECORD);
      gchar *expected = g_strdup_printf ("record %u", i);
      g_assert_cmpmem (payload, len, expected, strlen (expected));
      g_free (expected);
      bytes += len;
    }
  if (ack)
    sl_disk_queue_ack (q, end, n, bytes);
}

static void
assert_nothing_to_read (SlDiskQueue *q)
{
  const guint8 *payload;
  gsize len;
  SlDiskPos end;
  guint64 skipped;
  g_assert_cmpint (sl_disk_queue_read (q, &payload, &len, &end, &skipped), ==, SL_DISK_READ_NONE);
}

static guint
count_files (Fixture *f, const gchar *suffix)
{
  GDir *dir = g_dir_open (f->dir, 0, NULL);
  guint n = 0;
  const gchar *name;
  while ((name = g_dir_read_name (dir)))
    n += g_str_has_suffix (name, suffix);
  g_dir_close (dir);
  return n;
}

static gchar *
first_segment (Fixture *f)
{
  GDir *dir = g_dir_open (f->dir, 0, NULL);
  const gchar *name;
  gchar *path = NULL;
  while ((name = g_dir_read_name (dir)) && !path)
    if (g_str_has_suffix (name, ".dq"))
      path = g_build_filename (f->dir, name, NULL);
  g_dir_close (dir);
  g_assert_nonnull (path);
  return path;
}

static void
test_append_and_read_in_order (Fixture *f, gconstpointer data)
{
  SlDiskQueue *q = open_queue (f, 1 << 20, 0, NULL);
  append_range (q, 0, 100);
  g_assert_cmpuint (sl_disk_queue_records (q), ==, 100);
  g_assert_cmpuint (sl_disk_queue_unread (q), ==, 100);
  read_range (q, 0, 60, TRUE);
  g_assert_cmpuint (sl_disk_queue_records (q), ==, 40);
  append_range (q, 100, 110);
  read_range (q, 60, 50, TRUE);
  assert_nothing_to_read (q);
  g_assert_cmpuint (sl_disk_queue_records (q), ==, 0);
  g_assert_cmpuint (sl_disk_queue_bytes (q), ==, 0);
  sl_disk_queue_close (q);
}

static void
test_unpublished_records_are_not_read (Fixture *f, gconstpointer data)
{
  SlDiskQueue *q = open_queue (f, 1 << 20, 0, NULL);
  SlDiskPos end;
  g_assert_true (sl_disk_queue_append (q, (const guint8 *) "x", 1, &end));
  g_assert_true (sl_disk_queue_flush (q, NULL));
  assert_nothing_to_read (q);
  sl_disk_queue_publish (q);
  g_assert_cmpuint (sl_disk_queue_unread (q), ==, 1);
  sl_disk_queue_close (q);
}

static void
test_replay_after_reopen_starts_at_head (Fixture *f, gconstpointer data)
{
  SlDiskQueue *q = open_queue (f, 1 << 20, 0, NULL);
  append_range (q, 0, 10);
  read_range (q, 0, 4, TRUE);
  /* read but not acknowledged: replayed */
  read_range (q, 4, 2, FALSE);
  sl_disk_queue_close (q);

  SlDiskQueueReport report;
  q = open_queue (f, 1 << 20, 0, &report);
  g_assert_cmpuint (report.records, ==, 6);
  g_assert_cmpuint (report.cut_bytes, ==, 0);
  g_assert_false (report.head_lost);
  read_range (q, 4, 6, TRUE);
  assert_nothing_to_read (q);
  sl_disk_queue_close (q);
}

static void
test_torn_tail_is_cut (Fixture *f, gconstpointer data)
{
  SlDiskQueue *q = open_queue (f, 1 << 20, 0, NULL);
  append_range (q, 0, 5);
  sl_disk_queue_close (q);
  gchar *path = first_segment (f);
  GStatBuf st;
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  /* the last record lost its last three bytes */
  g_assert_cmpint (truncate (path, st.st_size - 3), ==, 0);

  SlDiskQueueReport report;
  q = open_queue (f, 1 << 20, 0, &report);
  g_assert_cmpuint (report.records, ==, 4);
  g_assert_cmpuint (report.cut_segments, ==, 1);
  g_assert_cmpuint (report.cut_bytes, ==, 8 + strlen ("record 4") - 3);
  read_range (q, 0, 4, TRUE);
  /* appending goes on after the cut */
  append_range (q, 4, 6);
  read_range (q, 4, 2, TRUE);
  sl_disk_queue_close (q);
  g_free (path);
}

static void
test_corrupt_record_is_cut (Fixture *f, gconstpointer data)
{
  SlDiskQueue *q = open_queue (f, 1 << 20, 0, NULL);
  append_range (q, 0, 5);
  sl_disk_queue_close (q);
  gchar *path = first_segment (f);
  gchar *bytes;
  gsize len;
  g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
  /* one bit of the third record's payload */
  gsize third = 32 + 2 * (8 + strlen ("record 0")) + 8;
  bytes[third] ^= 0x10;
  g_assert_true (g_file_set_contents (path, bytes, len, NULL));

  SlDiskQueueReport report;
  q = open_queue (f, 1 << 20, 0, &report);
  g_assert_cmpuint (report.records, ==, 2);
  g_assert_cmpuint (report.cut_segments, ==, 1);
  g_assert_cmpuint (report.cut_bytes, ==, 3 * (8 + strlen ("record 0")));
  read_range (q, 0, 2, TRUE);
  assert_nothing_to_read (q);
  sl_disk_queue_close (q);
  g_free (bytes);
  g_free (path);
}

static void
test_other_version_is_refused (Fixture *f, gconstpointer data)
{
  SlDiskQueue *q = open_queue (f, 1 << 20, 0, NULL);
  append_range (q, 0, 2);
  sl_disk_queue_close (q);
  gchar *path = first_segment (f);
  gchar *bytes;
  gsize len;
  g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
  bytes[8] = 2;
  g_assert_true (g_file_set_contents (path, bytes, len, NULL));

  SlDiskQueueLimits limits = { 1 << 20, 0, FALSE };
  GError *error = NULL;
  g_assert_null (sl_disk_queue_open (f->dir, "d_test", &limits, NULL, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, "version 2"));
  g_clear_error (&error);

  /* the file is left as it was */
  gchar *after;
  gsize after_len;
  g_assert_true (g_file_get_contents (path, &after, &after_len, NULL));
  g_assert_cmpmem (after, after_len, bytes, len);

  memcpy (bytes, "GARBAGE!", 8);
  g_assert_true (g_file_set_contents (path, bytes, len, NULL));
  g_assert_null (sl_disk_queue_open (f->dir, "d_test", &limits, NULL, &error));
  g_assert_nonnull (strstr (error->message, "not a sluice disk-buffer file"));
  g_clear_error (&error);
  g_free (after);
  g_free (bytes);
  g_free (path);
}

static void
test_lost_head_replays_from_the_oldest (Fixture *f, gconstpointer data)
{
  SlDiskQueue *q = open_queue (f, 1 << 20, 0, NULL);
  append_range (q, 0, 4);
  read_range (q, 0, 2, TRUE);
  sl_disk_queue_close (q);
  gchar *head = g_build_filename (f->dir, "d_test.dq-head", NULL);
  gchar *bytes;
  gsize len;
  g_assert_true (g_file_get_contents (head, &bytes, &len, NULL));
  bytes[20] ^= 1;
  g_assert_true (g_file_set_contents (head, bytes, len, NULL));

  SlDiskQueueReport report;
  q = open_queue (f, 1 << 20, 0, &report);
  g_assert_true (report.head_lost);
  read_range (q, 0, 4, TRUE);
  sl_disk_queue_close (q);
  g_free (bytes);
  g_free (head);
}

static void
test_space_is_reclaimed (Fixture *f, gconstpointer data)
{
  /* segments of 256 bytes hold 14 records of "record NN" */
  SlDiskQueue *q = open_queue (f, 1 << 20, 256, NULL);
  append_range (q, 0, 100);
  guint segments = count_files (f, ".dq");
  g_assert_cmpuint (segments, >, 5);
  read_range (q, 0, 50, TRUE);
  g_assert_cmpuint (count_files (f, ".dq"), <, segments);
  g_assert_cmpuint (count_files (f, ".dq"), >, 1);
  read_range (q, 50, 50, TRUE);
  g_assert_cmpuint (count_files (f, ".dq"), ==, 1);
  sl_disk_queue_close (q);

  SlDiskQueueReport report;
  q = open_queue (f, 1 << 20, 256, &report);
  g_assert_cmpuint (report.records, ==, 0);
  assert_nothing_to_read (q);
  sl_disk_queue_close (q);
}

static void
test_empty_queue_is_truncated (Fixture *f, gconstpointer data)
{
  SlDiskQueue *q = open_queue (f, 64 << 20, 0, NULL);
  static guint8 payload[64 * 1024];
  SlDiskPos end = { 0 };
  for (guint i = 0; i < 20; i++)
    g_assert_true (sl_disk_queue_append (q, payload, sizeof payload, &end));
  g_assert_true (sl_disk_queue_flush (q, NULL));
  sl_disk_queue_publish (q);
  gchar *path = first_segment (f);
  GStatBuf st;
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_size, >, 20 * sizeof payload);
  for (guint i = 0; i < 20; i++)
    {
      const guint8 *p;
      gsize len;
      guint64 skipped;
      g_assert_cmpint (sl_disk_queue_read (q, &p, &len, &end, &skipped), ==, SL_DISK_READ_RECORD);
    }
  sl_disk_queue_ack (q, end, 20, 20 * sizeof payload);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_size, <, 1024);
  append_range (q, 0, 3);
  read_range (q, 0, 3, TRUE);
  sl_disk_queue_close (q);
  g_free (path);
}

static void
test_full_buffer_has_no_room (Fixture *f, gconstpointer data)
{
  SlDiskQueue *q = open_queue (f, 100, 0, NULL);
  g_assert_true (sl_disk_queue_has_room (q, 80));
  g_assert_false (sl_disk_queue_has_room (q, 93));
  append_range (q, 0, 5);
  /* 5 records of 8 + 8 bytes */
  g_assert_true (sl_disk_queue_has_room (q, 12));
  g_assert_false (sl_disk_queue_has_room (q, 13));
  read_range (q, 0, 5, TRUE);
  g_assert_true (sl_disk_queue_has_room (q, 92));
  sl_disk_queue_close (q);
}

static void
test_second_opener_is_refused (Fixture *f, gconstpointer data)
{
  SlDiskQueue *q = open_queue (f, 1 << 20, 0, NULL);
  SlDiskQueueLimits limits = { 1 << 20, 0, FALSE };
  GError *error = NULL;
  g_assert_null (sl_disk_queue_open (f->dir, "d_test", &limits, NULL, &error));
  g_assert_nonnull (strstr (error->message, "in use"));
  g_clear_error (&error);
  sl_disk_queue_close (q);
}

static gboolean
collect_field (SlHandle h, const gchar *value, gsize len, gpointer data)
{
  g_string_append_printf (data, "%s=%.*s;", sl_field_name (h), (int) len, value);
  return TRUE;
}

static void
test_record_round_trip (void)
{
  const gchar *raw = "<13>Jan  1 00:00:00 host prog[1]: hello";
  SlMessage *msg = sl_message_new_with_extra (raw, strlen (raw), "10.0.0.1", 8, NULL);
  msg->pri = 13;
  msg->flags = SL_MSG_TRUNCATED;
  msg->stamp = (SlTime) { 1700000000123456, 3600 };
  msg->recvd = (SlTime) { 1700000001000000, -7200 };
  msg->seqnum = 42;
  sl_message_set_slice (msg, SL_F_HOST, msg->raw + 20, 4);
  sl_message_set_slice (msg, SL_F_SOURCEIP, msg->raw + msg->raw_len + 1, 8);
  sl_message_set (msg, SL_F_MESSAGE, "rewritten", -1);
  sl_message_set (msg, sl_field_handle ("json.a"), "1", -1);
  sl_message_set (msg, sl_field_handle (".SDATA.x@1.y"), "", 0);
  sl_message_set_tag (msg, "t1");
  sl_message_set_tag (msg, "t2");

  GByteArray *out = g_byte_array_new ();
  sl_disk_record_encode (msg, out);
  SlMessage *back = sl_disk_record_decode (out->data, out->len);
  g_assert_nonnull (back);
  g_assert_cmpmem (back->raw, back->raw_len, raw, strlen (raw));
  g_assert_cmpuint (back->pri, ==, 13);
  g_assert_cmpuint (back->flags, ==, SL_MSG_TRUNCATED);
  g_assert_cmpint (back->stamp.usec, ==, msg->stamp.usec);
  g_assert_cmpint (back->stamp.gmtoff, ==, 3600);
  g_assert_cmpint (back->recvd.usec, ==, msg->recvd.usec);
  g_assert_cmpint (back->recvd.gmtoff, ==, -7200);
  g_assert_cmpuint (back->seqnum, ==, 42);
  gsize len;
  const gchar *host = sl_message_get (back, SL_F_HOST, &len);
  g_assert_cmpmem (host, len, "host", 4);
  /* a slice stays a slice of the received bytes */
  g_assert_true (host == back->raw + 20);
  const gchar *ip = sl_message_get (back, SL_F_SOURCEIP, &len);
  g_assert_cmpmem (ip, len, "10.0.0.1", 8);
  const gchar *text = sl_message_get (back, SL_F_MESSAGE, &len);
  g_assert_cmpmem (text, len, "rewritten", 9);
  g_assert_false (sl_message_has (back, SL_F_PROGRAM));
  GString *fields = g_string_new (NULL);
  sl_message_foreach_dynamic (back, collect_field, fields);
  g_assert_cmpstr (fields->str, ==, "json.a=1;.SDATA.x@1.y=;");
  g_assert_true (sl_message_has_tag (back, "t1"));
  g_assert_true (sl_message_has_tag (back, "t2"));

  /* every shorter payload is malformed, never misread */
  for (guint cut = 0; cut < out->len; cut++)
    g_assert_null (sl_disk_record_decode (out->data, cut));
  g_string_free (fields, TRUE);
  g_byte_array_unref (out);
  sl_message_unref (back);
  sl_message_unref (msg);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/disk-queue/append-and-read", Fixture, NULL, setup, test_append_and_read_in_order, teardown);
  g_test_add ("/disk-queue/unpublished", Fixture, NULL, setup, test_unpublished_records_are_not_read, teardown);
  g_test_add ("/disk-queue/replay-after-reopen", Fixture, NULL, setup, test_replay_after_reopen_starts_at_head, teardown);
  g_test_add ("/disk-queue/torn-tail", Fixture, NULL, setup, test_torn_tail_is_cut, teardown);
  g_test_add ("/disk-queue/corrupt-record", Fixture, NULL, setup, test_corrupt_record_is_cut, teardown);
  g_test_add ("/disk-queue/other-version", Fixture, NULL, setup, test_other_version_is_refused, teardown);
  g_test_add ("/disk-queue/lost-head", Fixture, NULL, setup, test_lost_head_replays_from_the_oldest, teardown);
  g_test_add ("/disk-queue/space-reclaimed", Fixture, NULL, setup, test_space_is_reclaimed, teardown);
  g_test_add ("/disk-queue/truncated-when-empty", Fixture, NULL, setup, test_empty_queue_is_truncated, teardown);
  g_test_add ("/disk-queue/full", Fixture, NULL, setup, test_full_buffer_has_no_room, teardown);
  g_test_add ("/disk-queue/locked", Fixture, NULL, setup, test_second_opener_is_refused, teardown);
  g_test_add_func ("/disk-record/round-trip", test_record_round_trip);
  return g_test_run ();
}
