/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/message/message.h"
#include "core/io/proxy-header.h"

#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static SlProxyHeaderStatus
parse (const gchar *text, gsize len, SlProxyHeader *h, gsize *used)
{
  return sl_proxy_header_parse ((const guint8 *) text, len, h, used);
}

static void
test_v1_tcp4 (void)
{
  const gchar *text = "PROXY TCP4 192.0.2.7 10.0.0.1 51000 514\r\n<13>hello\n";
  SlProxyHeader h;
  gsize used;
  g_assert_cmpint (parse (text, strlen (text), &h, &used), ==, SL_PROXY_HEADER_DONE);
  g_assert_cmpuint (used, ==, strlen ("PROXY TCP4 192.0.2.7 10.0.0.1 51000 514\r\n"));
  g_assert_false (h.local);
  g_assert_cmpuint (h.ip_version, ==, 4);
  g_assert_cmpstr (h.src_ip, ==, "192.0.2.7");
  g_assert_cmpstr (h.dst_ip, ==, "10.0.0.1");
  g_assert_cmpuint (h.src_port, ==, 51000);
  g_assert_cmpuint (h.dst_port, ==, 514);
}

static void
test_v1_tcp6_and_unknown (void)
{
  const gchar *six = "PROXY TCP6 2001:db8::1 ::1 1 65535\r\n";
  SlProxyHeader h;
  gsize used;
  g_assert_cmpint (parse (six, strlen (six), &h, &used), ==, SL_PROXY_HEADER_DONE);
  g_assert_cmpuint (h.ip_version, ==, 6);
  g_assert_cmpstr (h.src_ip, ==, "2001:db8::1");
  const gchar *unknown = "PROXY UNKNOWN ffff::1 ::1 1 2\r\n";
  g_assert_cmpint (parse (unknown, strlen (unknown), &h, &used), ==, SL_PROXY_HEADER_DONE);
  g_assert_true (h.local);
}

/* every prefix of a header asks for more, never for a verdict */
static void
test_prefixes_are_incomplete (void)
{
  static const guint8 v2[] = { '\r', '\n', '\r', '\n', 0, '\r', '\n', 'Q', 'U', 'I', 'T', '\n', 0x21, 0x11, 0, 12,
                               192, 0, 2, 7, 10, 0, 0, 1, 0xc7, 0x38, 0x02, 0x02 };
  const gchar *v1 = "PROXY TCP4 192.0.2.7 10.0.0.1 51000 514\r\n";
  SlProxyHeader h;
  gsize used;
  for (gsize i = 0; i < strlen (v1); i++)
    g_assert_cmpint (parse (v1, i, &h, &used), ==, SL_PROXY_HEADER_INCOMPLETE);
  for (gsize i = 0; i < sizeof v2; i++)
    g_assert_cmpint (sl_proxy_header_parse (v2, i, &h, &used), ==, SL_PROXY_HEADER_INCOMPLETE);
  g_assert_cmpint (sl_proxy_header_parse (v2, sizeof v2, &h, &used), ==, SL_PROXY_HEADER_DONE);
  g_assert_cmpuint (used, ==, sizeof v2);
  g_assert_cmpstr (h.src_ip, ==, "192.0.2.7");
  g_assert_cmpuint (h.src_port, ==, 51000);
  g_assert_cmpuint (h.dst_port, ==, 514);
}

static void
test_v2_local_and_too_long (void)
{
  guint8 v2[16] = { '\r', '\n', '\r', '\n', 0, '\r', '\n', 'Q', 'U', 'I', 'T', '\n', 0x20, 0x00, 0, 0 };
  SlProxyHeader h;
  gsize used;
  g_assert_cmpint (sl_proxy_header_parse (v2, sizeof v2, &h, &used), ==, SL_PROXY_HEADER_DONE);
  g_assert_true (h.local);
  v2[12] = 0x21;
  v2[13] = 0x11;
  v2[14] = 0x10;
  g_assert_cmpint (sl_proxy_header_parse (v2, sizeof v2, &h, &used), ==, SL_PROXY_HEADER_TOO_LONG);
  v2[14] = 0;
  v2[15] = 4;
  /* a PROXY command whose addresses do not fit its family */
  g_assert_cmpint (sl_proxy_header_parse (v2, sizeof v2, &h, &used), ==, SL_PROXY_HEADER_MALFORMED);
  v2[12] = 0x31;
  g_assert_cmpint (sl_proxy_header_parse (v2, sizeof v2, &h, &used), ==, SL_PROXY_HEADER_MALFORMED);
}

