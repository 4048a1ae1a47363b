/* SPDX-License-Identifier: GPL-2.0-or-later */
/* grouping-by(): syslog-ng's correlation parser. Messages with the same
 * key() (within scope()) gather in a context; when trigger() passes, or
 * timeout() passed since the context's last message, the context becomes
 * one message made by aggregate(), which goes on along the path after the
 * parser as syslog-ng emits it. Contexts live in memory only: a restart or
 * reload drops them, as syslog-ng 3.38 drops them at exit.
 *
 * Time is syslog-ng's correlation clock: a message stamped later than the
 * clock moves it to its stamp, and a timer of the main loop moves it on
 * by the real seconds that passed; a context expires once the clock is
 * past its last message's time plus timeout(). So old or replayed logs
 * group by their own time, and expire as syslog-ng would expire them. */
#include "core/compile/config.h"
#include "core/config/error.h"
#include "core/route/filter-expr.h"
#include "core/i18n.h"
#include "core/plugin/plugin.h"
#include "core/route/route.h"
#include "core/message/template.h"

#include <string.h>

enum { SCOPE_PROCESS, SCOPE_PROGRAM, SCOPE_HOST, SCOPE_GLOBAL };
enum { INJECT_PASS_THROUGH, INJECT_AGGREGATE_ONLY, INJECT_INTERNAL };
enum { INHERIT_NONE, INHERIT_LAST_MESSAGE, INHERIT_CONTEXT };

static const SlOptionWord scope_words[] = {
  { "process", SCOPE_PROCESS }, { "program", SCOPE_PROGRAM }, { "host", SCOPE_HOST }, { "global", SCOPE_GLOBAL },
  { NULL }
};

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
  gchar *key;                /* scope's host, program, pid and the session, NUL-separated */
  gsize key_len;
  gchar *session;            /* what key() rendered */
  const gchar *host, *program, *pid;   /* into key, as scope() keeps them */
  GPtrArray *messages;       /* SlMessage */
  gint64 expires;            /* on the correlation clock, seconds */
  SlContinuation *next;      /* where the first message went on from the parser */
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

  GMutex lock;
  gint64 now;                /* the correlation clock, seconds */
  gint64 last_tick;          /* monotonic µs when the timer last moved it */
  GHashTable *contexts;      /* Context (by its key) -> the same */
  GSource *timer;
} GroupingBy;

