/* SPDX-License-Identifier: GPL-2.0-or-later */
/* grouping-by(): syslog-ng's correlation parser. Messages with the same
 * key() (within scope()) gather in a context (correlation.h); when
 * trigger() passes, or the context expires, it becomes one message made by
 * aggregate(), which goes on along the path after the parser as syslog-ng
 * emits it. */
#include "plugins/parsers/grouping-by/correlation.h"
#include "plugins/parsers/grouping-by/grouping-private.h"
#include "core/compile/config.h"
#include "core/config/error.h"
#include "core/route/filter-expr.h"
#include "core/i18n.h"
#include "core/plugin/plugin.h"
#include "core/route/route.h"
#include "core/message/template.h"

#include <string.h>

enum { INJECT_PASS_THROUGH, INJECT_AGGREGATE_ONLY, INJECT_INTERNAL };
enum { INHERIT_NONE, INHERIT_LAST_MESSAGE, INHERIT_CONTEXT };

static const SlOptionWord inject_words[] = {
  { "pass-through", INJECT_PASS_THROUGH }, { "aggregate-only", INJECT_AGGREGATE_ONLY },
  { "internal", INJECT_INTERNAL },
  { NULL }
};

static const SlOptionWord inherit_words[] = {
  { "none", INHERIT_NONE }, { "last-message", INHERIT_LAST_MESSAGE }, { "context", INHERIT_CONTEXT },
  { NULL }
};

typedef struct
{
  SlHandle field;
  SlTemplate *template;
} AggregateValue;

/* The messages of one key, oldest first. */
typedef struct
{
  CorrContext base;
  GPtrArray *messages;       /* SlMessage */
} Context;

typedef struct
{
  SlDriver base;
  SlTemplate *key;
  SlTemplate *sort_key;
  gint scope;
  SlFilterExpr *where;
  SlFilterExpr *having;
  SlFilterExpr *trigger;
  gint64 timeout;
  const SlCfgNode *aggregate;
  gint inject_mode;

  GArray *values;            /* AggregateValue */
  GArray *tags;              /* SlTag */
  gint inherit_mode;
  SlHandle context_id;
  Correlation correlation;
} GroupingBy;

static const SlOptionSpec grouping_by_options[] = {
  { "key", SL_TEMPLATE (GroupingBy, key), NULL, "the template whose value groups messages into a context" },
  { "scope", SL_CHOICE (GroupingBy, scope), "global",
    "what else a context shares: process (host, program, pid), program (host, program), host, or global",
    .words = correlation_scope_words },
  { "where", SL_FILTER (GroupingBy, where), NULL, "only messages that pass it are grouped" },
  { "having", SL_FILTER (GroupingBy, having), NULL,
    "a context whose newest message fails it is dropped instead of aggregated" },
  { "trigger", SL_FILTER (GroupingBy, trigger), NULL,
    "a message that passes it closes its context at once" },
  { "timeout", SL_DURATION (GroupingBy, timeout), NULL,
    "a context with no new message for this long is aggregated", .flags = SL_OPT_REQUIRED,
    SL_RANGE (1000, G_MAXINT64) },
  { "sort-key", SL_TEMPLATE (GroupingBy, sort_key), NULL,
    "messages of a context are put in the order of this template's value before aggregating" },
  { "aggregate", SL_BLOCK (GroupingBy, aggregate), NULL,
    "the message a context makes: value(\"NAME\" \"TEMPLATE\") ..., tags(\"TAG\" ...), inherit-mode(context|last-message|none)" },
  { "inject-mode", SL_CHOICE (GroupingBy, inject_mode), "pass-through",
    "pass-through: the grouped messages go on as well; aggregate-only: only aggregates go on",
    .words = inject_words },
  { NULL }
};

static void
context_clear (CorrContext *c)
{
  g_clear_pointer (&((Context *) c)->messages, g_ptr_array_unref);
}

