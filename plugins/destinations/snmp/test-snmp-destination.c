/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snmp() against snmptrapd (Debian's, started once for the program on
 * free loopback ports with a configuration of the test's own: v2c traps
 * on one UDP port, v3 authPriv traps of a user it knows on another, and
 * TCP): the same traps, as snmptrapd logs them, from syslog-ng 3.38's
 * snmp module and from sluiced on one configuration; a value net-snmp
 * cannot encode dropped and counted; and the snmptrap() source reading
 * that snmptrapd's log as syslog-ng reads it. */
#include "tests/functional/harness.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

static gchar *trapd_dir;
static gchar *trapd_log;
static guint16 v2c_port, v3_port, tcp_port;
static GPid trapd_pid;

#define ENGINE_ID "0x80001f8880aabbccdd"

static gboolean
trapd_start (void)
{
  g_autofree gchar *conf = g_build_filename (trapd_dir, "trapd.conf", NULL);
  g_autofree gchar *persist = g_build_filename (trapd_dir, "persist", NULL);
  g_autofree gchar *err = g_build_filename (trapd_dir, "snmptrapd.stderr", NULL);
  /* snmptrapd keeps its state in SNMP_PERSISTENT_DIR/snmptrapd.conf, so
   * the configuration has another name */
  if (g_mkdir (persist, 0700) != 0
      || !g_file_set_contents (conf,
                               "disableAuthorization yes\n"
                               /* v1 traps as syslog-ng's snmptrap() documentation has snmptrapd
                                * write them; v2 ones have that shape already */
                               "format1 %.4y-%.2m-%.2l %.2h:%.2j:%.2k %B [%b]: %N\\n\\t%W Trap (%q) Uptime: %#T\\n%v\\n\n"
                               "createUser -e " ENGINE_ID " trapuser SHA \"authpass123\" AES \"privpass123\"\n",
                               -1, NULL))
    return FALSE;
  g_setenv ("SNMP_PERSISTENT_DIR", persist, TRUE);
  g_autofree gchar *listen = g_strdup_printf ("udp:127.0.0.1:%u,udp:127.0.0.1:%u,tcp:127.0.0.1:%u", v2c_port,
                                              v3_port, tcp_port);
  /* -m "" and -On: no MIBs, numeric OIDs, the same on every machine */
  const gchar *argv[] = { "snmptrapd", "-f", "-C", "-c", conf, "-Lf", trapd_log, "-m", "", "-On", listen, NULL };
  trapd_pid = sl_test_spawn_argv (argv, err);
  g_unsetenv ("SNMP_PERSISTENT_DIR");
  /* it writes its version line once it listens */
  for (guint i = 0; trapd_pid && i < SL_TEST_DEADLINE_MS / 50; i++)
    {
      g_autofree gchar *text = sl_test_read_file (trapd_log);
      if (text && strstr (text, "NET-SNMP version"))
        return TRUE;
      g_usleep (50 * 1000);
    }
  return FALSE;
}

/* The traps snmptrapd logged that hold needle, each its header and
 * variables with the sender's port and the time taken out. */
static GPtrArray *
traps_with (const gchar *needle)
{
  g_autofree gchar *text = sl_test_read_file (trapd_log);
  GPtrArray *traps = g_ptr_array_new_with_free_func (g_free);
  if (!text)
    return traps;
  GRegex *start = g_regex_new ("^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8} ", G_REGEX_MULTILINE, 0, NULL);
  GRegex *port = g_regex_new ("\\]:[0-9]+->", 0, 0, NULL);
  gchar **entries = g_regex_split (start, text, 0);
  for (guint i = 0; entries[i]; i++)
    if (strstr (entries[i], needle))
      g_ptr_array_add (traps, g_regex_replace_literal (port, entries[i], -1, 0, "]:(port)->", 0, NULL));
  g_strfreev (entries);
  g_regex_unref (start);
  g_regex_unref (port);
  return traps;
}

static guint
count_traps (const gchar *needle)
{
  GPtrArray *traps = traps_with (needle);
  guint n = traps->len;
  g_ptr_array_free (traps, TRUE);
  return n;
}

static gboolean
wait_traps (const gchar *needle, guint n)
{
  for (guint i = 0; i < SL_TEST_DEADLINE_MS / 50; i++)
    {
      if (count_traps (needle) >= n)
        return TRUE;
      g_usleep (50 * 1000);
    }
  g_test_fail_printf ("snmptrapd logged %u traps with '%s', not %u", count_traps (needle), needle, n);
  return FALSE;
}

