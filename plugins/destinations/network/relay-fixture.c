/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/destinations/network/relay-fixture.h"

#include <stdio.h>
#include <string.h>

#define POLL_INTERVAL_US (100 * 1000)

void
relay_setup (Relay *relay, gconstpointer data)
{
  sl_test_env_setup (&relay->sender, data);
  sl_test_env_setup (&relay->receiver, data);
  sl_test_env_setup (&relay->peer, data);
}

void
relay_teardown (Relay *relay, gconstpointer data)
{
  sl_test_env_teardown (&relay->sender, data);
  sl_test_env_teardown (&relay->receiver, data);
  sl_test_env_teardown (&relay->peer, data);
}

gchar *
relay_port_text (guint16 port)
{
  return g_strdup_printf ("%u", port);
}

GString *
relay_numbered_lines (guint first, guint count)
{
  GString *out = g_string_sized_new (count * 48);
  for (guint i = first; i < first + count; i++)
    g_string_append_printf (out, "<13>Nov 29 20:25:57 relayhost app: seq %06u\n", i);
  return out;
}

gboolean
relay_count_sequence (const gchar *path, guint expected, guint *missing, guint *duplicates)
{
  *missing = expected;
  *duplicates = 0;
  g_auto (GStrv) lines = sl_test_read_lines (path);
  if (!lines)
    return TRUE;
  guint8 *seen = g_new0 (guint8, expected + 1);
  gboolean ok = TRUE;
  for (guint i = 0; lines[i] && ok; i++)
    {
      guint seq = 0;
      if (sscanf (lines[i], "seq %u", &seq) != 1 || seq == 0 || seq > expected)
        {
          g_test_fail_printf ("line %u of %s is '%s', not a sequence number up to %u", i + 1, path, lines[i], expected);
          ok = FALSE;
        }
      else if (seen[seq])
        (*duplicates)++;
      else
        {
          seen[seq] = 1;
          (*missing)--;
        }
    }
  g_free (seen);
  return ok;
}

guint
relay_wait_sequence (SlTestEnv *env, const gchar *path, guint expected, guint *duplicates)
{
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  guint missing = expected;
  guint best = expected;
  for (;;)
    {
      if (!relay_count_sequence (path, expected, &missing, duplicates) || !missing)
        return missing;
      if (missing < best)
        {
          best = missing;
          deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
        }
      if (g_get_monotonic_time () >= deadline)
        break;
      g_usleep (POLL_INTERVAL_US);
    }
  g_test_fail_printf ("%s misses %u of %u sequence numbers (sluiced %s)", path, missing, expected,
                      sl_test_daemon_alive (env) ? "is running" : "is not running");
  return missing;
}
