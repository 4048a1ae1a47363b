/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kv-parser() and linux-audit-parser(): the pairs syslog-ng 3.38 finds in
 * a line (each case was run through it too), and those it does not;
 * quoting, separators, stray words, prefixes, hex-encoded audit values,
 * and hostile lines. */
#include "tests/unit/parser-harness.h"
#include "core/config/error.h"
#include "core/compile/loader.h"

#include <string.h>

extern const SlModule sl_module;

typedef struct
{
  const gchar *input;
  const gchar *pairs[16];   /* key, value, key, value, ..., NULL */
} Case;

static gboolean
count_field (SlHandle h, const gchar *value, gsize len, gpointer user_data)
{
  (*(guint *) user_data)++;
  return TRUE;
}

/* Runs the cases through the parser made from text, whose prefix is "kv.":
 * each line gives exactly the pairs listed. */
static void
check_cases (const gchar *text, const Case *cases, guint n)
{
  SlTestParser p;
  sl_test_parser_init (&p, text);
  for (guint i = 0; i < n; i++)
    {
      gchar *shown = g_strescape (cases[i].input, NULL);
      g_test_message ("input: '%s'", shown);
      g_free (shown);
      SlMessage *msg = sl_test_message (cases[i].input);
      g_assert_true (sl_test_parser_process (&p, &msg));
      guint expected = 0;
      for (; cases[i].pairs[expected * 2]; expected++)
        {
          gchar *name = g_strconcat ("kv.", cases[i].pairs[expected * 2], NULL);
          sl_test_assert_field (msg, name, cases[i].pairs[expected * 2 + 1]);
          g_free (name);
        }
      guint found = 0;
      sl_message_foreach_dynamic (msg, count_field, &found);
      g_assert_cmpuint (found, ==, expected);
      sl_message_unref (msg);
    }
  sl_test_parser_clear (&p);
}

static const Case default_cases[] = {
  { "", { NULL } },
  { "foo", { NULL } },
  { "foo=", { "foo", "", NULL } },
  { "foo=bar", { "foo", "bar", NULL } },
  { "k1=v1 k2=v2 k3=v3 ", { "k1", "v1", "k2", "v2", "k3", "v3", NULL } },
  { "k1=v1    k2=v2     k3=v3", { "k1", "v1", "k2", "v2", "k3", "v3", NULL } },
  { "k1=v1, k2=v2, k3=v3", { "k1", "v1", "k2", "v2", "k3", "v3", NULL } },
  { "k1=v1,   k2=v2  ,    k3=v3", { "k1", "v1", "k2", "v2", "k3", "v3", NULL } },
  { "k1=v1,k2=v2,k3=v3", { "k1", "v1,k2=v2,k3=v3", NULL } },
  { "k=v,", { "k", "v,", NULL } },
  { "k=v, ", { "k", "v", NULL } },
  { "k1=v1\tk2=v2 k3=v3", { "k1", "v1\tk2=v2", "k3", "v3", NULL } },
  /* words before the first pair are skipped; after one, an unquoted value
   * runs over spaces until a key follows */
  { "lorem ipsum foo=bar", { "foo", "bar", NULL } },
  { "foo=bar lorem ipsum key=value some more", { "foo", "bar lorem ipsum", "key", "value some more", NULL } },
  { "k1 k2=v2, k3, k4=v4", { "k2", "v2", "k4", "v4", NULL } },
  { "k1= k2=v2, k3=, k4=v4 k5= , k6=v6",
    { "k1", "", "k2", "v2", "k3", "", "k4", "v4", "k5", "", "k6", "v6", NULL } },
  /* a key is made of [A-Za-z0-9_.-], with spaces allowed around the separator */
  { "k1= v1 k2 = v2 k3 =v3 ", { "k1", "v1", "k2", "v2", "k3", "v3", NULL } },
  { "*k=v", { "k", "v", NULL } },
  { "x *k=v", { "k", "v", NULL } },
  { "k*=v", { NULL } },
  { "k-j=v 0=v _=v Z=v a.b=c", { "k-j", "v", "0", "v", "_", "v", "Z", "v", "a.b", "c", NULL } },
  { "\xc3\xa1=v :=v", { NULL } },
  { "=v", { NULL } },
  { " = =k=", { "k", "", NULL } },
  { " =k=v=w", { "k", "v=w", NULL } },
  { "k===a=b c=d", { "k", "==a=b", "c", "d", NULL } },
  /* the last of a key wins */
  { "a=1 b=2 a=3", { "a", "3", "b", "2", NULL } },
  /* quotes */
  { "foo=\"bar\"", { "foo", "bar", NULL } },
  { "k1=\"v1\", k2='v2'", { "k1", "v1", "k2", "v2", NULL } },
  { "k1='v foo, foo2 =@,\"' k2='v foo,  a='", { "k1", "v foo, foo2 =@,\"", "k2", "v foo,  a=", NULL } },
  { "k1=\"\\\"v1\" k2='\\'v2'", { "k1", "\"v1", "k2", "'v2", NULL } },
  { "k1=\"\\b \\f \\n \\r \\t \\\\\"", { "k1", "\b \f \n \r \t \\", NULL } },
  { "k1=\"\\p\"", { "k1", "\\p", NULL } },
  { "k1=\\b\\n", { "k1", "\\b\\n", NULL } },
  /* broken quotes: the value as written */
  { "k=\"a", { "k", "\"a", NULL } },
  { "k=\"\\", { "k", "\"\\", NULL } },
  /* bytes are bytes */
  { "k=\xc3 j=\"\xff\"", { "k", "\xc3", "j", "\xff", NULL } },
};

