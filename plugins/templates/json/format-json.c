/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(format-json ...) and $(format-flat-json ...): name-value pairs of a
 * message as a JSON object; $(format-welf) and $(format-cef-extension),
 * written by kv-formats.c, the same pairs as WELF or as a CEF extension
 * (keys ascending, WELF's "id" first, no leading-dot rewrite; a CEF key
 * that is not letters and digits empties the output, as in syslog-ng).
 * All are selected with syslog-ng's value-pairs command
 * line: --scope, --key, --exclude, --pair (or NAME=VALUE), --rekey with
 * --shift, --shift-levels, --add-prefix and --replace-prefix, --subkeys,
 * --omit-empty-values, --leave-initial-dot, --key-delimiter, --cast,
 * --no-cast and --auto-cast, and type hints on pairs (n=int($PID)).
 * As syslog-ng 3.38 writes them: keys in descending byte order, a leading
 * dot made '_' (.SDATA.a.b is _SDATA.a.b), format-json nesting at dots
 * ({"a":{"b":..}} for a.b, an SD-ID's @32473.1 kept whole) the way its
 * walker does, format-flat-json not nesting. A value that does not cast to
 * its type hint empties the whole output, as syslog-ng's default
 * on-error(drop-message) does. Over a correlation context, one object per
 * message. The output is valid JSON whatever bytes the message holds:
 * control characters are escaped, and a byte that is not part of valid
 * UTF-8 is written as the text \xHH.
 *
 * Written by hand rather than through jansson: it runs for every message a
 * destination writes, and builds no tree. */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/macros.h"
#include "core/plugin/plugin.h"
#include "core/message/scratch.h"
#include "core/message/template.h"
#include "core/message/text-append.h"
#include "core/message/list-text.h"
#include "plugins/templates/json/kv-formats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
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

typedef struct
{
  GPatternSpec *glob;
  gboolean include;
} FjPattern;

/* How a value is written: syslog-ng's type hints. */
typedef enum
{
  TYPE_STRING,
  TYPE_JSON,      /* json(), literal(): as it is */
  TYPE_LIST,      /* list(): a syslog-ng list as an array of strings */
  TYPE_INT32,
  TYPE_INT64,
  TYPE_DOUBLE,
  TYPE_BOOLEAN,
  TYPE_NULL,
} FjType;

static const struct
{
  const gchar *name;
  FjType type;
} type_names[] = {
  { "string", TYPE_STRING }, { "datetime", TYPE_STRING }, { "json", TYPE_JSON }, { "literal", TYPE_JSON },
  { "list", TYPE_LIST }, { "int", TYPE_INT32 }, { "int32", TYPE_INT32 }, { "int64", TYPE_INT64 },
  { "double", TYPE_DOUBLE }, { "float", TYPE_DOUBLE }, { "boolean", TYPE_BOOLEAN }, { "null", TYPE_NULL },
};

/* The macros that carry a type in syslog-ng 3.38, written with it under
 * --no-cast. */
static const struct
{
  const gchar *name;
  FjType type;
} typed_macros[] = {
  { "FACILITY_NUM", TYPE_INT32 }, { "SEVERITY_NUM", TYPE_INT32 }, { "LEVEL_NUM", TYPE_INT32 },
  { "SOURCEPORT", TYPE_INT32 }, { "DESTPORT", TYPE_INT32 }, { "PROTO", TYPE_INT32 }, { "TAGS", TYPE_LIST },
};

typedef enum
{
  TRANSFORM_SHIFT,
  TRANSFORM_SHIFT_LEVELS,
  TRANSFORM_ADD_PREFIX,
  TRANSFORM_REPLACE_PREFIX,
} FjTransformKind;

typedef struct
{
  FjTransformKind kind;
  gsize n;
  gchar *text;          /* the prefix to add, or the one to replace */
  gchar *replacement;
} FjTransform;

/* --rekey GLOB and the transformations that follow it. */
typedef struct
{
  GPatternSpec *glob;   /* NULL: every name */
  GPtrArray *transforms;
} FjRekey;

/* A pair whose name is known when the template is compiled: a macro the
 * scopes or keys select, or a --pair. */
typedef struct
{
  gchar *key;
  SlTemplate *value;    /* NULL: the message's tags */
  gboolean explicit;    /* a --pair: kept even when empty */
  FjType type;
} FjFixed;

/* Whether a field goes out and under which name, worked out once per
 * field handle. */
typedef struct
{
  gchar *key;           /* NULL: left out */
} FjDecision;

#define FJ_CHUNK 256
#define FJ_CHUNKS 1024

typedef enum
{
  FORMAT_JSON,
  FORMAT_FLAT_JSON,
  FORMAT_WELF,
  FORMAT_CEF,
  FORMAT_GRAPHITE,
} FjFormat;

typedef struct
{
  FjFormat format;
  guint scopes;
  gboolean omit_empty;
  gboolean leave_initial_dot;
  gchar delimiter;       /* where format-json nests: --key-delimiter, '.' by default */
  gboolean typed_macros; /* --no-cast */
  SlTemplate *timestamp; /* graphite-output's --timestamp, $R_UNIXTIME by default */
  GPtrArray *patterns;   /* FjPattern, in the order written: the last that matches decides */
  GPtrArray *rekeys;     /* FjRekey */
  GArray *fixed;         /* FjFixed */
  gboolean fields;       /* any field can be selected */
  FjDecision **chunks[FJ_CHUNKS];   /* by handle; filled as fields are met */
} FormatJson;

typedef enum
{
  ORIGIN_PAIR,
  ORIGIN_FIELD,
  ORIGIN_MACRO,
} FjOrigin;

typedef struct
{
  const gchar *key;
  const gchar *value;   /* NULL: the value is in the workspace's text at offset */
  gsize offset;
  gsize len;
  FjOrigin origin;
  FjType type;
} FjEntry;

typedef struct
{
  const gchar *name;
  gsize len;
} FjSegment;

/* An open object's prefix: its parts joined by '.', which with the '.'
 * delimiter is the start of the key that opened it (ptr; keys outlive the
 * object), else text in prefixes at offset. */
typedef struct
{
  const gchar *ptr;
  gsize offset;
  gsize len;
} FjLevel;

/* What one call works with; calls nested in a --pair value get their own. */
typedef struct
{
  GArray *entries;      /* FjEntry */
  GString *text;        /* rendered macro and pair values */
  GPtrArray *owned;     /* keys of fields past the decision cache */
  /* Plain arrays, grown by doubling and kept: nesting runs for every key
   * of every message. */
  FjLevel *open;      /* the objects open while nesting */
  guint n_open, open_size;
  GString *prefixes;    /* their prefixes under a --key-delimiter other than '.' */
  FjSegment *tokens;  /* the parts of the key being written */
  guint n_tokens, tokens_size;
  GArray *pairs;        /* KvPair: what format-welf and format-cef-extension write */
} FjWorkspace;

typedef struct
{
  GPtrArray *workspaces;
  guint depth;
} FjWorkspaces;

static void
workspace_free (gpointer p)
{
  FjWorkspace *w = p;
  g_array_unref (w->entries);
  g_string_free (w->text, TRUE);
  g_ptr_array_unref (w->owned);
  g_free (w->open);
  g_string_free (w->prefixes, TRUE);
  g_free (w->tokens);
  g_array_unref (w->pairs);
  g_free (w);
}

static void
workspaces_free (gpointer p)
{
  FjWorkspaces *ws = p;
  g_ptr_array_unref (ws->workspaces);
  g_free (ws);
}

static GPrivate workspaces_key = G_PRIVATE_INIT (workspaces_free);

static FjWorkspace *
workspace_acquire (void)
{
  FjWorkspaces *ws = g_private_get (&workspaces_key);
  if (!ws)
    {
      ws = g_new0 (FjWorkspaces, 1);
      ws->workspaces = g_ptr_array_new_with_free_func (workspace_free);
      g_private_set (&workspaces_key, ws);
    }
  if (ws->depth == ws->workspaces->len)
    {
      FjWorkspace *w = g_new0 (FjWorkspace, 1);
      w->entries = g_array_new (FALSE, FALSE, sizeof (FjEntry));
      w->text = g_string_sized_new (1024);
      w->owned = g_ptr_array_new_with_free_func (g_free);
      w->prefixes = g_string_sized_new (256);
      w->pairs = g_array_new (FALSE, FALSE, sizeof (KvPair));
      g_ptr_array_add (ws->workspaces, w);
    }
  FjWorkspace *w = g_ptr_array_index (ws->workspaces, ws->depth++);
  g_array_set_size (w->entries, 0);
  g_string_truncate (w->text, 0);
  g_ptr_array_set_size (w->owned, 0);
  w->n_open = 0;
  g_string_truncate (w->prefixes, 0);
  return w;
}

static void
workspace_release (void)
{
  FjWorkspaces *ws = g_private_get (&workspaces_key);
  ws->depth--;
}

/* Names */

static gboolean
included (const FormatJson *fj, const gchar *name, gboolean in_scope)
{
  gsize len = strlen (name);
  gboolean in = in_scope;
  for (guint i = 0; i < fj->patterns->len; i++)
    {
      const FjPattern *p = g_ptr_array_index (fj->patterns, i);
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

/* The name a key goes out under, after the --rekey transformations. */
static gchar *
rekey (const FormatJson *fj, const gchar *name)
{
  gchar *key = g_strdup (name);
  for (guint i = 0; i < fj->rekeys->len; i++)
    {
      const FjRekey *r = g_ptr_array_index (fj->rekeys, i);
      if (r->glob && !g_pattern_spec_match (r->glob, strlen (key), key, NULL))
        continue;
      for (guint k = 0; k < r->transforms->len; k++)
        {
          const FjTransform *t = g_ptr_array_index (r->transforms, k);
          gchar *next = NULL;
          switch (t->kind)
            {
            case TRANSFORM_SHIFT:
              next = g_strdup (key + MIN (t->n, strlen (key)));
              break;
            case TRANSFORM_SHIFT_LEVELS:
              next = shift_levels (key, t->n);
              break;
            case TRANSFORM_ADD_PREFIX:
              next = g_strconcat (t->text, key, NULL);
              break;
            case TRANSFORM_REPLACE_PREFIX:
              if (g_str_has_prefix (key, t->text))
                next = g_strconcat (t->replacement, key + strlen (t->text), NULL);
              break;
            }
          if (next)
            {
              g_free (key);
              key = next;
            }
        }
    }
  /* syslog-ng's last transformation, unless told otherwise (graphite-output
   * always makes it) */
  if (((fj->format == FORMAT_JSON || fj->format == FORMAT_FLAT_JSON) && !fj->leave_initial_dot
       && fj->delimiter == '.' && key[0] == '.')
      || (fj->format == FORMAT_GRAPHITE && key[0] == '.'))
    key[0] = '_';
  return key;
}

/* Options */

static void
pattern_free (gpointer p)
{
  g_pattern_spec_free (((FjPattern *) p)->glob);
  g_free (p);
}

static void
transform_free (gpointer p)
{
  FjTransform *t = p;
  g_free (t->text);
  g_free (t->replacement);
  g_free (t);
}

static void
rekey_free (gpointer p)
{
  FjRekey *r = p;
  if (r->glob)
    g_pattern_spec_free (r->glob);
  g_ptr_array_unref (r->transforms);
  g_free (r);
}

static void
fixed_clear (gpointer p)
{
  FjFixed *f = p;
  g_free (f->key);
  sl_template_unref (f->value);
}

static void
add_pattern (FormatJson *fj, const gchar *glob, gboolean include)
{
  FjPattern *p = g_new0 (FjPattern, 1);
  p->glob = g_pattern_spec_new (glob);
  p->include = include;
  g_ptr_array_add (fj->patterns, p);
}

static FjRekey *
add_rekey (FormatJson *fj, const gchar *glob)
{
  FjRekey *r = g_new0 (FjRekey, 1);
  r->glob = glob ? g_pattern_spec_new (glob) : NULL;
  r->transforms = g_ptr_array_new_with_free_func (transform_free);
  g_ptr_array_add (fj->rekeys, r);
  return r;
}

static gboolean
add_scopes (FormatJson *fj, const gchar *list, GError **error)
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
          fj->scopes = 0;
          continue;
        }
      ok = FALSE;
      for (guint k = 0; k < G_N_ELEMENTS (scope_names) && !ok; k++)
        if (sl_cfg_name_equal (word, scope_names[k].name))
          {
            fj->scopes |= scope_names[k].scopes;
            ok = TRUE;
          }
      if (!ok)
        g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                     _("unknown scope '%s' in $(format-json); use rfc3164, rfc5424, selected-macros, nv-pairs, "
                       "dot-nv-pairs, all-nv-pairs, sdata, all-macros, everything or none"), word);
    }
  g_strfreev (words);
  return ok;
}

