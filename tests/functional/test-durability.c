/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What Sluice promises about accepted messages, proved with real processes:
 * a relay (tcp() in, tcp() out, flow control) in front of a remote sluiced
 * that writes a file, sluice-gen sending numbered messages and "sluice-gen
 * verify" counting what arrived. The relay is killed with SIGKILL, reloaded
 * under load, stalled by a stopped remote and starved of disk space; the
 * kill -9 rounds and the reloads under load also with the configuration
 * in rsyslog's language.
 *
 * The message counts are small enough for `make check`; SL_DURABILITY_FULL=1
 * (bench/durability) runs the sizes of issue 10 and prints the figures. */
#include "tests/functional/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* log-iw-size(10000) max-connections(10): 1000 places per connection */
#define WINDOW 1000
#define MSG_SIZE 256
/* A reader waits for room in its window before each 64 KiB read, so it can
 * hold one read's messages beyond it. */
#define READ_MESSAGES (65536 / MSG_SIZE + 1)

typedef struct
{
  guint crash;          /* messages queued before the kill -9 */
  guint rounds;         /* kill -9 rounds */
  guint round_msgs;     /* per round */
  guint round_rate;     /* messages per second in a round */
  guint reload_msgs;    /* per connection, 4 connections */
  guint reload_rate;    /* per connection */
  guint reloads;        /* with the remote down */
  guint stall_msgs;
  guint stall_seconds;
  guint full_msgs;      /* disk-full test */
} Sizes;

static Sizes sizes;

static const gchar relay_config[] =
  "@version: 4.0\n"
  "source s_in { tcp(ip(\"127.0.0.1\") port(@IN@) log-iw-size(10000) max-connections(10)); };\n"
  "destination d_out { tcp(\"127.0.0.1\" port(@OUT@) time-reopen(1) @BUFFER@); };\n"
  "log { source(s_in); destination(d_out); flags(flow-control); };\n";

static const gchar remote_config[] =
  "@version: 4.0\n"
  "source s_in { tcp(ip(\"127.0.0.1\") port(@IN@) log-iw-size(10000) max-connections(10)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_in); destination(d_file); flags(flow-control); };\n";

/* A relay and its remote, each a sluiced in a folder of its own. */
typedef struct
{
  SlTestEnv *relay;
  SlTestEnv remote;
  gchar in[8];
  gchar out[8];
  gchar *buffer;    /* the relay's disk-buffer() option, or "" */
  gchar *output;    /* the remote's out.log */
  /* the relay's source and destination as its statistics name them */
  const gchar *source_id;
  const gchar *destination_id;
} Relay;

static gboolean
relay_init (Relay *r, SlTestEnv *env, const gchar *disk_buffer)
{
  memset (r, 0, sizeof *r);
  r->relay = env;
  sl_test_env_setup (&r->remote, NULL);
  guint16 in = sl_test_free_port (SOCK_STREAM);
  guint16 out = sl_test_free_port (SOCK_STREAM);
  g_snprintf (r->in, sizeof r->in, "%u", in);
  g_snprintf (r->out, sizeof r->out, "%u", out);
  r->buffer = disk_buffer ? g_strdup_printf ("disk-buffer(%s dir(\"%s/dq\"))", disk_buffer, env->dir)
                          : g_strdup ("");
  r->output = r->remote.dir ? sl_test_path (&r->remote, "out.log") : NULL;
  r->source_id = "s_in";
  r->destination_id = "d_out";
  return in && out && r->output
         && sl_test_write_config (env, relay_config, "IN", r->in, "OUT", r->out, "BUFFER", r->buffer, NULL)
         && sl_test_write_config (&r->remote, remote_config, "IN", r->out, NULL);
}

static void
relay_clear (Relay *r)
{
  sl_test_env_teardown (&r->remote, NULL);
  g_free (r->buffer);
  g_free (r->output);
}

/* Runs sluice-gen to the end; its exit status, stderr in *err. */
static gint
run_gen (gchar **out, gchar **err, const gchar *const *args)
{
  GPtrArray *argv = g_ptr_array_new ();
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  const gchar *builddir = g_getenv ("SL_TOP_BUILDDIR");
  g_autofree gchar *program = g_build_filename (builddir ? builddir : ".", "tools", "sluice-gen", NULL);
  argv->pdata[0] = program;
  gint status = sl_test_run_argv ((const gchar *const *) argv->pdata, out, err);
  g_ptr_array_unref (argv);
  return status;
}

/* The number after key in text, or -1. */
static gint64
number_after (const gchar *text, const gchar *key)
{
  const gchar *at = text ? strstr (text, key) : NULL;
  return at ? g_ascii_strtoll (at + strlen (key), NULL, 10) : -1;
}

/* sluice-gen verify's report on path. */
static gchar *
verify (const gchar *path, guint expect, guint connections, guint first)
{
  g_autofree gchar *expect_text = g_strdup_printf ("%u", expect);
  g_autofree gchar *conns_text = g_strdup_printf ("%u", connections);
  g_autofree gchar *first_text = g_strdup_printf ("%u", first);
  const gchar *args[] = { "sluice-gen", "verify", "--expect", expect_text, "--connections", conns_text,
                          "--first-connection", first_text, "--ranges", "20", path, NULL };
  gchar *out = NULL;
  gint status = run_gen (&out, NULL, args);
  if (status < 0 || status > 1)
    g_test_fail_printf ("sluice-gen verify failed on %s (%d)", path, status);
  return out;
}

/* Asserts that the total line of a verify report says nothing is missing
 * or duplicated. */
