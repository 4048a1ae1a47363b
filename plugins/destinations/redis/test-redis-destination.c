/* SPDX-License-Identifier: GPL-2.0-or-later */
/* redis() against a redis-server of the test's own (Debian's, on a free
 * loopback port and a temporary folder, started once for the program):
 * the same keys from syslog-ng 3.38's redis module and from sluiced on one
 * configuration, and nothing lost under flow control while the server is
 * killed and started again. */
#include "tests/functional/harness.h"

#include <signal.h>
#include <string.h>
#include <sys/socket.h>

static gchar *redis_dir;
static guint16 redis_port;
static GPid redis_pid;

static gboolean
redis_start (void)
{
  g_autofree gchar *port = g_strdup_printf ("%u", redis_port);
  g_autofree gchar *err = g_build_filename (redis_dir, "redis.stderr", NULL);
  /* every write on disk before its reply, so a kill -9 loses nothing
   * the server confirmed */
  const gchar *argv[] = { "redis-server", "--port", port, "--bind", "127.0.0.1", "--dir", redis_dir,
                          "--save", "", "--appendonly", "yes", "--appendfsync", "always",
                          "--daemonize", "no", NULL };
  redis_pid = sl_test_spawn_argv (argv, err);
  return redis_pid != 0;
}

/* A redis-cli command's output, or NULL when the server does not answer. */
static gchar *
redis_cli (const gchar *first, ...)
{
  g_autofree gchar *port = g_strdup_printf ("%u", redis_port);
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) "redis-cli");
  g_ptr_array_add (argv, (gpointer) "-p");
  g_ptr_array_add (argv, port);
  va_list args;
  va_start (args, first);
  for (const gchar *a = first; a; a = va_arg (args, const gchar *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  gchar *out = NULL;
  gint status = sl_test_run_argv ((const gchar *const *) argv->pdata, &out, NULL);
  g_ptr_array_free (argv, TRUE);
  if (status != 0)
    g_clear_pointer (&out, g_free);
  return out;
}

static gboolean
redis_wait_ready (void)
{
  for (guint i = 0; i < SL_TEST_DEADLINE_MS / 50; i++)
    {
      g_autofree gchar *pong = redis_cli ("PING", NULL);
      if (pong && g_str_has_prefix (pong, "PONG"))
        return TRUE;
      g_usleep (50 * 1000);
    }
  return FALSE;
}

/* LLEN or HLEN of key */
static gint64
redis_count (const gchar *command, const gchar *key)
{
  g_autofree gchar *out = redis_cli (command, key, NULL);
  return out ? g_ascii_strtoll (out, NULL, 10) : -1;
}

static gboolean
redis_wait_count (const gchar *command, const gchar *key, gint64 n)
{
  for (guint i = 0; i < SL_TEST_DEADLINE_MS / 50; i++)
    {
      if (redis_count (command, key) >= n)
        return TRUE;
      g_usleep (50 * 1000);
    }
  g_test_fail_printf ("%s holds %" G_GINT64_FORMAT " items, not %" G_GINT64_FORMAT, key,
                      redis_count (command, key), n);
  return FALSE;
}

static gboolean
redis_wait_llen (const gchar *key, gint64 n)
{
  return redis_wait_count ("LLEN", key, n);
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar *const *) a, *(const gchar *const *) b);
}

/* HGETALL's output as sorted lines, so that hash order does not matter */
static gchar *
redis_hash (const gchar *key)
{
  g_autofree gchar *out = redis_cli ("HGETALL", key, NULL);
  if (!out)
    return NULL;
  gchar **lines = g_strsplit (out, "\n", -1);
  GPtrArray *pairs = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; lines[i] && lines[i + 1] && *lines[i]; i += 2)
    g_ptr_array_add (pairs, g_strdup_printf ("%s=%s", lines[i], lines[i + 1]));
  g_strfreev (lines);
  g_ptr_array_sort (pairs, compare_strings);
  g_ptr_array_add (pairs, NULL);
  gchar *joined = g_strjoinv ("\n", (gchar **) pairs->pdata);
  g_ptr_array_free (pairs, TRUE);
  return joined;
}

