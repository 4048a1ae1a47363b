/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Value-pairs as syslog-ng 3.38 selects them: the macros of the scopes
 * (core/message/macros.h lists them), the fields of nv-pairs, dot-nv-pairs and
 * sdata, globs that include (--key) or exclude (--exclude), the last that
 * matches deciding, --pair templates kept even when empty, and --rekey's
 * transformations applied in the order written. What a macro or pair is
 * called is worked out at compile time; what a field is called, on its
 * handle's first sight, and kept per handle without a lock. */
#include "core/message/value-pairs.h"
#include "core/config/syntax-version.h"

#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/macros.h"

#include <string.h>

/* The macro scopes are core/message/macros.h's, which knows the macros of each. */
enum
{
  SCOPE_RFC3164   = SL_MACRO_SCOPE_RFC3164,
  SCOPE_RFC5424   = SL_MACRO_SCOPE_RFC5424,    /* and the .SDATA. fields */
  SCOPE_SELECTED  = SL_MACRO_SCOPE_SELECTED,
  SCOPE_ALL_MACROS = SL_MACRO_SCOPE_ALL,
  SCOPE_NV        = 1 << 4,
  SCOPE_DOT_NV    = 1 << 5,
  SCOPE_SDATA     = 1 << 6,
};

static const struct
{
  const gchar *name;
  guint scopes;
} scope_names[] = {
  { "rfc3164", SCOPE_RFC3164 }, { "core", SCOPE_RFC3164 }, { "base", SCOPE_RFC3164 },
  { "rfc5424", SCOPE_RFC5424 }, { "syslog-proto", SCOPE_RFC5424 }, { "selected-macros", SCOPE_SELECTED },
  { "nv-pairs", SCOPE_NV }, { "dot-nv-pairs", SCOPE_DOT_NV }, { "all-nv-pairs", SCOPE_NV | SCOPE_DOT_NV },
  { "sdata", SCOPE_SDATA }, { "all-macros", SCOPE_ALL_MACROS },
  { "everything", SCOPE_ALL_MACROS | SCOPE_NV | SCOPE_DOT_NV },
};

/* The macros that carry a type in syslog-ng 3.38, given it under --no-cast,
 * and the *UNIXTIME ones, 4.8's datetimes (a 3.x configuration's
 * consumers take a datetime as its text). */
static const struct
{
  const gchar *name;
  SlValueType type;
} typed_macros[] = {
  { "FACILITY_NUM", SL_VALUE_INT32 }, { "SEVERITY_NUM", SL_VALUE_INT32 }, { "LEVEL_NUM", SL_VALUE_INT32 },
  { "SOURCEPORT", SL_VALUE_INT32 }, { "DESTPORT", SL_VALUE_INT32 }, { "PROTO", SL_VALUE_INT32 },
  { "TAGS", SL_VALUE_LIST }, { "UNIXTIME", SL_VALUE_DATETIME }, { "R_UNIXTIME", SL_VALUE_DATETIME },
  { "S_UNIXTIME", SL_VALUE_DATETIME },
};

typedef struct
{
  GPatternSpec *glob;
  gboolean include;
} VpPattern;

typedef enum
{
  TRANSFORM_SHIFT,
  TRANSFORM_SHIFT_LEVELS,
  TRANSFORM_ADD_PREFIX,
  TRANSFORM_REPLACE_PREFIX,
} VpTransformKind;

typedef struct
{
  VpTransformKind kind;
  gsize n;
  gchar *text;          /* the prefix to add, or the one to replace */
  gchar *replacement;
} VpTransform;

/* --rekey GLOB and the transformations that follow it. */
typedef struct
{
  GPatternSpec *glob;   /* NULL: every name */
  GPtrArray *transforms;
} VpRekey;

/* A pair whose name is known at compile time: a macro the scopes or keys
 * select, or a --pair. */
typedef struct
{
  gchar *key;
  SlTemplate *value;    /* NULL: the message's tags */
  gboolean explicit;    /* a --pair: kept even when empty */
  SlValueType type;
} VpFixed;

/* Whether a field goes out and under which name, worked out once per
 * field handle. */
typedef struct
{
  gchar *key;           /* NULL: left out */
} VpDecision;

#define VP_CHUNK 256
#define VP_CHUNKS 1024

struct _SlValuePairs
{
  gchar *owner;
  SlValuePairsFlags flags;
  guint scopes;
  gboolean omit_empty;
  gchar delimiter;
  /* --no-cast, or a syslog-ng 4 configuration's default: macros and
   * fields keep their types; --cast makes every one but a pair's a string */
  gboolean keep_types;
  GPtrArray *patterns;   /* VpPattern, in the order written: the last that matches decides */
  GPtrArray *rekeys;     /* VpRekey */
  GArray *fixed;         /* VpFixed */
  gboolean fields;       /* any field can be selected */
  VpDecision **chunks[VP_CHUNKS];   /* by handle; filled as fields are met */
  guint64 id;            /* never the same for two value-pairs of a process */
};

typedef enum
{
  ORIGIN_PAIR,
  ORIGIN_FIELD,
  ORIGIN_MACRO,
} VpOrigin;

typedef struct
{
  const gchar *key;
  const gchar *value;   /* NULL: the value is in the workspace's text at offset */
  gsize offset;
  gsize len;
  VpOrigin origin;
  SlValueType type;
} VpEntry;

typedef struct
{
  const gchar *key;
  VpOrigin origin;
} VpSortKey;

