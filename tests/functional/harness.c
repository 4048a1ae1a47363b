/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tests/functional/harness.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <glib/gstdio.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define POLL_INTERVAL_US (20 * 1000)

static const gchar *
required_env (const gchar *name)
{
  const gchar *value = g_getenv (name);
  if (!value || !*value)
    g_test_fail_printf ("%s is not set; run the test through `make check` or set it by hand", name);
  return value && *value ? value : NULL;
}

const gchar *
sl_test_module_path (void)
{
  return required_env ("SL_MODULE_PATH");
}

gchar *
sl_test_scl_include_path (void)
{
  const gchar *srcdir = required_env ("SL_TOP_SRCDIR");
  return srcdir ? g_strdup_printf ("%s/config/include:/usr/share/syslog-ng/include", srcdir) : NULL;
}

static gint64
deadline_from_now (void)
{
  return g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
}

void
sl_test_init (gint *argc, gchar ***argv)
{
  g_test_init (argc, argv, NULL);
  g_test_set_nonfatal_assertions ();
}

void
sl_test_python_leaks_suppressed (void)
{
  g_autofree gchar *supp = g_build_filename (g_getenv ("SL_TOP_SRCDIR") ? g_getenv ("SL_TOP_SRCDIR") : ".",
                                             "plugins/languages/python/tests/lsan.supp", NULL);
  const gchar *lsan = g_getenv ("LSAN_OPTIONS");
  g_autofree gchar *options = g_strdup_printf ("%s%ssuppressions=%s", lsan ? lsan : "", lsan && *lsan ? ":" : "", supp);
  g_setenv ("LSAN_OPTIONS", options, TRUE);
}

void
sl_test_env_setup (SlTestEnv *env, gconstpointer data)
{
  /* a daemon that closes a connection must not kill the test */
  signal (SIGPIPE, SIG_IGN);
  GError *error = NULL;
  env->config_format = NULL;
  env->dir = g_dir_make_tmp ("sluice-test-XXXXXX", &error);
  if (!env->dir)
    {
      g_test_fail_printf ("cannot make a temporary folder: %s", error->message);
      g_error_free (error);
      return;
    }
  env->config = g_build_filename (env->dir, "sluice.conf", NULL);
  env->pidfile = g_build_filename (env->dir, "sluiced.pid", NULL);
  env->control = g_build_filename (env->dir, "sluiced.ctl", NULL);
  env->persist = g_build_filename (env->dir, "sluiced.persist", NULL);
  env->stderr_path = g_build_filename (env->dir, "sluiced.stderr", NULL);
}

/* Removes path and what is under it, never following a symbolic link. */
static void
remove_tree (const gchar *path)
{
  struct stat st;
  if (lstat (path, &st) < 0)
    return;
  if (S_ISDIR (st.st_mode))
    {
      GDir *dir = g_dir_open (path, 0, NULL);
      const gchar *name;
      while (dir && (name = g_dir_read_name (dir)))
        {
          gchar *child = g_build_filename (path, name, NULL);
          remove_tree (child);
          g_free (child);
        }
      if (dir)
        g_dir_close (dir);
      if (rmdir (path) < 0)
        g_test_message ("cannot remove %s: %s", path, g_strerror (errno));
    }
  else if (unlink (path) < 0)
    g_test_message ("cannot remove %s: %s", path, g_strerror (errno));
}

/* The pid of a running sluiced named by the test's pid file, or 0: a
 * daemon that went into the background is no child of the test. */
static pid_t
background_daemon (SlTestEnv *env)
{
  g_autofree gchar *text = env->pidfile ? sl_test_read_file (env->pidfile) : NULL;
  pid_t pid = text ? (pid_t) g_ascii_strtoll (text, NULL, 10) : 0;
  if (pid <= 0 || sl_test_process_gone (pid))
    return 0;
  g_autofree gchar *cmdline_path = g_strdup_printf ("/proc/%d/cmdline", (int) pid);
  g_autofree gchar *cmdline = NULL;
  gsize len = 0;
  if (!g_file_get_contents (cmdline_path, &cmdline, &len, NULL) || !g_strstr_len (cmdline, len, "sluiced"))
    return 0;
  return pid;
}

gboolean
sl_test_process_gone (pid_t pid)
{
  g_autofree gchar *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree gchar *text = NULL;
  if (!g_file_get_contents (path, &text, NULL, NULL))
    return TRUE;
  /* "pid (name) S ...": a zombie waits for init, but it is gone */
  const gchar *close_paren = strrchr (text, ')');
  return close_paren && close_paren[1] == ' ' && close_paren[2] == 'Z';
}

gboolean
sl_test_wait_gone (pid_t pid)
{
  gint64 deadline = deadline_from_now ();
  while (!sl_test_process_gone (pid) && g_get_monotonic_time () < deadline)
    g_usleep (POLL_INTERVAL_US);
  if (sl_test_process_gone (pid))
    return TRUE;
  g_test_fail_printf ("process %d did not exit in time", (int) pid);
  return FALSE;
}

void
sl_test_env_teardown (SlTestEnv *env, gconstpointer data)
{
  if (env->pid)
    {
      kill (env->pid, SIGKILL);
      waitpid (env->pid, NULL, 0);
      g_spawn_close_pid (env->pid);
      env->pid = 0;
    }
  pid_t background = background_daemon (env);
  if (background)
    {
      kill (background, SIGKILL);
      sl_test_wait_gone (background);
    }
  if (g_test_failed () && env->stderr_path)
    {
      gchar *text = sl_test_read_file (env->stderr_path);
      if (text && *text)
        g_test_message ("sluiced stderr:\n%s", text);
      g_free (text);
    }
  if (env->dir)
    remove_tree (env->dir);
  g_free (env->dir);
  g_free (env->config);
  g_free (env->pidfile);
  g_free (env->control);
  g_free (env->persist);
  g_free (env->stderr_path);
  memset (env, 0, sizeof *env);
}