static void
test_default_scanner (void)
{
  check_cases ("kv-parser(prefix(\"kv.\"))", default_cases, G_N_ELEMENTS (default_cases));
}

static const Case colon_cases[] = {
  { "k1:v1 k2:v2 k3:v3 ", { "k1", "v1", "k2", "v2", "k3", "v3", NULL } },
  { "SYSTEM_USER:'oscar', DB:'--', QUERY:'USE test;'",
    { "SYSTEM_USER", "oscar", "DB", "--", "QUERY", "USE test;", NULL } },
};

static const Case dash_cases[] = {
  { "k-v", { "k", "v", NULL } },
  { "k--v", { "k", "-v", NULL } },
  { "---", { "-", "-", NULL } },
};

static void
test_value_separator (void)
{
  check_cases ("kv-parser(value-separator(\":\") prefix(\"kv.\"))", colon_cases, G_N_ELEMENTS (colon_cases));
  check_cases ("kv-parser(value-separator(\"-\") prefix(\"kv.\"))", dash_cases, G_N_ELEMENTS (dash_cases));
}

static const Case semicolon_cases[] = {
  { "a=1;b=2;c=3", { "a", "1", "b", "2", "c", "3", NULL } },
  { "VSYS=public; Slot=5/1; time=2016/02/18 16:00:07; stray words; policy=370;",
    { "VSYS", "public", "Slot", "5/1", "time", "2016/02/18 16:00:07", "policy", "370", NULL } },
  { " key = spaced value ;x=\"quoted; with separator\"; y='z'",
    { "key", "spaced value", "x", "quoted; with separator", "y", "z", NULL } },
  { "empty=;=novalue;k=v", { "empty", "", "k", "v", NULL } },
  { ";;;", { NULL } },
};

static const Case string_separator_cases[] = {
  { "a=1||b=x|y||c=", { "a", "1", "b", "x|y", "c", "", NULL } },
};

static void
test_pair_separator (void)
{
  check_cases ("kv-parser(pair-separator(\";\") prefix(\"kv.\"))", semicolon_cases,
               G_N_ELEMENTS (semicolon_cases));
  check_cases ("kv-parser(pair-separator(\"||\") prefix(\"kv.\"))", string_separator_cases,
               G_N_ELEMENTS (string_separator_cases));
}