static void
assert_complete (const gchar *report, guint expected)
{
  const gchar *total = report ? strstr (report, "total: ") : NULL;
  g_assert_nonnull (total);
  g_assert_cmpint (number_after (total, " distinct="), ==, expected);
  g_assert_cmpint (number_after (total, " missing="), ==, 0);
  g_assert_cmpint (number_after (total, " duplicated="), ==, 0);
}

/* Waits until a counter stops changing (3 readings 100 ms apart); its value. */
static gint64
wait_steady (SlTestEnv *env, const gchar *kind, const gchar *id, const gchar *name)
{
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  gint64 last = -2;
  guint same = 0;
  while (same < 3 && g_get_monotonic_time () < deadline)
    {
      g_usleep (100 * 1000);
      gint64 now = sl_test_stat (env, kind, id, name);
      same = now == last ? same + 1 : 0;
      last = now;
    }
  return last;
}

/* Waits like sl_test_wait_stat, for as long as the counter keeps moving:
 * a large queue drains for longer than a deadline. */
static gboolean
wait_stat_moving (SlTestEnv *env, const gchar *kind, const gchar *id, const gchar *name, gint64 value)
{
  gint64 last = -1;
  gint64 since = g_get_monotonic_time ();
  for (;;)
    {
      gint64 now = sl_test_stat (env, kind, id, name);
      if (now == value)
        return TRUE;
      if (now < 0)
        return FALSE;
      if (now != last)
        since = g_get_monotonic_time ();
      else if (g_get_monotonic_time () - since > SL_TEST_DEADLINE_MS * 1000)
        {
          g_test_fail_printf ("%s %s stays at %" G_GINT64_FORMAT ", not %" G_GINT64_FORMAT, id, name, now, value);
          return FALSE;
        }
      last = now;
      g_usleep (50 * 1000);
    }
}

/* Peak resident memory of a process in KiB (VmHWM), or -1. */
static gint64
peak_rss_kib (GPid pid)
{
  g_autofree gchar *path = g_strdup_printf ("/proc/%d/status", (int) pid);
  g_autofree gchar *text = sl_test_read_file (path);
  return number_after (text, "VmHWM:");
}

/* Runs sluice-gen and waits for the relay to hold what it sent. */
static gboolean
send_all (Relay *r, guint count)
{
  g_autofree gchar *n = g_strdup_printf ("%u", count);
  g_autofree gchar *size = g_strdup_printf ("%u", MSG_SIZE);
  const gchar *args[] = { "sluice-gen", "-Q", "-r", "0", "-n", n, "-s", size, "127.0.0.1", r->in, NULL };
  g_autofree gchar *err = NULL;
  gint status = run_gen (NULL, &err, args);
  if (status != 0)
    g_test_fail_printf ("sluice-gen failed (%d): %s", status, err);
  return status == 0;
}

/* A reliable disk buffer with the remote down: everything sent is queued
 * on disk, a kill -9 loses none of it, and after a restart and the remote
 * coming up every message arrives once. */
static void
test_crash_remote_down (SlTestEnv *env, gconstpointer data)
{
  Relay r;
  if (relay_init (&r, env, "reliable(yes) disk-buf-size(2G)") && sl_test_daemon_start (env)
      && send_all (&r, sizes.crash)
      && wait_stat_moving (env, "destination", "d_out", "disk_queue_length", sizes.crash))
    {
      g_assert_cmpint (sl_test_stat (env, "destination", "d_out", "dropped"), ==, 0);
      gint status = sl_test_daemon_stop (env, SIGKILL);
      g_assert_true (WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL);
      g_autofree gchar *replaying = g_strdup_printf ("replaying %u messages", sizes.crash);
      gint64 start = g_get_monotonic_time ();
      if (sl_test_daemon_start (env) && sl_test_wait_stderr (env, replaying)
          && sl_test_daemon_start (&r.remote) && sl_test_wait_lines (&r.remote, r.output, sizes.crash)
          && wait_stat_moving (env, "destination", "d_out", "disk_queue_length", 0))
        {
          g_test_message ("%u messages queued on disk, kill -9, restart: replayed to the remote in %.2f s",
                          sizes.crash, (g_get_monotonic_time () - start) / 1e6);
          g_autofree gchar *report = verify (r.output, sizes.crash, 1, 1);
          g_test_message ("verify:\n%s", report);
          assert_complete (report, sizes.crash);
        }
    }
  relay_clear (&r);
}

/* One kill -9 in the middle of a sluice-gen run on connection `round`; the
 * relay's received counter (this life) just before the kill. */
static gint64
kill_round (SlTestEnv *env, Relay *r, guint round, gint64 *base, gchar **gen_err)
{
  g_autofree gchar *n = g_strdup_printf ("%u", sizes.round_msgs);
  g_autofree gchar *rate = g_strdup_printf ("%u", sizes.round_rate);
  g_autofree gchar *first = g_strdup_printf ("%u", round);
  g_autofree gchar *size = g_strdup_printf ("%u", MSG_SIZE);
  g_autofree gchar *err_path = sl_test_path (env, "gen.stderr");
  const gchar *args[] = { "--reconnect", "--reconnect-timeout", "30", "-Q", "-r", rate, "-n", n, "-s", size,
                          "--first-connection", first, "127.0.0.1", r->in, NULL };
  *base = wait_steady (env, "source", r->source_id, "received");
  GPid gen = sl_test_spawn_built ("tools/sluice-gen", err_path, args);
  if (!gen)
    return -1;
  /* somewhere between a tenth and nine tenths of the run */
  guint run_ms = sizes.round_msgs * 1000 / sizes.round_rate;
  g_usleep ((gulong) g_test_rand_int_range (run_ms / 10, run_ms * 9 / 10) * 1000);
  gint64 received = sl_test_stat (env, "source", r->source_id, "received");
  sl_test_daemon_stop (env, SIGKILL);
  gboolean restarted = sl_test_daemon_start (env);
  gint status = sl_test_child_wait (gen, 60 * G_USEC_PER_SEC);
  *gen_err = sl_test_read_file (err_path);
  if (!restarted || status != 0)
    {
      g_test_fail_printf ("round %u: sluice-gen exited with %d: %s", round, status, *gen_err);
      return -1;
    }
  return received;
}

