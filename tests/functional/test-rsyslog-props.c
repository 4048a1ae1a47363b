/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's property options, template options, the $! tree and lookup
 * tables: one configuration run by the real rsyslogd 8.2302 and by
 * sluiced, the same messages to an imudp input of each, every file the
 * two write compared byte for byte. Then a lookup table's file changes
 * and both reload (SIGHUP): the next message finds the new value in both.
 * The messages carry stamps of the last days (the year of an RFC 3164
 * stamp is guessed alike then), and both daemons run in UTC. The $! tree
 * has mmjsonparse's fields and one set after them, whose name the
 * configuration names first: a tree's members are in the order they were
 * set in the message in both, and mmjsonparse's values keep their JSON
 * types (numbers, booleans, null, arrays, objects). The forms Sluice
 * refuses are refused with their place in the rsyslog file. */
#include "tests/functional/harness.h"

#include <signal.h>
#include <string.h>
#include <sys/socket.h>

static const gchar config[] =
  "module(load=\"imudp\")\n"
  "input(type=\"imudp\" port=\"@PORT@\" address=\"127.0.0.1\")\n"
  "module(load=\"mmjsonparse\")\n"
  "lookup_table(name=\"str\" file=\"@DIR@/str.json\" reloadOnHUP=\"on\")\n"
  "lookup_table(name=\"arr\" file=\"@DIR@/arr.json\")\n"
  "lookup_table(name=\"sparse\" file=\"@DIR@/sparse.json\")\n"
  "lookup_table(name=\"missing\" file=\"@DIR@/missing.json\")\n"
  "action(type=\"mmjsonparse\")\n"
  "set $!a!b = \"set after the parse\";\n"
  "set $.loc = \"l\";\n"
  "set $.str = lookup(\"str\", $hostname);\n"
  "set $.arr = lookup(\"arr\", $procid);\n"
  "set $.sparse = lookup(\"sparse\", $procid);\n"
  "set $.missing = lookup(\"missing\", $hostname);\n"
  /* rsyslogd's variable names ignore case, and keep their first spelling */
  "set $!foo = \"z\";\n"
  "set $!bar!baz2 = \"q\";\n"
  "set $!NewVar = \"y\";\n"
  "template(name=\"legacy\" type=\"string\" string=\"[%msg:2:5%][%msg:R,ERE,1,DFLT:([0-9]+) ([a-z]+)--end%]"
  "[%msg:R,ERE,0,ZERO:zz+--end%][%msg:F,32:2%][%msg:F,44:3%][%msg:F,44:9%][%hostname:::uppercase%]"
  "[%msg:::csv%][%msg:::json%][%msg:::jsonf%][%msg:::jsonr%][%programname:::secpath-replace%]"
  "[%msg:::compressspace%][%msg:3:$%][%msg:5:2%][%msg:::sp-if-no-1st-sp%][%syslogtag:1:3:uppercase,json%]"
  "[%msg:::jsonf:mymsg%][%app-name:::lowercase,fixed-width%][%msg:1:40:fixed-width%]"
  "[%msg:3:1:pos-end-relative%][%msg:::secpath-drop%][%msg:R:a[--end%]\\n\")\n"
  "template(name=\"dates\" type=\"string\" string=\"%timereported:::date-mysql% %timereported:::date-pgsql% "
  "%timereported:::date-rfc3164% %timereported:::date-unixtimestamp% %timereported:::date-year% "
  "%timereported:::date-month% %timereported:::date-day% %timereported:::date-hour% %timereported:::date-minute% "
  "%timereported:::date-second% %timereported:::date-tzoffshour% %timereported:::date-tzoffsmin% "
  "%timereported:::date-tzoffsdirection% %timereported:::date-wday% %timereported:::date-wdayname% "
  "%timereported:::date-week% %timereported:::date-ordinal% %timereported:::date-iso-week% "
  "%timereported:::date-iso-week-year% %timereported:::date-subseconds% %timereported:::date-rfc3339%\\n\")\n"
  "template(name=\"list\" type=\"list\") {\n"
  "  property(name=\"msg\" position.from=\"2\" position.to=\"6\") constant(value=\"|\")\n"
  "  property(name=\"msg\" regex.expression=\"([0-9]+)\" regex.type=\"ERE\" regex.submatch=\"1\" "
  "regex.nomatchmode=\"BLANK\") constant(value=\"|\")\n"
  "  property(name=\"msg\" regex.expression=\"[a-z]+\" regex.match=\"1\") constant(value=\"|\")\n"
  "  property(name=\"msg\" regex.expression=\"q.*\" regex.nomatchmode=\"FIELD\") constant(value=\"|\")\n"
  "  property(name=\"msg\" field.number=\"2\" field.delimiter=\"32\") constant(value=\"|\")\n"
  "  property(name=\"msg\" caseconversion=\"upper\" compressspace=\"on\") constant(value=\"|\")\n"
  "  property(name=\"msg\" format=\"csv\") constant(value=\"|\")\n"
  "  property(name=\"msg\" position.from=\"4\" position.to=\"2\" position.relativetoend=\"on\") "
  "constant(value=\"|\")\n"
  "  property(name=\"programname\" securepath=\"drop\") constant(value=\"|\")\n"
  "  property(name=\"msg\" controlcharacters=\"escape\" droplastlf=\"on\") constant(value=\"|\")\n"
  "  property(name=\"msg\" spifno1stsp=\"on\") constant(value=\"|\")\n"
  "  property(name=\"hostname\" position.from=\"1\" position.to=\"12\" fixedwidth=\"on\") constant(value=\"|\")\n"
  "  property(name=\"timereported\" dateformat=\"ordinal\") constant(value=\"|\")\n"
  "  property(name=\"timereported\" dateformat=\"week\") constant(value=\"|\")\n"
  "  property(name=\"msg\" position.from=\"3\") constant(value=\"|\")\n"
  "  property(name=\"msg\" position.to=\"3\") constant(value=\"|\")\n"
  "  property(name=\"msg\" position.from=\"2\" position.to=\"-2\") constant(value=\"|\")\n"
  "  property(name=\"msg\" mandatory=\"on\" format=\"json\")\n"
  "  constant(value=\"\\n\")\n"
  "}\n"
  "template(name=\"gelf\" type=\"list\" option.jsonf=\"on\") {\n"
  "  constant(outname=\"version\" value=\"1.1/x\" format=\"jsonf\")\n"
  "  property(outname=\"host\" name=\"hostname\" format=\"jsonf\")\n"
  "  property(outname=\"short_message\" name=\"msg\" format=\"jsonf\")\n"
  "  property(outname=\"timestamp\" name=\"timereported\" dateformat=\"unixtimestamp\" datatype=\"number\" "
  "format=\"jsonf\")\n"
  "  property(outname=\"level\" name=\"syslogseverity\" datatype=\"number\" format=\"jsonf\")\n"
  "  property(outname=\"b\" name=\"syslogseverity\" datatype=\"bool\" format=\"jsonf\")\n"
  "  property(outname=\"auto\" name=\"procid\" datatype=\"auto\" format=\"jsonf\")\n"
  "  property(outname=\"empty\" name=\"msgid\" regex.expression=\"nothing\" regex.nomatchmode=\"BLANK\" "
  "format=\"jsonf\" onempty=\"null\")\n"
  "  property(outname=\"skipped\" name=\"msgid\" regex.expression=\"nothing\" regex.nomatchmode=\"BLANK\" "
  "format=\"jsonf\" onempty=\"skip\")\n"
  "  property(outname=\"c/d\" name=\"msg\" format=\"jsonfr\")\n"
  "}\n"
  "template(name=\"sql\" type=\"string\" string=\"insert '%msg%' '%hostname%'\\n\" option.sql=\"on\")\n"
  "template(name=\"stdsql\" type=\"string\" string=\"insert '%msg%'\\n\" option.stdsql=\"on\")\n"
  "template(name=\"json\" type=\"string\" string=\"{\\\"m\\\":\\\"%msg%\\\"}\\n\" option.json=\"on\")\n"
  "template(name=\"jsonfstr\" type=\"string\" string=\"%msg:::jsonf%%hostname:::jsonf%\" option.jsonf=\"on\")\n"
  "template(name=\"tree\" type=\"string\" string=\"%$!%|%$!all-json%|%$!all-json-plain%|%$/%|"
  "%$!k%|%$!k:::jsonf:OutName%|%$!n%|%$!n:::json%\\n\")\n"
  "template(name=\"cases\" type=\"string\" string=\"%$!%|%$!FOO%|%$!newvar%|%$!bar!baz%|%$!Bar!BAZ2%|"
  "%$!BAR:::jsonf:b%\\n\")\n"
  "template(name=\"lookups\" type=\"string\" string=\"%hostname% %procid% [%$.str%][%$.arr%][%$.sparse%]"
  "[%$.missing%]\\n\")\n"
  /* rsyslogd's own messages (facility syslog) and the probes stay out */
  "if $hostname == \"probe\" then action(type=\"omfile\" file=\"@DIR@/probe\" template=\"lookups\")\n"
  "if $syslogfacility-text == \"user\" and $hostname != \"probe\" then {\n"
  "action(type=\"omfile\" file=\"@DIR@/legacy\" template=\"legacy\")\n"
  "action(type=\"omfile\" file=\"@DIR@/dates\" template=\"dates\")\n"
  "action(type=\"omfile\" file=\"@DIR@/list\" template=\"list\")\n"
  "action(type=\"omfile\" file=\"@DIR@/gelf\" template=\"gelf\")\n"
  "action(type=\"omfile\" file=\"@DIR@/sql\" template=\"sql\")\n"
  "action(type=\"omfile\" file=\"@DIR@/stdsql\" template=\"stdsql\")\n"
  "action(type=\"omfile\" file=\"@DIR@/json\" template=\"json\")\n"
  "action(type=\"omfile\" file=\"@DIR@/jsonfstr\" template=\"jsonfstr\")\n"
  "action(type=\"omfile\" file=\"@DIR@/tree\" template=\"tree\")\n"
  "action(type=\"omfile\" file=\"@DIR@/lookups\" template=\"lookups\")\n"
  "if lookup(\"str\", $hostname) == \"two\" then action(type=\"omfile\" file=\"@DIR@/two\" template=\"lookups\")\n"
  "action(type=\"omfile\" file=\"@DIR@/cases\" template=\"cases\")\n"
  "if $!FOO == \"z\" and exists($!BaR!bAz) then action(type=\"omfile\" file=\"@DIR@/cased\" template=\"cases\")\n"
  "unset $!bAr;\n"
  "action(type=\"omfile\" file=\"@DIR@/unset\" template=\"cases\")\n"
  "}\n"
  /* mmjsonparse's types, alone in local2's message */
  "template(name=\"typed\" type=\"list\") {\n"
  "  property(name=\"$!\") constant(value=\"|\") property(name=\"$!all-json\") constant(value=\"|\")\n"
  "  property(name=\"$!all-json-plain\") constant(value=\"|\")\n"
  "  property(name=\"$!i\") constant(value=\"|\") property(name=\"$!f\") constant(value=\"|\")\n"
  "  property(name=\"$!arr\") constant(value=\"|\") property(name=\"$!o\") constant(value=\"|\")\n"
  "  property(name=\"$!t\") constant(value=\"|\") property(name=\"$!n\") constant(value=\"|\")\n"
  "  property(name=\"$!huge\") constant(value=\"|\") property(name=\"$!x\" format=\"jsonf\")\n"
  "  property(name=\"$!i\" format=\"jsonf\") property(name=\"$!arr\" format=\"jsonf\")\n"
  "  property(name=\"$!e\" format=\"jsonf\") property(name=\"$!o\" format=\"jsonf\")\n"
  "  property(name=\"$!t\" format=\"jsonf\") property(name=\"$!n\" format=\"jsonf\")\n"
  "  constant(value=\"\\n\")\n"
  "}\n"
  "if $syslogfacility-text == \"local2\" then {\n"
  "  set $!num = 2 + 3 * -4;\n"
  "  set $!lit = 7;\n"
  "  set $!cmp = $!i == 5;\n"
  "  set $!cnum = cnum($!f);\n"
  "  set $!str = \"5\";\n"
  "  set $!cat = $!i & \"1\";\n"
  "  action(type=\"omfile\" file=\"@DIR@/typed\" template=\"typed\")\n"
  "}\n";