/* What one walk works with; walks nested in a --pair's value get their own.
 * Most messages of a stream carry the same fields, set in the same order:
 * a walk that collects the same keys as the last one sorted by the same
 * value-pairs puts its entries in the order found then, without comparing
 * their keys again. */
typedef struct
{
  GArray *entries;      /* VpEntry */
  GString *text;        /* rendered macro and pair values */
  GPtrArray *owned;     /* keys of fields past the decision cache */
  GArray *sorted;       /* VpEntry: the entries in order, swapped with entries */
  guint64 sorted_vp;    /* the id of the value-pairs that found the order; 0: none */
  SlValuePairsOrder sorted_order;
  GArray *sorted_keys;  /* VpSortKey: the keys as that walk collected them */
  GArray *permutation;  /* guint: the collected index of each entry in order */
} VpWorkspace;

typedef struct
{
  GPtrArray *workspaces;
  guint depth;
} VpWorkspaces;

static void
workspace_free (gpointer p)
{
  VpWorkspace *w = p;
  g_array_unref (w->entries);
  g_string_free (w->text, TRUE);
  g_ptr_array_unref (w->owned);
  g_array_unref (w->sorted);
  g_array_unref (w->sorted_keys);
  g_array_unref (w->permutation);
  g_free (w);
}

static void
workspaces_free (gpointer p)
{
  VpWorkspaces *ws = p;
  g_ptr_array_unref (ws->workspaces);
  g_free (ws);
}

static GPrivate workspaces_key = G_PRIVATE_INIT (workspaces_free);

static VpWorkspace *
workspace_acquire (void)
{
  VpWorkspaces *ws = g_private_get (&workspaces_key);
  if (!ws)
    {
      ws = g_new0 (VpWorkspaces, 1);
      ws->workspaces = g_ptr_array_new_with_free_func (workspace_free);
      g_private_set (&workspaces_key, ws);
    }
  if (ws->depth == ws->workspaces->len)
    {
      VpWorkspace *w = g_new0 (VpWorkspace, 1);
      w->entries = g_array_new (FALSE, FALSE, sizeof (VpEntry));
      w->text = g_string_sized_new (1024);
      w->owned = g_ptr_array_new_with_free_func (g_free);
      w->sorted = g_array_new (FALSE, FALSE, sizeof (VpEntry));
      w->sorted_keys = g_array_new (FALSE, FALSE, sizeof (VpSortKey));
      w->permutation = g_array_new (FALSE, FALSE, sizeof (guint));
      g_ptr_array_add (ws->workspaces, w);
    }
  VpWorkspace *w = g_ptr_array_index (ws->workspaces, ws->depth++);
  g_array_set_size (w->entries, 0);
  g_string_truncate (w->text, 0);
  g_ptr_array_set_size (w->owned, 0);
  return w;
}

static void
workspace_release (void)
{
  VpWorkspaces *ws = g_private_get (&workspaces_key);
  ws->depth--;
}

/* Names */

static gboolean
included (const SlValuePairs *vp, const gchar *name, gboolean in_scope)
{
  gsize len = strlen (name);
  gboolean in = in_scope;
  for (guint i = 0; i < vp->patterns->len; i++)
    {
      const VpPattern *p = g_ptr_array_index (vp->patterns, i);
      if (g_pattern_spec_match (p->glob, len, name, NULL))
        in = p->include;
    }
  return in;
}

static gchar *
shift_levels (const gchar *name, gsize levels)
{
  const gchar *p = name;
  for (gsize i = 0; i < levels && p; i++)
    {
      p = strchr (p, '.');
      if (p)
        p++;
    }
  return g_strdup (p ? p : "");
}

static gchar *
transform (const VpTransform *t, const gchar *key)
{
  switch (t->kind)
    {
    case TRANSFORM_SHIFT:
      return g_strdup (key + MIN (t->n, strlen (key)));
    case TRANSFORM_SHIFT_LEVELS:
      return shift_levels (key, t->n);
    case TRANSFORM_ADD_PREFIX:
      return g_strconcat (t->text, key, NULL);
    case TRANSFORM_REPLACE_PREFIX:
      if (g_str_has_prefix (key, t->text))
        return g_strconcat (t->replacement, key + strlen (t->text), NULL);
      break;
    }
  return NULL;
}

/* The name a key goes out under, after the --rekey transformations. */
static gchar *
rekey (const SlValuePairs *vp, const gchar *name)
{
  gchar *key = g_strdup (name);
  for (guint i = 0; i < vp->rekeys->len; i++)
    {
      const VpRekey *r = g_ptr_array_index (vp->rekeys, i);
      if (r->glob && !g_pattern_spec_match (r->glob, strlen (key), key, NULL))
        continue;
      for (guint k = 0; k < r->transforms->len; k++)
        {
          gchar *next = transform (g_ptr_array_index (r->transforms, k), key);
          if (next)
            {
              g_free (key);
              key = next;
            }
        }
    }
  /* syslog-ng's last transformation, where the caller makes it */
  if ((vp->flags & SL_VALUE_PAIRS_DOT_UNDERSCORE) && key[0] == '.')
    key[0] = '_';
  return key;
}

/* Compiling */

static void
pattern_free (gpointer p)
{
  g_pattern_spec_free (((VpPattern *) p)->glob);
  g_free (p);
}

static void
transform_free (gpointer p)
{
  VpTransform *t = p;
  g_free (t->text);
  g_free (t->replacement);
  g_free (t);
}

