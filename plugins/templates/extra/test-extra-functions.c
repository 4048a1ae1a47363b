/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The extra template functions against what syslog-ng 3.38 writes for the
 * same templates and fields (each expected value below was produced by
 * Debian's syslog-ng 3.38 with a file() destination of that template). */
#include "plugins/templates/extra/extra-private.h"
#include "core/compile/loader.h"

#include <string.h>

extern const SlModule sl_module;

static SlMessage *
test_message (void)
{
  SlMessage *msg = sl_message_new ("", 0);
  sl_message_set (msg, SL_F_MESSAGE, "hello", -1);
  static const gchar *const fields[][2] = {
    { "L1", "a,b,c" }, { "n3", "3" }, { "n10", "10" }, { "nm2", "-2" }, { "f15", "1.5" }, { "s1", "abc" },
    { "V1", "x'y" }, { "V2", "x\"y'z" }, { "V3", "t\tb" }, { "V4", "back\\slash" }, { "V5", "new\nline" },
    { "V6", "x\"y" }, { "V7", "" }, { "V8", "a b" }, { "V9", "\"x\\\"y\",z" }, { "V10", "'a,b',z" },
    { "V11", "\"a\\tb\",c" }, { "V12", "c\001 d" }, { "V13", "x\"y\\z" }, { "V14", "\"a\\x01\"" },
    { "P1", "/var/log/messages" }, { "ML", "line1\nline2\nline3" },
    { "U1", "a%20b%2Fc%zz" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    sl_message_set (msg, sl_field_handle (fields[i][0]), fields[i][1], -1);
  return msg;
}

static void
assert_renders (const gchar *text, const gchar *expected, gsize expected_len)
{
  GError *error = NULL;
  SlTemplate *t = sl_template_compile (text, &error);
  g_assert_no_error (error);
  SlMessage *msg = test_message ();
  GString *out = g_string_new ("before:");
  sl_template_append (t, msg, NULL, out);
  g_assert_cmpmem (out->str + strlen ("before:"), out->len - strlen ("before:"), expected, expected_len);
  g_string_free (out, TRUE);
  sl_message_unref (msg);
  sl_template_unref (t);
}

#define RENDERS(text, expected) assert_renders (text, expected, sizeof expected - 1)

static void
assert_refused (const gchar *text, const gchar *needle)
{
  GError *error = NULL;
  g_assert_null (sl_template_compile (text, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, needle));
  g_error_free (error);
}

static void
test_lists (void)
{
  RENDERS ("$(list-concat a b,c)", "a,b,c");
  RENDERS ("$(list-concat ${L1} \"x,y\" \"\")", "a,b,c,x,y");
  RENDERS ("$(list-concat \"a b\" c)", "\"a b\",c");
  RENDERS ("$(list-concat a,,b)", "a,b");
  RENDERS ("$(list-concat ${V9})", "'x\"y',z");
  RENDERS ("$(list-concat ${V11})", "\"a\\tb\",c");
  RENDERS ("$(list-append ${L1} d e)", "a,b,c,d,e");
  RENDERS ("$(list-append \"\" d)", "d");
  RENDERS ("$(list-append a ${V7})", "a,\"\"");
  RENDERS ("$(list-append a ${V1})", "a,\"x'y\"");
  RENDERS ("$(list-append a ${V2})", "a,\"x\\\"y'z\"");
  RENDERS ("$(list-append a ${V3})", "a,\"t\\tb\"");
  RENDERS ("$(list-append a ${V4})", "a,\"back\\\\slash\"");
  RENDERS ("$(list-append a ${V5})", "a,\"new\\nline\"");
  RENDERS ("$(list-append a ${V6})", "a,'x\"y'");
  RENDERS ("$(list-append a semi;colon)", "a,semi;colon");
  RENDERS ("$(list-head ${L1})", "a");
  RENDERS ("$(list-head \"\")", "");
  RENDERS ("$(list-head ' a , b ')", " a ");
  RENDERS ("$(list-nth 1 ${L1})", "b");
  RENDERS ("$(list-nth -1 ${L1})", "c");
  RENDERS ("$(list-nth 5 ${L1})", "");
  RENDERS ("$(list-nth 0 ${V9})", "x\"y");
  RENDERS ("$(list-nth 0 ${V10})", "a,b");
  RENDERS ("$(list-nth 0 ${V11})", "a\tb");
  RENDERS ("$(list-tail ${L1})", "b,c");
  RENDERS ("$(list-tail a)", "");
  RENDERS ("$(list-slice 1: ${L1})", "b,c");
  RENDERS ("$(list-slice :1 ${L1})", "a");
  RENDERS ("$(list-slice 0:2 ${L1})", "a,b");
  RENDERS ("$(list-slice -2: ${L1})", "b,c");
  RENDERS ("$(list-slice 1 ${L1})", "b,c");
  RENDERS ("$(list-slice -1:-3 ${L1})", "");
  RENDERS ("$(list-count ${L1})", "3");
  RENDERS ("$(list-count \"\")", "0");
  RENDERS ("$(list-count ${L1} x,y)", "5");
  RENDERS ("$(list-count ${V7})", "0");
  RENDERS ("$(implode : a b c)", "a:b:c");
  RENDERS ("$(implode : ${L1} x)", "a:b:c:x");
  RENDERS ("$(explode , ${L1})", "a,b,c");
  RENDERS ("$(explode : a:b:c d)", "a,b,c,d");
  RENDERS ("$(explode \" \" \"a b  c\")", "a,b,\"\",c");
  /* an empty text has no items (glib's g_strsplit(), as syslog-ng 4.8) */
  RENDERS ("$(explode , ${V7})", "");
  RENDERS ("$(list-count $(explode , ${V7}))", "0");
  /* items quoted as syslog-ng's str-repr quotes them: control characters
   * in quotes by code, escapes in '...' too, an unknown escape kept */
  RENDERS ("$(list-append a ${V12})", "a,\"c\\x01 d\"");
  RENDERS ("$(list-append a ${V13})", "a,'x\"y\\\\z'");
  RENDERS ("$(list-nth 1 $(list-append a ${V13}))", "x\"y\\z");
  RENDERS ("$(list-head ${V14})", "a\\x01");
  /* $(list-search), as syslog-ng 4.8.1 writes these */
  RENDERS ("$(list-search b ${L1})", "1");
  RENDERS ("$(list-search --mode prefix ba a,bb,ba)", "2");
  RENDERS ("$(list-search --mode substring x a,yxy,x)", "1");
  RENDERS ("$(list-search --mode glob 'b*' a,cb,bc)", "2");
  RENDERS ("$(list-search --mode pcre '[0-9]+' a,x1,12)", "2");
  RENDERS ("$(list-search --mode pcre b abc,b)", "1");
  RENDERS ("$(list-search --start-index 2 a a,b,a,a)", "2");
  RENDERS ("$(list-search --start-index=1 a a,a)", "1");
  RENDERS ("$(list-search z a,b)", "");
  RENDERS ("$(list-search b a,b c,b)", "1");
  RENDERS ("$(list-search b --mode prefix a,bx)", "1");
  assert_refused ("$(list-search --mode fuzzy a b)", "no mode 'fuzzy'");
  assert_refused ("$(list-search a)", "$(list-search) takes");
  assert_refused ("$(list-search --mode pcre '(' a)", "(");
  assert_refused ("$(list-nth 1)", "$(list-nth) takes");
}

static void
test_text (void)
{
  g_setenv ("SL_TEST_ENV", "from-env", TRUE);
  RENDERS ("$(env SL_TEST_ENV)", "from-env");
  RENDERS ("$(env SL_TEST_NOPE)", "");
  RENDERS ("$(env SL_TEST_ENV SL_TEST_ENV)", "from-env from-env");
  RENDERS ("$(or ${NOPE} ${V7} $MSG x)", "hello");
  RENDERS ("$(or ${NOPE})", "");
  RENDERS ("$(url-decode ${U1})", "");
  RENDERS ("$(url-decode a+b %41 x%2)", "a+bA");
  RENDERS ("$(basename ${P1})", "messages");
  RENDERS ("$(dirname ${P1})", "/var/log");
  RENDERS ("$(dirname messages)", ".");
  RENDERS ("$(basename /)", "/");
  RENDERS ("$(dirname /var/log/)", "/var/log");
  RENDERS ("$(basename /var/log/)", "log");
  RENDERS ("$(indent-multi-line ${ML})", "line1\n\tline2\n\tline3");
  RENDERS ("$(indent-multi-line a b)", "a b");
  RENDERS ("$(binary 0x41 66 0103)", "ABC");
  RENDERS ("$(binary 0x00)", "\0");
  assert_refused ("$(binary 300)", "$(binary) takes");
  assert_refused ("$(binary x)", "$(binary) takes");
  RENDERS ("$(min $n3)", "3");
  RENDERS ("$(max ${nm2})", "-2");
  RENDERS ("$(sum $n3)", "3");
  RENDERS ("$(average $n10)", "10");
  RENDERS ("$(average ${f15})", "");
  RENDERS ("$(sum ${s1})", "");
  assert_refused ("$(min)", "$(min) takes one argument");
}

/* A context as syslog-ng 3.38's grouping-by() renders aggregate(): the
 * three messages of the group and, newest, the synthetic message being
 * made (empty with inherit-mode(none)). The expected text is what
 * syslog-ng wrote for the same messages and template. */
static void
test_context (void)
{
  static const gchar *const fields[][4] = {
    { "p1", "1", "one, two", "7" }, { "p2", "2", "two", NULL }, { "p3", "30", "three", "-4" },
  };
  const SlMessage *context[4];
  for (guint i = 0; i < 3; i++)
    {
      SlMessage *m = sl_message_new ("", 0);
      sl_message_set (m, SL_F_PROGRAM, fields[i][0], -1);
      sl_message_set (m, SL_F_PID, fields[i][1], -1);
      sl_message_set (m, SL_F_MESSAGE, fields[i][2], -1);
      if (fields[i][3])
        sl_message_set (m, sl_field_handle (".SDATA.a.x"), fields[i][3], -1);
      context[i] = m;
    }
  context[3] = sl_message_new ("", 0);

  SlTemplate *t = sl_template_compile ("len=$(context-length) vals=$(context-values $PID ${.SDATA.a.x}) "
                                       "lookup=$(context-lookup (\"${PROGRAM}\" eq \"p2\") $PID $MSG) "
                                       "grep=$(grep -m 1 (\"1\" eq \"1\") $PID $MSG) sum=$(sum $PID) "
                                       "min=$(min $PID) max=$(max $PID) avg=$(average $PID) "
                                       "at=${PID}@0/${PID}@1/${PID}@2/[${PID}@3] f1=$(sum $PID)@1 "
                                       "lenat=$(context-length)@1", NULL);
  g_assert_nonnull (t);
  GString *out = g_string_new (NULL);
  sl_template_append_context (t, context, 4, NULL, out);
  g_assert_cmpstr (out->str, ==, "len=4 vals=1,7,2,\"\",30,-4,\"\",\"\" lookup=2,two grep=1,one, two sum=33 min=1 "
                   "max=30 avg=11 at=/30/2/[1] f1=30 lenat=1");
  g_string_free (out, TRUE);
  sl_template_unref (t);
  for (guint i = 0; i < 4; i++)
    sl_message_unref ((SlMessage *) context[i]);

  /* outside a context: the message alone, as syslog-ng renders it */
  RENDERS ("$(context-length)", "1");
  RENDERS ("$(context-values ${L1} $MSG)", "\"a,b,c\",hello");
  RENDERS ("[$(context-values)]", "[]");
  RENDERS ("$(context-lookup (\"${MSG}\" eq \"hello\") ${V8} $MSG)", "\"a b\",hello");
  RENDERS ("[$(context-lookup (\"${MSG}\" eq \"bye\") $MSG)]", "[]");
  RENDERS ("$(grep (\"${MSG}\" eq \"hello\") ${L1} $MSG)", "a,b,c,hello");
  RENDERS ("$(grep --max-count=2 (\"1\" eq \"1\") $MSG)", "hello");
  RENDERS ("$(grep -m1 (\"1\" eq \"1\") $MSG)", "hello");
  assert_refused ("$(grep (\"1\" eq \"1\"))", "at least one template");
  assert_refused ("$(grep -m x (\"1\" eq \"1\") $MSG)", "--max-count");
}

static void
test_uuid_and_getent (void)
{
  SlTemplate *t = sl_template_compile ("$(uuid)", NULL);
  SlMessage *msg = test_message ();
  GString *a = g_string_new (NULL), *b = g_string_new (NULL);
  sl_template_append (t, msg, NULL, a);
  sl_template_append (t, msg, NULL, b);
  g_assert_true (g_uuid_string_is_valid (a->str));
  g_assert_cmpstr (a->str, !=, b->str);
  g_string_free (a, TRUE);
  g_string_free (b, TRUE);
  sl_message_unref (msg);
  sl_template_unref (t);

  RENDERS ("$(getent passwd root)", "0");
  RENDERS ("$(getent passwd 0)", "root");
  RENDERS ("$(getent passwd root uid)", "0");
  RENDERS ("$(getent group root)", "0");
  RENDERS ("$(getent group 0)", "root");
  RENDERS ("$(getent protocols tcp)", "6");
  RENDERS ("$(getent passwd no-such-user-here)", "");
  RENDERS ("$(getent passwd root nosuchfield)", "");
  assert_refused ("$(getent shadow root)", "databases passwd, group");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/extra-functions/lists", test_lists);
  g_test_add_func ("/extra-functions/text", test_text);
  g_test_add_func ("/extra-functions/uuid-and-getent", test_uuid_and_getent);
  g_test_add_func ("/extra-functions/context", test_context);
  return g_test_run ();
}
