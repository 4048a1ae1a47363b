/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluice-gen verify: what it counts as received, missing, duplicated and
 * reordered, and which lines it refuses to read a mark from. */
#include "tools/gen/verify.h"

#include <string.h>

static void
feed (SlGenVerify *v, guint conn, const guint *seqs, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree gchar *line = g_strdup_printf ("Nov 14 22:13:20 host prog[1]: seq=%04u:%010u xxxx", conn, seqs[i]);
      g_assert_true (sl_gen_verify_line (v, line, strlen (line)));
    }
}

static SlGenConnReport
report_of (SlGenVerify *v, guint64 conn, SlGenTotals *totals)
{
  GArray *conns = sl_gen_verify_report (v, totals);
  SlGenConnReport found = { 0 };
  gboolean seen = FALSE;
  for (guint i = 0; i < conns->len; i++)
    if (g_array_index (conns, SlGenConnReport, i).conn == conn)
      {
        found = g_array_index (conns, SlGenConnReport, i);
        seen = TRUE;
      }
  g_assert_true (seen);
  g_array_unref (conns);
  return found;
}

static void
test_complete (void)
{
  SlGenVerify *v = sl_gen_verify_new ();
  sl_gen_verify_expect_each (v, 5);
  feed (v, 1, (const guint[]) { 1, 2, 3, 4, 5 }, 5);
  SlGenTotals totals;
  SlGenConnReport r = report_of (v, 1, &totals);
  g_assert_cmpuint (r.received, ==, 5);
  g_assert_cmpuint (r.missing, ==, 0);
  g_assert_cmpuint (r.duplicated, ==, 0);
  g_assert_cmpuint (r.reordered, ==, 0);
  g_assert_cmpuint (totals.missing, ==, 0);
  g_autofree gchar *ranges = sl_gen_verify_missing_ranges (v, 1, 5);
  g_assert_cmpstr (ranges, ==, "");
  sl_gen_verify_free (v);
}

static void
test_gaps (void)
{
  SlGenVerify *v = sl_gen_verify_new ();
  feed (v, 1, (const guint[]) { 1, 2, 3, 6, 7, 9, 10 }, 7);
  SlGenTotals totals;
  SlGenConnReport r = report_of (v, 1, &totals);
  g_assert_cmpuint (r.received, ==, 7);
  g_assert_cmpuint (r.expected, ==, 10);
  g_assert_cmpuint (r.missing, ==, 3);
  g_autofree gchar *ranges = sl_gen_verify_missing_ranges (v, 1, 5);
  g_assert_cmpstr (ranges, ==, "4-5, 8");
  g_autofree gchar *first = sl_gen_verify_missing_ranges (v, 1, 1);
  g_assert_cmpstr (first, ==, "4-5, ...");
  sl_gen_verify_free (v);
}

/* Missing numbers on both sides of whole 64-number words that arrived. */
static void
test_gaps_across_words (void)
{
  SlGenVerify *v = sl_gen_verify_new ();
  for (guint n = 1; n <= 1000; n++)
    if (n != 63 && n != 64 && n != 700 && n != 1000)
      feed (v, 2, &n, 1);
  sl_gen_verify_expect_each (v, 1002);
  SlGenTotals totals;
  SlGenConnReport r = report_of (v, 2, &totals);
  g_assert_cmpuint (r.missing, ==, 6);
  g_autofree gchar *ranges = sl_gen_verify_missing_ranges (v, 2, 10);
  g_assert_cmpstr (ranges, ==, "63-64, 700, 1000-1002");
  sl_gen_verify_free (v);
}

static void
test_duplicates_and_order (void)
{
  SlGenVerify *v = sl_gen_verify_new ();
  sl_gen_verify_begin_file (v);
  feed (v, 1, (const guint[]) { 1, 3, 2, 3, 4, 4, 5 }, 7);
  SlGenTotals totals;
  SlGenConnReport r = report_of (v, 1, &totals);
  g_assert_cmpuint (r.received, ==, 7);
  g_assert_cmpuint (r.distinct, ==, 5);
  g_assert_cmpuint (r.duplicated, ==, 2);
  g_assert_cmpuint (r.reordered, ==, 1);
  g_assert_cmpuint (r.missing, ==, 0);

  /* order is judged within a file: a second file starting lower is fine */
  sl_gen_verify_begin_file (v);
  feed (v, 1, (const guint[]) { 6, 7, 8 }, 3);
  sl_gen_verify_begin_file (v);
  feed (v, 1, (const guint[]) { 9, 11, 10 }, 3);
  r = report_of (v, 1, &totals);
  g_assert_cmpuint (r.reordered, ==, 2);
  g_assert_cmpuint (r.missing, ==, 0);
  sl_gen_verify_free (v);
}

