/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslog-ng's list functions: $(list-concat), $(list-append),
 * $(list-head), $(list-nth), $(list-tail), $(list-slice), $(list-count),
 * $(list-search), $(implode) and $(explode). Each argument that is a list
 * is read as syslog-ng writes lists (the kit's core/message/list-text.h);
 * several list arguments are one list. What they write has syslog-ng
 * 4.8's types: a list from concat, append, slice and explode, an integer
 * from count and search, a string from the others (list-tail's too, as
 * 4.8 types it). */
#include "plugins/templates/extra/extra-private.h"
#include "core/config/error.h"
#include "core/i18n.h"

#include <errno.h>
#include <string.h>

/* What a walk over the items keeps: the items wanted [from, to) are
 * written to out, as a list or joined by sep, or only counted. */
typedef struct
{
  GString *out;
  gsize start;
  gint64 index;
  gint64 from;
  gint64 to;              /* -1: to the end */
  const gchar *sep;       /* join with this instead of writing a list */
  gsize sep_len;
  gboolean decoded;       /* write one item as it is, not as a list */
} Walk;

static void
take (const gchar *item, gsize len, gpointer user_data)
{
  Walk *w = user_data;
  gint64 i = w->index++;
  if (i < w->from || (w->to >= 0 && i >= w->to) || !w->out)
    return;
  if (w->decoded)
    g_string_append_len (w->out, item, len);
  else if (w->sep)
    {
      if (w->out->len > w->start)
        g_string_append_len (w->out, w->sep, w->sep_len);
      g_string_append_len (w->out, item, len);
    }
  else
    sl_list_text_append (w->out, w->start, item, len);
}

/* Walks the lists of arguments first.. */
static void
walk (const SlTfCall *call, gint first, const SlMessage *msg, const SlTemplateEnv *env, Walk *w)
{
  GString *text = tf_extra_scratch_acquire ();
  for (gint i = first; i < call->argc; i++)
    {
      g_string_truncate (text, 0);
      sl_template_append (call->arg_templates[i], msg, env, text);
      sl_list_text_foreach (text->str, text->len, take, w);
    }
  tf_extra_scratch_release ();
}

static gint64
count (const SlTfCall *call, gint first, const SlMessage *msg, const SlTemplateEnv *env)
{
  Walk w = { .to = -1 };
  walk (call, first, msg, env, &w);
  return w.index;
}

static gboolean
takes_args (SlTfCall *call, gint least, GError **error, const gchar *usage)
{
  if (call->argc >= least)
    return TRUE;
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("$(%s) takes %s"), call->klass->name, usage);
  return FALSE;
}

static gboolean
list_prepare (SlTfCall *call, GError **error)
{
  call->type = SL_VALUE_LIST;
  return TRUE;
}

static gboolean
list_count_prepare (SlTfCall *call, GError **error)
{
  call->type = SL_VALUE_INT64;
  return TRUE;
}

static void
list_concat_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  Walk w = { .out = out, .start = out->len, .to = -1 };
  walk (call, 0, msg, env, &w);
}

/* $(list-append LIST ITEM ...): each further argument one item */
static void
list_append_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gsize start = out->len;
  if (call->argc < 1)
    return;
  Walk w = { .out = out, .start = start, .to = -1 };
  GString *text = tf_extra_scratch_acquire ();
  sl_template_append (call->arg_templates[0], msg, env, text);
  sl_list_text_foreach (text->str, text->len, take, &w);
  for (gint i = 1; i < call->argc; i++)
    {
      g_string_truncate (text, 0);
      sl_template_append (call->arg_templates[i], msg, env, text);
      sl_list_text_append (out, start, text->str, text->len);
    }
  tf_extra_scratch_release ();
}

static void
list_head_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  Walk w = { .out = out, .start = out->len, .to = 1, .decoded = TRUE };
  walk (call, 0, msg, env, &w);
}

static void
list_tail_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  Walk w = { .out = out, .start = out->len, .from = 1, .to = -1 };
  walk (call, 0, msg, env, &w);
}

static void
list_count_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_string_append_printf (out, "%" G_GINT64_FORMAT, count (call, 0, msg, env));
}

static gboolean
parse_int (const gchar *text, gsize len, gint64 *value)
{
  gchar *end;
  errno = 0;
  *value = g_ascii_strtoll (text, &end, 10);
  return len && end == text + len && !errno;
}

/* $(list-nth N LIST ...): N from 0, negative from the end */
static void
list_nth_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  GString *text = tf_extra_scratch_acquire ();
  sl_template_append (call->arg_templates[0], msg, env, text);
  gint64 n;
  gboolean ok = parse_int (text->str, text->len, &n);
  tf_extra_scratch_release ();
  if (!ok)
    return;
  if (n < 0)
    n += count (call, 1, msg, env);
  if (n < 0)
    return;
  Walk w = { .out = out, .start = out->len, .from = n, .to = n + 1, .decoded = TRUE };
  walk (call, 1, msg, env, &w);
}