static void
rekey_free (gpointer p)
{
  VpRekey *r = p;
  if (r->glob)
    g_pattern_spec_free (r->glob);
  g_ptr_array_unref (r->transforms);
  g_free (r);
}

static void
fixed_clear (gpointer p)
{
  VpFixed *f = p;
  g_free (f->key);
  if (f->value)
    sl_template_unref (f->value);
}

static void
add_patterns (SlValuePairs *vp, const gchar *list, gboolean include)
{
  gchar **globs = g_strsplit (list, ",", -1);
  for (guint i = 0; globs[i]; i++)
    {
      VpPattern *p = g_new0 (VpPattern, 1);
      p->glob = g_pattern_spec_new (globs[i]);
      p->include = include;
      g_ptr_array_add (vp->patterns, p);
    }
  g_strfreev (globs);
}

static VpRekey *
add_rekey (SlValuePairs *vp, const gchar *glob)
{
  VpRekey *r = g_new0 (VpRekey, 1);
  r->glob = glob ? g_pattern_spec_new (glob) : NULL;
  r->transforms = g_ptr_array_new_with_free_func (transform_free);
  g_ptr_array_add (vp->rekeys, r);
  return r;
}

static gboolean
add_scopes (SlValuePairs *vp, const gchar *list, GError **error)
{
  gchar **words = g_strsplit (list, ",", -1);
  gboolean ok = TRUE;
  for (guint i = 0; words[i] && ok; i++)
    {
      gchar *word = g_strstrip (words[i]);
      if (!*word)
        continue;
      if (sl_cfg_name_equal (word, "none"))
        {
          vp->scopes = 0;
          continue;
        }
      ok = FALSE;
      for (guint k = 0; k < G_N_ELEMENTS (scope_names) && !ok; k++)
        if (sl_cfg_name_equal (word, scope_names[k].name))
          {
            vp->scopes |= scope_names[k].scopes;
            ok = TRUE;
          }
      if (!ok)
        g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                     _("unknown scope '%s' in %s; use rfc3164, rfc5424, selected-macros, nv-pairs, "
                       "dot-nv-pairs, all-nv-pairs, sdata, all-macros, everything or none"), word, vp->owner);
    }
  g_strfreev (words);
  return ok;
}

/* TYPE(TEMPLATE), read as syslog-ng reads it: a name of letters, digits
 * and '_' that starts with a letter or '_', spaces, '(' and a ')' that
 * ends the text; anything else is a template of type string. */
static gchar *
split_type_hint (const SlValuePairs *vp, const gchar *text, SlValueType *type, GError **error)
{
  const gchar *p = text;
  *type = SL_VALUE_STRING;
  while (g_ascii_isalnum (*p) || *p == '_')
    p++;
  gsize name_len = p - text;
  while (*p == ' ' || *p == '\t')
    p++;
  gsize len = strlen (text);
  if (*p != '(' || !(g_ascii_isalpha (text[0]) || text[0] == '_') || text[len - 1] != ')')
    return g_strdup (text);

  if (sl_value_type_from_name (text, name_len, sl_cfg_compiling_version_4 (), type))
    return g_strndup (p + 1, text + len - 1 - (p + 1));
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("unknown type '%.*s' in %s; use string, json, literal, "
                                                         "list, int, int32, int64, double, float, boolean, "
                                                         "datetime or null"), (gint) name_len, text, vp->owner);
  return NULL;
}

static gboolean
add_pair (SlValuePairs *vp, const gchar *text, GError **error)
{
  const gchar *eq = strchr (text, '=');
  if (!eq || eq == text)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("a pair in %s is NAME=VALUE, not '%s'"), vp->owner,
                   text);
      return FALSE;
    }
  SlValueType type;
  gchar *template_text = split_type_hint (vp, eq + 1, &type, error);
  if (!template_text)
    return FALSE;
  SlTemplate *value = sl_template_compile (template_text, error);
  g_free (template_text);
  if (!value)
    return FALSE;
  gchar *name = g_strndup (text, eq - text);
  VpFixed f = { rekey (vp, name), value, TRUE, type };
  g_free (name);
  g_array_append_val (vp->fixed, f);
  return TRUE;
}

static gboolean
add_transform (const SlValuePairs *vp, VpRekey *r, const gchar *option, const gchar *value, GError **error)
{
  VpTransform *t = g_new0 (VpTransform, 1);
  gboolean ok = TRUE;
  gchar *end;

  if (g_str_equal (option, "shift") || g_str_equal (option, "shift-levels"))
    {
      t->kind = g_str_equal (option, "shift") ? TRANSFORM_SHIFT : TRANSFORM_SHIFT_LEVELS;
      t->n = g_ascii_strtoull (value, &end, 10);
      ok = end != value && !*end;
    }
  else if (g_str_equal (option, "add-prefix"))
    {
      t->kind = TRANSFORM_ADD_PREFIX;
      t->text = g_strdup (value);
    }
  else
    {
      const gchar *eq = strchr (value, '=');
      t->kind = TRANSFORM_REPLACE_PREFIX;
      ok = eq && eq != value;
      if (ok)
        {
          t->text = g_strndup (value, eq - value);
          t->replacement = g_strdup (eq + 1);
        }
    }
  if (!ok)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("--%s in %s does not take '%s'"), option, vp->owner,
                   value);
      transform_free (t);
      return FALSE;
    }
  g_ptr_array_add (r->transforms, t);
  return TRUE;
}

