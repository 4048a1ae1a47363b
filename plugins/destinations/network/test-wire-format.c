/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the network destinations put on the wire: syslog-ng's legacy form
 * from a template, and syslog()'s RFC 5424 header with NILVALUEs,
 * structured data, fractions of the second and RFC 6587 octet counts. */
#include "plugins/destinations/network/network-destination.h"

#include <string.h>

/* 2026-02-03T12:34:56.123456+01:00 */
#define STAMP_USEC G_GINT64_CONSTANT (1770118496123456)
#define STAMP_GMTOFF 3600

static SlMessage *
message_new (const gchar *host, const gchar *program, const gchar *pid, const gchar *msgid,
             const gchar *text)
{
  SlMessage *msg = sl_message_new ("", 0);
  msg->pri = SL_PRI_MAKE (20, 5);
  msg->stamp.usec = STAMP_USEC;
  msg->stamp.gmtoff = STAMP_GMTOFF;
  if (host)
    sl_message_set (msg, SL_F_HOST, host, -1);
  if (program)
    sl_message_set (msg, SL_F_PROGRAM, program, -1);
  if (pid)
    sl_message_set (msg, SL_F_PID, pid, -1);
  if (msgid)
    sl_message_set (msg, SL_F_MSGID, msgid, -1);
  if (text)
    sl_message_set (msg, SL_F_MESSAGE, text, -1);
  return msg;
}

static NetFormat
rfc5424_format (gboolean octet_count, gint frac_digits, const gchar *template)
{
  NetFormat f = { 0 };
  f.rfc5424 = TRUE;
  f.octet_count = octet_count;
  f.env = sl_template_env_default;
  f.env.frac_digits = frac_digits;
  f.sdata = sl_template_compile ("${SDATA}", NULL);
  if (template)
    f.template = sl_template_compile (template, NULL);
  return f;
}

static void
format_clear (NetFormat *f)
{
  if (f->template)
    sl_template_unref (f->template);
  if (f->sdata)
    sl_template_unref (f->sdata);
}

static gchar *
render (const NetFormat *f, const SlMessage *msg)
{
  GString *out = g_string_new ("leading|");
  GString *scratch = g_string_new (NULL);
  net_format_append (f, msg, out, scratch);
  g_string_free (scratch, TRUE);
  return g_string_free (out, FALSE);
}

static void
test_rfc5424_header (void)
{
  NetFormat f = rfc5424_format (FALSE, 0, NULL);
  SlMessage *msg = message_new ("web1", "nginx", "42", "ID47", "hello world");
  sl_message_set (msg, sl_field_handle (".SDATA.origin.ip"), "192.0.2.1", -1);
  sl_message_set (msg, sl_field_handle (".SDATA.zoo@32473.tiger"), "a \"b\" ]", -1);
  gchar *text = render (&f, msg);
  g_assert_cmpstr (text, ==, "leading|<165>1 2026-02-03T12:34:56+01:00 web1 nginx 42 ID47 "
                   "[origin ip=\"192.0.2.1\"][zoo@32473 tiger=\"a \\\"b\\\" \\]\"] hello world");
  g_free (text);
  sl_message_unref (msg);
  format_clear (&f);
}

static void
test_rfc5424_nil_values (void)
{
  NetFormat f = rfc5424_format (FALSE, 3, NULL);
  SlMessage *msg = message_new (NULL, NULL, NULL, NULL, NULL);
  gchar *text = render (&f, msg);
  g_assert_cmpstr (text, ==, "leading|<165>1 2026-02-03T12:34:56.123+01:00 - - - - - ");
  g_free (text);
  sl_message_unref (msg);
  format_clear (&f);
}

/* A space or a control byte in a header field would shift the fields
 * after it for the receiver; over-long fields are cut to RFC 5424's limits. */
static void
test_rfc5424_header_fields_stay_fields (void)
{
  NetFormat f = rfc5424_format (FALSE, 0, NULL);
  gchar *long_program = g_strnfill (60, 'p');
  SlMessage *msg = message_new ("my host", long_program, "1\n2", "id", "text");
  gchar *text = render (&f, msg);
  gchar *expected = g_strdup_printf ("leading|<165>1 2026-02-03T12:34:56+01:00 my_host %.48s 1_2 id - text",
                                     long_program);
  g_assert_cmpstr (text, ==, expected);
  g_free (expected);
  g_free (text);
  g_free (long_program);
  sl_message_unref (msg);
  format_clear (&f);
}

