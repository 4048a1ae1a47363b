/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RainerScript's functions, operators and variables, beside the real
 * rsyslogd 8.2302: one configuration sets a local variable to each
 * expression and writes it with an action of its own, tests conditions,
 * variables, parse_json() and foreach; rsyslogd and sluiced get the same
 * messages (edge cases: an empty message, numbers with text, JSON, broken
 * JSON, arrays empty, nested and not arrays) and every file they write
 * must be the same, byte for byte. The
 * forms sluiced refuses are refused with their place. */
#include "tests/functional/harness.h"

#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Each local variable $.NAME set to its expression, written by itself */
static const struct
{
  const gchar *name;
  const gchar *expr;
} values[] = {
  { "substring1", "substring($msg, 1, 5)" },
  { "substring2", "substring($msg, 3, -2)" },
  { "substring3", "substring($msg, 100, 2)" },
  { "substring4", "substring($msg, 0, 0)" },
  { "field1", "field($msg, \",\", 2)" },
  { "field2", "field($msg, 32, 3)" },
  { "field3", "field($msg, \",\", 9)" },
  { "field4", "field($msg, \"=\", 2)" },
  { "field5", "field($msg, \", \", 0)" },
  { "reextract1", "re_extract($msg, \"([a-z0-9]+)=([a-z0-9]+)\", 1, 2, \"none\")" },
  { "reextract2", "re_extract($msg, \"[0-9]+\", 0, 0, \"nonum\")" },
  { "reextract3", "re_extract_i($msg, \"(HELLO|KEY)\", 0, 1, \"\")" },
  { "rematch1", "re_match($msg, \"^ [0-9]+\\$\")" },
  { "rematch2", "re_match_i($msg, 'HELLO')" },
  { "replace1", "replace($msg, \"o\", \"0\")" },
  { "replace2", "replace($msg, \" \", \"\")" },
  { "lower", "tolower($msg)" },
  { "strlen", "strlen($msg)" },
  { "cnum1", "cnum($msg)" },
  { "cnum2", "cnum($!n)" },
  { "cstr", "cstr(5 + 3)" },
  { "getenv", "getenv(\"SL_SCRIPT_ENV\") & \"|\" & getenv(\"SL_SCRIPT_UNSET\")" },
  { "formattime1", "format_time(1700000000, \"date-rfc3164\")" },
  { "formattime2", "format_time($msg, \"date-rfc3339\")" },
  { "ltrim", "\"[\" & ltrim($msg) & \"]\"" },
  { "rtrim", "\"[\" & rtrim($msg) & \"]\"" },
  { "num2ipv4", "num2ipv4(cnum($msg)) & \"|\" & num2ipv4(167772161) & \"|\" & num2ipv4($msg)" },
  { "ipv42num", "ipv42num($!s) & \"|\" & ipv42num($msg)" },
  { "int2hex", "int2hex(cnum($msg)) & \"|\" & int2hex($msg)" },
  { "istime", "is_time($msg) & is_time(\"Dec  1 10:00:00\") & is_time(\"2023-11-14T22:13:20Z\", \"date-rfc3339\")"
              " & is_time(\"1700000000\", \"date-rfc3164\")" },
  { "parsetime", "parse_time(\"2023-11-14T22:13:20Z\") & \"|\" & parse_time($msg)" },
  { "random", "random(10) < 10" },
  { "exectemplate", "exec_template(\"plain\")" },
  { "prifilt", "prifilt(\"user.notice\") & prifilt(\"mail.*\")" },
  { "arith1", "$!n + 2" },
  { "arith2", "cnum($msg) * 3 - 1" },
  /* & is at the level of + and -: this is ("0|1|..." & 2) + 12, then & "|" & 20 */
  { "arith3", "7 / 0 & \"|\" & 7 % 3 & \"|\" & -cnum($msg) & \"|\" & 2 + 3 * 4 & \"|\" & (2 + 3) * 4" },
  { "arith4", "\"a\" & 1 + 2" },
  { "arith5", "$msg + 1" },
  { "arith6", "(7 / 2) & \"|\" & (-7 / 2) & \"|\" & (-7 % 3) & \"|\" & 1 - 2 - 3" },
  { "cmp1", "$msg == 42" },
  { "cmp2", "cnum($msg) == 42" },
  { "cmp3", "(\"05\" == 5) & (\"05\" == \"5\") & ($msg < \"m\") & (\"10\" < \"9\") & (3 <= 3) & ($msg != \"\")" },
  { "cmp4", "not $msg == \"x\"" },
  { "cmp5", "($msg contains \"o\") & ($msg contains_i \"HELLO\") & ($msg startswith \" h\") & ($msg startswith_i \" H\")" },
  { "cmp6", "$msg contains $!a!b" },
  { "cmp7", "($msg == [\" 42\", \" x\"]) & ($msg != [\" 42\", \" x\"]) & (strlen($msg) > 5 == 1)" },
  { "bool1", "($msg and 1) & (1 or 0 and 0) & (not 0) & (not \"abc\")" },
  { "empty", "\"\"" },
  { "exists", "exists($!a) & exists($!a!b) & exists($!nothing) & exists($.empty) & exists($.nothing)" },
};