static void
test_refused (void)
{
  SlProxyHeader h;
  gsize used;
  const gchar *cases[] = {
    "<13>Dec  1 host prog: a log line\n",
    "PROXY TCP4 192.0.2.7 10.0.0.1 51000\r\n",
    "PROXY TCP4 300.0.2.7 10.0.0.1 51000 514\r\n",
    "PROXY TCP4 192.0.2.7 10.0.0.1 51000 65536\r\n",
    "PROXY TCP4 192.0.2.7 10.0.0.1 051000 514\r\n",
    "PROXY TCP6 192.0.2.7 10.0.0.1 1 2\r\n",
    "PROXY TCP4 192.0.2.7 10.0.0.1 1 2\n",
    "PROXY TCP4 192.0.2.7\x01",
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (parse (cases[i], strlen (cases[i]), &h, &used), ==, SL_PROXY_HEADER_MALFORMED);
  gchar longer[200];
  memset (longer, 'A', sizeof longer);
  memcpy (longer, "PROXY ", 6);
  g_assert_cmpint (parse (longer, sizeof longer, &h, &used), ==, SL_PROXY_HEADER_TOO_LONG);
}

/* Off a socket only the header is taken, however the bytes arrive. */
static void
test_read_takes_only_the_header (void)
{
  gint sv[2];
  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv), ==, 0);
  SlProxyHeaderReader r = { .fill = 0 };
  SlProxyHeader h;
  gboolean closed;
  g_assert_cmpint (sl_proxy_header_read (&r, sv[0], &h, &closed), ==, SL_PROXY_HEADER_INCOMPLETE);
  g_assert_cmpint (write (sv[1], "PROXY TCP4 192.0.2.7 ", 21), ==, 21);
  g_assert_cmpint (sl_proxy_header_read (&r, sv[0], &h, &closed), ==, SL_PROXY_HEADER_INCOMPLETE);
  const gchar *rest = "10.0.0.1 1 2\r\nline\n";
  g_assert_cmpint (write (sv[1], rest, strlen (rest)), ==, (gssize) strlen (rest));
  g_assert_cmpint (sl_proxy_header_read (&r, sv[0], &h, &closed), ==, SL_PROXY_HEADER_DONE);
  gchar after[16] = { 0 };
  g_assert_cmpint (read (sv[0], after, sizeof after), ==, 5);
  g_assert_cmpstr (after, ==, "line\n");
  close (sv[1]);
  SlProxyHeaderReader again = { .fill = 0 };
  g_assert_cmpint (sl_proxy_header_read (&again, sv[0], &h, &closed), ==, SL_PROXY_HEADER_MALFORMED);
  g_assert_true (closed);
  close (sv[0]);
}

static void
test_fields (void)
{
  SlProxyHeader h;
  gsize used;
  const gchar *text = "PROXY TCP4 192.0.2.7 10.0.0.1 51000 514\r\n";
  g_assert_cmpint (parse (text, strlen (text), &h, &used), ==, SL_PROXY_HEADER_DONE);
  SlMessage *msg = sl_message_new ("x", 1);
  sl_proxy_header_set_fields (&h, msg);
  gsize len;
  g_assert_cmpstr (sl_message_get (msg, sl_field_handle ("PROXIED_SRCIP"), &len), ==, "192.0.2.7");
  g_assert_cmpstr (sl_message_get (msg, sl_field_handle ("PROXIED_DSTPORT"), &len), ==, "514");
  g_assert_cmpstr (sl_message_get (msg, sl_field_handle ("PROXIED_IP_VERSION"), &len), ==, "4");
  sl_message_unref (msg);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/proxy-header/v1-tcp4", test_v1_tcp4);
  g_test_add_func ("/proxy-header/v1-tcp6-unknown", test_v1_tcp6_and_unknown);
  g_test_add_func ("/proxy-header/prefixes", test_prefixes_are_incomplete);
  g_test_add_func ("/proxy-header/v2-local-too-long", test_v2_local_and_too_long);
  g_test_add_func ("/proxy-header/refused", test_refused);
  g_test_add_func ("/proxy-header/read", test_read_takes_only_the_header);
  g_test_add_func ("/proxy-header/fields", test_fields);
  return g_test_run ();
}