static const gchar config[] =
  "@version: 3.38\n"
  "options { keep-hostname(yes); };\n"
  "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_list { redis(host(\"127.0.0.1\") port(@REDIS@) persist-name(\"d_list\")\n"
  "                           command(\"RPUSH\" \"@OUT@:list\" \"${HOST} ${PROGRAM}: ${MSG}\")); };\n"
  "destination d_hash { redis(port(@REDIS@) persist-name(\"d_hash\") command(\"HSET\" \"@OUT@:hash\" \"${PROGRAM}\" \"${MSG}\")); };\n"
  "log { source(s); destination(d_list); destination(d_hash); flags(flow-control); };\n";

static void
test_same_as_syslog_ng (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = g_strdup_printf ("%u", redis_port);
  GString *conf = g_string_new (config);
  g_string_replace (conf, "@REDIS@", port, 0);
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < 50; i++)
    g_string_append_printf (text, "<13>Dec  1 10:00:00 host%u app%u: message %u with \"quotes\" and spaces\n",
                            i % 3, i % 7, i);
  g_autofree gchar *sl_out = NULL, *ng_out = NULL;
  GPid ng = 0;
  gboolean ran = sl_test_side_by_side (env, conf->str, text->str, NULL, 0, &sl_out, &ng_out, &ng);
  g_string_free (conf, TRUE);
  g_string_free (text, TRUE);
  if (!ran)
    return;
  g_autofree gchar *sl_list = g_strconcat (sl_out, ":list", NULL);
  g_autofree gchar *ng_list = g_strconcat (ng_out, ":list", NULL);
  g_autofree gchar *sl_hash_key = g_strconcat (sl_out, ":hash", NULL);
  g_autofree gchar *ng_hash_key = g_strconcat (ng_out, ":hash", NULL);
  gboolean delivered = redis_wait_llen (sl_list, 50) && redis_wait_llen (ng_list, 50)
                       && redis_wait_count ("HLEN", sl_hash_key, 7) && redis_wait_count ("HLEN", ng_hash_key, 7);
  sl_test_syslog_ng_stop (env, ng);
  if (!delivered)
    return;
  g_autofree gchar *sl_items = redis_cli ("LRANGE", sl_list, "0", "-1", NULL);
  g_autofree gchar *ng_items = redis_cli ("LRANGE", ng_list, "0", "-1", NULL);
  g_assert_cmpstr (sl_items, ==, ng_items);
  g_assert_true (g_str_has_prefix (sl_items, "host0 app0: message 0 with \"quotes\" and spaces\n"));
  g_autofree gchar *sl_hash = redis_hash (sl_hash_key);
  g_autofree gchar *ng_hash = redis_hash (ng_hash_key);
  g_assert_cmpstr (sl_hash, ==, ng_hash);
  g_assert_nonnull (strstr (sl_hash, "app6=message 48 with \"quotes\" and spaces"));
}

/* sluiced with a tcp() source (its port in *tcp) and a redis()
 * destination d, each with the options given, under flow control; @KEY@
 * in them is *key, a name of the test's own. */
static gboolean
start_daemon (SlTestEnv *env, const gchar *source_options, const gchar *destination_options, const gchar *name,
              guint16 *tcp, gchar **key)
{
  g_autofree gchar *port = g_strdup_printf ("%u", redis_port);
  *tcp = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *tcp_text = g_strdup_printf ("%u", *tcp);
  *key = sl_test_path (env, name);
  g_autofree gchar *text = g_strdup_printf ("@version: 4.0\n"
                                            "source s { tcp(ip(\"127.0.0.1\") port(@TCP@)%s); };\n"
                                            "destination d { redis(port(@REDIS@) %s); };\n"
                                            "log { source(s); destination(d); flags(flow-control); };\n",
                                            source_options, destination_options);
  g_assert_true (sl_test_write_config (env, text, "TCP", tcp_text, "REDIS", port, "KEY", *key, NULL));
  return sl_test_daemon_start (env) && sl_test_wait_tcp (env, *tcp);
}

