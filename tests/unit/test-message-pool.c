/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/message/message-pool.h"
#include "core/message/message.h"

#include <string.h>

/* AddressSanitizer builds give every message its own allocation. */
#if defined(__SANITIZE_ADDRESS__)
#define POOLED FALSE
#else
#define POOLED TRUE
#endif
#define SKIP_WITHOUT_POOL() \
  do { if (!POOLED) { g_test_skip ("no pooling under AddressSanitizer"); return; } } while (0)

static void
test_sizes_choose_classes (void)
{
  SKIP_WITHOUT_POOL ();
  guint8 c;
  gpointer small = sl_message_pool_alloc (100, &c);
  g_assert_cmpuint (sl_message_pool_block_size (c), ==, 256);
  sl_message_pool_free (small, c);
  /* every size up to the largest class gets a block at most an eighth larger */
  for (gsize size = 257; size <= 8192; size += 7)
    {
      gpointer b = sl_message_pool_alloc (size, &c);
      g_assert_cmpuint (c, >, 0);
      gsize block = sl_message_pool_block_size (c);
      g_assert_cmpuint (block, >=, size);
      g_assert_cmpuint (block * 8, <=, size * 9 + 8 * 32);
      memset (b, 0xab, size);
      sl_message_pool_free (b, c);
    }
  gpointer medium = sl_message_pool_alloc (1500, &c);
  g_assert_cmpuint (sl_message_pool_block_size (c), ==, 1536);
  sl_message_pool_free (medium, c);
  gpointer edge = sl_message_pool_alloc (8192, &c);
  g_assert_cmpuint (sl_message_pool_block_size (c), ==, 8192);
  sl_message_pool_free (edge, c);
  gpointer large = sl_message_pool_alloc (100000, &c);
  g_assert_cmpuint (c, ==, 0);
  memset (large, 0xab, 100000);
  sl_message_pool_free (large, c);
}

static void
test_freed_blocks_are_reused (void)
{
  SKIP_WITHOUT_POOL ();
  guint8 c;
  gpointer a = sl_message_pool_alloc (200, &c);
  sl_message_pool_free (a, c);
  gpointer b = sl_message_pool_alloc (250, &c);
  g_assert_true (a == b);
  sl_message_pool_free (b, c);
}

#define PER_THREAD 20000

static gpointer
free_all (gpointer data)
{
  GPtrArray *msgs = data;
  for (guint i = 0; i < msgs->len; i++)
    sl_message_unref (g_ptr_array_index (msgs, i));
  return NULL;
}

/* The real pattern: one thread makes messages, another frees them; the
 * contents stay intact and the blocks come back through the depot. */
static void
test_messages_cross_threads (void)
{
  SlMessage *probe = sl_message_new ("message 00000", 13);
  guint8 pool = probe->pool_class;
  sl_message_unref (probe);
  for (guint round = 0; round < 4; round++)
    {
      guint depot_before = POOLED ? sl_message_pool_depot_magazines (pool) : 0;
      GPtrArray *msgs = g_ptr_array_new ();
      for (guint i = 0; i < PER_THREAD; i++)
        {
          gchar text[32];
          gint len = g_snprintf (text, sizeof text, "message %05u", i);
          SlMessage *m = sl_message_new (text, len);
          g_assert_cmpuint (m->ref_count, ==, 1);
          g_assert_cmpuint (m->pool_class, ==, pool);
          g_assert_cmpuint (m->n_fields, ==, 0);
          g_assert_cmpstr (m->raw, ==, text);
          g_ptr_array_add (msgs, m);
        }
      for (guint i = 0; i < PER_THREAD; i += 997)
        {
          gchar text[32];
          g_snprintf (text, sizeof text, "message %05u", i);
          g_assert_cmpstr (((SlMessage *) g_ptr_array_index (msgs, i))->raw, ==, text);
        }
      /* from the second round on, the reader takes its blocks from the
       * magazines the freeing thread left in the depot */
      if (POOLED && round)
        g_assert_cmpuint (sl_message_pool_depot_magazines (pool), <, depot_before);
      GThread *t = g_thread_new ("free", free_all, msgs);
      g_thread_join (t);
      g_ptr_array_unref (msgs);
      if (POOLED)
        g_assert_cmpuint (sl_message_pool_depot_magazines (pool), >, 0);
    }
}

/* After the burst of the test above, a depot left alone for two periods
 * keeps only its reserve. */
static void
test_idle_depot_is_trimmed (void)
{
  SKIP_WITHOUT_POOL ();
  SlMessage *probe = sl_message_new ("message 00000", 13);
  guint8 pool = probe->pool_class;
  sl_message_unref (probe);
  test_messages_cross_threads ();
  g_assert_cmpuint (sl_message_pool_depot_magazines (pool), >, 1);
  sl_message_pool_trim ();
  g_assert_cmpuint (sl_message_pool_trim (), >, 0);
  g_assert_cmpuint (sl_message_pool_depot_magazines (pool), ==, 1);
  g_assert_cmpuint (sl_message_pool_trim (), ==, 0);
  /* what was trimmed is allocated anew */
  SlMessage *m = sl_message_new ("after", 5);
  g_assert_cmpstr (m->raw, ==, "after");
  sl_message_unref (m);
}

static void
test_extra_is_terminated (void)
{
  const gchar *peer = NULL;
  /* a reused block holds old bytes: both NULs must be written anew */
  guint8 c;
  gpointer dirty = sl_message_pool_alloc (400, &c);
  memset (dirty, 'x', 400);
  sl_message_pool_free (dirty, c);
  SlMessage *m = sl_message_new_with_extra ("abc", 3, "10.0.0.1", 8, &peer);
  g_assert_cmpstr (m->raw, ==, "abc");
  g_assert_cmpstr (peer, ==, "10.0.0.1");
  g_assert_cmpint (m->flags, ==, 0);
  g_assert_cmpuint (m->tags, ==, 0);
  g_assert_null (m->more_tags);
  sl_message_unref (m);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/message-pool/classes", test_sizes_choose_classes);
  g_test_add_func ("/message-pool/reuse", test_freed_blocks_are_reused);
  g_test_add_func ("/message-pool/cross-threads", test_messages_cross_threads);
  g_test_add_func ("/message-pool/idle-trim", test_idle_depot_is_trimmed);
  g_test_add_func ("/message-pool/extra-terminated", test_extra_is_terminated);
  return g_test_run ();
}