/* The first missing number in a verify line's missing-ranges, or 0. */
static gint64
first_missing (const gchar *line)
{
  gint64 at = number_after (line, "missing-ranges=");
  return at > 0 ? at : 0;
}

/* Rounds of kill -9 at random moments of a run with --reconnect, each
 * round on a connection id of its own so that verify tells the rounds
 * apart. What may be lost is what the relay had not stored: the messages
 * in its window and in the kernel's socket buffers. Everything it stored,
 * that is every message before its window when it was killed, arrives. */
static void
run_kill_rounds (SlTestEnv *env, Relay *r)
{
  gint64 received[64] = { 0 }, base[64] = { 0 };
  g_autoptr (GPtrArray) gen_err = g_ptr_array_new_with_free_func (g_free);
  for (guint k = 1; k <= sizes.rounds; k++)
    {
      gchar *err = NULL;
      received[k] = kill_round (env, r, k, &base[k], &err);
      g_ptr_array_add (gen_err, err);
      if (received[k] < 0)
        return;
    }
  /* the relay drains its buffer, then a stop writes out what the remote
   * holds */
  if (!wait_stat_moving (env, "destination", r->destination_id, "disk_queue_length", 0)
      || !sl_test_wait_stat (env, "destination", r->destination_id, "queued", 0))
    return;
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_assert_cmpint (sl_test_daemon_stop (&r->remote, SIGTERM), ==, 0);
  g_autofree gchar *report = verify (r->output, sizes.round_msgs, sizes.rounds, 1);
  g_test_message ("verify:\n%s", report);
  g_auto (GStrv) lines = g_strsplit (report ? report : "", "\n", -1);
  guint64 lost_total = 0, dup_total = 0;
  for (guint k = 1; k <= sizes.rounds; k++)
    {
      g_autofree gchar *key = g_strdup_printf ("connection %u: ", k);
      const gchar *line = NULL;
      for (guint i = 0; lines[i] && !line; i++)
        if (g_str_has_prefix (lines[i], key))
          line = lines[i];
      g_assert_nonnull (line);
      if (!line)
        return;
      gint64 missing = number_after (line, " missing=");
      gint64 duplicated = number_after (line, " duplicated=");
      gint64 held = received[k] - base[k];
      /* delivered without a gap: 1 .. first missing - 1 */
      gint64 prefix = missing ? first_missing (line) - 1 : sizes.round_msgs;
      gint64 in_relay = CLAMP (held - prefix, 0, missing);
      const gchar *err = g_ptr_array_index (gen_err, k - 1);
      g_test_message ("round %u: relay had received %" G_GINT64_FORMAT " when killed; lost %" G_GINT64_FORMAT
                      " (%" G_GINT64_FORMAT " received by the relay and not yet stored, %" G_GINT64_FORMAT
                      " in the kernel's socket buffers), duplicated %" G_GINT64_FORMAT
                      "; sluice-gen: possibly-lost=%" G_GINT64_FORMAT,
                      k, held, missing, in_relay, missing - in_relay, duplicated,
                      number_after (err, ", possibly-lost="));
      /* the relay stored everything but its window (and a read beyond it) */
      g_assert_cmpint (prefix, >=, held - (WINDOW + READ_MESSAGES));
      g_assert_cmpint (number_after (line, " reordered="), ==, 0);
      lost_total += missing;
      dup_total += duplicated;
    }
  g_test_message ("%u rounds of kill -9: %" G_GUINT64_FORMAT " lost, %" G_GUINT64_FORMAT " duplicated of %u",
                  sizes.rounds, lost_total, dup_total, sizes.rounds * sizes.round_msgs);
}

/* The acknowledged chain: sluice-gen --relp -> A (relp() in, relp() out
 * through a reliable disk buffer) -> B (relp() in, file) under flow
 * control. A message is answered at each hop only once the next one
 * holds it, so kill -9 of either hop, at a random moment of each round,
 * loses nothing; what was in flight is sent again (duplicates, counted). */
static const gchar relp_a_config[] =
  "@version: 4.0\n"
  "source s_in { relp(ip(\"127.0.0.1\") port(@IN@) log-iw-size(10000) max-connections(10)); };\n"
  "destination d_out { relp(\"127.0.0.1\" port(@OUT@) time-reopen(1) timeout(10)\n"
  "  disk-buffer(reliable(yes) disk-buf-size(2G) dir(\"@DIR@/dq\"))); };\n"
  "log { source(s_in); destination(d_out); flags(flow-control); };\n";

static const gchar relp_b_config[] =
  "@version: 4.0\n"
  "source s_in { relp(ip(\"127.0.0.1\") port(@IN@) log-iw-size(10000) max-connections(10)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_in); destination(d_file); flags(flow-control); };\n";

/* One round on connection `round`: sluice-gen over RELP, and hop killed
 * with -9 and started again somewhere in the run. */