static gboolean
list_nth_prepare (SlTfCall *call, GError **error)
{
  return takes_args (call, 2, error, _("an index and a list"));
}

/* $(list-slice FROM[:TO] LIST ...): as Python slices, either bound
 * optional and negative from the end */
static void
list_slice_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  GString *text = tf_extra_scratch_acquire ();
  sl_template_append (call->arg_templates[0], msg, env, text);
  const gchar *colon = strchr (text->str, ':');
  gsize from_len = colon ? (gsize) (colon - text->str) : text->len;
  gint64 from = 0, to = G_MAXINT64;
  gboolean ok = (from_len == 0 || parse_int (text->str, from_len, &from))
                && (!colon || !colon[1] || parse_int (colon + 1, strlen (colon + 1), &to));
  tf_extra_scratch_release ();
  if (!ok)
    return;
  gint64 n = count (call, 1, msg, env);
  if (from < 0)
    from = MAX (n + from, 0);
  if (to < 0)
    to = MAX (n + to, 0);
  if (to <= from)
    return;
  Walk w = { .out = out, .start = out->len, .from = from, .to = MIN (to, n) };
  walk (call, 1, msg, env, &w);
}

static gboolean
list_slice_prepare (SlTfCall *call, GError **error)
{
  call->type = SL_VALUE_LIST;
  return takes_args (call, 2, error, _("a range FROM:TO and a list"));
}

/* $(implode SEP LIST ...): the items joined by SEP */
static void
implode_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  GString *sep = tf_extra_scratch_acquire ();
  sl_template_append (call->arg_templates[0], msg, env, sep);
  Walk w = { .out = out, .start = out->len, .to = -1, .sep = sep->str, .sep_len = sep->len };
  walk (call, 1, msg, env, &w);
  tf_extra_scratch_release ();
}

static gboolean
separator_prepare (SlTfCall *call, GError **error)
{
  return takes_args (call, 1, error, _("a separator and then texts"));
}

static gboolean
explode_prepare (SlTfCall *call, GError **error)
{
  call->type = SL_VALUE_LIST;
  return separator_prepare (call, error);
}

/* $(explode SEP TEXT ...): each text cut at SEP, as a list; an empty text
 * has no items, as glib's g_strsplit() that syslog-ng uses gives none */
static void
explode_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gsize start = out->len;
  GString *sep = tf_extra_scratch_acquire ();
  GString *text = tf_extra_scratch_acquire ();
  sl_template_append (call->arg_templates[0], msg, env, sep);
  for (gint i = 1; i < call->argc; i++)
    {
      g_string_truncate (text, 0);
      sl_template_append (call->arg_templates[i], msg, env, text);
      if (!text->len)
        continue;
      const gchar *p = text->str;
      const gchar *end = text->str + text->len;
      const gchar *cut;
      while (sep->len && (cut = g_strstr_len (p, end - p, sep->str)))
        {
          sl_list_text_append (out, start, p, cut - p);
          p = cut + sep->len;
        }
      sl_list_text_append (out, start, p, end - p);
    }
  tf_extra_scratch_release ();
  tf_extra_scratch_release ();
}

/* $(list-search [--mode M] [--start-index N] PATTERN LIST ...): the index
 * of the first item from N on that the pattern matches, as syslog-ng 4.8:
 * literal (the whole item), prefix, substring, glob, or pcre anchored at
 * the item's start; nothing when none does. The options are read as
 * GOption reads them there, anywhere among the arguments. */
typedef enum
{
  SEARCH_LITERAL,
  SEARCH_PREFIX,
  SEARCH_SUBSTRING,
  SEARCH_GLOB,
  SEARCH_PCRE,
} SearchMode;

typedef struct
{
  SearchMode mode;
  gchar *pattern;
  GPatternSpec *glob;
  GRegex *regex;
  gint start;
  GArray *lists;            /* indexes of call->arg_templates */
} Search;

static void
search_free (gpointer state)
{
  Search *search = state;
  g_free (search->pattern);
  if (search->glob)
    g_pattern_spec_free (search->glob);
  if (search->regex)
    g_regex_unref (search->regex);
  g_array_unref (search->lists);
  g_free (search);
}

