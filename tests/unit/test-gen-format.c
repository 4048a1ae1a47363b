/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluice-gen's frames: sizes, framing, where the sequence number and the
 * timestamp sit, and rewriting them in place. */
#include "tools/gen/format.h"
#include "tools/gen/verify.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* 2023-11-14 22:13:20 UTC, and 2023-11-04 00:00:00 UTC */
#define NOV_14 G_GINT64_CONSTANT (1700000000)
#define NOV_4 G_GINT64_CONSTANT (1699056000)

static void
set_zone (const gchar *tz)
{
  g_setenv ("TZ", tz, TRUE);
  tzset ();
}

static gchar *
frame_text (const gchar *frames, const SlGenLayout *layout, guint i)
{
  return g_strndup (frames + (gsize) i * layout->frame_len, layout->frame_len);
}

static void
test_stamps (void)
{
  set_zone ("UTC");
  g_autofree gchar *bsd = sl_gen_format_stamp (SL_GEN_RFC3164, NOV_14 * G_USEC_PER_SEC);
  g_assert_cmpstr (bsd, ==, "Nov 14 22:13:20");
  /* a one-digit day keeps the width */
  g_autofree gchar *padded = sl_gen_format_stamp (SL_GEN_RFC3164, NOV_4 * G_USEC_PER_SEC + 999999);
  g_assert_cmpstr (padded, ==, "Nov  4 00:00:00");
  g_autofree gchar *iso = sl_gen_format_stamp (SL_GEN_RFC5424, NOV_14 * G_USEC_PER_SEC + 123);
  g_assert_cmpstr (iso, ==, "2023-11-14T22:13:20.000123+00:00");

  /* POSIX zones: "XYZ-02:30" is 2 h 30 east of UTC */
  set_zone ("XYZ-02:30");
  g_autofree gchar *east = sl_gen_format_stamp (SL_GEN_RFC5424, NOV_14 * G_USEC_PER_SEC + 500000);
  g_assert_cmpstr (east, ==, "2023-11-15T00:43:20.500000+02:30");
  set_zone ("XYZ+05");
  g_autofree gchar *west = sl_gen_format_stamp (SL_GEN_RFC5424, NOV_14 * G_USEC_PER_SEC);
  g_assert_cmpstr (west, ==, "2023-11-14T17:13:20.000000-05:00");
  g_autofree gchar *west_bsd = sl_gen_format_stamp (SL_GEN_RFC3164, NOV_14 * G_USEC_PER_SEC);
  g_assert_cmpstr (west_bsd, ==, "Nov 14 17:13:20");
  set_zone ("UTC");
}

static void
test_rfc3164_newline (void)
{
  set_zone ("UTC");
  SlGenFormat format = {
    .syntax = SL_GEN_RFC3164, .framing = SL_GEN_FRAMING_NEWLINE,
    .host = "genhost", .program = "genprog", .pid = 42, .size = 150,
  };
  SlGenLayout layout;
  g_autofree gchar *frames = sl_gen_frames_new (&format, 3, 4, NOV_14 * G_USEC_PER_SEC, &layout);
  g_assert_cmpuint (layout.message_len, ==, 150);
  g_assert_cmpuint (layout.frame_len, ==, 151);
  sl_gen_frames_set_seq (frames, &layout, 4, 7);

  const gchar *header = "<13>Nov 14 22:13:20 genhost genprog[42]: ";
  for (guint i = 0; i < 4; i++)
    {
      g_autofree gchar *frame = frame_text (frames, &layout, i);
      g_autofree gchar *start = g_strdup_printf ("%sseq=0003:%010u x", header, 7 + i);
      g_assert_true (g_str_has_prefix (frame, start));
      g_assert_cmpint (frame[150], ==, '\n');
      /* padding to the end */
      for (gsize j = strlen (start); j < 150; j++)
        g_assert_cmpint (frame[j], ==, 'x');
    }
  g_assert_cmpuint (layout.stamp_offset, ==, 4);
  g_assert_cmpuint (layout.stamp_len, ==, 15);
  g_assert_cmpuint (layout.seq_offset, ==, strlen (header) + strlen ("seq=0003:"));
}

static void
test_seq_carries (void)
{
  SlGenFormat format = {
    .syntax = SL_GEN_RFC3164, .framing = SL_GEN_FRAMING_NEWLINE,
    .host = "h", .program = "p", .pid = 1, .size = 0,
  };
  SlGenLayout layout;
  g_autofree gchar *frames = sl_gen_frames_new (&format, 1, 3, NOV_14 * G_USEC_PER_SEC, &layout);
  sl_gen_frames_set_seq (frames, &layout, 3, 9999999999 - 1);
  /* no padding asked for: the message ends with the number */
  g_autofree gchar *first = frame_text (frames, &layout, 0);
  g_assert_true (g_str_has_suffix (first, "seq=0001:9999999998\n"));
  g_autofree gchar *second = frame_text (frames, &layout, 1);
  g_assert_true (g_str_has_suffix (second, "seq=0001:9999999999\n"));

  sl_gen_frames_set_seq (frames, &layout, 3, 99);
  g_autofree gchar *a = frame_text (frames, &layout, 0);
  g_autofree gchar *b = frame_text (frames, &layout, 1);
  g_autofree gchar *c = frame_text (frames, &layout, 2);
  g_assert_true (g_str_has_suffix (a, "seq=0001:0000000099\n"));
  g_assert_true (g_str_has_suffix (b, "seq=0001:0000000100\n"));
  g_assert_true (g_str_has_suffix (c, "seq=0001:0000000101\n"));
}