static gboolean
relp_round (Relay *r, guint round, SlTestEnv *hop)
{
  g_autofree gchar *n = g_strdup_printf ("%u", sizes.round_msgs);
  g_autofree gchar *rate = g_strdup_printf ("%u", sizes.round_rate);
  g_autofree gchar *first = g_strdup_printf ("%u", round);
  g_autofree gchar *size = g_strdup_printf ("%u", MSG_SIZE);
  g_autofree gchar *err_path = sl_test_path (r->relay, "gen.stderr");
  const gchar *args[] = { "--relp", "--reconnect", "--reconnect-timeout", "30", "-Q", "-r", rate, "-n", n, "-s",
                          size, "--first-connection", first, "127.0.0.1", r->in, NULL };
  GPid gen = sl_test_spawn_built ("tools/sluice-gen", err_path, args);
  if (!gen)
    return FALSE;
  guint run_ms = sizes.round_msgs * 1000 / sizes.round_rate;
  g_usleep ((gulong) g_test_rand_int_range (run_ms / 10, run_ms * 9 / 10) * 1000);
  sl_test_daemon_stop (hop, SIGKILL);
  gboolean restarted = sl_test_daemon_start (hop);
  gint status = sl_test_child_wait (gen, 90 * G_USEC_PER_SEC);
  if (!restarted || status != 0)
    {
      g_autofree gchar *err = sl_test_read_file (err_path);
      g_test_fail_printf ("round %u: sluice-gen exited with %d: %s", round, status, err);
      return FALSE;
    }
  return TRUE;
}

static void
test_relp_chain (SlTestEnv *env, gconstpointer data)
{
  Relay r;
  memset (&r, 0, sizeof r);
  r.relay = env;
  sl_test_env_setup (&r.remote, NULL);
  g_snprintf (r.in, sizeof r.in, "%u", sl_test_free_port (SOCK_STREAM));
  g_snprintf (r.out, sizeof r.out, "%u", sl_test_free_port (SOCK_STREAM));
  r.output = sl_test_path (&r.remote, "out.log");
  if (sl_test_write_config (env, relp_a_config, "IN", r.in, "OUT", r.out, NULL)
      && sl_test_write_config (&r.remote, relp_b_config, "IN", r.out, NULL)
      && sl_test_daemon_start (&r.remote) && sl_test_daemon_start (env))
    {
      gboolean ok = TRUE;
      for (guint k = 1; ok && k <= sizes.rounds; k++)
        ok = relp_round (&r, k, k % 2 ? env : &r.remote);
      if (ok && wait_stat_moving (env, "destination", "d_out", "disk_queue_length", 0)
          && sl_test_wait_stat (env, "destination", "d_out", "queued", 0))
        {
          gint64 resent = sl_test_stat (env, "destination", "d_out", "resent");
          g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
          g_assert_cmpint (sl_test_daemon_stop (&r.remote, SIGTERM), ==, 0);
          g_autofree gchar *report = verify (r.output, sizes.round_msgs, sizes.rounds, 1);
          const gchar *total = report ? strstr (report, "total: ") : NULL;
          g_assert_nonnull (total);
          g_test_message ("verify:\n%s", report);
          g_test_message ("RELP chain, %u rounds of kill -9 (A and B in turn): %" G_GINT64_FORMAT " lost, %"
                          G_GINT64_FORMAT " duplicated of %u; A resent %" G_GINT64_FORMAT " in its last life",
                          sizes.rounds, number_after (total, " missing="), number_after (total, " duplicated="),
                          sizes.rounds * sizes.round_msgs, resent);
          g_assert_cmpint (number_after (total, " missing="), ==, 0);
          g_assert_cmpint (number_after (total, " distinct="), ==, sizes.rounds * sizes.round_msgs);
        }
    }
  relay_clear (&r);
}

static void
test_crash_rounds (SlTestEnv *env, gconstpointer data)
{
  Relay r;
  if (relay_init (&r, env, "reliable(yes) disk-buf-size(2G)") && sl_test_daemon_start (&r.remote)
      && sl_test_daemon_start (env))
    run_kill_rounds (env, &r);
  relay_clear (&r);
}

/* The same relay written as an admin moving from rsyslogd would write it
 * (imtcp, omfwd through a disk queue that retries forever), run by
 * sluiced --config-format rsyslog: its disk queue is a reliable disk
 * buffer, so kill -9 loses no more than with Sluice's own language. */
static const gchar rsyslog_relay_config[] =
  "global(workDirectory=\"@DIR@\")\n"
  "module(load=\"imtcp\" MaxSessions=\"10\")\n"
  "input(type=\"imtcp\" port=\"@IN@\" address=\"127.0.0.1\" name=\"in\")\n"
  "action(type=\"omfwd\" target=\"127.0.0.1\" port=\"@OUT@\" protocol=\"tcp\" queue.type=\"Disk\"\n"
  "       queue.filename=\"fwd\" queue.maxDiskSpace=\"2g\" action.resumeRetryCount=\"-1\"\n"
  "       action.resumeInterval=\"1\")\n";

static void
test_rsyslog_crash_rounds (SlTestEnv *env, gconstpointer data)
{
  Relay r;
  if (relay_init (&r, env, NULL) && sl_test_write_config (env, rsyslog_relay_config, "IN", r.in, "OUT", r.out, NULL))
    {
      env->config_format = "rsyslog";
      /* the front end's names: a source's carries its input's */
      r.source_id = "rs0_s1:in";
      r.destination_id = "rs0_d2";
      if (sl_test_daemon_start (&r.remote) && sl_test_daemon_start (env))
        run_kill_rounds (env, &r);
    }
  relay_clear (&r);
}

