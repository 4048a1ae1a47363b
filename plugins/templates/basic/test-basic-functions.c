/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The basic template functions as syslog-ng documents them: each renders
 * what it should for a known message, nested calls keep their own text,
 * and wrong arguments are refused when the template is compiled. The
 * expected values of $(substr), $(length), $(padding), $(uppercase) and
 * $(lowercase) were produced by Debian's syslog-ng 3.38 with a file()
 * destination of the same template and fields: lengths count bytes. */
#include "plugins/templates/basic/basic-private.h"
#include "core/config/error.h"
#include "core/compile/loader.h"

#include <string.h>

extern const SlModule sl_module;

static SlMessage *
test_message (void)
{
  SlMessage *msg = sl_message_new ("", 0);
  msg->pri = SL_PRI_MAKE (19, 3);   /* local3.err */
  sl_message_set (msg, SL_F_HOST, "bzorp", -1);
  sl_message_set (msg, SL_F_PROGRAM, "syslog-ng", -1);
  sl_message_set (msg, SL_F_PID, "23323", -1);
  sl_message_set (msg, SL_F_MESSAGE, "hello", -1);
  sl_message_set (msg, SL_F_SOURCEIP, "10.11.12.13", -1);
  sl_message_set (msg, sl_field_handle ("s1"), "  value\t", -1);
  sl_message_set (msg, sl_field_handle ("empty"), "", -1);
  sl_message_set (msg, sl_field_handle ("accented"), "h\xc3\xa9llo", -1);
  return msg;
}

