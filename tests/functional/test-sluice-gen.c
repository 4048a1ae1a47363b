/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluice-gen against the real daemon: what it sends over TCP, UDP and a
 * unix socket parses into the fields it claims, every message arrives, and
 * "sluice-gen verify" tells a complete delivery from a damaged one. */
#include "tests/functional/harness.h"

#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define FIELDS_TEMPLATE "${HOST}|${PROGRAM}|${PID}|${MSGID}|${SDATA}|${MESSAGE}\\n"

static const gchar tcp_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) keep-hostname(yes) max-connections(100)); };\n"
  /* octet counting goes to the sources that declare it, as in syslog-ng */
  "source s_syslog { syslog(ip(\"127.0.0.1\") port(@SYSLOG@) keep-hostname(yes)); };\n"
  "source s_framed { network(ip(\"127.0.0.1\") port(@FRAMED@) transport(\"framed\") keep-hostname(yes)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"" FIELDS_TEMPLATE "\")); };\n"
  "log { source(s_net); source(s_syslog); source(s_framed); destination(d_file); flags(flow-control); };\n";

static gchar *
port_text (guint16 port)
{
  return g_strdup_printf ("%u", port);
}

/* *port is tcp()'s; syslog and framed, when not NULL, get the ports of
 * syslog() and network(transport("framed")) */
static gboolean
start_tcp_framed (SlTestEnv *env, gchar **port, gchar **syslog, gchar **framed)
{
  guint16 p = sl_test_free_port (SOCK_STREAM);
  guint16 s = sl_test_free_port (SOCK_STREAM);
  guint16 f = sl_test_free_port (SOCK_STREAM);
  *port = port_text (p);
  g_autofree gchar *syslog_port = port_text (s);
  g_autofree gchar *framed_port = port_text (f);
  gboolean ok = p && s && f
                && sl_test_write_config (env, tcp_config, "PORT", *port, "SYSLOG", syslog_port, "FRAMED", framed_port, NULL)
                && sl_test_daemon_start (env);
  if (syslog)
    *syslog = g_steal_pointer (&syslog_port);
  if (framed)
    *framed = g_steal_pointer (&framed_port);
  return ok;
}

static gboolean
start_tcp (SlTestEnv *env, gchar **port)
{
  return start_tcp_framed (env, port, NULL, NULL);
}

/* Runs the built sluice-gen with the arguments in args (without the
 * program, not NULL-terminated); its exit status, stderr in *err. */
static gint
run_gen_array (gchar **out, gchar **err, GPtrArray *args)
{
  const gchar *builddir = g_getenv ("SL_TOP_BUILDDIR");
  if (!builddir)
    {
      g_test_fail_printf ("SL_TOP_BUILDDIR is not set");
      return -1;
    }
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (argv, g_build_filename (builddir, "tools", "sluice-gen", NULL));
  for (guint i = 0; i < args->len; i++)
    g_ptr_array_add (argv, g_strdup (g_ptr_array_index (args, i)));
  g_ptr_array_add (argv, NULL);
  gint status = sl_test_run_argv ((const gchar *const *) argv->pdata, out, err);
  g_ptr_array_unref (argv);
  return status;
}

/* The same with a NULL-terminated argument list. */
static gint
run_gen (gchar **out, gchar **err, const gchar *first, ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  va_list ap;
  va_start (ap, first);
  for (const gchar *arg = first; arg; arg = va_arg (ap, const gchar *))
    g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  return run_gen_array (out, err, args);
}

/* Sends count 150-byte messages on each of conns connections to port, as
 * fast as it can, with the NULL-terminated extra arguments; waits until
 * out.log has them all and returns what "sluice-gen verify" says of it,
 * or NULL after a failure (already reported). *err gets sluice-gen's
 * stderr. */
