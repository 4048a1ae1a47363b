/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tests/unit/plugin-fixture.h"
#include "core/compile/config-private.h"
#include "core/compile/config-run.h"
#include "core/plugin/registry.h"
#include "core/stats.h"

#include <stdarg.h>

gboolean
sl_test_driver_new (SlTestDriver *t, SlDriverKind kind, const gchar *objects, const gchar *text,
                    GError **error)
{
  const gchar *word = sl_driver_kind_name (kind);
  gchar *conf = g_strdup_printf ("%s%s t { %s; };\n", objects ? objects : "", word, text);
  t->driver = NULL;
  t->cfg = sl_config_load_string (conf, "test.conf", error);
  g_free (conf);
  if (!t->cfg)
    return FALSE;
  const SlCfgNode *object = sl_config_find_object (t->cfg, word, "t");
  g_assert_nonnull (object);
  g_assert_cmpuint (object->children->len, ==, 1);
  t->driver = sl_config_new_driver (t->cfg, kind, g_ptr_array_index (object->children, 0), NULL, error);
  return t->driver != NULL;
}

void
sl_test_driver_free (SlTestDriver *t)
{
  if (t->cfg)
    sl_config_free (t->cfg);
  t->cfg = NULL;
  t->driver = NULL;
}

gint64
sl_test_driver_counter (const SlTestDriver *t, const gchar *name)
{
  SlDriver *d = t->driver;
  SlCounter *c = sl_stats_counter (sl_driver_kind_name (d->klass->kind), d->id, d->klass->name, name);
  return sl_counter_get (c);
}

SlMessage *
sl_test_message_new (const gchar *first_name, ...)
{
  SlMessage *msg = sl_message_new ("", 0);
  va_list args;
  va_start (args, first_name);
  for (const gchar *name = first_name; name; name = va_arg (args, const gchar *))
    sl_message_set (msg, sl_field_handle (name), va_arg (args, const gchar *), -1);
  va_end (args);
  return msg;
}

gchar *
sl_test_message_field (const SlMessage *msg, const gchar *name)
{
  gsize len;
  const gchar *value = sl_message_get (msg, sl_field_handle (name), &len);
  return value ? g_strndup (value, len) : NULL;
}