/* Statements after the values, each action writing its own file */
static const gchar *const statements =
  "set $!a!c = \"new\";\n"
  "set $.x = $!a!b & \"-\";\n"
  "set $.a!b = \"local\";\n"
  "reset $.y = 5;\n"
  "set $.y = $.y * 2;\n"
  "action(type=\"omfile\" file=\"@DIR@/out/vars1\" template=\"vars\")\n"
  "unset $!a;\n"
  "unset $.x;\n"
  "action(type=\"omfile\" file=\"@DIR@/out/vars2\" template=\"vars\")\n"
  "if cnum($msg) > 40 then action(type=\"omfile\" file=\"@DIR@/out/if1\" template=\"m\")\n"
  "if $msg contains \"o\" and not $msg startswith \" h\" then action(type=\"omfile\" file=\"@DIR@/out/if2\" template=\"m\")\n"
  "if 1 or 0 and 0 then action(type=\"omfile\" file=\"@DIR@/out/if3\" template=\"m\")\n"
  "if $msg then action(type=\"omfile\" file=\"@DIR@/out/if4\" template=\"m\")\n"
  "if not $msg then action(type=\"omfile\" file=\"@DIR@/out/if5\" template=\"m\")\n"
  "if prifilt(\"user.notice\") and $!n == 5 then action(type=\"omfile\" file=\"@DIR@/out/if6\" template=\"m\")\n"
  "if $.y >= 10 and strlen($msg) < 10 then action(type=\"omfile\" file=\"@DIR@/out/if7\" template=\"m\")\n"
  "if re_match($msg, \"[0-9]\") or $msg contains_i \"PAD\" then action(type=\"omfile\" file=\"@DIR@/out/if8\" template=\"m\")\n"
  "if $msg == [\"\", \" 42\", \" nothing\"] then action(type=\"omfile\" file=\"@DIR@/out/if9\" template=\"m\")\n"
  "if $msg startswith_i \" H\" then action(type=\"omfile\" file=\"@DIR@/out/if10\" template=\"m\")\n"
  "if cnum($msg) % 2 == 1 or -cnum($msg) > 0 then action(type=\"omfile\" file=\"@DIR@/out/if11\" template=\"m\")\n"
  "set $.ret = parse_json($msg, '$!');\n"
  "set $.r4 = parse_json($msg, \"\\$!val\");\n"
  "set $.r2 = parse_json('{\"k\": \"v w\", \"a\": {\"b\": 7}}', '$!sub');\n"
  "set $.r3 = parse_json(\"{\\\"k\\\": 1}\", \"\\$.loc\");\n"
  "action(type=\"omfile\" file=\"@DIR@/out/parsejson\" template=\"pj\")\n"
  /* a member of a variable that holds no object is not set */
  "set $!sc = \"str\";\n"
  "set $!sc!b = \"x\";\n"
  "set $!nu = 5;\n"
  "set $!nu!b!c = \"y\";\n"
  "set $!sub!added = \"z\";\n"
  /* libfastjson puts a member set after an unset in the unset one's place:
   * not the messages mmjsonparse parsed; @cee:{bad is $!msg "{bad" */
  "if not ($msg contains '@cee:{\"') then action(type=\"omfile\" file=\"@DIR@/out/pjtree\" template=\"pjtree\")\n"
  "foreach ($.e in $!arr) do {\n"
  "  action(type=\"omfile\" file=\"@DIR@/out/each\" template=\"each\")\n"
  "  if $.e == \"b\" or $.e!q != \"\" then action(type=\"omfile\" file=\"@DIR@/out/eachb\" template=\"each\")\n"
  "}\n"
  "if $msg contains \"objs\" then foreach ($.o in $!objs) do action(type=\"omfile\" file=\"@DIR@/out/objs\" "
  "template=\"objs\")\n"
  "action(type=\"omfile\" file=\"@DIR@/out/after\" template=\"after\")\n"
  /* an unset keeps the places of the objects around it: x, its first
   * member gone, before b; e!f emptied stays "{ }" until h fills it. A
   * string is no object, whatever its text: s!b is not set */
  "set $!u!x!y = \"1\";\n"
  "set $!u!x!w = \"2\";\n"
  "set $!u!b = \"3\";\n"
  "set $!u!s = \"{x\";\n"
  "set $!u!s!b = \"4\";\n"
  "set $!u!e!f!g = \"5\";\n"
  "set $!u!e!k = \"6\";\n"
  "unset $!u!x!y;\n"
  "unset $!u!e!f!g;\n"
  "unset $!u!nothing;\n"
  "action(type=\"omfile\" file=\"@DIR@/out/unset1\" template=\"unset\")\n"
  "set $!u!e!f!h = \"7\";\n"
  /* an empty object parse_json() made, given a member */
  "set $.rv = parse_json('{\"p\": {}, \"q\": 1}', '$!v');\n"
  "set $!v!p!m = \"8\";\n"
  "action(type=\"omfile\" file=\"@DIR@/out/unset2\" template=\"unset\")\n"
  /* a path is split at '!' alone: a dot is a member name's own */
  "set $!d.a = \"1\";\n"
  "set $!d!x.y = \"2\";\n"
  "set $!d!x = \"3\";\n"
  "set $.l.m = \"4\";\n"
  "set $.ex = exists($!d.a) & exists($!d!x.y) & exists($!d!x.z);\n"
  "set $.r5 = parse_json('{\"p.q\": {\"r/s\": 1, \"r\": 2}}', '$!pj.o');\n"
  /* not where libfastjson put a member in unset $!a's slot (see pjtree) */
  "if not ($msg contains '@cee:{\"a\"') then {\n"
  "  action(type=\"omfile\" file=\"@DIR@/out/dots1\" template=\"dots\")\n"
  "  action(type=\"omfile\" file=\"@DIR@/out/dotsj\" template=\"dotsj\")\n"
  "  unset $!d!x.y;\n"
  "  unset $!pj.o!p.q!r;\n"
  "  action(type=\"omfile\" file=\"@DIR@/out/dots2\" template=\"dots\")\n"
  "}\n"
  /* parse_json()'s result is a number, in a tree no unset reordered (not
   * given an object: rsyslogd's global variables outlive the message) */
  "set $/pjr = parse_json('x', '$/pjc');\n"
  "action(type=\"omfile\" file=\"@DIR@/out/pjret\" template=\"pjret\")\n"
  /* the sigil alone: the whole tree */
  "unset $!;\n"
  "action(type=\"omfile\" file=\"@DIR@/out/unsetall1\" template=\"whole\")\n"
  "set $!w = \"5\";\n"
  "unset $.;\n"
  "action(type=\"omfile\" file=\"@DIR@/out/unsetall2\" template=\"whole\")\n"
  "action(type=\"omfile\" file=\"@DIR@/out/unsetall3\" template=\"locals\")\n";