static const gchar *const outputs[] = { "legacy", "dates", "list", "gelf", "sql", "stdsql", "json", "jsonfstr",
                                        "tree", "lookups", "two", "cases", "cased", "unset", "typed" };

static const struct
{
  const gchar *name;
  const gchar *text;
} tables[] = {
  { "str.json", "{ \"version\": 1, \"nomatch\": \"none\", \"type\": \"string\", \"table\": [ "
                "{\"index\": \"host2\", \"value\": \"two\"}, {\"index\": \"host3\", \"value\": \"three\"} ] }" },
  { "arr.json", "{ \"version\": 1, \"nomatch\": \"out\", \"type\": \"array\", \"table\": [ "
                "{\"index\": 3, \"value\": \"c\"}, {\"index\": 2, \"value\": \"b\"}, {\"index\": 4, \"value\": \"d\"} ] }" },
  { "sparse.json", "{ \"version\": 1, \"type\": \"sparseArray\", \"table\": [ {\"index\": 10, \"value\": \"ten\"}, "
                   "{\"index\": 100, \"value\": \"hundred\"} ] }" },
};

/* text is the rest of an RFC 3164 line after its stamp */
static const struct
{
  gint days_ago;
  const gchar *time;
  const gchar *rest;
} messages[] = {
  { 3, "04:05:06", "host2 tag[3]: text,with,commas  and 1234 zzz" },
  { 10, "00:00:01", "host3 prog[50]: x" },
  { 2, "23:59:59", "host4 ..[200]: back\\slash \"quoted\" a/b end" },
  { 4, "12:00:00", "host5 app[12x]: hello  world 42 \"quoted\" a/b" },
  { 1, "08:30:00", "host6 app: @cee:{\"k\":\"v\",\"n\":{\"m\":\"w/x\"}}" },
  { 5, "01:02:03", "host7 app[9]: 'single' quotes \\ and \"double\"" },
  { 6, "09:10:11", "host8 app: @cee:{\"Foo\":\"x\",\"BAR\":{\"Baz\":\"1\"}}" },
};

