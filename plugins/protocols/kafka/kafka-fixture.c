/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kafka() tests' cluster and clients; see kafka-fixture.h. */
#include "plugins/protocols/kafka/kafka-fixture.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct _SlKafkaMock
{
  GPid pid;
  FILE *in;
  FILE *out;
  gchar *bootstrap;
};

static gchar *
read_answer (KafkaMock *mock)
{
  gchar line[1024];
  if (!fgets (line, sizeof line, mock->out))
    {
      g_test_fail_printf ("kafka-mock did not answer");
      return NULL;
    }
  return g_strdup (g_strstrip (line));
}

KafkaMock *
kafka_mock_start (const gchar *const *topics)
{
  const gchar *builddir = g_getenv ("SL_TOP_BUILDDIR");
  if (!builddir)
    {
      g_test_fail_printf ("SL_TOP_BUILDDIR is not set");
      return NULL;
    }
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (argv, g_build_filename (builddir, "plugins", "protocols", "kafka", "kafka-mock", NULL));
  for (guint i = 0; topics[i]; i++)
    g_ptr_array_add (argv, g_strdup (topics[i]));
  g_ptr_array_add (argv, NULL);
  KafkaMock *mock = g_new0 (KafkaMock, 1);
  gint in_fd, out_fd;
  GError *error = NULL;
  gboolean spawned = g_spawn_async_with_pipes (NULL, (gchar **) argv->pdata, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL,
                                               NULL, &mock->pid, &in_fd, &out_fd, NULL, &error);
  g_ptr_array_unref (argv);
  if (!spawned)
    {
      g_test_fail_printf ("cannot start kafka-mock: %s", error->message);
      g_error_free (error);
      g_free (mock);
      return NULL;
    }
  mock->in = fdopen (in_fd, "w");
  mock->out = fdopen (out_fd, "r");
  gchar *first = read_answer (mock);
  if (!first || !g_str_has_prefix (first, "bootstrap="))
    {
      g_test_fail_printf ("kafka-mock said '%s', not its bootstrap address", first ? first : "");
      g_free (first);
      kafka_mock_stop (mock);
      return NULL;
    }
  mock->bootstrap = g_strdup (first + strlen ("bootstrap="));
  g_free (first);
  return mock;
}

const gchar *
kafka_mock_bootstrap (KafkaMock *mock)
{
  return mock->bootstrap;
}

gchar *
kafka_mock_command (KafkaMock *mock, const gchar *command)
{
  fprintf (mock->in, "%s\n", command);
  fflush (mock->in);
  return read_answer (mock);
}

gint64
kafka_mock_count (KafkaMock *mock, const gchar *topic)
{
  gchar *command = g_strdup_printf ("count %s", topic);
  gchar *answer = kafka_mock_command (mock, command);
  g_free (command);
  gint64 n = answer && g_str_has_prefix (answer, "count=") ? g_ascii_strtoll (answer + 6, NULL, 10) : -1;
  g_free (answer);
  return n;
}

gint64
kafka_mock_wait_count (KafkaMock *mock, const gchar *topic, gint64 n)
{
  gint64 last = -1;
  gint64 since = g_get_monotonic_time ();
  for (;;)
    {
      gint64 count = kafka_mock_count (mock, topic);
      if (count >= n)
        return count;
      if (count != last)
        {
          last = count;
          since = g_get_monotonic_time ();
        }
      else if (g_get_monotonic_time () - since > SL_TEST_DEADLINE_MS * 1000)
        {
          g_test_fail_printf ("topic %s stopped at %" G_GINT64_FORMAT " messages, not %" G_GINT64_FORMAT,
                              topic, count, n);
          return count;
        }
      g_usleep (50 * 1000);
    }
}

void
kafka_mock_stop (KafkaMock *mock)
{
  if (!mock)
    return;
  if (mock->in)
    fclose (mock->in);
  gint status;
  gint64 until = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  while (waitpid (mock->pid, &status, WNOHANG) == 0)
    {
      if (g_get_monotonic_time () > until)
        {
          kill (mock->pid, SIGKILL);
          waitpid (mock->pid, &status, 0);
          break;
        }
      g_usleep (20 * 1000);
    }
  g_spawn_close_pid (mock->pid);
  if (mock->out)
    fclose (mock->out);
  g_free (mock->bootstrap);
  g_free (mock);
}