/* The macros selected by scopes and patterns, in the order all-macros
 * lists them. */
static void
add_macro (const gchar *name, guint scopes, gpointer user_data)
{
  SlValuePairs *vp = user_data;
  if (!included (vp, name, (vp->scopes & scopes) != 0))
    return;

  gchar *text = g_strdup_printf ("${%s}", name);
  gboolean tags = g_str_equal (name, "TAGS");
  VpFixed f = { rekey (vp, name), tags ? NULL : sl_template_compile (text, NULL), FALSE, SL_VALUE_STRING };
  for (guint i = 0; i < G_N_ELEMENTS (typed_macros) && vp->keep_types; i++)
    if (g_str_equal (name, typed_macros[i].name))
      f.type = typed_macros[i].type;
  g_free (text);
  g_array_append_val (vp->fixed, f);
}

void
sl_value_pairs_free (SlValuePairs *vp)
{
  if (!vp)
    return;
  for (guint c = 0; c < VP_CHUNKS; c++)
    {
      if (!vp->chunks[c])
        continue;
      for (guint i = 0; i < VP_CHUNK; i++)
        if (vp->chunks[c][i])
          {
            g_free (vp->chunks[c][i]->key);
            g_free (vp->chunks[c][i]);
          }
      g_free (vp->chunks[c]);
    }
  g_ptr_array_unref (vp->patterns);
  g_ptr_array_unref (vp->rekeys);
  g_array_unref (vp->fixed);
  g_free (vp->owner);
  g_free (vp);
}

gchar
sl_value_pairs_key_delimiter (const SlValuePairs *vp)
{
  return vp->delimiter;
}

/* The options, long and short, of syslog-ng's value-pairs, and those of
 * format-json that SL_VALUE_PAIRS_JSON_OPTIONS adds. */
static const SlValuePairsOption options[] = {
  { "scope", 's', TRUE }, { "exclude", 'x', TRUE }, { "key", 'k', TRUE }, { "rekey", 'r', TRUE },
  { "pair", 'p', TRUE }, { "shift", 'S', TRUE }, { "shift-levels", 0, TRUE }, { "add-prefix", 'A', TRUE },
  { "replace-prefix", 'R', TRUE }, { "replace", 0, TRUE }, { "subkeys", 0, TRUE },
  { "omit-empty-values", 0, FALSE }, { "cast", 0, FALSE }, { "no-cast", 0, FALSE }, { "auto-cast", 0, FALSE },
  { NULL, 0, FALSE },
};

static const SlValuePairsOption json_options[] = {
  { "leave-initial-dot", 0, FALSE }, { "key-delimiter", 0, TRUE }, { NULL, 0, FALSE },
};

/* arg as an option of table (--name, --name=value, -x): the option, or
 * NULL; *inline_value is what followed a '='. */
static const SlValuePairsOption *
find_option (const SlValuePairsOption *table, const gchar *arg, const gchar **inline_value)
{
  for (guint i = 0; table && table[i].name; i++)
    {
      const SlValuePairsOption *o = &table[i];
      if (arg[1] != '-')
        {
          if (o->short_name && o->short_name == arg[1] && !arg[2])
            return o;
          continue;
        }
      gsize n = strlen (o->name);
      if (strncmp (arg + 2, o->name, n) != 0)
        continue;
      if (!arg[2 + n])
        return o;
      if (arg[2 + n] == '=' && o->takes_value)
        {
          *inline_value = arg + 3 + n;
          return o;
        }
    }
  return NULL;
}

/* What the command line's parsing carries from one word to the next. */
typedef struct
{
  SlValuePairs *vp;
  const SlValuePairsOption *extra;
  SlValuePairsOptionFunc func;
  gpointer user_data;
  VpRekey *rekey_target;
  const gchar *target_glob;
  GPtrArray *pairs;
} VpParse;

/* --key, --rekey and --subkeys: the keys the transformations after them
 * apply to, until --exclude, --pair or --scope. */
static gboolean
parse_target (VpParse *p, const gchar *name, const gchar *value, GError **error)
{
  gboolean subkeys = g_str_equal (name, "subkeys");
  if (subkeys && !*value)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("--subkeys in %s needs a prefix"), p->vp->owner);
      return FALSE;
    }
  gchar *glob = subkeys ? g_strconcat (value, "*", NULL) : g_strdup (value);
  if (!g_str_equal (name, "rekey"))
    add_patterns (p->vp, glob, TRUE);
  p->rekey_target = NULL;
  p->target_glob = g_intern_string (glob);
  g_free (glob);
  if (!subkeys)
    return TRUE;
  p->rekey_target = add_rekey (p->vp, p->target_glob);
  gchar *replace = g_strconcat (value, "=", NULL);
  gboolean ok = add_transform (p->vp, p->rekey_target, "replace-prefix", replace, error);
  g_free (replace);
  return ok;
}