static const gchar reload_config[] =
  "@version: 4.0\n"
  "source s_in { tcp(ip(\"127.0.0.1\") port(@IN@) log-iw-size(10000) max-connections(10)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_in); destination(d_file); flags(flow-control); };\n";

static gboolean
reload (SlTestEnv *env)
{
  g_autofree gchar *out = NULL;
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_built ("tools/sluicectl", &out, &err, "-c", env->control, "reload", NULL);
  if (status != 0)
    g_test_fail_printf ("sluicectl reload: %d %s%s", status, out, err);
  return status == 0;
}

static GPid
spawn_four (SlTestEnv *env, const gchar *port, guint per_connection, guint rate)
{
  g_autofree gchar *n = g_strdup_printf ("%u", per_connection);
  g_autofree gchar *r = g_strdup_printf ("%u", rate);
  g_autofree gchar *size = g_strdup_printf ("%u", MSG_SIZE);
  g_autofree gchar *err_path = sl_test_path (env, "gen.stderr");
  const gchar *args[] = { "--reconnect", "-Q", "-r", r, "-n", n, "-s", size, "--active-connections", "4",
                          "127.0.0.1", port, NULL };
  return sl_test_spawn_built ("tools/sluice-gen", err_path, args);
}

/* sluice-gen's exit and its reconnects: none may have happened. */
static void
check_gen (SlTestEnv *env, gint status)
{
  g_autofree gchar *err_path = sl_test_path (env, "gen.stderr");
  g_autofree gchar *err = sl_test_read_file (err_path);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpint (number_after (err, ", reconnects="), ==, 0);
  if (g_test_failed ())
    g_test_message ("sluice-gen's stderr:\n%s", err);
}

/* The same in rsyslog's language, on its defaults: no flow control
 * written, a file action. */
static const gchar rsyslog_reload_config[] =
  "module(load=\"imtcp\" MaxSessions=\"10\")\n"
  "input(type=\"imtcp\" port=\"@IN@\" address=\"127.0.0.1\" name=\"in\")\n"
  "template(name=\"m\" type=\"string\" string=\"%msg%\\n\")\n"
  "action(type=\"omfile\" file=\"@DIR@/out.log\" template=\"m\")\n";

typedef struct
{
  const gchar *config;
  const gchar *format;      /* --config-format, or NULL */
  const gchar *source_id;   /* its source as its statistics name it */
} ReloadCase;

static const ReloadCase reload_sluice = { reload_config, NULL, "s_in" };
static const ReloadCase reload_rsyslog = { rsyslog_reload_config, "rsyslog", "rs0_s1:in" };

/* 4 connections while `sluicectl reload` runs every 0.5 s: the source
 * keeps its connections and nothing is lost or repeated. */
static void
test_reload_under_load (SlTestEnv *env, gconstpointer data)
{
  const ReloadCase *c = data;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *in = g_strdup_printf ("%u", port);
  env->config_format = c->format;
  if (!port || !sl_test_write_config (env, c->config, "IN", in, NULL) || !sl_test_daemon_start (env))
    return;
  GPid gen = spawn_four (env, in, sizes.reload_msgs, sizes.reload_rate);
  if (!gen)
    return;
  guint reloads = 0;
  gint status = -1;
  while (!sl_test_child_exited (gen, &status))
    {
      g_usleep (500 * 1000);
      if (!reload (env))
        break;
      reloads++;
    }
  if (reloads < 2 || g_test_failed ())
    {
      sl_test_child_wait (gen, 60 * G_USEC_PER_SEC);
      g_assert_cmpuint (reloads, >=, 2);
      return;
    }
  check_gen (env, WIFEXITED (status) ? WEXITSTATUS (status) : -1);
  g_autofree gchar *path = sl_test_path (env, "out.log");
  if (!sl_test_wait_lines (env, path, 4 * sizes.reload_msgs))
    return;
  g_autofree gchar *report = verify (path, sizes.reload_msgs, 4, 1);
  g_test_message ("%u reloads during %u messages on 4 connections; verify:\n%s", reloads, 4 * sizes.reload_msgs,
                  report);
  assert_complete (report, 4 * sizes.reload_msgs);
  g_assert_cmpint (sl_test_stat (env, "source", c->source_id, "connections"), ==, 4);
}

/* Reloads while the remote is down and the senders are held (or, with a
 * disk buffer, queued on disk): nothing is dropped, and once the remote
 * comes up everything arrives, on the connections of the start. */
static void
test_reload_remote_down (SlTestEnv *env, gconstpointer data)
{
  Relay r;
  GPid gen = 0;
  if (!relay_init (&r, env, data) || !sl_test_daemon_start (env)
      || !(gen = spawn_four (env, r.in, sizes.reload_msgs, 0)))
    {
      relay_clear (&r);
      return;
    }
  guint reloads = 0;
  for (; reloads < sizes.reloads && !g_test_failed (); reloads++)
    {
      g_usleep (500 * 1000);
      reload (env);
    }
  g_assert_cmpint (sl_test_stat (env, "destination", "d_out", "dropped"), ==, 0);
  g_autofree gchar *stderr_text = sl_test_daemon_stderr (env);
  g_assert_null (strstr (stderr_text, "dropped"));
  gint64 held = sl_test_stat (env, "source", "s_in", "received");
  gboolean up = !g_test_failed () && sl_test_daemon_start (&r.remote);
  gint status = sl_test_child_wait (gen, 120 * G_USEC_PER_SEC);
  if (up)
    {
      check_gen (env, WIFEXITED (status) ? WEXITSTATUS (status) : -1);
      if (sl_test_wait_lines (&r.remote, r.output, 4 * sizes.reload_msgs))
        {
          g_autofree gchar *report = verify (r.output, sizes.reload_msgs, 4, 1);
          g_test_message ("%u reloads with the remote down (%s), %" G_GINT64_FORMAT " messages received by "
                          "then; verify:\n%s", reloads, data ? (const gchar *) data : "no disk buffer", held,
                          report);
          assert_complete (report, 4 * sizes.reload_msgs);
          g_assert_cmpint (sl_test_stat (env, "source", "s_in", "connections"), ==, 4);
          g_assert_cmpint (sl_test_stat (env, "destination", "d_out", "dropped"), ==, 0);
        }
    }
  relay_clear (&r);
}

