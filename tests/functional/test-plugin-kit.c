/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plugin kit as a third party uses it: every example of examples/,
 * from the copy `make install` put beside the guide, built with nothing
 * but `pkg-config sluice` against the installed kit, loaded with
 * --module-path beside the installed plugins, and run by sluiced with
 * real traffic. */
#include "tests/functional/harness.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>

/* SL_MODULE_PATH as the test started: the build's plugins */
static gchar *build_module_path;

/* Whether each installed file is the tree's: the test builds what an
 * author finds installed, which must be the tree being tested (and what
 * an example built in the tree left there does not count). */
static gboolean
same_files (const gchar *srcdir, const gchar *installed)
{
  g_autoptr (GDir) dir = g_dir_open (installed, 0, NULL);
  if (!dir)
    {
      g_test_fail_printf ("%s is not installed (make -C build install)", installed);
      return FALSE;
    }
  const gchar *name;
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree gchar *ours = g_build_filename (srcdir, name, NULL);
      g_autofree gchar *theirs = g_build_filename (installed, name, NULL);
      g_autofree gchar *a = sl_test_read_file (ours);
      g_autofree gchar *b = sl_test_read_file (theirs);
      if (!a || g_strcmp0 (a, b) != 0)
        {
          g_test_fail_printf ("%s is not what make install put in %s (make -C build install)", ours, installed);
          return FALSE;
        }
    }
  return TRUE;
}

/* Builds the NULL-terminated examples into DIR/modules with
 * `make -C DOCDIR/examples/NAME O=DIR/modules` (a folder that does not
 * exist yet) and puts that folder on the module path. FALSE when the
 * test is skipped or failed. */
