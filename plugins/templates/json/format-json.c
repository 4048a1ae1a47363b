/* $(format-json ...) and $(format-flat-json ...): name-value pairs of a
 * message as a JSON object, selected with syslog-ng's value-pairs command
 * line: --scope, --key, --exclude, --pair (or NAME=VALUE), --rekey with
 * --shift, --shift-levels, --add-prefix and --replace-prefix, and
 * --omit-empty-values. format-json nests dotted names ({"a":{"b":..}} for
 * a.b), format-flat-json does not. The output is valid JSON whatever bytes
 * the message holds: control characters are escaped, and a byte that is
 * not part of valid UTF-8 is written as the text \xHH.
 *
 * Written by hand rather than through jansson: it runs for every message a
 * destination writes, and builds no tree. */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/macros.h"
#include "core/plugin.h"
#include "core/template.h"
#include "core/text-append.h"

#include <stdlib.h>
#include <string.h>

/* The macro scopes are core/macros.h's, which knows the macros of each. */
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
} SlFjPattern;

typedef enum
{
  TRANSFORM_SHIFT,
  TRANSFORM_SHIFT_LEVELS,
  TRANSFORM_ADD_PREFIX,
  TRANSFORM_REPLACE_PREFIX,
} SlFjTransformKind;

typedef struct
{
  SlFjTransformKind kind;
  gsize n;
  gchar *text;          /* the prefix to add, or the one to replace */
  gchar *replacement;
} SlFjTransform;

/* --rekey GLOB and the transformations that follow it. */
typedef struct
{
  GPatternSpec *glob;   /* NULL: every name */
  GPtrArray *transforms;
} SlFjRekey;

/* A pair whose name is known when the template is compiled: a macro the
 * scopes or keys select, or a --pair. */
typedef struct
{
  gchar *key;
  SlTemplate *value;    /* NULL: the message's tags */
  gboolean explicit;    /* a --pair: kept even when empty */
} SlFjFixed;

/* Whether a field goes out and under which name, worked out once per
 * field handle. */
typedef struct
{
  gchar *key;           /* NULL: left out */
} SlFjDecision;

#define SL_FJ_CHUNK 256
#define SL_FJ_CHUNKS 1024

typedef struct
{
  gboolean flat;
  guint scopes;
  gboolean omit_empty;
  GPtrArray *patterns;   /* SlFjPattern, in the order written: the last that matches decides */
  GPtrArray *rekeys;     /* SlFjRekey */
  GArray *fixed;         /* SlFjFixed */
  gboolean fields;       /* any field can be selected */
  SlFjDecision **chunks[SL_FJ_CHUNKS];   /* by handle; filled as fields are met */
} SlFormatJson;

typedef enum
{
  ORIGIN_PAIR,
  ORIGIN_FIELD,
  ORIGIN_MACRO,
} SlFjOrigin;

typedef struct
{
  const gchar *key;
  const gchar *value;   /* NULL: the value is in the workspace's text at offset */
  gsize offset;
  gsize len;
  SlFjOrigin origin;
} SlFjEntry;

/* What one call works with; calls nested in a --pair value get their own. */
typedef struct
{
  GArray *entries;      /* SlFjEntry */
  GString *text;        /* rendered macro and pair values */
  GPtrArray *owned;     /* keys of fields past the decision cache */
  GArray *open;         /* SlFjSegment: the objects open while nesting */
} SlFjWorkspace;

typedef struct
{
  const gchar *name;
  gsize len;
} SlFjSegment;

typedef struct
{
  GPtrArray *workspaces;
  guint depth;
} SlFjWorkspaces;

static void
workspace_free (gpointer p)
{
  SlFjWorkspace *w = p;
  g_array_unref (w->entries);
  g_string_free (w->text, TRUE);
  g_ptr_array_unref (w->owned);
  g_array_unref (w->open);
  g_free (w);
}

static void
workspaces_free (gpointer p)
{
  SlFjWorkspaces *ws = p;
  g_ptr_array_unref (ws->workspaces);
  g_free (ws);
}