/* A command Redis refuses (INCR of a list) is dropped and counted; the
 * messages after it still go. */
static void
test_error_reply (SlTestEnv *env, gconstpointer data)
{
  guint16 tcp;
  g_autofree gchar *key = NULL;
  if (!start_daemon (env, "", "command(\"${PROGRAM}\" \"@KEY@\" \"${MSG}\")", "mixed", &tcp, &key))
    return;
  g_assert_true (sl_test_tcp_send (tcp, "<13>Dec  1 10:00:00 h RPUSH: one\n"
                                        "<13>Dec  1 10:00:00 h INCR: two\n"
                                        "<13>Dec  1 10:00:00 h RPUSH: three\n"));
  if (!redis_wait_llen (key, 2))
    return;
  g_assert_true (sl_test_wait_stat (env, "destination", "d", "error_replies", 1));
  g_assert_true (sl_test_wait_stat (env, "destination", "d", "dropped", 1));
  g_autofree gchar *items = redis_cli ("LRANGE", key, "0", "-1", NULL);
  g_assert_cmpstr (items, ==, "one\nthree\n");
}

/* kill -9 of the server while 20,000 messages flow: each is in the list
 * (at least once) after it is back. */
static void
test_server_killed (SlTestEnv *env, gconstpointer data)
{
  guint16 tcp;
  g_autofree gchar *key = NULL;
  if (!start_daemon (env, " log-iw-size(1000)",
                     "command(\"RPUSH\" \"@KEY@\" \"${MSG}\") time-reopen(1) log-fifo-size(1000)", "flow", &tcp, &key))
    return;
  const guint n = 20000;
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "<13>Dec  1 10:00:00 h app: %u\n", i);
  SlTestSender *sender = sl_test_sender_start (sl_test_tcp_connect (tcp), text);
  if (!redis_wait_llen (key, n / 10))
    {
      sl_test_sender_finish (sender);
      return;
    }
  kill (redis_pid, SIGKILL);
  sl_test_child_wait (redis_pid, SL_TEST_DEADLINE_MS * 1000);
  g_usleep (1500 * 1000);
  g_assert_true (redis_start () && redis_wait_ready ());
  sl_test_sender_join (sender);
  /* what was sent again is in the list twice: its length alone may reach
   * n before the last messages are in; "written" counts each once, when
   * the server answered it */
  if (!redis_wait_llen (key, n) || !sl_test_wait_stat_at_least (env, "destination", "d", "written", n))
    return;
  g_autofree gchar *items = redis_cli ("LRANGE", key, "0", "-1", NULL);
  gchar **lines = g_strsplit (items, "\n", -1);
  g_autofree gboolean *seen = g_new0 (gboolean, n);
  guint distinct = 0;
  for (guint i = 0; lines[i] && *lines[i]; i++)
    {
      guint64 v = g_ascii_strtoull (lines[i], NULL, 10);
      if (v < n && !seen[v])
        {
          seen[v] = TRUE;
          distinct++;
        }
    }
  g_test_message ("%u items for %u messages", g_strv_length (lines) - 1, n);
  g_strfreev (lines);
  g_assert_cmpuint (distinct, ==, n);
}

/* A server busy with a script answers BUSY: the session ends and every
 * command without its reply is sent again once the script is killed;
 * none is lost, dropped or written twice (the server ran none of them). */
