/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/destinations/riemann/riemann-attributes.h"

#include "core/config/error.h"
#include "core/i18n.h"

#include <jansson.h>
#include <string.h>

/* The event's own fields, which syslog-ng never sends again as attributes. */
static const gchar *const own_fields[] = { "host", "service", "description", "state", "ttl", "metric", "tags", NULL };

/* value-pairs options that take their arguments as format-json's option of that name does */
static const gchar *const plain_options[] = { "scope", "key", "exclude", NULL };
static const gchar *const rekey_options[] = { "shift", "shift-levels", "add-prefix", NULL };

static void
append_quoted (GString *out, const gchar *text)
{
  g_string_append (out, " \"");
  for (const gchar *p = text; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static gboolean
is_one_of (const gchar *name, const gchar *const *names)
{
  for (guint i = 0; names[i]; i++)
    if (sl_cfg_name_equal (name, names[i]))
      return TRUE;
  return FALSE;
}

static gboolean
needs_args (const SlCfgNode *option, guint n, GError **error)
{
  if (option->args->len == n)
    return TRUE;
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, option->pos,
                    _("riemann() attributes(): %s() takes %u argument(s), not %u"), option->name, n,
                    option->args->len);
  return FALSE;
}

static gboolean
append_rekey (GString *call, const SlCfgNode *rekey, GError **error)
{
  if (!needs_args (rekey, 1, error))
    return FALSE;
  g_string_append (call, " --rekey");
  append_quoted (call, sl_cfg_node_arg (rekey, 0));
  for (guint i = 0; rekey->children && i < rekey->children->len; i++)
    {
      const SlCfgNode *t = g_ptr_array_index (rekey->children, i);
      if (sl_cfg_name_equal (t->name, "replace-prefix") || sl_cfg_name_equal (t->name, "replace"))
        {
          if (!needs_args (t, 2, error))
            return FALSE;
          g_autofree gchar *both = g_strconcat (sl_cfg_node_arg (t, 0), "=", sl_cfg_node_arg (t, 1), NULL);
          g_string_append (call, " --replace-prefix");
          append_quoted (call, both);
        }
      else if (is_one_of (t->name, rekey_options))
        {
          if (!needs_args (t, 1, error))
            return FALSE;
          g_string_append_printf (call, " --%s", t->name);
          append_quoted (call, sl_cfg_node_arg (t, 0));
        }
      else
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, t->pos,
                            _("riemann() attributes(): rekey() has no option %s(); it takes shift(), "
                              "shift-levels(), add-prefix() and replace-prefix()"), t->name);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
append_option (GString *call, const SlCfgNode *option, GError **error)
{
  if (is_one_of (option->name, plain_options))
    {
      for (guint i = 0; i < option->args->len; i++)
        {
          g_string_append_printf (call, " --%s", option->name);
          append_quoted (call, sl_cfg_node_arg (option, i));
        }
      return TRUE;
    }
  if (sl_cfg_name_equal (option->name, "rekey"))
    return append_rekey (call, option, error);
  if (sl_cfg_name_equal (option->name, "omit-empty-values"))
    {
      g_string_append (call, " --omit-empty-values");
      return TRUE;
    }
  /* pair(NAME VALUE), or syslog-ng's shorthand NAME(VALUE) */
  gboolean is_pair = sl_cfg_name_equal (option->name, "pair");
  if (!needs_args (option, is_pair ? 2 : 1, error))
    return FALSE;
  g_autofree gchar *pair = g_strconcat (is_pair ? sl_cfg_node_arg (option, 0) : option->name, "=",
                                        sl_cfg_node_arg (option, is_pair ? 1 : 0), NULL);
  g_string_append (call, " --pair");
  append_quoted (call, pair);
  return TRUE;
}

SlTemplate *
riemann_attributes_compile (const SlCfgNode *node, GError **error)
{
  /* names as syslog-ng's value-pairs walk gives them, .SDATA.x with its dot */
  GString *call = g_string_new ("$(format-flat-json --leave-initial-dot");
  gboolean ok = TRUE;
  for (guint i = 0; ok && node->children && i < node->children->len; i++)
    ok = append_option (call, g_ptr_array_index (node->children, i), error);
  for (guint i = 0; ok && own_fields[i]; i++)
    {
      g_string_append (call, " --exclude");
      append_quoted (call, own_fields[i]);
    }
  g_string_append_c (call, ')');
  SlTemplate *t = NULL;
  GError *template_error = NULL;
  if (ok && !(t = sl_template_compile (call->str, &template_error)))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, node->pos, _("riemann() attributes(): %s"),
                        template_error->message);
      g_error_free (template_error);
    }
  g_string_free (call, TRUE);
  return t;
}

static gchar *
value_text (json_t *value)
{
  switch (json_typeof (value))
    {
    case JSON_STRING:
      return g_strndup (json_string_value (value), json_string_length (value));
    case JSON_INTEGER:
      return g_strdup_printf ("%" JSON_INTEGER_FORMAT, json_integer_value (value));
    case JSON_REAL:
      {
        char *dumped = json_dumps (value, JSON_ENCODE_ANY | JSON_REAL_PRECISION (17));
        gchar *text = g_strdup (dumped);
        free (dumped);
        return text;
      }
    case JSON_TRUE:
      return g_strdup ("true");
    case JSON_FALSE:
      return g_strdup ("false");
    default:
      return NULL;
    }
}

static gint
compare_keys (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar *const *) a, *(const gchar *const *) b);
}

/* In the order of their names, as syslog-ng's value-pairs walk gives them. */
gboolean
riemann_attributes_add (riemann_event_t *event, const gchar *json, gsize len)
{
  json_t *root = json_loadb (json, len, JSON_ALLOW_NUL, NULL);
  if (!json_is_object (root))
    {
      json_decref (root);
      return FALSE;
    }
  GPtrArray *keys = g_ptr_array_sized_new (json_object_size (root));
  const gchar *key;
  json_t *value;
  json_object_foreach (root, key, value)
    g_ptr_array_add (keys, (gpointer) key);
  g_ptr_array_sort (keys, compare_keys);
  for (guint i = 0; i < keys->len; i++)
    {
      const gchar *name = g_ptr_array_index (keys, i);
      gchar *text = value_text (json_object_get (root, name));
      if (text)
        riemann_event_string_attribute_add (event, name, text);
      g_free (text);
    }
  g_ptr_array_free (keys, TRUE);
  json_decref (root);
  return TRUE;
}