/* local2 (<149>): JSON of every type, as the typed template writes it,
 * and set's numbers and strings after it */
static const gchar typed_rest[] =
  "host9 app: @cee:{\"i\":5,\"neg\":-42,\"big\":9223372036854775807,\"huge\":99999999999999999999,"
  "\"nbig\":-99999999999999999999,\"f\":1.5,\"f2\":0.1,\"e\":1e10,\"e2\":2.5E-3,\"f3\":100.0,\"f5\":-0.0,"
  "\"t\":true,\"fa\":false,\"n\":null,\"arr\":[1,\"a\",true,null,2.5,-7,{\"k\":\"v w\",\"m\":[]},[],{}],"
  "\"o\":{\"x\":1,\"y\":{\"z\":\"w\"}},\"eo\":{},\"ea\":[],\"x\":\"h\\u00e9\\u2603 \xc3\xa9/\\\"\\t\"}";

static gchar *
stamped (gint pri, gint days_ago, const gchar *time, const gchar *rest)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr (GDateTime) day = g_date_time_add_days (now, -days_ago);
  /* GLib's %e pads with a figure space: the day is padded here */
  g_autofree gchar *month = g_date_time_format (day, "%b");

  return g_strdup_printf ("<%d>%s %2d %s %s", pri, month, g_date_time_get_day_of_month (day), time, rest);
}

