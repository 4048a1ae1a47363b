/* SPDX-License-Identifier: GPL-2.0-or-later */
/* system()'s choice between the journal and /dev/log, on folders of the
 * test's own made to look like each kind of host. */
#include "plugins/sources/system/system-input.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

typedef struct
{
  gchar *dir;
  gchar *run_dir;      /* DIR/run/systemd/journal */
  gchar *dev_log;      /* DIR/dev/log */
} Host;

static void
make_socket (const gchar *path)
{
  gint fd = socket (AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  g_assert_cmpuint (strlen (path), <, sizeof addr.sun_path);
  strcpy (addr.sun_path, path);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  close (fd);
}

static void
host_setup (Host *h, gconstpointer data)
{
  h->dir = g_dir_make_tmp ("sluice-system-XXXXXX", NULL);
  g_assert_nonnull (h->dir);
  h->run_dir = g_build_filename (h->dir, "run", "systemd", "journal", NULL);
  h->dev_log = g_build_filename (h->dir, "dev", "log", NULL);
  gchar *dev = g_path_get_dirname (h->dev_log);
  g_assert_cmpint (g_mkdir_with_parents (dev, 0700), ==, 0);
  g_free (dev);
}

static void
remove_tree (const gchar *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  if (!dir)
    {
      g_unlink (path);
      return;
    }
  for (const gchar *name; (name = g_dir_read_name (dir));)
    {
      gchar *child = g_build_filename (path, name, NULL);
      remove_tree (child);
      g_free (child);
    }
  g_dir_close (dir);
  g_rmdir (path);
}

static void
host_teardown (Host *h, gconstpointer data)
{
  remove_tree (h->dir);
  g_free (h->dir);
  g_free (h->run_dir);
  g_free (h->dev_log);
}

/* A systemd host: /dev/log is a link to journald's dev-log. */
static void
test_journald_host (Host *h, gconstpointer data)
{
  g_assert_cmpint (g_mkdir_with_parents (h->run_dir, 0700), ==, 0);
  gchar *journald_log = g_build_filename (h->run_dir, "dev-log", NULL);
  make_socket (journald_log);
  g_assert_cmpint (symlink (journald_log, h->dev_log), ==, 0);
  g_assert_true (system_journald_owns_log (h->run_dir, h->dev_log));
  g_free (journald_log);
}

/* journald runs, but /dev/log is a socket of its own (another syslog
 * daemon's, or a container's): the socket is read. */
static void
test_own_dev_log (Host *h, gconstpointer data)
{
  g_assert_cmpint (g_mkdir_with_parents (h->run_dir, 0700), ==, 0);
  gchar *journald_log = g_build_filename (h->run_dir, "dev-log", NULL);
  make_socket (journald_log);
  make_socket (h->dev_log);
  g_assert_false (system_journald_owns_log (h->run_dir, h->dev_log));
  g_free (journald_log);
}

/* No journald: no runtime folder, /dev/log missing or a plain socket. */
static void
test_no_journald (Host *h, gconstpointer data)
{
  g_assert_false (system_journald_owns_log (h->run_dir, h->dev_log));
  make_socket (h->dev_log);
  g_assert_false (system_journald_owns_log (h->run_dir, h->dev_log));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/system-input/journald-host", Host, NULL, host_setup, test_journald_host, host_teardown);
  g_test_add ("/system-input/own-dev-log", Host, NULL, host_setup, test_own_dev_log, host_teardown);
  g_test_add ("/system-input/no-journald", Host, NULL, host_setup, test_no_journald, host_teardown);
  return g_test_run ();
}
