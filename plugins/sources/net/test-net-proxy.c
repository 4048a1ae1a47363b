/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The PROXY protocol with the real haproxy (started once for the program,
 * on loopback, in TCP mode with send-proxy and send-proxy-v2) in front of
 * the real sluiced: clients bound to 127.0.0.2, .3 and .4 are who
 * $SOURCEIP, netmask() and max-connections-per-ip() see; a connection
 * without a header, with a broken one or a slow one is closed unread and
 * counted; TLS passes through haproxy after the header, and a header
 * can come inside TLS. */
#include "tests/functional/harness.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static gchar *haproxy_dir;
static GPid haproxy;
static guint16 plain_port, tls_port, inner_port; /* sluiced's */
static guint16 v1_port, v2_port, v2_tls_port; /* haproxy's */

static gchar *
port_text (guint16 port)
{
  return g_strdup_printf ("%u", port);
}

/* A connection to 127.0.0.1:port from the loopback address from. */
static gint
connect_from (const gchar *from, guint16 port)
{
  gint fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in local = { .sin_family = AF_INET };
  inet_pton (AF_INET, from, &local.sin_addr);
  struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons (port) };
  inet_pton (AF_INET, "127.0.0.1", &to.sin_addr);
  if (bind (fd, (struct sockaddr *) &local, sizeof local) < 0 || connect (fd, (struct sockaddr *) &to, sizeof to) < 0)
    {
      g_test_fail_printf ("cannot connect from %s to port %u: %s", from, port, g_strerror (errno));
      close (fd);
      return -1;
    }
  return fd;
}

static gboolean
send_from (const gchar *from, guint16 port, const gchar *text)
{
  gint fd = connect_from (from, port);
  if (fd < 0)
    return FALSE;
  gboolean ok = sl_test_send_all (fd, text, strlen (text));
  close (fd);
  return ok;
}

static const gchar config[] =
  "source s_plain { network(ip(\"127.0.0.1\") port(@PLAIN@) transport(\"proxied-tcp\") max-connections-per-ip(1)); };\n"
  "source s_tls { network(ip(\"127.0.0.1\") port(@TLS@) transport(\"proxied-tls-passthrough\")\n"
  "  tls(key-file(\"@PEER@/server.key\") cert-file(\"@PEER@/server.pem\") peer-verify(optional-untrusted)\n"
  "      handshake-timeout(1))); };\n"
  "source s_inner { syslog(ip(\"127.0.0.1\") port(@INNER@) transport(\"proxied-tls\")\n"
  "  tls(key-file(\"@PEER@/server.key\") cert-file(\"@PEER@/server.pem\") peer-verify(optional-untrusted))); };\n"
  "template t { template(\"$SOURCEIP $HOST_FROM ${PROXIED_SRCIP} ${PROXIED_DSTPORT} ${PROXIED_IP_VERSION} $MSG\\n\"); };\n"
  "destination d_all { file(\"@DIR@/all.log\" template(t)); };\n"
  "destination d_two { file(\"@DIR@/two.log\" template(t)); };\n"
  "filter f_two { netmask(\"127.0.0.2/32\"); };\n"
  "log { source(s_plain); source(s_tls); source(s_inner); destination(d_all); };\n"
  "log { source(s_plain); filter(f_two); destination(d_two); };\n";

static gboolean
start_sluiced (SlTestEnv *env)
{
  g_autofree gchar *plain = port_text (plain_port), *tls = port_text (tls_port), *inner = port_text (inner_port);
  return sl_test_write_config (env, config, "PLAIN", plain, "TLS", tls, "INNER", inner, "PEER", haproxy_dir, NULL)
         && sl_test_daemon_start (env);
}

/* v1 and v2 from three client addresses at once, while
 * max-connections-per-ip(1) holds: each client is known by its own
 * address, not haproxy's (one address each, so no two overlap). */
static void
test_client_address (SlTestEnv *env, gconstpointer data)
{
  if (!start_sluiced (env))
    return;
  gint held = connect_from ("127.0.0.3", v2_port);
  if (held < 0 || !sl_test_send_all (held, "<13>Dec  1 10:00:00 h t: held open\n", 35)
      || !send_from ("127.0.0.2", v1_port, "<13>Dec  1 10:00:00 h t: over v1\n")
      || !send_from ("127.0.0.4", v2_port, "<13>Dec  1 10:00:00 h t: over v2\n"))
    return;
  g_autofree gchar *all = sl_test_path (env, "all.log");
  g_autofree gchar *two = sl_test_path (env, "two.log");
  gboolean ok = sl_test_wait_lines (env, all, 3) && sl_test_wait_lines (env, two, 1);
  close (held);
  if (!ok)
    return;
  g_autofree gchar *text = sl_test_read_file (all);
  g_autofree gchar *v1 = g_strdup_printf ("127.0.0.2 127.0.0.2 127.0.0.2 %u 4 over v1\n", v1_port);
  g_autofree gchar *v2 = g_strdup_printf ("127.0.0.4 127.0.0.4 127.0.0.4 %u 4 over v2\n", v2_port);
  g_autofree gchar *v3 = g_strdup_printf ("127.0.0.3 127.0.0.3 127.0.0.3 %u 4 held open\n", v2_port);
  g_assert_nonnull (strstr (text, v1));
  g_assert_nonnull (strstr (text, v2));
  g_assert_nonnull (strstr (text, v3));
  g_autofree gchar *selected = sl_test_read_file (two);
  g_assert_cmpstr (selected, ==, v1);
  g_assert_cmpint (sl_test_stat (env, "source", "s_plain", "rejected"), ==, 0);
}

