/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's mmnormalize, mmutf8fix, mmanon and mmfields: one configuration
 * run by rsyslogd 8.2302 and by sluiced --config-format rsyslog, the same
 * messages sent to both over TCP, each output file compared byte for byte
 * (random-consistent's by its shape and its consistency); and what the
 * front end refuses, with its place. */
#include "tests/functional/harness.h"

#include <signal.h>
#include <sys/socket.h>
#include <string.h>
#include <unistd.h>

/* a rulebase in liblognorm's version 2 format: tags, a number kept as a
 * number, nested JSON, a name-value list merged into the root; the whole
 * $! tree keeps liblognorm's member order and types, and the tags' name,
 * event.tags, as one member */
static const gchar rulebase[] =
  "version=2\n"
  "rule=login,auth: user %user:word% logged in from %ip:ipv4% port %port:number%\n"
  "rule=disk: disk %dev:word% at %pct:number{\"format\":\"number\"}% percent full\n"
  "rule=: event %data:json%\n"
  "rule=: pairs %.:name-value-list%\n"
  "rule=: load %n:number{\"format\":\"number\"}% on %cpu:word% %rest:json%\n";

/* the legacy directives' rulebase (rsyslogd's rawmsg of a message received
 * over the network holds the host name, which the front end's does not:
 * useRawMsg is off) */
static const gchar raw_rulebase[] = "version=2\nrule=: %pri:word% %rest:rest%\n";

static const gchar config[] =
  "module(load=\"imtcp\")\n"
  "module(load=\"mmnormalize\")\n"
  "module(load=\"mmutf8fix\")\n"
  "module(load=\"mmanon\")\n"
  "module(load=\"mmfields\")\n"
  "input(type=\"imtcp\" port=\"@PORT@\" ruleset=\"r\")\n"
  "$mmnormalizeUseRawMsg off\n"
  "$mmnormalizeRuleBase @DIR@/raw.rb\n"
  "template(name=\"norm\" type=\"string\" string=\"%msg%|%$!user%|%$!ip%|%$!port%|%$!pct%|%$!event.tags%|"
  "%$!unparsed-data%|%$!originalmsg%|%$!data%|%$!data!z!a%|%$!data!s:::json%|%$!k%|%$!event.tags:::json%|"
  "%$!data:::json%\\n\")\n"
  "template(name=\"inline\" type=\"string\" string=\"%$!n!who%|%$!n!event.tags%|%$!n!unparsed-data%|%$!n%\\n\")\n"
  "template(name=\"legacy\" type=\"string\" string=\"%$!pri%|%$!rest%|%$!unparsed-data%\\n\")\n"
  "template(name=\"msg\" type=\"string\" string=\"%msg%\\n\")\n"
  "template(name=\"tree\" type=\"string\" string=\"%$!%\\n\")\n"
  "template(name=\"fields\" type=\"string\" string=\"%$!f1%|%$!f2%|%$!f3%|%$!f4%|%$!f5%\\n\")\n"
  "template(name=\"rooted\" type=\"string\" string=\"%$!x!f1%|%$!x!f2%|%$!x!f3%|%$!f1%|%$!x%\\n\")\n"
  "ruleset(name=\"r\") {\n"
  "  if $programname == 'norm' then {\n"
  "    action(type=\"mmnormalize\" ruleBase=\"@DIR@/rules.rb\")\n"
  "    action(type=\"omfile\" file=\"@DIR@/norm\" template=\"norm\")\n"
  "    stop\n"
  "  }\n"
  "  if $programname == 'typed' then {\n"
  "    action(type=\"mmnormalize\" ruleBase=\"@DIR@/rules.rb\")\n"
  "    action(type=\"omfile\" file=\"@DIR@/typed\" template=\"tree\")\n"
  "    stop\n"
  "  }\n"
  "  if $programname == 'inline' then {\n"
  "    action(type=\"mmnormalize\" path=\"$!n\" useRawMsg=\"off\"\n"
  "           rule=[\"rule=greet: hello %who:word%\", \"rule=: bye, %who:rest%\"])\n"
  "    action(type=\"omfile\" file=\"@DIR@/inline\" template=\"inline\")\n"
  "    stop\n"
  "  }\n"
  "  if $programname == 'legacy' then {\n"
  "    *.* :mmnormalize:\n"
  "    action(type=\"omfile\" file=\"@DIR@/legacy\" template=\"legacy\")\n"
  "    stop\n"
  "  }\n"
  "  if $programname == 'utf8' then {\n"
  "    action(type=\"mmutf8fix\")\n"
  "    action(type=\"omfile\" file=\"@DIR@/utf8\" template=\"msg\")\n"
  "    stop\n"
  "  }\n"
  "  if $programname == 'cc' then {\n"
  "    action(type=\"mmutf8fix\" mode=\"controlcharacters\" replacementChar=\"?\")\n"
  "    action(type=\"omfile\" file=\"@DIR@/cc\" template=\"msg\")\n"
  "    stop\n"
  "  }\n"
  "  if $programname == 'anon' then {\n"
  "    action(type=\"mmanon\")\n"
  "    action(type=\"omfile\" file=\"@DIR@/anon\" template=\"msg\")\n"
  "    stop\n"
  "  }\n"
  "  if $programname == 'anon12' then {\n"
  "    action(type=\"mmanon\" ipv4.bits=\"12\" ipv6.bits=\"20\" embeddedIpv4.bits=\"1\")\n"
  "    action(type=\"omfile\" file=\"@DIR@/anon12\" template=\"msg\")\n"
  "    stop\n"
  "  }\n"
  "  if $programname == 'simple' then {\n"
  "    action(type=\"mmanon\" ipv4.mode=\"simple\" ipv4.bits=\"24\" ipv4.replaceChar=\"*\" ipv6.enable=\"off\"\n"
  "           embeddedipv4.enable=\"off\")\n"
  "    action(type=\"omfile\" file=\"@DIR@/simple\" template=\"msg\")\n"
  "    stop\n"
  "  }\n"
  "  if $programname == 'consistent' then {\n"
  "    action(type=\"mmanon\" ipv4.mode=\"random-consistent\" ipv6.enable=\"off\" embeddedipv4.enable=\"off\")\n"
  "    action(type=\"omfile\" file=\"@DIR@/consistent\" template=\"msg\")\n"
  "    stop\n"
  "  }\n"
  "  if $programname == 'fields' then {\n"
  "    action(type=\"mmfields\")\n"
  "    action(type=\"omfile\" file=\"@DIR@/fields\" template=\"fields\")\n"
  "    stop\n"
  "  }\n"
  "  if $programname == 'rooted' then {\n"
  "    action(type=\"mmfields\" separator=\";\" jsonRoot=\"!x\")\n"
  "    action(type=\"omfile\" file=\"@DIR@/rooted\" template=\"rooted\")\n"
  "  }\n"
  "}\n";

#define HEAD "<13>Dec  1 10:00:00 host "

static const struct
{
  const gchar *file;
  const gchar *const messages[8];
} sent[] = {
  { "norm", { HEAD "norm: user bob logged in from 10.1.2.3 port 22", HEAD "norm: disk sda at 95 percent full",
              HEAD "norm: event {\"x\": 1, \"y\": [1,2], \"z\": {\"a\": \"b\"}, \"s\": \"q\\\"t/\", \"f\": 1.5}",
              HEAD "norm: pairs k=v k2=v2", HEAD "norm: nothing matches this" } },
  { "typed", { HEAD "typed: load 7 on cpu0 {\"a\":[true,null,1.5],\"b\":{},\"c\":-3,\"d\":null}",
               HEAD "typed: event {\"x\": 2.50, \"t\": false, \"o\": {\"n\": 1}}", HEAD "typed: pairs a=1 b=x",
               HEAD "typed: user bob logged in from 10.1.2.3 port 22",
               HEAD "typed: event {\"a.b\": 1, \"a\": {\"c/d\": \"x\"}, \"e\\\\f\": 2}" } },
  { "inline", { HEAD "inline: hello world", HEAD "inline: bye, all of you", HEAD "inline: neither" } },
  { "legacy", { HEAD "legacy: raw text", HEAD "legacy: single" } },
  { "utf8", { HEAD "utf8: ok caf\xc3\xa9 a\xc3(b end\xe2\x82",
              HEAD "utf8: over \xc0\xaf sur \xed\xa0\x80 big \xf4\x90\x80\x80 lone \x80 ff \xff x",
              HEAD "utf8: euro \xe2\x82\xac cut \xe2\x82\xe2\x82\xac emoji \xf0\x9f\x98\x80 \xf0\x9f\x98" } },
  { "cc", { HEAD "cc: tab\there bell\x07 del\x7f e\xe2\x82\xac caf\xc3\xa9 ~" } },
  { "anon", { HEAD "anon: from 10.1.2.3 and 192.168.100.200, 1.2.3.4.5 256.1.1.1 x1.2.3.4 01.02.03.04",
              HEAD "anon: 1.2.3 300.300.300.300 9.9.9.9a 1.2.3.4:80 1.2.3.256 999.1.1.1 12.1.1.1.1.1.1",
              HEAD "anon: 1.2.3.0444 0001.2.3.4 [5.6.7.8] 0.0.0.0 255.255.255.255",
              HEAD "anon: 2001:db8::1 fe80::1:2:3:4 ::ffff:10.1.2.3 1:2:3:4:5:6:7:8 A:B:C:D:E:F:1:2 ::1 :: fe80::",
              HEAD "anon: 12:30:45 00:11:22:33:44:55 1:2:3:4:5:6:7:8:9 12345::1 1::2::3 1:2:3:4:5:6:7::8 :::1 1:::2",
              HEAD "anon: [2001:db8::5]:80 2001:db8::1.2.3.4 1:2:3:4:5:6:1.2.3.4 1:2:3:4:5:1.2.3.4 ffff::10.1.2.3.4" } },
  { "anon12", { HEAD "anon12: 10.1.255.3 111.222.123.234 1.2.3.4",
                HEAD "anon12: ::ffff:10.1.2.3 1::2:3:1.2.3.4 a::b:c:d:1.2.3.4 2001:db8:1:2:3:4:5:ffff 1::2:3" } },
  { "simple", { HEAD "simple: 1.2.3.4 111.222.123.234 01.02.03.04" } },
  { "fields", { HEAD "fields: a,b,,c d", HEAD "fields: none", HEAD "fields: ,x," } },
  { "rooted", { HEAD "rooted: a;b", HEAD "rooted: ;x;", HEAD "rooted: q\"t\\b/s;\tx" } },
};

static const gchar *const consistent[] = { HEAD "consistent: 10.20.30.40 and 10.20.30.40",
                                           HEAD "consistent: 10.20.30.40 then 172.16.5.4" };

static gchar *
filled (const gchar *text, const gchar *dir, guint16 port)
{
  GString *out = g_string_new (text);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);

  g_string_replace (out, "@DIR@", dir, 0);
  g_string_replace (out, "@PORT@", port_text, 0);
  return g_string_free (out, FALSE);
}