static void
test_connections (void)
{
  SlGenVerify *v = sl_gen_verify_new ();
  sl_gen_verify_expect_connections (v, 1, 3);
  sl_gen_verify_expect_each (v, 4);
  feed (v, 1, (const guint[]) { 1, 2, 3, 4 }, 4);
  feed (v, 3, (const guint[]) { 1, 2 }, 2);
  SlGenTotals totals;
  SlGenConnReport none = report_of (v, 2, &totals);
  g_assert_cmpuint (none.received, ==, 0);
  g_assert_cmpuint (none.missing, ==, 4);
  g_autofree gchar *all = sl_gen_verify_missing_ranges (v, 2, 5);
  g_assert_cmpstr (all, ==, "1-4");
  SlGenConnReport tail = report_of (v, 3, &totals);
  g_assert_cmpuint (tail.missing, ==, 2);
  g_autofree gchar *end = sl_gen_verify_missing_ranges (v, 3, 5);
  g_assert_cmpstr (end, ==, "3-4");
  g_assert_cmpuint (totals.expected, ==, 12);
  g_assert_cmpuint (totals.missing, ==, 6);
  sl_gen_verify_free (v);
}

/* With only the sender's total, what arrived after the last gap-free
 * number of each connection cannot be placed, but is still missing. */
static void
test_expect_total (void)
{
  SlGenVerify *v = sl_gen_verify_new ();
  sl_gen_verify_expect_total (v, 10);
  feed (v, 1, (const guint[]) { 1, 2, 3 }, 3);
  feed (v, 2, (const guint[]) { 1, 3, 4 }, 3);
  SlGenTotals totals;
  report_of (v, 2, &totals);
  g_assert_cmpuint (totals.distinct, ==, 6);
  g_assert_cmpuint (totals.expected, ==, 10);
  g_assert_cmpuint (totals.missing, ==, 4);
  sl_gen_verify_free (v);

  /* more arrived than the total says: nothing missing, none invented */
  v = sl_gen_verify_new ();
  sl_gen_verify_expect_total (v, 2);
  feed (v, 1, (const guint[]) { 1, 2, 3 }, 3);
  report_of (v, 1, &totals);
  g_assert_cmpuint (totals.expected, ==, 3);
  g_assert_cmpuint (totals.missing, ==, 0);
  sl_gen_verify_free (v);
}

static void
test_marks (void)
{
  static const gchar *const unmarked[] = {
    "",
    "no mark here",
    "seq=",
    "seq=12",
    "seq=12:",
    "seq=:5",
    "seq=1:0",                      /* numbers start at 1 */
    "seq=1:99999999999999999999",   /* beyond what is tracked */
    "seq=1:4294967297",
  };
  SlGenVerify *v = sl_gen_verify_new ();
  for (guint i = 0; i < G_N_ELEMENTS (unmarked); i++)
    g_assert_false (sl_gen_verify_line (v, unmarked[i], strlen (unmarked[i])));

  /* the first usable mark counts, wherever it is in the line */
  const gchar *late = "2023-11-14T22:13:20+00:00 h p: xseq=x seq=7:3 seq=8:1";
  g_assert_true (sl_gen_verify_line (v, late, strlen (late)));
  /* the line's length bounds the search, not a terminating zero */
  const gchar *cut = "seq=5:1234";
  g_assert_true (sl_gen_verify_line (v, cut, 8));
  const gchar *cut_mark = "seq=5:1";
  g_assert_false (sl_gen_verify_line (v, cut_mark, 6));

  SlGenTotals totals;
  SlGenConnReport r = report_of (v, 7, &totals);
  g_assert_cmpuint (r.received, ==, 1);
  g_assert_cmpuint (r.highest, ==, 3);
  r = report_of (v, 5, &totals);
  g_assert_cmpuint (r.highest, ==, 12);
  g_assert_cmpuint (totals.lines, ==, G_N_ELEMENTS (unmarked) + 3);
  g_assert_cmpuint (totals.unmarked, ==, G_N_ELEMENTS (unmarked) + 1);
  sl_gen_verify_free (v);
}

static void
test_text (void)
{
  const gchar text[] = "a seq=1:1\r\nb seq=1:2\n\nno mark\nlast seq=1:3";
  SlGenVerify *v = sl_gen_verify_new ();
  sl_gen_verify_text (v, text, strlen (text));
  SlGenTotals totals;
  SlGenConnReport r = report_of (v, 1, &totals);
  g_assert_cmpuint (r.received, ==, 3);
  g_assert_cmpuint (r.missing, ==, 0);
  g_assert_cmpuint (totals.lines, ==, 5);
  g_assert_cmpuint (totals.unmarked, ==, 2);
  sl_gen_verify_free (v);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gen-verify/complete", test_complete);
  g_test_add_func ("/gen-verify/gaps", test_gaps);
  g_test_add_func ("/gen-verify/gaps-across-words", test_gaps_across_words);
  g_test_add_func ("/gen-verify/duplicates-and-order", test_duplicates_and_order);
  g_test_add_func ("/gen-verify/connections", test_connections);
  g_test_add_func ("/gen-verify/expect-total", test_expect_total);
  g_test_add_func ("/gen-verify/marks", test_marks);
  g_test_add_func ("/gen-verify/text", test_text);
  return g_test_run ();
}
