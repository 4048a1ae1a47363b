/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslog-ng's SCL blocks on a running sluiced, used as a user would use
 * them (`@include "scl.conf"`, Debian's syslog-ng include folder on the
 * include path), fed real lines of the devices and programs they are for.
 * The expected lines are what syslog-ng 3.38 writes for the same
 * configuration and input. */
#include "tests/functional/harness.h"

#include <glib/gstdio.h>
#include <linux/acct.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

static gboolean
start_with_scl (SlTestEnv *env)
{
  g_autofree gchar *path = sl_test_scl_include_path ();
  return path && sl_test_daemon_start_with_args (env, "--include-path", path, NULL);
}

/* Sends lines over TCP to a config whose tcp() source listens on @PORT@,
 * and waits for out.log (in the test folder) to hold as many lines. */
static gchar *
route_lines (SlTestEnv *env, const gchar *config, const gchar *lines, guint n)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  g_autofree gchar *out = sl_test_path (env, "out.log");

  if (!port || !sl_test_write_config (env, config, "PORT", port_str, NULL) || !start_with_scl (env)
      || !sl_test_wait_tcp (env, port) || !sl_test_tcp_send (port, lines) || !sl_test_wait_lines (env, out, n))
    return NULL;
  return sl_test_read_file (out);
}

/* sudo-parser(): kv-parser() with pair-separator(";") and the stray words
 * before the first pair, which name the user. */
static void
test_sudo_parser (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *text = route_lines (env,
    "@version: 3.38\n"
    "@include \"scl.conf\"\n"
    "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
    "destination d_out { file(\"@DIR@/out.log\"\n"
    "  template(\"${.sudo.SUBJECT}|${.sudo.TTY}|${.sudo.PWD}|${.sudo.USER}|${.sudo.COMMAND}|$0\\n\")); };\n"
    "log { source(s_net); parser { sudo-parser(); }; destination(d_out); };\n",
    "<85>Dec  1 13:20:01 host1 sudo:    alice : TTY=pts/0 ; PWD=/home/alice ; USER=root ;"
    " COMMAND=/usr/bin/apt-get install -y vim\n"
    "<86>Dec  1 13:20:02 host1 sudo: pam_unix(sudo:session): session opened for user root(uid=0)\n"
    "<85>Dec  1 13:20:03 host1 sudo:     bob : 3 incorrect password attempts ; TTY=pts/1 ; PWD=/tmp ;"
    " USER=root ; COMMAND=/bin/sh\n", 2);

  g_assert_cmpstr (text, ==,
                   "alice|pts/0|/home/alice|root|/usr/bin/apt-get install -y vim|\"alice :\"\n"
                   "bob|pts/1|/tmp|root|/bin/sh|\"bob : 3 incorrect password attempts ;\"\n");
}

/* Network devices: a Cisco line's header parts and mnemonic, a FortiGate
 * line's pairs and date, a PAN-OS system log's columns, a Solaris msgid. */