static void
test_busy_sends_again (SlTestEnv *env, gconstpointer data)
{
  guint16 tcp;
  g_autofree gchar *key = NULL;
  if (!start_daemon (env, " log-iw-size(1000)", "command(\"RPUSH\" \"@KEY@\" \"${MSG}\") batch-lines(50) time-reopen(1)",
                     "busy", &tcp, &key))
    return;
  g_autofree gchar *port = g_strdup_printf ("%u", redis_port);
  g_autofree gchar *set = redis_cli ("CONFIG", "SET", "busy-reply-threshold", "50", NULL);
  g_assert_cmpstr (set, ==, "OK\n");
  g_autofree gchar *err = sl_test_path (env, "script.stderr");
  const gchar *script[] = { "redis-cli", "-p", port, "EVAL", "while true do end", "0", NULL };
  GPid busy = sl_test_spawn_argv (script, err);
  if (!busy)
    return;
  gboolean server_busy = FALSE;
  for (guint i = 0; i < SL_TEST_DEADLINE_MS / 50 && !server_busy; i++)
    {
      g_autofree gchar *pong = redis_cli ("PING", NULL);
      server_busy = pong && g_str_has_prefix (pong, "BUSY");
      if (!server_busy)
        g_usleep (50 * 1000);
    }
  const guint n = 2000;
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "<13>Dec  1 10:00:00 h app: %u\n", i);
  g_assert_true (sl_test_tcp_send (tcp, text->str));
  g_string_free (text, TRUE);
  gboolean busy_seen = sl_test_wait_stderr (env, "redis answered BUSY");
  g_autofree gchar *killed = redis_cli ("SCRIPT", "KILL", NULL);
  sl_test_child_wait (busy, SL_TEST_DEADLINE_MS * 1000);
  g_assert_true (server_busy);
  g_assert_true (busy_seen);
  g_assert_cmpstr (killed, ==, "OK\n");
  if (!redis_wait_llen (key, n) || !sl_test_wait_stat (env, "destination", "d", "written", n))
    return;
  g_assert_cmpint (redis_count ("LLEN", key), ==, n);
  g_assert_true (sl_test_wait_stat (env, "destination", "d", "dropped", 0));
  g_assert_true (sl_test_wait_stat (env, "destination", "d", "error_replies", 0));
  g_autofree gchar *last = redis_cli ("LINDEX", key, "-1", NULL);
  g_assert_cmpstr (last, ==, "1999\n");
}

/* rsyslog's omhiredis in its three modes, the same configuration run by
 * rsyslogd 8.2302 and by sluiced --config-format rsyslog, each with its
 * own keys (@K@): the lists, the set key and its time to live the same. */
static const gchar omhiredis_config[] =
  "module(load=\"imtcp\")\n"
  "module(load=\"omhiredis\")\n"
  "input(type=\"imtcp\" port=\"@PORT@\")\n"
  "template(name=\"t\" type=\"string\" string=\"%pri%|%hostname%|%syslogtag%|%msg%\")\n"
  "template(name=\"k\" type=\"string\" string=\"@K@:by:%programname%\")\n"
  "action(type=\"omhiredis\" serverport=\"@REDIS@\" mode=\"queue\" key=\"@K@:lpush\" template=\"t\")\n"
  "action(type=\"omhiredis\" serverport=\"@REDIS@\" mode=\"queue\" key=\"@K@:rpush\" userpush=\"on\" template=\"t\")\n"
  "action(type=\"omhiredis\" serverport=\"@REDIS@\" mode=\"set\" key=\"@K@:last\" expiration=\"600\" template=\"t\")\n"
  "action(type=\"omhiredis\" serverport=\"@REDIS@\" mode=\"queue\" key=\"k\" dynakey=\"on\" template=\"t\")\n";

static gchar *
omhiredis_text (const gchar *key, guint16 port)
{
  g_autofree gchar *redis = g_strdup_printf ("%u", redis_port);
  g_autofree gchar *tcp = g_strdup_printf ("%u", port);
  GString *text = g_string_new (omhiredis_config);
  g_string_replace (text, "@K@", key, 0);
  g_string_replace (text, "@REDIS@", redis, 0);
  g_string_replace (text, "@PORT@", tcp, 0);
  return g_string_free (text, FALSE);
}

