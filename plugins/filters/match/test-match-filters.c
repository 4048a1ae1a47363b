/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tests/unit/plugin-fixture.h"
#include "core/config/error.h"
#include "core/compile/loader.h"

#include <string.h>

extern const SlModule sl_module;

/* Whether the filter written as text passes msg, asked the way the core
 * asks (process, so stored matches land in *msg). */
static gboolean
passes (const SlTestDriver *t, SlMessage **msg)
{
  return t->driver->klass->ops.filter->process (t->driver, msg);
}

static gboolean
filter_passes (const gchar *text, const gchar *first_name, ...)
{
  SlTestDriver t;
  GError *error = NULL;
  g_assert_true (sl_test_driver_new (&t, SL_DRIVER_FILTER, NULL, text, &error));
  g_assert_no_error (error);

  SlMessage *msg = sl_message_new ("", 0);
  va_list args;
  va_start (args, first_name);
  for (const gchar *name = first_name; name; name = va_arg (args, const gchar *))
    sl_message_set (msg, sl_field_handle (name), va_arg (args, const gchar *), -1);
  va_end (args);

  gboolean pass = passes (&t, &msg);
  /* the read-only entry point agrees */
  g_assert_true (t.driver->klass->ops.filter->match (t.driver, msg) == pass);
  sl_message_unref (msg);
  sl_test_driver_free (&t);
  return pass;
}

static gchar *
refusal (const gchar *text)
{
  SlTestDriver t;
  GError *error = NULL;
  g_assert_false (sl_test_driver_new (&t, SL_DRIVER_FILTER, NULL, text, &error));
  g_assert_nonnull (error);
  sl_test_driver_free (&t);
  gchar *message = g_strdup (error->message);
  g_error_free (error);
  return message;
}

static void
test_program_host_message (void)
{
  g_assert_true (filter_passes ("program(\"^ssh\")", "PROGRAM", "sshd", NULL));
  g_assert_false (filter_passes ("program(\"^ssh\")", "PROGRAM", "xsshd", NULL));
  g_assert_true (filter_passes ("program(\"ssh\")", "PROGRAM", "xsshd", NULL));
  g_assert_false (filter_passes ("program(\"sshd\")", NULL));
  g_assert_true (filter_passes ("host(\"^web[0-9]+$\")", "HOST", "web12", NULL));
  g_assert_false (filter_passes ("host(\"^web[0-9]+$\")", "HOST", "web12.example", "PROGRAM", "web1", NULL));
  g_assert_true (filter_passes ("message(\"FAILED\" flags(ignore-case))", "MESSAGE", "login failed", NULL));
  g_assert_false (filter_passes ("message(\"FAILED\")", "MESSAGE", "login failed", NULL));
}

static void
test_string_type (void)
{
  const gchar *msg[] = { "HOST", "Web1.example.org", NULL };
  g_assert_false (filter_passes ("host(\"Web1\" type(string))", msg[0], msg[1], NULL));
  g_assert_true (filter_passes ("host(\"Web1.example.org\" type(string))", msg[0], msg[1], NULL));
  g_assert_true (filter_passes ("host(\"Web1\" type(string) flags(prefix))", msg[0], msg[1], NULL));
  g_assert_false (filter_passes ("host(\"example\" type(string) flags(prefix))", msg[0], msg[1], NULL));
  g_assert_true (filter_passes ("host(\"example\" type(string) flags(substring))", msg[0], msg[1], NULL));
  g_assert_false (filter_passes ("host(\"EXAMPLE\" type(string) flags(substring))", msg[0], msg[1], NULL));
  g_assert_true (filter_passes ("host(\"EXAMPLE\" type(string) flags(substring, ignore-case))", msg[0], msg[1], NULL));
  g_assert_true (filter_passes ("host(\"web1.EXAMPLE.org\" type(\"string\") flags(\"ignore-case\"))", msg[0], msg[1], NULL));
  /* a dot is no wildcard in a string */
  g_assert_false (filter_passes ("host(\"Web1xexample\" type(string) flags(prefix))", msg[0], msg[1], NULL));
  /* a pattern longer than the value never matches */
  g_assert_false (filter_passes ("host(\"Web1.example.org.uk\" type(string) flags(prefix))", msg[0], msg[1], NULL));
}