/* TYPE(TEMPLATE), read as syslog-ng reads it: a name of letters, digits
 * and '_' that starts with a letter or '_', spaces, '(' and a ')' that
 * ends the text; anything else is a template of type string. */
static gchar *
split_type_hint (const gchar *text, FjType *type, GError **error)
{
  const gchar *p = text;
  *type = TYPE_STRING;
  while (g_ascii_isalnum (*p) || *p == '_')
    p++;
  gsize name_len = p - text;
  while (*p == ' ' || *p == '\t')
    p++;
  gsize len = strlen (text);
  if (*p != '(' || !(g_ascii_isalpha (text[0]) || text[0] == '_') || text[len - 1] != ')')
    return g_strdup (text);

  for (guint i = 0; i < G_N_ELEMENTS (type_names); i++)
    if (strlen (type_names[i].name) == name_len && strncmp (text, type_names[i].name, name_len) == 0)
      {
        *type = type_names[i].type;
        return g_strndup (p + 1, text + len - 1 - (p + 1));
      }
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("unknown type '%.*s' in $(format-json); use string, "
                                                         "json, literal, list, int, int32, int64, double, float, "
                                                         "boolean, datetime or null"), (gint) name_len, text);
  return NULL;
}

static gboolean
add_pair (FormatJson *fj, const gchar *text, GError **error)
{
  const gchar *eq = strchr (text, '=');
  if (!eq || eq == text)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                   _("a pair in $(format-json) is NAME=VALUE, not '%s'"), text);
      return FALSE;
    }
  FjType type;
  gchar *template_text = split_type_hint (eq + 1, &type, error);
  if (!template_text)
    return FALSE;
  SlTemplate *value = sl_template_compile (template_text, error);
  g_free (template_text);
  if (!value)
    return FALSE;
  gchar *name = g_strndup (text, eq - text);
  FjFixed f = { rekey (fj, name), value, TRUE, type };
  g_free (name);
  g_array_append_val (fj->fixed, f);
  return TRUE;
}

