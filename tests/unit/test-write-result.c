/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sl_write_batch_fail(): the reason a destination gives for what it did
 * not write, which the core logs as a failure begins. */
#include "core/plugin/write-result.h"

#include <errno.h>
#include <string.h>

static void
test_reason_and_result (void)
{
  SlWriteBatch batch = { 0 };
  g_assert_cmpint (sl_write_batch_fail (&batch, SL_WRITE_NOT_CONNECTED, 0, "server answered %d", 503), ==,
                   SL_WRITE_NOT_CONNECTED);
  g_assert_cmpstr (batch.reason, ==, "server answered 503");
  g_assert_cmpint (batch.error, ==, 0);
}

static void
test_errno_is_added (void)
{
  SlWriteBatch batch = { 0 };
  g_assert_cmpint (sl_write_batch_fail (&batch, SL_WRITE_RETRY, ECONNREFUSED, "cannot connect to %s", "10.0.0.1:5672"),
                   ==, SL_WRITE_RETRY);
  g_autofree gchar *expected = g_strdup_printf ("cannot connect to 10.0.0.1:5672: %s", g_strerror (ECONNREFUSED));
  g_assert_cmpstr (batch.reason, ==, expected);
  g_assert_cmpint (batch.error, ==, ECONNREFUSED);

  sl_write_batch_fail (&batch, SL_WRITE_RETRY, ENOSPC, "%s", "");
  g_assert_cmpstr (batch.reason, ==, g_strerror (ENOSPC));
}

/* A later failure of the same write replaces the reason. */
static void
test_last_reason_wins (void)
{
  SlWriteBatch batch = { 0 };
  sl_write_batch_fail (&batch, SL_WRITE_RETRY, EPIPE, "first");
  sl_write_batch_fail (&batch, SL_WRITE_ERROR, 0, "second");
  g_assert_cmpstr (batch.reason, ==, "second");
  g_assert_cmpint (batch.error, ==, 0);
}

static void
test_long_reason_is_cut (void)
{
  SlWriteBatch batch = { 0 };
  g_autofree gchar *long_text = g_strnfill (2 * SL_WRITE_REASON_MAX, 'x');
  sl_write_batch_fail (&batch, SL_WRITE_RETRY, EIO, "%s", long_text);
  g_assert_cmpuint (strlen (batch.reason), ==, SL_WRITE_REASON_MAX - 1);
  g_assert_true (g_str_has_prefix (batch.reason, "xxxx"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/write-result/reason-and-result", test_reason_and_result);
  g_test_add_func ("/write-result/errno-is-added", test_errno_is_added);
  g_test_add_func ("/write-result/last-reason-wins", test_last_reason_wins);
  g_test_add_func ("/write-result/long-reason-is-cut", test_long_reason_is_cut);
  return g_test_run ();
}