static const SlOptionSpec grouping_by_options[] = {
  { "key", SL_TEMPLATE (GroupingBy, key), NULL, "the template whose value groups messages into a context" },
  { "scope", SL_CHOICE (GroupingBy, scope), "global",
    "what else a context shares: process (host, program, pid), program (host, program), host, or global",
    .words = scope_words },
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

static guint
context_hash (gconstpointer p)
{
  const Context *c = p;
  guint h = 2166136261u;
  for (gsize i = 0; i < c->key_len; i++)
    h = (h ^ (guchar) c->key[i]) * 16777619u;
  return h;
}

static gboolean
context_equal (gconstpointer a, gconstpointer b)
{
  const Context *x = a, *y = b;
  return x->key_len == y->key_len && memcmp (x->key, y->key, x->key_len) == 0;
}

static void
context_free (Context *c)
{
  g_ptr_array_unref (c->messages);
  sl_continuation_free (c->next);
  g_free (c->key);
  g_free (c);
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

static gboolean
grouping_by_init (SlDriver *d, GError **error)
{
  GroupingBy *self = (GroupingBy *) d;
  g_mutex_init (&self->lock);
  self->values = g_array_new (FALSE, FALSE, sizeof (AggregateValue));
  g_array_set_clear_func (self->values, value_clear);
  self->tags = g_array_new (FALSE, FALSE, sizeof (SlTag));
  self->contexts = g_hash_table_new_full (context_hash, context_equal, NULL, (GDestroyNotify) context_free);
  self->context_id = sl_field_handle (".classifier.context_id");
  self->last_tick = g_get_monotonic_time ();

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
    sl_message_set (msg, SL_F_PID, c->pid, -1);
  if (self->scope <= SCOPE_PROGRAM)
    sl_message_set (msg, SL_F_PROGRAM, c->program, -1);
  if (self->scope <= SCOPE_HOST)
    sl_message_set (msg, SL_F_HOST, c->host, -1);
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

/* Moves the clock to now (never back) and takes the contexts it passed
 * out of the table into due. Under the lock. */
static void
advance (GroupingBy *self, gint64 now, GPtrArray *due)
{
  if (now <= self->now)
    return;
  self->now = now;
  GHashTableIter it;
  gpointer c;
  g_hash_table_iter_init (&it, self->contexts);
  while (g_hash_table_iter_next (&it, &c, NULL))
    if (((Context *) c)->expires < now)
      {
        g_hash_table_iter_steal (&it);
        g_ptr_array_add (due, c);
      }
}

static gboolean
tick (gpointer user_data)
{
  GroupingBy *self = user_data;
  GPtrArray *due = g_ptr_array_new_with_free_func ((GDestroyNotify) context_free);
  gint64 mono = g_get_monotonic_time ();
  g_mutex_lock (&self->lock);
  gint64 seconds = (mono - self->last_tick) / G_USEC_PER_SEC;
  if (seconds > 0)
    {
      /* the fraction of a second left over counts towards the next tick */
      self->last_tick += seconds * G_USEC_PER_SEC;
      advance (self, self->now + seconds, due);
    }
  g_mutex_unlock (&self->lock);
  for (guint i = 0; i < due->len; i++)
    {
      Context *ctx = g_ptr_array_index (due, i);
      SlMessage *msg = aggregate (self, ctx);
      if (msg)
        sl_parser_emit_later (&self->base, ctx->next, msg);
    }
  g_ptr_array_unref (due);
  return G_SOURCE_CONTINUE;
}

/* The context's key as scope() sees the message, in buf: host, program,
 * pid (those the scope takes) and the session, NUL-separated. */
static void
make_key (const GroupingBy *self, const SlMessage *msg, const gchar *session, gsize session_len, GString *buf)
{
  static const SlHandle parts[] = { SL_F_HOST, SL_F_PROGRAM, SL_F_PID };
  g_string_truncate (buf, 0);
  for (gint i = 0; i < 3; i++)
    {
      gsize len = 0;
      const gchar *v = i < 3 - self->scope ? sl_message_get (msg, parts[i], &len) : NULL;
      if (v)
        g_string_append_len (buf, v, len);
      g_string_append_c (buf, '\0');
    }
  g_string_append_len (buf, session, session_len);
}

static Context *
new_context (GroupingBy *self, const GString *key)
{
  Context *c = g_new0 (Context, 1);
  c->key = g_memdup2 (key->str, key->len + 1);
  c->key_len = key->len;
  c->host = c->key;
  c->program = c->host + strlen (c->host) + 1;
  c->pid = c->program + strlen (c->program) + 1;
  c->session = (gchar *) c->pid + strlen (c->pid) + 1;
  c->messages = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_message_unref);
  c->next = sl_parser_continuation ();
  g_hash_table_add (self->contexts, c);
  if (!self->timer)
    {
      self->timer = g_timeout_source_new_seconds (1);
      g_source_set_callback (self->timer, tick, self, NULL);
      g_source_attach (self->timer, NULL);
    }
  return c;
}

static gboolean
grouping_by_process (SlDriver *d, SlMessage **msg)
{
  GroupingBy *self = (GroupingBy *) d;
  if (self->where && !sl_filter_expr_eval (self->where, msg))
    return self->inject_mode != INJECT_AGGREGATE_ONLY;

  static __thread GString *key;
  if (!key)
    key = g_string_new (NULL);
  sl_message_make_writable (msg);
  gsize session_len;
  const gchar *session = sl_template_peek (self->key, *msg, &session_len);
  make_key (self, *msg, session, session_len, key);
  sl_message_set (*msg, self->context_id, key->str + key->len - session_len, session_len);

  gboolean complete = FALSE;
  if (self->trigger)
    {
      SlMessage *probe = sl_message_ref (*msg);
      complete = sl_filter_expr_eval (self->trigger, &probe);
      sl_message_unref (probe);
    }

  GPtrArray *due = g_ptr_array_new_with_free_func ((GDestroyNotify) context_free);
  Context probe = { .key = key->str, .key_len = key->len };
  g_mutex_lock (&self->lock);
  advance (self, (*msg)->stamp.usec / G_USEC_PER_SEC, due);
  Context *c = g_hash_table_lookup (self->contexts, &probe);
  if (!c)
    c = new_context (self, key);
  g_ptr_array_add (c->messages, sl_message_ref (*msg));
  c->expires = self->now + self->timeout / 1000;
  if (complete)
    g_hash_table_steal (self->contexts, c);
  g_mutex_unlock (&self->lock);

  /* what this message's time expired goes first, as in syslog-ng */
  for (guint i = 0; i < due->len; i++)
    {
      SlMessage *aggregated = aggregate (self, g_ptr_array_index (due, i));
      if (aggregated)
        sl_parser_emit (aggregated);
    }
  g_ptr_array_unref (due);
  if (complete)
    {
      SlMessage *aggregated = aggregate (self, c);
      context_free (c);
      if (aggregated)
        sl_parser_emit (aggregated);
    }
  return self->inject_mode != INJECT_AGGREGATE_ONLY;
}

static void
grouping_by_free (SlDriver *d)
{
  GroupingBy *self = (GroupingBy *) d;
  if (self->timer)
    {
      g_source_destroy (self->timer);
      g_source_unref (self->timer);
    }
  if (self->contexts)
    g_hash_table_unref (self->contexts);
  if (self->values)
    g_array_unref (self->values);
  if (self->tags)
    g_array_unref (self->tags);
  g_mutex_clear (&self->lock);
}

static const SlParserOps grouping_by_ops = { .process = grouping_by_process };

static const SlDriverClass grouping_by_class = {
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

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "grouping-by",
  .drivers = (const SlDriverClass *const[]) { &grouping_by_class, NULL },
};
