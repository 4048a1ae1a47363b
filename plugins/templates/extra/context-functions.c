/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The functions syslog-ng 3.38 evaluates over a correlation context
 * (grouping-by()'s aggregate()): $(context-length), $(context-values),
 * $(context-lookup), $(grep), and the aggregates $(min), $(max), $(sum),
 * $(average). Outside a context the context is the rendered message
 * alone (sl_template_env_context()). Each argument template is rendered
 * against one message of the context at a time, as syslog-ng does. */
#include "plugins/templates/extra/extra-private.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/compile/text-filter.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void
context_length_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  guint n;
  sl_template_env_context (env, &msg, &n);
  g_string_append_printf (out, "%u", n);
}

/* $(context-values T ...): each template over each message, as a list */
static void
context_values_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  guint n;
  const SlMessage *const *context = sl_template_env_context (env, &msg, &n);
  GString *value = tf_extra_scratch_acquire ();
  gsize start = out->len;

  for (guint m = 0; m < n; m++)
    for (gint i = 0; i < call->argc; i++)
      {
        g_string_truncate (value, 0);
        sl_template_append_context (call->arg_templates[i], &context[m], 1, env, value);
        sl_list_text_append (out, start, value->str, value->len);
      }
  tf_extra_scratch_release ();
}

/* $(grep [--max-count N] FILTER T ...) and $(context-lookup ...): the
 * templates over the messages FILTER matches, up to N of them (0: all). */
typedef struct
{
  SlTextFilter *filter;
  gint64 max_count;
  GArray *templates;   /* indexes into the call's arguments */
} TfLookup;

static void
lookup_free (gpointer state)
{
  TfLookup *lookup = state;
  if (lookup->filter)
    sl_text_filter_free (lookup->filter);
  g_array_unref (lookup->templates);
  g_free (lookup);
}

static gboolean
parse_max_count (const SlTfCall *call, const gchar *text, gint64 *value, GError **error)
{
  gchar *end;
  errno = 0;
  *value = text ? g_ascii_strtoll (text, &end, 10) : 0;
  if (text && *text && !*end && !errno && *value >= G_MININT && *value <= G_MAXINT)
    return TRUE;
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("$(%s) takes a number after --max-count, not '%s'"),
               call->klass->name, text ? text : "");
  return FALSE;
}

/* The options are read as syslog-ng's GOption reads them: anywhere,
 * as --max-count N, --max-count=N, -m N or -mN. */
static gboolean
lookup_prepare (SlTfCall *call, GError **error)
{
  TfLookup *lookup = g_new0 (TfLookup, 1);
  lookup->templates = g_array_new (FALSE, FALSE, sizeof (gint));
  call->state = lookup;
  gint filter = -1;

  for (gint i = 0; i < call->argc; i++)
    {
      const gchar *arg = call->args[i];
      const gchar *inline_value = NULL;

      if (g_str_has_prefix (arg, "--max-count="))
        inline_value = arg + strlen ("--max-count=");
      else if (g_str_has_prefix (arg, "-m") && arg[2])
        inline_value = arg + 2;
      if (inline_value)
        {
          if (!parse_max_count (call, inline_value, &lookup->max_count, error))
            return FALSE;
        }
      else if (g_str_equal (arg, "--max-count") || g_str_equal (arg, "-m"))
        {
          if (!parse_max_count (call, i + 1 < call->argc ? call->args[i + 1] : NULL, &lookup->max_count, error))
            return FALSE;
          i++;
        }
      else if (filter < 0)
        filter = i;
      else
        g_array_append_val (lookup->templates, i);
    }
  if (!lookup->templates->len)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("$(%s) takes a filter expression and at least one template"),
                   call->klass->name);
      return FALSE;
    }
  gchar *where = g_strdup_printf ("$(%s) condition", call->klass->name);
  lookup->filter = sl_text_filter_compile (call->args[filter], where, error);
  g_free (where);
  return lookup->filter != NULL;
}

/* grep joins the values with commas as they are; context-lookup quotes
 * them as list items. */