/* The messages; the last is the one both daemons are waited for */
static const gchar *const messages[] = {
  "<13>Dec  1 10:00:00 app: hello world foo",
  "<13>Dec  1 10:00:00 app: 42",
  "<13>Dec  1 10:00:00 app:",
  "<13>Dec  1 10:00:00 app: -17abc",
  "<13>Dec  1 10:00:00 app: @cee:{\"a\":{\"b\":\"x y\"},\"n\":5,\"s\":\"10.0.0.1\"}",
  "<13>Dec  1 10:00:00 app: @cee:{bad",
  "<13>Dec  1 10:00:00 app: a,b,,c key=val k2=v2",
  "<13>Dec  1 10:00:00 app:   padded  ",
  "<13>Dec  1 10:00:00 app: 167772161",
  "<13>Dec  1 10:00:00 app: {\"a\":{\"b\":\"z\"},\"n\":\"7\"}",
  "<13>Dec  1 10:00:00 app: {broken",
  "<13>Dec  1 10:00:00 app: {\"r\":1.5,\"z\":null,\"t\":true,\"o\":{\"f\":-0.25}}",
  "<13>Dec  1 10:00:00 app: {\"a\":{\"b\":1}} and text after",
  "<13>Dec  1 10:00:00 app: \"a string\" x",
  "<13>Dec  1 10:00:00 app: true",
  "<13>Dec  1 10:00:00 app: false,",
  "<13>Dec  1 10:00:00 app: @cee:{\"arr\":[\"a\",\"b\",3,true,1.5,\"c d\",0.1,[],{},{\"q\":\"r\"}],"
  "\"objs\":[{\"k\":\"x\",\"n\":{\"m\":1},\"p.q\":\"z\"},{\"k\":\"y\"}]}",
  "<13>Dec  1 10:00:00 app: @cee:{\"arr\":[]}",
  "<13>Dec  1 10:00:00 app: @cee:{\"arr\":\"not an array\"}",
  "<13>Dec  1 10:00:00 app: @cee:{\"arr\":[[\"n\",1,\"a/b\",{\"x\":[2]}],\"z\"]}",
  /* parse_json()'s members keep their types, a real its digits */
  "<13>Dec  1 10:00:00 app: {\"i\":5,\"f\":2.50,\"e\":1.5e3,\"t\":true,\"n\":null,\"arr\":[1,\"a\",2.5],"
  "\"o\":{\"x\":1,\"y\":{}},\"s\":\"v\"} after",
  "<13>Dec  1 10:00:00 app: {}",
  "<13>Dec  1 10:00:00 app: 2.50",
  "<13>Dec  1 10:00:00 app: @cee:{\"k.l\":{\"m/n\":\"v\",\"m\":{\"n\":\"w\"}},\"k\":1,\"b\\\\s\":2}",
  "<13>Dec  1 10:00:00 done: end",
};