static void
test_rfc5424_template_is_the_msg_part (void)
{
  NetFormat f = rfc5424_format (FALSE, 0, "${PROGRAM} said: ${MESSAGE}");
  SlMessage *msg = message_new ("h", "app", NULL, NULL, "hi");
  gchar *text = render (&f, msg);
  g_assert_cmpstr (text, ==, "leading|<165>1 2026-02-03T12:34:56+01:00 h app - - - app said: hi");
  g_free (text);
  sl_message_unref (msg);
  format_clear (&f);
}

static void
test_octet_counting (void)
{
  NetFormat f = rfc5424_format (TRUE, 0, NULL);
  SlMessage *msg = message_new ("h", "app", "7", NULL, "h\xc3\xa9llo");
  gchar *text = render (&f, msg);
  const gchar *frame = "<165>1 2026-02-03T12:34:56+01:00 h app 7 - - h\xc3\xa9llo";
  gchar *expected = g_strdup_printf ("leading|%zu %s", strlen (frame), frame);
  g_assert_cmpstr (text, ==, expected);
  g_free (expected);
  g_free (text);
  sl_message_unref (msg);
  format_clear (&f);
}

static void
test_legacy_template (void)
{
  NetFormat f = { 0 };
  f.env = sl_template_env_default;
  f.template = sl_template_compile (NET_LEGACY_TEMPLATE, NULL);
  SlMessage *msg = message_new ("web1", "nginx", "42", NULL, "hello");
  gchar *text = render (&f, msg);
  g_assert_cmpstr (text, ==, "leading|<165>Feb  3 12:34:56 web1 nginx[42]: hello\n");
  g_free (text);
  sl_message_unref (msg);
  format_clear (&f);
}

/* truncate-size() cuts what the template makes, its line feed too (as
 * syslog-ng 3.38 writes it); add-newline() then ends each message with
 * one unless it has it (rsyslog's omfwd over TCP); octet counts count
 * what is left. */
static void
test_truncate_and_add_newline (void)
{
  NetFormat f = { 0 };
  f.env = sl_template_env_default;
  f.template = sl_template_compile ("${MESSAGE}\n", NULL);
  SlMessage *longer = message_new (NULL, NULL, NULL, NULL, "0123456789abcdef");
  SlMessage *shorter = message_new (NULL, NULL, NULL, NULL, "short");
  f.truncate_size = 10;
  gchar *text = render (&f, longer);
  g_assert_cmpstr (text, ==, "leading|0123456789");
  g_free (text);
  text = render (&f, shorter);
  g_assert_cmpstr (text, ==, "leading|short\n");
  g_free (text);
  f.add_newline = TRUE;
  text = render (&f, longer);
  g_assert_cmpstr (text, ==, "leading|0123456789\n");
  g_free (text);
  text = render (&f, shorter);
  g_assert_cmpstr (text, ==, "leading|short\n");
  g_free (text);
  format_clear (&f);

  /* octet-count() on a template of one's own: what rsyslogd's @@(o)
   * writes, no line feed added */
  NetFormat counted = { 0 };
  counted.env = sl_template_env_default;
  counted.template = sl_template_compile ("${MESSAGE}", NULL);
  counted.octet_count = TRUE;
  text = render (&counted, shorter);
  g_assert_cmpstr (text, ==, "leading|5 short");
  g_free (text);
  format_clear (&counted);

  NetFormat framed = rfc5424_format (TRUE, 0, NULL);
  framed.truncate_size = 20;
  text = render (&framed, shorter);
  g_assert_cmpstr (text, ==, "leading|20 <165>1 2026-02-03T12");
  g_free (text);
  format_clear (&framed);
  sl_message_unref (longer);
  sl_message_unref (shorter);
}

gint
main (gint argc, gchar **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/network/wire/rfc5424-header", test_rfc5424_header);
  g_test_add_func ("/network/wire/rfc5424-nil-values", test_rfc5424_nil_values);
  g_test_add_func ("/network/wire/rfc5424-header-fields-stay-fields", test_rfc5424_header_fields_stay_fields);
  g_test_add_func ("/network/wire/rfc5424-template-is-the-msg-part", test_rfc5424_template_is_the_msg_part);
  g_test_add_func ("/network/wire/octet-counting", test_octet_counting);
  g_test_add_func ("/network/wire/legacy-template", test_legacy_template);
  g_test_add_func ("/network/wire/truncate-and-add-newline", test_truncate_and_add_newline);
  return g_test_run ();
}