static GPrivate workspaces_key = G_PRIVATE_INIT (workspaces_free);

static SlFjWorkspace *
workspace_acquire (void)
{
  SlFjWorkspaces *ws = g_private_get (&workspaces_key);
  if (!ws)
    {
      ws = g_new0 (SlFjWorkspaces, 1);
      ws->workspaces = g_ptr_array_new_with_free_func (workspace_free);
      g_private_set (&workspaces_key, ws);
    }
  if (ws->depth == ws->workspaces->len)
    {
      SlFjWorkspace *w = g_new0 (SlFjWorkspace, 1);
      w->entries = g_array_new (FALSE, FALSE, sizeof (SlFjEntry));
      w->text = g_string_sized_new (1024);
      w->owned = g_ptr_array_new_with_free_func (g_free);
      w->open = g_array_new (FALSE, FALSE, sizeof (SlFjSegment));
      g_ptr_array_add (ws->workspaces, w);
    }
  SlFjWorkspace *w = g_ptr_array_index (ws->workspaces, ws->depth++);
  g_array_set_size (w->entries, 0);
  g_string_truncate (w->text, 0);
  g_ptr_array_set_size (w->owned, 0);
  g_array_set_size (w->open, 0);
  return w;
}

static void
workspace_release (void)
{
  SlFjWorkspaces *ws = g_private_get (&workspaces_key);
  ws->depth--;
}

/* Names */

