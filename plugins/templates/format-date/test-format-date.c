/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(format-date) with fixed stamps, in the local zone CET as syslog-ng's
 * own tests of it run: the expected values are those of its
 * modules/timestamp tests, and the cases around them. */
#include "core/plugin/plugin.h"
#include "core/compile/loader.h"
#include "core/message/template.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

extern const SlModule sl_module;

/* 2022-11-03 18:36:53 UTC */
#define STAMP 1667500613

static SlMessage *
message_at (gint64 sec, gint32 gmtoff)
{
  SlMessage *msg = sl_message_new ("", 0);
  msg->stamp.usec = sec * G_USEC_PER_SEC + 250000;
  msg->stamp.gmtoff = gmtoff;
  sl_message_set (msg, sl_field_handle ("custom_timestamp"), "1667500613", -1);
  sl_message_set (msg, sl_field_handle ("zoned"), "1667500613.613+05:00", -1);
  return msg;
}

static gchar *
render (const gchar *text, const SlMessage *msg)
{
  GError *error = NULL;
  SlTemplate *t = sl_template_compile (text, &error);
  g_assert_no_error (error);
  GString *out = g_string_new (NULL);
  sl_template_append (t, msg, NULL, out);
  sl_template_unref (t);
  return g_string_free (out, FALSE);
}

static void
assert_renders (const gchar *text, const SlMessage *msg, const gchar *expected)
{
  g_autofree gchar *got = render (text, msg);
  g_assert_cmpstr (got, ==, expected);
}

static void
assert_refused (const gchar *text, const gchar *needle)
{
  GError *error = NULL;
  SlTemplate *t = sl_template_compile (text, &error);
  g_assert_null (t);
  g_assert_nonnull (error);
  g_test_message ("%s: %s", text, error->message);
  g_assert_nonnull (strstr (error->message, needle));
  g_error_free (error);
}

static void
test_stamps (void)
{
  SlMessage *local = message_at (STAMP, 3600);
  assert_renders ("$(format-date %Y-%m-%dT%H:%M:%S)", local, "2022-11-03T19:36:53");
  assert_renders ("$(format-date %Y-%m-%dT%H:%M:%S ${custom_timestamp})", local, "2022-11-03T19:36:53");
  assert_renders ("$(format-date %Y-%m-%dT%H:%M:%S 1667500613)", local, "2022-11-03T19:36:53");
  assert_renders ("$(format-date %Y-%m-%dT%H:%M:%S 1667500613.613+05:00)", local, "2022-11-03T23:36:53");
  assert_renders ("$(format-date %H:%M%z ${zoned})", local, "23:36+0500");
  assert_renders ("$(format-date --time-zone PST8PDT %Y-%m-%dT%H:%M:%S 1667500613)", local, "2022-11-03T11:36:53");
  assert_renders ("$(format-date --time-zone=UTC %H:%M:%S%z)", local, "18:36:53+0000");
  assert_renders ("$(format-date -Z America/New_York '%d %b %H:%M %Z')", local, "03 Nov 14:36 EDT");
  /* a message stamped in a zone of its own is shown in it */
  SlMessage *east = message_at (STAMP, 9 * 3600);
  assert_renders ("$(format-date '%Y-%m-%d %H:%M:%S %z')", east, "2022-11-04 03:36:53 +0900");
  /* before the epoch, the second the stamp is in */
  SlMessage *old = message_at (-1, 0);
  assert_renders ("$(format-date %Y-%m-%dT%H:%M:%S)", old, "1969-12-31T23:59:59");
  /* what does not read as a stamp is the epoch, in the local zone */
  assert_renders ("$(format-date %Y-%m-%dT%H:%M:%S nonsense)", local, "1970-01-01T01:00:00");
  assert_renders ("$(format-date %s 12.3456789012)", local, "0");
  assert_renders ("$(format-date %s 12.5)", local, "12");
  /* strftime() has no %f: it stays as written */
  assert_renders ("$(format-date %S.%f 5)", local, "05.%f");
  /* a result longer than syslog-ng's 64 bytes is kept whole */
  assert_renders ("$(format-date '%Y-%m-%d %Y-%m-%d %Y-%m-%d %Y-%m-%d %Y-%m-%d %Y-%m-%d %Y-%m-%d' 0)", local,
                  "1970-01-01 1970-01-01 1970-01-01 1970-01-01 1970-01-01 1970-01-01 1970-01-01");
  sl_message_unref (local);
  sl_message_unref (east);
  sl_message_unref (old);
}

static void
test_refused (void)
{
  assert_refused ("$(format-date)", "FORMAT");
  assert_refused ("$(format-date --time-zone)", "FORMAT");
  assert_refused ("$(format-date --time-zone No/Such_Zone %H)", "No/Such_Zone");
  assert_refused ("$(format-date --local %H)", "FORMAT");
  assert_refused ("$(format-date %H 1 2)", "FORMAT");
}

int
main (int argc, char **argv)
{
  setenv ("TZ", "CET", TRUE);
  tzset ();
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/format-date/stamps", test_stamps);
  g_test_add_func ("/format-date/refused", test_refused);
  return g_test_run ();
}