static void
test_glob_type (void)
{
  g_assert_true (filter_passes ("message(\"*disk*full*\" type(glob))", "MESSAGE", "the disk is full now", NULL));
  g_assert_false (filter_passes ("message(\"*disk*full\" type(glob))", "MESSAGE", "the disk is full now", NULL));
  g_assert_true (filter_passes ("program(\"ssh?\" type(glob))", "PROGRAM", "sshd", NULL));
  g_assert_false (filter_passes ("program(\"ssh?\" type(glob))", "PROGRAM", "ssh", NULL));
  g_assert_true (filter_passes ("program(\"SSH*\" type(glob) flags(ignore-case))", "PROGRAM", "sshd", NULL));
  /* ? is a character, not a byte */
  g_assert_true (filter_passes ("message(\"caf?\" type(glob))", "MESSAGE", "caf\xc3\xa9", NULL));
}

static void
test_match_value_and_template (void)
{
  const gchar *objects = "template t_pair { template(\"${HOST}/${PROGRAM}\"); };\n";
  g_assert_true (filter_passes ("match(\"^10\\\\.\" value(\"SOURCEIP\"))", "SOURCEIP", "10.1.2.3", NULL));
  g_assert_false (filter_passes ("match(\"^10\\\\.\" value(\"SOURCEIP\"))", "SOURCEIP", "110.1.2.3", NULL));
  g_assert_true (filter_passes ("match(\"hello\" value(\"MSG\"))", "MESSAGE", "hello", NULL));
  g_assert_true (filter_passes ("match(\"^eu$\" value(\".SDATA.origin.region\"))", ".SDATA.origin.region", "eu", NULL));
  g_assert_false (filter_passes ("match(\"^eu$\" value(\".SDATA.origin.region\"))", NULL));
  /* a macro is rendered */
  g_assert_true (filter_passes ("match(\"^user$\" value(\"FACILITY\"))", NULL));
  g_assert_true (filter_passes ("match(\"^web1/nginx$\" template(\"$HOST/$PROGRAM\"))",
                                "HOST", "web1", "PROGRAM", "nginx", NULL));

  SlTestDriver t;
  g_assert_true (sl_test_driver_new (&t, SL_DRIVER_FILTER, objects, "match(\"^a/b$\" template(t_pair))", NULL));
  SlMessage *msg = sl_test_message_new ("HOST", "a", "PROGRAM", "b", NULL);
  g_assert_true (passes (&t, &msg));
  sl_message_unref (msg);
  sl_test_driver_free (&t);
}

/* syslog-ng's match() without value() reads the header and the text */
static void
test_match_default_subject (void)
{
  g_assert_true (filter_passes ("match(\"^sshd\\\\[42\\\\]: Accepted\")",
                                "PROGRAM", "sshd", "PID", "42", "MESSAGE", "Accepted publickey", NULL));
  g_assert_true (filter_passes ("match(\"sshd\")", "PROGRAM", "sshd", "MESSAGE", "x", NULL));
  g_assert_false (filter_passes ("match(\"sshd\")", "PROGRAM", "cron", "MESSAGE", "x", NULL));
}

static void
test_store_matches (void)
{
  SlTestDriver t;
  GError *error = NULL;
  g_assert_true (sl_test_driver_new (&t, SL_DRIVER_FILTER, NULL,
                                     "match(\"(?<user>\\\\w+)@(\\\\w+)\" value(\"MESSAGE\") flags(store-matches))",
                                     &error));
  g_assert_no_error (error);
  SlMessage *msg = sl_test_message_new ("MESSAGE", "login alice@db ok", "3", "stale", NULL);
  SlMessage *other_path = sl_message_ref (msg);

  g_assert_true (passes (&t, &msg));
  g_assert_true (msg != other_path);
  gchar *v;
  g_assert_cmpstr ((v = sl_test_message_field (msg, "0")), ==, "alice@db"); g_free (v);
  g_assert_cmpstr ((v = sl_test_message_field (msg, "1")), ==, "alice"); g_free (v);
  g_assert_cmpstr ((v = sl_test_message_field (msg, "2")), ==, "db"); g_free (v);
  g_assert_cmpstr ((v = sl_test_message_field (msg, "user")), ==, "alice"); g_free (v);
  g_assert_null (sl_test_message_field (msg, "3"));
  /* the other path's message is untouched */
  g_assert_null (sl_test_message_field (other_path, "1"));
  g_assert_cmpstr ((v = sl_test_message_field (other_path, "3")), ==, "stale"); g_free (v);

  /* no match stores nothing and copies nothing */
  SlMessage *miss = sl_test_message_new ("MESSAGE", "nobody here", NULL);
  SlMessage *miss_ref = sl_message_ref (miss);
  g_assert_false (passes (&t, &miss));
  g_assert_true (miss == miss_ref);
  g_assert_null (sl_test_message_field (miss, "0"));
  sl_message_unref (miss);
  sl_message_unref (miss_ref);

  sl_message_unref (msg);
  sl_message_unref (other_path);
  sl_test_driver_free (&t);
}