static void
check_stray_words (const gchar *text, const gchar *line, const gchar *expected)
{
  SlTestParser p;
  sl_test_parser_init (&p, text);
  SlMessage *msg = sl_test_message (line);
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "stray", expected);
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

/* The words outside pairs as a list, quoted as syslog-ng quotes list
 * items; what the sudo-parser() SCL block takes the user from. */
static void
test_stray_words (void)
{
  const gchar *sudo = "kv-parser(pair-separator(\";\") extract-stray-words-into(\"stray\"))";
  check_stray_words (sudo, "  alice : TTY=pts/0 ; PWD=/home/alice ; USER=root ; COMMAND=/usr/bin/id -u",
                     "\"alice :\"");
  check_stray_words (sudo, "VSYS=public; stray words; policy=370;", "\"stray words;\"");
  check_stray_words (sudo, ";;;", ";;;");
  check_stray_words (sudo, "a=1", "");

  const gchar *plain = "kv-parser(extract-stray-words-into(\"stray\"))";
  check_stray_words (plain, "k1 k2=v2, k3, k4=v4", "k1,\"k3,\"");
  check_stray_words (plain, "x *k=v", "\"x *\"");
  check_stray_words (plain, "it's k=v", "\"it's\"");
  check_stray_words (plain, "say \"hi\" k=v", "'say \"hi\"'");
  check_stray_words (plain, "'a' \"b\" k=v", "\"'a' \\\"b\\\"\"");
  check_stray_words (plain, "k=\"a", "'\"a'");
  check_stray_words (plain, "tab\there \xff k=v", "\"tab\\there \\xff\"");
}

/* Audit records: values the kernel had to write in hex are decoded, as
 * syslog-ng decodes them; others are left as written. */
static void
test_linux_audit (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "linux-audit-parser(prefix(\".auditd.\"))");
  SlMessage *msg = sl_test_message (
    "type=EXECVE msg=audit(1369310389.622:1036): argc=3 a0=\"ls\" a1=2D6C a2=2F746D702F6D7920646972"
    " proctitle=6C73002D6C name=\"/bin/ls\" comm=414243 data=7A7A7A7A2 dev=fd:01");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, ".auditd.type", "EXECVE");
  sl_test_assert_field (msg, ".auditd.msg", "audit(1369310389.622:1036):");
  sl_test_assert_field (msg, ".auditd.a0", "ls");
  /* "-l" is printable: the kernel would have written it as is, so 2D6C
   * is taken for what it says */
  sl_test_assert_field (msg, ".auditd.a1", "2D6C");
  sl_test_assert_field (msg, ".auditd.a2", "/tmp/my dir");
  /* a NUL between arguments becomes a tab */
  sl_test_assert_field (msg, ".auditd.proctitle", "ls\t-l");
  sl_test_assert_field (msg, ".auditd.name", "/bin/ls");
  sl_test_assert_field (msg, ".auditd.comm", "414243");
  sl_test_assert_field (msg, ".auditd.data", "7A7A7A7A2");
  sl_test_assert_field (msg, ".auditd.dev", "fd:01");
  sl_message_unref (msg);

  /* decoded bytes that are not UTF-8 stay in hex; other keys never decode */
  msg = sl_test_message ("path=FF20 key=2F746D702F6D7920646972 a9=2F612062");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, ".auditd.path", "FF20");
  sl_test_assert_field (msg, ".auditd.key", "2F746D702F6D7920646972");
  sl_test_assert_field (msg, ".auditd.a9", "/a b");
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

