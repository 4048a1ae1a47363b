/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kmsg() on the real daemon: records written to a named pipe in the
 * kernel's format, as /dev/kmsg gives them, and the real /dev/kmsg when
 * it can be read. */
#include "tests/functional/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const gchar kmsg_config[] =
  "@version: 4.0\n"
  "source s_kmsg { kmsg(\"@DIR@/kmsg\"); };\n"
  "destination d_out { file(\"@DIR@/out.log\"\n"
  "  template(\"${UNIXTIME} ${PROGRAM} ${FACILITY}.${LEVEL} [${.linux.SUBSYSTEM}] ${MESSAGE}\\n\")); };\n"
  "log { source(s_kmsg); destination(d_out); };\n";

static gboolean
write_records (const gchar *path, const gchar *text)
{
  gint fd = open (path, O_WRONLY | O_CLOEXEC);
  gboolean ok = fd >= 0 && write (fd, text, strlen (text)) == (gssize) strlen (text);
  if (!ok)
    g_test_fail_printf ("cannot write to %s: %s", path, g_strerror (errno));
  if (fd >= 0)
    close (fd);
  return ok;
}

/* The line of out.log, without its time, after checking that the time is
 * boot + seconds: the kernel counts from boot on the monotonic clock. */
static gchar *
without_time (const gchar *line, gint64 seconds)
{
  gint64 boot = (g_get_real_time () - g_get_monotonic_time ()) / G_USEC_PER_SEC;
  gint64 stamp = g_ascii_strtoll (line, NULL, 10);
  g_assert_cmpint (stamp, >=, boot + seconds - 2);
  g_assert_cmpint (stamp, <=, boot + seconds + 2);
  const gchar *space = strchr (line, ' ');
  return g_strdup (space ? space + 1 : line);
}

static void
test_records (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *fifo = sl_test_path (env, "kmsg");
  g_autofree gchar *out = sl_test_path (env, "out.log");
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  if (!sl_test_write_config (env, kmsg_config, NULL) || !sl_test_daemon_start (env))
    return;
  if (!write_records (fifo, "6,100,3000000,-;usb 1-1: new device\n SUBSYSTEM=usb\n DEVICE=c189:1\n"
                            "3,101,4000000,-;EXT4-fs error; all is not well\n"
                            "30,102,5000000,-;systemd[1]: written by a program\n")
      || !sl_test_wait_lines (env, out, 3))
    return;
  g_auto (GStrv) lines = sl_test_read_lines (out);
  g_autofree gchar *first = without_time (lines[0], 3);
  g_autofree gchar *second = without_time (lines[1], 4);
  g_autofree gchar *third = without_time (lines[2], 5);
  g_assert_cmpstr (first, ==, "kernel kern.info [usb] usb 1-1: new device");
  g_assert_cmpstr (second, ==, "kernel kern.err [] EXT4-fs error; all is not well");
  g_assert_cmpstr (third, ==, "kernel daemon.info [] systemd[1]: written by a program");

  /* a restart goes on after the last record read in this boot: the ring
   * gives the old ones again, they are not repeated */
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  if (!sl_test_daemon_start (env)
      || !write_records (fifo, "6,101,4000000,-;EXT4-fs error; all is not well\n"
                               "6,102,5000000,-;systemd[1]: written by a program\n"
                               "4,103,6000000,-;after the restart\n")
      || !sl_test_wait_lines (env, out, 4))
    return;
  /* garbage is kept whole and counted */
  if (!write_records (fifo, "not a kernel record\n") || !sl_test_wait_lines (env, out, 5))
    return;
  g_auto (GStrv) after = sl_test_read_lines (out);
  g_assert_cmpuint (g_strv_length (after), ==, 5);
  g_autofree gchar *fourth = without_time (after[3], 6);
  g_assert_cmpstr (fourth, ==, "kernel kern.warning [] after the restart");
  g_assert_nonnull (strstr (after[4], " kernel user.notice [] not a kernel record"));
  g_assert_cmpint (sl_test_stat (env, "source", "s_kmsg", "parse_errors"), ==, 1);
}

static const gchar device_config[] =
  "@version: 4.0\n"
  "source s_kmsg { kmsg(); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${PROGRAM}|${MESSAGE}\\n\")); };\n"
  "log { source(s_kmsg); destination(d_out); };\n";

/* The real device, read only: what the kernel logged since boot. */
static void
test_real_device (SlTestEnv *env, gconstpointer data)
{
  gint fd = open ("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  gchar record[8192];
  gssize n = fd >= 0 ? read (fd, record, sizeof record) : -1;
  if (fd >= 0)
    close (fd);
  if (n <= 0)
    {
      g_test_skip ("/dev/kmsg cannot be read here");
      return;
    }
  g_autofree gchar *out = sl_test_path (env, "out.log");
  if (!sl_test_write_config (env, device_config, NULL) || !sl_test_daemon_start (env)
      || !sl_test_wait_lines (env, out, 1))
    return;
  g_auto (GStrv) lines = sl_test_read_lines (out);
  g_assert_true (g_str_has_prefix (lines[0], "kernel|"));
  g_assert_cmpint (sl_test_stat (env, "source", "s_kmsg", "parse_errors"), ==, 0);
}

static const gchar kernel_only_config[] =
  "@version: 4.0\n"
  "source s_kmsg { kmsg(\"@DIR@/kmsg\" kernel-only(yes)); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${FACILITY}.${LEVEL} ${MESSAGE}\\n\")); };\n"
  "log { source(s_kmsg); destination(d_out); };\n";

/* kernel-only(yes): what a program wrote to /dev/kmsg (daemon.info here)
 * is passed over, as rsyslog's imklog passes it over by default */
static void
test_kernel_only (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *fifo = sl_test_path (env, "kmsg");
  g_autofree gchar *out = sl_test_path (env, "out.log");
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  if (!sl_test_write_config (env, kernel_only_config, NULL) || !sl_test_daemon_start (env))
    return;
  if (!write_records (fifo, "6,100,3000000,-;usb 1-1: new device\n"
                            "30,101,4000000,-;systemd[1]: written by a program\n"
                            "3,102,5000000,-;EXT4-fs error\n")
      || !sl_test_wait_lines (env, out, 2))
    return;
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==, "kern.info usb 1-1: new device\nkern.err EXT4-fs error\n");
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/kmsg/records", test_records);
  SL_TEST_ADD ("/kmsg/real-device", test_real_device);
  SL_TEST_ADD ("/kmsg/kernel-only", test_kernel_only);
  return g_test_run ();
}