static gboolean
add_transform (FjRekey *r, const gchar *option, const gchar *value, GError **error)
{
  FjTransform *t = g_new0 (FjTransform, 1);
  gboolean ok = TRUE;
  gchar *end;

  if (g_str_equal (option, "--shift") || g_str_equal (option, "--shift-levels"))
    {
      t->kind = g_str_equal (option, "--shift") ? TRANSFORM_SHIFT : TRANSFORM_SHIFT_LEVELS;
      t->n = g_ascii_strtoull (value, &end, 10);
      ok = end != value && !*end;
    }
  else if (g_str_equal (option, "--add-prefix"))
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
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                   _("%s in $(format-json) does not take '%s'"), option, value);
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
  FormatJson *fj = user_data;
  if (!included (fj, name, (fj->scopes & scopes) != 0))
    return;

  gchar *text = g_strdup_printf ("${%s}", name);
  gboolean tags = g_str_equal (name, "TAGS");
  FjFixed f = { rekey (fj, name), tags ? NULL : sl_template_compile (text, NULL), FALSE, TYPE_STRING };
  for (guint i = 0; i < G_N_ELEMENTS (typed_macros) && fj->typed_macros; i++)
    if (g_str_equal (name, typed_macros[i].name))
      f.type = typed_macros[i].type;
  g_free (text);
  g_array_append_val (fj->fixed, f);
}

static void
format_json_free (gpointer state)
{
  FormatJson *fj = state;
  for (guint c = 0; c < FJ_CHUNKS; c++)
    {
      if (!fj->chunks[c])
        continue;
      for (guint i = 0; i < FJ_CHUNK; i++)
        if (fj->chunks[c][i])
          {
            g_free (fj->chunks[c][i]->key);
            g_free (fj->chunks[c][i]);
          }
      g_free (fj->chunks[c]);
    }
  g_ptr_array_unref (fj->patterns);
  g_ptr_array_unref (fj->rekeys);
  g_array_unref (fj->fixed);
  if (fj->timestamp)
    sl_template_unref (fj->timestamp);
  g_free (fj);
}