static gchar *
message (guint i)
{
  return stamped (13, messages[i].days_ago, messages[i].time, messages[i].rest);
}

static gboolean
write_tables (const gchar *dir, const gchar *str)
{
  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    {
      g_autofree gchar *path = g_build_filename (dir, tables[i].name, NULL);
      if (!g_file_set_contents (path, i == 0 && str ? str : tables[i].text, -1, NULL))
        return FALSE;
    }
  return TRUE;
}

static gchar *
daemon_config (const gchar *dir, guint16 port)
{
  GString *text = g_string_new (config);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);

  g_string_replace (text, "@DIR@", dir, 0);
  g_string_replace (text, "@PORT@", port_text, 0);
  return g_string_free (text, FALSE);
}

static void
assert_same (SlTestEnv *env, const gchar *rs_dir, const gchar *sl_dir, const gchar *name, guint lines)
{
  g_autofree gchar *rs_path = g_build_filename (rs_dir, name, NULL);
  g_autofree gchar *sl_path = g_build_filename (sl_dir, name, NULL);

  sl_test_wait_lines (env, rs_path, lines);
  sl_test_wait_lines (env, sl_path, lines);
  g_autofree gchar *expected = sl_test_read_file (rs_path);
  g_autofree gchar *got = sl_test_read_file (sl_path);
  g_test_message ("%s:\n%s", name, expected);
  g_assert_nonnull (expected);
  g_assert_cmpstr (got, ==, expected);
}

