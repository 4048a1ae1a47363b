/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslog-ng's configurations as sluiced loads them: Debian's stock file with
 * the SCL, the include path, and blocks on a running daemon. */
#include "tests/functional/harness.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/socket.h>

/* `sluiced -s` on config with the include path given; its exit status,
 * stderr in *err. */
static gint
syntax_check (const gchar *config, const gchar *path, gchar **err)
{
  const gchar *module_path = sl_test_module_path ();

  if (!module_path)
    return -1;
  return sl_test_run_built ("daemon/sluiced", NULL, err, "-s", "-f", config, "--module-path", module_path,
                            "--include-path", path, NULL);
}

/* Debian's /etc/syslog-ng/syslog-ng.conf, copied elsewhere so that only the
 * include path finds scl.conf, loads unchanged: blocks of every SCL file,
 * applications, confgen's getvirtconsole(). */
static void
test_debian_stock_conf (SlTestEnv *env, gconstpointer data)
{
  static const gchar stock[] = "/etc/syslog-ng/syslog-ng.conf";

  if (!g_file_test (stock, G_FILE_TEST_EXISTS)
      || !g_file_test ("/usr/share/syslog-ng/include/scl/cisco/plugin.conf", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("Debian's syslog-ng-core and syslog-ng-scl are not installed");
      return;
    }
  g_autofree gchar *path = sl_test_scl_include_path ();
  g_autofree gchar *text = NULL;
  g_autofree gchar *copy = sl_test_path (env, "syslog-ng.conf");
  g_autofree gchar *err = NULL;

  if (!path)
    return;
  g_assert_true (g_file_get_contents (stock, &text, NULL, NULL));
  g_assert_true (g_file_set_contents (copy, text, -1, NULL));
  g_assert_cmpint (syntax_check (copy, path, &err), ==, 0);
  g_assert_null (strstr (err, "error"));
}

/* --include-path is where @include looks after the including file's own
 * folder; without it the file is not found, and the error says where it
 * was looked for. */
static void
test_include_path_option (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *inc = sl_test_path (env, "inc");
  g_autofree gchar *piece = sl_test_path (env, "inc/piece.conf");
  g_autofree gchar *err = NULL;
  g_autofree gchar *missing = NULL;

  g_assert_cmpint (g_mkdir (inc, 0700), ==, 0);
  g_assert_true (g_file_set_contents (piece, "destination d_file { file(\"/dev/null\"); };\n", -1, NULL));
  if (!sl_test_write_config (env,
                             "@include \"piece.conf\"\n"
                             "source s_int { internal(); };\n"
                             "log { source(s_int); destination(d_file); };\n", NULL))
    return;
  g_assert_cmpint (syntax_check (env->config, inc, &err), ==, 0);
  g_assert_cmpint (syntax_check (env->config, env->dir, &missing), ==, 1);
  g_autofree gchar *why = g_strdup_printf ("cannot find 'piece.conf' beside %s nor in the include path '%s'",
                                           env->config, env->dir);
  g_assert_nonnull (strstr (missing, why));
}

static const gchar block_config[] =
  "@define logdir \"@DIR@\"\n"
  "block destination plain_file(name() template(\"$PROGRAM $MSG\\n\") ...) {\n"
  "  file(\"`logdir`/`name`\" template(`template`) `__VARARGS__`);\n"
  "};\n"
  "block source local_tcp(port()) { tcp(ip(\"127.0.0.1\") port(`port`)); };\n"
  "block filter is_app(name()) { program(\"`name`\" type(string)) };\n"
  "block root app_path(app() file()) {\n"
  "  log { source(s_net); filter { is_app(name(`app`)); }; destination { plain_file(name(`file`)); }; };\n"
  "};\n"
  "source s_net { local_tcp(port(@PORT@)); };\n"
  "app_path(app(nginx) file(nginx.log));\n"
  "app_path(app(sshd) file(sshd.log));\n";

/* Blocks of every kind on a running daemon route as their expansion would. */
static void
test_blocks_route (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);

  if (!port || !sl_test_write_config (env, block_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env)
      || !sl_test_wait_tcp (env, port))
    return;
  if (!sl_test_tcp_send (port, "<13>Nov 29 20:25:57 web1 nginx[42]: GET /\n"
                               "<38>Nov 29 20:25:57 web1 sshd[1000]: Accepted publickey\n"))
    return;
  g_autofree gchar *nginx = sl_test_path (env, "nginx.log");
  g_autofree gchar *sshd = sl_test_path (env, "sshd.log");
  if (!sl_test_wait_lines (env, nginx, 1) || !sl_test_wait_lines (env, sshd, 1))
    return;
  g_autofree gchar *nginx_text = sl_test_read_file (nginx);
  g_autofree gchar *sshd_text = sl_test_read_file (sshd);
  g_assert_cmpstr (nginx_text, ==, "nginx GET /\n");
  g_assert_cmpstr (sshd_text, ==, "sshd Accepted publickey\n");
}

/* An error in a driver a block makes names the block's line and the line
 * that used it. */
static void
test_block_error_names_both_places (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *err = NULL;
  g_autofree gchar *path = sl_test_scl_include_path ();

  if (!path || !sl_test_write_config (env,
                                      "block destination d(path(\"/dev/null\")) {\n"
                                      "  file(\"`path`\" prem(0640));\n"
                                      "};\n"
                                      "destination d_x { d(); };\n", NULL))
    return;
  g_assert_cmpint (syntax_check (env->config, path, &err), ==, 1);
  g_autofree gchar *definition = g_strdup_printf ("%s:2:17: unknown option 'prem' in file()", env->config);
  g_autofree gchar *use = g_strdup_printf ("%s:4:19: in 'd' used here", env->config);
  g_assert_nonnull (strstr (err, definition));
  g_assert_nonnull (strstr (err, use));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/syslog-ng-conf/debian-stock", test_debian_stock_conf);
  SL_TEST_ADD ("/syslog-ng-conf/include-path-option", test_include_path_option);
  SL_TEST_ADD ("/syslog-ng-conf/blocks-route", test_blocks_route);
  SL_TEST_ADD ("/syslog-ng-conf/block-error-names-both-places", test_block_error_names_both_places);
  return g_test_run ();
}