static void
send_all (guint16 port)
{
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (sent); i++)
    for (guint m = 0; sent[i].messages[m]; m++)
      g_string_append_printf (text, "%s\n", sent[i].messages[m]);
  for (guint i = 0; i < G_N_ELEMENTS (consistent); i++)
    g_string_append_printf (text, "%s\n", consistent[i]);
  g_assert_true (sl_test_tcp_send (port, text->str));
}

static gboolean
wait_all (SlTestEnv *env, const gchar *dir)
{
  for (guint i = 0; i < G_N_ELEMENTS (sent); i++)
    {
      g_autofree gchar *path = g_build_filename (dir, sent[i].file, NULL);
      guint n = 0;
      while (sent[i].messages[n])
        n++;
      if (!sl_test_wait_lines (env, path, n))
        return FALSE;
    }
  g_autofree gchar *path = g_build_filename (dir, "consistent", NULL);
  return sl_test_wait_lines (env, path, G_N_ELEMENTS (consistent));
}

/* random-consistent keeps the first 16 bits and gives 10.20.30.40 one
 * replacement in a run */
static void
assert_consistent (const gchar *dir)
{
  g_autofree gchar *path = g_build_filename (dir, "consistent", NULL);
  g_auto (GStrv) lines = sl_test_read_lines (path);
  g_autoptr (GRegex) shape = g_regex_new ("^ (10\\.20\\.\\d+\\.\\d+) and (10\\.20\\.\\d+\\.\\d+)$", 0, 0, NULL);
  g_autoptr (GRegex) then = g_regex_new ("^ (10\\.20\\.\\d+\\.\\d+) then 172\\.16\\.\\d+\\.\\d+$", 0, 0, NULL);
  g_autoptr (GMatchInfo) first = NULL;
  g_autoptr (GMatchInfo) second = NULL;

  g_assert_nonnull (lines);
  g_assert_cmpuint (g_strv_length (lines), >=, 2);
  g_assert_true (g_regex_match (shape, lines[0], 0, &first));
  g_assert_true (g_regex_match (then, lines[1], 0, &second));
  g_autofree gchar *a = g_match_info_fetch (first, 1);
  g_autofree gchar *b = g_match_info_fetch (first, 2);
  g_autofree gchar *c = g_match_info_fetch (second, 1);
  g_assert_cmpstr (a, ==, b);
  g_assert_cmpstr (a, ==, c);
}

