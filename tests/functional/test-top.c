/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluicectl top as a person uses it: in a terminal (tmux, a server of the
 * test's own), under load, read off the screen, quit with q. */
#include "tests/functional/harness.h"

#include <signal.h>
#include <string.h>
#include <sys/socket.h>

static const gchar config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); };\n";

/* tmux on the test's own server socket; its exit status. */
static gint
tmux (SlTestEnv *env, gchar **out, const gchar *const *args)
{
  g_autofree gchar *socket_path = sl_test_path (env, "tmux.sock");
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) "tmux");
  g_ptr_array_add (argv, (gpointer) "-S");
  g_ptr_array_add (argv, socket_path);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  gint status = sl_test_run_argv ((const gchar *const *) argv->pdata, out, NULL);
  g_ptr_array_unref (argv);
  return status;
}

static gchar *
screen (SlTestEnv *env)
{
  gchar *out = NULL;
  const gchar *args[] = { "capture-pane", "-p", "-t", "top", NULL };
  tmux (env, &out, args);
  return out;
}

/* The line of the screen that starts with kind and has id. */
static gchar **
row_of (const gchar *text, const gchar *kind, const gchar *id)
{
  g_auto (GStrv) lines = g_strsplit (text ? text : "", "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], kind) && strstr (lines[i], id))
      return g_strsplit_set (g_strstrip (lines[i]), " ", -1);
  return NULL;
}

/* The words of a row, the empty ones between spaces left out. */
static GPtrArray *
words_of (gchar **parts)
{
  GPtrArray *words = g_ptr_array_new ();
  for (guint i = 0; parts && parts[i]; i++)
    if (*parts[i])
      g_ptr_array_add (words, parts[i]);
  return words;
}

static void
test_top_under_tmux (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *tmux_path = g_find_program_in_path ("tmux");
  if (!tmux_path)
    {
      g_test_skip ("tmux is not installed");
      return;
    }
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  if (!port || !sl_test_write_config (env, config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  const gchar *builddir = g_getenv ("SL_TOP_BUILDDIR");
  g_autofree gchar *command = g_strdup_printf ("exec '%s/tools/sluicectl' -c '%s' top", builddir ? builddir : ".",
                                               env->control);
  const gchar *start[] = { "new-session", "-d", "-s", "top", "-x", "150", "-y", "30", command, NULL };
  g_assert_cmpint (tmux (env, NULL, start), ==, 0);

  /* 2,000 messages a second for 6 seconds */
  g_autofree gchar *gen = g_build_filename (builddir ? builddir : ".", "tools", "sluice-gen", NULL);
  g_autofree gchar *gen_err = sl_test_path (env, "gen.err");
  const gchar *gen_argv[] = { gen, "-n", "12000", "-r", "2000", "-Q", "127.0.0.1", port_str, NULL };
  GPid sender = sl_test_spawn_argv (gen_argv, gen_err);

  /* within a few refreshes the source shows messages coming in, the
   * destination going out */
  g_autofree gchar *seen = NULL;
  g_autofree gchar *connections = NULL, *dropped = NULL;
  gint64 in = 0, out = 0;
  for (gint i = 0; i < 50 && (in <= 0 || out <= 0); i++)
    {
      g_usleep (200000);
      g_free (seen);
      seen = screen (env);
      g_auto (GStrv) source = row_of (seen, "source", "s_net#0");
      g_auto (GStrv) destination = row_of (seen, "destination", "d_file#0");
      g_autoptr (GPtrArray) s = words_of (source);
      g_autoptr (GPtrArray) d = words_of (destination);
      /* KIND ID DRIVER IN/s OUT/s QUEUED QUEUE-KiB DROPPED CONNS */
      if (s->len == 9 && d->len == 9)
        {
          in = g_ascii_strtoll (g_ptr_array_index (s, 3), NULL, 10);
          out = g_ascii_strtoll (g_ptr_array_index (d, 4), NULL, 10);
          g_free (connections);
          connections = g_strdup (g_ptr_array_index (s, 8));
          g_free (dropped);
          dropped = g_strdup (g_ptr_array_index (d, 7));
        }
    }
  g_test_message ("screen:\n%s", seen);
  g_assert_nonnull (strstr (seen, "sluicectl top: sluiced at "));
  g_assert_nonnull (strstr (seen, "IN/s"));
  g_assert_cmpint (in, >, 500);
  g_assert_cmpint (out, >, 500);
  g_assert_cmpstr (connections, ==, "1");
  g_assert_cmpstr (dropped, ==, "0");

  /* q quits: the program ends, and its session with it */
  const gchar *quit[] = { "send-keys", "-t", "top", "q", NULL };
  g_assert_cmpint (tmux (env, NULL, quit), ==, 0);
  const gchar *has[] = { "has-session", "-t", "top", NULL };
  gboolean gone = FALSE;
  for (gint i = 0; i < 50 && !gone; i++)
    {
      g_usleep (100000);
      gone = tmux (env, NULL, has) != 0;
    }
  g_assert_true (gone);
  if (!gone)
    {
      const gchar *kill_server[] = { "kill-server", NULL };
      tmux (env, NULL, kill_server);
    }
  if (sender)
    sl_test_child_wait (sender, 30 * G_USEC_PER_SEC);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/top/under-tmux", test_top_under_tmux);
  return g_test_run ();
}
