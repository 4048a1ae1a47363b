#include "core/options.h"
#include "core/config/error.h"
#include "core/i18n.h"

#include <errno.h>
#include <string.h>

typedef struct
{
  const SlOptionSpec *spec;
  const SlCfgNode *node;   /* where it was written, or NULL for the default */
  SlCfgPos pos;
  gboolean set;            /* written in this driver's block */
  gchar *str;
  gint64 num;
  guint32 flags;
  GPtrArray *list;
} Entry;

struct _SlOptions
{
  gchar *owner;
  const SlCfgNode *node;
  GHashTable *entries;     /* normalized name -> Entry */
};

static void
entry_free (gpointer p)
{
  Entry *e = p;
  g_free (e->str);
  if (e->list)
    g_ptr_array_unref (e->list);
  g_free (e);
}

static const SlOptionSpec *
find_spec (const SlOptionSpec *specs, const gchar *name)
{
  for (const SlOptionSpec *s = specs; s && s->name; s++)
    if (sl_cfg_name_equal (s->name, name))
      return s;
  return NULL;
}

static void
set_unknown_option_error (GError **error, const gchar *owner, const SlOptionSpec *specs,
                          const SlCfgNode *child)
{
  GPtrArray *names = g_ptr_array_new ();
  for (const SlOptionSpec *s = specs; s && s->name; s++)
    g_ptr_array_add (names, (gpointer) s->name);
  gchar *normal = sl_cfg_name_normalize (child->name);
  const gchar *near = sl_cfg_suggest (normal, (const gchar *const *) names->pdata, names->len);
  if (near)
    sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, child->pos,
                      _("unknown option '%s' in %s; did you mean '%s'?"), child->name, owner, near);
  else if (names->len)
    {
      g_ptr_array_add (names, NULL);
      gchar *all = g_strjoinv (", ", (gchar **) names->pdata);
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, child->pos,
                        _("unknown option '%s' in %s; it takes: %s"), child->name, owner, all);
      g_free (all);
    }
  else
    sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, child->pos,
                      _("unknown option '%s' in %s; it takes no options"), child->name, owner);
  g_free (normal);
  g_ptr_array_unref (names);
}

static gboolean
parse_int (const gchar *text, gint64 *out)
{
  gchar *end;
  errno = 0;
  gint64 v = g_ascii_strtoll (text, &end, 0);
  if (end == text || errno)
    return FALSE;
  gint64 unit = 1;
  switch (g_ascii_toupper (*end))
    {
    case 'K': unit = 1024; end++; break;
    case 'M': unit = 1024 * 1024; end++; break;
    case 'G': unit = 1024 * 1024 * 1024; end++; break;
    default: break;
    }
  if (unit > 1 && (g_ascii_strcasecmp (end, "b") == 0 || g_ascii_strcasecmp (end, "ib") == 0))
    end += strlen (end);
  if (*end)
    return FALSE;
  *out = v * unit;
  return TRUE;
}

static gboolean
parse_bool (const gchar *text, gint64 *out)
{
  static const gchar *const yes[] = { "yes", "on", "true", "1" };
  static const gchar *const no[] = { "no", "off", "false", "0" };
  for (guint i = 0; i < G_N_ELEMENTS (yes); i++)
    {
      if (g_ascii_strcasecmp (text, yes[i]) == 0)
        return *out = 1, TRUE;
      if (g_ascii_strcasecmp (text, no[i]) == 0)
        return *out = 0, TRUE;
    }
  return FALSE;
}

static gboolean
parse_flag (const SlOptionSpec *spec, const gchar *word, guint32 *flags)
{
  gchar **choices = g_strsplit (spec->choices ? spec->choices : "", ",", -1);
  gboolean found = FALSE;
  for (guint i = 0; choices[i]; i++)
    if (sl_cfg_name_equal (g_strstrip (choices[i]), word))
      {
        *flags |= 1u << i;
        found = TRUE;
      }
  g_strfreev (choices);
  return found;
}

/* Converts the written values into the entry; values are the arguments of
 * the option node (or the positional ones), as SlCfgArg. */