static gboolean
parse_option (VpParse *p, const gchar *arg, const gchar *name, const gchar *value, GError **error)
{
  SlValuePairs *vp = p->vp;
  if (g_str_equal (name, "key") || g_str_equal (name, "rekey") || g_str_equal (name, "subkeys"))
    return parse_target (p, name, value, error);
  if (g_str_equal (name, "scope") || g_str_equal (name, "exclude") || g_str_equal (name, "pair"))
    {
      p->rekey_target = NULL;
      p->target_glob = NULL;
      if (g_str_equal (name, "scope"))
        return add_scopes (vp, value, error);
      if (g_str_equal (name, "exclude"))
        add_patterns (vp, value, FALSE);
      else
        g_ptr_array_add (p->pairs, (gpointer) value);
      return TRUE;
    }
  if (g_str_equal (name, "shift") || g_str_equal (name, "shift-levels") || g_str_equal (name, "add-prefix")
      || g_str_equal (name, "replace-prefix") || g_str_equal (name, "replace"))
    {
      if (!p->target_glob)
        {
          g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("'%s' in %s needs a --key or --rekey before it"),
                       arg, vp->owner);
          return FALSE;
        }
      if (!p->rekey_target)
        p->rekey_target = add_rekey (vp, p->target_glob);
      return add_transform (vp, p->rekey_target, g_str_equal (name, "replace") ? "replace-prefix" : name, value,
                            error);
    }
  if (g_str_equal (name, "omit-empty-values"))
    vp->omit_empty = TRUE;
  else if (g_str_equal (name, "leave-initial-dot"))
    vp->flags &= ~SL_VALUE_PAIRS_DOT_UNDERSCORE;
  else if (g_str_equal (name, "key-delimiter"))
    vp->delimiter = value[0];
  else if (g_str_equal (name, "no-cast"))
    vp->keep_types = TRUE;
  else if (g_str_equal (name, "cast") || g_str_equal (name, "auto-cast"))
    /* strings, as syslog-ng 3.x configurations have them */
    vp->keep_types = FALSE;
  return TRUE;
}

static gboolean
parse_arguments (VpParse *p, gint argc, const gchar *const *argv, GError **error)
{
  SlValuePairs *vp = p->vp;
  for (gint i = 0; i < argc; i++)
    {
      const gchar *arg = argv[i];
      const gchar *value = NULL;
      const SlValuePairsOption *option = NULL;
      gboolean own = TRUE;
      if (arg[0] == '-' && arg[1])
        {
          option = find_option (options, arg, &value);
          if (!option && (vp->flags & SL_VALUE_PAIRS_JSON_OPTIONS))
            option = find_option (json_options, arg, &value);
          if (!option && (option = find_option (p->extra, arg, &value)))
            own = FALSE;
          if (!option)
            {
              g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("unknown option '%s' in %s"), arg, vp->owner);
              return FALSE;
            }
          if (option->takes_value && !value)
            {
              if (i + 1 >= argc)
                {
                  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("'%s' in %s needs a value"), arg,
                               vp->owner);
                  return FALSE;
                }
              value = argv[++i];
            }
        }
      if (!own)
        {
          if (!p->func (option->name, value, p->user_data, error))
            return FALSE;
          continue;
        }
      /* NAME=VALUE is a pair, anything else a key to select */
      const gchar *name = option ? option->name : strchr (arg, '=') ? "pair" : "key";
      if (!parse_option (p, arg, name, option ? value : arg, error))
        return FALSE;
    }
  return TRUE;
}

SlValuePairs *
sl_value_pairs_new (gint argc, const gchar *const *argv, const gchar *owner, SlValuePairsFlags flags,
                    const SlValuePairsOption *extra, SlValuePairsOptionFunc func, gpointer user_data,
                    GError **error)
{
  static guint64 last_id;
  SlValuePairs *vp = g_new0 (SlValuePairs, 1);
  vp->id = __atomic_add_fetch (&last_id, 1, __ATOMIC_RELAXED);
  vp->owner = g_strdup (owner);
  vp->flags = flags;
  vp->delimiter = '.';
  vp->keep_types = sl_cfg_compiling_version_4 ();
  vp->patterns = g_ptr_array_new_with_free_func (pattern_free);
  vp->rekeys = g_ptr_array_new_with_free_func (rekey_free);
  vp->fixed = g_array_new (FALSE, TRUE, sizeof (VpFixed));
  g_array_set_clear_func (vp->fixed, fixed_clear);

  VpParse p = { vp, extra, func, user_data, NULL, NULL, g_ptr_array_new () };
  gboolean ok = parse_arguments (&p, argc, argv, error);
  if (vp->delimiter != '.')
    vp->flags &= ~SL_VALUE_PAIRS_DOT_UNDERSCORE;
  /* pairs are named after the transformations are known */
  for (guint i = 0; i < p.pairs->len && ok; i++)
    ok = add_pair (vp, g_ptr_array_index (p.pairs, i), error);
  g_ptr_array_unref (p.pairs);
  if (!ok)
    {
      sl_value_pairs_free (vp);
      return NULL;
    }
  sl_macro_foreach (add_macro, vp);
  /* syslog-ng keeps the source's name as the name-value pair SOURCE; in
   * Sluice it is a macro that all-macros does not list */
  add_macro ("SOURCE", SCOPE_NV, vp);
  vp->fields = (vp->scopes & (SCOPE_NV | SCOPE_DOT_NV | SCOPE_SDATA | SCOPE_RFC5424)) != 0;
  for (guint i = 0; i < vp->patterns->len; i++)
    vp->fields |= ((VpPattern *) g_ptr_array_index (vp->patterns, i))->include;
  return vp;
}

/* Walking */

