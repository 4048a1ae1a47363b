/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TRANSPORT and MSGFORMAT, which syslog-ng 4 sets on every message it
 * reads, side by side with syslog-ng 4.8 (Debian 13's, in the root of
 * tests/peers/trixie-root): the same messages over udp(), tcp(),
 * syslog() over TCP, network() over UDP without parsing, unix-dgram(),
 * unix-stream() and file() into both under @version: 4.8, each source's
 * output compared byte for byte: the two fields and the whole
 * all-nv-pairs scope but what names the host, the peer, the sending
 * process (.unix.*) or the file read.
 * A @version: 3.x configuration keeps 3.38's messages, without them. */
#include "tests/functional/harness.h"

#include <string.h>
#include <sys/socket.h>

static gchar *trixie;   /* the Debian 13 root, or NULL */

#define TEMPLATE "${TRANSPORT}|${MSGFORMAT}|$(format-json --scope all-nv-pairs --exclude HOST --exclude HOST_FROM " \
                 "--exclude SOURCEIP --exclude FILE_NAME --exclude .unix.*)\\n"

static const gchar config[] =
  "@version: @VERSION@\n"
  "source s_udp { udp(ip(\"127.0.0.1\") port(@UDP@)); };\n"
  "source s_tcp { tcp(ip(\"127.0.0.1\") port(@TCP@)); };\n"
  "source s_syslog { syslog(ip(\"127.0.0.1\") port(@SYSLOG@) transport(\"tcp\")); };\n"
  "source s_raw { network(ip(\"127.0.0.1\") port(@RAW@) transport(\"udp\") flags(no-parse)); };\n"
  "source s_dgram { unix-dgram(\"@DIR@/dgram.sock\"); };\n"
  "source s_stream { unix-stream(\"@DIR@/stream.sock\"); };\n"
  "source s_file { file(\"@DIR@/in.log\" follow-freq(0.1)); };\n"
  "template t_out { template(\"" TEMPLATE "\"); };\n"
  "log { source(s_udp); destination { file(\"@DIR@/udp.out\" template(t_out)); }; };\n"
  "log { source(s_tcp); destination { file(\"@DIR@/tcp.out\" template(t_out)); }; };\n"
  "log { source(s_syslog); destination { file(\"@DIR@/syslog.out\" template(t_out)); }; };\n"
  "log { source(s_raw); destination { file(\"@DIR@/raw.out\" template(t_out)); }; };\n"
  "log { source(s_dgram); destination { file(\"@DIR@/dgram.out\" template(t_out)); }; };\n"
  "log { source(s_stream); destination { file(\"@DIR@/stream.out\" template(t_out)); }; };\n"
  "log { source(s_file); destination { file(\"@DIR@/file.out\" template(t_out)); }; };\n";

static const gchar line[] = "<13>Dec  6 10:00:00 host prog[12]: hello\n";
/* as a local program writes it, without a host name */
static const gchar local_line[] = "<13>Dec  6 10:00:00 prog[12]: hello\n";
static const gchar rfc5424[] = "<14>1 2026-12-06T10:00:00Z host app 7 ID1 [x@1 a=\"b\"] hello";

static const gchar *const outputs[] = { "udp", "tcp", "syslog", "raw", "dgram", "stream", "file" };

typedef struct
{
  guint16 udp, tcp, syslog, raw;
} Ports;

static gchar *
config_for (const gchar *version, const Ports *ports)
{
  GString *text = g_string_new (config);
  g_autofree gchar *udp = g_strdup_printf ("%u", ports->udp);
  g_autofree gchar *tcp = g_strdup_printf ("%u", ports->tcp);
  g_autofree gchar *syslog = g_strdup_printf ("%u", ports->syslog);
  g_autofree gchar *raw = g_strdup_printf ("%u", ports->raw);
  g_string_replace (text, "@VERSION@", version, 0);
  g_string_replace (text, "@UDP@", udp, 0);
  g_string_replace (text, "@TCP@", tcp, 0);
  g_string_replace (text, "@SYSLOG@", syslog, 0);
  g_string_replace (text, "@RAW@", raw, 0);
  return g_string_free (text, FALSE);
}

static void
free_ports (Ports *ports)
{
  ports->udp = sl_test_free_port (SOCK_DGRAM);
  ports->tcp = sl_test_free_port (SOCK_STREAM);
  ports->syslog = sl_test_free_port (SOCK_STREAM);
  ports->raw = sl_test_free_port (SOCK_DGRAM);
}