/* syslog-ng names an snmp() destination by its host and port alone, so
 * the two go to different ports. */
static const gchar config[] =
  "@version: 3.38\n"
  "options { keep-hostname(yes); };\n"
  "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_v2c { snmp(host(\"127.0.0.1\") port(@V2C@) version(\"v2c\") community(\"public\")\n"
  "    snmp-obj(\"1.3.6.1.4.1.18372.3.1.1.1.1.1\" \"octetstring\" \"@NAME@-v2c ${HOST}\")\n"
  "    trap-obj(\".1.3.6.1.6.3.1.1.4.1.0\" \"objectid\" \".1.3.6.1.4.1.18372.3.1.1.1.2.1\")\n"
  "    snmp-obj(\"1.3.6.1.4.1.18372.3.1.1.1.1.2\" \"integer\" \"${LEVEL_NUM}\")\n"
  "    snmp-obj(\"1.3.6.1.4.1.18372.3.1.1.1.1.3\" \"octetstring\" \"${MSG}\")\n"
  "    snmp-obj(\"1.3.6.1.4.1.18372.3.1.1.1.1.4\" \"ipaddress\" \"10.0.0.${PID}\")\n"
  "    snmp-obj(\"1.3.6.1.4.1.18372.3.1.1.1.1.5\" \"counter32\" \"x${PID}\")\n"
  "    snmp-obj(\"1.3.6.1.4.1.18372.3.1.1.1.1.6\" \"timeticks\" \"${PID}00\")); };\n"
  "destination d_v3 { snmp(host(\"127.0.0.1\") port(@V3@) version(\"v3\") engine-id(\"" ENGINE_ID "\")\n"
  "    auth-username(\"trapuser\") auth-algorithm(\"SHA\") auth-password(\"authpass123\")\n"
  "    enc-algorithm(\"AES\") enc-password(\"privpass123\")\n"
  "    trap-obj(\".1.3.6.1.6.3.1.1.4.1.0\" \"objectid\" \".1.3.6.1.4.1.18372.3.1.1.1.2.2\")\n"
  "    snmp-obj(\"1.3.6.1.4.1.18372.3.1.1.1.1.1\" \"octetstring\" \"@NAME@-v3 ${PROGRAM}\")\n"
  "    snmp-obj(\"1.3.6.1.4.1.18372.3.1.1.1.1.3\" \"octetstring\" \"${MSG}\")); };\n"
  "log { source(s); destination(d_v2c); destination(d_v3); flags(flow-control); };\n";

static void
assert_same_traps (const gchar *kind, guint n)
{
  g_autofree gchar *sl_needle = g_strdup_printf ("\"sl-%s ", kind);
  g_autofree gchar *ng_needle = g_strdup_printf ("\"ng-%s ", kind);
  GPtrArray *sl = traps_with (sl_needle);
  GPtrArray *ng = traps_with (ng_needle);
  g_assert_cmpuint (sl->len, ==, n);
  g_assert_cmpuint (ng->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      GString *sl_trap = g_string_new (g_ptr_array_index (sl, i));
      g_string_replace (sl_trap, sl_needle, ng_needle, 1);
      g_assert_cmpstr (sl_trap->str, ==, g_ptr_array_index (ng, i));
      g_string_free (sl_trap, TRUE);
    }
  g_ptr_array_free (sl, TRUE);
  g_ptr_array_free (ng, TRUE);
}

