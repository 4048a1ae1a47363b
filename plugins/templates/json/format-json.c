/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(format-json ...) and $(format-flat-json ...): name-value pairs of a
 * message as a JSON object; $(format-welf) and $(format-cef-extension),
 * written by kv-formats.c, the same pairs as WELF or as a CEF extension
 * (keys ascending, WELF's "id" first, no leading-dot rewrite; a CEF key
 * that is not letters and digits empties the output, as in syslog-ng);
 * $(graphite-output), Graphite's plaintext lines of them. The pairs are
 * the kit's value-pairs walk (core/message/value-pairs.h), which takes syslog-ng's
 * value-pairs command line; format-json adds --leave-initial-dot and
 * --key-delimiter, graphite-output --timestamp.
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
#include "core/plugin/plugin.h"
#include "core/config/syntax-version.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/message/macros.h"
#include "core/message/scratch.h"
#include "core/message/template.h"
#include "core/message/text-append.h"
#include "core/message/list-text.h"
#include "core/message/value-pairs.h"
#include "plugins/templates/json/kv-formats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
  SlValuePairs *vp;
  gchar delimiter;       /* where format-json nests: --key-delimiter, '.' by default */
  SlTemplate *timestamp; /* graphite-output's --timestamp, $R_UNIXTIME by default */
  gboolean typed;        /* in a syslog-ng 4 configuration: numbers written as 4.8 writes them */
} FormatJson;

typedef struct
{
  const gchar *name;
  gsize len;
} FjSegment;

/* An open object's prefix: its parts joined by '.', which with the '.'
 * delimiter is the start of the key that opened it (ptr: a key handed out
 * by the walk, kept while the object is open, as the walk's keys of one
 * message are), else text in prefixes at offset. */
typedef struct
{
  const gchar *ptr;
  gsize offset;
  gsize len;
} FjLevel;

/* What one call writes with; calls nested in graphite-output's --timestamp
 * get their own. */
typedef struct
{
  /* Plain arrays, grown by doubling and kept: nesting runs for every key
   * of every message. */
  FjLevel *open;      /* the objects open while nesting */
  guint n_open, open_size;
  GString *prefixes;    /* their prefixes under a --key-delimiter other than '.' */
  FjSegment *tokens;  /* the parts of the key being written */
  guint n_tokens, tokens_size;
  GArray *pairs;        /* KvPair: what format-welf, format-cef-extension and graphite-output write */
  GString *kv_text;     /* their keys and values, NUL-separated; pairs point into it once the walk is over */
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
  g_free (w->open);
  g_string_free (w->prefixes, TRUE);
  g_free (w->tokens);
  g_array_unref (w->pairs);
  g_string_free (w->kv_text, TRUE);
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
      w->prefixes = g_string_sized_new (256);
      w->pairs = g_array_new (FALSE, FALSE, sizeof (KvPair));
      w->kv_text = g_string_sized_new (1024);
      g_ptr_array_add (ws->workspaces, w);
    }
  FjWorkspace *w = g_ptr_array_index (ws->workspaces, ws->depth++);
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

/* Options */

static void
format_json_free (gpointer state)
{
  FormatJson *fj = state;
  sl_value_pairs_free (fj->vp);
  if (fj->timestamp)
    sl_template_unref (fj->timestamp);
  g_free (fj);
}

static const SlValuePairsOption graphite_options[] = {
  { "timestamp", 't', TRUE }, { NULL, 0, FALSE },
};

static gboolean
graphite_option (const gchar *name, const gchar *value, gpointer user_data, GError **error)
{
  FormatJson *fj = user_data;
  if (fj->timestamp)
    sl_template_unref (fj->timestamp);
  return (fj->timestamp = sl_template_compile (value, error)) != NULL;
}