static gchar *
field_key (const SlValuePairs *vp, SlHandle h)
{
  const gchar *name = sl_field_name (h);
  if (!name)
    return NULL;
  gboolean dot = name[0] == '.';
  /* SOURCEIP is a macro in syslog-ng, not a name-value pair */
  gboolean in_scope = h != SL_F_SOURCEIP
                      && (((vp->scopes & SCOPE_NV) && !dot) || ((vp->scopes & SCOPE_DOT_NV) && dot)
                          || ((vp->scopes & (SCOPE_SDATA | SCOPE_RFC5424)) && g_str_has_prefix (name, ".SDATA.")));
  return included (vp, name, in_scope) ? rekey (vp, name) : NULL;
}

/* The key field h goes out under, or NULL; worked out on first sight and
 * kept, with no lock: racing threads find the same answer and one of them
 * keeps its copy. */
static const gchar *
decide (SlValuePairs *vp, SlHandle h, VpWorkspace *w)
{
  guint c = h / VP_CHUNK;
  if (c >= VP_CHUNKS)
    {
      gchar *key = field_key (vp, h);
      if (key)
        g_ptr_array_add (w->owned, key);
      return key;
    }

  VpDecision **chunk = g_atomic_pointer_get (&vp->chunks[c]);
  if (!chunk)
    {
      VpDecision **fresh = g_new0 (VpDecision *, VP_CHUNK);
      if (!g_atomic_pointer_compare_and_exchange (&vp->chunks[c], NULL, fresh))
        g_free (fresh);
      chunk = g_atomic_pointer_get (&vp->chunks[c]);
    }
  VpDecision *d = g_atomic_pointer_get (&chunk[h % VP_CHUNK]);
  if (!d)
    {
      VpDecision *fresh = g_new0 (VpDecision, 1);
      fresh->key = field_key (vp, h);
      if (!g_atomic_pointer_compare_and_exchange (&chunk[h % VP_CHUNK], NULL, fresh))
        {
          g_free (fresh->key);
          g_free (fresh);
        }
      d = g_atomic_pointer_get (&chunk[h % VP_CHUNK]);
    }
  return d->key;
}

/* 1 when the field goes into the walk as *slot, 0 when it does not. */
static guint
collect_field (SlValuePairs *vp, VpWorkspace *w, VpEntry *slot, SlHandle h, const gchar *value, gsize len,
               SlValueType type)
{
  if (!len && vp->omit_empty)
    return 0;
  const gchar *key = decide (vp, h, w);
  if (!key)
    return 0;
  *slot = (VpEntry) { key, value, 0, len, ORIGIN_FIELD, vp->keep_types ? type : SL_VALUE_STRING };
  return 1;
}

static void
collect (SlValuePairs *vp, VpWorkspace *w, const SlMessage *msg, const SlTemplateEnv *env)
{
  /* room for every entry the walk can have, so that adding one is a store */
  guint most = vp->fixed->len + (vp->fields ? SL_F_BUILTIN_MAX - (SL_F_NONE + 1) + msg->n_fields : 0);
  g_array_set_size (w->entries, most);
  VpEntry *entries = (VpEntry *) w->entries->data;
  guint n = 0;
  for (guint i = 0; i < vp->fixed->len; i++)
    {
      const VpFixed *f = &g_array_index (vp->fixed, VpFixed, i);
      gsize start = w->text->len;
      if (f->value)
        sl_template_append (f->value, msg, env, w->text);
      else
        sl_message_append_tags (msg, w->text);
      gsize len = w->text->len - start;
      if (!len && (!f->explicit || vp->omit_empty))
        continue;
      entries[n++] = (VpEntry) { f->key, NULL, start, len, f->explicit ? ORIGIN_PAIR : ORIGIN_MACRO, f->type };
    }

  if (vp->fields)
    {
      for (SlHandle h = SL_F_NONE + 1; h < SL_F_BUILTIN_MAX; h++)
        {
          gsize len;
          SlValueType type;
          const gchar *value = sl_message_get_typed (msg, h, &len, &type);
          if (value)
            n += collect_field (vp, w, &entries[n], h, value, len, type);
        }
      /* the dynamic fields with their types, without looking each up again */
      for (guint32 i = 0; i < msg->n_fields; i++)
        {
          const SlValue *v = &msg->fields[i];
          n += collect_field (vp, w, &entries[n], v->handle, v->ptr, v->ptr ? v->len : 0,
                              v->ptr ? v->type : SL_VALUE_STRING);
        }
    }
  g_array_set_size (w->entries, n);
}

/* By key; of entries with one key, a --pair first, then a field, then a
 * macro, so that the first of each key is the one handed out. */
static gint
entry_compare_descending (gconstpointer a, gconstpointer b)
{
  const VpEntry *x = a;
  const VpEntry *y = b;
  gint c = strcmp (y->key, x->key);
  return c ? c : (gint) x->origin - (gint) y->origin;
}

static gint
entry_compare_ascending (gconstpointer a, gconstpointer b)
{
  const VpEntry *x = a;
  const VpEntry *y = b;
  gint c = strcmp (x->key, y->key);
  return c ? c : (gint) x->origin - (gint) y->origin;
}

typedef struct
{
  const VpEntry *entries;
  GCompareFunc compare;
} VpSortBy;

static gint
compare_indexes (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const VpSortBy *by = user_data;
  return by->compare (&by->entries[*(const guint *) a], &by->entries[*(const guint *) b]);
}

static gboolean
same_keys_as_sorted (const VpWorkspace *w)
{
  if (w->entries->len != w->sorted_keys->len)
    return FALSE;
  for (guint i = 0; i < w->entries->len; i++)
    {
      const VpEntry *e = &g_array_index (w->entries, VpEntry, i);
      const VpSortKey *k = &g_array_index (w->sorted_keys, VpSortKey, i);
      if (e->key != k->key || e->origin != k->origin)
        return FALSE;
    }
  return TRUE;
}