/* The options, long and short, of syslog-ng's value-pairs and of its
 * $(format-json). */
static const struct
{
  const gchar *name;
  gchar short_name;
  gboolean takes_value;
} options[] = {
  { "scope", 's', TRUE }, { "exclude", 'x', TRUE }, { "key", 'k', TRUE }, { "rekey", 'r', TRUE },
  { "pair", 'p', TRUE }, { "shift", 'S', TRUE }, { "shift-levels", 0, TRUE }, { "add-prefix", 'A', TRUE },
  { "replace-prefix", 'R', TRUE }, { "replace", 0, TRUE }, { "subkeys", 0, TRUE },
  { "omit-empty-values", 0, FALSE }, { "cast", 0, FALSE }, { "no-cast", 0, FALSE }, { "auto-cast", 0, FALSE },
  { "leave-initial-dot", 0, FALSE }, { "key-delimiter", 0, TRUE }, { "timestamp", 't', TRUE },
};

/* The option arg names (--name, --name=value, -x): its long name, "" for
 * an unknown one, NULL for a word that is not an option; *inline_value is
 * what followed a '='. */
static const gchar *
option_name (const gchar *arg, const gchar **inline_value, gboolean *takes_value)
{
  *inline_value = NULL;
  if (arg[0] != '-' || !arg[1])
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      *takes_value = options[i].takes_value;
      if (arg[1] != '-')
        {
          if (options[i].short_name == arg[1] && !arg[2])
            return options[i].name;
          continue;
        }
      gsize n = strlen (options[i].name);
      if (strncmp (arg + 2, options[i].name, n) != 0)
        continue;
      if (!arg[2 + n])
        return options[i].name;
      if (arg[2 + n] == '=' && options[i].takes_value)
        {
          *inline_value = arg + 3 + n;
          return options[i].name;
        }
    }
  return "";
}

static void
add_patterns (FormatJson *fj, const gchar *list, gboolean include)
{
  gchar **globs = g_strsplit (list, ",", -1);
  for (guint i = 0; globs[i]; i++)
    add_pattern (fj, globs[i], include);
  g_strfreev (globs);
}

/* As syslog-ng's command line: --key, --rekey and --subkeys name the keys
 * the transformations after them apply to, until --exclude, --pair or
 * --scope; a transformation with no such key is an error. */
static gboolean
parse_arguments (FormatJson *fj, const SlTfCall *call, GError **error)
{
  FjRekey *rekey_target = NULL;
  const gchar *target_glob = NULL;
  GPtrArray *pairs = g_ptr_array_new ();
  gboolean ok = TRUE;

  for (gint i = 0; i < call->argc && ok; i++)
    {
      const gchar *arg = call->args[i];
      const gchar *value;
      gboolean takes_value = FALSE;
      const gchar *name = option_name (arg, &value, &takes_value);

      if (name && (g_str_equal (name, "leave-initial-dot") || g_str_equal (name, "key-delimiter"))
          && fj->format != FORMAT_JSON && fj->format != FORMAT_FLAT_JSON)
        name = "";
      if (name && g_str_equal (name, "timestamp") && fj->format != FORMAT_GRAPHITE)
        name = "";
      if (name && !*name)
        {
          g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("unknown option '%s' in $(%s)"),
                       arg, call->klass->name);
          ok = FALSE;
          break;
        }
      if (!name)
        {
          /* NAME=VALUE is a pair, anything else a key to select */
          name = strchr (arg, '=') ? "pair" : "key";
          value = arg;
        }
      else if (takes_value && !value)
        {
          if (i + 1 >= call->argc)
            {
              g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("'%s' in $(%s) needs a value"),
                           arg, call->klass->name);
              ok = FALSE;
              break;
            }
          value = call->args[++i];
        }

      if (g_str_equal (name, "key") || g_str_equal (name, "rekey") || g_str_equal (name, "subkeys"))
        {
          if (g_str_equal (name, "subkeys") && !*value)
            {
              g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("--subkeys in $(%s) needs a prefix"),
                           call->klass->name);
              ok = FALSE;
              break;
            }
          gchar *glob = g_str_equal (name, "subkeys") ? g_strconcat (value, "*", NULL) : g_strdup (value);
          if (!g_str_equal (name, "rekey"))
            add_patterns (fj, glob, TRUE);
          rekey_target = NULL;
          target_glob = g_intern_string (glob);
          g_free (glob);
          if (g_str_equal (name, "subkeys"))
            {
              rekey_target = add_rekey (fj, target_glob);
              gchar *replace = g_strconcat (value, "=", NULL);
              ok = add_transform (rekey_target, "--replace-prefix", replace, error);
              g_free (replace);
            }
        }
      else if (g_str_equal (name, "scope") || g_str_equal (name, "exclude") || g_str_equal (name, "pair"))
        {
          rekey_target = NULL;
          target_glob = NULL;
          if (g_str_equal (name, "scope"))
            ok = add_scopes (fj, value, error);
          else if (g_str_equal (name, "exclude"))
            add_patterns (fj, value, FALSE);
          else
            g_ptr_array_add (pairs, (gpointer) value);
        }
      else if (g_str_equal (name, "shift") || g_str_equal (name, "shift-levels") || g_str_equal (name, "add-prefix")
               || g_str_equal (name, "replace-prefix") || g_str_equal (name, "replace"))
        {
          if (!target_glob)
            {
              g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("'%s' in $(%s) needs a --key or --rekey before it"),
                           arg, call->klass->name);
              ok = FALSE;
              break;
            }
          if (!rekey_target)
            rekey_target = add_rekey (fj, target_glob);
          gchar *option = g_strconcat ("--", g_str_equal (name, "replace") ? "replace-prefix" : name, NULL);
          ok = add_transform (rekey_target, option, value, error);
          g_free (option);
        }
      else if (g_str_equal (name, "omit-empty-values"))
        fj->omit_empty = TRUE;
      else if (g_str_equal (name, "leave-initial-dot"))
        fj->leave_initial_dot = TRUE;
      else if (g_str_equal (name, "key-delimiter"))
        fj->delimiter = value[0];
      else if (g_str_equal (name, "no-cast"))
        fj->typed_macros = TRUE;
      else if (g_str_equal (name, "cast") || g_str_equal (name, "auto-cast"))
        /* strings, as syslog-ng 3.x configurations have them */
        fj->typed_macros = FALSE;
      else if (g_str_equal (name, "timestamp"))
        {
          if (fj->timestamp)
            sl_template_unref (fj->timestamp);
          ok = (fj->timestamp = sl_template_compile (value, error)) != NULL;
        }
    }
  /* pairs are named after the transformations are known */
  for (guint i = 0; i < pairs->len && ok; i++)
    ok = add_pair (fj, g_ptr_array_index (pairs, i), error);
  g_ptr_array_unref (pairs);
  return ok;
}