gchar *
sl_test_path (SlTestEnv *env, const gchar *name)
{
  return g_build_filename (env->dir, name, NULL);
}

/* The first port the kernel hands to outgoing connections: a port chosen
 * below it cannot be taken by a connect() of a test running in parallel
 * between the choice and the daemon's bind(). */
static guint
ephemeral_low (void)
{
  g_autofree gchar *text = NULL;
  guint low = 32768;
  if (g_file_get_contents ("/proc/sys/net/ipv4/ip_local_port_range", &text, NULL, NULL))
    low = (guint) g_ascii_strtoull (text, NULL, 10);
  return low;
}

static gboolean
port_bindable (gint type, guint16 port)
{
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (port), .sin_addr.s_addr = htonl (INADDR_ANY) };
  gint fd = socket (AF_INET, type | SOCK_CLOEXEC, 0);
  gboolean bound = fd >= 0 && bind (fd, (struct sockaddr *) &addr, sizeof addr) == 0;
  if (fd >= 0)
    close (fd);
  return bound;
}

guint16
sl_test_free_port (gint type)
{
  static GHashTable *given;
  const guint first = 20000, low = ephemeral_low ();
  if (!given)
    given = g_hash_table_new (NULL, NULL);
  for (guint attempt = 0; low > first + 1000 && attempt < 1000; attempt++)
    {
      guint16 port = (guint16) g_random_int_range (first, low);
      if (!g_hash_table_contains (given, GUINT_TO_POINTER (port)) && port_bindable (type, port))
        {
          g_hash_table_add (given, GUINT_TO_POINTER (port));
          return port;
        }
    }
  g_test_fail_printf ("cannot find a free port below %u", low);
  return 0;
}

static gboolean
write_config_va (SlTestEnv *env, const gchar *text, va_list args)
{
  if (!env->dir)
    return FALSE;
  GString *out = g_string_new (text);
  g_string_replace (out, "@DIR@", env->dir, 0);
  const gchar *key;
  while ((key = va_arg (args, const gchar *)))
    {
      const gchar *value = va_arg (args, const gchar *);
      gchar *placeholder = g_strdup_printf ("@%s@", key);
      g_string_replace (out, placeholder, value, 0);
      g_free (placeholder);
    }
  GError *error = NULL;
  gboolean ok = g_file_set_contents (env->config, out->str, out->len, &error);
  if (!ok)
    {
      g_test_fail_printf ("cannot write %s: %s", env->config, error->message);
      g_error_free (error);
    }
  g_string_free (out, TRUE);
  return ok;
}

gboolean
sl_test_write_config (SlTestEnv *env, const gchar *text, ...)
{
  va_list args;
  va_start (args, text);
  gboolean ok = write_config_va (env, text, args);
  va_end (args);
  return ok;
}

gchar *
sl_test_refused_config (SlTestEnv *env, const gchar *text, ...)
{
  va_list args;
  va_start (args, text);
  gboolean written = write_config_va (env, text, args);
  va_end (args);
  const gchar *module_path = sl_test_module_path ();
  if (!written || !module_path)
    return NULL;
  gchar *err = NULL;
  gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "--syntax-only", "-f", env->config,
                                   "--module-path", module_path, NULL);
  if (status != 1)
    {
      g_test_fail_printf ("sluiced --syntax-only exited with %d, not 1, on:\n%s\n%s", status, text, err ? err : "");
      g_clear_pointer (&err, g_free);
    }
  return err;
}

static gchar **
child_environment (void)
{
  /* messages the tests compare must not be translated */
  return g_environ_setenv (g_get_environ (), "LC_ALL", "C", TRUE);
}