static gchar *
send_and_verify (SlTestEnv *env, const gchar *port, guint count, guint conns, const gchar *const *extra,
                 gchar **err)
{
  g_autofree gchar *count_text = g_strdup_printf ("%u", count);
  g_autofree gchar *conns_text = g_strdup_printf ("%u", conns);
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  const gchar *const common[] = { "-r", "0", "-n", count_text, "--active-connections", conns_text, "-s", "150", "-Q" };
  for (guint i = 0; i < G_N_ELEMENTS (common); i++)
    g_ptr_array_add (args, (gpointer) common[i]);
  for (guint i = 0; extra[i]; i++)
    g_ptr_array_add (args, (gpointer) extra[i]);
  g_ptr_array_add (args, "127.0.0.1");
  g_ptr_array_add (args, (gpointer) port);
  g_assert_cmpint (run_gen_array (NULL, err, args), ==, 0);
  g_autofree gchar *sent = g_strdup_printf ("count=%u, time=", count * conns);
  g_assert_nonnull (strstr (*err, sent));
  g_autofree gchar *path = sl_test_path (env, "out.log");
  if (!sl_test_wait_lines (env, path, count * conns))
    return NULL;
  gchar *out = NULL;
  g_assert_cmpint (run_gen (&out, NULL, "verify", "--expect", count_text, "--connections", conns_text, path, NULL), ==,
                   0);
  return out;
}

/* Every line is HOST|PROGRAM|PID|MSGID|SDATA|MESSAGE with these values, a
 * numeric PID and a MESSAGE that starts with the mark and pads the whole
 * message (header included) to message_len bytes. */
static void
check_fields (const gchar *path, gboolean rfc5424, const gchar *host, const gchar *program, const gchar *sdata,
              gsize message_len)
{
  g_auto (GStrv) lines = sl_test_read_lines (path);
  g_assert_nonnull (lines);
  for (guint i = 0; lines && lines[i]; i++)
    {
      g_auto (GStrv) f = g_strsplit (lines[i], "|", 6);
      if (g_strv_length (f) != 6)
        {
          g_test_fail_printf ("line %u is '%s'", i + 1, lines[i]);
          return;
        }
      g_assert_cmpstr (f[0], ==, host);
      g_assert_cmpstr (f[1], ==, program);
      g_assert_true (f[2][0] && strspn (f[2], "0123456789") == strlen (f[2]));
      g_assert_cmpstr (f[3], ==, "");
      g_assert_cmpstr (f[4], ==, sdata);
      g_assert_true (g_str_has_prefix (f[5], "seq="));
      /* "<13>Nov 14 22:13:20 HOST PROGRAM[PID]: " or
       * "<13>1 2023-11-14T22:13:20.000000+00:00 HOST PROGRAM PID - SDATA " */
      gsize header = rfc5424 ? strlen ("<13>1 2023-11-14T22:13:20.000000+00:00 ") + strlen (host) + 1
                                 + strlen (program) + 1 + strlen (f[2]) + strlen (" - ") + strlen (sdata) + 1
                             : strlen ("<13>Nov 14 22:13:20 ") + strlen (host) + 1 + strlen (program) + 1
                                 + strlen (f[2]) + strlen ("]: ");
      g_assert_cmpuint (header + strlen (f[5]), ==, message_len);
    }
}

static void
test_tcp (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = NULL;
  if (!start_tcp (env, &port))
    return;
  g_autofree gchar *err = NULL;
  const gchar *const extra[] = { "-S", "--host", "genhost", "--program", "genprog", NULL };
  g_autofree gchar *out = send_and_verify (env, port, 3000, 3, extra, &err);
  if (!out)
    return;
  g_assert_nonnull (strstr (err, "(average) msg size=151,"));
  g_autofree gchar *path = sl_test_path (env, "out.log");
  check_fields (path, FALSE, "genhost", "genprog", "", 150);
  g_assert_nonnull (strstr (out, "connection 2: received=3000 missing=0 duplicated=0 reordered=0\n"));
  g_assert_nonnull (strstr (out, "total: lines=9000 received=9000 distinct=9000 expected=9000 missing=0 "
                                 "duplicated=0 reordered=0 unmarked=0\n"));
}

/* More connections than sending threads: each of the 100 connections,
 * taken in turn by 32 threads, sends its own 50 messages. */