static void
assert_renders (const gchar *text, const gchar *expected)
{
  GError *error = NULL;
  SlTemplate *t = sl_template_compile (text, &error);
  g_assert_no_error (error);
  SlMessage *msg = test_message ();
  GString *out = g_string_new ("before:");
  sl_template_append (t, msg, NULL, out);
  g_assert_cmpstr (out->str + strlen ("before:"), ==, expected);
  g_string_free (out, TRUE);
  sl_message_unref (msg);
  sl_template_unref (t);
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
test_substr (void)
{
  assert_renders ("$(substr $HOST 1 3)", "zor");
  assert_renders ("$(substr $HOST 1)", "zorp");
  assert_renders ("$(substr $HOST -1)", "p");
  assert_renders ("$(substr $HOST -2 1)", "r");
  assert_renders ("$(substr $HOST 1 -1)", "zor");
  assert_renders ("[$(substr $HOST -99 2)]", "[]");
  assert_renders ("[$(substr $HOST -5 -1)]", "[bzor]");
  assert_renders ("[$(substr $HOST -3 -1)]", "[or]");
  assert_renders ("[$(substr $HOST -2 -3)]", "[]");
  assert_renders ("[$(substr $HOST 0 -5)]", "[]");
  assert_renders ("[$(substr $HOST 4 9)]", "[p]");
  assert_renders ("[$(substr $HOST 10)]", "[]");
  assert_renders ("[$(substr $HOST 3 -4)]", "[]");
  assert_renders ("$(substr ${accented} 1 3)", "\xc3\xa9l");
  assert_renders ("[$(substr $HOST x)]", "[]");
  assert_renders ("$(substr \"${HOST} ${PROGRAM}\" \"6\" \"6\")", "syslog");
  /* offsets and lengths rendered for each message, not read once */
  assert_renders ("$(substr $PROGRAM $(length $HOST) 2)", "g-");
  assert_renders ("$(substr $PROGRAM 1 $(length $PID))", "yslog");
  assert_renders ("[$(substr $PROGRAM 1 ${empty})]", "[]");
  assert_refused ("$(substr $HOST)", "$(substr) takes");
}

static void
test_strip_sanitize_length (void)
{
  assert_renders ("[$(strip ${s1})]", "[value]");
  assert_renders ("[$(strip ${empty} ${s1} ${empty})]", "[value]");
  assert_renders ("[$(strip ${s1} ${s1})]", "[value value]");
  assert_renders ("[$(strip ' \n\t\r  a  b \n\t\r ')]", "[a  b]");
  assert_renders ("[$(strip ${empty})]", "[]");

  assert_renders ("$(sanitize alma/bela)", "alma_bela");
  assert_renders ("$(sanitize -r @ alma/bela)", "alma@bela");
  assert_renders ("$(sanitize -i @ alma@bela)", "alma_bela");
  assert_renders ("$(sanitize -i '@/l ' alma@/bela)", "a_ma__be_a");
  assert_renders ("$(sanitize alma\x1b_bela)", "alma__bela");
  assert_renders ("$(sanitize -C alma\x1b_bela)", "alma\x1b_bela");
  assert_renders ("$(sanitize $HOST $PROGRAM)", "bzorp/syslog-ng");
  assert_refused ("$(sanitize -r ab x)", "$(sanitize) takes");
  assert_refused ("$(sanitize --frobnicate x)", "$(sanitize) takes");

  assert_renders ("$(length $HOST $PID)", "5 5");
  assert_renders ("[$(length)]", "[]");
  assert_renders ("$(length ${accented} ${empty})", "6 0");
}

static void
test_case (void)
{
  assert_renders ("$(uppercase ${accented} \xc3\x9f \xc7\x86)", "H\xc3\x89LLO SS \xc7\x84");
  assert_renders ("$(lowercase \xc3\x89" "COLE \xc4\xb0 \xce\xa3)", "\xc3\xa9" "cole i\xcc\x87 \xcf\x82");
  assert_renders ("$(uppercase $HOST)", "BZORP");
  /* not UTF-8: only the ASCII letters change */
  assert_renders ("$(uppercase a\xff" "b)", "A\xff" "B");
}

/* Expected values as syslog-ng 3.38 wrote them on this machine, whose
 * /etc/hosts names 127.0.0.1 localhost. */
static void
test_dns_resolve_ip (void)
{
  assert_renders ("$(dns-resolve-ip 127.0.0.1)", "localhost");
  assert_renders ("$(dns-resolve-ip --use-fqdn=yes 127.0.0.1)", "localhost");
  assert_renders ("$(dns-resolve-ip -c no -f yes 127.0.0.1)", "localhost");
  assert_renders ("$(dns-resolve-ip --normalize-hostnames yes 127.0.0.1)", "localhost");
  /* the second call is the cached answer */
  assert_renders ("$(dns-resolve-ip 127.0.0.1) $(dns-resolve-ip 127.0.0.1)", "localhost localhost");
  assert_renders ("$(dns-resolve-ip --use-dns=no 127.0.0.1)", "127.0.0.1");
  assert_renders ("$(dns-resolve-ip --use-dns=no 0:0::0:1)", "::1");
  assert_renders ("[$(dns-resolve-ip not-an-ip)]", "[]");
  assert_renders ("$(dns-resolve-ip --use-dns no ${SOURCEIP})", "10.11.12.13");
  assert_refused ("$(dns-resolve-ip)", "$(dns-resolve-ip) takes");
  assert_refused ("$(dns-resolve-ip 1.2.3.4 5.6.7.8)", "$(dns-resolve-ip) takes");
  assert_refused ("$(dns-resolve-ip --use-dns=maybe 1.2.3.4)", "takes yes or no");
  assert_refused ("$(dns-resolve-ip --frobnicate 1.2.3.4)", "unknown option");
}

static void
test_replace_delimiter_and_padding (void)
{
  assert_renders ("$(replace-delimiter \"\t\" \",\" \"hello\tworld\")", "hello,world");
  assert_renders ("$(replace-delimiter \";:\" \" | \" \"a;b:c\")", "a | b | c");
  assert_refused ("$(replace-delimiter a b)", "$(replace-delimiter) takes");

  assert_renders ("[$(padding foo 10)]", "[       foo]");
  assert_renders ("$(padding foo 10 x)", "xxxxxxxfoo");
  assert_renders ("$(padding foo 10 abc)", "abcabcafoo");
  assert_renders ("$(padding foo 2)", "foo");
  assert_renders ("$(padding foo 3)", "foo");
  assert_renders ("$(padding foo 6 abc)", "abcfoo");
  assert_renders ("$(padding foo 4 '')", " foo");
  /* a pad cut inside a character stays cut, as syslog-ng writes it */
  assert_renders ("$(padding ${accented} 7 \xc3\xa9)", "\xc3h\xc3\xa9llo");
  assert_renders ("$(padding ${accented} 9 \xc3\xa9)", "\xc3\xa9\xc3h\xc3\xa9llo");
  assert_renders ("[$(padding foo wide)]", "[]");
  assert_refused ("$(padding foo)", "$(padding) takes");
}

static void
test_encodings (void)
{
  assert_renders ("[$(base64-encode)]", "[]");
  assert_renders ("[$(base64-encode abc)]", "[YWJj]");
  assert_renders ("[$(base64-encode abcd)]", "[YWJjZA==]");
  assert_renders ("[$(base64-encode abcd abcd abcd abcd)]", "[YWJjZGFiY2RhYmNkYWJjZA==]");
  assert_renders ("[$(base64-encode 'X X')]", "[WCBY]");

  assert_renders ("$(url-encode 'a b&c=d/\xc3\xa9~_.-')", "a%20b%26c%3Dd%2F%C3%A9~_.-");
  assert_renders ("$(url-encode $HOST $PID)", "bzorp23323");

  assert_renders ("$(ipv4-to-int $SOURCEIP)", "168496141");
  assert_renders ("$(ipv4-to-int 0.0.0.1 255.255.255.255)", "1,4294967295");
  assert_renders ("[$(ipv4-to-int 1.2.3 ::1 $HOST)]", "[]");
}

static void
test_arithmetic (void)
{
  assert_renders ("$(+ $FACILITY_NUM 1)", "20");
  assert_renders ("$(+ -1 -1)", "-2");
  assert_renders ("$(- $FACILITY_NUM 1)", "18");
  assert_renders ("$(- $FACILITY_NUM 20)", "-1");
  assert_renders ("$(* $FACILITY_NUM 2)", "38");
  assert_renders ("$(/ $FACILITY_NUM 2)", "9");
  assert_renders ("$(% $FACILITY_NUM 3)", "1");
  assert_renders ("$(/ $FACILITY_NUM 0)", "NaN");
  assert_renders ("$(% $FACILITY_NUM 0)", "NaN");
  assert_renders ("$(+ foo bar)", "NaN");
  assert_renders ("$(+ 5000000000 5000000000)", "10000000000");
  assert_renders ("$(% 10000000000 5000000001)", "4999999999");
  assert_renders ("$(* 9223372036854775807 2)", "NaN");
  assert_renders ("$(+ 1.5 2)", "3.5");
  assert_renders ("$(/ 1 4.0)", "0.25");
  assert_renders ("$(* 1e308 10)", "NaN");
  assert_refused ("$(+ 1)", "$(+) takes");
  assert_refused ("$(/ 1 2 3)", "$(/) takes");
}

static void
test_hashes (void)
{
  assert_renders ("$(md5 abc)", "900150983cd24fb0d6963f7d28e17f72");
  assert_renders ("$(hash abc)", "900150983cd24fb0d6963f7d28e17f72");
  assert_renders ("$(md5 a bc)", "900150983cd24fb0d6963f7d28e17f72");
  assert_renders ("$(sha1 abc)", "a9993e364706816aba3e25717850c26c9cd0d89d");
  assert_renders ("$(sha256 abc)", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert_renders ("$(sha512 abc)",
                  "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                  "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
  assert_renders ("$(sha256 --length 6 abc)", "ba7816");
  assert_renders ("$(md5 -l 100 abc)", "900150983cd24fb0d6963f7d28e17f72");
  assert_refused ("$(md5 --length x abc)", "$(md5) takes");
  assert_refused ("$(sha1 --length 0 abc)", "$(sha1) takes");
}

static void
test_if (void)
{
  assert_renders ("$(if (\"${LEVEL_NUM}\" < 4) high low)", "high");
  assert_renders ("$(if (\"${LEVEL_NUM}\" >= 4) high low)", "low");
  assert_renders ("$(if ('$FACILITY' eq 'local3') alma korte)", "alma");
  assert_renders ("$(if '\"$FACILITY\" lt \"local3\"' alma korte)", "korte");
  assert_renders ("$(if '\"$FACILITY_NUM\" >= \"19\" and \"kicsi\" eq \"nagy\"' alma korte)", "korte");
  assert_renders ("$(if '\"$FACILITY_NUM\" >= \"19\" or \"kicsi\" eq \"nagy\"' alma korte)", "alma");
  assert_renders ("$(if (not (\"$HOST\" eq \"other\")) \"not other\" other)", "not other");
  assert_renders ("$(if (\"${PROGRAM}\" eq \"x\") a $(if (\"${HOST}\" eq \"bzorp\") \"host ${HOST}\" c))",
                  "host bzorp");
  assert_refused ("$(if (\"a\" eq) x y)", "$(if) condition");
  assert_refused ("$(if (\"a\" eq \"b\") x)", "$(if) takes");
  assert_refused ("$(if (nosuch(x)) a b)", "nosuch");
  assert_refused ("$(if (\"a\" eq \"b\") and x y)", "$(if) takes");
}

/* Functions inside each other's arguments each keep their own text. */
static void
test_nesting (void)
{
  assert_renders ("$(padding $(base64-encode $(md5 abc)) 50 .)",
                  "......OTAwMTUwOTgzY2QyNGZiMGQ2OTYzZjdkMjhlMTdmNzI=");
  assert_renders ("$(replace-delimiter $(substr ,; 0 1) $(url-encode ' ') $(strip ' a,b '))", "a%20b");
  assert_renders ("$(+ $(length $PROGRAM) $(* 2 $(length $HOST)))", "19");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/basic-functions/substr", test_substr);
  g_test_add_func ("/basic-functions/strip-sanitize-length", test_strip_sanitize_length);
  g_test_add_func ("/basic-functions/case", test_case);
  g_test_add_func ("/basic-functions/dns-resolve-ip", test_dns_resolve_ip);
  g_test_add_func ("/basic-functions/replace-delimiter-and-padding", test_replace_delimiter_and_padding);
  g_test_add_func ("/basic-functions/encodings", test_encodings);
  g_test_add_func ("/basic-functions/arithmetic", test_arithmetic);
  g_test_add_func ("/basic-functions/hashes", test_hashes);
  g_test_add_func ("/basic-functions/if", test_if);
  g_test_add_func ("/basic-functions/nesting", test_nesting);
  return g_test_run ();
}
