/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/route/disk-buffer.h"

#include <glib/gstdio.h>
#include <string.h>

typedef struct
{
  gchar *dir;
  SlQueue *front;
  SlCounter *queued, *dropped, *length, *bytes;
} Fixture;

static void
setup (Fixture *f, gconstpointer data)
{
  f->dir = g_dir_make_tmp ("sluice-db-XXXXXX", NULL);
  f->queued = sl_stats_counter ("destination", f->dir, "test", "queued");
  f->dropped = sl_stats_counter ("destination", f->dir, "test", "dropped");
  f->length = sl_stats_counter ("destination", f->dir, "test", "disk_queue_length");
  f->bytes = sl_stats_counter ("destination", f->dir, "test", "disk_queue_bytes");
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

static SlDiskBuffer *
start (Fixture *f, gboolean reliable, gint64 size)
{
  SlDiskBufferOptions o = { .reliable = reliable, .disk_buf_size = size, .mem_buf_size = 1 << 20,
                            .mem_buf_length = 10, .qout_size = 0 };
  SlDiskBufferCounters c = { f->queued, f->dropped, f->length, f->bytes };
  SlDiskBuffer *db = sl_disk_buffer_new (&o, f->dir, "d_test", "d_test#0", &c);
  f->front = sl_queue_new (1000000);
  GError *error = NULL;
  g_assert_true (sl_disk_buffer_start (db, f->front, &error));
  g_assert_no_error (error);
  return db;
}

static guint64
stop (Fixture *f, SlDiskBuffer *db)
{
  sl_queue_close (f->front);
  sl_disk_buffer_wake (db);
  guint64 left = sl_disk_buffer_stop (db);
  sl_disk_buffer_free (db);
  sl_queue_free (f->front);
  return left;
}

static void
push (Fixture *f, guint from, guint to)
{
  for (guint i = from; i < to; i++)
    {
      gchar *text = g_strdup_printf ("message %u", i);
      SlQueueItem item = { sl_message_new (text, strlen (text)), FALSE };
      sl_counter_add (f->queued, 1);
      sl_queue_push (f->front, &item, 1);
      g_free (text);
    }
}

/* Pops n messages (waiting for the spooler), checks their order; settles
 * them when done, else puts them back. */
static void
expect (SlDiskBuffer *db, guint from, guint n, gboolean done)
{
  SlQueueItem items[64];
  guint64 seqs[64];
  guint got = 0;
  while (got < n)
    {
      guint k = sl_disk_buffer_pop (db, items + got, seqs + got, n - got, g_get_monotonic_time () + 10 * G_USEC_PER_SEC);
      g_assert_cmpuint (k, >, 0);
      got += k;
    }
  for (guint i = 0; i < n; i++)
    {
      gchar *text = g_strdup_printf ("message %u", from + i);
      g_assert_cmpmem (items[i].msg->raw, items[i].msg->raw_len, text, strlen (text));
      g_free (text);
    }
  if (done)
    sl_disk_buffer_done (db, items, seqs, n);
  else
    sl_disk_buffer_unpop (db, items, seqs, n);
}

static void
test_reliable_survives_a_restart (Fixture *f, gconstpointer data)
{
  SlDiskBuffer *db = start (f, TRUE, 1 << 20);
  push (f, 0, 30);
  expect (db, 0, 10, TRUE);
  /* tried and put back: still queued */
  expect (db, 10, 5, FALSE);
  g_assert_cmpuint (stop (f, db), ==, 20);
  g_assert_cmpint (sl_counter_get (f->queued), ==, 0);

  db = start (f, TRUE, 1 << 20);
  g_assert_cmpint (sl_counter_get (f->length), ==, 20);
  push (f, 30, 35);
  expect (db, 10, 25, TRUE);
  g_assert_cmpuint (stop (f, db), ==, 0);
  g_assert_cmpint (sl_counter_get (f->length), ==, 0);
  g_assert_cmpint (sl_counter_get (f->bytes), ==, 0);
}

static void
test_unreliable_saves_memory_at_stop (Fixture *f, gconstpointer data)
{
  /* 10 in memory, the rest spills to disk; nothing is taken before the
   * buffer holds all 25, because memory freed by a take while the spooler
   * still works would hold newer messages than the disk (documented: at
   * a stop those would be saved after the disk's) */
  SlDiskBuffer *db = start (f, FALSE, 1 << 20);
  push (f, 0, 25);
  for (guint i = 0; i < 10000 && sl_counter_get (f->length) < 25; i++)
    g_usleep (1000);
  g_assert_cmpint (sl_counter_get (f->length), ==, 25);
  expect (db, 0, 5, TRUE);
  expect (db, 5, 10, TRUE);
  g_assert_cmpuint (stop (f, db), ==, 10);

  db = start (f, FALSE, 1 << 20);
  expect (db, 15, 10, TRUE);
  g_assert_cmpuint (stop (f, db), ==, 0);
}

static void
test_full_buffer_drops_without_flow_control (Fixture *f, gconstpointer data)
{
  /* room for about 20 records of "message NN" */
  SlDiskBuffer *db = start (f, TRUE, 20 * (8 + 48 + 10));
  push (f, 0, 50);
  g_assert_cmpuint (stop (f, db), <, 21);
  g_assert_cmpint (sl_counter_get (f->dropped), >, 29);
  g_assert_cmpint (sl_counter_get (f->dropped) + sl_counter_get (f->length), ==, 50);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/disk-buffer/reliable-restart", Fixture, NULL, setup, test_reliable_survives_a_restart, teardown);
  g_test_add ("/disk-buffer/unreliable-stop", Fixture, NULL, setup, test_unreliable_saves_memory_at_stop, teardown);
  g_test_add ("/disk-buffer/full", Fixture, NULL, setup, test_full_buffer_drops_without_flow_control, teardown);
  return g_test_run ();
}