static gchar *
script_config (void)
{
  GString *text = g_string_new ("module(load=\"imuxsock\" SysSock.Use=\"off\")\n"
                                "module(load=\"mmjsonparse\")\n"
                                "input(type=\"imuxsock\" Socket=\"@DIR@/in\")\n"
                                "template(name=\"plain\" type=\"string\" string=\"<%msg%>\")\n"
                                "template(name=\"m\" type=\"string\" string=\"%msg%\\n\")\n"
                                "template(name=\"vars\" type=\"string\" "
                                "string=\"%$!a!b%|%$!a!c%|%$.x%|%$.a!b%|%$!n%|%$.y%\\n\")\n"
                                "template(name=\"pj\" type=\"string\" "
                                "string=\"%$.ret%|%$.r2%|%$!a!b%|%$!n%|%$!sub!k%|%$.loc!k%|%$!sub!a!b%|%$.r4%|%$!val%|%$!r%|%$!z%|%$!o!f%\\n\")\n"
                                "template(name=\"pjtree\" type=\"string\" "
                                "string=\"%$!%|%$!val%|%$!sub%|%$!sc%|%$!nu%|%$!val!f%\\n\")\n"
                                "template(name=\"each\" type=\"string\" string=\"%$.e%|%$.e!q%|%msg%\\n\")\n"
                                "template(name=\"objs\" type=\"string\" string=\"%$.o!k%|%$.o!n!m%|%$.o!p.q%|%$.o%\\n\")\n"
                                "template(name=\"after\" type=\"string\" string=\"[%$.e%]%msg%\\n\")\n"
                                "template(name=\"unset\" type=\"string\" string=\"%$!u%|%$!u!e!f%|%$!u!s%|%$!v%|%$!v!p%\\n\")\n"
                                "template(name=\"dots\" type=\"string\" string=\"%$!d.a%|%$!d!x.y%|%$!d!x%|%$.l.m%|"
                                "%$.ex%|%$!k.l!m/n%|%$!k.l%|%$!pj.o!p.q!r/s%|%$!%|%$!all-json-plain%\\n\")\n"
                                "template(name=\"whole\" type=\"string\" string=\"%$!%|%$!all-json%|%$!d.a%|%$.l.m%\\n\")\n"
                                "template(name=\"locals\" type=\"string\" string=\"%$.%|%$.ex%\\n\")\n"
                                "template(name=\"pjret\" type=\"string\" string=\"%$/%\\n\")\n"
                                "template(name=\"dotsj\" type=\"list\") { property(name=\"$!d\" format=\"jsonf\") "
                                "constant(value=\"|\") property(name=\"$!d.a\" format=\"jsonf\") constant(value=\"|\") "
                                "property(name=\"$!\" format=\"jsonf\") constant(value=\"\\n\") }\n"
                                "if $programname == 'done' then {\n"
                                "  action(type=\"omfile\" file=\"@DIR@/done\" template=\"m\")\n"
                                "  stop\n"
                                "}\n"
                                "action(type=\"mmjsonparse\")\n");
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    g_string_append_printf (text, "template(name=\"t_%s\" type=\"string\" string=\"%%$.%s%%\\n\")\n", values[i].name,
                            values[i].name);
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    g_string_append_printf (text, "set $.%s = %s;\naction(type=\"omfile\" file=\"@DIR@/out/%s\" template=\"t_%s\")\n",
                            values[i].name, values[i].expr, values[i].name, values[i].name);
  g_string_append (text, statements);
  return g_string_free (text, FALSE);
}

