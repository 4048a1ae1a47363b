/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --user, --group and --caps on the real daemon, started as root: it
 * runs as the user with the capabilities asked for, in every thread, a
 * reload binds ports below 1024 again, files made after the drop get
 * the owner() configured, and its children have no capability. Skipped when the tests do not run as root. */
#include "tests/functional/harness.h"

#include <arpa/inet.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define NOBODY 65534
/* Debian's "daemon" user and group, given to new files by owner() */
#define FILE_OWNER 1

/* cap_chown, cap_dac_read_search, cap_fowner, cap_net_bind_service, cap_syslog */
#define DEFAULT_CAPS ((1ull << 0) | (1ull << 2) | (1ull << 3) | (1ull << 10) | (1ull << 34))
#define BIND_ONLY_CAPS (1ull << 10)

static gboolean
skip_unless_root (void)
{
  if (getuid () == 0)
    return FALSE;
  g_test_skip ("changing the user needs root");
  return TRUE;
}

/* A port below 1024 on 127.0.0.1 that nobody listens on, from the top
 * of the range down, skipping below. 0 (and the test failed) if none. */
static guint16
free_low_port (guint16 below)
{
  for (guint16 port = below - 1; port >= 600; port--)
    {
      gint fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (port) };
      inet_pton (AF_INET, "127.0.0.1", &addr.sin_addr);
      gboolean free = fd >= 0 && bind (fd, (struct sockaddr *) &addr, sizeof addr) == 0;
      if (fd >= 0)
        close (fd);
      if (free)
        return port;
    }
  g_test_fail_printf ("no free TCP port below %u on 127.0.0.1", below);
  return 0;
}

/* The value of a "Name:\t..." line of a /proc status file, or NULL. */
static gchar *
status_field (const gchar *status_path, const gchar *name)
{
  g_autofree gchar *text = NULL;
  if (!g_file_get_contents (status_path, &text, NULL, NULL))
    return NULL;
  g_autofree gchar *key = g_strconcat ("\n", name, ":\t", NULL);
  const gchar *p = strstr (text, key);
  if (!p)
    return NULL;
  p += strlen (key);
  return g_strndup (p, strcspn (p, "\n"));
}

/* Every thread of pid runs as uid and gid with exactly caps permitted,
 * effective and in the bounding set, and may gain no new privileges. */
static void
assert_credentials (GPid pid, guint uid, guint gid, guint64 caps)
{
  g_autofree gchar *tasks = g_strdup_printf ("/proc/%d/task", (gint) pid);
  GDir *dir = g_dir_open (tasks, 0, NULL);
  g_assert_nonnull (dir);
  if (!dir)
    return;
  g_autofree gchar *ids = g_strdup_printf ("%u\t%u\t%u\t%u", uid, uid, uid, uid);
  g_autofree gchar *gids = g_strdup_printf ("%u\t%u\t%u\t%u", gid, gid, gid, gid);
  g_autofree gchar *only_group = g_strdup_printf ("%u", gid);
  g_autofree gchar *mask = g_strdup_printf ("%016" G_GINT64_MODIFIER "x", caps);
  guint threads = 0;
  for (const gchar *name; (name = g_dir_read_name (dir)); threads++)
    {
      g_autofree gchar *status = g_strdup_printf ("%s/%s/status", tasks, name);
      g_autofree gchar *uids = status_field (status, "Uid");
      g_autofree gchar *gid_line = status_field (status, "Gid");
      g_autofree gchar *groups = status_field (status, "Groups");
      g_autofree gchar *prm = status_field (status, "CapPrm");
      g_autofree gchar *eff = status_field (status, "CapEff");
      g_autofree gchar *bnd = status_field (status, "CapBnd");
      g_autofree gchar *nnp = status_field (status, "NoNewPrivs");
      g_assert_cmpstr (uids, ==, ids);
      g_assert_cmpstr (gid_line, ==, gids);
      g_assert_cmpstr (groups ? g_strstrip (groups) : NULL, ==, only_group);
      g_assert_cmpstr (prm, ==, mask);
      g_assert_cmpstr (eff, ==, mask);
      g_assert_cmpstr (bnd, ==, mask);
      g_assert_cmpstr (nnp, ==, "1");
    }
  g_dir_close (dir);
  g_assert_cmpuint (threads, >, 1);
}