static void
test_many_connections (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = NULL;
  if (!start_tcp (env, &port))
    return;
  g_autofree gchar *err = NULL;
  const gchar *const extra[] = { NULL };
  g_autofree gchar *out = send_and_verify (env, port, 50, 100, extra, &err);
  if (!out)
    return;
  g_assert_nonnull (strstr (out, "connection 1: received=50 missing=0 duplicated=0 reordered=0\n"));
  g_assert_nonnull (strstr (out, "connection 100: received=50 missing=0 duplicated=0 reordered=0\n"));
  g_assert_nonnull (strstr (out, "total: lines=5000 received=5000 distinct=5000 expected=5000 missing=0 "
                                 "duplicated=0 reordered=0 unmarked=0\n"));
}

/* A delivery with a hole, a repeat and a swap, checked from a copy of a
 * real one. */
static void
test_verify_damage (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = NULL;
  if (!start_tcp (env, &port))
    return;
  gint status = run_gen (NULL, NULL, "-r", "0", "-n", "200", "-s", "100", "-Q", "127.0.0.1", port, NULL);
  g_assert_cmpint (status, ==, 0);
  g_autofree gchar *path = sl_test_path (env, "out.log");
  if (!sl_test_wait_lines (env, path, 200))
    return;
  g_auto (GStrv) lines = sl_test_read_lines (path);
  GString *damaged = g_string_new (NULL);
  for (guint i = 0; lines[i]; i++)
    {
      if (i >= 49 && i < 59)   /* numbers 50..59 lost */
        continue;
      if (i == 99)             /* 100 comes after 101 */
        continue;
      g_string_append_printf (damaged, "%s\n", lines[i]);
      if (i == 100)
        g_string_append_printf (damaged, "%s\n%s\n", lines[99], lines[100]);
    }
  g_autofree gchar *copy = sl_test_path (env, "damaged.log");
  g_file_set_contents (copy, damaged->str, damaged->len, NULL);
  g_string_free (damaged, TRUE);

  g_autofree gchar *out = NULL;
  status = run_gen (&out, NULL, "verify", "--expect", "205", copy, NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (out, "connection 1: received=191 missing=15 duplicated=1 reordered=1 "
                                 "missing-ranges=50-59, 201-205\n"));

  /* an unreadable file is neither complete nor lossy */
  g_autofree gchar *absent = sl_test_path (env, "absent.log");
  g_autofree gchar *err = NULL;
  status = run_gen (NULL, &err, "verify", absent, NULL);
  g_assert_cmpint (status, ==, 2);
  g_assert_nonnull (strstr (err, "absent.log"));
}

static void
test_rfc5424_octet (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *tcp_port = NULL;
  g_autofree gchar *port = NULL;
  if (!start_tcp_framed (env, &tcp_port, &port, NULL))
    return;
  gint status = run_gen (NULL, NULL, "--rfc5424", "--framing", "octet", "--sdata", "[x@1 a=\"b\"][y@2 c=\"d\"]",
                         "-r", "0", "-n", "500", "-s", "300", "--host", "h5424", "--program", "p5424", "-Q",
                         "127.0.0.1", port, NULL);
  g_assert_cmpint (status, ==, 0);
  g_autofree gchar *path = sl_test_path (env, "out.log");
  if (!sl_test_wait_lines (env, path, 500))
    return;
  check_fields (path, TRUE, "h5424", "p5424", "[x@1 a=\"b\"][y@2 c=\"d\"]", 300);
  g_assert_cmpint (run_gen (NULL, NULL, "verify", "--expect", "500", path, NULL), ==, 0);
}

static const gchar udp_unix_config[] =
  "@version: 4.0\n"
  "source s_udp { udp(ip(\"127.0.0.1\") port(@PORT@) so-rcvbuf(4194304) keep-hostname(yes)); };\n"
  "source s_unix { unix-stream(\"@DIR@/log.sock\" keep-hostname(yes)); };\n"
  "destination d_udp { file(\"@DIR@/udp.log\" template(\"" FIELDS_TEMPLATE "\")); };\n"
  "destination d_unix { file(\"@DIR@/unix.log\" template(\"" FIELDS_TEMPLATE "\")); };\n"
  "log { source(s_udp); destination(d_udp); };\n"
  "log { source(s_unix); destination(d_unix); flags(flow-control); };\n";