static void
test_device_parsers (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *text = route_lines (env,
    "@version: 3.38\n"
    "@include \"scl.conf\"\n"
    "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) flags(no-parse)); };\n"
    "destination d_out { file(\"@DIR@/out.log\" template(\"$PRI $HOST $MSG"
    " [${.cisco.facility}|${.cisco.severity}|${.cisco.mnemonic}]"
    " [${.fortigate.devname}|${.fortigate.srcip}|$S_MONTH-$S_DAY $S_HOUR:$S_MIN]"
    " [${.panos.type}|${.panos.eventid}|${.panos.device_name}|$PROGRAM]"
    " [${.solaris.msgid}]\\n\")); };\n"
    "log { source(s_net); parser { cisco-parser(); }; destination(d_out); flags(final); };\n"
    "log { source(s_net); parser { fortigate-parser(); }; destination(d_out); flags(final); };\n"
    "log { source(s_net); parser { syslog-parser(); panos-parser(); }; destination(d_out); flags(final); };\n"
    "log { source(s_net); parser { syslog-parser(); extract-solaris-msgid(); }; destination(d_out); };\n",
    "<189>29: foo: *Apr 29 13:58:40.411: %SYS-5-CONFIG_I: Configured from console by console\n"
    "<189>date=2021-01-15 time=12:58:59 devname=\"FORTI_111\" type=\"traffic\" srcip=91.234.154.139\n"
    "<12>Apr 14 16:48:54 paloalto.test.net 1,2020/04/14 16:48:54,unknown,SYSTEM,auth,0,2020/04/14 16:48:54,,"
    "auth-fail,,0,0,general,medium,failed authentication for user 'admin',1718,0x0,0,0,0,0,,paloalto\n"
    "<38>Jan  5 10:00:00 sol1 sshd[123]: [ID 800047 auth.info] Accepted publickey for root\n", 4);

  if (!text)
    return;
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 5);
  g_assert_cmpstr (lines[0], ==, "189 foo %SYS-5-CONFIG_I: Configured from console by console [SYS|5|CONFIG_I]"
                                 " [||04-29 13:58] [|||] []");
  g_assert_true (g_str_has_prefix (lines[1], "189 "));
  g_assert_nonnull (strstr (lines[1], " [FORTI_111|91.234.154.139|01-15 12:58]"));
  g_assert_true (g_str_has_prefix (lines[2], "12 paloalto.test.net 1,2020/04/14 16:48:54,unknown,SYSTEM,"));
  g_assert_true (g_str_has_suffix (lines[2], ",paloalto [||] [||04-14 16:48] [SYSTEM|auth-fail|paloalto|paloalto_panos] []"));
  g_assert_cmpstr (lines[3], ==, "38 sol1 Accepted publickey for root [||] [||01-05 10:00] [|||sshd] [800047]");
}

/* linux-audit(): audit.log read as a file, each record's pairs and its
 * msg's, values the kernel wrote in hex decoded. */
static void
test_linux_audit_source (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *audit = sl_test_path (env, "audit.log");
  g_autofree gchar *out = sl_test_path (env, "out.log");

  if (!g_file_set_contents (audit,
                            "type=USER_CMD msg=audit(1700000000.123:42): pid=1234 uid=1000 auid=1000 ses=3"
                            " msg='cwd=\"/home/alice\" cmd=6C73202D6C61 terminal=pts/0 res=success'\n"
                            "type=PROCTITLE msg=audit(1700000000.123:43): proctitle=6C73002D6C61\n", -1, NULL)
      || !sl_test_write_config (env,
                                "@version: 3.38\n"
                                "@include \"scl.conf\"\n"
                                "source s_audit { linux-audit(filename(\"@DIR@/audit.log\") follow-freq(1)); };\n"
                                "destination d_out { file(\"@DIR@/out.log\" template(\"${.auditd.type}|${.auditd.pid}|"
                                "${.auditd.msg.cwd}|${.auditd.msg.cmd}|${.auditd.proctitle}|[${.auditd.msg}]\\n\")); };\n"
                                "log { source(s_audit); destination(d_out); };\n", NULL)
      || !start_with_scl (env) || !sl_test_wait_lines (env, out, 2))
    return;
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==,
                   "USER_CMD|1234|/home/alice|6C73202D6C61||[]\n"
                   "PROCTITLE||||ls\t-la|[]\n");
}

/* pacct(): the process accounting file as the kernel writes it, binary
 * records of struct acct_v3, read with file(format("pacct")); a record
 * appended while the daemon runs is read too. */