static gboolean
prepare (SlTfCall *call, FjFormat format, GError **error)
{
  FormatJson *fj = g_new0 (FormatJson, 1);
  fj->format = format;
  fj->delimiter = '.';
  fj->patterns = g_ptr_array_new_with_free_func (pattern_free);
  fj->rekeys = g_ptr_array_new_with_free_func (rekey_free);
  fj->fixed = g_array_new (FALSE, TRUE, sizeof (FjFixed));
  g_array_set_clear_func (fj->fixed, fixed_clear);
  call->state = fj;

  if (!parse_arguments (fj, call, error))
    return FALSE;
  sl_macro_foreach (add_macro, fj);
  /* syslog-ng keeps the source's name as the name-value pair SOURCE; in
   * Sluice it is a macro that all-macros does not list */
  add_macro ("SOURCE", SCOPE_NV, fj);
  fj->fields = (fj->scopes & (SCOPE_NV | SCOPE_DOT_NV | SCOPE_SDATA | SCOPE_RFC5424)) != 0;
  for (guint i = 0; i < fj->patterns->len; i++)
    fj->fields |= ((FjPattern *) g_ptr_array_index (fj->patterns, i))->include;
  return TRUE;
}

static gboolean
format_json_prepare (SlTfCall *call, GError **error)
{
  return prepare (call, FORMAT_JSON, error);
}

static gboolean
format_flat_json_prepare (SlTfCall *call, GError **error)
{
  return prepare (call, FORMAT_FLAT_JSON, error);
}

static gboolean
format_welf_prepare (SlTfCall *call, GError **error)
{
  return prepare (call, FORMAT_WELF, error);
}

static gboolean
format_cef_prepare (SlTfCall *call, GError **error)
{
  return prepare (call, FORMAT_CEF, error);
}

static gboolean
graphite_output_prepare (SlTfCall *call, GError **error)
{
  if (!prepare (call, FORMAT_GRAPHITE, error))
    return FALSE;
  FormatJson *fj = call->state;
  if (!fj->timestamp)
    fj->timestamp = sl_template_compile ("$R_UNIXTIME", error);
  return fj->timestamp != NULL;
}

/* Selecting fields */

static gchar *
field_key (const FormatJson *fj, SlHandle h)
{
  const gchar *name = sl_field_name (h);
  if (!name)
    return NULL;
  gboolean dot = name[0] == '.';
  /* SOURCEIP is a macro in syslog-ng, not a name-value pair */
  gboolean in_scope = h != SL_F_SOURCEIP
                      && (((fj->scopes & SCOPE_NV) && !dot) || ((fj->scopes & SCOPE_DOT_NV) && dot)
                          || ((fj->scopes & (SCOPE_SDATA | SCOPE_RFC5424)) && g_str_has_prefix (name, ".SDATA.")));
  return included (fj, name, in_scope) ? rekey (fj, name) : NULL;
}

/* The key field h goes out under, or NULL; worked out on first sight and
 * kept, with no lock: racing threads find the same answer and one of them
 * keeps its copy. */
static const gchar *
decide (FormatJson *fj, SlHandle h, FjWorkspace *w)
{
  guint c = h / FJ_CHUNK;
  if (c >= FJ_CHUNKS)
    {
      gchar *key = field_key (fj, h);
      if (key)
        g_ptr_array_add (w->owned, key);
      return key;
    }

  FjDecision **chunk = g_atomic_pointer_get (&fj->chunks[c]);
  if (!chunk)
    {
      FjDecision **fresh = g_new0 (FjDecision *, FJ_CHUNK);
      if (!g_atomic_pointer_compare_and_exchange (&fj->chunks[c], NULL, fresh))
        g_free (fresh);
      chunk = g_atomic_pointer_get (&fj->chunks[c]);
    }
  FjDecision *d = g_atomic_pointer_get (&chunk[h % FJ_CHUNK]);
  if (!d)
    {
      FjDecision *fresh = g_new0 (FjDecision, 1);
      fresh->key = field_key (fj, h);
      if (!g_atomic_pointer_compare_and_exchange (&chunk[h % FJ_CHUNK], NULL, fresh))
        {
          g_free (fresh->key);
          g_free (fresh);
        }
      d = g_atomic_pointer_get (&chunk[h % FJ_CHUNK]);
    }
  return d->key;
}