gboolean
sl_test_daemon_alive (SlTestEnv *env)
{
  if (!env->pid)
    return FALSE;
  siginfo_t info = { 0 };
  if (waitid (P_PID, env->pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0)
    return FALSE;
  return info.si_pid == 0;
}

gchar *
sl_test_daemon_stderr (SlTestEnv *env)
{
  gchar *text = sl_test_read_file (env->stderr_path);
  return text ? text : g_strdup ("");
}

/* Fails the test with why, and whether the daemon still runs, since it is
 * the usual reason; teardown shows its stderr. The failure is one line, as
 * TAP wants it; details go before it as comments. */
static void
fail_with_daemon (SlTestEnv *env, const gchar *why)
{
  const gchar *newline = strchr (why, '\n');
  if (newline)
    g_test_message ("%s", why);
  g_test_fail_printf ("%.*s (sluiced %s)", newline ? (int) (newline - why) : (int) strlen (why), why,
                      sl_test_daemon_alive (env) ? "is running" : "is not running");
}

/* A daemon that stops reading or answering fails the test after the
 * deadline instead of blocking it. */
static void
set_timeouts (gint fd)
{
  struct timeval tv = { SL_TEST_DEADLINE_MS / 1000, (SL_TEST_DEADLINE_MS % 1000) * 1000 };
  setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt (fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

static gchar *
control_quiet (SlTestEnv *env, const gchar *command)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  g_strlcpy (addr.sun_path, env->control, sizeof addr.sun_path);
  gint fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return NULL;
  set_timeouts (fd);
  if (connect (fd, (struct sockaddr *) &addr, sizeof addr) < 0)
    {
      close (fd);
      return NULL;
    }
  gchar *line = g_strconcat (command, "\n", NULL);
  gboolean sent = write (fd, line, strlen (line)) == (gssize) strlen (line);
  g_free (line);
  GString *answer = g_string_new (NULL);
  gchar buf[4096];
  gssize n;
  while (sent && ((n = read (fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)))
    if (n > 0)
      g_string_append_len (answer, buf, n);
  close (fd);
  if (!sent || !answer->len)
    {
      g_string_free (answer, TRUE);
      return NULL;
    }
  return g_string_free (answer, FALSE);
}

gchar *
sl_test_control (SlTestEnv *env, const gchar *command)
{
  gchar *answer = control_quiet (env, command);
  if (!answer)
    {
      gchar *why = g_strdup_printf ("no answer to '%s' on %s", command, env->control);
      fail_with_daemon (env, why);
      g_free (why);
    }
  return answer;
}

static gboolean
spawn_daemon (SlTestEnv *env, gint stdin_fd, const gchar *const *wrapper, const gchar *const *extra)
{
  const gchar *builddir = required_env ("SL_TOP_BUILDDIR");
  const gchar *module_path = sl_test_module_path ();
  if (!builddir || !module_path || !env->dir)
    return FALSE;
  if (env->pid)
    {
      g_test_fail_printf ("sluiced is already running in this test");
      return FALSE;
    }
  gchar *program = g_build_filename (builddir, "daemon", "sluiced", NULL);
  const gchar *fixed[] = {
    program, "-F", "-f", env->config, "--module-path", module_path,
    "-p", env->pidfile, "-c", env->control, "-R", env->persist
  };
  GPtrArray *args = g_ptr_array_new ();
  for (guint i = 0; wrapper && wrapper[i]; i++)
    g_ptr_array_add (args, (gpointer) wrapper[i]);
  for (guint i = 0; i < G_N_ELEMENTS (fixed); i++)
    g_ptr_array_add (args, (gpointer) fixed[i]);
  if (env->config_format)
    {
      g_ptr_array_add (args, (gpointer) "--config-format");
      g_ptr_array_add (args, (gpointer) env->config_format);
    }
  for (guint i = 0; extra && extra[i]; i++)
    g_ptr_array_add (args, (gpointer) extra[i]);
  g_ptr_array_add (args, NULL);
  const gchar *const *argv = (const gchar *const *) args->pdata;
  gint out = open (env->stderr_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  gchar **envp = child_environment ();
  GError *error = NULL;
  gboolean spawned = out >= 0
                     && g_spawn_async_with_pipes_and_fds (env->dir, argv, (const gchar *const *) envp,
                                                          G_SPAWN_DO_NOT_REAP_CHILD
                                                          | (wrapper ? G_SPAWN_SEARCH_PATH : 0), NULL, NULL,
                                                          stdin_fd, out, out, NULL, NULL, 0,
                                                          &env->pid, NULL, NULL, NULL, &error);
  if (out >= 0)
    close (out);
  g_strfreev (envp);
  g_ptr_array_unref (args);
  g_free (program);
  if (!spawned)
    {
      g_test_fail_printf ("cannot start sluiced: %s", error ? error->message : g_strerror (errno));
      g_clear_error (&error);
      env->pid = 0;
      return FALSE;
    }
  return TRUE;
}

gboolean
sl_test_daemon_wait_ready (SlTestEnv *env)
{
  gint64 deadline = deadline_from_now ();
  while (sl_test_daemon_alive (env) && g_get_monotonic_time () < deadline)
    {
      gchar *answer = control_quiet (env, "HEALTH");
      gboolean ready = answer && g_str_has_prefix (answer, "OK");
      g_free (answer);
      if (ready)
        return TRUE;
      g_usleep (POLL_INTERVAL_US);
    }
  fail_with_daemon (env, "sluiced did not come up");
  return FALSE;
}

static gboolean
start_daemon (SlTestEnv *env, gint stdin_fd, const gchar *const *extra)
{
  return spawn_daemon (env, stdin_fd, NULL, extra) && sl_test_daemon_wait_ready (env);
}

gboolean
sl_test_daemon_spawn_wrapped (SlTestEnv *env, const gchar *const *wrapper)
{
  return spawn_daemon (env, -1, wrapper, NULL);
}

gboolean
sl_test_daemon_start_wrapped (SlTestEnv *env, const gchar *const *wrapper)
{
  return spawn_daemon (env, -1, wrapper, NULL) && sl_test_daemon_wait_ready (env);
}

gboolean
sl_test_daemon_start (SlTestEnv *env)
{
  return start_daemon (env, -1, NULL);
}

gboolean
sl_test_daemon_start_with_stdin (SlTestEnv *env, gint stdin_fd)
{
  return start_daemon (env, stdin_fd, NULL);
}

gboolean
sl_test_daemon_start_with_args (SlTestEnv *env, const gchar *first, ...)
{
  GPtrArray *extra = g_ptr_array_new ();
  va_list args;
  va_start (args, first);
  for (const gchar *arg = first; arg; arg = va_arg (args, const gchar *))
    g_ptr_array_add (extra, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (extra, NULL);
  gboolean started = start_daemon (env, -1, (const gchar *const *) extra->pdata);
  g_ptr_array_unref (extra);
  return started;
}

gint
sl_test_daemon_stop (SlTestEnv *env, gint signum)
{
  if (!env->pid)
    {
      g_test_fail_printf ("sluiced is not running");
      return -1;
    }
  kill (env->pid, signum);
  gint64 deadline = deadline_from_now ();
  gint status = -1;
  pid_t done = 0;
  while ((done = waitpid (env->pid, &status, WNOHANG)) == 0 && g_get_monotonic_time () < deadline)
    g_usleep (POLL_INTERVAL_US);
  if (done == 0)
    {
      fail_with_daemon (env, "sluiced did not exit in time; killing it");
      kill (env->pid, SIGKILL);
      waitpid (env->pid, NULL, 0);
      status = -1;
    }
  g_spawn_close_pid (env->pid);
  env->pid = 0;
  return status;
}

gboolean
sl_test_wait_stderr (SlTestEnv *env, const gchar *needle)
{
  gint64 deadline = deadline_from_now ();
  for (;;)
    {
      gchar *text = sl_test_daemon_stderr (env);
      gboolean found = strstr (text, needle) != NULL;
      g_free (text);
      if (found)
        return TRUE;
      if (g_get_monotonic_time () >= deadline)
        break;
      g_usleep (POLL_INTERVAL_US);
    }
  gchar *why = g_strdup_printf ("stderr never showed '%s'", needle);
  fail_with_daemon (env, why);
  g_free (why);
  return FALSE;
}

static gint
tcp_connect_quiet (guint16 port)
{
  struct sockaddr_in addr = {
    .sin_family = AF_INET,
    .sin_port = htons (port),
    .sin_addr.s_addr = htonl (INADDR_LOOPBACK),
  };
  gint fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd >= 0 && connect (fd, (struct sockaddr *) &addr, sizeof addr) < 0)
    {
      close (fd);
      fd = -1;
    }
  return fd;
}

gint
sl_test_tcp_connect (guint16 port)
{
  gint fd = tcp_connect_quiet (port);
  if (fd < 0)
    g_test_fail_printf ("cannot connect to 127.0.0.1:%u: %s", port, g_strerror (errno));
  else
    set_timeouts (fd);
  return fd;
}

gboolean
sl_test_wait_tcp (SlTestEnv *env, guint16 port)
{
  gint64 deadline = deadline_from_now ();
  while (sl_test_daemon_alive (env) && g_get_monotonic_time () < deadline)
    {
      gint fd = tcp_connect_quiet (port);
      if (fd >= 0)
        {
          close (fd);
          return TRUE;
        }
      g_usleep (POLL_INTERVAL_US);
    }
  gchar *why = g_strdup_printf ("nothing accepts connections on 127.0.0.1:%u", port);
  fail_with_daemon (env, why);
  g_free (why);
  return FALSE;
}

gboolean
sl_test_wait_port (guint16 port)
{
  gint64 deadline = deadline_from_now ();
  while (g_get_monotonic_time () < deadline)
    {
      gint fd = tcp_connect_quiet (port);
      if (fd >= 0)
        {
          close (fd);
          return TRUE;
        }
      g_usleep (POLL_INTERVAL_US);
    }
  return FALSE;
}

gchar *
sl_test_peer_dir (const gchar *name)
{
  g_autofree gchar *tmpl = g_strdup_printf ("sluice-%s-XXXXXX", name);
  return g_dir_make_tmp (tmpl, NULL);
}

gboolean
sl_test_peer_stop (GPid pid, const gchar *dir)
{
  gboolean ok = TRUE;
  if (pid)
    {
      kill (pid, SIGTERM);
      if (sl_test_child_wait (pid, SL_TEST_DEADLINE_MS * 1000) < 0)
        ok = FALSE;
    }
  if (dir)
    {
      remove_tree (dir);
      ok = ok && !g_file_test (dir, G_FILE_TEST_EXISTS);
    }
  return ok;
}

gboolean
sl_test_wait_socket (SlTestEnv *env, const gchar *path)
{
  gint64 deadline = deadline_from_now ();
  while (sl_test_daemon_alive (env) && g_get_monotonic_time () < deadline)
    {
      struct stat st;
      if (stat (path, &st) == 0 && S_ISSOCK (st.st_mode))
        return TRUE;
      g_usleep (POLL_INTERVAL_US);
    }
  gchar *why = g_strdup_printf ("socket %s never appeared", path);
  fail_with_daemon (env, why);
  g_free (why);
  return FALSE;
}

gint
sl_test_unix_connect (const gchar *path, gint type)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  g_strlcpy (addr.sun_path, path, sizeof addr.sun_path);
  gint fd = socket (AF_UNIX, type | SOCK_CLOEXEC, 0);
  if (fd >= 0 && connect (fd, (struct sockaddr *) &addr, sizeof addr) < 0)
    {
      g_test_fail_printf ("cannot connect to %s: %s", path, g_strerror (errno));
      close (fd);
      fd = -1;
    }
  if (fd >= 0)
    set_timeouts (fd);
  return fd;
}

gboolean
sl_test_send_all (gint fd, const gchar *data, gsize len)
{
  while (len)
    {
      gssize n = send (fd, data, len, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          g_test_fail_printf ("send failed: %s", g_strerror (errno));
          return FALSE;
        }
      data += n;
      len -= n;
    }
  return TRUE;
}

gboolean
sl_test_tcp_send (guint16 port, const gchar *text)
{
  gint fd = sl_test_tcp_connect (port);
  if (fd < 0)
    return FALSE;
  gboolean ok = sl_test_send_all (fd, text, strlen (text));
  close (fd);
  return ok;
}

gboolean
sl_test_unix_send (const gchar *path, gint type, const gchar *text)
{
  gint fd = sl_test_unix_connect (path, type);
  if (fd < 0)
    return FALSE;
  gboolean ok = sl_test_send_all (fd, text, strlen (text));
  close (fd);
  return ok;
}

gboolean
sl_test_udp_send (guint16 port, const gchar *datagram)
{
  struct sockaddr_in addr = {
    .sin_family = AF_INET,
    .sin_port = htons (port),
    .sin_addr.s_addr = htonl (INADDR_LOOPBACK),
  };
  gint fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  gsize len = strlen (datagram);
  gboolean ok = fd >= 0
                && sendto (fd, datagram, len, 0, (struct sockaddr *) &addr, sizeof addr) == (gssize) len;
  if (!ok)
    g_test_fail_printf ("cannot send a datagram to 127.0.0.1:%u: %s", port, g_strerror (errno));
  if (fd >= 0)
    close (fd);
  return ok;
}

struct _SlTestSender
{
  gint fd;
  GString *data;
  gsize sent;
  GThread *thread;
};

static gpointer
sender_thread (gpointer p)
{
  SlTestSender *s = p;
  while (s->sent < s->data->len)
    {
      gssize n = send (s->fd, s->data->str + s->sent, s->data->len - s->sent, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      s->sent += n;
    }
  return NULL;
}

SlTestSender *
sl_test_sender_start (gint fd, GString *data)
{
  SlTestSender *s = g_new0 (SlTestSender, 1);
  s->fd = fd;
  s->data = data;
  s->thread = g_thread_new ("sender", sender_thread, s);
  return s;
}

void
sl_test_sender_join (SlTestSender *s)
{
  g_thread_join (s->thread);
  close (s->fd);
  g_string_free (s->data, TRUE);
  g_free (s);
}

void
sl_test_sender_finish (SlTestSender *s)
{
  shutdown (s->fd, SHUT_RDWR);
  sl_test_sender_join (s);
}

gchar *
sl_test_read_file (const gchar *path)
{
  gchar *text = NULL;
  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return text;
}

/* The layout core/store/persist.c writes: a 64-byte header, then records of a
 * 16-byte head (tag, key length, slot capacity, checksum), the key padded
 * to 8 bytes and two slots, each a 16-byte head (generation, length,
 * checksum) and the value padded to 8 bytes; the slot of the higher
 * generation is current. Checksums are not checked here. */
#define PERSIST_TAG_LIVE 0x4556494cu

static gsize
persist_pad8 (gsize n)
{
  return (n + 7) & ~(gsize) 7;
}

gchar *
sl_test_persist_value (const gchar *path, const gchar *key)
{
  gchar *data = NULL;
  gsize size = 0;
  if (!g_file_get_contents (path, &data, &size, NULL) || size < 64 || memcmp (data, "SLPRSIST", 8) != 0)
    {
      g_free (data);
      return NULL;
    }
  gchar *value = NULL;
  guint64 best = 0;
  gsize key_len = strlen (key);
  for (gsize at = 64; at + 16 <= size;)
    {
      guint32 head[4];
      memcpy (head, data + at, sizeof head);
      gsize slot_size = 16 + persist_pad8 (head[2]);
      gsize record = 16 + persist_pad8 (head[1]) + 2 * slot_size;
      if (head[0] == 0 || record > size - at)
        break;
      for (guint i = 0; head[0] == PERSIST_TAG_LIVE && head[1] == key_len && i < 2; i++)
        {
          const gchar *slot = data + at + 16 + persist_pad8 (head[1]) + i * slot_size;
          guint64 gen;
          guint32 len;
          memcpy (&gen, slot, sizeof gen);
          memcpy (&len, slot + 8, sizeof len);
          if (memcmp (data + at + 16, key, key_len) == 0 && gen > best && len <= head[2])
            {
              g_free (value);
              value = g_strndup (slot + 16, len);
              best = gen;
            }
        }
      at += record;
    }
  g_free (data);
  return value;
}

guint
sl_test_count_lines (const gchar *path)
{
  gint fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  guint lines = 0;
  gchar buf[64 * 1024];
  gssize n;
  while ((n = read (fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    for (const gchar *p = buf; n > 0 && (p = memchr (p, '\n', buf + n - p)); p++)
      lines++;
  close (fd);
  return lines;
}

gboolean
sl_test_wait_lines (SlTestEnv *env, const gchar *path, guint n)
{
  /* a big file may take long to fill: only a stall fails the test */
  gint64 deadline = deadline_from_now ();
  guint have = 0;
  for (;;)
    {
      guint now = sl_test_count_lines (path);
      if (now > have)
        deadline = deadline_from_now ();
      have = now;
      if (have >= n || g_get_monotonic_time () >= deadline)
        break;
      g_usleep (POLL_INTERVAL_US);
    }
  if (have >= n)
    return TRUE;
  gchar *why = g_strdup_printf ("%s has %u lines, expected %u", path, have, n);
  fail_with_daemon (env, why);
  g_free (why);
  return FALSE;
}

gboolean
sl_test_wait_contains (SlTestEnv *env, const gchar *path, const gchar *needle)
{
  gint64 deadline = deadline_from_now ();
  for (;;)
    {
      gchar *text = sl_test_read_file (path);
      gboolean found = text && strstr (text, needle);
      g_free (text);
      if (found)
        return TRUE;
      if (g_get_monotonic_time () >= deadline)
        break;
      g_usleep (POLL_INTERVAL_US);
    }
  gchar *text = sl_test_read_file (path);
  gchar *why = g_strdup_printf ("%s never contained '%s'; it has:\n%s", path, needle,
                                text ? text : "(no such file)");
  fail_with_daemon (env, why);
  g_free (why);
  g_free (text);
  return FALSE;
}

gchar **
sl_test_read_lines (const gchar *path)
{
  gchar *text = NULL;
  gsize len;
  if (!g_file_get_contents (path, &text, &len, NULL))
    return NULL;
  /* split by hand: g_strsplit is quadratic under AddressSanitizer, whose
   * strstr measures the rest of the text on every call */
  GPtrArray *lines = g_ptr_array_new ();
  const gchar *end = text + len;
  for (const gchar *p = text; p < end;)
    {
      const gchar *nl = memchr (p, '\n', end - p);
      const gchar *stop = nl ? nl : end;
      g_ptr_array_add (lines, g_strndup (p, stop - p));
      p = stop + 1;
    }
  g_ptr_array_add (lines, NULL);
  g_free (text);
  return (gchar **) g_ptr_array_free (lines, FALSE);
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar *const *) a, *(const gchar *const *) b);
}

gchar *
sl_test_read_sorted_lines (const gchar *path)
{
  g_auto (GStrv) lines = sl_test_read_lines (path);
  if (!lines)
    return g_strdup ("");
  qsort (lines, g_strv_length (lines), sizeof (gchar *), compare_strings);
  return g_strjoinv ("\n", lines);
}

GHashTable *
sl_test_read_tsv (const gchar *path, guint columns)
{
  GHashTable *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_strfreev);
  g_auto (GStrv) lines = sl_test_read_lines (path);

  for (guint i = 1; lines && lines[0] && lines[i]; i++)
    {
      gchar **cols = g_strsplit (lines[i], "\t", -1);
      guint n = g_strv_length (cols);
      if (n < columns || !*cols[0])
        {
          g_strfreev (cols);
          continue;
        }
      gchar *name = cols[0];
      memmove (cols, cols + 1, n * sizeof *cols);
      g_hash_table_replace (table, name, cols);
    }
  return table;
}

/* Counters are kept per driver: "s_net#0" is the first driver of s_net. */
static gboolean
id_matches (const gchar *stat_id, const gchar *name)
{
  if (!name)
    return TRUE;
  gsize len = strlen (name);
  return strncmp (stat_id, name, len) == 0 && (stat_id[len] == '\0' || stat_id[len] == '#');
}

/* The counter's sum, or -1 when there is none yet or no answer. */
static gint64
stat_quiet (SlTestEnv *env, const gchar *kind, const gchar *id, const gchar *name, gchar **answer_out)
{
  gchar *answer = control_quiet (env, "STATS");
  if (!answer)
    return -1;
  gint64 sum = -1;
  gchar **lines = g_strsplit (answer, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      gchar **f = g_strsplit (lines[i], ";", -1);
      if (g_strv_length (f) == 5 && strcmp (f[0], kind) == 0 && id_matches (f[1], id)
          && strcmp (f[3], name) == 0)
        sum = MAX (sum, 0) + g_ascii_strtoll (f[4], NULL, 10);
      g_strfreev (f);
    }
  g_strfreev (lines);
  if (answer_out)
    *answer_out = answer;
  else
    g_free (answer);
  return sum;
}

gint64
sl_test_stat (SlTestEnv *env, const gchar *kind, const gchar *id, const gchar *name)
{
  gchar *answer = NULL;
  gint64 value = stat_quiet (env, kind, id, name, &answer);
  if (!answer)
    fail_with_daemon (env, "no answer to STATS");
  else if (value < 0)
    {
      g_test_message ("stats:\n%s", answer);
      g_test_fail_printf ("no %s counter '%s' of '%s' in the stats", kind, name, id ? id : "any");
    }
  g_free (answer);
  return value;
}

gint64
sl_test_stat_if_any (SlTestEnv *env, const gchar *kind, const gchar *id, const gchar *name)
{
  gchar *answer = NULL;
  gint64 value = stat_quiet (env, kind, id, name, &answer);
  g_free (answer);
  return value;
}

static gboolean
wait_stat (SlTestEnv *env, const gchar *kind, const gchar *id, const gchar *name, gint64 value, gboolean at_least)
{
  gint64 deadline = deadline_from_now ();
  gint64 now;
  gboolean reached;
  gchar *answer = NULL;
  for (;;)
    {
      g_clear_pointer (&answer, g_free);
      now = stat_quiet (env, kind, id, name, &answer);
      reached = at_least ? now >= value : now == value;
      if (reached || g_get_monotonic_time () >= deadline || !sl_test_daemon_alive (env))
        break;
      g_usleep (POLL_INTERVAL_US);
    }
  if (!reached)
    {
      gchar *why = g_strdup_printf ("%s counter '%s' of '%s' is %" G_GINT64_FORMAT ", expected %s%" G_GINT64_FORMAT
                                    "; stats:\n%s", kind, name, id ? id : "any", now, at_least ? "at least " : "",
                                    value, answer ? answer : "(no answer)");
      fail_with_daemon (env, why);
      g_free (why);
    }
  g_free (answer);
  return reached;
}

gboolean
sl_test_wait_stat (SlTestEnv *env, const gchar *kind, const gchar *id, const gchar *name, gint64 value)
{
  return wait_stat (env, kind, id, name, value, FALSE);
}

gboolean
sl_test_wait_stat_at_least (SlTestEnv *env, const gchar *kind, const gchar *id, const gchar *name, gint64 value)
{
  return wait_stat (env, kind, id, name, value, TRUE);
}

gint
sl_test_run_argv (const gchar *const *argv, gchar **out, gchar **err)
{
  gchar *out_text = NULL;
  gchar *err_text = NULL;
  gint status = -1;
  gchar **envp = child_environment ();
  GError *error = NULL;
  gboolean ran = g_spawn_sync (NULL, (gchar **) argv, envp, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &out_text, &err_text, &status, &error);
  g_strfreev (envp);
  if (!ran)
    {
      g_test_fail_printf ("cannot run %s: %s", argv[0], error->message);
      g_error_free (error);
      status = -1;
    }
  else if (WIFEXITED (status))
    status = WEXITSTATUS (status);
  else
    status = -1;
  if (out)
    *out = out_text ? out_text : g_strdup ("");
  else
    g_free (out_text);
  if (err)
    *err = err_text ? err_text : g_strdup ("");
  else
    g_free (err_text);
  return status;
}

gint
sl_test_run_built (const gchar *program, gchar **out, gchar **err, ...)
{
  const gchar *builddir = required_env ("SL_TOP_BUILDDIR");
  if (!builddir)
    return -1;
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (argv, g_build_filename (builddir, program, NULL));
  va_list args;
  va_start (args, err);
  const gchar *arg;
  while ((arg = va_arg (args, const gchar *)))
    g_ptr_array_add (argv, g_strdup (arg));
  va_end (args);
  g_ptr_array_add (argv, NULL);
  gint status = sl_test_run_argv ((const gchar *const *) argv->pdata, out, err);
  g_ptr_array_unref (argv);
  return status;
}

/* argv[0] is looked up in PATH unless it is a path. */
GPid
sl_test_spawn_argv (const gchar *const *argv, const gchar *err_path)
{
  gint err_fd = open (err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (err_fd < 0)
    {
      g_test_fail_printf ("cannot run %s: %s not writable", argv[0], err_path);
      return 0;
    }
  gchar **envp = child_environment ();
  GPid pid = 0;
  GError *error = NULL;
  if (!g_spawn_async_with_pipes_and_fds (NULL, argv, (const gchar *const *) envp,
                                         G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_SEARCH_PATH, NULL, NULL,
                                         -1, err_fd, err_fd, NULL, NULL, 0, &pid, NULL, NULL, NULL, &error))
    {
      g_test_fail_printf ("cannot run %s: %s", argv[0], error->message);
      g_error_free (error);
      pid = 0;
    }
  g_strfreev (envp);
  close (err_fd);
  return pid;
}

GPid
sl_test_spawn_built (const gchar *program, const gchar *err_path, const gchar *const *args)
{
  const gchar *builddir = required_env ("SL_TOP_BUILDDIR");
  if (!builddir)
    return 0;
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (argv, g_build_filename (builddir, program, NULL));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, g_strdup (args[i]));
  g_ptr_array_add (argv, NULL);
  GPid pid = sl_test_spawn_argv ((const gchar *const *) argv->pdata, err_path);
  g_ptr_array_unref (argv);
  return pid;
}

gboolean
sl_test_child_exited (GPid pid, gint *status)
{
  return waitpid (pid, status, WNOHANG) == pid;
}

gint
sl_test_child_wait (GPid pid, gint64 limit_usec)
{
  gint64 deadline = g_get_monotonic_time () + limit_usec;
  gint status = -1;
  pid_t done;
  while ((done = waitpid (pid, &status, WNOHANG)) == 0 && g_get_monotonic_time () < deadline)
    g_usleep (POLL_INTERVAL_US);
  if (done == 0)
    {
      g_test_fail_printf ("process %d did not finish in time; killing it", (int) pid);
      kill (pid, SIGKILL);
      waitpid (pid, NULL, 0);
      status = -1;
    }
  g_spawn_close_pid (pid);
  return status;
}

/* Debian installs it in /usr/sbin, which a user's PATH may lack. */
gchar *
sl_test_syslog_ng_path (void)
{
  gchar *path = g_find_program_in_path ("syslog-ng");
  if (!path && g_file_test ("/usr/sbin/syslog-ng", G_FILE_TEST_IS_EXECUTABLE))
    path = g_strdup ("/usr/sbin/syslog-ng");
  return path;
}

GPid
sl_test_syslog_ng_start (SlTestEnv *env, const gchar *config)
{
  g_autofree gchar *program = sl_test_syslog_ng_path ();
  g_autofree gchar *persist = sl_test_path (env, "syslog-ng.persist");
  g_autofree gchar *pidfile = sl_test_path (env, "syslog-ng.pid");
  g_autofree gchar *control = sl_test_path (env, "syslog-ng.ctl");
  g_autofree gchar *err = sl_test_path (env, "syslog-ng.stderr");
  const gchar *argv[] = {
    program, "-F", "--no-caps", "-f", config, "--persist-file", persist,
    "--pidfile", pidfile, "--control", control, NULL
  };
  return sl_test_spawn_argv (argv, err);
}

void
sl_test_syslog_ng_stop (SlTestEnv *env, GPid pid)
{
  if (!pid)
    return;
  kill (pid, SIGTERM);
  if (sl_test_child_wait (pid, SL_TEST_DEADLINE_MS * 1000) != 0 || g_test_failed ())
    {
      g_autofree gchar *err_path = sl_test_path (env, "syslog-ng.stderr");
      g_autofree gchar *err = sl_test_read_file (err_path);
      g_test_message ("syslog-ng stderr:\n%s", err ? err : "");
    }
}

static gboolean
wait_outputs (SlTestEnv *env, const gchar *dir, const gchar *const *outputs, guint n_lines)
{
  for (guint i = 0; outputs && outputs[i]; i++)
    {
      g_autofree gchar *path = g_build_filename (dir, outputs[i], NULL);
      if (!sl_test_wait_lines (env, path, n_lines))
        return FALSE;
    }
  return TRUE;
}

gboolean
sl_test_side_by_side (SlTestEnv *env, const gchar *config, const gchar *text, const gchar *const *outputs,
                      guint n_lines, gchar **sl_out, gchar **ng_out, GPid *ng_pid)
{
  g_autofree gchar *syslog_ng = sl_test_syslog_ng_path ();
  if (!syslog_ng)
    {
      g_test_skip ("syslog-ng is not installed (quickstart installs Debian's syslog-ng-core)");
      return FALSE;
    }
  *sl_out = sl_test_path (env, "sl");
  *ng_out = sl_test_path (env, "ng");
  g_mkdir (*sl_out, 0755);
  g_mkdir (*ng_out, 0755);
  guint16 ng_port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *ng_port_text = g_strdup_printf ("%u", ng_port);
  g_autofree gchar *ng_config = sl_test_path (env, "syslog-ng.conf");
  if (!sl_test_write_config (env, config, "PORT", ng_port_text, "OUT", *ng_out, "NAME", "ng", NULL)
      || rename (env->config, ng_config) != 0)
    return FALSE;
  guint16 sl_port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *sl_port_text = g_strdup_printf ("%u", sl_port);
  if (!sl_test_write_config (env, config, "PORT", sl_port_text, "OUT", *sl_out, "NAME", "sl", NULL))
    return FALSE;
  /* sluiced first: sl_test_wait_tcp() waits only while it runs */
  GPid ng = 0;
  gboolean ok = sl_test_daemon_start (env) && (ng = sl_test_syslog_ng_start (env, ng_config))
                && sl_test_wait_tcp (env, ng_port) && sl_test_tcp_send (ng_port, text)
                && sl_test_tcp_send (sl_port, text) && wait_outputs (env, *ng_out, outputs, n_lines)
                && wait_outputs (env, *sl_out, outputs, n_lines);
  if (ok && ng_pid)
    *ng_pid = ng;
  else
    sl_test_syslog_ng_stop (env, ng);
  return ok;
}

gboolean
sl_test_side_by_side_48 (SlTestEnv *env, const gchar *root, const gchar *config, const gchar *text,
                         const gchar *const *outputs, guint n_lines, gchar **sl_out, gchar **ng_out, GPid *ng_pid)
{
  *ng_out = NULL;
  *sl_out = sl_test_path (env, "sl");
  g_mkdir (*sl_out, 0755);
  guint16 ng_port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *ng_port_text = g_strdup_printf ("%u", ng_port);
  GString *ng_config = g_string_new (config);
  /* 4.8 writes inside its root: @DIR@ is its folder there */
  g_string_replace (ng_config, "@PORT@", ng_port_text, 0);
  g_string_replace (ng_config, "@OUT@", "@DIR@", 0);
  g_string_replace (ng_config, "@NAME@", "ng", 0);
  guint16 sl_port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *sl_port_text = g_strdup_printf ("%u", sl_port);
  GPid ng = 0;
  /* sluiced first: sl_test_wait_tcp() waits only while it runs */
  gboolean ok = sl_test_write_config (env, config, "PORT", sl_port_text, "OUT", *sl_out, "NAME", "sl", NULL)
                && sl_test_daemon_start (env) && (ng = sl_test_syslog_ng_48_start (env, root, ng_config->str, NULL, ng_out))
                && sl_test_wait_tcp (env, ng_port) && sl_test_tcp_send (ng_port, text)
                && sl_test_tcp_send (sl_port, text) && wait_outputs (env, *ng_out, outputs, n_lines)
                && wait_outputs (env, *sl_out, outputs, n_lines);
  g_string_free (ng_config, TRUE);
  if (ok)
    *ng_pid = ng;
  else
    sl_test_syslog_ng_48_stop (ng, g_steal_pointer (ng_out));
  return ok;
}

/* What a tests/peers script that makes a peer's root prints, or NULL
 * when it failed. */
static gchar *
peer_root (const gchar *const *argv)
{
  gchar *out = NULL;
  gint status = 0;

  if (!g_spawn_sync (NULL, (gchar **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, NULL)
      || !g_spawn_check_wait_status (status, NULL))
    {
      g_free (out);
      return NULL;
    }
  return g_strstrip (out);
}

gchar *
sl_test_rsyslog_root (void)
{
  g_autofree gchar *script = g_build_filename (g_getenv ("SL_TOP_SRCDIR"), "tests/peers/rsyslog-root", NULL);
  g_autofree gchar *dir = g_build_filename (g_getenv ("SL_TOP_BUILDDIR"), "peers/rsyslog", NULL);
  const gchar *argv[] = { script, dir, NULL };
  return peer_root (argv);
}

gchar *
sl_test_rsyslog_root_or_skip (void)
{
  gchar *root = sl_test_rsyslog_root ();
  if (!root)
    g_test_skip ("rsyslog could not be unpacked (tests/peers/rsyslog-root)");
  return root;
}

GPid
sl_test_rsyslogd_start (const gchar *root, const gchar *conf, const gchar *dir)
{
  g_autofree gchar *rsyslogd = g_build_filename (root, "usr/sbin/rsyslogd", NULL);
  g_autofree gchar *modules = g_build_filename (root, "usr/lib/x86_64-linux-gnu/rsyslog", NULL);
  g_autofree gchar *pid = g_build_filename (dir, "rsyslogd.pid", NULL);
  g_autofree gchar *err = g_build_filename (dir, "rsyslogd.stderr", NULL);
  const gchar *argv[] = { rsyslogd, "-M", modules, "-n", "-f", conf, "-i", pid, NULL };
  return sl_test_spawn_argv (argv, err);
}

gchar *
sl_test_trixie_root (void)
{
  g_autofree gchar *script = g_build_filename (g_getenv ("SL_TOP_SRCDIR"), "tests/peers/trixie-root", NULL);
  const gchar *argv[] = { script, NULL };
  return peer_root (argv);
}

GPid
sl_test_syslog_ng_48_start (SlTestEnv *env, const gchar *root, const gchar *config, const gchar *input, gchar **dir)
{
  g_autofree gchar *outside = g_build_filename (root, "tmp", "sluice-ng48-XXXXXX", NULL);
  *dir = NULL;
  if (!g_mkdtemp (outside))
    {
      g_test_fail_printf ("cannot make a folder in %s: %s", root, g_strerror (errno));
      return 0;
    }
  const gchar *inside = outside + strlen (root);
  g_autofree gchar *in = g_build_filename (outside, "in.log", NULL);
  g_autofree gchar *conf = g_build_filename (outside, "ng.conf", NULL);
  g_autofree gchar *conf_inside = g_build_filename (inside, "ng.conf", NULL);
  g_autofree gchar *persist = g_build_filename (inside, "persist", NULL);
  g_autofree gchar *pidfile = g_build_filename (inside, "pid", NULL);
  g_autofree gchar *ctl = g_build_filename (inside, "ctl", NULL);
  g_autofree gchar *err = g_build_filename (env->dir, "syslog-ng-4.8.stderr", NULL);
  GString *text = g_string_new (config);
  g_string_replace (text, "@DIR@", inside, 0);
  gboolean written = (!input || g_file_set_contents (in, input, -1, NULL))
                     && g_file_set_contents (conf, text->str, -1, NULL);
  g_string_free (text, TRUE);
  const gchar *argv[] = { "chroot", root, "/usr/sbin/syslog-ng", "-F", "-f", conf_inside, "-R", persist, "-p",
                          pidfile, "-c", ctl, NULL };
  *dir = g_steal_pointer (&outside);
  return written ? sl_test_spawn_argv (argv, err) : 0;
}

void
sl_test_syslog_ng_48_stop (GPid pid, gchar *dir)
{
  if (!sl_test_peer_stop (pid, dir))
    g_test_fail_printf ("syslog-ng 4.8 did not stop, or %s could not be removed", dir);
  g_free (dir);
}

gchar *
sl_test_syslog_ng_48_output (SlTestEnv *env, const gchar *root, const gchar *config, const gchar *input,
                             const gchar *until)
{
  gchar *dir = NULL;
  GPid pid = sl_test_syslog_ng_48_start (env, root, config, input, &dir);
  g_autofree gchar *out = dir ? g_build_filename (dir, "out.log", NULL) : NULL;
  gchar *output = pid && sl_test_wait_contains (env, out, until) ? sl_test_read_file (out) : NULL;

  sl_test_syslog_ng_48_stop (pid, dir);
  return output;
}