static void
test_side_by_side (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  g_assert_cmpint (g_mkdir_with_parents (rs_dir, 0700), ==, 0);
  const gchar *dirs[] = { rs_dir, env->dir };
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree gchar *rules = g_build_filename (dirs[i], "rules.rb", NULL);
      g_assert_true (g_file_set_contents (rules, rulebase, -1, NULL));
      g_autofree gchar *raw = g_build_filename (dirs[i], "raw.rb", NULL);
      g_assert_true (g_file_set_contents (raw, raw_rulebase, -1, NULL));
    }
  guint16 rs_port = sl_test_free_port (SOCK_STREAM);
  guint16 sl_port;
  while ((sl_port = sl_test_free_port (SOCK_STREAM)) == rs_port)
    ;
  g_autofree gchar *rs_text = filled (config, rs_dir, rs_port);
  g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  g_assert_true (g_file_set_contents (rs_conf, rs_text, -1, NULL));
  g_autofree gchar *port_text = g_strdup_printf ("%u", sl_port);
  g_assert_true (sl_test_write_config (env, config, "PORT", port_text, NULL));

  g_autofree gchar *rs_err = g_build_filename (rs_dir, "rsyslogd.stderr", NULL);
  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);
  g_assert_true (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL));
  g_assert_true (sl_test_wait_port (rs_port));
  send_all (rs_port);
  send_all (sl_port);
  gboolean rs_done = wait_all (env, rs_dir);
  gboolean sl_done = wait_all (env, env->dir);
  sl_test_daemon_stop (env, SIGTERM);
  kill (rs, SIGTERM);
  sl_test_child_wait (rs, 10 * G_USEC_PER_SEC);
  g_autofree gchar *rs_stderr = sl_test_read_file (rs_err);
  g_test_message ("rsyslogd: %s", rs_stderr ? rs_stderr : "");
  g_assert_true (rs_done);
  g_assert_true (sl_done);

  for (guint i = 0; i < G_N_ELEMENTS (sent); i++)
    {
  g_autofree gchar *rs_path = g_build_filename (rs_dir, sent[i].file, NULL);
      g_autofree gchar *sl_path = g_build_filename (env->dir, sent[i].file, NULL);
      g_autofree gchar *rs_got = sl_test_read_file (rs_path);
      g_autofree gchar *sl_got = sl_test_read_file (sl_path);
      g_test_message ("%s", sent[i].file);
      g_assert_cmpstr (sl_got, ==, rs_got);
    }
  assert_consistent (rs_dir);
  assert_consistent (env->dir);
}