/* The entries in order, by a stable sort as g_array_sort()'s. */
static void
sort_entries (const SlValuePairs *vp, VpWorkspace *w, SlValuePairsOrder order)
{
  guint n = w->entries->len;
  if (n < 2)
    return;
  /* a key made for this walk alone may have the address of another
   * walk's; the decision cache's live as long as their value-pairs */
  gboolean cacheable = !w->owned->len;
  if (!cacheable || w->sorted_vp != vp->id || w->sorted_order != order || !same_keys_as_sorted (w))
    {
      g_array_set_size (w->permutation, n);
      guint *index = (guint *) w->permutation->data;
      for (guint i = 0; i < n; i++)
        index[i] = i;
      VpSortBy by = { (const VpEntry *) w->entries->data,
                      order == SL_VALUE_PAIRS_DESCENDING ? entry_compare_descending : entry_compare_ascending };
      g_qsort_with_data (index, n, sizeof (guint), compare_indexes, &by);
      w->sorted_vp = 0;
      if (cacheable)
        {
          g_array_set_size (w->sorted_keys, n);
          for (guint i = 0; i < n; i++)
            {
              const VpEntry *e = &g_array_index (w->entries, VpEntry, i);
              g_array_index (w->sorted_keys, VpSortKey, i) = (VpSortKey) { e->key, e->origin };
            }
          w->sorted_vp = vp->id;
          w->sorted_order = order;
        }
    }
  g_array_set_size (w->sorted, n);
  const guint *index = (const guint *) w->permutation->data;
  for (guint i = 0; i < n; i++)
    g_array_index (w->sorted, VpEntry, i) = g_array_index (w->entries, VpEntry, index[i]);
  GArray *entries = w->entries;
  w->entries = w->sorted;
  w->sorted = entries;
}

gboolean
sl_value_pairs_foreach (SlValuePairs *vp, const SlMessage *msg, const SlTemplateEnv *env, SlValuePairsOrder order,
                        SlValuePairFunc func, gpointer user_data)
{
  VpWorkspace *w = workspace_acquire ();
  collect (vp, w, msg, env);
  sort_entries (vp, w, order);
  gboolean ok = TRUE;
  const gchar *previous = NULL;
  for (guint i = 0; i < w->entries->len && ok; i++)
    {
      const VpEntry *e = &g_array_index (w->entries, VpEntry, i);
      if (previous && strcmp (previous, e->key) == 0)
        continue;
      previous = e->key;
      ok = func (e->key, e->type, e->value ? e->value : w->text->str + e->offset, e->len, user_data);
    }
  workspace_release ();
  return ok;
}

/* A value-pairs() block, read into the command line's words */

static void
add_words (GPtrArray *argv, const gchar *option, const gchar *value)
{
  g_ptr_array_add (argv, g_strdup (option));
  g_ptr_array_add (argv, g_strdup (value));
}

static gboolean
n_args_is (const SlCfgNode *node, guint n, const gchar *owner, GError **error)
{
  if (node->args->len == n)
    return TRUE;
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, node->pos, _("%s: %s() takes %u arguments, not %u"), owner,
                    node->name, n, node->args->len);
  return FALSE;
}

/* rekey("glob" add-prefix("p") replace-prefix("old" "new") shift(N) shift-levels(N)) */
static gboolean
block_rekey (GPtrArray *argv, const SlCfgNode *node, const gchar *owner, GError **error)
{
  if (!n_args_is (node, 1, owner, error))
    return FALSE;
  add_words (argv, "--rekey", sl_cfg_node_arg (node, 0));
  for (guint i = 0; node->children && i < node->children->len; i++)
    {
      const SlCfgNode *t = g_ptr_array_index (node->children, i);
      if (sl_cfg_name_equal (t->name, "replace-prefix") || sl_cfg_name_equal (t->name, "replace"))
        {
          if (!n_args_is (t, 2, owner, error))
            return FALSE;
          gchar *both = g_strconcat (sl_cfg_node_arg (t, 0), "=", sl_cfg_node_arg (t, 1), NULL);
          add_words (argv, "--replace-prefix", both);
          g_free (both);
        }
      else if (sl_cfg_name_equal (t->name, "add-prefix") || sl_cfg_name_equal (t->name, "shift")
               || sl_cfg_name_equal (t->name, "shift-levels"))
        {
          if (!n_args_is (t, 1, owner, error))
            return FALSE;
          gchar *name = sl_cfg_name_normalize (t->name);
          gchar *option = g_strconcat ("--", name, NULL);
          add_words (argv, option, sl_cfg_node_arg (t, 0));
          g_free (option);
          g_free (name);
        }
      else
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, t->pos,
                            _("%s: rekey() has no %s(); it takes add-prefix(), replace-prefix(), shift() and "
                              "shift-levels()"), owner, t->name);
          return FALSE;
        }
    }
  return TRUE;
}

/* A bare number as syslog-ng types it in a template option: an integer
 * is an int64, digits with a fraction a float; any other word text. */
static const gchar *
word_type (const SlCfgArg *a)
{
  if (a->kind != SL_CFG_ARG_WORD)
    return "string";
  const gchar *p = a->value + (a->value[0] == '-' || a->value[0] == '+');
  gsize digits = strspn (p, "0123456789");
  if (digits && !p[digits])
    return "int64";
  const gchar *fraction = p + digits + 1;
  if (digits && p[digits] == '.' && *fraction && !fraction[strspn (fraction, "0123456789")])
    return "float";
  return "string";
}

