/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslog-ng 4.8's own Python modules (the syslogng.modules package of
 * Debian 13's syslog-ng-mod-python, in the root of tests/peers/trixie-root)
 * run unchanged: sluiced with that root's module folder as
 * --module-install-dir and syslog-ng 4.8 in the root read the same
 * configuration and the same container log file, and what they write
 * must be equal. The Kubernetes parsers read docker's json-file lines and
 * CRI lines (a partial line joined to the next) and ask tests/kube-api.py,
 * which answers as a Kubernetes API server does, for the pod's metadata;
 * python_example() logs what it is given into internal(). */
#include "tests/functional/harness.h"

#include <string.h>
#include <sys/socket.h>

static gchar *trixie;   /* the Debian 13 root, or NULL */

/* The pod the kube-api.py answers for, in the file name Kubernetes gives
 * a container's log: POD_NAMESPACE_CONTAINER-ID.log. */
#define CONTAINER_LOG "/var/log/containers/web-7d9f_default_nginx-" \
  "3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f.log"

/* The file name is set, not read, so that the same configuration gives
 * both daemons the name the parsers take the pod from. */
#define KUBERNETES_CONFIG(PARSER) \
  "@version: 4.8\n" \
  "@include \"scl.conf\"\n" \
  "options { frac-digits(6); };\n" \
  "source s { file(\"@DIR@/in.log\" flags(no-parse)); };\n" \
  "rewrite name { set(\"" CONTAINER_LOG "\" value(\"FILE_NAME\")); };\n" \
  "parser p { " PARSER "(key-delimiter(\".\")); };\n" \
  "destination d { file(\"@DIR@/out.log\" template(\"$S_UNIXTIME|${HOST}|${PROGRAM}|${PID}" \
  "|${.k8s.namespace_name}|${.k8s.pod_name}|${.k8s.pod_uuid}|${.k8s.container_name}|${.k8s.container_id}" \
  "|${.k8s.container_image}|${.k8s.container_hash}|${.k8s.docker_id}|${.k8s.stream}" \
  "|${.k8s.labels.app}|${.k8s.labels.tier}|${.k8s.annotations.team}|${MESSAGE}\\n\")); };\n" \
  "log { source(s); rewrite(name); parser(p); destination(d); };\n"

static const gchar kubeconfig[] =
  "apiVersion: v1\n"
  "kind: Config\n"
  "clusters: [{name: test, cluster: {server: \"http://127.0.0.1:%u\"}}]\n"
  "contexts: [{name: test, context: {cluster: test, user: test}}]\n"
  "current-context: test\n"
  "users: [{name: test, user: {}}]\n";

static gchar *
source_path (const gchar *relative)
{
  return g_build_filename (g_getenv ("SL_TOP_SRCDIR"), "plugins/languages/python", relative, NULL);
}

/* sluiced on config with 4.8's SCL and modules, input as its in.log: what
 * it wrote into out.log once that holds until, or NULL. */
static gchar *
sluiced_output (SlTestEnv *env, const gchar *config, const gchar *input, const gchar *until)
{
  g_autofree gchar *in = sl_test_path (env, "in.log");
  g_autofree gchar *out = sl_test_path (env, "out.log");
  g_autofree gchar *scl = g_build_filename (trixie, "usr/share/syslog-ng/include", NULL);
  g_autofree gchar *include_path = g_strdup_printf ("%s/config/include:%s", g_getenv ("SL_TOP_SRCDIR"), scl);
  g_autofree gchar *modules = g_build_filename (trixie, "usr/lib/syslog-ng/4.8", NULL);

  if (!g_file_set_contents (in, input, -1, NULL) || !sl_test_write_config (env, config, NULL)
      || !sl_test_daemon_start_with_args (env, "--include-path", include_path, "--module-install-dir", modules, NULL)
      || !sl_test_wait_contains (env, out, until))
    return NULL;
  return sl_test_read_file (out);
}

/* Both daemons on config and input, with KUBECONFIG naming kube-api.py
 * (the same path outside and inside the root); their outputs compared. */