static void
test_udp_and_unix (SlTestEnv *env, gconstpointer data)
{
  guint16 p = sl_test_free_port (SOCK_DGRAM);
  g_autofree gchar *port = port_text (p);
  g_autofree gchar *socket_path = sl_test_path (env, "log.sock");
  if (!p || !sl_test_write_config (env, udp_unix_config, "PORT", port, NULL) || !sl_test_daemon_start (env)
      || !sl_test_wait_socket (env, socket_path))
    return;

  /* paced well below what a loopback socket with a large buffer holds */
  gint status = run_gen (NULL, NULL, "-D", "-r", "5000", "-n", "500", "-s", "200", "--host", "udphost", "-Q",
                         "127.0.0.1", port, NULL);
  g_assert_cmpint (status, ==, 0);
  g_autofree gchar *udp_path = sl_test_path (env, "udp.log");
  if (!sl_test_wait_lines (env, udp_path, 500))
    return;
  check_fields (udp_path, FALSE, "udphost", "sluice-gen", "", 200);

  status = run_gen (NULL, NULL, "-x", socket_path, "-r", "0", "-n", "2000", "--active-connections", "2",
                    "--host", "unixhost", "-Q", NULL);
  g_assert_cmpint (status, ==, 0);
  g_autofree gchar *unix_path = sl_test_path (env, "unix.log");
  if (!sl_test_wait_lines (env, unix_path, 4000))
    return;
  check_fields (unix_path, FALSE, "unixhost", "sluice-gen", "", 256);
  g_assert_cmpint (run_gen (NULL, NULL, "verify", "--expect", "2000", "--connections", "2", unix_path, NULL), ==, 0);
  g_assert_cmpint (run_gen (NULL, NULL, "verify", "--expect", "500", udp_path, NULL), ==, 0);
}

static void
test_replay (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = NULL;
  g_autofree gchar *framed = NULL;
  if (!start_tcp_framed (env, &port, NULL, &framed))
    return;
  g_autofree gchar *input = sl_test_path (env, "input.txt");
  g_file_set_contents (input,
                       "<13>Nov 14 22:13:20 rhost rprog[7]: first\n"
                       "\n"
                       "<13>Nov 14 22:13:21 rhost rprog[7]: second\r\n"
                       "<13>Nov 14 22:13:22 rhost rprog[7]: third",
                       -1, NULL);
  g_autofree gchar *err = NULL;
  /* the file once, then 5 lines: the file again from its start */
  gint status = run_gen (NULL, &err, "--replay", input, "-Q", "127.0.0.1", port, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (err, "count=3,"));
  g_autofree gchar *path = sl_test_path (env, "out.log");
  if (!sl_test_wait_lines (env, path, 3))
    return;
  status = run_gen (NULL, NULL, "--replay", input, "-n", "5", "--framing", "octet", "-Q", "127.0.0.1", framed, NULL);
  g_assert_cmpint (status, ==, 0);
  if (!sl_test_wait_lines (env, path, 8))
    return;
  g_autofree gchar *text = sl_test_read_file (path);
  g_assert_cmpstr (text, ==,
                   "rhost|rprog|7|||first\n" "rhost|rprog|7|||second\n" "rhost|rprog|7|||third\n"
                   "rhost|rprog|7|||first\n" "rhost|rprog|7|||second\n" "rhost|rprog|7|||third\n"
                   "rhost|rprog|7|||first\n" "rhost|rprog|7|||second\n");
}

/* The number after key in text, or -1. */
static gint64
number_after (const gchar *text, const gchar *key)
{
  const gchar *at = text ? strstr (text, key) : NULL;
  return at ? g_ascii_strtoll (at + strlen (key), NULL, 10) : -1;
}

/* The daemon is stopped (SIGTERM) and started again on the same port in
 * the middle of a run: with --reconnect both connections come back under
 * their ids and go on with the next number, and verify finds every
 * message, a stop being a clean end for what the daemon acknowledged. */
