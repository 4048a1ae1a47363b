/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tests/unit/parser-harness.h"
#include "core/config/syntax-version.h"
#include "core/compile/config-private.h"
#include "core/compile/config-run.h"
#include "core/config/parser.h"
#include "core/message/template-private.h"
#include "core/stats.h"

#include <string.h>

static const gchar *const counter_names[] = { "failed", "skipped-keys", "match-limit", "invalid", "unmatched" };

static gint64
counter_now (SlTestParser *p, const gchar *name)
{
  return sl_counter_get (sl_stats_counter ("parser", p->driver->id, p->driver->klass->name, name));
}

static gboolean
parser_new (SlTestParser *p, const gchar *version, const gchar *text, GError **error)
{
  memset (p, 0, sizeof *p);
  gchar *conf = version ? g_strdup_printf ("@version: %s\nparser p {\n  %s;\n};\n", version, text)
                        : g_strdup_printf ("parser p {\n  %s;\n};\n", text);
  p->tree = sl_cfg_parse_string (conf, "test.conf", error);
  g_free (conf);
  if (!p->tree)
    return FALSE;
  const SlCfgNode *object = g_ptr_array_index (p->tree->children, 0);
  p->cfg = sl_config_new_empty ();
  /* made as a configuration of that @version makes it */
  sl_cfg_set_compiling_version_4 (sl_cfg_version_is_4 (p->tree));
  p->driver = sl_config_new_driver (p->cfg, SL_DRIVER_PARSER, g_ptr_array_index (object->children, 0),
                                    NULL, error);
  sl_cfg_set_compiling_version_4 (FALSE);
  if (!p->driver)
    return FALSE;
  p->counters_before = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < G_N_ELEMENTS (counter_names); i++)
    g_hash_table_insert (p->counters_before, (gpointer) counter_names[i],
                         GSIZE_TO_POINTER ((gsize) counter_now (p, counter_names[i])));
  return TRUE;
}

gboolean
sl_test_parser_new (SlTestParser *p, const gchar *text, GError **error)
{
  return parser_new (p, NULL, text, error);
}

void
sl_test_parser_init (SlTestParser *p, const gchar *text)
{
  GError *error = NULL;
  gboolean ok = sl_test_parser_new (p, text, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
}

void
sl_test_parser_init_version (SlTestParser *p, const gchar *version, const gchar *text)
{
  GError *error = NULL;
  gboolean ok = parser_new (p, version, text, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
}

void
sl_test_parser_clear (SlTestParser *p)
{
  sl_config_free (p->cfg);
  sl_cfg_node_free (p->tree);
  if (p->counters_before)
    g_hash_table_unref (p->counters_before);
}

gboolean
sl_test_parser_process (SlTestParser *p, SlMessage **msg)
{
  return p->driver->klass->ops.parser->process (p->driver, msg);
}

gint64
sl_test_parser_counter (SlTestParser *p, const gchar *name)
{
  g_assert_true (g_hash_table_contains (p->counters_before, name));
  return counter_now (p, name) - (gint64) GPOINTER_TO_SIZE (g_hash_table_lookup (p->counters_before, name));
}

SlMessage *
sl_test_message (const gchar *text)
{
  SlMessage *msg = sl_message_new (text, strlen (text));
  sl_message_set_slice (msg, SL_F_MESSAGE, msg->raw, msg->raw_len);
  return msg;
}

void
sl_test_assert_field (const SlMessage *msg, const gchar *name, const gchar *expected)
{
  gsize len;
  const gchar *value = sl_message_get (msg, sl_field_handle (name), &len);
  gchar *copy = value ? g_strndup (value, len) : NULL;
  g_assert_cmpstr (copy, ==, expected);
  g_free (copy);
}