/* Straight to sluiced: no header, a broken one, one too long: each
 * connection is closed unread and counted, nothing is logged. */
static void
test_bad_headers (SlTestEnv *env, gconstpointer data)
{
  if (!start_sluiced (env))
    return;
  g_autofree gchar *too_long = g_strnfill (200, 'A');
  memcpy (too_long, "PROXY ", 6);
  if (!send_from ("127.0.0.2", plain_port, "<13>Dec  1 10:00:00 h t: no header\n")
      || !send_from ("127.0.0.2", plain_port, "PROXY TCP4 1.2.3.4 5.6.7.8 99999 1\r\n<13>x: broken\n")
      || !send_from ("127.0.0.2", plain_port, too_long)
      || !sl_test_wait_stat (env, "source", "s_plain", "proxy_refused", 3))
    return;
  /* a good one after them, so that the file is known to be complete */
  if (!send_from ("127.0.0.2", v1_port, "<13>Dec  1 10:00:00 h t: good\n"))
    return;
  g_autofree gchar *all = sl_test_path (env, "all.log");
  if (!sl_test_wait_lines (env, all, 1))
    return;
  g_autofree gchar *text = sl_test_read_file (all);
  g_assert_null (strstr (text, "no header"));
  g_assert_null (strstr (text, "broken"));
  g_assert_nonnull (strstr (text, "good"));
}

/* A header that trickles in is given the handshake-timeout(), not more. */
static void
test_slow_header (SlTestEnv *env, gconstpointer data)
{
  if (!start_sluiced (env))
    return;
  gint fd = connect_from ("127.0.0.2", tls_port);
  if (fd < 0 || !sl_test_send_all (fd, "PROXY TCP4 ", 11))
    return;
  gboolean refused = sl_test_wait_stat (env, "source", "s_tls", "proxy_refused", 1);
  gchar byte;
  /* closed on its side: the read ends */
  if (refused)
    g_assert_cmpint (read (fd, &byte, 1), <=, 0);
  close (fd);
}

/* TLS from sluice-gen through haproxy's plain TCP, after its v2 header. */
static void
test_tls_passthrough (SlTestEnv *env, gconstpointer data)
{
  if (!start_sluiced (env))
    return;
  g_autofree gchar *port = port_text (v2_tls_port);
  g_autofree gchar *err = NULL;
  if (sl_test_run_built ("tools/sluice-gen", NULL, &err, "--tls", "-n", "20", "-r", "0", "-Q", "127.0.0.1", port,
                         NULL) != 0)
    {
      g_test_fail_printf ("sluice-gen: %s", err);
      return;
    }
  g_autofree gchar *all = sl_test_path (env, "all.log");
  if (!sl_test_wait_lines (env, all, 20))
    return;
  g_auto (GStrv) lines = sl_test_read_lines (all);
  g_autofree gchar *expected = g_strdup_printf ("127.0.0.1 127.0.0.1 127.0.0.1 %u 4 ", v2_tls_port);
  g_assert_true (g_str_has_prefix (lines[0], expected));
  g_assert_nonnull (strstr (lines[0], "seq="));
}

/* proxied-tls: the header is the first thing inside TLS, as a balancer
 * that ends the client's TLS and opens its own sends it (openssl s_client
 * plays the balancer); syslog() reads octet-counted frames after it. */