typedef struct
{
  FormatJson *fj;
  FjWorkspace *w;
} FjCollect;

static gboolean
collect_field (SlHandle h, const gchar *value, gsize len, gpointer user_data)
{
  FjCollect *c = user_data;
  if (!len && c->fj->omit_empty)
    return TRUE;
  const gchar *key = decide (c->fj, h, c->w);
  if (key)
    {
      FjEntry e = { key, value, 0, len, ORIGIN_FIELD, TYPE_STRING };
      g_array_append_val (c->w->entries, e);
    }
  return TRUE;
}

static void
collect (FormatJson *fj, FjWorkspace *w, const SlMessage *msg, const SlTemplateEnv *env)
{
  for (guint i = 0; i < fj->fixed->len; i++)
    {
      const FjFixed *f = &g_array_index (fj->fixed, FjFixed, i);
      gsize start = w->text->len;
      if (f->value)
        sl_template_append (f->value, msg, env, w->text);
      else
        sl_message_append_tags (msg, w->text);
      gsize len = w->text->len - start;
      if (!len && (!f->explicit || fj->omit_empty))
        continue;
      FjEntry e = { f->key, NULL, start, len, f->explicit ? ORIGIN_PAIR : ORIGIN_MACRO, f->type };
      g_array_append_val (w->entries, e);
    }

  if (!fj->fields)
    return;
  FjCollect c = { fj, w };
  for (SlHandle h = SL_F_NONE + 1; h < SL_F_BUILTIN_MAX; h++)
    {
      gsize len;
      const gchar *value = sl_message_get (msg, h, &len);
      if (value)
        collect_field (h, value, len, &c);
    }
  sl_message_foreach_dynamic (msg, collect_field, &c);
}

/* By key, descending as syslog-ng walks them; of pairs with one key, a
 * --pair first, then a field, then a macro, so that the first of each key
 * is the one written. */
static gint
entry_compare (gconstpointer a, gconstpointer b)
{
  const FjEntry *x = a;
  const FjEntry *y = b;
  gint c = strcmp (y->key, x->key);
  return c ? c : (gint) x->origin - (gint) y->origin;
}

/* Ascending, as format-cef-extension and format-welf walk them; WELF's
 * "id" first. */
static gint
entry_compare_ascending (gconstpointer a, gconstpointer b)
{
  return -entry_compare (a, b);
}

static gint
entry_compare_welf (gconstpointer a, gconstpointer b)
{
  const FjEntry *x = a;
  const FjEntry *y = b;
  gboolean x_id = strcmp (x->key, "id") == 0;
  gboolean y_id = strcmp (y->key, "id") == 0;
  if (x_id != y_id)
    return x_id ? -1 : 1;
  gint c = strcmp (x->key, y->key);
  return c ? c : (gint) x->origin - (gint) y->origin;
}

/* Writing JSON */

/* The bytes append_escaped() looks at: one load per byte of the common
 * text instead of four comparisons, on the hottest loop of a JSON line. */
static const guint8 needs_care[256] = {
  [0x00 ... 0x1f] = 1, ['"'] = 1, ['\\'] = 1, [0x80 ... 0xff] = 1,
};

static void
append_escaped (GString *out, const gchar *text, gsize len)
{
  static const gchar hex[] = "0123456789abcdef";
  gsize run = 0;

  for (gsize i = 0; i < len;)
    {
      guchar c = (guchar) text[i];
      if (G_LIKELY (!needs_care[c]))
        {
          i++;
          continue;
        }
      sl_text_append (out, text + run, i - run);
      if (c >= 0x80)
        {
          gunichar u = g_utf8_get_char_validated (text + i, len - i);
          if (u != (gunichar) -1 && u != (gunichar) -2)
            {
              gsize n = g_utf8_next_char (text + i) - (text + i);
              sl_text_append (out, text + i, n);
              i += n;
            }
          else
            {
              /* not UTF-8: the byte as the text \xHH */
              gchar escaped[] = { '\\', '\\', 'x', hex[c >> 4], hex[c & 15] };
              sl_text_append (out, escaped, sizeof escaped);
              i++;
            }
          run = i;
          continue;
        }
      switch (c)
        {
        case '"': sl_text_append (out, "\\\"", 2); break;
        case '\\': sl_text_append (out, "\\\\", 2); break;
        case '\b': sl_text_append (out, "\\b", 2); break;
        case '\f': sl_text_append (out, "\\f", 2); break;
        case '\n': sl_text_append (out, "\\n", 2); break;
        case '\r': sl_text_append (out, "\\r", 2); break;
        case '\t': sl_text_append (out, "\\t", 2); break;
        default:
          {
            gchar escaped[] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
            sl_text_append (out, escaped, sizeof escaped);
          }
        }
      i++;
      run = i;
    }
  sl_text_append (out, text + run, len - run);
}

static void
append_string (GString *out, const gchar *text, gsize len)
{
  g_string_append_c (out, '"');
  append_escaped (out, text, len);
  g_string_append_c (out, '"');
}

/* The parts of key as syslog-ng's value-pairs walker cuts it: at the
 * delimiter, where a part never starts empty; with '.', an SD-ID's
 * "@32473.1.2" stays in its part. */
static void
add_token (FjWorkspace *w, const gchar *start, gsize len)
{
  if (w->n_tokens == w->tokens_size)
    {
      w->tokens_size = MAX (16, w->tokens_size * 2);
      w->tokens = g_renew (FjSegment, w->tokens, w->tokens_size);
    }
  w->tokens[w->n_tokens++] = (FjSegment) { start, len };
}