static gboolean
entry_parse (Entry *e, const gchar *owner, GPtrArray *args, SlCfgPos pos, GError **error)
{
  const SlOptionSpec *spec = e->spec;
  guint n = args ? args->len : 0;

  switch (spec->type)
    {
    case SL_OPT_BLOCK:
      return TRUE;
    case SL_OPT_LIST:
    case SL_OPT_FLAGS:
      e->list = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < n; i++)
        {
          SlCfgArg *a = g_ptr_array_index (args, i);
          if (spec->type == SL_OPT_FLAGS && !parse_flag (spec, a->value, &e->flags))
            {
              sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, a->pos,
                                _("unknown flag '%s' in %s(); expected any of: %s"),
                                a->value, spec->name, spec->choices);
              return FALSE;
            }
          g_ptr_array_add (e->list, g_strdup (a->value));
        }
      return TRUE;
    default:
      break;
    }

  if (n != 1)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_TYPE, pos,
                        _("option '%s' of %s takes one value, got %u"), spec->name, owner, n);
      return FALSE;
    }
  SlCfgArg *a = g_ptr_array_index (args, 0);
  e->str = g_strdup (a->value);
  if (spec->type == SL_OPT_INT && !parse_int (a->value, &e->num))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_TYPE, a->pos,
                        _("option '%s' of %s expects a number, got '%s'"), spec->name, owner, a->value);
      return FALSE;
    }
  if (spec->type == SL_OPT_BOOL && !parse_bool (a->value, &e->num))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_TYPE, a->pos,
                        _("option '%s' of %s expects yes or no, got '%s'"), spec->name, owner, a->value);
      return FALSE;
    }
  return TRUE;
}

static gboolean
entry_parse_default (Entry *e, const gchar *owner)
{
  if (!e->spec->def)
    return TRUE;
  GPtrArray *args = g_ptr_array_new_with_free_func (NULL);
  SlCfgArg arg = { SL_CFG_ARG_WORD, (gchar *) e->spec->def, { "<built-in default>", 0, 0 } };
  gchar **words = NULL;
  SlCfgArg *word_args = NULL;
  if (e->spec->type == SL_OPT_LIST || e->spec->type == SL_OPT_FLAGS)
    {
      words = g_strsplit (e->spec->def, ",", -1);
      word_args = g_new0 (SlCfgArg, g_strv_length (words));
      for (guint i = 0; words[i]; i++)
        {
          word_args[i] = arg;
          word_args[i].value = g_strstrip (words[i]);
          if (*words[i])
            g_ptr_array_add (args, &word_args[i]);
        }
    }
  else
    g_ptr_array_add (args, &arg);
  gboolean ok = entry_parse (e, owner, args, arg.pos, NULL);
  g_ptr_array_unref (args);
  g_strfreev (words);
  g_free (word_args);
  g_warn_if_fail (ok);
  return ok;
}