gboolean
kafka_consume (KafkaMock *mock, const gchar *topic, const gchar *path)
{
  const gchar *argv[] = {
    "kcat", "-C", "-b", mock->bootstrap, "-t", topic, "-o", "beginning", "-e", "-q", "-f", "%s\\n", NULL
  };
  gchar *out = NULL, *err = NULL;
  gint status = sl_test_run_argv (argv, &out, &err);
  gboolean ok = status == 0 && g_file_set_contents (path, out, -1, NULL);
  if (!ok)
    g_test_fail_printf ("kcat -C of %s failed (%d): %s", topic, status, err);
  g_free (out);
  g_free (err);
  return ok;
}

gint64
kafka_out_of_order (KafkaMock *mock, const gchar *topic)
{
  const gchar *argv[] = {
    "kcat", "-C", "-b", mock->bootstrap, "-t", topic, "-o", "beginning", "-e", "-q", "-f", "%p %s\\n", NULL
  };
  gchar *out = NULL, *err = NULL;
  gint status = sl_test_run_argv (argv, &out, &err);
  gint64 late = -1;
  if (status == 0)
    {
      GHashTable *last = g_hash_table_new (g_direct_hash, g_direct_equal);   /* partition -> highest number */
      GHashTable *seen = g_hash_table_new (g_direct_hash, g_direct_equal);
      gchar **lines = g_strsplit (out, "\n", -1);
      late = 0;
      for (gchar **line = lines; *line; line++)
        {
          const gchar *seq = strstr (*line, "seq=");
          const gchar *colon = seq ? strchr (seq, ':') : NULL;
          if (!colon)
            continue;
          gint64 partition = g_ascii_strtoll (*line, NULL, 10);
          gint64 number = g_ascii_strtoll (colon + 1, NULL, 10);
          if (!g_hash_table_add (seen, GINT_TO_POINTER (number)))
            continue;
          gint64 highest = GPOINTER_TO_INT (g_hash_table_lookup (last, GINT_TO_POINTER (partition + 1)));
          if (number < highest)
            late++;
          else
            g_hash_table_insert (last, GINT_TO_POINTER (partition + 1), GINT_TO_POINTER (number));
        }
      g_strfreev (lines);
      g_hash_table_unref (seen);
      g_hash_table_unref (last);
    }
  else
    g_test_fail_printf ("kcat -C of %s failed (%d): %s", topic, status, err);
  g_free (out);
  g_free (err);
  return late;
}

gboolean
kafka_produce (KafkaMock *mock, const gchar *topic, const gchar *path)
{
  const gchar *argv[] = { "kcat", "-P", "-b", mock->bootstrap, "-t", topic, "-l", path, NULL };
  gchar *err = NULL;
  gint status = sl_test_run_argv (argv, NULL, &err);
  if (status != 0)
    g_test_fail_printf ("kcat -P into %s failed (%d): %s", topic, status, err);
  g_free (err);
  return status == 0;
}

static gint64
total_of (const gchar *report, const gchar *name)
{
  const gchar *total = strstr (report, "total:");
  gchar *key = g_strdup_printf (" %s=", name);
  const gchar *at = total ? strstr (total, key) : NULL;
  gint64 n = at ? g_ascii_strtoll (at + strlen (key), NULL, 10) : -1;
  g_free (key);
  return n;
}

gint64
kafka_verify (const gchar *path, guint64 expected, gint64 *duplicated, gboolean report)
{
  gchar *expect = g_strdup_printf ("%" G_GUINT64_FORMAT, expected);
  gchar *out = NULL;
  gint status = sl_test_run_built ("tools/sluice-gen", &out, NULL, "verify", "--expect", expect, path, NULL);
  gint64 missing = status >= 0 && status <= 1 && out ? total_of (out, "missing") : -1;
  if (duplicated)
    *duplicated = out ? total_of (out, "duplicated") : -1;
  if (missing != 0 && report)
    g_test_message ("sluice-gen verify: %s", out ? out : "");
  g_free (expect);
  g_free (out);
  return missing;
}