static void
test_same_as_syslog_ng (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *v2c = g_strdup_printf ("%u", v2c_port);
  g_autofree gchar *v3 = g_strdup_printf ("%u", v3_port);
  GString *conf = g_string_new (config);
  g_string_replace (conf, "@V2C@", v2c, 0);
  g_string_replace (conf, "@V3@", v3, 0);
  GString *text = g_string_new (NULL);
  const guint n = 6;
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "<%u>Dec  1 10:00:00 host%u app[%u]: trap %u with \"quotes\"%s\n", 8 + i, i,
                            10 + i, i, i % 2 ? ", ümlauts and a long tail to wrap the hex dump" : "");
  g_autofree gchar *sl_out = NULL, *ng_out = NULL;
  GPid ng = 0;
  gboolean ran = sl_test_side_by_side (env, conf->str, text->str, NULL, 0, &sl_out, &ng_out, &ng);
  g_string_free (conf, TRUE);
  g_string_free (text, TRUE);
  if (!ran)
    return;
  gboolean delivered = wait_traps ("\"sl-v2c ", n) && wait_traps ("\"ng-v2c ", n) && wait_traps ("\"sl-v3 ", n)
                       && wait_traps ("\"ng-v3 ", n);
  sl_test_syslog_ng_stop (env, ng);
  if (!delivered)
    return;
  assert_same_traps ("v2c", n);
  assert_same_traps ("v3", n);
  GPtrArray *v2c_traps = traps_with ("\"sl-v2c host2\"");
  g_assert_cmpuint (v2c_traps->len, ==, 1);
  const gchar *trap = g_ptr_array_index (v2c_traps, 0);
  g_assert_nonnull (strstr (trap, ".1.3.6.1.4.1.18372.3.1.1.1.1.2 = INTEGER: 2\t"));
  g_assert_nonnull (strstr (trap, "= STRING: \"trap 2 with \\\"quotes\\\"\""));
  g_assert_nonnull (strstr (trap, "= IpAddress: 10.0.0.12\t"));
  g_assert_nonnull (strstr (trap, "= Counter32: 0\t"));
  g_assert_nonnull (strstr (trap, "= Timeticks: (1200) 0:00:12.00"));
  g_ptr_array_free (v2c_traps, TRUE);
}

/* transport("TCP") (not in syslog-ng 3.38's grammar), an objectid
 * variable besides trap-obj() (which syslog-ng 3.38 cannot send), and a
 * value that is
 * not an address for an ipaddress variable: dropped and counted, the
 * next trap sent. */
static void
test_tcp_and_unencodable (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = g_strdup_printf ("%u", tcp_port);
  guint16 tcp = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *tcp_text = g_strdup_printf ("%u", tcp);
  g_assert_true (sl_test_write_config (env,
                                       "@version: 4.0\n"
                                       "source s { tcp(ip(\"127.0.0.1\") port(@TCP@)); };\n"
                                       "destination d { snmp(host(\"127.0.0.1\") port(@TRAPD@) transport(\"TCP\")\n"
                                       "    trap-obj(\".1.3.6.1.6.3.1.1.4.1.0\" \"objectid\" \".1.3.6.1.4.1.8072.2.3.0.1\")\n"
                                       "    snmp-obj(\"1.3.6.1.4.1.8072.2.3.2.1\" \"ipaddress\" \"${PROGRAM}\")\n"
                                       "    snmp-obj(\"1.3.6.1.4.1.8072.2.3.2.2\" \"octetstring\" \"over-tcp ${MSG}\")\n"
                                       "    snmp-obj(\"1.3.6.1.4.1.8072.2.3.2.3\" \"objectid\" \".1.3.6.1.4.1.8072.${PID}\")); };\n"
                                       "log { source(s); destination(d); flags(flow-control); };\n",
                                       "TCP", tcp_text, "TRAPD", port, NULL));
  if (!sl_test_daemon_start (env) || !sl_test_wait_tcp (env, tcp))
    return;
  g_assert_true (sl_test_tcp_send (tcp, "<13>Dec  1 10:00:00 h 192.0.2.1[7]: one\n"
                                        "<13>Dec  1 10:00:00 h nowhere: two\n"
                                        "<13>Dec  1 10:00:00 h 192.0.2.3[9]: three\n"));
  if (!wait_traps ("\"over-tcp ", 2))
    return;
  g_assert_true (sl_test_wait_stat (env, "destination", "d", "unencodable", 1));
  g_assert_true (sl_test_wait_stat (env, "destination", "d", "dropped", 1));
  GPtrArray *traps = traps_with ("\"over-tcp ");
  g_assert_cmpuint (traps->len, ==, 2);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (traps, 0), "localhost [TCP: [127.0.0.1]:(port)->"));
  g_assert_nonnull (strstr (g_ptr_array_index (traps, 0), "= IpAddress: 192.0.2.1\t"));
  g_assert_nonnull (strstr (g_ptr_array_index (traps, 0), "= OID: .1.3.6.1.4.1.8072.7"));
  g_assert_nonnull (strstr (g_ptr_array_index (traps, 1), "= STRING: \"over-tcp three\""));
  g_ptr_array_free (traps, TRUE);
}

/* Sends a trap with net-snmp's snmptrap (Debian's snmp); args after the
 * version's own. */