static void
assert_owner (const gchar *path, guint uid, guint gid)
{
  struct stat st;
  g_assert_cmpint (stat (path, &st), ==, 0);
  g_assert_cmpuint (st.st_uid, ==, uid);
  g_assert_cmpuint (st.st_gid, ==, gid);
}

static const gchar one_port_config[] =
  "@version: 4.0\n"
  "source s_low { tcp(ip(\"127.0.0.1\") port(@LOW@)); };\n"
  "destination d_files { file(\"@DIR@/out/${PROGRAM}.log\" create-dirs(yes) owner(1) group(1)\n"
  "  template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_low); destination(d_files); };\n";

static const gchar two_ports_config[] =
  "@version: 4.0\n"
  "source s_low { tcp(ip(\"127.0.0.1\") port(@LOW@)); };\n"
  "source s_other { tcp(ip(\"127.0.0.1\") port(@OTHER@)); };\n"
  "destination d_files { file(\"@DIR@/out/${PROGRAM}.log\" create-dirs(yes) owner(1) group(1)\n"
  "  template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_low); source(s_other); destination(d_files); };\n";

static gboolean
deliver (SlTestEnv *env, guint16 port, const gchar *program)
{
  g_autofree gchar *line = g_strdup_printf ("<13>Jan  2 03:04:05 web1 %s: from %s\n", program, program);
  g_autofree gchar *name = g_strdup_printf ("out/%s.log", program);
  g_autofree gchar *path = sl_test_path (env, name);
  g_autofree gchar *expected = g_strdup_printf ("from %s\n", program);
  if (!sl_test_tcp_send (port, line) || !sl_test_wait_contains (env, path, expected))
    return FALSE;
  assert_owner (path, FILE_OWNER, FILE_OWNER);
  return TRUE;
}

/* The daemon's folder is the user's, as a deployment gives it the
 * folders of its persist file and its logs. */
static gboolean
give_folder_to_nobody (SlTestEnv *env)
{
  if (chown (env->dir, NOBODY, NOBODY) == 0)
    return TRUE;
  g_test_fail_printf ("cannot give %s to nobody", env->dir);
  return FALSE;
}

static void
test_user_and_reload (SlTestEnv *env, gconstpointer data)
{
  if (skip_unless_root ())
    return;
  guint16 low = free_low_port (1024);
  guint16 other = low ? free_low_port (low) : 0;
  g_autofree gchar *low_str = g_strdup_printf ("%u", low);
  g_autofree gchar *other_str = g_strdup_printf ("%u", other);
  if (!other || !give_folder_to_nobody (env)
      || !sl_test_write_config (env, one_port_config, "LOW", low_str, NULL)
      || !sl_test_daemon_start_with_args (env, "--user", "nobody", "--group", "nogroup", NULL))
    return;
  assert_credentials (env->pid, NOBODY, NOBODY, DEFAULT_CAPS);
  if (!deliver (env, low, "before"))
    return;

  /* the port it has is bound again by the new configuration, and one it
   * did not have is bound for the first time, both as nobody */
  if (!sl_test_write_config (env, two_ports_config, "LOW", low_str, "OTHER", other_str, NULL))
    return;
  g_autofree gchar *answer = sl_test_control (env, "RELOAD");
  g_assert_cmpstr (answer, ==, "OK configuration reloaded\n");
  if (!deliver (env, low, "kept") || !deliver (env, other, "added"))
    return;
  g_autofree gchar *out = sl_test_path (env, "out");
  assert_owner (out, NOBODY, NOBODY);
  assert_credentials (env->pid, NOBODY, NOBODY, DEFAULT_CAPS);
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
}

/* --caps replaces the set kept: with only cap_net_bind_service, owner()
 * can no longer be given, and the daemon says so instead of failing. */