static void
run_both (SlTestEnv *env, const gchar *config, const gchar *input, const gchar *until)
{
  if (!trixie)
    {
      g_test_skip ("the Debian 13 root could not be made (tests/peers/trixie-root)");
      return;
    }
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_autofree gchar *script = source_path ("tests/kube-api.py");
  const gchar *argv[] = { "/usr/bin/python3", script, port_text, NULL };
  g_autofree gchar *api_err = sl_test_path (env, "kube-api.stderr");
  GPid api = sl_test_spawn_argv (argv, api_err);
  g_autofree gchar *config_text = g_strdup_printf (kubeconfig, port);
  g_autofree gchar *config_path = sl_test_path (env, "kubeconfig");
  g_autofree gchar *inside = g_build_filename (trixie, env->dir, NULL);
  g_autofree gchar *inside_path = g_build_filename (inside, "kubeconfig", NULL);

  g_setenv ("KUBECONFIG", config_path, TRUE);
  gboolean ready = api && sl_test_wait_port (port) && g_file_set_contents (config_path, config_text, -1, NULL)
                   && g_mkdir_with_parents (inside, 0755) == 0
                   && g_file_set_contents (inside_path, config_text, -1, NULL);
  g_autofree gchar *ng = ready ? sl_test_syslog_ng_48_output (env, trixie, config, input, until) : NULL;
  g_autofree gchar *sl = ready ? sluiced_output (env, config, input, until) : NULL;
  gboolean stopped = sl_test_peer_stop (api, inside);
  g_unsetenv ("KUBECONFIG");
  g_assert_true (ready);
  g_assert_true (stopped);
  g_assert_nonnull (ng);
  g_assert_nonnull (sl);
  g_test_message ("syslog-ng 4.8 wrote:\n%s", ng);
  g_assert_cmpstr (sl, ==, ng);
}

static void
test_kubernetes_json_file (SlTestEnv *env, gconstpointer data)
{
  run_both (env, KUBERNETES_CONFIG ("kubernetes-json-file-parser"),
            "{\"log\":\"GET /index.html 200\\n\",\"stream\":\"stdout\",\"time\":\"2024-05-01T10:00:00.123456789Z\"}\n"
            "{\"log\":\"upstream timed out\\n\",\"stream\":\"stderr\",\"time\":\"2024-05-01T10:00:01.5Z\"}\n"
            "{\"log\":\"caf\\u00e9 \\\"quoted\\\"\\n\",\"stream\":\"stdout\",\"time\":\"2024-05-01T12:00:02+02:00\"}\n"
            "{\"log\":\"done\\n\",\"stream\":\"stdout\",\"time\":\"2024-05-01T10:00:03.000001Z\"}\n",
            "|done\n");
}

static void
test_kubernetes_cri_file (SlTestEnv *env, gconstpointer data)
{
  run_both (env, KUBERNETES_CONFIG ("kubernetes-file-parser"),
            "2024-05-01T10:00:00.123456789Z stdout F GET /index.html 200\n"
            "2024-05-01T10:00:01.000000001Z stderr P first half of a long line, \n"
            "2024-05-01T10:00:01.000000002Z stderr F second half\n"
            "2024-05-01T10:00:01.7Z stdout F  two  spaces kept\n"
            "2024-05-01T10:00:02.5Z stdout F done\n",
            "|done\n");
}

/* python_example() logs each value of each message it gets, through
 * Python's logging into internal(). The keys() of a message and the types
 * of its values are the typed values' and macros' business: the lines of
 * the values both daemons have as bytes are compared, and the heading
 * (syslog-ng 4.8 ends an internal message without tags with ';'). */
#define EXAMPLE_CONFIG \
  "@version: 4.8\n" \
  "@include \"scl.conf\"\n" \
  "source s { file(\"@DIR@/in.log\" flags(no-parse)); };\n" \
  "destination d { python_example(); };\n" \
  "log { source(s); destination(d); };\n" \
  "log { source { internal(); }; filter { message(\"ExampleDestination\") };\n" \
  "  destination { file(\"@DIR@/out.log\" template(\"$LEVEL $MESSAGE\\n\")); }; };\n"

static gchar *
example_lines (const gchar *output)
{
  static const gchar *const keys[] = { "HOST", "HOST_FROM", "MESSAGE" };
  g_auto (GStrv) lines = g_strsplit (output ? output : "", "\n", -1);
  GString *kept = g_string_new (NULL);

  for (guint i = 0; lines[i]; i++)
    {
      gchar *line = lines[i];
      if (g_str_has_suffix (line, ";"))
        line[strlen (line) - 1] = '\0';
      gboolean wanted = g_str_has_suffix (line, "Name Value Pairs are:");
      for (guint k = 0; k < G_N_ELEMENTS (keys) && !wanted; k++)
        {
          g_autofree gchar *key = g_strdup_printf ("ExampleDestination: b'%s' = ", keys[k]);
          wanted = strstr (line, key) != NULL;
        }
      if (wanted)
        g_string_append_printf (kept, "%s\n", line);
    }
  return g_string_free (kept, FALSE);
}