/* The remote stopped (SIGSTOP) for a while in a flow-controlled run: the
 * relay holds the sender or queues on disk, and loses nothing. */
static void
test_stall (SlTestEnv *env, gconstpointer data)
{
  Relay r;
  g_autofree gchar *n = g_strdup_printf ("%u", sizes.stall_msgs);
  g_autofree gchar *size = g_strdup_printf ("%u", MSG_SIZE);
  g_autofree gchar *err_path = sl_test_path (env, "gen.stderr");
  GPid gen = 0;
  if (!relay_init (&r, env, data) || !sl_test_daemon_start (&r.remote) || !sl_test_daemon_start (env))
    {
      relay_clear (&r);
      return;
    }
  const gchar *args[] = { "-Q", "-r", "0", "-n", n, "-s", size, "127.0.0.1", r.in, NULL };
  gint64 start = g_get_monotonic_time ();
  if ((gen = sl_test_spawn_built ("tools/sluice-gen", err_path, args))
      && sl_test_wait_lines (&r.remote, r.output, sizes.stall_msgs / 10))
    {
      kill (r.remote.pid, SIGSTOP);
      g_usleep ((gulong) sizes.stall_seconds * G_USEC_PER_SEC);
      gint64 during = sl_test_stat (env, "source", "s_in", "received");
      kill (r.remote.pid, SIGCONT);
      gint status = sl_test_child_wait (gen, 120 * G_USEC_PER_SEC);
      g_assert_cmpint (status, ==, 0);
      if (sl_test_wait_lines (&r.remote, r.output, sizes.stall_msgs))
        {
          gdouble seconds = (g_get_monotonic_time () - start) / 1e6;
          g_autofree gchar *report = verify (r.output, sizes.stall_msgs, 1, 1);
          g_test_message ("remote stopped %u s (%s): relay had received %" G_GINT64_FORMAT " of %u at the end of "
                          "the stall; all delivered in %.2f s; relay peak RSS %" G_GINT64_FORMAT " KiB",
                          sizes.stall_seconds, data ? (const gchar *) data : "no disk buffer", during,
                          sizes.stall_msgs, seconds, peak_rss_kib (env->pid));
          assert_complete (report, sizes.stall_msgs);
          g_assert_cmpint (sl_test_stat (env, "destination", "d_out", "dropped"), ==, 0);
        }
    }
  else if (gen)
    sl_test_child_wait (gen, 120 * G_USEC_PER_SEC);
  relay_clear (&r);
}

static gboolean
private_mounts_work (void)
{
  const gchar *argv[] = { "unshare", "-m", "true", NULL };
  g_autofree gchar *unshare = g_find_program_in_path ("unshare");
  if (geteuid () == 0 && unshare && sl_test_run_argv (argv, NULL, NULL) == 0)
    return TRUE;
  g_test_skip ("no private mount namespace here (unshare -m needs root and util-linux)");
  return FALSE;
}

/* A reliable buffer on a small tmpfs that a filler file leaves 1 MiB of:
 * when the disk is full the sender is held and nothing is dropped; once
 * the filler is removed the relay goes on, and with the remote up
 * everything arrives once. */
static void
run_disk_full (SlTestEnv *env, Relay *r, const gchar *dq)
{
  g_autofree gchar *quoted = g_shell_quote (dq);
  g_autofree gchar *script = g_strdup_printf ("mount -t tmpfs -o size=16m sluice-test %s && "
                                              "dd if=/dev/zero of=%s/filler bs=1M count=15 status=none && "
                                              "exec \"$0\" \"$@\"", quoted, quoted);
  const gchar *wrapper[] = { "unshare", "-m", "sh", "-c", script, NULL };
  if (!sl_test_daemon_start_wrapped (env, wrapper))
    return;
  g_autofree gchar *n = g_strdup_printf ("%u", sizes.full_msgs);
  g_autofree gchar *size = g_strdup_printf ("%u", MSG_SIZE);
  g_autofree gchar *err_path = sl_test_path (env, "gen.stderr");
  const gchar *args[] = { "-Q", "-r", "0", "-n", n, "-s", size, "127.0.0.1", r->in, NULL };
  GPid gen = sl_test_spawn_built ("tools/sluice-gen", err_path, args);
  if (!gen)
    return;
  gboolean full = sl_test_wait_stderr (env, "cannot write; holding messages");
  gint64 held = wait_steady (env, "source", "s_in", "received");
  gint64 stored = sl_test_stat (env, "destination", "d_out", "disk_queue_length");
  g_test_message ("disk full: %" G_GINT64_FORMAT " messages received, %" G_GINT64_FORMAT " on disk, of %u",
                  held, stored, sizes.full_msgs);
  g_assert_true (full);
  /* held: the relay reads no more (sluice-gen itself may have finished
   * writing, into the kernel's socket buffers) */
  g_assert_cmpint (held, <, sizes.full_msgs);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_out", "dropped"), ==, 0);

  /* the tmpfs is seen through the daemon's own mount namespace */
  g_autofree gchar *filler = g_strdup_printf ("/proc/%d/root%s/filler", (int) env->pid, dq);
  if (unlink (filler) < 0)
    g_test_fail_printf ("cannot remove %s: %s", filler, g_strerror (errno));
  g_assert_cmpint (sl_test_child_wait (gen, 60 * G_USEC_PER_SEC), ==, 0);
  if (g_test_failed () || !sl_test_wait_stderr (env, "disk buffer of d_out#0 writes again") || !wait_stat_moving (env, "destination", "d_out", "disk_queue_length", sizes.full_msgs)
      || !sl_test_daemon_start (&r->remote) || !sl_test_wait_lines (&r->remote, r->output, sizes.full_msgs))
    return;
  g_autofree gchar *report = verify (r->output, sizes.full_msgs, 1, 1);
  assert_complete (report, sizes.full_msgs);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_out", "dropped"), ==, 0);
}