static void
test_pacct_source (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *pacct = sl_test_path (env, "pacct");
  g_autofree gchar *out = sl_test_path (env, "out.log");
  struct acct_v3 rec = {
    .ac_flag = 0x02, .ac_version = 3, .ac_uid = 1000, .ac_pid = 4242, .ac_ppid = 4200, .ac_etime = 1.5f,
    .ac_utime = 0x2005, .ac_mem = 0x7fff, .ac_comm = "bash",
  };

  if (!g_file_set_contents (pacct, (const gchar *) &rec, sizeof rec, NULL)
      || !sl_test_write_config (env,
                                "@version: 3.38\n"
                                "@include \"scl.conf\"\n"
                                "source s_acct { pacct(file(\"@DIR@/pacct\") follow-freq(1)); };\n"
                                "destination d_out { file(\"@DIR@/out.log\" template(\"${.pacct.ac_comm} "
                                "${.pacct.ac_pid} ${.pacct.ac_uid} ${.pacct.ac_flag} ${.pacct.ac_etime} "
                                "${.pacct.ac_utime} ${.pacct.ac_mem} [$MSG]\\n\")); };\n"
                                "log { source(s_acct); filter { tags(\".pacct\") }; destination(d_out); };\n",
                                NULL)
      || !start_with_scl (env) || !sl_test_wait_lines (env, out, 1))
    return;

  memcpy (rec.ac_comm, "id\0", 3);
  rec.ac_pid = 4243;
  FILE *f = fopen (pacct, "ab");
  g_assert_nonnull (f);
  g_assert_cmpuint (fwrite (&rec, sizeof rec, 1, f), ==, 1);
  fclose (f);
  if (!sl_test_wait_lines (env, out, 2))
    return;
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==,
                   "bash 4242 1000 02      1.50 40.00 4193792 []\n"
                   "id 4243 1000 02      1.50 40.00 4193792 []\n");
}

/* app-parser(): the applications of a topic in the order defined, the
 * first whose filter matches parsing the message and naming it in
 * .app.name; one of topic "*" lends its filter; auto-parse-exclude() leaves
 * applications out; no match makes the if's condition false. */
static void
test_app_parser (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  g_autofree gchar *out = sl_test_path (env, "out.log");
  g_autofree gchar *excluded = sl_test_path (env, "excluded.log");

  if (!port
      || !sl_test_write_config (env,
        "@version: 3.38\n"
        "application a1[t] { filter { message(\"one\"); }; parser { kv-parser(prefix(\".a1.\")); }; };\n"
        "application a2[t] { filter { message(\"two\"); }; };\n"
        "application a3[*] { filter { message(\"three\"); }; };\n"
        "application a3[t] { parser { kv-parser(prefix(\".a3.\")); }; };\n"
        "application a4[other] { filter { message(\"four\"); }; };\n"
        "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) flags(no-parse)); };\n"
        "destination d_out { file(\"@DIR@/out.log\" template(\"${.app.name}|${.a1.x}|${.a3.z}|$MSG\\n\")); };\n"
        "destination d_ex { file(\"@DIR@/excluded.log\" template(\"${.app.name}|${.a1.x}|$MSG\\n\")); };\n"
        "log { source(s_net); if { parser { app-parser(topic(t)); }; }\n"
        "  else { rewrite { set(\"none\" value(\".app.name\")); }; }; destination(d_out); };\n"
        "log { source(s_net); parser { app-parser(topic(t) auto-parse-exclude(\"a1 a3\")); }; destination(d_ex); };\n",
        "PORT", port_str, NULL)
      || !sl_test_daemon_start (env) || !sl_test_wait_tcp (env, port)
      || !sl_test_tcp_send (port, "one x=1\ntwo\nthree z=3\nfour\n")
      || !sl_test_wait_lines (env, out, 4) || !sl_test_wait_lines (env, excluded, 1))
    return;
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==, "a1|1||one x=1\na2|||two\na3||3|three z=3\nnone|||four\n");
  g_autofree gchar *rest = sl_test_read_file (excluded);
  g_assert_cmpstr (rest, ==, "a2||two\n");
}

/* default-network-drivers(): BSD lines on its TCP port go through the
 * syslog-raw and syslog applications of the SCL (iptables, cee, sudo),
 * an RFC 5424 one on its RFC 5424 port arrives too. Its network() sources
 * have no ip() parameter, so they listen on every address, on free ports;
 * the lines are sent over loopback. */