static void
test_example (SlTestEnv *env, gconstpointer data)
{
  if (!trixie)
    {
      g_test_skip ("the Debian 13 root could not be made (tests/peers/trixie-root)");
      return;
    }
  const gchar *input = "hello from a file\n";
  const gchar *until = "b'MESSAGE' = ";
  g_autofree gchar *ng = sl_test_syslog_ng_48_output (env, trixie, EXAMPLE_CONFIG, input, until);
  g_autofree gchar *sl = sluiced_output (env, EXAMPLE_CONFIG, input, until);
  g_autofree gchar *ng_lines = example_lines (ng);
  g_autofree gchar *sl_lines = example_lines (sl);

  g_assert_nonnull (ng);
  g_assert_nonnull (sl);
  g_test_message ("syslog-ng 4.8's lines compared:\n%s", ng_lines);
  g_assert_nonnull (strstr (ng_lines, "b'MESSAGE' = b'hello from a file' <class 'bytes'>"));
  g_assert_cmpstr (sl_lines, ==, ng_lines);
}

/* python()'s options() as a 4.x configuration gives them to init(): the
 * type and value of each, written by the class itself. */
#define OPTIONS_CONFIG \
  "@version: 4.8\n" \
  "python {\n" \
  "import syslogng\n" \
  "class Options(syslogng.LogDestination):\n" \
  "    def init(self, options):\n" \
  "        with open(options['out'], 'w') as out:\n" \
  "            for key in sorted(options):\n" \
  "                value = options[key]\n" \
  "                shown = value.format(syslogng.LogMessage('m'), self.template_options) \\\n" \
  "                    if isinstance(value, syslogng.LogTemplate) else repr(value)\n" \
  "                if key != 'out':\n" \
  "                    out.write('%s %s %s\\n' % (key, type(value).__name__, shown))\n" \
  "            out.write('end\\n')\n" \
  "        return True\n" \
  "    def send(self, msg):\n" \
  "        return True\n" \
  "};\n" \
  "destination d { python(class(\"Options\") options(\"out\" \"@DIR@/out.log\" \"int\" => 5 \"k\" => 10k\n" \
  "  \"mib\" => 5MiB \"hex\" => 0x1f \"octal\" => 017 \"negative\" => -3 \"float\" => 1.5 \"yes\" => yes\n" \
  "  \"off\" => off \"true\" => True \"word\" => word \"quoted\" => \"5\" \"dashed-key\" => \"v\"\n" \
  "  \"template\" => LogTemplate(\"<${MESSAGE}>\") \"empty\" => LogTemplate())); };\n" \
  "log { source { internal(); }; destination(d); };\n"

static void
test_typed_options (SlTestEnv *env, gconstpointer data)
{
  if (!trixie)
    {
      g_test_skip ("the Debian 13 root could not be made (tests/peers/trixie-root)");
      return;
    }
  g_autofree gchar *ng = sl_test_syslog_ng_48_output (env, trixie, OPTIONS_CONFIG, NULL, "end\n");
  g_autofree gchar *sl = sluiced_output (env, OPTIONS_CONFIG, "", "end\n");

  g_assert_nonnull (ng);
  g_assert_nonnull (sl);
  g_test_message ("syslog-ng 4.8's options:\n%s", ng);
  g_assert_nonnull (strstr (ng, "mib int 5242880\n"));
  g_assert_cmpstr (sl, ==, ng);
}

/* s3() into moto's S3 server, each daemon into a bucket of its own:
 * max_object_size(1) finishes (uploads) an object at each message, so
 * the objects are there without waiting for flush_grace_period(). */
#define S3_CONFIG \
  "@version: 4.8\n" \
  "@include \"scl.conf\"\n" \
  "source s { file(\"@DIR@/in.log\" flags(no-parse)); };\n" \
  "destination d { s3(url(\"@URL@\") bucket(\"@BUCKET@\") access_key(\"test\") secret_key(\"test\")\n" \
  "  region(\"us-east-1\") object_key(\"${HOST}/${PROGRAM:-none}\") template(\"${LEVEL} ${MESSAGE}\\n\")\n" \
  "  max_object_size(1) compression(no)); };\n" \
  "log { source(s); destination(d); };\n"

#define S3_INPUT "first line\nsecond line\nthird, and last\n"

static gchar *
s3_config (const gchar *url, const gchar *bucket)
{
  GString *text = g_string_new (S3_CONFIG);
  g_string_replace (text, "@URL@", url, 0);
  g_string_replace (text, "@BUCKET@", bucket, 0);
  return g_string_free (text, FALSE);
}