static gboolean
search_mode (const gchar *name, SearchMode *mode)
{
  static const gchar *const names[] = { "literal", "prefix", "substring", "glob", "pcre" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (!name || g_str_equal (name, names[i]))
      {
        *mode = name ? (SearchMode) i : SEARCH_LITERAL;
        return TRUE;
      }
  return FALSE;
}

static gboolean
list_search_prepare (SlTfCall *call, GError **error)
{
  call->type = SL_VALUE_INT64;
  Search *search = g_new0 (Search, 1);
  search->lists = g_array_new (FALSE, FALSE, sizeof (guint));
  call->state = search;

  gchar *mode_name = NULL;
  GOptionEntry entries[] = {
    { "mode", 0, 0, G_OPTION_ARG_STRING, &mode_name, NULL, NULL },
    { "start-index", 0, 0, G_OPTION_ARG_INT, &search->start, NULL, NULL },
    { NULL },
  };
  gint argc = call->argc + 1;
  gchar **argv = g_new0 (gchar *, argc + 1);
  argv[0] = (gchar *) call->klass->name;
  memcpy (argv + 1, call->args, call->argc * sizeof (gchar *));
  GOptionContext *context = g_option_context_new (NULL);
  g_option_context_set_help_enabled (context, FALSE);
  g_option_context_add_main_entries (context, entries, NULL);
  gchar **rest = argv;
  gboolean ok = g_option_context_parse (context, &argc, &rest, error);
  g_option_context_free (context);
  if (ok && !search_mode (mode_name, &search->mode))
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                   _("$(list-search) has no mode '%s'; use literal, prefix, substring, glob or pcre"), mode_name);
      ok = FALSE;
    }
  if (ok && argc < 3)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("$(list-search) takes %s"),
                   _("a pattern and a list: $(list-search [--mode M] [--start-index N] PATTERN LIST)"));
      ok = FALSE;
    }
  if (ok)
    {
      search->pattern = g_strdup (rest[1]);
      /* the lists are what GOption left after the pattern, in order */
      for (gint i = 2, k = 0; i < argc; i++)
        {
          while (call->args[k] != rest[i])
            k++;
          g_array_append_val (search->lists, k);
        }
      if (search->mode == SEARCH_GLOB)
        search->glob = g_pattern_spec_new (search->pattern);
      if (search->mode == SEARCH_PCRE)
        ok = (search->regex = g_regex_new (search->pattern, G_REGEX_ANCHORED, 0, error)) != NULL;
    }
  g_free (mode_name);
  g_free (argv);
  return ok;
}

typedef struct
{
  const Search *search;
  gint index;
  gint found;
} SearchWalk;

static gboolean
search_matches (const Search *search, const gchar *item, gsize len)
{
  switch (search->mode)
    {
    case SEARCH_LITERAL:
      return g_str_equal (item, search->pattern);
    case SEARCH_PREFIX:
      return g_str_has_prefix (item, search->pattern);
    case SEARCH_SUBSTRING:
      return strstr (item, search->pattern) != NULL;
    case SEARCH_GLOB:
      return g_pattern_spec_match (search->glob, len, item, NULL);
    default:
      return g_regex_match_full (search->regex, item, len, 0, 0, NULL, NULL);
    }
}

static void
search_take (const gchar *item, gsize len, gpointer user_data)
{
  SearchWalk *w = user_data;
  gint i = w->index++;
  if (w->found < 0 && i >= w->search->start && search_matches (w->search, item, len))
    w->found = i;
}

static void
list_search_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  const Search *search = call->state;
  SearchWalk w = { .search = search, .found = -1 };
  GString *text = tf_extra_scratch_acquire ();
  for (guint i = 0; i < search->lists->len; i++)
    {
      g_string_truncate (text, 0);
      sl_template_append (call->arg_templates[g_array_index (search->lists, guint, i)], msg, env, text);
      sl_list_text_foreach (text->str, text->len, search_take, &w);
    }
  tf_extra_scratch_release ();
  if (w.found >= 0)
    g_string_append_printf (out, "%d", w.found);
}

const SlDriverClass tf_list_search_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "list-search",
  .summary = "the index of the first element of a list a pattern matches: "
             "$(list-search [--mode literal|prefix|substring|glob|pcre] [--start-index N] PATTERN LIST)",
  .ops.template_function = &(const SlTemplateFunctionOps) { .prepare = list_search_prepare, .eval = list_search_eval,
                                                            .free = search_free },
};

#define LIST_CLASS(var, word, text, prep, ev) \
  const SlDriverClass var = { \
    .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = word, .summary = text, \
    .ops.template_function = &(const SlTemplateFunctionOps) { .prepare = prep, .eval = ev }, \
  }

LIST_CLASS (tf_list_concat_class, "list-concat", "its arguments, lists or single values, as one list", list_prepare, list_concat_eval);
LIST_CLASS (tf_list_append_class, "list-append", "a list with the other arguments appended", list_prepare, list_append_eval);
LIST_CLASS (tf_list_head_class, "list-head", "the first element of a list", NULL, list_head_eval);
LIST_CLASS (tf_list_nth_class, "list-nth", "the element of a list at an index: $(list-nth N LIST)", list_nth_prepare, list_nth_eval);
LIST_CLASS (tf_list_tail_class, "list-tail", "a list without its first element", NULL, list_tail_eval);
LIST_CLASS (tf_list_slice_class, "list-slice", "the elements of a list from one index to another: $(list-slice FROM:TO LIST)", list_slice_prepare, list_slice_eval);
LIST_CLASS (tf_list_count_class, "list-count", "how many elements a list has", list_count_prepare, list_count_eval);
LIST_CLASS (tf_implode_class, "implode", "the elements of a list joined by a separator: $(implode SEP LIST)", separator_prepare, implode_eval);
LIST_CLASS (tf_explode_class, "explode", "a text split at a separator, as a list: $(explode SEP TEXT)", explode_prepare, explode_eval);
