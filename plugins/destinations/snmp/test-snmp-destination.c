/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snmp() against snmptrapd (Debian's, started once for the program on
 * free loopback ports with a configuration of the test's own: v2c traps
 * on one UDP port, v3 authPriv traps of a user it knows on another, and
 * TCP): the same traps, as snmptrapd logs them, from syslog-ng 3.38's
 * snmp module and from sluiced on one configuration; a value net-snmp
 * cannot encode dropped and counted. */
#include "tests/functional/harness.h"

#include <glib/gstdio.h>
#include <signal.h>
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
                               "createUser -e " ENGINE_ID " trapuser SHA \"authpass123\" AES \"privpass123\"\n",
                               -1, NULL))
    return FALSE;
  g_setenv ("SNMP_PERSISTENT_DIR", persist, TRUE);
  g_autofree gchar *listen = g_strdup_printf ("udp:127.0.0.1:%u,udp:127.0.0.1:%u,tcp:127.0.0.1:%u", v2c_port,
                                              v3_port, tcp_port);
  /* -m "" and -On: no MIBs, numeric OIDs, the same on every machine */
  const gchar *argv[] = { "snmptrapd", "-f", "-C", "-c", conf, "-Lf", trapd_log, "-m", "", "-On", "-n",
                          listen, NULL };
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
  g_assert_true (g_str_has_prefix (g_ptr_array_index (traps, 0), "TCP: [127.0.0.1]:(port)->"));
  g_assert_nonnull (strstr (g_ptr_array_index (traps, 0), "= IpAddress: 192.0.2.1\t"));
  g_assert_nonnull (strstr (g_ptr_array_index (traps, 0), "= OID: .1.3.6.1.4.1.8072.7"));
  g_assert_nonnull (strstr (g_ptr_array_index (traps, 1), "= STRING: \"over-tcp three\""));
  g_ptr_array_free (traps, TRUE);
}

/* sluiced --syntax-only on the configuration text: its stderr. */
static gchar *
syntax_errors (SlTestEnv *env, const gchar *text)
{
  const gchar *module_path = sl_test_module_path ();
  if (!module_path || !sl_test_write_config (env, text, NULL))
    return NULL;
  gchar *err = NULL;
  gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "--syntax-only", "-f", env->config,
                                   "--module-path", module_path, NULL);
  g_assert_cmpint (status, !=, 0);
  return err;
}

static void
test_config_errors (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *no_trap = syntax_errors (env,
    "@version: 3.38\n"
    "destination d { snmp(host(\"127.0.0.1\")\n"
    "  snmp-obj(\"1.3.6.1.4.1.8072.2.3.2.1\" \"octetstring\" \"${MSG}\")); };\n"
    "log { destination(d); };\n");
  g_assert_nonnull (strstr (no_trap, "sluice.conf:2:17:"));
  g_assert_nonnull (strstr (no_trap, "snmp() needs trap-obj()"));
  g_autofree gchar *type = syntax_errors (env,
    "@version: 3.38\n"
    "destination d { snmp(host(\"127.0.0.1\") trap-obj(\".1.3.6.1.6.3.1.1.4.1.0\" \"objectid\" \".1.3.6.1.4.1.1\")\n"
    "  snmp-obj(\"1.3.6.1.4.1.8072.2.3.2.1\" \"gauge\" \"${MSG}\")); };\n"
    "log { destination(d); };\n");
  g_assert_nonnull (strstr (type, "sluice.conf:3:"));
  g_assert_nonnull (strstr (type, "'gauge' is not an SNMP type of snmp()"));
  g_autofree gchar *engine = syntax_errors (env,
    "@version: 3.38\n"
    "destination d { snmp(host(\"127.0.0.1\") version(\"v3\") engine-id(\"0xabc\")\n"
    "  trap-obj(\".1.3.6.1.6.3.1.1.4.1.0\" \"objectid\" \".1.3.6.1.4.1.1\")); };\n"
    "log { destination(d); };\n");
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
  trapd_dir = g_dir_make_tmp ("sluice-snmp-XXXXXX", NULL);
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
  gint status = g_test_run ();
  kill (trapd_pid, SIGTERM);
  sl_test_child_wait (trapd_pid, SL_TEST_DEADLINE_MS * 1000);
  g_autofree gchar *rm = g_strdup_printf ("rm -rf '%s'", trapd_dir);
  if (system (rm) != 0)
    status = 1;
  g_free (trapd_log);
  g_free (trapd_dir);
  return status;
}