static gboolean
build_examples (SlTestEnv *env, const gchar *first, ...)
{
  g_autofree gchar *pkgconfig = g_build_filename (SL_LIBDIR, "pkgconfig", "sluice.pc", NULL);
  if (!g_file_test (pkgconfig, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the kit is not installed (./quickstart build installs it)");
      return FALSE;
    }
  g_autofree gchar *modules = sl_test_path (env, "modules");
  g_autofree gchar *out_dir = g_strdup_printf ("O=%s", modules);
  g_autofree gchar *pc_path = g_build_filename (SL_LIBDIR, "pkgconfig", NULL);
  g_autofree gchar *pc_env = g_strdup_printf ("PKG_CONFIG_PATH=%s", pc_path);
  va_list args;
  va_start (args, first);
  gboolean built = TRUE;
  for (const gchar *name = first; built && name; name = va_arg (args, const gchar *))
    {
      g_autofree gchar *tree = g_build_filename (g_getenv ("SL_TOP_SRCDIR"), "examples", name, NULL);
      g_autofree gchar *installed = g_build_filename (SL_DOCDIR, "examples", name, NULL);
      /* an example compiles without a warning */
      const gchar *make[] = { "env", pc_env, "make", "-s", "-C", installed, out_dir, "CFLAGS=-O2 -Werror", NULL };
      if (!same_files (tree, installed))
        {
          built = FALSE;
          break;
        }
      g_autofree gchar *err = NULL;
      built = sl_test_run_argv (make, NULL, &err) == 0;
      if (!built)
        g_test_fail_printf ("examples/%s does not build: %s", name, err ? err : "");
    }
  va_end (args);
  if (!built)
    return FALSE;
  /* one's own folder beside the plugins sluiced comes with (the build's
   * stand for the installed ones) */
  g_autofree gchar *module_path = g_strconcat (build_module_path, ":", modules, NULL);
  g_setenv ("SL_MODULE_PATH", module_path, TRUE);
  return TRUE;
}

static const gchar filter_destination_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_kit { line-file(\"@DIR@/sampled.log\" template(\"${PROGRAM} ${MESSAGE}\\n\")); };\n"
  "log { source(s_net); filter { sample(rate(5)); }; destination(d_kit); };\n";

/* examples/plugin: sample() and line-file() */
static void
test_filter_destination (SlTestEnv *env, gconstpointer data)
{
  if (!build_examples (env, "plugin", NULL))
    return;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  if (!port || !sl_test_write_config (env, filter_destination_config, "PORT", port_str, NULL)
      || !sl_test_daemon_start (env))
    return;
  GString *lines = g_string_new (NULL);
  for (guint i = 0; i < 20; i++)
    g_string_append_printf (lines, "<13>Dec  1 10:00:00 host kit: message %u\n", i);
  gboolean sent = sl_test_tcp_send (port, lines->str);
  g_string_free (lines, TRUE);
  g_autofree gchar *out = sl_test_path (env, "sampled.log");
  if (!sent || !sl_test_wait_lines (env, out, 4))
    return;
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==, "kit message 0\nkit message 5\nkit message 10\nkit message 15\n");
}

/* The parser sets fields only on the path it is in; the rewrite masks a
 * copy, so the other path sees the digits; $(repeat) renders on the
 * reading thread (the parser's input) and on the writer's, there in the
 * destination's environment (template-escape(yes) reaches the field
 * inside it). */
static const gchar processing_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_fields { line-file(\"@DIR@/fields.log\" template-escape(yes)\n"
  "  template(\"$(repeat 2 '${.colon.user} ')${.colon.card}\\n\")); };\n"
  "destination d_raw { line-file(\"@DIR@/raw.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); parser { colon-pairs(template(\"$(repeat 1 ${MESSAGE})\")); };\n"
  "  rewrite { mask-digits(\".colon.card\"); };\n"
  "  destination(d_fields); };\n"
  "log { source(s_net); destination(d_raw); };\n";

static const gchar bad_repeat_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_fields { line-file(\"@DIR@/fields.log\"\n"
  "  template(\"$(repeat 0 ${MESSAGE})\\n\")); };\n"
  "log { source(s_net); destination(d_fields); };\n";

static const gchar bad_prefix_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "log { source(s_net); parser { colon-pairs(\n"
  "  prefix(\"0123456789012345678901234567890123456789012345678901234567890123456789\")); }; };\n";

/* examples/parser, examples/rewrite and examples/template-function */
static void
test_parser_rewrite_template_function (SlTestEnv *env, gconstpointer data)
{
  if (!build_examples (env, "plugin", "parser", "rewrite", "template-function", NULL))
    return;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  if (!port || !sl_test_write_config (env, bad_repeat_config, "PORT", port_str, NULL))
    return;

  /* prepare()'s refusal, at the position of the call inside the template */
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "--module-path", g_getenv ("SL_MODULE_PATH"),
                                   "-s", "-f", env->config, NULL);
  g_assert_cmpint (status, !=, 0);
  g_autofree gchar *where = g_strdup_printf ("%s:4:12: $(repeat) takes a count from 1 to 100, not '0'", env->config);
  if (!strstr (err, where))
    g_test_fail_printf ("expected '%s' in:\n%s", where, err);

  /* the parser's sentences come from its own catalogue, which its
   * Makefile built beside it; LC_ALL=C.UTF-8 with LANGUAGE=de picks it
   * without a generated German locale */
  if (!sl_test_write_config (env, bad_prefix_config, "PORT", port_str, NULL))
    return;
  g_autofree gchar *sluiced = g_build_filename (g_getenv ("SL_TOP_BUILDDIR"), "daemon", "sluiced", NULL);
  const gchar *in_german[] = { "env", "LC_ALL=C.UTF-8", "LANGUAGE=de", sluiced, "--module-path",
                               g_getenv ("SL_MODULE_PATH"), "-s", "-f", env->config, NULL };
  g_autofree gchar *german = NULL;
  g_assert_cmpint (sl_test_run_argv (in_german, NULL, &german), !=, 0);
  g_autofree gchar *translated = g_strdup_printf ("%s:4:3: colon-pairs() braucht ein prefix() kürzer als 64 Bytes",
                                                  env->config);
  g_assert_nonnull (strstr (german, translated));

  if (!sl_test_write_config (env, processing_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  const gchar *lines =
    "<13>Dec  1 10:00:00 host app: user:alice card:4111-1111\n"
    "<13>Dec  1 10:00:00 host app: no pairs here\n"
    "<13>Dec  1 10:00:00 host app: user:o'neil card:5500\n";
  g_autofree gchar *fields = sl_test_path (env, "fields.log");
  g_autofree gchar *raw = sl_test_path (env, "raw.log");
  if (!sl_test_tcp_send (port, lines) || !sl_test_wait_lines (env, raw, 3) || !sl_test_wait_lines (env, fields, 2))
    return;
  g_autofree gchar *fields_text = sl_test_read_file (fields);
  g_assert_cmpstr (fields_text, ==, "alice alice ####-####\no\\'neil o\\'neil ####\n");
  g_autofree gchar *raw_text = sl_test_read_file (raw);
  g_assert_cmpstr (raw_text, ==, "user:alice card:4111-1111\nno pairs here\nuser:o'neil card:5500\n");
}

static const gchar datagram_config[] =
  "@version: 4.0\n"
  "source s_udp { simple-udp(port(@PORT@)); };\n"
  "destination d_udp { line-file(\"@DIR@/udp.log\" template(\"${PROGRAM} ${MESSAGE}\\n\")); };\n"
  "log { source(s_udp); destination(d_udp); };\n";

/* examples/source-dgram */
static void
test_datagram_source (SlTestEnv *env, gconstpointer data)
{
  if (!build_examples (env, "plugin", "source-dgram", NULL))
    return;
  guint16 port = sl_test_free_port (SOCK_DGRAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  if (!port || !sl_test_write_config (env, datagram_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  for (guint i = 0; i < 3; i++)
    {
      g_autofree gchar *datagram = g_strdup_printf ("<13>Dec  1 10:00:00 host udp: datagram %u", i);
      if (!sl_test_udp_send (port, datagram))
        return;
    }
  g_autofree gchar *out = sl_test_path (env, "udp.log");
  if (!sl_test_wait_lines (env, out, 3))
    return;
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==, "udp datagram 0\nudp datagram 1\nudp datagram 2\n");
  g_assert_cmpint (sl_test_stat (env, "source", "s_udp", "received"), ==, 3);
}

/* The destination's folder does not exist at first: its open() fails
 * and is retried every second, so flow control must hold the reading. */
static const gchar stream_config[] =
  "@version: 4.0\n"
  "source s_tail { tail-lines(\"@DIR@/app.log\" follow-freq(200ms) flags(no-parse) log-iw-size(100)\n"
  "  persist-name(\"app-log\")); };\n"
  "destination d_tail { line-file(\"@DIR@/out/tail.log\" template(\"${MESSAGE}\\n\") time-reopen(1)); };\n"
  "log { source(s_tail); destination(d_tail); flags(flow-control); };\n";

static void
append_lines (const gchar *path, guint from, guint to)
{
  GString *text = g_string_new (NULL);
  for (guint i = from; i < to; i++)
    g_string_append_printf (text, "line %u\n", i);
  g_autofree gchar *old = sl_test_read_file (path);
  g_autofree gchar *all = g_strconcat (old ? old : "", text->str, NULL);
  g_assert_true (g_file_set_contents (path, all, -1, NULL));
  g_string_free (text, TRUE);
}

static gboolean
holds_lines (const gchar *path, guint n)
{
  g_auto (GStrv) lines = sl_test_read_lines (path);
  if (!lines || g_strv_length (lines) != n)
    {
      g_test_fail_printf ("%s has %u lines, not %u", path, lines ? g_strv_length (lines) : 0, n);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      g_autofree gchar *want = g_strdup_printf ("line %u", i);
      if (strcmp (lines[i], want) != 0)
        {
          g_test_fail_printf ("line %u of %s is '%s', not '%s'", i + 1, path, lines[i], want);
          return FALSE;
        }
    }
  return TRUE;
}

/* examples/source-stream: flow control, then the position kept across a
 * restart (nothing lost, nothing read twice) */
static void
test_stream_source (SlTestEnv *env, gconstpointer data)
{
  if (!build_examples (env, "plugin", "source-stream", NULL))
    return;
  g_autofree gchar *input = sl_test_path (env, "app.log");
  append_lines (input, 0, 1000);
  if (!sl_test_write_config (env, stream_config, NULL) || !sl_test_daemon_start (env))
    return;
  /* the reader posts batches of 64 and waits for room in its window of
   * 100 after each: the second batch fills it, and nothing is written */
  if (!sl_test_wait_stat (env, "source", "s_tail", "received", 128))
    return;
  g_autofree gchar *out_dir = sl_test_path (env, "out");
  g_assert_cmpint (g_mkdir (out_dir, 0755), ==, 0);
  g_autofree gchar *out = sl_test_path (env, "out/tail.log");
  if (!sl_test_wait_lines (env, out, 1000) || !holds_lines (out, 1000))
    return;

  if (sl_test_daemon_stop (env, SIGTERM) != 0)
    return;
  /* the position is the input's size, kept under persist-name() */
  g_autofree gchar *read_all = sl_test_read_file (input);
  g_autofree gchar *position = g_strdup_printf ("%zu", strlen (read_all));
  g_autofree gchar *persisted = sl_test_persist_value (env->persist, "app-log");
  g_assert_cmpstr (persisted, ==, position);
  append_lines (input, 1000, 1010);
  if (!sl_test_daemon_start (env) || !sl_test_wait_lines (env, out, 1010))
    return;
  holds_lines (out, 1010);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  build_module_path = g_strdup (g_getenv ("SL_MODULE_PATH"));
  SL_TEST_ADD ("/plugin-kit/filter-destination", test_filter_destination);
  SL_TEST_ADD ("/plugin-kit/parser-rewrite-template-function", test_parser_rewrite_template_function);
  SL_TEST_ADD ("/plugin-kit/datagram-source", test_datagram_source);
  SL_TEST_ADD ("/plugin-kit/stream-source", test_stream_source);
  return g_test_run ();
}