/* The bucket's objects (s3-objects.py) once it has n of them, or NULL. */
static gchar *
s3_wait_objects (const gchar *python, const gchar *url, const gchar *bucket, guint n)
{
  g_autofree gchar *script = source_path ("tests/s3-objects.py");
  const gchar *argv[] = { python, script, url, bucket, NULL };
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;

  do
    {
      gchar *out = NULL;
      g_auto (GStrv) lines = NULL;
      if (sl_test_run_argv (argv, &out, NULL) == 0 && g_strv_length (lines = g_strsplit (out, "\n", -1)) > n)
        return out;
      g_free (out);
      g_usleep (G_USEC_PER_SEC / 5);
    }
  while (g_get_monotonic_time () < deadline);
  return NULL;
}

static void
test_s3 (SlTestEnv *env, gconstpointer data)
{
  const gchar *check[] = { "python3", "-c", "import boto3", NULL };
  if (!trixie)
    {
      g_test_skip ("the Debian 13 root could not be made (tests/peers/trixie-root)");
      return;
    }
  if (sl_test_run_argv (check, NULL, NULL) != 0)
    {
      g_test_skip ("no python3 with boto3 (python3-boto3), which s3() needs");
      return;
    }
  /* 4.8's s3() keeps its working files in its localstatedir, which -R
   * does not move: the root's /var/lib/syslog-ng/s3, removed after unless
   * it was there before */
  g_autofree gchar *ng_state = g_build_filename (trixie, "var/lib/syslog-ng/s3", NULL);
  gboolean had_state = g_file_test (ng_state, G_FILE_TEST_EXISTS);
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_autofree gchar *url = g_strdup_printf ("http://127.0.0.1:%u", port);
  g_autofree gchar *moto_err = sl_test_path (env, "moto.stderr");
  /* moto's server is Debian 13's (python3-moto), in the root of the peers */
  const gchar *argv[] = { "chroot", trixie, "python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", port_text, NULL };
  GPid moto = sl_test_spawn_argv (argv, moto_err);
  gboolean ready = moto && sl_test_wait_port (port);
  g_autofree gchar *ng_config = s3_config (url, "logs-ng");
  g_autofree gchar *sl_config = s3_config (url, "logs-sl");
  gchar *ng_dir = NULL;
  GPid ng = ready ? sl_test_syslog_ng_48_start (env, trixie, ng_config, S3_INPUT, &ng_dir) : 0;
  g_autofree gchar *ng_objects = ng ? s3_wait_objects ("python3", url, "logs-ng", 3) : NULL;
  sl_test_syslog_ng_48_stop (ng, ng_dir);
  g_autofree gchar *in = sl_test_path (env, "in.log");
  g_autofree gchar *scl = g_build_filename (trixie, "usr/share/syslog-ng/include", NULL);
  g_autofree gchar *include_path = g_strdup_printf ("%s/config/include:%s", g_getenv ("SL_TOP_SRCDIR"), scl);
  g_autofree gchar *modules = g_build_filename (trixie, "usr/lib/syslog-ng/4.8", NULL);
  gboolean started = ready && g_file_set_contents (in, S3_INPUT, -1, NULL)
                     && sl_test_write_config (env, sl_config, NULL)
                     && sl_test_daemon_start_with_args (env, "--include-path", include_path, "--module-install-dir",
                                                        modules, NULL);
  g_autofree gchar *sl_objects = started ? s3_wait_objects ("python3", url, "logs-sl", 3) : NULL;
  gboolean stopped = sl_test_peer_stop (moto, had_state ? NULL : ng_state);

  g_assert_true (ready);
  g_assert_true (stopped);
  g_assert_nonnull (ng_objects);
  g_assert_nonnull (sl_objects);
  if (!ng_objects || !sl_objects)
    return;
  g_test_message ("syslog-ng 4.8's objects:\n%s", ng_objects);
  g_assert_nonnull (strstr (ng_objects, "b'notice third, and last\\n'"));
  g_assert_cmpstr (sl_objects, ==, ng_objects);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  sl_test_python_leaks_suppressed ();
  trixie = sl_test_trixie_root ();
  g_test_add ("/python-modules/kubernetes-json-file-parser", SlTestEnv, NULL, sl_test_env_setup,
              test_kubernetes_json_file, sl_test_env_teardown);
  g_test_add ("/python-modules/kubernetes-file-parser", SlTestEnv, NULL, sl_test_env_setup,
              test_kubernetes_cri_file, sl_test_env_teardown);
  g_test_add ("/python-modules/python_example", SlTestEnv, NULL, sl_test_env_setup, test_example,
              sl_test_env_teardown);
  g_test_add ("/python-modules/typed-options", SlTestEnv, NULL, sl_test_env_setup, test_typed_options,
              sl_test_env_teardown);
  g_test_add ("/python-modules/s3", SlTestEnv, NULL, sl_test_env_setup, test_s3, sl_test_env_teardown);
  gint result = g_test_run ();
  g_free (trixie);
  return result;
}