/* A pattern that matches its own stored group: storing must not free
 * what it reads. */
static void
test_store_matches_of_a_match (void)
{
  SlTestDriver t;
  g_assert_true (sl_test_driver_new (&t, SL_DRIVER_FILTER, NULL,
                                     "match(\"^(.)(.*)$\" value(\"1\") flags(store-matches))", NULL));
  SlMessage *msg = sl_test_message_new ("1", "xyz", NULL);
  g_assert_true (passes (&t, &msg));
  gchar *v;
  g_assert_cmpstr ((v = sl_test_message_field (msg, "1")), ==, "x"); g_free (v);
  g_assert_cmpstr ((v = sl_test_message_field (msg, "2")), ==, "yz"); g_free (v);
  sl_message_unref (msg);
  sl_test_driver_free (&t);
}

/* (a+)+$ against a long run of a's that ends in b backtracks without end;
 * PCRE's match limit stops it, and the value counts as no match. */
static void
test_catastrophic_regex_is_bounded (void)
{
  SlTestDriver t;
  g_assert_true (sl_test_driver_new (&t, SL_DRIVER_FILTER, NULL, "message(\"(a+)+$\")", NULL));
  gsize n = 100000;
  gchar *line = g_malloc (n + 1);
  memset (line, 'a', n);
  line[n - 1] = 'b';
  line[n] = '\0';
  SlMessage *msg = sl_test_message_new ("MESSAGE", line, NULL);
  /* counters are kept by name across configurations: count from here */
  gint64 errors = sl_test_driver_counter (&t, "match-errors");
  g_assert_false (passes (&t, &msg));
  g_assert_cmpint (sl_test_driver_counter (&t, "match-errors"), ==, errors + 1);
  g_assert_false (t.driver->klass->ops.filter->match (t.driver, msg));
  g_assert_cmpint (sl_test_driver_counter (&t, "match-errors"), ==, errors + 2);
  sl_message_unref (msg);
  g_free (line);
  sl_test_driver_free (&t);
}