static gboolean
read_aggregate (GroupingBy *self, GError **error)
{
  SlDriver *d = &self->base;
  if (!self->aggregate)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("grouping-by() needs aggregate()"));
      return FALSE;
    }
  self->inherit_mode = INHERIT_CONTEXT;
  const GPtrArray *children = self->aggregate->children;
  for (guint i = 0; children && i < children->len; i++)
    {
      const SlCfgNode *c = g_ptr_array_index (children, i);
      guint argc = c->args ? c->args->len : 0;
      if (sl_cfg_name_equal (c->name, "value"))
        {
          if (argc != 2)
            {
              sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, c->pos, _("value() takes a name and a template"));
              return FALSE;
            }
          SlTemplate *t = sl_config_compile_template (d->cfg, sl_cfg_node_arg (c, 1),
                                                      ((SlCfgArg *) g_ptr_array_index (c->args, 1))->pos, error);
          if (!t)
            return FALSE;
          AggregateValue v = { sl_field_handle (sl_cfg_node_arg (c, 0)), t };
          g_array_append_val (self->values, v);
        }
      else if (sl_cfg_name_equal (c->name, "tags"))
        for (guint a = 0; a < argc; a++)
          {
            SlTag tag = sl_tag_id (sl_cfg_node_arg (c, a));
            g_array_append_val (self->tags, tag);
          }
      else if (sl_cfg_name_equal (c->name, "inherit-mode") && argc == 1)
        {
          const gchar *word = sl_cfg_node_arg (c, 0);
          gint mode = -1;
          for (const SlOptionWord *w = inherit_words; w->word; w++)
            if (sl_cfg_name_equal (word, w->word))
              mode = w->value;
          if (mode < 0)
            {
              sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, c->pos,
                                _("inherit-mode() takes context, last-message or none, not '%s'"), word);
              return FALSE;
            }
          self->inherit_mode = mode;
        }
      else
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, c->pos,
                            _("aggregate() takes value(\"NAME\" \"TEMPLATE\"), tags() and inherit-mode(), not '%s'"),
                            c->name);
          return FALSE;
        }
    }
  return TRUE;
}

static void
value_clear (gpointer p)
{
  sl_template_unref (((AggregateValue *) p)->template);
}

static const CorrClass grouping_by_contexts;

static gboolean
grouping_by_init (SlDriver *d, GError **error)
{
  GroupingBy *self = (GroupingBy *) d;
  self->values = g_array_new (FALSE, FALSE, sizeof (AggregateValue));
  g_array_set_clear_func (self->values, value_clear);
  self->tags = g_array_new (FALSE, FALSE, sizeof (SlTag));
  self->context_id = sl_field_handle (".classifier.context_id");

  if (!self->key)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("grouping-by() needs key()"));
      return FALSE;
    }
  if (self->inject_mode == INJECT_INTERNAL)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "inject-mode"),
                        _("grouping-by() cannot send aggregates to internal(): use inject-mode(pass-through) "
                          "or inject-mode(aggregate-only)"));
      return FALSE;
    }
  correlation_init (&self->correlation, d, &grouping_by_contexts, self->scope, self->timeout);
  return read_aggregate (self, error);
}

static gint
compare_by_sort_key (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const SlTemplate *t = user_data;
  const SlMessage *x = *(SlMessage *const *) a, *y = *(SlMessage *const *) b;
  GString *kx = g_string_new (NULL), *ky = g_string_new (NULL);
  sl_template_append (t, x, NULL, kx);
  sl_template_append (t, y, NULL, ky);
  gint r = strcmp (kx->str, ky->str);
  g_string_free (kx, TRUE);
  g_string_free (ky, TRUE);
  return r;
}

static gboolean
merge_missing (SlHandle h, const gchar *value, gsize len, gpointer user_data)
{
  SlMessage *into = user_data;
  if (!sl_message_has (into, h))
    sl_message_set (into, h, value, len);
  return TRUE;
}

/* The aggregate's starting point, as syslog-ng's inherit-mode() makes it. */
static SlMessage *
new_aggregate (const GroupingBy *self, const Context *c)
{
  const SlMessage *newest = g_ptr_array_index (c->messages, c->messages->len - 1);
  SlMessage *msg;
  if (self->inherit_mode == INHERIT_NONE)
    {
      msg = sl_message_new ("", 0);
      msg->pri = SL_PRI_MAKE (1, 5);
      msg->flags |= SL_MSG_LOCAL;
      msg->stamp = newest->stamp;
      sl_time_now (&msg->recvd);
    }
  else
    msg = sl_message_clone (newest);
  if (self->inherit_mode == INHERIT_CONTEXT)
    for (guint i = c->messages->len - 1; i-- > 0;)
      sl_message_foreach_dynamic (g_ptr_array_index (c->messages, i), merge_missing, msg);
  if (self->scope <= SCOPE_PROCESS)
    sl_message_set (msg, SL_F_PID, c->base.pid, -1);
  if (self->scope <= SCOPE_PROGRAM)
    sl_message_set (msg, SL_F_PROGRAM, c->base.program, -1);
  if (self->scope <= SCOPE_HOST)
    sl_message_set (msg, SL_F_HOST, c->base.host, -1);
  return msg;
}