static void
test_disk_full (SlTestEnv *env, gconstpointer data)
{
  if (!private_mounts_work ())
    return;
  Relay r;
  g_autofree gchar *dq = sl_test_path (env, "dq");
  if (relay_init (&r, env, "reliable(yes) disk-buf-size(1G)") && mkdir (dq, 0700) == 0)
    run_disk_full (env, &r, dq);
  relay_clear (&r);
}

/* The chaos run: sluice-gen sends numbered messages with --reconnect to
 * the relay (reliable disk buffer on a small tmpfs of its own) and on to
 * the remote, while the test does, in an order a seed chooses, kill -9
 * and restart of the relay, SIGHUP reloads of it, SIGSTOP stalls of the
 * remote and a filled disk under the buffer. At the end: the seed, the
 * rounds, what was lost and duplicated. Plain TCP cannot tell a sender
 * what the relay stored: what a kill -9 takes is the relay's window and
 * what the kernel's socket buffers held (sluice-gen's possibly-lost);
 * RELP (another branch) acknowledges at the application level.
 * SL_CHAOS_SEED and SL_CHAOS_ROUNDS (bench/chaos) set the seed and length. */
enum
{
  CHAOS_KILL,
  CHAOS_RELOAD,
  CHAOS_STALL,
  CHAOS_FILL,
  CHAOS_EVENTS
};

#define CHAOS_RATE 10000
/* the kernel's socket buffers on loopback, in messages, and a window and
 * a read: what one kill -9 may take at most */
#define KERNEL_MESSAGES ((8 * 1024 * 1024) / MSG_SIZE)

typedef struct
{
  guint32 seed;
  guint rounds;
  guint counts[CHAOS_EVENTS];
} Chaos;

/* Fills the file system of the disk buffer but for a little, for a while. */
static void
fill_for_a_while (GRand *rand, const gchar *dq)
{
  g_autofree gchar *filler = g_build_filename (dq, "filler", NULL);
  gint fd = open (filler, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0)
    return;
  static gchar block[65536];
  while (write (fd, block, sizeof block) > 0)
    ;
  struct stat st;
  if (fstat (fd, &st) == 0 && ftruncate (fd, MAX (st.st_size - 256 * 1024, 0)) < 0)
    g_test_message ("cannot leave room on the disk buffer's file system");
  close (fd);
  g_usleep (g_rand_int_range (rand, 300, 1000) * 1000);
  unlink (filler);
}

static gboolean
chaos_round (SlTestEnv *env, Relay *r, GRand *rand, const gchar *dq, Chaos *c)
{
  guint event = g_rand_int_range (rand, 0, CHAOS_EVENTS);
  c->counts[event]++;
  switch (event)
    {
    case CHAOS_KILL:
      sl_test_daemon_stop (env, SIGKILL);
      return sl_test_daemon_start (env);
    case CHAOS_RELOAD:
      {
        g_autofree gchar *answer = sl_test_control (env, "RELOAD");
        return answer && g_str_has_prefix (answer, "OK");
      }
    case CHAOS_STALL:
      kill (r->remote.pid, SIGSTOP);
      g_usleep (g_rand_int_range (rand, 300, 1500) * 1000);
      kill (r->remote.pid, SIGCONT);
      return TRUE;
    case CHAOS_FILL:
      fill_for_a_while (rand, dq);
      return TRUE;
    }
  return FALSE;
}