/* Sends probes until the daemon's input writes one: both are listening */
static gboolean
wait_input (SlTestEnv *env, const gchar *dir, guint16 port)
{
  g_autofree gchar *probe = g_build_filename (dir, "probe", NULL);

  for (gint tries = 0; tries < 100; tries++)
    {
      if (g_file_test (probe, G_FILE_TEST_EXISTS))
        return TRUE;
      sl_test_udp_send (port, "<13>Dec  1 10:00:00 probe x: y");
      g_usleep (100 * 1000);
    }
  (void) env;
  return FALSE;
}

static gchar *
last_line (const gchar *path)
{
  g_auto (GStrv) lines = sl_test_read_lines (path);
  guint n = lines ? g_strv_length (lines) : 0;

  while (n > 0 && !*lines[n - 1])
    n--;
  return n ? g_strdup (lines[n - 1]) : NULL;
}

/* After both reloaded, the changed table's value for host2: rsyslogd
 * re-reads its tables on a thread of its own, so it gets the message
 * until it answers with the new value. */
static void
check_reload (SlTestEnv *env, GPid rs, const gchar *rs_dir, const gchar *sl_dir, guint16 rs_port, guint16 sl_port)
{
  const gchar *changed = "{ \"version\": 1, \"nomatch\": \"none\", \"type\": \"string\", \"table\": [ "
                         "{\"index\": \"host2\", \"value\": \"two-reloaded\"} ] }";
  g_autofree gchar *rs_lookups = g_build_filename (rs_dir, "lookups", NULL);
  g_autofree gchar *sl_lookups = g_build_filename (sl_dir, "lookups", NULL);
  g_autofree gchar *text = message (0);
  g_autofree gchar *rs_last = NULL;

  g_assert_true (write_tables (rs_dir, changed) && write_tables (sl_dir, changed));
  kill (rs, SIGHUP);
  kill (env->pid, SIGHUP);
  g_assert_true (sl_test_wait_stderr (env, "configuration reloaded"));
    for (gint tries = 0; tries < 50; tries++)
    {
      guint lines = sl_test_count_lines (rs_lookups);
      sl_test_udp_send (rs_port, text);
      sl_test_wait_lines (env, rs_lookups, lines + 1);
      g_free (rs_last);
      rs_last = last_line (rs_lookups);
      if (rs_last && strstr (rs_last, "two-reloaded"))
        break;
      g_usleep (100 * 1000);
    }
  guint lines = sl_test_count_lines (sl_lookups);
  sl_test_udp_send (sl_port, text);
  sl_test_wait_lines (env, sl_lookups, lines + 1);
  g_autofree gchar *sl_last = last_line (sl_lookups);
  g_test_message ("after the reload: %s", rs_last);
  g_assert_nonnull (strstr (rs_last ? rs_last : "", "two-reloaded"));
  g_assert_cmpstr (sl_last, ==, rs_last);
}

