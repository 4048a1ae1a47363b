/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rate-limit(template("$HOST") rate(5000)): lets through at most rate()
 * messages a second (a period()) for each value of the template (one budget for all
 * when there is no template), and up to rate() at once after a quiet
 * second; what is over the budget does not match. throttle() is its older
 * name.
 *
 * Filters run on every source thread at once, so the budgets take no lock:
 * each is one 64-bit "theoretical arrival time" (the generic cell rate
 * algorithm, a token bucket in one number) changed with compare-and-swap,
 * kept in a fixed open-addressing table of keys hashed to 64 bits. The
 * table holds max-keys() keys; when a key finds no place, it takes over
 * the place of a key whose budget is full again (forgetting that one
 * changes nothing), and when there is none, it shares one budget with
 * every other such key, which is counted. Two threads that race on the
 * same place can let a message more or fewer through; the budgets are
 * exact otherwise. */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/plugin/plugin.h"
#include "core/plugin/registry.h"
#include "core/stats.h"
#include "core/message/template.h"

#include <string.h>

#define NSEC_PER_SEC G_GINT64_CONSTANT (1000000000)
/* places a key may take, from where its hash points */
#define PROBES 16

typedef struct
{
  guint64 key;           /* hash of the template's value; 0: never used */
  gint64 due;            /* when the budget is full again, ns on the monotonic clock */
} Budget;

typedef struct
{
  SlDriver super;
  gint rate;
  gint64 period_ms;
  gint max_keys;
  SlTemplate *template;
  SlTemplate *key_option;
  SlTemplate *key;       /* NULL: one budget for everything */
  gint64 interval;       /* ns one message uses of the budget: period() / rate() */
  gint64 tolerance;      /* how far due may run ahead of now: a period's burst */
  Budget *table;
  guint mask;            /* table size - 1, a power of two */
  guint64 seed;          /* so that senders cannot aim at one another's places */
  Budget shared;         /* no template, or keys that found no place */
  SlCounter *overflows;
} RateLimitFilter;

static const SlOptionSpec rate_limit_options[] = {
  { "rate", SL_INT (RateLimitFilter, rate), NULL, "messages a period() for each value of the template",
    .flags = SL_OPT_REQUIRED, SL_RANGE (1, NSEC_PER_SEC) },
  { "period", SL_DURATION (RateLimitFilter, period_ms), "1",
    "what rate() is counted over: rate(1) period(10) lets one message through every 10 seconds, as rsyslog's "
    "action.execOnlyOnceEveryInterval=\"10\" runs an action", SL_RANGE (1, G_GINT64_CONSTANT (86400000000)) },
  { "template", SL_TEMPLATE (RateLimitFilter, template), NULL,
    "what messages are counted by, such as $HOST; unset: all together" },
  { "key", SL_TEMPLATE (RateLimitFilter, key_option), NULL, "the same as template()" },
  { "max-keys", SL_INT (RateLimitFilter, max_keys), "10000", "template values kept at once; further ones share one budget",
    SL_RANGE (1, 1 << 24) },
  { NULL }
};

static gboolean
rate_limit_init (SlDriver *d, GError **error)
{
  RateLimitFilter *self = (RateLimitFilter *) d;
  gint64 period = self->period_ms * G_GINT64_CONSTANT (1000000);
  self->interval = period / self->rate;
  self->tolerance = period - self->interval;

  self->key = self->key_option ? self->key_option : self->template;
  if (self->key)
    {
      /* at most half full, so that a key finds its place in a few probes */
      guint size = 2 * PROBES;
      while (size < 2 * (guint) self->max_keys)
        size <<= 1;
      self->table = g_new0 (Budget, size);
      self->mask = size - 1;
      self->seed = ((guint64) g_random_int () << 32) | g_random_int ();
      self->overflows = sl_stats_counter (sl_driver_kind_name (d->klass->kind), d->id, d->klass->name,
                                          "key-overflows");
    }
  return TRUE;
}

static void
rate_limit_free (SlDriver *d)
{
  RateLimitFilter *self = (RateLimitFilter *) d;
  g_free (self->table);
}

static guint64
hash_key (const RateLimitFilter *self, const gchar *value, gsize len)
{
  guint64 h = 14695981039346656037ull ^ self->seed;
  for (gsize i = 0; i < len; i++)
    h = (h ^ (guchar) value[i]) * 1099511628211ull;
  return h ? h : 1;
}

/* Takes one message's share of the budget if it is there. */
static gboolean
spend (const RateLimitFilter *self, Budget *b, gint64 now)
{
  gint64 due = __atomic_load_n (&b->due, __ATOMIC_RELAXED);
  for (;;)
    {
      gint64 start = MAX (due, now);
      if (start - now > self->tolerance)
        return FALSE;
      if (__atomic_compare_exchange_n (&b->due, &due, start + self->interval, TRUE,
                                       __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        return TRUE;
    }
}

static Budget *
find_budget (RateLimitFilter *self, guint64 key, gint64 now)
{
  /* a key's place is the first free one from its hash on, and places are
   * never freed, only taken over: so it is found before any free place */
  for (guint i = 0; i < PROBES; i++)
    {
      Budget *b = &self->table[(key + i) & self->mask];
      guint64 held = __atomic_load_n (&b->key, __ATOMIC_ACQUIRE);
      if (held == key)
        return b;
      if (held == 0)
        {
          if (__atomic_compare_exchange_n (&b->key, &held, key, FALSE, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)
              || held == key)
            return b;
        }
    }
  for (guint i = 0; i < PROBES; i++)
    {
      Budget *b = &self->table[(key + i) & self->mask];
      if (__atomic_load_n (&b->due, __ATOMIC_RELAXED) > now)
        continue;
      guint64 held = __atomic_load_n (&b->key, __ATOMIC_ACQUIRE);
      if (__atomic_compare_exchange_n (&b->key, &held, key, FALSE, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return b;
    }
  sl_counter_add (self->overflows, 1);
  return &self->shared;
}

static gboolean
rate_limit_match (SlDriver *d, const SlMessage *msg)
{
  RateLimitFilter *self = (RateLimitFilter *) d;
  gint64 now = g_get_monotonic_time () * 1000;
  if (!self->key)
    return spend (self, &self->shared, now);
  gsize len;
  const gchar *value = sl_template_peek (self->key, msg, &len);
  return spend (self, find_budget (self, hash_key (self, value, len), now), now);
}

static const SlFilterOps rate_limit_ops = { .match = rate_limit_match };

#define RATE_LIMIT_CLASS(var, word) \
  static const SlDriverClass var = { \
    .kind = SL_DRIVER_FILTER, \
    .name = word, \
    .summary = "at most rate() messages a second for each value of template(): " \
               "rate-limit(template(\"$HOST\") rate(5000))", \
    .options = rate_limit_options, \
    .instance_size = sizeof (RateLimitFilter), \
    .init = rate_limit_init, \
    .free = rate_limit_free, \
    .ops.filter = &rate_limit_ops, \
  }

RATE_LIMIT_CLASS (rate_limit_class, "rate-limit");
RATE_LIMIT_CLASS (throttle_class, "throttle");

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "rate-limit-filter",
  .drivers = (const SlDriverClass *const[]) { &rate_limit_class, &throttle_class, NULL },
};