/* The message context c makes, or NULL when having() drops it. The
 * aggregate is the context's last message while its values are
 * rendered, so that @0 is the aggregate itself, as in syslog-ng. */
static SlMessage *
aggregate (GroupingBy *self, Context *c)
{
  if (self->sort_key)
    g_ptr_array_sort_with_data (c->messages, compare_by_sort_key, self->sort_key);
  if (self->having)
    {
      SlMessage *newest = sl_message_ref (g_ptr_array_index (c->messages, c->messages->len - 1));
      gboolean keep = sl_filter_expr_eval (self->having, &newest);
      sl_message_unref (newest);
      if (!keep)
        return NULL;
    }
  SlMessage *msg = new_aggregate (self, c);
  g_ptr_array_add (c->messages, sl_message_ref (msg));
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < self->values->len; i++)
    {
      const AggregateValue *v = &g_array_index (self->values, AggregateValue, i);
      g_string_truncate (text, 0);
      sl_template_append_context (v->template, (const SlMessage *const *) c->messages->pdata, c->messages->len,
                                  NULL, text);
      sl_message_set (msg, v->field, text->str, text->len);
    }
  g_string_free (text, TRUE);
  for (guint i = 0; i < self->tags->len; i++)
    sl_message_set_tag_id (msg, g_array_index (self->tags, SlTag, i));
  return msg;
}

static SlMessage *
aggregate_expired (SlDriver *owner, CorrContext *c)
{
  return aggregate ((GroupingBy *) owner, (Context *) c);
}

static const CorrClass grouping_by_contexts = { sizeof (Context), context_clear, aggregate_expired };

static gboolean
grouping_by_process (SlDriver *d, SlMessage **msg)
{
  GroupingBy *self = (GroupingBy *) d;
  if (self->where && !sl_filter_expr_eval (self->where, msg))
    return self->inject_mode != INJECT_AGGREGATE_ONLY;

  sl_message_make_writable (msg);
  gsize session_len;
  const gchar *session = sl_template_peek (self->key, *msg, &session_len);
  sl_message_set (*msg, self->context_id, session, session_len);

  gboolean complete = FALSE;
  if (self->trigger)
    {
      SlMessage *probe = sl_message_ref (*msg);
      complete = sl_filter_expr_eval (self->trigger, &probe);
      sl_message_unref (probe);
    }

  g_autoptr (GPtrArray) due = NULL;
  session = sl_message_get (*msg, self->context_id, &session_len);
  Context *c = (Context *) correlation_enter (&self->correlation, *msg, session, session_len, &due);
  if (!c->messages)
    c->messages = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_message_unref);
  g_ptr_array_add (c->messages, sl_message_ref (*msg));
  if (complete)
    correlation_take (&self->correlation, &c->base);
  correlation_leave (&self->correlation);

  /* what this message's time expired goes first, as in syslog-ng */
  correlation_emit (&self->correlation, due);
  if (complete)
    {
      SlMessage *aggregated = aggregate (self, c);
      correlation_context_free (&self->correlation, &c->base);
      if (aggregated)
        sl_parser_emit (aggregated);
    }
  return self->inject_mode != INJECT_AGGREGATE_ONLY;
}

static void
grouping_by_free (SlDriver *d)
{
  GroupingBy *self = (GroupingBy *) d;
  if (self->correlation.contexts)
    correlation_clear (&self->correlation);
  if (self->values)
    g_array_unref (self->values);
  if (self->tags)
    g_array_unref (self->tags);
}

static const SlParserOps grouping_by_ops = { .process = grouping_by_process };

const SlDriverClass grouping_by_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "grouping-by",
  .summary = "correlates messages by a key into one aggregate message, on a trigger or a timeout",
  .options = grouping_by_options,
  .capabilities = SL_CAP_EMITS,
  .instance_size = sizeof (GroupingBy),
  .init = grouping_by_init,
  .free = grouping_by_free,
  .ops.parser = &grouping_by_ops,
};