static void
test_props (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  g_autofree gchar *sl_dir = sl_test_path (env, "sluiced");
  g_assert_cmpint (g_mkdir_with_parents (rs_dir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (sl_dir, 0755), ==, 0);
  g_assert_true (write_tables (rs_dir, NULL) && write_tables (sl_dir, NULL));
  guint16 rs_port = sl_test_free_port (SOCK_DGRAM);
  guint16 sl_port = sl_test_free_port (SOCK_DGRAM);
  while (sl_port == rs_port)
    sl_port = sl_test_free_port (SOCK_DGRAM);

  g_autofree gchar *rs_text = daemon_config (rs_dir, rs_port);
  g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  g_assert_true (g_file_set_contents (rs_conf, rs_text, -1, NULL));
  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);

  g_autofree gchar *sl_text = daemon_config (sl_dir, sl_port);
  g_assert_true (g_file_set_contents (env->config, sl_text, -1, NULL));
  if (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL) && wait_input (env, rs_dir, rs_port)
      && wait_input (env, sl_dir, sl_port))
    {
      for (guint i = 0; i < G_N_ELEMENTS (messages); i++)
        {
          g_autofree gchar *text = message (i);
          sl_test_udp_send (rs_port, text);
          sl_test_udp_send (sl_port, text);
        }
      g_autofree gchar *typed = stamped (149, 1, "07:00:00", typed_rest);
      sl_test_udp_send (rs_port, typed);
      sl_test_udp_send (sl_port, typed);
      for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
        {
          gboolean one = g_str_equal (outputs[i], "two") || g_str_equal (outputs[i], "cased")
                         || g_str_equal (outputs[i], "typed");
          assert_same (env, rs_dir, sl_dir, outputs[i], one ? 1 : G_N_ELEMENTS (messages));
        }
      check_reload (env, rs, rs_dir, sl_dir, rs_port, sl_port);
    }
  else
    g_test_fail_printf ("a daemon did not start or take messages");
  kill (rs, SIGTERM);
  sl_test_child_wait (rs, 10 * G_USEC_PER_SEC);
  if (env->pid)
    sl_test_daemon_stop (env, SIGTERM);
}

/* What is refused, with the place in the rsyslog file: through
 * @include-rsyslog, so that sl_test_refused_config() checks it */
static void
test_refused (SlTestEnv *env, gconstpointer data)
{
  static const struct
  {
    const gchar *rsyslog;
    const gchar *needle;
  } cases[] = {
    { "$template t,\"%timestamp:::date-utc%\"\n", "rs.conf:1:1: the rsyslog property option 'date-utc' is not supported" },
    { "template(name=\"t\" type=\"list\") {\n  property(name=\"msg\" date.inUTC=\"on\")\n}\n",
      "rs.conf:2:23: rsyslog's date.inUTC is not supported" },
    { "template(name=\"t\" type=\"list\") {\n  property(name=\"msg\" position.from=\"9\" position.to=\"3\")\n}\n",
      "rs.conf:2:3: rsyslog's position.to=3 is lower than position.from=9" },
    { "template(name=\"t\" type=\"list\") {\n  property(name=\"msg\" field.number=\"2\" regex.expression=\"x\")\n}\n",
      "rs.conf:2:3: rsyslog's property() takes field.number or regex.expression, not both" },
    { "template(name=\"t\" type=\"list\") {\n  property(name=\"msg\" controlcharacters=\"keep\")\n}\n",
      "rs.conf:2:23: 'keep' is not a value of rsyslog's property controlcharacters=" },
    { "$template t,\"%msg:R,XRE:x--end%\"\n", "rs.conf:1:1: the rsyslog property msg has characters after its R," },
    { "$template t,\"%msg:R:x%\"\n", "rs.conf:1:1: the regular expression of the rsyslog property msg does not end" },
    { "lookup_table(name=\"t\" file=\"/nonexistent.json\")\nreload_lookup_table(\"t\")\n",
      "rs.conf:2:1: the RainerScript statement 'reload_lookup_table' is not supported" },
    { "set $.x = lookup(\"nosuch\", $msg);\n", "rs.conf:1:11: there is no rsyslog lookup_table() named 'nosuch'" },
  };
  (void) data;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree gchar *path = sl_test_path (env, "rs.conf");
      g_assert_true (g_file_set_contents (path, cases[i].rsyslog, -1, NULL));
      g_autofree gchar *err = sl_test_refused_config (env, "@version: 4.0\n@include-rsyslog \"rs.conf\"\n", NULL);
      g_test_message ("%s", err);
      g_assert_nonnull (err);
      g_assert_nonnull (strstr (err, cases[i].needle));
    }
}

int
main (int argc, char **argv)
{
  g_setenv ("TZ", "UTC", TRUE);
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/rsyslog-props/both", test_props);
  SL_TEST_ADD ("/rsyslog-props/refused", test_refused);
  return g_test_run ();
}