static void
test_rfc5424_octet (void)
{
  set_zone ("UTC");
  SlGenFormat format = {
    .syntax = SL_GEN_RFC5424, .framing = SL_GEN_FRAMING_OCTET,
    .host = "genhost", .program = "genprog", .pid = 42, .size = 200,
    .sdata = "[x@1 a=\"b\"]",
  };
  SlGenLayout layout;
  g_autofree gchar *frames = sl_gen_frames_new (&format, 12, 2, NOV_14 * G_USEC_PER_SEC, &layout);
  sl_gen_frames_set_seq (frames, &layout, 2, 1);
  g_assert_cmpuint (layout.message_len, ==, 200);
  g_assert_cmpuint (layout.frame_len, ==, 204);
  g_autofree gchar *frame = frame_text (frames, &layout, 1);
  g_assert_true (g_str_has_prefix (frame, "200 <13>1 2023-11-14T22:13:20.000000+00:00 genhost genprog 42 - "
                                          "[x@1 a=\"b\"] seq=0012:0000000002 xxx"));
  g_assert_cmpint (frame[203], ==, 'x');

  /* a new stamp lands in every frame, in place */
  g_autofree gchar *later = sl_gen_format_stamp (SL_GEN_RFC5424, (NOV_14 + 61) * G_USEC_PER_SEC + 7);
  sl_gen_frames_set_stamp (frames, &layout, 2, later);
  for (guint i = 0; i < 2; i++)
    {
      g_autofree gchar *f = frame_text (frames, &layout, i);
      g_assert_cmpuint (layout.stamp_len, ==, strlen (later));
      g_assert_true (g_str_has_prefix (f + 4, "<13>1 2023-11-14T22:14:21.000007+00:00 genhost"));
    }
}

static void
test_rfc5424_no_sdata (void)
{
  set_zone ("UTC");
  SlGenFormat format = {
    .syntax = SL_GEN_RFC5424, .framing = SL_GEN_FRAMING_NONE,
    .host = "h", .program = "p", .pid = 7, .size = 10,
  };
  SlGenLayout layout;
  g_autofree gchar *frames = sl_gen_frames_new (&format, 1, 1, NOV_14 * G_USEC_PER_SEC, &layout);
  sl_gen_frames_set_seq (frames, &layout, 1, 5);
  g_autofree gchar *frame = frame_text (frames, &layout, 0);
  /* a datagram has no framing, and a size below the header's is no cut */
  g_assert_cmpstr (frame, ==, "<13>1 2023-11-14T22:13:20.000000+00:00 h p 7 - - seq=0001:0000000005");
  g_assert_cmpuint (layout.frame_len, ==, layout.message_len);
}

static void
test_replay_frames (void)
{
  GString *out = g_string_new (NULL);
  sl_gen_frame_append (out, SL_GEN_FRAMING_NEWLINE, "hello", 5);
  sl_gen_frame_append (out, SL_GEN_FRAMING_OCTET, "<13>hi there", 12);
  sl_gen_frame_append (out, SL_GEN_FRAMING_NONE, "dgram", 5);
  g_assert_cmpstr (out->str, ==, "hello\n12 <13>hi theredgram");
  g_string_free (out, TRUE);
}

/* What the generator makes, the verifier reads back: every frame counted
 * once, under its connection. */
static void
test_verifier_reads_frames (void)
{
  SlGenFormat format = {
    .syntax = SL_GEN_RFC3164, .framing = SL_GEN_FRAMING_NEWLINE,
    .host = "h", .program = "p", .pid = 1, .size = 120,
  };
  SlGenLayout layout;
  SlGenVerify *v = sl_gen_verify_new ();
  for (guint conn = 1; conn <= 2; conn++)
    {
      g_autofree gchar *frames = sl_gen_frames_new (&format, conn, 500, NOV_14 * G_USEC_PER_SEC, &layout);
      sl_gen_frames_set_seq (frames, &layout, 500, 1);
      sl_gen_verify_text (v, frames, 500 * layout.frame_len);
      sl_gen_frames_set_seq (frames, &layout, 500, 501);
      sl_gen_verify_text (v, frames, 500 * layout.frame_len);
    }
  SlGenTotals totals;
  GArray *conns = sl_gen_verify_report (v, &totals);
  g_assert_cmpuint (conns->len, ==, 2);
  g_assert_cmpuint (totals.received, ==, 2000);
  g_assert_cmpuint (totals.distinct, ==, 2000);
  g_assert_cmpuint (totals.missing, ==, 0);
  g_assert_cmpuint (totals.unmarked, ==, 0);
  g_assert_cmpuint (g_array_index (conns, SlGenConnReport, 1).conn, ==, 2);
  g_assert_cmpuint (g_array_index (conns, SlGenConnReport, 1).highest, ==, 1000);
  g_array_unref (conns);
  sl_gen_verify_free (v);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gen-format/stamps", test_stamps);
  g_test_add_func ("/gen-format/rfc3164-newline", test_rfc3164_newline);
  g_test_add_func ("/gen-format/seq-carries", test_seq_carries);
  g_test_add_func ("/gen-format/rfc5424-octet", test_rfc5424_octet);
  g_test_add_func ("/gen-format/rfc5424-no-sdata", test_rfc5424_no_sdata);
  g_test_add_func ("/gen-format/replay-frames", test_replay_frames);
  g_test_add_func ("/gen-format/verifier-reads-frames", test_verifier_reads_frames);
  return g_test_run ();
}