static void
lookup_append (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out, gboolean as_list)
{
  const TfLookup *lookup = call->state;
  guint n;
  const SlMessage *const *context = sl_template_env_context (env, &msg, &n);
  GString *value = tf_extra_scratch_acquire ();
  gsize start = out->len;
  gint64 count = 0;

  for (guint m = 0; m < n; m++)
    {
      if (!sl_text_filter_eval (lookup->filter, context[m]))
        continue;
      for (guint i = 0; i < lookup->templates->len; i++)
        {
          const SlTemplate *t = call->arg_templates[g_array_index (lookup->templates, gint, i)];
          if (!as_list)
            {
              if (count || i)
                g_string_append_c (out, ',');
              sl_template_append_context (t, &context[m], 1, env, out);
              continue;
            }
          g_string_truncate (value, 0);
          sl_template_append_context (t, &context[m], 1, env, value);
          sl_list_text_append (out, start, value->str, value->len);
        }
      if (++count == lookup->max_count)
        break;
    }
  tf_extra_scratch_release ();
}

static void
grep_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  lookup_append (call, msg, env, out, FALSE);
}

static void
context_lookup_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  lookup_append (call, msg, env, out, TRUE);
}

/* $(min T), $(max T), $(sum T), $(average T): over the messages whose T
 * is a whole decimal integer; nothing when none is. */
typedef enum
{
  AGGREGATE_MIN,
  AGGREGATE_MAX,
  AGGREGATE_SUM,
  AGGREGATE_AVERAGE,
} TfAggregate;

static gboolean
one_template (SlTfCall *call, GError **error)
{
  if (call->argc == 1)
    return TRUE;
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("$(%s) takes one argument"), call->klass->name);
  return FALSE;
}

static void
aggregate (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out, TfAggregate kind)
{
  guint n;
  const SlMessage *const *context = sl_template_env_context (env, &msg, &n);
  GString *text = tf_extra_scratch_acquire ();
  gint64 result = 0, count = 0;

  for (guint m = 0; m < n; m++)
    {
      g_string_truncate (text, 0);
      sl_template_append_context (call->arg_templates[0], &context[m], 1, env, text);
      gchar *end;
      errno = 0;
      gint64 v = g_ascii_strtoll (text->str, &end, 10);
      if (!text->len || end != text->str + text->len || errno)
        continue;
      if (!count++)
        result = v;
      else if (kind == AGGREGATE_MIN)
        result = MIN (result, v);
      else if (kind == AGGREGATE_MAX)
        result = MAX (result, v);
      else
        result += v;
    }
  tf_extra_scratch_release ();
  if (count)
    g_string_append_printf (out, "%" G_GINT64_FORMAT, kind == AGGREGATE_AVERAGE ? result / count : result);
}

static void
min_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  aggregate (call, msg, env, out, AGGREGATE_MIN);
}

static void
max_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  aggregate (call, msg, env, out, AGGREGATE_MAX);
}

static void
sum_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  aggregate (call, msg, env, out, AGGREGATE_SUM);
}

static void
average_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  aggregate (call, msg, env, out, AGGREGATE_AVERAGE);
}

#define TF_CLASS(var, word, text, prep, ev, fr) \
  const SlDriverClass var = { \
    .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = word, .summary = text, \
    .ops.template_function = &(const SlTemplateFunctionOps) { .prepare = prep, .eval = ev, .free = fr }, \
  }

TF_CLASS (tf_context_length_class, "context-length", "the number of messages in the correlation context",
          NULL, context_length_eval, NULL);
TF_CLASS (tf_context_values_class, "context-values",
          "a list of each template over each message of the correlation context", NULL, context_values_eval, NULL);
TF_CLASS (tf_context_lookup_class, "context-lookup",
          "a list of the templates over the context's messages a filter matches: $(context-lookup [-m N] (FILTER) T ...)",
          lookup_prepare, context_lookup_eval, lookup_free);
TF_CLASS (tf_grep_class, "grep",
          "the templates over the context's messages a filter matches, joined by commas: $(grep [-m N] (FILTER) T ...)",
          lookup_prepare, grep_eval, lookup_free);
TF_CLASS (tf_min_class, "min", "the smallest integer value of its argument over the correlation context",
          one_template, min_eval, NULL);
TF_CLASS (tf_max_class, "max", "the largest integer value of its argument over the correlation context",
          one_template, max_eval, NULL);
TF_CLASS (tf_sum_class, "sum", "the sum of the integer values of its argument over the correlation context",
          one_template, sum_eval, NULL);
TF_CLASS (tf_average_class, "average",
          "the average (integer division) of the integer values of its argument over the correlation context",
          one_template, average_eval, NULL);