static void
test_default_network_drivers (SlTestEnv *env, gconstpointer data)
{
  guint16 tcp = sl_test_free_port (SOCK_STREAM);
  guint16 udp = sl_test_free_port (SOCK_DGRAM);
  guint16 tls = sl_test_free_port (SOCK_STREAM);
  guint16 rfc5424 = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *tcp_str = g_strdup_printf ("%u", tcp);
  g_autofree gchar *udp_str = g_strdup_printf ("%u", udp);
  g_autofree gchar *tls_str = g_strdup_printf ("%u", tls);
  g_autofree gchar *rfc5424_str = g_strdup_printf ("%u", rfc5424);
  g_autofree gchar *out = sl_test_path (env, "out.log");
  static const gchar framed[] = "<14>1 2026-12-01T14:00:04+00:00 host2 app 12 - - rfc5424 over tcp";
  g_autofree gchar *octet_counted = g_strdup_printf ("%zu %s", strlen (framed), framed);

  if (!tcp || !udp || !tls || !rfc5424
      || !sl_test_write_config (env,
        "@version: 3.38\n"
        "@include \"scl.conf\"\n"
        "source s_net { default-network-drivers(tcp-port(@TCP@) udp-port(@UDP@) rfc5424-tls-port(@TLS@)\n"
        "  rfc5424-tcp-port(@RFC5424@)); };\n"
        "destination d_out { file(\"@DIR@/out.log\" template(\"${.app.name}|$PROGRAM|$FACILITY.$LEVEL|"
        "${.iptables.SRC}|${.cee.a}|${.sudo.USER}|$MSG\\n\")); };\n"
        "log { source(s_net); destination(d_out); };\n",
        "TCP", tcp_str, "UDP", udp_str, "TLS", tls_str, "RFC5424", rfc5424_str, NULL)
      || !start_with_scl (env) || !sl_test_wait_tcp (env, tcp) || !sl_test_wait_tcp (env, rfc5424)
      || !sl_test_tcp_send (tcp,
                            "<4>Dec  1 14:00:00 host1 kernel: IN=eth0 OUT= SRC=1.2.3.4 DST=5.6.7.8 PROTO=TCP\n"
                            "<13>Dec  1 14:00:01 host1 prog: plain message\n"
                            "<13>Dec  1 14:00:02 host1 prog: @cee: {\"a\":\"b\",\"n\":1}\n"
                            "<86>Dec  1 14:00:03 host1 sudo:     alice : TTY=pts/0 ; PWD=/home/alice ; USER=root ;"
                            " COMMAND=/bin/ls\n")
      || !sl_test_wait_lines (env, out, 4) || !sl_test_tcp_send (rfc5424, octet_counted)
      || !sl_test_wait_lines (env, out, 5))
    return;
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==,
                   "iptables|kernel|kern.warning|1.2.3.4|||IN=eth0 OUT= SRC=1.2.3.4 DST=5.6.7.8 PROTO=TCP\n"
                   "|prog|user.notice||||plain message\n"
                   "cee|prog|user.notice||b||@cee: {\"a\":\"b\",\"n\":1}\n"
                   "sudo|sudo|authpriv.info|||root|    alice : TTY=pts/0 ; PWD=/home/alice ; USER=root ;"
                   " COMMAND=/bin/ls\n"
                   "|app|user.info||||rfc5424 over tcp\n");
}

/* kubernetes(): the container logs under base-dir() (here a folder of the
 * test's shaped like /var/log/containers, which the block's pattern on
 * $FILE_NAME expects), partial lines joined, the pod's names from the file's
 * name. */
