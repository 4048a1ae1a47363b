/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/route/suppress.h"

#include <string.h>
#include <unistd.h>

#define SEC ((gint64) G_USEC_PER_SEC)
/* a receive time well after the epoch, in whole seconds */
#define T0 (1700000000 * SEC)

static SlMessage *
message (const gchar *host, const gchar *program, const gchar *pid, const gchar *text, gint64 recvd)
{
  SlMessage *msg = sl_message_new (text, strlen (text));
  msg->pri = 30;
  msg->recvd.usec = recvd;
  msg->stamp = msg->recvd;
  sl_message_set (msg, SL_F_HOST, host, -1);
  if (program)
    sl_message_set (msg, SL_F_PROGRAM, program, -1);
  if (pid)
    sl_message_set (msg, SL_F_PID, pid, -1);
  sl_message_set (msg, SL_F_MESSAGE, text, -1);
  return msg;
}

/* Runs one message through; the items that came out, their count in *n. */
static SlQueueItem *
one (SlSuppress *s, SlMessage *msg, guint *n, gint64 now)
{
  SlQueueItem item = { msg, FALSE };
  *n = 1;
  return sl_suppress_filter (s, &item, n, now);
}

static const gchar *
text_of (const SlMessage *msg)
{
  gsize len;
  return sl_message_get (msg, SL_F_MESSAGE, &len);
}

static void
release (SlQueueItem *items, guint n)
{
  for (guint i = 0; i < n; i++)
    sl_message_unref (items[i].msg);
  g_free (items);
}

/* Sends msg and checks that it alone came out. */
static void
passes (SlSuppress *s, SlMessage *msg, gint64 now)
{
  guint n;
  SlQueueItem *out = one (s, msg, &n, now);
  g_assert_cmpuint (n, ==, 1);
  g_assert_true (out[0].msg == msg);
  release (out, n);
}

static void
held (SlSuppress *s, SlMessage *msg, gint64 now)
{
  guint n;
  SlQueueItem *out = one (s, msg, &n, now);
  g_assert_cmpuint (n, ==, 0);
  g_free (out);
}

static void
test_syslog_ng_repeats_then_different (void)
{
  SlCounter counter = { 0 };
  SlSuppress *s = sl_suppress_new (SL_SUPPRESS_SYSLOG_NG, 5, &counter);
  passes (s, message ("h", "app", "7", "disk is full on /var/spool", T0), 0);
  held (s, message ("h", "app", "7", "disk is full on /var/spool", T0 + 1 * SEC), 0);
  held (s, message ("h", "app", "7", "disk is full on /var/spool", T0 + 5 * SEC), 0);
  g_assert_cmpint (sl_counter_get (&counter), ==, 2);

  SlMessage *other = message ("h", "app", "7", "another", T0 + 5 * SEC);
  guint n;
  SlQueueItem *out = one (s, other, &n, 0);
  g_assert_cmpuint (n, ==, 2);
  g_assert_false (out[0].flow_controlled);
  g_assert_true (out[1].msg == other);
  SlMessage *summary = out[0].msg;
  g_assert_true (g_str_has_prefix (text_of (summary),
                                   "Last message 'disk is full on /var' repeated 2 times, suppressed by syslog-ng on "));
  gsize len;
  g_assert_cmpstr (sl_message_get (summary, SL_F_HOST, &len), ==, "h");
  g_assert_cmpstr (sl_message_get (summary, SL_F_PROGRAM, &len), ==, "app");
  gchar *pid = g_strdup_printf ("%d", (int) getpid ());
  g_assert_cmpstr (sl_message_get (summary, SL_F_PID, &len), ==, pid);
  g_free (pid);
  g_assert_cmpuint (summary->pri, ==, 30);
  g_assert_true (summary->flags & SL_MSG_LOCAL);
  release (out, n);
  sl_suppress_free (s);
}

/* The window runs from the message written, not from the last repeat: a
 * repeat received more than suppress() seconds after it is written, after
 * the summary of those before it. */
static void
test_syslog_ng_window_from_first (void)
{
  SlSuppress *s = sl_suppress_new (SL_SUPPRESS_SYSLOG_NG, 5, NULL);
  passes (s, message ("h", "app", NULL, "x", T0), 0);
  held (s, message ("h", "app", NULL, "x", T0 + 4 * SEC), 0);
  SlMessage *late = message ("h", "app", NULL, "x", T0 + 6 * SEC);
  guint n;
  SlQueueItem *out = one (s, late, &n, 0);
  g_assert_cmpuint (n, ==, 2);
  g_assert_true (g_str_has_prefix (text_of (out[0].msg), "Last message 'x' repeated 1 times,"));
  g_assert_true (out[1].msg == late);
  release (out, n);
  /* the late one is the new message to compare with */
  held (s, message ("h", "app", NULL, "x", T0 + 7 * SEC), 0);
  sl_suppress_free (s);
}

static void
test_fields_compared (void)
{
  SlSuppress *s = sl_suppress_new (SL_SUPPRESS_SYSLOG_NG, 60, NULL);
  passes (s, message ("h", "app", "1", "x", T0), 0);
  passes (s, message ("h2", "app", "1", "x", T0), 0);
  passes (s, message ("h2", "app2", "1", "x", T0), 0);
  passes (s, message ("h2", "app2", "2", "x", T0), 0);
  passes (s, message ("h2", "app2", NULL, "x", T0), 0);
  held (s, message ("h2", "app2", "", "x", T0), 0);
  sl_suppress_free (s);
}

/* syslog-ng compares a text with "-- MARK --" over the text's length: the
 * empty text and every start of the mark line are never held back. */