/* Sends a message to each source of a daemon whose folder is dir, once
 * its listeners are up, and waits for every output. */
static gboolean
send_all (SlTestEnv *env, const Ports *ports, const gchar *dir)
{
  g_autofree gchar *dgram = g_build_filename (dir, "dgram.sock", NULL);
  g_autofree gchar *stream = g_build_filename (dir, "stream.sock", NULL);
  g_autofree gchar *in = g_build_filename (dir, "in.log", NULL);
  g_autofree gchar *framed = g_strdup_printf ("%zu %s", strlen (rfc5424), rfc5424);
  if (!sl_test_wait_port (ports->tcp) || !sl_test_wait_port (ports->syslog))
    return FALSE;
  gboolean sent = sl_test_udp_send (ports->udp, line) && sl_test_tcp_send (ports->tcp, line)
                  && sl_test_tcp_send (ports->syslog, framed) && sl_test_udp_send (ports->raw, line)
                  && sl_test_unix_send (dgram, SOCK_DGRAM, local_line)
                  && sl_test_unix_send (stream, SOCK_STREAM, local_line)
                  && g_file_set_contents (in, line, -1, NULL);
  for (guint i = 0; sent && i < G_N_ELEMENTS (outputs); i++)
    {
      g_autofree gchar *name = g_strconcat (outputs[i], ".out", NULL);
      g_autofree gchar *out = g_build_filename (dir, name, NULL);
      if (!sl_test_wait_lines (env, out, 1))
        return FALSE;
    }
  return sent;
}

static gchar *
output (const gchar *dir, const gchar *name)
{
  g_autofree gchar *file = g_strconcat (name, ".out", NULL);
  g_autofree gchar *path = g_build_filename (dir, file, NULL);
  return sl_test_read_file (path);
}

static void
test_side_by_side (SlTestEnv *env, gconstpointer data)
{
  if (!trixie)
    {
      g_test_skip ("the Debian 13 root could not be made (tests/peers/trixie-root)");
      return;
    }
  Ports ng_ports, sl_ports;
  free_ports (&ng_ports);
  free_ports (&sl_ports);
  g_autofree gchar *ng_text = config_for ("4.8", &ng_ports);
  g_autofree gchar *sl_text = config_for ("4.8", &sl_ports);
  gchar *ng_dir = NULL;
  GPid ng = sl_test_syslog_ng_48_start (env, trixie, ng_text, NULL, &ng_dir);
  gboolean ng_sent = ng && send_all (env, &ng_ports, ng_dir);
  gboolean sl_sent = sl_test_write_config (env, sl_text, NULL) && sl_test_daemon_start (env)
                     && send_all (env, &sl_ports, env->dir);
  for (guint i = 0; ng_sent && sl_sent && i < G_N_ELEMENTS (outputs); i++)
    {
      g_autofree gchar *want = output (ng_dir, outputs[i]);
      g_autofree gchar *have = output (env->dir, outputs[i]);
      g_test_message ("%s:\n  syslog-ng 4.8: %s  sluiced:       %s", outputs[i], want, have);
      g_assert_cmpstr (have, ==, want);
    }
  sl_test_syslog_ng_48_stop (ng, ng_dir);
  g_assert_true (ng_sent);
  g_assert_true (sl_sent);
}

/* 3.38 has neither field: a 3.x configuration writes what it wrote. */
static void
test_3x_without (SlTestEnv *env, gconstpointer data)
{
  Ports ports;
  free_ports (&ports);
  g_autofree gchar *text = config_for ("3.38", &ports);
  if (!sl_test_write_config (env, text, NULL) || !sl_test_daemon_start (env) || !send_all (env, &ports, env->dir))
    return;
  g_autofree gchar *tcp = output (env->dir, "tcp");
  g_assert_cmpstr (tcp, ==, "||{\"SOURCE\":\"s_tcp\",\"PROGRAM\":\"prog\",\"PID\":\"12\",\"MESSAGE\":\"hello\","
                            "\"LEGACY_MSGHDR\":\"prog[12]: \"}\n");
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  trixie = sl_test_trixie_root ();
  SL_TEST_ADD ("/transport-names/side-by-side-4.8", test_side_by_side);
  SL_TEST_ADD ("/transport-names/version-3-without", test_3x_without);
  gint result = g_test_run ();
  g_free (trixie);
  return result;
}