static void
test_kubernetes_source (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *dir = sl_test_path (env, "var/log/containers");
  g_autofree gchar *out = sl_test_path (env, "out.log");
  g_autofree gchar *id = g_strnfill (64, 'a');
  g_autofree gchar *name = g_strdup_printf ("web-0_prod_nginx-%s.log", id);
  g_autofree gchar *log = g_build_filename (dir, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  if (!g_file_set_contents (log,
                            "2026-12-01T14:00:00.123456789Z stdout F hello world\n"
                            "2026-12-01T14:00:01.000000000Z stderr P part one \n"
                            "2026-12-01T14:00:01.500000000Z stderr F and two\n", -1, NULL)
      || !sl_test_write_config (env,
        "@version: 3.38\n"
        "@include \"scl.conf\"\n"
        "source s_k8s { kubernetes(base-dir(\"@DIR@/var/log/containers\") cluster-name(\"c1\")); };\n"
        "destination d_out { file(\"@DIR@/out.log\" template(\"$HOST|$PROGRAM|$PID|${.k8s.namespace_name}|"
        "${.k8s.pod_name}|${.k8s.container_name}|${.k8s.container_id}|${.k8s.stream}|$MSG|"
        "$(basename $FILE_NAME)\\n\")); };\n"
        "log { source(s_k8s); destination(d_out); };\n", NULL)
      || !start_with_scl (env) || !sl_test_wait_lines (env, out, 2))
    return;
  g_autofree gchar *text = sl_test_read_file (out);
  g_autofree gchar *expected = g_strdup_printf (
    "c1/prod/web-0|nginx|aaaaaaaaaaaa/stdout|prod|web-0|nginx|aaaaaaaaaaaa|stdout|hello world|%s\n"
    "c1/prod/web-0|nginx|aaaaaaaaaaaa/stderr|prod|web-0|nginx|aaaaaaaaaaaa|stderr|part one and two|%s\n",
    name, name);
  g_assert_cmpstr (text, ==, expected);
}

/* mbox(): each mail of an mbox file one message, from its "From " line
 * to the next one's; the last one sent when multi-line-timeout() passes. */
static void
test_mbox_source (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *mbox = sl_test_path (env, "in.mbox");
  g_autofree gchar *out = sl_test_path (env, "out.log");

  if (!g_file_set_contents (mbox,
                            "From alice@example.org Tue Dec  1 10:00:00 2026\n"
                            "Subject: one\n"
                            "\n"
                            "Hello Bob.\n"
                            "\n"
                            "From bob@example.org Tue Dec  1 11:00:00 2026\n"
                            "Subject: two\n"
                            "\n"
                            "Hi Alice.\n", -1, NULL)
      || !sl_test_write_config (env,
                                "@version: 3.38\n"
                                "@include \"scl.conf\"\n"
                                "source s_mbox { mbox(filename(\"@DIR@/in.mbox\") multi-line-timeout(2) follow-freq(0.5)); };\n"
                                "destination d_out { file(\"@DIR@/out.log\" template(\"[$MSG]\\n\")); };\n"
                                "log { source(s_mbox); destination(d_out); };\n", NULL)
      || !start_with_scl (env) || !sl_test_wait_lines (env, out, 8))
    return;
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==,
                   "[From alice@example.org Tue Dec  1 10:00:00 2026\n"
                   "Subject: one\n"
                   "\n"
                   "Hello Bob.]\n"
                   "[From bob@example.org Tue Dec  1 11:00:00 2026\n"
                   "Subject: two\n"
                   "\n"
                   "Hi Alice.]\n");
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/scl-blocks/sudo-parser", test_sudo_parser);
  SL_TEST_ADD ("/scl-blocks/device-parsers", test_device_parsers);
  SL_TEST_ADD ("/scl-blocks/linux-audit-source", test_linux_audit_source);
  SL_TEST_ADD ("/scl-blocks/pacct-source", test_pacct_source);
  SL_TEST_ADD ("/scl-blocks/app-parser", test_app_parser);
  SL_TEST_ADD ("/scl-blocks/default-network-drivers", test_default_network_drivers);
  SL_TEST_ADD ("/scl-blocks/kubernetes-source", test_kubernetes_source);
  SL_TEST_ADD ("/scl-blocks/mbox-source", test_mbox_source);
  return g_test_run ();
}