static gboolean
included (const SlFormatJson *fj, const gchar *name, gboolean in_scope)
{
  gsize len = strlen (name);
  gboolean in = in_scope;
  for (guint i = 0; i < fj->patterns->len; i++)
    {
      const SlFjPattern *p = g_ptr_array_index (fj->patterns, i);
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
rekey (const SlFormatJson *fj, const gchar *name)
{
  gchar *key = g_strdup (name);
  for (guint i = 0; i < fj->rekeys->len; i++)
    {
      const SlFjRekey *r = g_ptr_array_index (fj->rekeys, i);
      if (r->glob && !g_pattern_spec_match (r->glob, strlen (key), key, NULL))
        continue;
      for (guint k = 0; k < r->transforms->len; k++)
        {
          const SlFjTransform *t = g_ptr_array_index (r->transforms, k);
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
  return key;
}

/* Options */

static void
pattern_free (gpointer p)
{
  g_pattern_spec_free (((SlFjPattern *) p)->glob);
  g_free (p);
}

static void
transform_free (gpointer p)
{
  SlFjTransform *t = p;
  g_free (t->text);
  g_free (t->replacement);
  g_free (t);
}

static void
rekey_free (gpointer p)
{
  SlFjRekey *r = p;
  if (r->glob)
    g_pattern_spec_free (r->glob);
  g_ptr_array_unref (r->transforms);
  g_free (r);
}

static void
fixed_clear (gpointer p)
{
  SlFjFixed *f = p;
  g_free (f->key);
  sl_template_unref (f->value);
}

static void
add_pattern (SlFormatJson *fj, const gchar *glob, gboolean include)
{
  SlFjPattern *p = g_new0 (SlFjPattern, 1);
  p->glob = g_pattern_spec_new (glob);
  p->include = include;
  g_ptr_array_add (fj->patterns, p);
}

static SlFjRekey *
add_rekey (SlFormatJson *fj, const gchar *glob)
{
  SlFjRekey *r = g_new0 (SlFjRekey, 1);
  r->glob = glob ? g_pattern_spec_new (glob) : NULL;
  r->transforms = g_ptr_array_new_with_free_func (transform_free);
  g_ptr_array_add (fj->rekeys, r);
  return r;
}

static gboolean
add_scopes (SlFormatJson *fj, const gchar *list, GError **error)
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

static gboolean
add_pair (SlFormatJson *fj, const gchar *text, GError **error)
{
  const gchar *eq = strchr (text, '=');
  if (!eq || eq == text)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                   _("a pair in $(format-json) is NAME=VALUE, not '%s'"), text);
      return FALSE;
    }
  SlTemplate *value = sl_template_compile (eq + 1, error);
  if (!value)
    return FALSE;
  gchar *name = g_strndup (text, eq - text);
  SlFjFixed f = { rekey (fj, name), value, TRUE };
  g_free (name);
  g_array_append_val (fj->fixed, f);
  return TRUE;
}

static gboolean
add_transform (SlFjRekey *r, const gchar *option, const gchar *value, GError **error)
{
  SlFjTransform *t = g_new0 (SlFjTransform, 1);
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

static gboolean
is_transform (const gchar *option)
{
  return g_str_equal (option, "--shift") || g_str_equal (option, "--shift-levels")
         || g_str_equal (option, "--add-prefix") || g_str_equal (option, "--replace-prefix")
         || g_str_equal (option, "--replace");
}

/* The macros selected by scopes and patterns, in the order all-macros
 * lists them. */
static void
add_macro (const gchar *name, guint scopes, gpointer user_data)
{
  SlFormatJson *fj = user_data;
  if (!included (fj, name, (fj->scopes & scopes) != 0))
    return;

  /* in the value-pairs scopes DATE is the time the message arrived */
  gchar *text = g_strdup_printf ("${%s}", g_str_equal (name, "DATE") ? "R_DATE" : name);
  gboolean tags = g_str_equal (name, "TAGS");
  SlFjFixed f = { rekey (fj, name), tags ? NULL : sl_template_compile (text, NULL), FALSE };
  g_free (text);
  g_array_append_val (fj->fixed, f);
}

static void
format_json_free (gpointer state)
{
  SlFormatJson *fj = state;
  for (guint c = 0; c < SL_FJ_CHUNKS; c++)
    {
      if (!fj->chunks[c])
        continue;
      for (guint i = 0; i < SL_FJ_CHUNK; i++)
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
  g_free (fj);
}

static gboolean
parse_arguments (SlFormatJson *fj, const SlTfCall *call, GError **error)
{
  SlFjRekey *rekey_target = NULL;
  GPtrArray *pairs = g_ptr_array_new ();
  gboolean ok = TRUE;

  for (gint i = 0; i < call->argc && ok; i++)
    {
      const gchar *arg = call->args[i];
      const gchar *value = i + 1 < call->argc ? call->args[i + 1] : NULL;
      gboolean takes_value = TRUE;

      if (g_str_equal (arg, "--scope") || g_str_equal (arg, "-s"))
        ok = value && add_scopes (fj, value, error);
      else if (g_str_equal (arg, "--key") || g_str_equal (arg, "-k"))
        {
          if ((ok = value != NULL))
            add_pattern (fj, value, TRUE);
        }
      else if (g_str_equal (arg, "--exclude") || g_str_equal (arg, "-x"))
        {
          if ((ok = value != NULL))
            add_pattern (fj, value, FALSE);
        }
      else if (g_str_equal (arg, "--pair") || g_str_equal (arg, "-p"))
        {
          if ((ok = value != NULL))
            g_ptr_array_add (pairs, (gpointer) value);
        }
      else if (g_str_equal (arg, "--rekey") || g_str_equal (arg, "-r"))
        {
          if ((ok = value != NULL))
            rekey_target = add_rekey (fj, value);
        }
      else if (is_transform (arg))
        {
          if (!rekey_target)
            rekey_target = add_rekey (fj, NULL);
          ok = value && add_transform (rekey_target, g_str_equal (arg, "--replace") ? "--replace-prefix" : arg,
                                       value, error);
        }
      else if (g_str_equal (arg, "--omit-empty-values"))
        {
          fj->omit_empty = TRUE;
          takes_value = FALSE;
        }
      else if (arg[0] == '-' && arg[1] == '-')
        {
          g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("unknown option '%s' in $(%s)"),
                       arg, call->klass->name);
          ok = FALSE;
        }
      else
        {
          /* NAME=VALUE is a pair, anything else a key to select */
          takes_value = FALSE;
          if (strchr (arg, '='))
            g_ptr_array_add (pairs, (gpointer) arg);
          else
            add_pattern (fj, arg, TRUE);
        }
      if (!ok && error && !*error)
        g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("'%s' in $(%s) needs a value"),
                     arg, call->klass->name);
      if (takes_value)
        i++;
    }
  /* pairs are named after the transformations are known */
  for (guint i = 0; i < pairs->len && ok; i++)
    ok = add_pair (fj, g_ptr_array_index (pairs, i), error);
  g_ptr_array_unref (pairs);
  return ok;
}

static gboolean
prepare (SlTfCall *call, gboolean flat, GError **error)
{
  SlFormatJson *fj = g_new0 (SlFormatJson, 1);
  fj->flat = flat;
  fj->patterns = g_ptr_array_new_with_free_func (pattern_free);
  fj->rekeys = g_ptr_array_new_with_free_func (rekey_free);
  fj->fixed = g_array_new (FALSE, TRUE, sizeof (SlFjFixed));
  g_array_set_clear_func (fj->fixed, fixed_clear);
  call->state = fj;

  if (!parse_arguments (fj, call, error))
    return FALSE;
  sl_macro_foreach (add_macro, fj);
  fj->fields = (fj->scopes & (SCOPE_NV | SCOPE_DOT_NV | SCOPE_SDATA | SCOPE_RFC5424)) != 0;
  for (guint i = 0; i < fj->patterns->len; i++)
    fj->fields |= ((SlFjPattern *) g_ptr_array_index (fj->patterns, i))->include;
  return TRUE;
}

static gboolean
format_json_prepare (SlTfCall *call, GError **error)
{
  return prepare (call, FALSE, error);
}

static gboolean
format_flat_json_prepare (SlTfCall *call, GError **error)
{
  return prepare (call, TRUE, error);
}

/* Selecting fields */

static gchar *
field_key (const SlFormatJson *fj, SlHandle h)
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
decide (SlFormatJson *fj, SlHandle h, SlFjWorkspace *w)
{
  guint c = h / SL_FJ_CHUNK;
  if (c >= SL_FJ_CHUNKS)
    {
      gchar *key = field_key (fj, h);
      if (key)
        g_ptr_array_add (w->owned, key);
      return key;
    }

  SlFjDecision **chunk = g_atomic_pointer_get (&fj->chunks[c]);
  if (!chunk)
    {
      SlFjDecision **fresh = g_new0 (SlFjDecision *, SL_FJ_CHUNK);
      if (!g_atomic_pointer_compare_and_exchange (&fj->chunks[c], NULL, fresh))
        g_free (fresh);
      chunk = g_atomic_pointer_get (&fj->chunks[c]);
    }
  SlFjDecision *d = g_atomic_pointer_get (&chunk[h % SL_FJ_CHUNK]);
  if (!d)
    {
      SlFjDecision *fresh = g_new0 (SlFjDecision, 1);
      fresh->key = field_key (fj, h);
      if (!g_atomic_pointer_compare_and_exchange (&chunk[h % SL_FJ_CHUNK], NULL, fresh))
        {
          g_free (fresh->key);
          g_free (fresh);
        }
      d = g_atomic_pointer_get (&chunk[h % SL_FJ_CHUNK]);
    }
  return d->key;
}

typedef struct
{
  SlFormatJson *fj;
  SlFjWorkspace *w;
} SlFjCollect;

static gboolean
collect_field (SlHandle h, const gchar *value, gsize len, gpointer user_data)
{
  SlFjCollect *c = user_data;
  if (!len && c->fj->omit_empty)
    return TRUE;
  const gchar *key = decide (c->fj, h, c->w);
  if (key)
    {
      SlFjEntry e = { key, value, 0, len, ORIGIN_FIELD };
      g_array_append_val (c->w->entries, e);
    }
  return TRUE;
}

static void
collect (SlFormatJson *fj, SlFjWorkspace *w, const SlMessage *msg, const SlTemplateEnv *env)
{
  for (guint i = 0; i < fj->fixed->len; i++)
    {
      const SlFjFixed *f = &g_array_index (fj->fixed, SlFjFixed, i);
      gsize start = w->text->len;
      if (f->value)
        sl_template_append (f->value, msg, env, w->text);
      else
        sl_message_append_tags (msg, w->text);
      gsize len = w->text->len - start;
      if (!len && (!f->explicit || fj->omit_empty))
        continue;
      SlFjEntry e = { f->key, NULL, start, len, f->explicit ? ORIGIN_PAIR : ORIGIN_MACRO };
      g_array_append_val (w->entries, e);
    }

  if (!fj->fields)
    return;
  SlFjCollect c = { fj, w };
  for (SlHandle h = SL_F_NONE + 1; h < SL_F_BUILTIN_MAX; h++)
    {
      gsize len;
      const gchar *value = sl_message_get (msg, h, &len);
      if (value)
        collect_field (h, value, len, &c);
    }
  sl_message_foreach_dynamic (msg, collect_field, &c);
}

/* By key; of pairs with one key, a --pair first, then a field, then a
 * macro, so that the first of each key is the one written. */
static gint
entry_compare (gconstpointer a, gconstpointer b)
{
  const SlFjEntry *x = a;
  const SlFjEntry *y = b;
  gint c = strcmp (x->key, y->key);
  return c ? c : (gint) x->origin - (gint) y->origin;
}

/* Writing JSON */

static void
append_escaped (GString *out, const gchar *text, gsize len)
{
  static const gchar hex[] = "0123456789abcdef";
  gsize run = 0;

  for (gsize i = 0; i < len;)
    {
      guchar c = (guchar) text[i];
      if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\')
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

/* Opens objects for the dotted key's path beyond those open, after
 * closing those it leaves; the name of its last part is returned. The
 * open objects are segments of earlier keys, which stay alive. */
static SlFjSegment
nest (GArray *open, const gchar *key, GString *out, gboolean *first)
{
  guint depth = 0;
  const gchar *part = key;
  const gchar *dot;

  while ((dot = strchr (part, '.')))
    {
      SlFjSegment s = { part, dot - part };
      if (depth < open->len)
        {
          const SlFjSegment *o = &g_array_index (open, SlFjSegment, depth);
          if (o->len == s.len && memcmp (o->name, s.name, s.len) == 0)
            {
              depth++;
              part = dot + 1;
              continue;
            }
        }
      break;
    }
  while (open->len > depth)
    {
      g_string_append_c (out, '}');
      g_array_set_size (open, open->len - 1);
      *first = FALSE;
    }
  while ((dot = strchr (part, '.')))
    {
      SlFjSegment s = { part, dot - part };
      if (!*first)
        g_string_append_c (out, ',');
      append_string (out, s.name, s.len);
      sl_text_append (out, ":{", 2);
      g_array_append_val (open, s);
      *first = TRUE;
      part = dot + 1;
    }
  return (SlFjSegment) { part, strlen (part) };
}

static void
format_json_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  SlFormatJson *fj = call->state;
  SlFjWorkspace *w = workspace_acquire ();

  collect (fj, w, msg, env);
  g_array_sort (w->entries, entry_compare);

  g_string_append_c (out, '{');
  gboolean first = TRUE;
  const gchar *previous = NULL;
  for (guint i = 0; i < w->entries->len; i++)
    {
      const SlFjEntry *e = &g_array_index (w->entries, SlFjEntry, i);
      if (previous && strcmp (previous, e->key) == 0)
        continue;
      previous = e->key;
      SlFjSegment name = { e->key, strlen (e->key) };
      if (!fj->flat)
        name = nest (w->open, e->key, out, &first);
      if (!first)
        g_string_append_c (out, ',');
      first = FALSE;
      append_string (out, name.name, name.len);
      g_string_append_c (out, ':');
      append_string (out, e->value ? e->value : w->text->str + e->offset, e->len);
    }
  for (guint i = 0; i < w->open->len; i++)
    g_string_append_c (out, '}');
  g_string_append_c (out, '}');
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

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "json-functions",
  .drivers = (const SlDriverClass *const[]) { &format_json_class, &format_flat_json_class, NULL },
};