static void
test_caps_option (SlTestEnv *env, gconstpointer data)
{
  if (skip_unless_root ())
    return;
  guint16 low = free_low_port (1024);
  g_autofree gchar *low_str = g_strdup_printf ("%u", low);
  if (!low || !give_folder_to_nobody (env) || !sl_test_write_config (env, one_port_config, "LOW", low_str, NULL)
      || !sl_test_daemon_start_with_args (env, "-u", "nobody", "-g", "nogroup", "--caps", "cap_net_bind_service=p",
                                          NULL))
    return;
  assert_credentials (env->pid, NOBODY, NOBODY, BIND_ONLY_CAPS);
  g_autofree gchar *path = sl_test_path (env, "out/bare.log");
  if (!sl_test_tcp_send (low, "<13>Jan  2 03:04:05 web1 bare: no chown\n")
      || !sl_test_wait_contains (env, path, "no chown\n") || !sl_test_wait_stderr (env, "cannot set the owner"))
    return;
  assert_owner (path, NOBODY, NOBODY);
}

/* A user, group or capability set that does not exist stops the start
 * before anything is opened, naming what was wrong. */
static const gchar children_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) hook-commands(\n"
  "  startup(\"grep -E '^(Cap|NoNewPrivs)' /proc/self/status > @DIR@/hook.status\"))); };\n"
  "destination d_prog { program(\"grep -E '^(Cap|NoNewPrivs)' /proc/self/status > @DIR@/program.status; "
  "exec cat > /dev/null\"); };\n"
  "log { source(s_net); destination(d_prog); };\n";

/* What a child of the daemon may do, from the status it wrote: no
 * capability, the bounding set of the daemon's, no new privileges. */
static void
assert_child_status (SlTestEnv *env, const gchar *name)
{
  g_autofree gchar *path = sl_test_path (env, name);
  if (!sl_test_wait_contains (env, path, "NoNewPrivs"))
    return;
  g_autofree gchar *mask = g_strdup_printf ("%016" G_GINT64_MODIFIER "x", (guint64) DEFAULT_CAPS);
  g_autofree gchar *prm = status_field (path, "CapPrm");
  g_autofree gchar *eff = status_field (path, "CapEff");
  g_autofree gchar *bnd = status_field (path, "CapBnd");
  g_autofree gchar *amb = status_field (path, "CapAmb");
  g_autofree gchar *nnp = status_field (path, "NoNewPrivs");
  g_assert_cmpstr (prm, ==, "0000000000000000");
  g_assert_cmpstr (eff, ==, "0000000000000000");
  g_assert_cmpstr (amb, ==, "0000000000000000");
  g_assert_cmpstr (bnd, ==, mask);
  g_assert_cmpstr (nnp, ==, "1");
}

/* program() and a hook command run with no capability, and cannot gain
 * any back through the bounding set or a setuid program. */
static void
test_children_without_caps (SlTestEnv *env, gconstpointer data)
{
  if (skip_unless_root ())
    return;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  if (!port || !give_folder_to_nobody (env) || !sl_test_write_config (env, children_config, "PORT", port_str, NULL)
      || !sl_test_daemon_start_with_args (env, "--user", "nobody", "--group", "nogroup", NULL))
    return;
  if (!sl_test_tcp_send (port, "<13>Jan  2 03:04:05 web1 app: start the program\n"))
    return;
  assert_child_status (env, "hook.status");
  assert_child_status (env, "program.status");
}

static void
test_bad_names (SlTestEnv *env, gconstpointer data)
{
  static const gchar *const cases[][3] = {
    { "--user", "no-such-user-here", "--user: no user named 'no-such-user-here'" },
    { "--group", "no-such-group-here", "--group: no group named 'no-such-group-here'" },
    { "--caps", "cap_no_such_thing=p", "--caps: 'cap_no_such_thing=p' is not a capability set" },
  };
  if (!sl_test_write_config (env, one_port_config, "LOW", "600", NULL))
    return;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree gchar *err = NULL;
      gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "-F", "-f", env->config, "--module-path",
                                       sl_test_module_path (), "-p", env->pidfile, "-c", env->control,
                                       cases[i][0], cases[i][1], NULL);
      g_assert_cmpint (status, ==, 1);
      g_assert_nonnull (strstr (err, cases[i][2]));
      g_assert_false (g_file_test (env->pidfile, G_FILE_TEST_EXISTS));
    }
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/privileges/user-and-reload", test_user_and_reload);
  SL_TEST_ADD ("/privileges/caps-option", test_caps_option);
  SL_TEST_ADD ("/privileges/children-without-caps", test_children_without_caps);
  SL_TEST_ADD ("/privileges/bad-names", test_bad_names);
  return g_test_run ();
}
