/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The counters' three renderings: text, JSON and Prometheus's text
 * exposition format. */
#include "core/stats-private.h"

#include <stdlib.h>
#include <string.h>

/* The same counters with the same values for every test: registering
 * again gives the same counter. */
static void
register_sample (void)
{
  sl_counter_set (sl_stats_counter ("source", "s_net#0", "tcp", "received"), 123);
  sl_counter_set (sl_stats_counter ("parser", "p_kv#0", "kv-parser", "skipped-keys"), 2);
  sl_counter_set (sl_stats_gauge ("destination", "d_file#0", "file", "queued"), 7);
  sl_counter_set (sl_stats_counter ("source", "s_\"odd\\\n#0", "udp", "received"), 1);
  sl_counter_set (sl_stats_counter ("path", "log#0", "", "matched"), 5);
}

static void
test_prometheus_names_and_labels (void)
{
  register_sample ();
  g_autofree gchar *text = sl_stats_to_prometheus ();
  g_assert_nonnull (strstr (text, "# TYPE sluice_source_received_total counter\n"
                                  "sluice_source_received_total{id=\"s_net#0\",driver=\"tcp\"} 123\n"
                                  "sluice_source_received_total{id=\"s_\\\"odd\\\\\\n#0\",driver=\"udp\"} 1\n"));
  g_assert_nonnull (strstr (text, "# TYPE sluice_parser_skipped_keys_total counter\n"
                                  "sluice_parser_skipped_keys_total{id=\"p_kv#0\",driver=\"kv-parser\"} 2\n"));
  g_assert_nonnull (strstr (text, "# TYPE sluice_destination_queued gauge\n"
                                  "sluice_destination_queued{id=\"d_file#0\",driver=\"file\"} 7\n"));
  /* no empty driver label */
  g_assert_nonnull (strstr (text, "sluice_path_matched_total{id=\"log#0\"} 5\n"));
}

/* Each metric appears under one TYPE line, however the registrations
 * interleave. */
static void
test_prometheus_groups_metrics (void)
{
  register_sample ();
  g_autofree gchar *text = sl_stats_to_prometheus ();
  gchar **lines = g_strsplit (text, "\n", -1);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gchar *current = NULL;
  for (gchar **line = lines; *line && **line; line++)
    {
      if (g_str_has_prefix (*line, "# TYPE "))
        {
          gchar **words = g_strsplit (*line, " ", -1);
          g_assert_false (g_hash_table_contains (seen, words[2]));
          current = g_strdup (words[2]);
          g_hash_table_add (seen, current);
          g_strfreev (words);
          continue;
        }
      g_assert_nonnull (current);
      g_assert_true (g_str_has_prefix (*line, current));
      g_assert_cmpint ((*line)[strlen (current)], ==, '{');
    }
  g_strfreev (lines);
  /* the sample's four and the two gauges of bytes in flight, which
   * libsluice registers in every process */
  g_assert_true (g_hash_table_contains (seen, "sluice_global_bytes_in_flight"));
  g_assert_cmpuint (g_hash_table_size (seen), ==, 6);
}

static void
test_text_and_json_keep_their_form (void)
{
  register_sample ();
  g_autofree gchar *text = sl_stats_to_text ();
  g_assert_true (g_str_has_prefix (text, "kind;id;instance;counter;value\n"));
  g_assert_nonnull (strstr (text, "source;s_net#0;tcp;received;123\n"));
  g_assert_nonnull (strstr (text, "destination;d_file#0;file;queued;7\n"));
  gchar *json = sl_stats_to_json ();
  g_assert_nonnull (strstr (json, "\"skipped-keys\": 2"));
  free (json);
}

/* A driver given internal(yes) (syslog-ng 4's SCL parsers): the "Log
 * statistics" message names its counters only from level 3, as syslog-ng
 * registers them at that level; every rendering for sluicectl keeps
 * them. */
static void
test_internal_drivers_from_level_3 (void)
{
  register_sample ();
  sl_stats_set_internal ("p_kv#0", TRUE);
  g_autofree gchar *level1 = sl_stats_to_log (1);
  g_autofree gchar *level3 = sl_stats_to_log (3);
  g_autofree gchar *text = sl_stats_to_text ();
  g_assert_null (strstr (level1, "p_kv#0"));
  g_assert_nonnull (strstr (level1, "s_net#0"));
  g_assert_nonnull (strstr (level3, "p_kv#0"));
  g_assert_nonnull (strstr (text, "parser;p_kv#0;kv-parser;skipped-keys;2\n"));
  sl_stats_set_internal ("p_kv#0", FALSE);
  g_autofree gchar *again = sl_stats_to_log (1);
  g_assert_nonnull (strstr (again, "p_kv#0"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stats/prometheus/names-and-labels", test_prometheus_names_and_labels);
  g_test_add_func ("/stats/prometheus/groups", test_prometheus_groups_metrics);
  g_test_add_func ("/stats/text-and-json", test_text_and_json_keep_their_form);
  g_test_add_func ("/stats/internal-drivers-from-level-3", test_internal_drivers_from_level_3);
  return g_test_run ();
}