static gboolean
send_trap (const gchar *first, ...)
{
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) "snmptrap");
  g_ptr_array_add (argv, (gpointer) "-m");
  g_ptr_array_add (argv, (gpointer) "");
  va_list args;
  va_start (args, first);
  for (const gchar *a = first; a; a = va_arg (args, const gchar *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_argv ((const gchar *const *) argv->pdata, NULL, &err);
  g_ptr_array_free (argv, TRUE);
  if (status != 0)
    g_test_fail_printf ("snmptrap failed: %s", err);
  return status == 0;
}

static const gchar snmptrap_config[] =
  "@version: 3.38\n"
  "@include \"scl.conf\"\n"
  "source s_trap { snmptrap(filename(\"@TRAPLOG@\")); };\n"
  "template t_trap { template(\"${.snmp.hostname}|${.snmp.transport_info}|${.snmp.enterprise_oid}|${.snmp.type}|"
  "${.snmp.subtype}|${.snmp.uptime}|${.snmp..1.3.6.1.6.3.1.1.4.1.0}|${.snmp..1.3.6.1.4.1.8072.2.3.2.2}|"
  "${PROGRAM}|${ISODATE}|${MSG}\\n\"); };\n"
  "destination d { file(\"@OUT@\" template(t_trap)); };\n"
  "log { source(s_trap); destination(d); };\n";

/* snmptrap(), the SCL source over snmptrapd's log, read by sluiced (its
 * snmptrapd-parser()) and by syslog-ng 3.38 from the log this program's
 * snmptrapd wrote: the traps of the tests before and v1, v2c and v3 traps
 * of net-snmp's snmptrap. The last record stays unread by both until
 * another starts (multi-line-mode("prefix-garbage")), so a last trap
 * closes the ones compared. */
static void
test_snmptrap_source (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *snmptrap = g_find_program_in_path ("snmptrap");
  g_autofree gchar *syslog_ng = sl_test_syslog_ng_path ();
  if (!snmptrap || !syslog_ng)
    {
      g_test_skip ("snmptrap or syslog-ng is not installed (quickstart installs snmp and syslog-ng-core)");
      return;
    }
  g_autofree gchar *v2c = g_strdup_printf ("udp:127.0.0.1:%u", v2c_port);
  g_autofree gchar *v3 = g_strdup_printf ("udp:127.0.0.1:%u", v3_port);
  g_assert_true (send_trap ("-v", "2c", "-c", "public", v2c, "", ".1.3.6.1.4.1.8072.2.3.0.1",
                            ".1.3.6.1.4.1.8072.2.3.2.1", "s", "it's a \"trap\", with = and\ttab",
                            ".1.3.6.1.4.1.8072.2.3.2.2", "i", "42", ".1.3.6.1.4.1.8072.2.3.2.3", "a", "192.0.2.7",
                            NULL));
  g_assert_true (send_trap ("-v", "1", "-c", "public", v2c, ".1.3.6.1.4.1.8072.2.3", "127.0.0.1", "6", "17", "",
                            ".1.3.6.1.4.1.8072.2.3.2.1", "s", "a v1 trap", NULL));
  g_assert_true (send_trap ("-v", "1", "-c", "public", v2c, ".1.3.6.1.4.1.8072.2.3", "127.0.0.1", "2", "0", "",
                            NULL));
  g_assert_true (send_trap ("-v", "3", "-e", ENGINE_ID, "-u", "trapuser", "-a", "SHA", "-A", "authpass123", "-x",
                            "AES", "-X", "privpass123", "-l", "authPriv", v3, "", ".1.3.6.1.4.1.8072.2.3.0.2",
                            ".1.3.6.1.4.1.8072.2.3.2.1", "s", "the last compared", NULL));
  g_assert_true (send_trap ("-v", "2c", "-c", "public", v2c, "", ".1.3.6.1.4.1.8072.2.3.0.1",
                            ".1.3.6.1.4.1.8072.2.3.2.1", "s", "closes the one before", NULL));
  if (!wait_traps ("closes the one before", 1))
    return;

  g_autofree gchar *sl_out = sl_test_path (env, "sl.txt");
  g_autofree gchar *ng_out = sl_test_path (env, "ng.txt");
  g_autofree gchar *ng_config = sl_test_path (env, "syslog-ng.conf");
  g_autofree gchar *include_path = sl_test_scl_include_path ();
  if (!sl_test_write_config (env, snmptrap_config, "TRAPLOG", trapd_log, "OUT", ng_out, NULL)
      || rename (env->config, ng_config) != 0
      || !sl_test_write_config (env, snmptrap_config, "TRAPLOG", trapd_log, "OUT", sl_out, NULL) || !include_path
      || !sl_test_daemon_start_with_args (env, "--include-path", include_path, NULL))
    return;
  GPid ng = sl_test_syslog_ng_start (env, ng_config);
  gboolean read = sl_test_wait_contains (env, sl_out, "the last compared")
                  && sl_test_wait_contains (env, ng_out, "the last compared");
  sl_test_syslog_ng_stop (env, ng);
  if (!read)
    return;
  g_autofree gchar *sl_text = sl_test_read_file (sl_out);
  g_autofree gchar *ng_text = sl_test_read_file (ng_out);
  g_assert_cmpstr (sl_text, ==, ng_text);
  g_assert_nonnull (strstr (sl_text, "|.1.3.6.1.4.1.8072.2.3|Enterprise Specific Trap|.17|"));
  g_assert_nonnull (strstr (sl_text, "|42|snmptrapd|"));
  g_assert_nonnull (strstr (sl_text, "|Link Down Trap|0|"));
  g_assert_null (strstr (sl_text, "closes the one before"));
}

static void
test_config_errors (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *no_trap = sl_test_refused_config (env,
    "@version: 3.38\n"
    "destination d { snmp(host(\"127.0.0.1\")\n"
    "  snmp-obj(\"1.3.6.1.4.1.8072.2.3.2.1\" \"octetstring\" \"${MSG}\")); };\n"
    "log { destination(d); };\n", NULL);
  g_assert_nonnull (strstr (no_trap, "sluice.conf:2:17:"));
  g_assert_nonnull (strstr (no_trap, "snmp() needs trap-obj()"));
  g_autofree gchar *type = sl_test_refused_config (env,
    "@version: 3.38\n"
    "destination d { snmp(host(\"127.0.0.1\") trap-obj(\".1.3.6.1.6.3.1.1.4.1.0\" \"objectid\" \".1.3.6.1.4.1.1\")\n"
    "  snmp-obj(\"1.3.6.1.4.1.8072.2.3.2.1\" \"gauge\" \"${MSG}\")); };\n"
    "log { destination(d); };\n", NULL);
  g_assert_nonnull (strstr (type, "sluice.conf:3:"));
  g_assert_nonnull (strstr (type, "'gauge' is not an SNMP type of snmp()"));
  g_autofree gchar *engine = sl_test_refused_config (env,
    "@version: 3.38\n"
    "destination d { snmp(host(\"127.0.0.1\") version(\"v3\") engine-id(\"0xabc\")\n"
    "  trap-obj(\".1.3.6.1.6.3.1.1.4.1.0\" \"objectid\" \".1.3.6.1.4.1.1\")); };\n"
    "log { destination(d); };\n", NULL);
  g_assert_nonnull (strstr (engine, "sluice.conf:2:"));
  g_assert_nonnull (strstr (engine, "engine-id() of snmp() is"));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  g_setenv ("TZ", "UTC", TRUE);
  g_autofree gchar *program = g_find_program_in_path ("snmptrapd");
  if (!program)
    {
      g_print ("1..0 # SKIP snmptrapd is not installed (quickstart installs it)\n");
      return 0;
    }
  trapd_dir = sl_test_peer_dir ("snmp");
  trapd_log = g_build_filename (trapd_dir, "traps.log", NULL);
  v2c_port = sl_test_free_port (SOCK_DGRAM);
  v3_port = sl_test_free_port (SOCK_DGRAM);
  tcp_port = sl_test_free_port (SOCK_STREAM);
  if (!trapd_dir || !trapd_start ())
    {
      g_printerr ("snmptrapd did not start\n");
      return 1;
    }
  SL_TEST_ADD ("/snmp/same-as-syslog-ng", test_same_as_syslog_ng);
  SL_TEST_ADD ("/snmp/tcp-and-unencodable", test_tcp_and_unencodable);
  SL_TEST_ADD ("/snmp/config-errors", test_config_errors);
  SL_TEST_ADD ("/snmp/snmptrap-source", test_snmptrap_source);
  gint status = g_test_run ();
  if (!sl_test_peer_stop (trapd_pid, trapd_dir))
    status = 1;
  g_free (trapd_log);
  g_free (trapd_dir);
  return status;
}