static gboolean
prepare (SlTfCall *call, FjFormat format, GError **error)
{
  FormatJson *fj = g_new0 (FormatJson, 1);
  fj->format = format;
  call->state = fj;

  gboolean json = format == FORMAT_JSON || format == FORMAT_FLAT_JSON;
  SlValuePairsFlags flags = json ? SL_VALUE_PAIRS_DOT_UNDERSCORE | SL_VALUE_PAIRS_JSON_OPTIONS
                            : format == FORMAT_GRAPHITE ? SL_VALUE_PAIRS_DOT_UNDERSCORE : 0;
  gchar *owner = g_strdup_printf ("$(%s)", call->klass->name);
  fj->vp = sl_value_pairs_new (call->argc, (const gchar *const *) call->args, owner, flags,
                               format == FORMAT_GRAPHITE ? graphite_options : NULL, graphite_option, fj, error);
  g_free (owner);
  if (!fj->vp)
    return FALSE;
  fj->delimiter = sl_value_pairs_key_delimiter (fj->vp);
  fj->typed = sl_cfg_compiling_version_4 ();
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

/* A number as syslog-ng 4 writes it: read (an integer in hex after 0x),
 * then written again, a real as g_ascii_dtostr() does; FALSE when it
 * does not cast. */
static gboolean
append_number_4 (GString *out, SlValueType type, const gchar *text)
{
  gchar *end;
  errno = 0;
  if (type == SL_VALUE_DOUBLE)
    {
      gdouble d = g_ascii_strtod (text, &end);
      if (end == text || *end || (errno == ERANGE && (d >= HUGE_VAL || d <= -HUGE_VAL)))
        return FALSE;
      gchar buffer[G_ASCII_DTOSTR_BUF_SIZE];
      g_string_append (out, g_ascii_dtostr (buffer, sizeof buffer, d));
      return TRUE;
    }
  gboolean hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  gint64 i = strtoll (text, &end, hex ? 16 : 10);
  if (!*text || *end)
    return FALSE;
  sl_text_append_int64 (out, i);
  return TRUE;
}

/* A value as its type has it; FALSE when it does not cast. */
static gboolean
append_typed (GString *out, gboolean typed, SlValueType type, const gchar *value, gsize len)
{
  /* syslog-ng writes a datetime as its text, cast or not */
  if (type == SL_VALUE_STRING || type == SL_VALUE_DATETIME)
    {
      append_string (out, value, len);
      return TRUE;
    }
  if (type == SL_VALUE_JSON)
    {
      sl_text_append (out, value, len);
      return TRUE;
    }
  if (type == SL_VALUE_NULL)
    {
      g_string_append (out, "null");
      return TRUE;
    }
  if (type == SL_VALUE_LIST)
    {
      g_string_append_c (out, '[');
      sl_list_text_foreach (value, len, list_item, out);
      if (out->str[out->len - 1] == ',')
        g_string_truncate (out, out->len - 1);
      g_string_append_c (out, ']');
      return TRUE;
    }

  /* the value NUL-terminated for strtod and strtoll, in the thread's buffer */
  static GPrivate text_key = SL_SCRATCH_INIT;
  GString *copy = sl_scratch_get (&text_key);
  g_string_append_len (copy, value, len);
  const gchar *text = copy->str;
  gchar *end;
  gboolean ok;
  errno = 0;
  if (typed && type != SL_VALUE_BOOLEAN)
    return append_number_4 (out, type, text);
  switch (type)
    {
    case SL_VALUE_INT32:
      (void) strtol (text, &end, 10);
      ok = *text && !*end;
      break;
    case SL_VALUE_INT64:
      (void) strtoll (text, &end, 10);
      ok = *text && !*end;
      break;
    case SL_VALUE_DOUBLE:
      {
        gdouble d = strtod (text, &end);
        ok = end != text && !*end && !(errno == ERANGE && (d >= HUGE_VAL || d <= -HUGE_VAL));
      }
      break;
    default:
      ok = text[0] && strchr ("Tt1Ff0", text[0]);
      if (ok)
        {
          g_string_append (out, strchr ("Tt1", text[0]) ? "true" : "false");
          return TRUE;
        }
      break;
    }
  if (ok)
    append_escaped (out, value, len);
  return ok;
}

/* format-json and format-flat-json: one object, nested at the delimiter as
 * syslog-ng's walker nests: an object stays open while the next key starts
 * with its prefix (a byte prefix: "a" stays open for "ab"), and the parts
 * of the key past the open objects open new ones. */
typedef struct
{
  const FormatJson *fj;
  FjWorkspace *w;
  GString *out;
  gboolean comma;
  SlOnError on_error;
} FjObject;

/* A value that does not cast to its type, as on-error() says (syslog-ng's
 * format-json.c): written as a string, left out, or (FALSE) the function
 * writes nothing; logged but with fallback-to-string or silently-. */
static gboolean
cast_failed (FjObject *o, const gchar *key, const gchar *value, gsize len, gsize member, gboolean comma, gsize at)
{
  GString *out = o->out;
  g_string_truncate (out, at);
  if (o->on_error & SL_ON_ERROR_FALLBACK_TO_STRING)
    {
      append_string (out, value, len);
      return TRUE;
    }
  if (!(o->on_error & SL_ON_ERROR_SILENT))
    sl_log (SL_LOG_ERROR, _("casting error: '%s' does not cast to its type; value='%.*s'"), key, (gint) len, value);
  if (o->on_error & SL_ON_ERROR_DROP_MESSAGE)
    return FALSE;
  g_string_truncate (out, member);
  o->comma = comma;
  return TRUE;
}

static gboolean
append_member (const gchar *key, SlValueType type, const gchar *value, gsize len, gpointer user_data)
{
  FjObject *o = user_data;
  FjWorkspace *w = o->w;
  GString *out = o->out;
  FjSegment name;

  if (o->fj->format == FORMAT_FLAT_JSON)
    name = (FjSegment) { key, strlen (key) };
  else
    {
      while (w->n_open)
        {
          const FjLevel *top = &w->open[w->n_open - 1];
          if (strncmp (key, level_prefix (w, top), top->len) == 0)
            break;
          if (!top->ptr)
            g_string_truncate (w->prefixes, top->offset);
          w->n_open--;
          g_string_append_c (out, '}');
          o->comma = TRUE;
        }
      split_key (w, key, o->fj->delimiter);
      if (!w->n_tokens)
        return TRUE;
      for (guint t = w->n_open; t + 1 < w->n_tokens; t++)
        {
          open_level (w, o->fj, key, t);
          if (o->comma)
            g_string_append_c (out, ',');
          append_string (out, w->tokens[t].name, w->tokens[t].len);
          g_string_append (out, ":{");
          o->comma = FALSE;
        }
      name = w->tokens[w->n_tokens - 1];
    }

  gsize member = out->len;
  gboolean comma = o->comma;
  if (o->comma)
    g_string_append_c (out, ',');
  o->comma = TRUE;
  append_string (out, name.name, name.len);
  g_string_append_c (out, ':');
  gsize at = out->len;
  if (append_typed (out, o->fj->typed, type, value, len))
    return TRUE;
  return cast_failed (o, key, value, len, member, comma, at);
}

static gboolean
append_object (const FormatJson *fj, FjWorkspace *w, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  FjObject o = { fj, w, out, FALSE, env->on_error };
  g_string_append_c (out, '{');
  if (!sl_value_pairs_foreach (fj->vp, msg, env, SL_VALUE_PAIRS_DESCENDING, append_member, &o))
    return FALSE;
  for (guint i = 0; i < w->n_open; i++)
    g_string_append_c (out, '}');
  w->n_open = 0;
  g_string_truncate (w->prefixes, 0);
  g_string_append_c (out, '}');
  return TRUE;
}

/* The other formats: the pairs copied, since what they write is worked
 * out from all of them (WELF's "id" first) or after the walk (graphite's
 * stamp, whose template may walk again). */
static gboolean
copy_pair (const gchar *key, SlValueType type, const gchar *value, gsize len, gpointer user_data)
{
  FjWorkspace *w = user_data;
  /* offsets until the walk is over: kv_text may move as it grows */
  KvPair pair = { GSIZE_TO_POINTER (w->kv_text->len), NULL, len };
  g_string_append_len (w->kv_text, key, strlen (key) + 1);
  pair.value = GSIZE_TO_POINTER (w->kv_text->len);
  g_string_append_len (w->kv_text, value, len);
  g_string_append_c (w->kv_text, '\0');
  g_array_append_val (w->pairs, pair);
  return TRUE;
}

static void
collect_pairs (const FormatJson *fj, FjWorkspace *w, const SlMessage *msg, const SlTemplateEnv *env)
{
  g_array_set_size (w->pairs, 0);
  g_string_truncate (w->kv_text, 0);
  sl_value_pairs_foreach (fj->vp, msg, env, SL_VALUE_PAIRS_ASCENDING, copy_pair, w);
  KvPair *pairs = (KvPair *) w->pairs->data;
  for (guint i = 0; i < w->pairs->len; i++)
    {
      pairs[i].key = w->kv_text->str + GPOINTER_TO_SIZE (pairs[i].key);
      pairs[i].value = w->kv_text->str + GPOINTER_TO_SIZE (pairs[i].value);
    }
  if (fj->format != FORMAT_WELF)
    return;
  /* WELF's "id" first, the others as they are */
  for (guint i = 0; i < w->pairs->len; i++)
    if (strcmp (pairs[i].key, "id") == 0)
      {
        KvPair id = pairs[i];
        memmove (pairs + 1, pairs, i * sizeof *pairs);
        pairs[0] = id;
        break;
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
      gboolean ok = TRUE;
      if (fj->format == FORMAT_JSON || fj->format == FORMAT_FLAT_JSON)
        ok = append_object (fj, w, context[m], env, out);
      else
        {
          collect_pairs (fj, w, context[m], env);
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
  .summary = "name-value pairs as a JSON object, dotted names nested; syslog-ng's value-pairs options; under "
              "@version: 4.x a typed value is written with its JSON type as syslog-ng 4 writes it, under 3.x as a "
              "string as 3.38 does",
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