static void
split_key (FjWorkspace *w, const gchar *key, gchar delimiter)
{
  const gchar *start = key;
  const gchar *end = key;

  w->n_tokens = 0;
  while (*end)
    {
      if (*end == delimiter && start != end)
        {
          add_token (w, start, end - start);
          start = ++end;
        }
      else if (delimiter != '.')
        {
          const gchar *next = strchr (end + 1, delimiter);
          end = next ? next : end + strlen (end);
        }
      else if (*end == '@')
        do
          {
            end++;
            end += strspn (end, "0123456789");
          }
        while (*end == '.' && g_ascii_isdigit (end[1]));
      else
        {
          end++;
          end += strcspn (end, "@.");
        }
    }
  if (start != end)
    add_token (w, start, end - start);
}

static const gchar *
level_prefix (const FjWorkspace *w, const FjLevel *level)
{
  return level->ptr ? level->ptr : w->prefixes->str + level->offset;
}

/* Opens the object of token t of the key: its prefix is the key up to the
 * end of that token when the delimiter is '.'. */
static void
open_level (FjWorkspace *w, const FormatJson *fj, const gchar *key, guint t)
{
  if (w->n_open == w->open_size)
    {
      w->open_size = MAX (16, w->open_size * 2);
      w->open = g_renew (FjLevel, w->open, w->open_size);
    }
  FjLevel *level = &w->open[w->n_open++];
  const FjSegment *part = &w->tokens[t];
  if (fj->delimiter == '.')
    {
      *level = (FjLevel) { key, 0, part->name + part->len - key };
      return;
    }
  *level = (FjLevel) { NULL, w->prefixes->len, 0 };
  for (guint k = 0; k <= t; k++)
    {
      if (k)
        g_string_append_c (w->prefixes, '.');
      g_string_append_len (w->prefixes, w->tokens[k].name, w->tokens[k].len);
    }
  level->len = w->prefixes->len - level->offset;
}

static void
list_item (const gchar *item, gsize len, gpointer user_data)
{
  GString *out = user_data;
  append_string (out, item, len);
  g_string_append_c (out, ',');
}

/* A value as its type has it; FALSE when it does not cast. */
static gboolean
append_typed (GString *out, FjType type, const gchar *value, gsize len)
{
  if (type == TYPE_STRING)
    {
      append_string (out, value, len);
      return TRUE;
    }
  if (type == TYPE_JSON)
    {
      sl_text_append (out, value, len);
      return TRUE;
    }
  if (type == TYPE_NULL)
    {
      g_string_append (out, "null");
      return TRUE;
    }
  if (type == TYPE_LIST)
    {
      g_string_append_c (out, '[');
      sl_list_text_foreach (value, len, list_item, out);
      if (out->str[out->len - 1] == ',')
        g_string_truncate (out, out->len - 1);
      g_string_append_c (out, ']');
      return TRUE;
    }

  gchar *text = g_strndup (value, len);
  gchar *end = text;
  gboolean ok;
  errno = 0;
  switch (type)
    {
    case TYPE_INT32:
      (void) strtol (text, &end, 10);
      ok = *text && !*end;
      break;
    case TYPE_INT64:
      (void) strtoll (text, &end, 10);
      ok = *text && !*end;
      break;
    case TYPE_DOUBLE:
      {
        gdouble d = strtod (text, &end);
        ok = end != text && !*end && !(errno == ERANGE && (d >= HUGE_VAL || d <= -HUGE_VAL));
      }
      break;
    default:
      ok = strchr ("Tt1Ff0", text[0]) && text[0];
      if (ok)
        {
          g_free (text);
          g_string_append (out, strchr ("Tt1", value[0]) ? "true" : "false");
          return TRUE;
        }
      break;
    }
  g_free (text);
  if (ok)
    append_escaped (out, value, len);
  return ok;
}

/* One object, nested at the delimiter as syslog-ng's walker nests: an
 * object stays open while the next key starts with its prefix (a byte
 * prefix: "a" stays open for "ab"), and the parts of the key past the
 * open objects open new ones. */
static gboolean
append_object (const FormatJson *fj, FjWorkspace *w, GString *out)
{
  gboolean comma = FALSE;
  const gchar *previous = NULL;

  g_string_append_c (out, '{');
  for (guint i = 0; i < w->entries->len; i++)
    {
      const FjEntry *e = &g_array_index (w->entries, FjEntry, i);
      if (previous && strcmp (previous, e->key) == 0)
        continue;
      previous = e->key;
      FjSegment name = { e->key, strlen (e->key) };

      if (fj->format == FORMAT_JSON)
        {
          while (w->n_open)
            {
              const FjLevel *top = &w->open[w->n_open - 1];
              if (strncmp (e->key, level_prefix (w, top), top->len) == 0)
                break;
              if (!top->ptr)
                g_string_truncate (w->prefixes, top->offset);
              w->n_open--;
              g_string_append_c (out, '}');
              comma = TRUE;
            }
          split_key (w, e->key, fj->delimiter);
          if (!w->n_tokens)
            continue;
          for (guint t = w->n_open; t + 1 < w->n_tokens; t++)
            {
              open_level (w, fj, e->key, t);
              if (comma)
                g_string_append_c (out, ',');
              append_string (out, w->tokens[t].name, w->tokens[t].len);
              g_string_append (out, ":{");
              comma = FALSE;
            }
          name = w->tokens[w->n_tokens - 1];
        }

      if (comma)
        g_string_append_c (out, ',');
      comma = TRUE;
      append_string (out, name.name, name.len);
      g_string_append_c (out, ':');
      if (!append_typed (out, e->type, e->value ? e->value : w->text->str + e->offset, e->len))
        return FALSE;
    }
  for (guint i = 0; i < w->n_open; i++)
    g_string_append_c (out, '}');
  w->n_open = 0;
  g_string_truncate (w->prefixes, 0);
  g_string_append_c (out, '}');
  return TRUE;
}