static void
test_marks_never_held (void)
{
  SlSuppress *s = sl_suppress_new (SL_SUPPRESS_SYSLOG_NG, 60, NULL);
  const gchar *texts[] = { "-- MARK --", "", "-- MA" };
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      passes (s, message ("h", "app", NULL, texts[i], T0), 0);
      passes (s, message ("h", "app", NULL, texts[i], T0), 0);
    }
  passes (s, message ("h", "app", NULL, "-- MARK --!", T0), 0);
  held (s, message ("h", "app", NULL, "-- MARK --!", T0), 0);
  sl_suppress_free (s);
}

/* The run is summed up once its time is up, counted from the whole second
 * of the first repeat; the next repeat is then written again. */
static void
test_syslog_ng_expires (void)
{
  SlSuppress *s = sl_suppress_new (SL_SUPPRESS_SYSLOG_NG, 3, NULL);
  gint64 now = 100 * SEC + SEC / 2;
  g_assert_null (sl_suppress_expire (s, now, FALSE));
  passes (s, message ("h", "app", NULL, "x", T0), now);
  g_assert_null (sl_suppress_expire (s, now + 10 * SEC, FALSE));
  held (s, message ("h", "app", NULL, "x", T0), now);
  held (s, message ("h", "app", NULL, "x", T0 + SEC), now + SEC);
  g_assert_null (sl_suppress_expire (s, 103 * SEC - 1, FALSE));
  g_assert_null (sl_suppress_expire (s, 103 * SEC, TRUE));
  SlMessage *summary = sl_suppress_expire (s, 103 * SEC, FALSE);
  g_assert_nonnull (summary);
  g_assert_true (g_str_has_prefix (text_of (summary), "Last message 'x' repeated 2 times,"));
  sl_message_unref (summary);
  g_assert_null (sl_suppress_expire (s, 110 * SEC, FALSE));
  passes (s, message ("h", "app", NULL, "x", T0 + 2 * SEC), 110 * SEC);
  sl_suppress_free (s);
}

/* A batch: repeats taken out, a summary put before the message that ends
 * their run, flow-controlled repeats acknowledged. */
static void
test_batch (void)
{
  SlSuppress *s = sl_suppress_new (SL_SUPPRESS_SYSLOG_NG, 10, NULL);
  SlQueueItem in[5] = {
    { message ("h", "a", NULL, "x", T0), TRUE },
    { message ("h", "a", NULL, "x", T0), TRUE },
    { message ("h", "a", NULL, "x", T0), FALSE },
    { message ("h", "a", NULL, "y", T0), TRUE },
    { message ("h", "a", NULL, "y", T0), FALSE },
  };
  SlMessage *first = in[0].msg, *y = in[3].msg;
  guint n = 5;
  SlQueueItem *out = sl_suppress_filter (s, in, &n, 0);
  g_assert_cmpuint (n, ==, 3);
  g_assert_true (out[0].msg == first && out[0].flow_controlled);
  g_assert_true (g_str_has_prefix (text_of (out[1].msg), "Last message 'x' repeated 2 times,"));
  g_assert_false (out[1].flow_controlled);
  g_assert_true (out[2].msg == y && out[2].flow_controlled);
  release (out, n);
  sl_suppress_free (s);
}

static void
test_rsyslog_style (void)
{
  SlSuppress *s = sl_suppress_new (SL_SUPPRESS_RSYSLOG, 0, NULL);
  passes (s, message ("h", "sshd", "9", "Failed password", T0), 0);
  /* no time bound */
  held (s, message ("h", "sshd", "9", "Failed password", T0 + 3600 * SEC), 0);
  SlMessage *other = message ("h", "sshd", "9", "Accepted", T0 + 3601 * SEC);
  guint n;
  SlQueueItem *out = one (s, other, &n, 0);
  g_assert_cmpuint (n, ==, 2);
  /* after one repeat, the repeat itself */
  g_assert_cmpstr (text_of (out[0].msg), ==, "Failed password");
  g_assert_cmpint (out[0].msg->recvd.usec, ==, T0 + 3600 * SEC);
  release (out, n);

  held (s, message ("h", "sshd", "9", "Accepted", T0 + 3602 * SEC), 0);
  SlMessage *last = message ("h", "sshd", "9", "Accepted", T0 + 3603 * SEC);
  held (s, sl_message_ref (last), 0);
  g_assert_null (sl_suppress_expire (s, G_MAXINT64, FALSE));
  SlMessage *summary = sl_suppress_expire (s, 0, TRUE);
  gsize len;
  g_assert_cmpstr (text_of (summary), ==, "message repeated 2 times: [ Accepted]");
  g_assert_cmpstr (sl_message_get (summary, SL_F_PID, &len), ==, "9");
  g_assert_cmpint (summary->recvd.usec, ==, last->recvd.usec);
  sl_message_unref (summary);
  sl_message_unref (last);
  g_assert_null (sl_suppress_expire (s, 0, TRUE));
  sl_suppress_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/suppress/syslog-ng/repeats-then-different", test_syslog_ng_repeats_then_different);
  g_test_add_func ("/suppress/syslog-ng/window-from-first", test_syslog_ng_window_from_first);
  g_test_add_func ("/suppress/syslog-ng/fields-compared", test_fields_compared);
  g_test_add_func ("/suppress/syslog-ng/marks-never-held", test_marks_never_held);
  g_test_add_func ("/suppress/syslog-ng/expires", test_syslog_ng_expires);
  g_test_add_func ("/suppress/syslog-ng/batch", test_batch);
  g_test_add_func ("/suppress/rsyslog", test_rsyslog_style);
  return g_test_run ();
}