static void
test_reconnect (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = NULL;
  if (!start_tcp (env, &port))
    return;
  g_autofree gchar *err_path = sl_test_path (env, "gen.stderr");
  g_autofree gchar *path = sl_test_path (env, "out.log");
  /* paced, so that the run outlasts the restart: 6 seconds at least */
  const gchar *const args[] = {
    "--reconnect", "--reconnect-timeout", "60", "-r", "2500", "-n", "15000", "--active-connections", "2", "-Q",
    "127.0.0.1", port, NULL
  };
  GPid gen = sl_test_spawn_built ("tools/sluice-gen", err_path, args);
  if (!gen)
    return;
  gboolean restarted = sl_test_wait_lines (env, path, 1000) && sl_test_daemon_stop (env, SIGTERM) == 0
                       && sl_test_daemon_start (env);
  gint status = sl_test_child_wait (gen, 10 * SL_TEST_DEADLINE_MS * 1000);
  g_autofree gchar *err = sl_test_read_file (err_path);
  g_test_message ("sluice-gen's stderr:\n%s", err);
  if (!restarted)
    return;
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (err ? strstr (err, "count=30000,") : NULL);
  for (guint conn = 1; conn <= 2; conn++)
    {
      g_autofree gchar *key = g_strdup_printf ("connection %u: reconnects=", conn);
      g_assert_cmpint (number_after (err, key), >=, 1);
    }
  g_assert_cmpint (number_after (err, ", reconnects="), >=, 2);
  g_assert_cmpint (number_after (err, ", possibly-lost="), >=, 0);
  g_assert_nonnull (err ? strstr (err, "possibly-lost counts the messages of the last write") : NULL);

  if (!sl_test_wait_lines (env, path, 30000))
    return;
  g_autofree gchar *out = NULL;
  status = run_gen (&out, NULL, "verify", "--expect", "15000", "--connections", "2", path, NULL);
  g_test_message ("verify:\n%s", out);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "connection 1: received="));
  g_assert_nonnull (strstr (out, "connection 2: received="));
  g_assert_null (strstr (out, "connection 3"));
  const gchar *total = strstr (out, "total: ");
  g_assert_nonnull (total);
  g_assert_cmpint (number_after (total, " distinct="), ==, 30000);
  g_assert_cmpint (number_after (total, " missing="), ==, 0);
  g_assert_cmpint (number_after (total, " duplicated="), <=, number_after (err, ", possibly-duplicated="));
}

static void
test_refusals (SlTestEnv *env, gconstpointer data)
{
  guint16 p = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port = port_text (p);
  g_autofree gchar *err = NULL;
  /* nobody listens */
  gint status = run_gen (NULL, &err, "-n", "1", "127.0.0.1", port, NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "cannot connect"));

  /* usage errors are found before anything connects */
  static const gchar *const bad[][3] = {
    { "--framing", "bogus", NULL },
    { "--sdata", "[a@1 b=\"c\"]", NULL },   /* needs --rfc5424 */
    { "--host", "two words", NULL },
    { "--active-connections", "0", NULL },
    { "--reconnect-timeout", "0", NULL },
    { "-D", "-x", "/nonexistent" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_clear_pointer (&err, g_free);
      status = bad[i][2] ? run_gen (NULL, &err, bad[i][0], bad[i][1], bad[i][2], NULL)
                         : run_gen (NULL, &err, bad[i][0], bad[i][1], "127.0.0.1", "9", NULL);
      g_assert_cmpint (status, ==, 2);
      g_assert_true (g_str_has_prefix (err, "sluice-gen: "));
    }
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/sluice-gen/tcp", test_tcp);
  SL_TEST_ADD ("/sluice-gen/many-connections", test_many_connections);
  SL_TEST_ADD ("/sluice-gen/verify-damage", test_verify_damage);
  SL_TEST_ADD ("/sluice-gen/rfc5424-octet", test_rfc5424_octet);
  SL_TEST_ADD ("/sluice-gen/udp-and-unix", test_udp_and_unix);
  SL_TEST_ADD ("/sluice-gen/replay", test_replay);
  SL_TEST_ADD ("/sluice-gen/reconnect", test_reconnect);
  SL_TEST_ADD ("/sluice-gen/refusals", test_refusals);
  return g_test_run ();
}