static void
test_prefix_template_and_copy (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "kv-parser(template(\"${extra}\"))");
  SlMessage *original = sl_test_message ("a=ignored");
  sl_message_set (original, sl_field_handle ("extra"), "user=ada action=login", -1);
  SlMessage *msg = sl_message_ref (original);
  g_assert_true (sl_test_parser_process (&p, &msg));
  g_assert_true (msg != original);
  sl_test_assert_field (msg, "user", "ada");
  sl_test_assert_field (msg, "action", "login");
  sl_test_assert_field (msg, "a", NULL);
  sl_test_assert_field (original, "user", NULL);
  sl_message_unref (msg);
  sl_message_unref (original);
  sl_test_parser_clear (&p);

  /* a message without pairs passes unchanged, as in syslog-ng */
  sl_test_parser_init (&p, "kv-parser()");
  original = sl_test_message ("no pairs here");
  msg = sl_message_ref (original);
  g_assert_true (sl_test_parser_process (&p, &msg));
  g_assert_true (msg == original);
  sl_message_unref (msg);
  sl_message_unref (original);
  sl_test_parser_clear (&p);
}

/* Without a prefix a pair may name MESSAGE itself, the text being read. */
static void
test_overwriting_the_input (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "kv-parser()");
  SlMessage *msg = sl_test_message ("x");
  sl_message_set (msg, SL_F_MESSAGE, "MESSAGE=replaced after=\"still read\"", -1);
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "MESSAGE", "replaced");
  sl_test_assert_field (msg, "after", "still read");
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

static void
test_hostile_lines (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "kv-parser(prefix(\"kv.\"))");

  gchar *long_key = g_strnfill (5000, 'k');
  gchar *line = g_strdup_printf ("%s=v ok=1", long_key);
  SlMessage *msg = sl_test_message (line);
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "kv.ok", "1");
  g_assert_cmpint (sl_test_parser_counter (&p, "skipped-keys"), ==, 1);
  sl_message_unref (msg);
  g_free (line);
  g_free (long_key);

  /* a megabyte of separators, of quotes, of backslashes */
  static const gchar fills[] = { '=', '"', '\\', ' ', ',' };
  for (guint i = 0; i < G_N_ELEMENTS (fills); i++)
    {
      gchar *fill = g_strnfill (1 << 20, fills[i]);
      gchar *text = g_strconcat ("k=", fill, NULL);
      msg = sl_test_message (text);
      g_assert_true (sl_test_parser_process (&p, &msg));
      sl_message_unref (msg);
      g_free (text);
      g_free (fill);
    }
  sl_test_parser_clear (&p);
}

static void
assert_config_error (const gchar *text, const gchar *needle)
{
  SlTestParser p;
  GError *error = NULL;
  g_assert_false (sl_test_parser_new (&p, text, &error));
  g_assert_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE);
  g_assert_nonnull (strstr (error->message, "test.conf:2:"));
  g_assert_nonnull (strstr (error->message, needle));
  g_error_free (error);
  sl_test_parser_clear (&p);
}

static void
test_config_errors (void)
{
  assert_config_error ("kv-parser(value-separator(\"==\"))", "value-separator()");
  assert_config_error ("kv-parser(value-separator(\" \"))", "value-separator()");
  assert_config_error ("kv-parser(value-separator(\"'\"))", "value-separator()");
  assert_config_error ("kv-parser(pair-separator(\"\"))", "pair-separator()");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/kv-parser/default-scanner", test_default_scanner);
  g_test_add_func ("/kv-parser/value-separator", test_value_separator);
  g_test_add_func ("/kv-parser/pair-separator", test_pair_separator);
  g_test_add_func ("/kv-parser/stray-words", test_stray_words);
  g_test_add_func ("/kv-parser/linux-audit", test_linux_audit);
  g_test_add_func ("/kv-parser/prefix-template-and-copy", test_prefix_template_and_copy);
  g_test_add_func ("/kv-parser/overwriting-the-input", test_overwriting_the_input);
  g_test_add_func ("/kv-parser/hostile-lines", test_hostile_lines);
  g_test_add_func ("/kv-parser/config-errors", test_config_errors);
  return g_test_run ();
}
