/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Typed values through python(), side by side with syslog-ng 4.8 (Debian
 * 13's, with syslog-ng-mod-python, in the root of tests/peers/trixie-root):
 * both daemons run tests/typed.conf with tests/typed.py as its python {}
 * block on the same JSON line. json-parser() and set()'s type hints make
 * typed values (datetimes too); a python() parser stores ints, floats,
 * bools, None, lists, naive and aware datetimes and what it cannot store;
 * a python() destination writes each value it
 * reads with its Python type (KeyError for an unset one), get() and
 * get_as_str(), and another the dict value-pairs() gives it;
 * $(format-json) writes the types the parser stored, and
 * $(python) what its functions return. Under @version: 4.8 the values are
 * typed; under 3.38, 4.8's compatibility mode, bytes. What the two write
 * must be equal. */
#include "tests/functional/harness.h"

#include <signal.h>
#include <string.h>

static gchar *trixie;   /* the Debian 13 root, or NULL */

#define INPUT "{\"n\":5,\"f\":1.5,\"b\":true,\"z\":null,\"a\":[1,\"x\"],\"o\":{\"k\":\"v\"},\"s\":\"str\"}\n"

/* value-pairs()' pair()s with the hints 4.8 keeps in both modes but
 * Sluice, as 3.38, gives as bytes under 3.x (3.38 itself refuses them) */
#define PAIRS_4 "pair(\"t.float\", float(\"${j.n}\")) pair(\"t.real\" 2.5) pair(\"t.list\" list(\"a,b\")) " \
  "pair(\"t.dt\" datetime(\"1700000000.75\"))"

typedef struct
{
  const gchar *version;
  const gchar *pairs;
} Case;

static const Case version_4 = { "4.8", PAIRS_4 };
static const Case version_3 = { "3.38", "" };

/* the python() destinations' files (a LogMessage's values, value-pairs()'
 * dict), $(format-json)'s, $(python)'s */
static const gchar *const outputs[] = { "out.log", "vp.log", "json.log", "tf.log" };

static gchar *
source_path (const gchar *relative)
{
  return g_build_filename (g_getenv ("SL_TOP_SRCDIR"), "plugins/languages/python", relative, NULL);
}

static gchar *
config_for (const Case *c)
{
  g_autofree gchar *conf_path = source_path ("tests/typed.conf");
  g_autofree gchar *code_path = source_path ("tests/typed.py");
  g_autofree gchar *conf = sl_test_read_file (conf_path);
  g_autofree gchar *code = sl_test_read_file (code_path);
  g_assert_nonnull (conf);
  g_assert_nonnull (code);
  GString *text = g_string_new (conf);
  g_string_replace (text, "@VERSION@", c->version, 0);
  g_string_replace (text, "@PAIRS_4@", c->pairs, 0);
  g_string_replace (text, "@PYTHON@", code, 0);
  return g_string_free (text, FALSE);
}

/* Waits for every output of dir to have its line, then reads them. */
static gboolean
read_outputs (SlTestEnv *env, const gchar *dir, gchar *texts[G_N_ELEMENTS (outputs)])
{
  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    {
      g_autofree gchar *path = g_build_filename (dir, outputs[i], NULL);
      if (!sl_test_wait_contains (env, path, i < 2 ? "end\n" : "\n"))
        return FALSE;
      texts[i] = sl_test_read_file (path);
    }
  return TRUE;
}

static void
test_side_by_side (SlTestEnv *env, gconstpointer data)
{
  const Case *c = data;
  if (!trixie)
    {
      g_test_skip ("the Debian 13 root could not be made (tests/peers/trixie-root)");
      return;
    }
  g_autofree gchar *config = config_for (c);
  gchar *ng[G_N_ELEMENTS (outputs)] = { NULL }, *sl[G_N_ELEMENTS (outputs)] = { NULL };
  gchar *ng_dir = NULL;
  GPid ng_pid = sl_test_syslog_ng_48_start (env, trixie, config, INPUT, &ng_dir);
  gboolean ng_read = ng_pid && read_outputs (env, ng_dir, ng);
  sl_test_syslog_ng_48_stop (ng_pid, ng_dir);
  g_autofree gchar *in = sl_test_path (env, "in.log");
  gboolean sl_read = ng_read && g_file_set_contents (in, INPUT, -1, NULL) && sl_test_write_config (env, config, NULL)
                     && sl_test_daemon_start (env) && read_outputs (env, env->dir, sl);

  g_assert_true (ng_read);
  g_assert_true (sl_read);
  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    {
      g_test_message ("syslog-ng 4.8's %s under @version: %s:\n%s", outputs[i], c->version, ng[i]);
      g_assert_cmpstr (sl[i], ==, ng[i]);
      g_free (ng[i]);
      g_free (sl[i]);
    }
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  /* both daemons' local time is UTC: a datetime is a naive local one */
  g_setenv ("TZ", "UTC", TRUE);
  g_autofree gchar *pylib = source_path ("pylib");
  g_setenv ("SLUICE_PYTHON_DIR", pylib, TRUE);
  sl_test_python_leaks_suppressed ();
  trixie = sl_test_trixie_root ();
  g_test_add ("/python-typed/version-4", SlTestEnv, &version_4, sl_test_env_setup, test_side_by_side,
              sl_test_env_teardown);
  g_test_add ("/python-typed/version-3", SlTestEnv, &version_3, sl_test_env_setup, test_side_by_side,
              sl_test_env_teardown);
  gint result = g_test_run ();
  g_free (trixie);
  return result;
}