static gboolean
write_text (const gchar *path, const gchar *text)
{
  return g_file_set_contents (path, text, -1, NULL);
}

static void
test_script (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  g_setenv ("SL_SCRIPT_ENV", "env value", TRUE);
  g_unsetenv ("SL_SCRIPT_UNSET");
  g_autofree gchar *config = script_config ();
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  g_autofree gchar *rs_out = g_build_filename (rs_dir, "out", NULL);
  g_autofree gchar *sl_out = sl_test_path (env, "out");
  g_assert_cmpint (g_mkdir_with_parents (rs_out, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (sl_out, 0755), ==, 0);
  GString *rs_text = g_string_new (config);
  g_string_replace (rs_text, "@DIR@", rs_dir, 0);
  g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  g_assert_true (write_text (rs_conf, rs_text->str));
  g_string_free (rs_text, TRUE);

  g_autofree gchar *rs_in = g_build_filename (rs_dir, "in", NULL);
  g_autofree gchar *sl_in = sl_test_path (env, "in");
  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);
  g_assert_true (sl_test_write_config (env, config, NULL));
  /* --print-config's text loads as Sluice's language */
  g_autofree gchar *printed = NULL;
  g_autofree gchar *printed_path = sl_test_path (env, "printed.conf");
  g_assert_cmpint (sl_test_run_built ("daemon/sluiced", &printed, NULL, "--config-format", "rsyslog", "-f", env->config,
                                      "--print-config", NULL), ==, 0);
  g_assert_true (write_text (printed_path, printed));
  g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, NULL, "-s", "-f", printed_path, NULL), ==, 0);
  g_assert_true (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL));
  g_assert_true (sl_test_wait_socket (env, rs_in));
  g_assert_true (sl_test_wait_socket (env, sl_in));

  const gchar *ins[] = { rs_in, sl_in };
  const gchar *dirs[] = { rs_dir, env->dir };
  for (guint d = 0; d < G_N_ELEMENTS (ins); d++)
    {
      g_autofree gchar *done = g_build_filename (dirs[d], "done", NULL);
      for (guint m = 0; m < G_N_ELEMENTS (messages); m++)
        g_assert_true (sl_test_unix_send (ins[d], SOCK_DGRAM, messages[m]));
      g_assert_true (sl_test_wait_lines (env, done, 1));
    }
  /* stopping writes out what either still holds */
  sl_test_daemon_stop (env, SIGTERM);
  kill (rs, SIGTERM);
  sl_test_child_wait (rs, 10 * G_USEC_PER_SEC);

  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    g_ptr_array_add (names, g_strdup (values[i].name));
  static const gchar *const others[] = { "vars1", "vars2", "if1", "if2", "if3", "if4", "if5", "if6", "if7", "if8",
                                         "if9", "if10", "if11", "parsejson", "pjtree", "each", "eachb", "objs", "after",
                                         "unset1", "unset2", "dots1", "dotsj", "dots2", "unsetall1",
                                         "unsetall2", "unsetall3", "pjret" };
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    g_ptr_array_add (names, g_strdup (others[i]));
  guint written = 0;
  for (guint i = 0; i < names->len; i++)
    {
      const gchar *name = g_ptr_array_index (names, i);
      g_autofree gchar *rs_path = g_build_filename (rs_out, name, NULL);
      g_autofree gchar *sl_path = g_build_filename (sl_out, name, NULL);
      g_autofree gchar *expected = sl_test_read_file (rs_path);
      g_autofree gchar *got = sl_test_read_file (sl_path);
      g_test_message ("%s", name);
      /* a condition that holds for no message: neither writes the file */
      g_assert_true (expected || g_str_has_prefix (name, "if"));
      g_assert_cmpstr (got, ==, expected);
      written += expected != NULL;
    }
  g_assert_cmpuint (written, >=, G_N_ELEMENTS (values));
}