static void
test_same_as_rsyslogd (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  guint16 rs_port = sl_test_free_port (SOCK_STREAM);
  guint16 sl_port;
  while ((sl_port = sl_test_free_port (SOCK_STREAM)) == rs_port)
    ;
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  g_assert_cmpint (g_mkdir_with_parents (rs_dir, 0700), ==, 0);
  g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  g_autofree gchar *rs_text = omhiredis_text ("rs", rs_port);
  g_autofree gchar *sl_text = omhiredis_text ("sl", sl_port);
  g_assert_true (g_file_set_contents (rs_conf, rs_text, -1, NULL));
  g_assert_true (g_file_set_contents (env->config, sl_text, -1, NULL));
  g_autofree gchar *rs_err = g_build_filename (rs_dir, "rsyslogd.stderr", NULL);
  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);
  GString *lines = g_string_new (NULL);
  for (guint i = 0; i < 20; i++)
    g_string_append_printf (lines, "<%u>Dec  1 10:00:%02u host%u app%u[%u]: message %u, with  two spaces\n", 8 + i % 8,
                            i, i % 3, i % 4, 100 + i, i);
  gboolean sent = sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL)
                  && sl_test_wait_port (rs_port) && sl_test_tcp_send (rs_port, lines->str)
                  && sl_test_tcp_send (sl_port, lines->str);
  g_string_free (lines, TRUE);
  gboolean delivered = sent && redis_wait_llen ("rs:rpush", 20) && redis_wait_llen ("sl:rpush", 20)
                       && redis_wait_llen ("rs:lpush", 20) && redis_wait_llen ("sl:lpush", 20)
                       && redis_wait_llen ("rs:by:app3", 5) && redis_wait_llen ("sl:by:app3", 5);
  kill (rs, SIGTERM);
  sl_test_child_wait (rs, 10 * G_USEC_PER_SEC);
  if (!delivered)
    {
      g_autofree gchar *rs_stderr = sl_test_read_file (rs_err);
      g_test_fail_printf ("not every key was written; rsyslogd: %s", rs_stderr ? rs_stderr : "");
      return;
    }
  static const gchar *const lists[] = { "lpush", "rpush", "by:app0", "by:app3" };
  for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
    {
      g_autofree gchar *rs_key = g_strconcat ("rs:", lists[i], NULL);
      g_autofree gchar *sl_key = g_strconcat ("sl:", lists[i], NULL);
      g_autofree gchar *rs_items = redis_cli ("LRANGE", rs_key, "0", "-1", NULL);
      g_autofree gchar *sl_items = redis_cli ("LRANGE", sl_key, "0", "-1", NULL);
      g_assert_cmpstr (sl_items, ==, rs_items);
    }
  g_autofree gchar *rs_last = redis_cli ("GET", "rs:last", NULL);
  g_autofree gchar *sl_last = redis_cli ("GET", "sl:last", NULL);
  g_assert_cmpstr (sl_last, ==, rs_last);
  g_assert_cmpstr (sl_last, ==, "11|host1|app3[119]:| message 19, with  two spaces\n");
  g_autofree gchar *ttl = redis_cli ("TTL", "sl:last", NULL);
  g_assert_cmpint (g_ascii_strtoll (ttl, NULL, 10), >, 500);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  g_setenv ("TZ", "UTC", TRUE);
  g_autofree gchar *program = g_find_program_in_path ("redis-server");
  if (!program)
    {
      g_print ("1..0 # SKIP redis-server is not installed (quickstart installs it)\n");
      return 0;
    }
  redis_dir = sl_test_peer_dir ("redis");
  redis_port = sl_test_free_port (SOCK_STREAM);
  if (!redis_dir || !redis_start () || !redis_wait_ready ())
    {
      g_printerr ("redis-server did not start\n");
      return 1;
    }
  SL_TEST_ADD ("/redis/same-as-syslog-ng", test_same_as_syslog_ng);
  SL_TEST_ADD ("/redis/error-reply", test_error_reply);
  SL_TEST_ADD ("/redis/server-killed", test_server_killed);
  SL_TEST_ADD ("/redis/busy-sends-again", test_busy_sends_again);
  SL_TEST_ADD ("/redis/same-as-rsyslogd", test_same_as_rsyslogd);
  gint status = g_test_run ();
  if (!sl_test_peer_stop (redis_pid, redis_dir))
    status = 1;
  g_free (redis_dir);
  return status;
}