/* The sorted entries, one per key, as pairs. */
static void
kv_pairs (FjWorkspace *w)
{
  g_array_set_size (w->pairs, 0);
  const gchar *previous = NULL;
  for (guint i = 0; i < w->entries->len; i++)
    {
      const FjEntry *e = &g_array_index (w->entries, FjEntry, i);
      if (previous && strcmp (previous, e->key) == 0)
        continue;
      previous = e->key;
      KvPair pair = { e->key, e->value ? e->value : w->text->str + e->offset, e->len };
      g_array_append_val (w->pairs, pair);
    }
}

/* Graphite's plaintext protocol: "name value stamp\n" a pair, as
 * syslog-ng's $(graphite-output) writes it, values as they are. */
static void
append_graphite (const FormatJson *fj, const SlMessage *msg, const SlTemplateEnv *env, const KvPair *pairs,
                 guint n, GString *out)
{
  static GPrivate stamp_key = SL_SCRATCH_INIT;
  if (!n)
    return;
  /* the stamp's template may call template functions: a level of its own */
  GString *stamp = sl_scratch_push (&stamp_key);
  sl_template_append (fj->timestamp, msg, env, stamp);
  for (guint i = 0; i < n; i++)
    {
      g_string_append (out, pairs[i].key);
      g_string_append_c (out, ' ');
      g_string_append_len (out, pairs[i].value, pairs[i].len);
      g_string_append_c (out, ' ');
      g_string_append_len (out, stamp->str, stamp->len);
      g_string_append_c (out, '\n');
    }
  sl_scratch_pop (&stamp_key);
}

static void
format_json_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  FormatJson *fj = call->state;
  FjWorkspace *w = workspace_acquire ();
  guint n;
  const SlMessage *const *context = sl_template_env_context (env, &msg, &n);
  gsize start = out->len;

  gboolean first = TRUE;

  for (guint m = 0; m < n; m++)
    {
      g_array_set_size (w->entries, 0);
      g_string_truncate (w->text, 0);
      collect (fj, w, context[m], env);
      g_array_sort (w->entries, fj->format == FORMAT_WELF ? entry_compare_welf
                                : fj->format == FORMAT_CEF || fj->format == FORMAT_GRAPHITE ? entry_compare_ascending
                                : entry_compare);
      gboolean ok = TRUE;
      if (fj->format == FORMAT_JSON || fj->format == FORMAT_FLAT_JSON)
        ok = append_object (fj, w, out);
      else
        {
          kv_pairs (w);
          const KvPair *pairs = (const KvPair *) w->pairs->data;
          if (fj->format == FORMAT_WELF)
            kv_append_welf (out, pairs, w->pairs->len, &first);
          else if (fj->format == FORMAT_GRAPHITE)
            append_graphite (fj, context[m], env, pairs, w->pairs->len, out);
          else
            ok = kv_append_cef (out, pairs, w->pairs->len);
        }
      if (!ok)
        {
          g_string_truncate (out, start);
          break;
        }
    }
  workspace_release ();
}

static const SlTemplateFunctionOps format_json_ops = {
  .prepare = format_json_prepare,
  .eval = format_json_eval,
  .free = format_json_free,
};

static const SlDriverClass format_json_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION,
  .name = "format-json",
  .summary = "name-value pairs as a JSON object, dotted names nested; syslog-ng's value-pairs options",
  .ops.template_function = &format_json_ops,
};

static const SlTemplateFunctionOps format_flat_json_ops = {
  .prepare = format_flat_json_prepare,
  .eval = format_json_eval,
  .free = format_json_free,
};

static const SlDriverClass format_flat_json_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION,
  .name = "format-flat-json",
  .summary = "name-value pairs as a JSON object, dotted names kept whole",
  .ops.template_function = &format_flat_json_ops,
};

static const SlTemplateFunctionOps format_welf_ops = {
  .prepare = format_welf_prepare,
  .eval = format_json_eval,
  .free = format_json_free,
};

static const SlDriverClass format_welf_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION,
  .name = "format-welf",
  .summary = "name-value pairs in the WebTrends Enhanced Log Format (name=value ...); value-pairs options",
  .ops.template_function = &format_welf_ops,
};

static const SlTemplateFunctionOps format_cef_ops = {
  .prepare = format_cef_prepare,
  .eval = format_json_eval,
  .free = format_json_free,
};

static const SlDriverClass format_cef_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION,
  .name = "format-cef-extension",
  .summary = "name-value pairs as the extension of a CEF message (name=value ...); value-pairs options",
  .ops.template_function = &format_cef_ops,
};

static const SlTemplateFunctionOps graphite_output_ops = {
  .prepare = graphite_output_prepare,
  .eval = format_json_eval,
  .free = format_json_free,
};

static const SlDriverClass graphite_output_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION,
  .name = "graphite-output",
  .summary = "name-value pairs as Graphite plaintext lines (name value stamp); value-pairs options, --timestamp",
  .ops.template_function = &graphite_output_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "json-functions",
  .drivers = (const SlDriverClass *const[]) {
    &format_json_class, &format_flat_json_class, &format_welf_class, &format_cef_class, &graphite_output_class,
    NULL,
  },
};