static void
test_header_inside_tls (SlTestEnv *env, gconstpointer data)
{
  if (!start_sluiced (env))
    return;
  const gchar *msg = "<13>1 - h app - - - inside TLS, after it";
  g_autofree gchar *input = g_strdup_printf ("PROXY TCP6 2001:db8::7 2001:db8::1 40000 6514\r\n%zu %s", strlen (msg), msg);
  g_autofree gchar *input_path = sl_test_path (env, "input");
  g_autofree gchar *err = sl_test_path (env, "s_client.stderr");
  g_autofree gchar *command = g_strdup_printf ("exec openssl s_client -quiet -connect 127.0.0.1:%u < '%s'", inner_port,
                                               input_path);
  const gchar *argv[] = { "/bin/sh", "-c", command, NULL };
  GPid client;
  if (!g_file_set_contents (input_path, input, -1, NULL) || !(client = sl_test_spawn_argv (argv, err)))
    return;
  g_autofree gchar *all = sl_test_path (env, "all.log");
  gboolean arrived = sl_test_wait_lines (env, all, 1);
  kill (client, SIGTERM);
  sl_test_child_wait (client, 10 * G_TIME_SPAN_SECOND);
  if (!arrived)
    return;
  g_autofree gchar *text = sl_test_read_file (all);
  g_assert_cmpstr (text, ==, "2001:db8::7 2001:db8::7 2001:db8::7 6514 6 inside TLS, after it\n");
}

static gboolean
shell (const gchar *command)
{
  g_autofree gchar *line = g_strdup_printf ("cd '%s' && %s", haproxy_dir, command);
  const gchar *argv[] = { "/bin/sh", "-c", line, NULL };
  return sl_test_run_argv (argv, NULL, NULL) == 0;
}

static gboolean
wait_port (guint16 port)
{
  gint64 end = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  while (g_get_monotonic_time () < end && !sl_test_child_exited (haproxy, NULL))
    {
      gint fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons (port), .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
      gboolean up = connect (fd, (struct sockaddr *) &sa, sizeof sa) == 0;
      close (fd);
      if (up)
        return TRUE;
      g_usleep (20 * 1000);
    }
  return FALSE;
}

static gboolean
start_haproxy (void)
{
  g_autofree gchar *haproxy_path = g_find_program_in_path ("haproxy");
  if (!haproxy_path)
    return FALSE;
  haproxy_dir = g_dir_make_tmp ("sluice-haproxy-XXXXXX", NULL);
  plain_port = sl_test_free_port (SOCK_STREAM);
  tls_port = sl_test_free_port (SOCK_STREAM);
  inner_port = sl_test_free_port (SOCK_STREAM);
  v1_port = sl_test_free_port (SOCK_STREAM);
  v2_port = sl_test_free_port (SOCK_STREAM);
  v2_tls_port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *cfg = g_strdup_printf (
    "defaults\n  mode tcp\n  timeout connect 5s\n  timeout client 30s\n  timeout server 30s\n"
    "listen v1\n  bind 127.0.0.1:%u\n  server s 127.0.0.1:%u send-proxy\n"
    "listen v2\n  bind 127.0.0.1:%u\n  server s 127.0.0.1:%u send-proxy-v2\n"
    "listen v2tls\n  bind 127.0.0.1:%u\n  server s 127.0.0.1:%u send-proxy-v2\n",
    v1_port, plain_port, v2_port, plain_port, v2_tls_port, tls_port);
  g_autofree gchar *cfg_path = g_build_filename (haproxy_dir, "haproxy.cfg", NULL);
  g_autofree gchar *err = g_build_filename (haproxy_dir, "haproxy.stderr", NULL);
  if (!g_file_set_contents (cfg_path, cfg, -1, NULL)
      || !shell ("openssl req -x509 -newkey rsa:2048 -nodes -keyout server.key -out server.pem -days 2"
                 " -subj /CN=127.0.0.1 2>/dev/null"))
    return FALSE;
  const gchar *argv[] = { haproxy_path, "-db", "-f", cfg_path, NULL };
  haproxy = sl_test_spawn_argv (argv, err);
  return haproxy && wait_port (v1_port) && wait_port (v2_port) && wait_port (v2_tls_port);
}

static void
stop_haproxy (void)
{
  if (haproxy)
    {
      kill (haproxy, SIGTERM);
      sl_test_child_wait (haproxy, 10 * G_TIME_SPAN_SECOND);
    }
  if (haproxy_dir)
    {
      const gchar *rm[] = { "rm", "-rf", haproxy_dir, NULL };
      sl_test_run_argv (rm, NULL, NULL);
    }
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  if (!start_haproxy ())
    {
      g_printerr ("haproxy could not be started\n");
      stop_haproxy ();
      return 1;
    }
  SL_TEST_ADD ("/net/proxy/client-address", test_client_address);
  SL_TEST_ADD ("/net/proxy/bad-headers", test_bad_headers);
  SL_TEST_ADD ("/net/proxy/slow-header", test_slow_header);
  SL_TEST_ADD ("/net/proxy/tls-passthrough", test_tls_passthrough);
  SL_TEST_ADD ("/net/proxy/inside-tls", test_header_inside_tls);
  gint rc = g_test_run ();
  stop_haproxy ();
  return rc;
}