/* The value of a pair() as --pair reads it, TYPE(TEMPLATE): a type hint
 * as written (int("7")), a bare number typed, any other value in string(),
 * since syslog-ng's block reads no type out of a template's text
 * (pair("n" "int(9)") is the text int(9)). NULL when the value is none of
 * them: no value, more than one. */
static gchar *
pair_value (const SlCfgNode *node, const SlCfgArg *value)
{
  guint n_children = node->children ? node->children->len : 0;
  if (!value && n_children == 1)
    {
      const SlCfgNode *hint = g_ptr_array_index (node->children, 0);
      if (hint->args && hint->args->len == 1 && !(hint->children && hint->children->len) && !hint->has_body
          && !((const SlCfgArg *) g_ptr_array_index (hint->args, 0))->key)
        return g_strdup_printf ("%s(%s)", hint->name, sl_cfg_node_arg (hint, 0));
    }
  if (!value || n_children)
    return NULL;
  return g_strdup_printf ("%s(%s)", word_type (value), value->value);
}

/* pair("name" "template"), pair("name" int("template")), pair("name" 42),
 * pair("name" => "template"), or with SL_VALUE_PAIRS_NAMED_PAIRS
 * name("template") */
static gboolean
block_pair (GPtrArray *argv, const SlCfgNode *node, gboolean named, const gchar *owner, GError **error)
{
  guint n_args = node->args->len;
  const SlCfgArg *first = n_args ? g_ptr_array_index (node->args, 0) : NULL;
  const gchar *name = NULL;
  const SlCfgArg *value = NULL;
  if (named)
    {
      name = node->name;
      value = n_args == 1 ? first : NULL;
    }
  else if (first && first->key)
    {
      name = first->key;
      value = n_args == 1 ? first : NULL;
    }
  else if (first)
    {
      name = first->value;
      value = n_args == 2 ? g_ptr_array_index (node->args, 1) : NULL;
    }
  gchar *text = name ? pair_value (node, value) : NULL;
  if (!text && named)
    sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, node->pos,
                      _("%s: %s() takes one template, as in %s(\"$HOST\") or %s(int(\"$PID\"))"), owner,
                      node->name, node->name, node->name);
  else if (!text)
    sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, node->pos,
                      _("%s: pair() takes a name and one template, as in pair(\"n\" \"$HOST\") or "
                        "pair(\"n\" int(\"$PID\"))"), owner);
  if (!text)
    return FALSE;
  gchar *pair = g_strconcat (name, "=", text, NULL);
  add_words (argv, "--pair", pair);
  g_free (pair);
  g_free (text);
  return TRUE;
}

static gboolean
block_option (GPtrArray *argv, const SlCfgNode *node, const gchar *owner, SlValuePairsFlags flags, GError **error)
{
  static const gchar *const listed[] = { "scope", "key", "exclude" };
  for (guint k = 0; k < G_N_ELEMENTS (listed); k++)
    if (sl_cfg_name_equal (node->name, listed[k]))
      {
        gchar *option = g_strconcat ("--", listed[k], NULL);
        for (guint i = 0; i < node->args->len; i++)
          add_words (argv, option, sl_cfg_node_arg (node, i));
        g_free (option);
        return TRUE;
      }
  if (sl_cfg_name_equal (node->name, "omit-empty-values"))
    {
      g_ptr_array_add (argv, g_strdup ("--omit-empty-values"));
      return TRUE;
    }
  if (sl_cfg_name_equal (node->name, "pair"))
    return block_pair (argv, node, FALSE, owner, error);
  if (sl_cfg_name_equal (node->name, "rekey"))
    return block_rekey (argv, node, owner, error);
  if (flags & SL_VALUE_PAIRS_NAMED_PAIRS)
    return block_pair (argv, node, TRUE, owner, error);
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, node->pos,
                    _("%s has no %s(); it takes scope(), key(), exclude(), pair(), rekey() and omit-empty-values()"),
                    owner, node->name);
  return FALSE;
}

SlValuePairs *
sl_value_pairs_new_from_block (const SlCfgNode *block, SlCfgPos driver_pos, const gchar *owner,
                               SlValuePairsFlags flags, const gchar *const *more, GError **error)
{
  static const gchar *const default_scopes[] = { "selected-macros", "nv-pairs", "sdata" };
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  gboolean ok = TRUE;
  for (guint i = 0; !block && i < G_N_ELEMENTS (default_scopes); i++)
    add_words (argv, "--scope", default_scopes[i]);
  for (guint i = 0; ok && block && block->children && i < block->children->len; i++)
    ok = block_option (argv, g_ptr_array_index (block->children, i), owner, flags, error);
  for (guint i = 0; ok && more && more[i]; i++)
    g_ptr_array_add (argv, g_strdup (more[i]));

  SlValuePairs *vp = NULL;
  GError *vp_error = NULL;
  if (ok && !(vp = sl_value_pairs_new (argv->len, (const gchar *const *) argv->pdata, owner, flags, NULL, NULL,
                                       NULL, &vp_error)))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, block ? block->pos : driver_pos, "%s", vp_error->message);
      g_error_free (vp_error);
    }
  g_ptr_array_unref (argv);
  return vp;
}