static void
test_hostile_values (void)
{
  /* bytes that are not UTF-8: matched as bytes by default */
  g_assert_true (filter_passes ("message(\"b\\\\xff?c\")", "MESSAGE", "ab\xff" "c", NULL));
  /* under utf8 they match nothing and are counted, not crashed on */
  SlTestDriver t;
  g_assert_true (sl_test_driver_new (&t, SL_DRIVER_FILTER, NULL, "message(\"c\" flags(utf8))", NULL));
  SlMessage *msg = sl_test_message_new ("MESSAGE", "ab\xff" "c", NULL);
  gint64 errors = sl_test_driver_counter (&t, "match-errors");
  g_assert_false (passes (&t, &msg));
  g_assert_cmpint (sl_test_driver_counter (&t, "match-errors"), ==, errors + 1);
  sl_message_unref (msg);
  sl_test_driver_free (&t);

  /* a glob reads a copy cleaned of broken sequences and NULs, so a value
   * cut inside a sequence is no over-read */
  SlTestDriver g;
  g_assert_true (sl_test_driver_new (&g, SL_DRIVER_FILTER, NULL, "message(\"ab*\" type(glob))", NULL));
  SlMessage *cut = sl_message_new ("", 0);
  sl_message_set (cut, SL_F_MESSAGE, "ab\xf0", 3);
  g_assert_true (passes (&g, &cut));
  sl_message_set (cut, SL_F_MESSAGE, "ab\0cd\xe2\x82", 7);
  g_assert_true (passes (&g, &cut));
  sl_message_set (cut, SL_F_MESSAGE, "a\0b", 3);
  g_assert_false (passes (&g, &cut));
  sl_message_unref (cut);
  sl_test_driver_free (&g);

  /* values are (pointer, length): bytes past the length are not read */
  SlTestDriver s;
  g_assert_true (sl_test_driver_new (&s, SL_DRIVER_FILTER, NULL, "program(\"^sshd$\")", NULL));
  SlMessage *slice = sl_message_new ("sshd-tail", 9);
  sl_message_set_slice (slice, SL_F_PROGRAM, slice->raw, 4);
  g_assert_true (passes (&s, &slice));
  sl_message_set_slice (slice, SL_F_PROGRAM, slice->raw, 3);
  g_assert_false (passes (&s, &slice));
  sl_message_unref (slice);
  sl_test_driver_free (&s);

  /* a huge value */
  gsize n = 4 * 1024 * 1024;
  gchar *huge = g_malloc (n + 1);
  for (gsize i = 0; i < n; i++)
    huge[i] = "abcdefghijklmnopqrstuvwxyz \xc3"[i % 28];
  huge[n] = '\0';
  g_assert_false (filter_passes ("message(\"needle\")", "MESSAGE", huge, NULL));
  g_assert_false (filter_passes ("message(\"needle\" type(string) flags(substring, ignore-case))", "MESSAGE", huge, NULL));
  g_assert_false (filter_passes ("message(\"*needle*\" type(glob))", "MESSAGE", huge, NULL));
  memcpy (huge + n - 6, "NEEDLE", 6);
  g_assert_true (filter_passes ("message(\"needle$\" flags(ignore-case))", "MESSAGE", huge, NULL));
  g_assert_true (filter_passes ("message(\"needle\" type(string) flags(substring, ignore-case))", "MESSAGE", huge, NULL));
  g_free (huge);
}

static void
test_config_errors (void)
{
  gchar *m;

  m = refusal ("message(\"ab\\\\\")");
  g_assert_true (g_str_has_prefix (m, "test.conf:1:20: invalid regular expression"));
  g_assert_nonnull (strstr (m, "at end of pattern"));
  g_free (m);

  m = refusal ("program(\"a(b\")");
  g_assert_true (g_str_has_prefix (m, "test.conf:1:20: invalid regular expression"));
  g_free (m);

  m = refusal ("host(\"x\" type(posix))");
  g_assert_true (g_str_has_prefix (m, "test.conf:1:26: 'posix' is not a value of type(); expected one of: pcre, string, glob"));
  g_free (m);

  m = refusal ("host(\"x\" flags(ignorecase))");
  g_assert_nonnull (strstr (m, "unknown flag 'ignorecase' in flags()"));
  g_free (m);

  m = refusal ("program()");
  g_assert_nonnull (strstr (m, "program() needs a pattern"));
  g_free (m);

  m = refusal ("match(\"x\" value(\"HOST\") template(\"$HOST\"))");
  g_assert_nonnull (strstr (m, "match() takes value() or template(), not both"));
  g_free (m);

  m = refusal ("match(\"x\" value(\"${HOST}\"))");
  g_assert_nonnull (strstr (m, "test.conf:1:22: '${HOST}' is not a field or macro name"));
  g_free (m);

  m = refusal ("message(\"x\" value(\"HOST\"))");
  g_assert_nonnull (strstr (m, "unknown option 'value' in message()"));
  g_free (m);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/match-filters/program-host-message", test_program_host_message);
  g_test_add_func ("/match-filters/string", test_string_type);
  g_test_add_func ("/match-filters/glob", test_glob_type);
  g_test_add_func ("/match-filters/value-and-template", test_match_value_and_template);
  g_test_add_func ("/match-filters/default-subject", test_match_default_subject);
  g_test_add_func ("/match-filters/store-matches", test_store_matches);
  g_test_add_func ("/match-filters/store-matches-of-a-match", test_store_matches_of_a_match);
  g_test_add_func ("/match-filters/catastrophic-regex", test_catastrophic_regex_is_bounded);
  g_test_add_func ("/match-filters/hostile-values", test_hostile_values);
  g_test_add_func ("/match-filters/config-errors", test_config_errors);
  return g_test_run ();
}
