/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/protocols/relp/relp-frame.h"

#include <string.h>

static RelpFrameStatus
parse (const gchar *text, RelpFrame *f, gsize *used)
{
  return relp_frame_parse (text, strlen (text), 1024, f, used);
}

static void
test_syslog_frame (void)
{
  RelpFrame f;
  gsize used = 0;
  const gchar *text = "17 syslog 5 hello\n2 close 0\n";
  g_assert_cmpint (parse (text, &f, &used), ==, RELP_FRAME_OK);
  g_assert_cmpuint (f.txnr, ==, 17);
  g_assert_cmpstr (f.command, ==, "syslog");
  g_assert_cmpmem (f.data, f.len, "hello", 5);
  g_assert_cmpuint (used, ==, strlen ("17 syslog 5 hello\n"));
  g_assert_cmpint (parse (text + used, &f, &used), ==, RELP_FRAME_OK);
  g_assert_cmpstr (f.command, ==, "close");
  g_assert_cmpuint (f.len, ==, 0);
}

/* every prefix of a frame asks for more, never for an error */
static void
test_every_prefix_is_incomplete (void)
{
  const gchar *text = "123 rsp 6 200 OK\n";
  RelpFrame f;
  gsize used;
  for (gsize i = 0; i < strlen (text); i++)
    g_assert_cmpint (relp_frame_parse (text, i, 1024, &f, &used), ==, RELP_FRAME_INCOMPLETE);
  g_assert_cmpint (relp_frame_parse (text, strlen (text), 1024, &f, &used), ==, RELP_FRAME_OK);
  g_assert_cmpuint (relp_rsp_code (f.data, f.len), ==, 200);
}

static void
test_malformed (void)
{
  RelpFrame f;
  gsize used;
  g_assert_cmpint (parse ("<13>hello\n", &f, &used), ==, RELP_FRAME_MALFORMED);
  g_assert_cmpint (parse ("1 syslog 5 helloX", &f, &used), ==, RELP_FRAME_MALFORMED);
  g_assert_cmpint (parse ("1234567890 syslog 1 a\n", &f, &used), ==, RELP_FRAME_MALFORMED);
  g_assert_cmpint (parse ("1 sys1og 1 a\n", &f, &used), ==, RELP_FRAME_MALFORMED);
  g_assert_cmpint (parse ("1  syslog 1 a\n", &f, &used), ==, RELP_FRAME_MALFORMED);
  g_assert_cmpint (parse ("1 syslog 2000 a\n", &f, &used), ==, RELP_FRAME_TOO_LONG);
}

static void
test_append_round_trip (void)
{
  g_autoptr (GString) out = g_string_new (NULL);
  relp_frame_append (out, 42, "syslog", "<13>x", 5);
  relp_frame_append (out, 43, "close", "", 0);
  g_assert_cmpstr (out->str, ==, "42 syslog 5 <13>x\n43 close 0\n");
  g_assert_cmpuint (relp_txnr_next (RELP_TXNR_MAX), ==, 1);
  g_assert_cmpuint (relp_rsp_code ("500 no", 6), ==, 500);
  g_assert_cmpuint (relp_rsp_code ("20", 2), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/relp-frame/syslog", test_syslog_frame);
  g_test_add_func ("/relp-frame/prefix", test_every_prefix_is_incomplete);
  g_test_add_func ("/relp-frame/malformed", test_malformed);
  g_test_add_func ("/relp-frame/append", test_append_round_trip);
  return g_test_run ();
}