static gboolean
check_node (const gchar *owner, const SlOptionSpec *specs, const SlCfgNode *node,
            GHashTable *entries, GError **error)
{
  const SlOptionSpec *positional = NULL;
  for (const SlOptionSpec *s = specs; s && s->name; s++)
    if (s->positional)
      positional = s;

  if (node->args && node->args->len)
    {
      if (!positional)
        {
          SlCfgArg *a = g_ptr_array_index (node->args, 0);
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, a->pos,
                            _("%s takes no bare value; '%s' needs an option name, like name(value)"),
                            owner, a->value);
          return FALSE;
        }
      if (positional->type != SL_OPT_LIST && positional->type != SL_OPT_FLAGS && node->args->len > 1)
        {
          SlCfgArg *a = g_ptr_array_index (node->args, 1);
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, a->pos,
                            _("%s takes one bare value, '%s' is one too many"), owner, a->value);
          return FALSE;
        }
      Entry *e = g_new0 (Entry, 1);
      e->spec = positional;
      e->node = node;
      e->set = TRUE;
      e->pos = ((SlCfgArg *) g_ptr_array_index (node->args, 0))->pos;
      g_hash_table_replace (entries, sl_cfg_name_normalize (positional->name), e);
      if (!entry_parse (e, owner, node->args, e->pos, error))
        return FALSE;
    }

  for (guint i = 0; node->children && i < node->children->len; i++)
    {
      const SlCfgNode *child = g_ptr_array_index (node->children, i);
      const SlOptionSpec *spec = find_spec (specs, child->name);
      if (!spec)
        {
          set_unknown_option_error (error, owner, specs, child);
          return FALSE;
        }
      if (spec->type != SL_OPT_BLOCK && child->children && child->children->len)
        {
          const SlCfgNode *inner = g_ptr_array_index (child->children, 0);
          sl_cfg_error_set (error, SL_CFG_ERROR_TYPE, inner->pos,
                            _("option '%s' of %s takes a value, not '%s(...)'"),
                            spec->name, owner, inner->name);
          return FALSE;
        }
      Entry *e = g_new0 (Entry, 1);
      e->spec = spec;
      e->node = child;
      e->pos = child->pos;
      e->set = TRUE;
      g_hash_table_replace (entries, sl_cfg_name_normalize (spec->name), e);
      if (!entry_parse (e, owner, child->args, child->pos, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
sl_options_check (const gchar *owner, const SlOptionSpec *specs, const SlCfgNode *node,
                  GError **error)
{
  GHashTable *entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, entry_free);
  gboolean ok = check_node (owner, specs, node, entries, error);
  g_hash_table_unref (entries);
  return ok;
}

SlOptions *
sl_options_new (const gchar *owner, const SlOptionSpec *specs, const SlCfgNode *node,
                const SlCfgNode *globals, GError **error)
{
  SlOptions *o = g_new0 (SlOptions, 1);
  o->owner = g_strdup (owner);
  o->node = node;
  o->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, entry_free);

  if (!check_node (owner, specs, node, o->entries, error))
    {
      sl_options_free (o);
      return NULL;
    }
  for (const SlOptionSpec *s = specs; s && s->name; s++)
    {
      gchar *key = sl_cfg_name_normalize (s->name);
      if (g_hash_table_contains (o->entries, key))
        {
          g_free (key);
          continue;
        }
      Entry *e = g_new0 (Entry, 1);
      e->spec = s;
      g_hash_table_replace (o->entries, key, e);
      /* An option the driver leaves out takes the value of the same name
       * in options {}, as in syslog-ng. */
      const SlCfgNode *global = globals ? sl_cfg_node_child (globals, s->name) : NULL;
      if (global && s->type != SL_OPT_BLOCK)
        {
          e->node = global;
          e->pos = global->pos;
          if (!entry_parse (e, "options", global->args, global->pos, error))
            {
              sl_options_free (o);
              return NULL;
            }
        }
      else
        entry_parse_default (e, owner);
    }
  return o;
}

void
sl_options_free (SlOptions *o)
{
  if (!o)
    return;
  g_hash_table_unref (o->entries);
  g_free (o->owner);
  g_free (o);
}

static const Entry *
lookup (const SlOptions *o, const gchar *name)
{
  gchar *key = sl_cfg_name_normalize (name);
  const Entry *e = g_hash_table_lookup (o->entries, key);
  g_free (key);
  if (!e)
    g_critical ("%s: option '%s' is not in its table", o->owner, name);
  return e;
}

gboolean
sl_options_has (const SlOptions *o, const gchar *name)
{
  gchar *key = sl_cfg_name_normalize (name);
  gboolean has = g_hash_table_contains (o->entries, key);
  g_free (key);
  return has;
}

const SlCfgNode *
sl_options_node (const SlOptions *o)
{
  return o->node;
}

gboolean
sl_options_is_set (const SlOptions *o, const gchar *name)
{
  const Entry *e = lookup (o, name);
  return e && e->node;
}

const gchar *
sl_options_string (const SlOptions *o, const gchar *name)
{
  const Entry *e = lookup (o, name);
  return e ? e->str : NULL;
}

gint64
sl_options_int (const SlOptions *o, const gchar *name)
{
  const Entry *e = lookup (o, name);
  return e ? e->num : 0;
}

gboolean
sl_options_bool (const SlOptions *o, const gchar *name)
{
  const Entry *e = lookup (o, name);
  return e ? e->num != 0 : FALSE;
}

guint32
sl_options_flags (const SlOptions *o, const gchar *name)
{
  const Entry *e = lookup (o, name);
  return e ? e->flags : 0;
}

GPtrArray *
sl_options_list (const SlOptions *o, const gchar *name)
{
  const Entry *e = lookup (o, name);
  return e ? e->list : NULL;
}

const SlCfgNode *
sl_options_block (const SlOptions *o, const gchar *name)
{
  const Entry *e = lookup (o, name);
  return e ? e->node : NULL;
}

SlCfgPos
sl_options_pos (const SlOptions *o, const gchar *name)
{
  const Entry *e = lookup (o, name);
  if (e && e->node)
    return e->pos;
  return o->node ? o->node->pos : (SlCfgPos) { "", 0, 0 };
}