/* What rsyslogd refuses, and what sluiced cannot do, each with its place */
static void
test_refused (SlTestEnv *env, gconstpointer data)
{
  static const struct
  {
    const gchar *script;
    const gchar *needle;
  } cases[] = {
    { "set $.x = substring($msg, 1);\n", "script.conf:1:11: the RainerScript function substring() takes 3 arguments, not 2" },
    { "set $.x = is_time();\n", "script.conf:1:11: the RainerScript function is_time() takes 1 to 2 arguments, not 0" },
    { "\nset $.x = re_match($msg, $!re);\n",
      "script.conf:2:11: the pattern of re_match() must be a constant string, as rsyslogd requires" },
    { "set $.x = re_extract($msg, '(', 0, 0, '');\n", "script.conf:1:11: cannot compile the regular expression '(' of re_extract()" },
    { "set $.x = exec_template($msg);\n",
      "script.conf:1:11: the argument of exec_template() must be a constant string, as rsyslogd requires" },
    { "set $.x = toupper($msg);\n",
      "script.conf:1:11: the RainerScript function 'toupper()' is not supported: rsyslogd 8.2302 has no such function" },
    { "if previous_action_suspended() then stop\n",
      "script.conf:1:4: the RainerScript function 'previous_action_suspended()' is not supported" },
    { "if script_error() == 0 then stop\n", "script.conf:1:4: the RainerScript function 'script_error()' is not supported" },
    { "if parse_json($msg, '$!') == 0 then stop\n",
      "script.conf:1:4: the RainerScript function 'parse_json()' is not supported: Sluice takes it only as the whole "
      "value of set" },
    { "set $.r = parse_json($msg, $!c);\n",
      "script.conf:1:11: the container of parse_json() must be a constant variable name" },
    { "set $.x = nosuch($msg);\n", "script.conf:1:11: the RainerScript function 'nosuch()' is not supported" },
    { "foreach ($.i in $!list) do {\n  action(type=\"omfile\" file=\"/dev/null\")\n  stop\n}\n",
      "script.conf:3:3: a stop inside foreach is not supported" },
    { "foreach ($!i in $!list) do stop\n", "script.conf:1:10: a local variable such as $.i was expected here" },
    { "module(load=\"mmjsonparse\")\naction(type=\"mmjsonparse\" cookie=\"a^b\")\n",
      "script.conf:2:27: an mmjsonparse cookie with a backslash, ^, ], a double quote, $ or a percent sign is not "
      "supported" },
  };
  (void) data;
  g_autofree gchar *script = sl_test_path (env, "script.conf");
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_true (write_text (script, cases[i].script));
      g_autofree gchar *err = sl_test_refused_config (env, "@include-rsyslog \"@DIR@/script.conf\"\n", NULL);
      g_test_message ("%s", err);
      g_assert_nonnull (err);
      g_assert_nonnull (strstr (err, cases[i].needle));
    }
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/rsyslog-script/differential", test_script);
  SL_TEST_ADD ("/rsyslog-script/refused", test_refused);
  return g_test_run ();
}
