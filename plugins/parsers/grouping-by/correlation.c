/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Time is syslog-ng's correlation clock: a message stamped later than the
 * clock moves it to its stamp, and a timer of the main loop moves it on
 * by the real seconds that passed; a context expires once the clock is
 * past its last message's time plus timeout(). So old or replayed logs
 * group by their own time, and expire as syslog-ng would expire them.
 * Contexts live in memory only: a restart or reload drops them, as
 * syslog-ng 3.38 drops them at exit. */
#include "plugins/parsers/grouping-by/correlation.h"

#include <string.h>

const SlOptionWord correlation_scope_words[] = {
  { "process", SCOPE_PROCESS }, { "program", SCOPE_PROGRAM }, { "host", SCOPE_HOST }, { "global", SCOPE_GLOBAL },
  { NULL }
};

static guint
context_hash (gconstpointer p)
{
  const CorrContext *c = p;
  guint h = 2166136261u;
  for (gsize i = 0; i < c->key_len; i++)
    h = (h ^ (guchar) c->key[i]) * 16777619u;
  return h;
}

static gboolean
context_equal (gconstpointer a, gconstpointer b)
{
  const CorrContext *x = a, *y = b;
  return x->key_len == y->key_len && memcmp (x->key, y->key, x->key_len) == 0;
}

void
correlation_context_free (Correlation *self, CorrContext *c)
{
  self->klass->context_clear (c);
  sl_continuation_free (c->next);
  g_free (c->key);
  g_free (c);
}

void
correlation_init (Correlation *self, SlDriver *owner, const CorrClass *klass, gint scope, gint64 timeout_ms)
{
  self->owner = owner;
  self->klass = klass;
  self->scope = scope;
  self->timeout = timeout_ms / 1000;
  g_mutex_init (&self->lock);
  self->contexts = g_hash_table_new (context_hash, context_equal);
  self->last_tick = g_get_monotonic_time ();
}

void
correlation_clear (Correlation *self)
{
  if (self->timer)
    {
      g_source_destroy (self->timer);
      g_source_unref (self->timer);
    }
  if (self->contexts)
    {
      GHashTableIter it;
      gpointer c;
      g_hash_table_iter_init (&it, self->contexts);
      while (g_hash_table_iter_next (&it, &c, NULL))
        correlation_context_free (self, c);
      g_hash_table_unref (self->contexts);
    }
  g_mutex_clear (&self->lock);
}

/* Moves the clock to now (never back) and takes the contexts it passed
 * out of the table into *due, made on the first one (most messages
 * expire nothing). Under the lock. */
static void
advance (Correlation *self, gint64 now, GPtrArray **due)
{
  if (now <= self->now)
    return;
  self->now = now;
  GHashTableIter it;
  gpointer c;
  g_hash_table_iter_init (&it, self->contexts);
  while (g_hash_table_iter_next (&it, &c, NULL))
    if (((CorrContext *) c)->expires < now)
      {
        g_hash_table_iter_steal (&it);
        if (!*due)
          *due = g_ptr_array_new ();
        g_ptr_array_add (*due, c);
      }
}

static gboolean
tick (gpointer user_data)
{
  Correlation *self = user_data;
  g_autoptr (GPtrArray) due = NULL;
  gint64 mono = g_get_monotonic_time ();
  g_mutex_lock (&self->lock);
  gint64 seconds = (mono - self->last_tick) / G_USEC_PER_SEC;
  if (seconds > 0)
    {
      /* the fraction of a second left over counts towards the next tick */
      self->last_tick += seconds * G_USEC_PER_SEC;
      advance (self, self->now + seconds, &due);
    }
  g_mutex_unlock (&self->lock);
  for (guint i = 0; due && i < due->len; i++)
    {
      CorrContext *c = g_ptr_array_index (due, i);
      SlMessage *msg = self->klass->aggregate (self->owner, c);
      if (msg)
        sl_parser_emit_later (self->owner, c->next, msg);
      correlation_context_free (self, c);
    }
  return G_SOURCE_CONTINUE;
}

/* The context's key as scope() sees the message, in buf: host, program,
 * pid (those the scope takes) and the session, NUL-separated. */
static void
make_key (const Correlation *self, const SlMessage *msg, const gchar *session, gsize session_len, GString *buf)
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

static CorrContext *
new_context (Correlation *self, const GString *key)
{
  CorrContext *c = g_malloc0 (self->klass->context_size);
  c->key = g_memdup2 (key->str, key->len + 1);
  c->key_len = key->len;
  c->host = c->key;
  c->program = c->host + strlen (c->host) + 1;
  c->pid = c->program + strlen (c->program) + 1;
  c->session = (gchar *) c->pid + strlen (c->pid) + 1;
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

CorrContext *
correlation_enter (Correlation *self, const SlMessage *msg, const gchar *session, gsize session_len,
                   GPtrArray **due)
{
  static __thread GString *key;
  if (!key)
    key = g_string_new (NULL);
  make_key (self, msg, session, session_len, key);
  CorrContext probe = { .key = key->str, .key_len = key->len };

  g_mutex_lock (&self->lock);
  advance (self, msg->stamp.usec / G_USEC_PER_SEC, due);
  CorrContext *c = g_hash_table_lookup (self->contexts, &probe);
  if (!c)
    c = new_context (self, key);
  c->expires = self->now + self->timeout;
  return c;
}

void
correlation_leave (Correlation *self)
{
  g_mutex_unlock (&self->lock);
}

void
correlation_take (Correlation *self, CorrContext *c)
{
  g_hash_table_steal (self->contexts, c);
}

void
correlation_emit (Correlation *self, GPtrArray *due)
{
  for (guint i = 0; due && i < due->len; i++)
    {
      CorrContext *c = g_ptr_array_index (due, i);
      SlMessage *msg = self->klass->aggregate (self->owner, c);
      if (msg)
        sl_parser_emit (msg);
      correlation_context_free (self, c);
    }
}
