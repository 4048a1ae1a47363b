/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/parsers/json/json-check.h"
#include "plugins/parsers/json/json-parser.h"

#include <string.h>

static SlMessage *
message_of (const gchar *text, gsize len)
{
  SlMessage *msg = sl_message_new (text, len);
  sl_message_set_slice (msg, SL_F_MESSAGE, msg->raw, len);
  return msg;
}

static void
append_field (GString *out, SlHandle field, const gchar *value, gsize len)
{
  g_string_append_printf (out, "%s=", sl_field_name (field));
  g_string_append_len (out, value, len);
  g_string_append_c (out, '\n');
}

static gboolean
append_dynamic (SlHandle field, const gchar *value, gsize len, gpointer out)
{
  append_field (out, field, value, len);
  return TRUE;
}

/* Every field of msg as name=value lines, in handle order. */
static gchar *
fields_text (const SlMessage *msg)
{
  GString *out = g_string_new (NULL);
  for (SlHandle field = SL_F_NONE + 1; field < SL_F_BUILTIN_MAX; field++)
    {
      gsize len;
      const gchar *value = sl_message_get (msg, field, &len);
      if (value)
        append_field (out, field, value, len);
    }
  sl_message_foreach_dynamic (msg, append_dynamic, out);
  return g_string_free (out, FALSE);
}

void
json_check_against_tree (SlTestParser *p, const gchar *text, gsize len)
{
  const JsonParser *parser = (const JsonParser *) p->driver;
  g_assert_null (parser->template);

  gint64 skipped_before = sl_test_parser_counter (p, "skipped-keys");
  SlMessage *scanned = message_of (text, len);
  gboolean scanned_ok = sl_test_parser_process (p, &scanned);
  gint64 scan_skipped = sl_test_parser_counter (p, "skipped-keys") - skipped_before;

  gsize marker_len = parser->marker ? strlen (parser->marker) : 0;
  SlMessage *tree = message_of (text, len);
  gboolean tree_ok = FALSE;
  skipped_before = sl_test_parser_counter (p, "skipped-keys");
  if (len >= marker_len && memcmp (text, parser->marker ? parser->marker : "", marker_len) == 0)
    tree_ok = json_tree_flatten (parser, text + marker_len, len - marker_len, &tree);
  gint64 tree_skipped = sl_test_parser_counter (p, "skipped-keys") - skipped_before;

  g_assert_cmpint (scanned_ok, ==, tree_ok);
  g_assert_cmpint (scan_skipped, ==, tree_skipped);
  gchar *scanned_fields = fields_text (scanned);
  gchar *tree_fields = fields_text (tree);
  g_assert_cmpstr (scanned_fields, ==, tree_fields);
  g_free (scanned_fields);
  g_free (tree_fields);
  sl_message_unref (scanned);
  sl_message_unref (tree);
}