/* What the front end cannot do is refused at its place, with why; an
 * input and an action after the modifier put it on a path, where its
 * parser is made. */
#define OUT "action(type=\"omfile\" file=\"@DIR@/out\")\ninput(type=\"imuxsock\" Socket=\"@DIR@/in\")\n"

static void
test_refused (SlTestEnv *env, gconstpointer data)
{
  static const struct
  {
    const gchar *config;
    const gchar *needle;
  } cases[] = {
    { "module(load=\"mmnormalize\")\naction(type=\"mmnormalize\" ruleBase=\"@DIR@/none.rb\")\n" OUT,
      "sluice.conf:2:1: the rulebase '" },
    { "module(load=\"mmnormalize\")\naction(type=\"mmnormalize\" rule=[\"rule=:%a:nosuchtype%\"])\n" OUT,
      "sluice.conf:2:1: liblognorm refused the rulebase: " },
    { "module(load=\"mmnormalize\")\naction(type=\"mmnormalize\" ruleBase=\"/x\" rule=[\"rule=:%a:word%\"])\n" OUT,
      "sluice.conf:2:1: rsyslog's mmnormalize needs ruleBase= or rule=, and only one of them" },
    { "module(load=\"mmnormalize\")\naction(type=\"mmnormalize\" rule=[\"rule=:%a:word%\"] path=\"x\")\n" OUT,
      "sluice.conf:2:51: the parameter 'path' of rsyslog's mmnormalize is not supported: it takes a variable" },
    { "module(load=\"mmnormalize\" allowRegex=\"on\")\n",
      "sluice.conf:1:27: the parameter 'allowregex' of rsyslog's module mmnormalize is not supported" },
    { "module(load=\"mmutf8fix\")\naction(type=\"mmutf8fix\" mode=\"latin1\")\n" OUT,
      "sluice.conf:2:25: the parameter 'mode' of rsyslog's mmutf8fix is not supported: it is utf-8 or controlcharacters" },
    { "module(load=\"mmanon\")\naction(type=\"mmanon\" ipv6.anonMode=\"simple\")\n" OUT,
      "sluice.conf:2:22: the parameter 'ipv6.anonmode' of rsyslog's mmanon is not supported: it is zero, random" },
    { "module(load=\"mmanon\")\naction(type=\"mmanon\" ipv6.bits=\"129\")\n" OUT, "sluice.conf:2:1: " },
    { "module(load=\"mmfields\")\naction(type=\"mmfields\" separator=\";;\")\n" OUT,
      "sluice.conf:2:1: separator() takes one character" },
    { "module(load=\"mmfields\")\naction(type=\"mmfields\" nosuch=\"x\")\n" OUT,
      "sluice.conf:2:24: the parameter 'nosuch' of rsyslog's mmfields is not supported" },
    { "action(type=\"mmfields\")\n", "sluice.conf:1:1: rsyslog's action type 'mmfields' needs its module loaded first" },
    { "$ModLoad mmnormalize\n$mmnormalizeRuleBase @DIR@/none.rb\n*.* :mmnormalize:\n*.* :mmnormalize:\n" OUT,
      "sluice.conf:4:5: rsyslog's :mmnormalize: needs $mmnormalizeRuleBase before it" },
    { "$mmnormalizeRuleBase /x.rb\n", "sluice.conf:1:1: $mmnormalizeRuleBase needs $ModLoad mmnormalize before it" },
    { "module(load=\"mmanon\")\naction(type=\"mmanon\" queue.type=\"LinkedList\")\n" OUT,
      "sluice.conf:2:22: the parameter 'queue.type' of rsyslog's mmanon is not supported: a queue of its own" },
  };
  (void) data;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree gchar *err = NULL;
      g_assert_true (sl_test_write_config (env, cases[i].config, NULL));
      /* the modules plugins serve are those of the build */
      g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "--config-format", "rsyslog", "-f",
                                          env->config, "--module-path", sl_test_module_path (), NULL), !=, 0);
      g_test_message ("%s", err);
      g_assert_nonnull (strstr (err, cases[i].needle));
    }
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/rsyslog-modifiers/side-by-side", test_side_by_side);
  SL_TEST_ADD ("/rsyslog-modifiers/refused", test_refused);
  return g_test_run ();
}