static void
run_chaos (SlTestEnv *env, Relay *r, const gchar *dq, Chaos *c, guint messages)
{
  g_autofree gchar *n = g_strdup_printf ("%u", messages);
  g_autofree gchar *rate = g_strdup_printf ("%u", CHAOS_RATE);
  g_autofree gchar *size = g_strdup_printf ("%u", MSG_SIZE);
  g_autofree gchar *err_path = sl_test_path (env, "gen.stderr");
  const gchar *args[] = { "--reconnect", "--reconnect-timeout", "60", "-Q", "-r", rate, "-n", n, "-s", size,
                          "127.0.0.1", r->in, NULL };
  GPid gen = sl_test_spawn_built ("tools/sluice-gen", err_path, args);
  if (!gen)
    return;
  GRand *rand = g_rand_new_with_seed (c->seed);
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < c->rounds; i++)
    {
      g_usleep (g_rand_int_range (rand, 100, 600) * 1000);
      ok = chaos_round (env, r, rand, dq, c);
    }
  g_rand_free (rand);
  gint status = sl_test_child_wait (gen, 120 * G_USEC_PER_SEC);
  g_autofree gchar *gen_err = sl_test_read_file (err_path);
  if (!ok || status != 0)
    {
      g_test_fail_printf ("chaos seed %u: a round failed or sluice-gen exited with %d: %s", c->seed, status, gen_err);
      return;
    }
  if (!wait_stat_moving (env, "destination", "d_out", "disk_queue_length", 0)
      || !sl_test_wait_stat (env, "destination", "d_out", "queued", 0))
    return;
  g_assert_cmpint (sl_test_stat (env, "destination", "d_out", "dropped"), ==, 0);
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_assert_cmpint (sl_test_daemon_stop (&r->remote, SIGTERM), ==, 0);
  g_autofree gchar *report = verify (r->output, messages, 1, 1);
  const gchar *total = report ? strstr (report, "total: ") : NULL;
  gint64 lost = number_after (total, " missing=");
  gint64 duplicated = number_after (total, " duplicated=");
  g_test_message ("chaos: seed=%u rounds=%u (kill -9 %u, reload %u, stall %u, disk full %u) messages=%u lost=%"
                  G_GINT64_FORMAT " duplicated=%" G_GINT64_FORMAT "; sluice-gen: possibly-lost=%" G_GINT64_FORMAT
                  " (what TCP cannot tell a sender was stored)",
                  c->seed, c->rounds, c->counts[CHAOS_KILL], c->counts[CHAOS_RELOAD], c->counts[CHAOS_STALL],
                  c->counts[CHAOS_FILL], messages, lost, duplicated, number_after (gen_err, ", possibly-lost="));
  g_assert_nonnull (total);
  g_assert_cmpint (lost, >=, 0);
  /* only a kill -9 may lose, and at most what TCP had not handed over */
  g_assert_cmpint (lost, <=, (gint64) c->counts[CHAOS_KILL] * (WINDOW + READ_MESSAGES + KERNEL_MESSAGES));
}

static void
test_chaos (SlTestEnv *env, gconstpointer data)
{
  if (geteuid () != 0)
    {
      g_test_skip ("the filled disk is a tmpfs the test mounts: root only");
      return;
    }
  const gchar *seed_text = g_getenv ("SL_CHAOS_SEED");
  const gchar *rounds_text = g_getenv ("SL_CHAOS_ROUNDS");
  Chaos c = { .seed = seed_text ? (guint32) g_ascii_strtoull (seed_text, NULL, 10) : (guint32) g_test_rand_int (),
              .rounds = rounds_text ? (guint) g_ascii_strtoull (rounds_text, NULL, 10) : 8 };
  g_test_message ("chaos seed %u (SL_CHAOS_SEED=%u repeats the order)", c.seed, c.seed);
  Relay r;
  g_autofree gchar *dq = sl_test_path (env, "dq");
  gboolean mounted = FALSE;
  if (relay_init (&r, env, "reliable(yes) disk-buf-size(1G)") && mkdir (dq, 0700) == 0
      && (mounted = mount ("tmpfs", dq, "tmpfs", 0, "size=32m") == 0) && sl_test_daemon_start (&r.remote)
      && sl_test_daemon_start (env))
    run_chaos (env, &r, dq, &c, MAX (c.rounds, 1) * CHAOS_RATE);
  if (env->pid)
    sl_test_daemon_stop (env, SIGKILL);
  if (r.remote.pid)
    {
      kill (r.remote.pid, SIGCONT);
      sl_test_daemon_stop (&r.remote, SIGKILL);
    }
  if (mounted && umount2 (dq, MNT_DETACH) < 0)
    g_test_fail_printf ("cannot unmount %s: %s", dq, g_strerror (errno));
  relay_clear (&r);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  if (g_strcmp0 (g_getenv ("SL_DURABILITY_FULL"), "1") == 0)
    sizes = (Sizes) { 1000000, 10, 100000, 50000, 500000, 100000, 20, 1000000, 10, 20000 };
  else
    sizes = (Sizes) { 100000, 4, 20000, 20000, 25000, 12500, 6, 100000, 3, 20000 };
  g_assert (sizes.rounds < 64);
  SL_TEST_ADD ("/durability/crash/remote-down", test_crash_remote_down);
  SL_TEST_ADD ("/durability/crash/kill-rounds", test_crash_rounds);
  SL_TEST_ADD ("/durability/rsyslog/kill-rounds", test_rsyslog_crash_rounds);
  SL_TEST_ADD ("/durability/crash/relp-chain", test_relp_chain);
  g_test_add ("/durability/reload/under-load", SlTestEnv, &reload_sluice, sl_test_env_setup, test_reload_under_load,
              sl_test_env_teardown);
  g_test_add ("/durability/rsyslog/reload-under-load", SlTestEnv, &reload_rsyslog, sl_test_env_setup,
              test_reload_under_load, sl_test_env_teardown);
  g_test_add ("/durability/reload/remote-down", SlTestEnv, NULL, sl_test_env_setup, test_reload_remote_down,
              sl_test_env_teardown);
  g_test_add ("/durability/reload/remote-down-disk-buffer", SlTestEnv, "reliable(yes) disk-buf-size(1G)",
              sl_test_env_setup, test_reload_remote_down, sl_test_env_teardown);
  g_test_add ("/durability/stall/memory", SlTestEnv, NULL, sl_test_env_setup, test_stall, sl_test_env_teardown);
  g_test_add ("/durability/stall/disk-buffer", SlTestEnv, "reliable(yes) disk-buf-size(1G)", sl_test_env_setup,
              test_stall, sl_test_env_teardown);
  SL_TEST_ADD ("/durability/disk-full", test_disk_full);
  SL_TEST_ADD ("/durability/chaos", test_chaos);
  return g_test_run ();
}
