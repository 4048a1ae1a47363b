/* SPDX-License-Identifier: GPL-2.0-or-later */
/* facility(), level() and priority(): match a message's PRI against lists
 * and ranges of names or numbers, as syslog-ng writes them:
 * level(info..warn), facility(auth, authpriv), level(3). */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/plugin/plugin.h"
#include "core/message/priority.h"

#include <string.h>

typedef struct
{
  SlDriver super;
  GPtrArray *values;
  guint32 mask;           /* bit per facility or level number */
  gboolean of_facility;
} PriorityFilter;

static const SlOptionSpec priority_options[] = {
  { "values", SL_LIST (PriorityFilter, values), NULL, "names or numbers, and ranges such as info..warn",
    .flags = SL_OPT_POSITIONAL },
  { NULL }
};

static gint
value_of (const gchar *word, gboolean of_facility)
{
  gint v = of_facility ? sl_facility_lookup (word) : sl_level_lookup (word);
  if (v >= 0)
    return v;
  gchar *end;
  guint64 n = g_ascii_strtoull (word, &end, 10);
  if (*word && !*end && n < (of_facility ? SL_FACILITY_COUNT : SL_LEVEL_COUNT))
    return n;
  return -1;
}

static gboolean
add_item (PriorityFilter *self, const gchar *item, GError **error)
{
  const gchar *const *names = self->of_facility ? sl_facility_names : sl_level_names;
  const gchar *dots = strstr (item, "..");
  gchar *first = dots ? g_strndup (item, dots - item) : g_strdup (item);
  const gchar *last = dots ? dots + 2 : item;
  gint a = value_of (first, self->of_facility);
  gint b = value_of (last, self->of_facility);
  const gchar *bad = a < 0 ? first : (b < 0 ? last : NULL);
  if (bad)
    {
      gchar *known = g_strjoinv (", ", (gchar **) names);
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, self->super.pos,
                        _("unknown %s '%s' in %s(); known: %s"),
                        self->of_facility ? "facility" : "level", bad, self->super.klass->name, known);
      g_free (known);
      g_free (first);
      return FALSE;
    }
  g_free (first);
  /* syslog-ng accepts a range in either direction: emerg..err and err..emerg */
  for (gint v = MIN (a, b); v <= MAX (a, b); v++)
    self->mask |= 1u << v;
  return TRUE;
}

static gboolean
priority_init (SlDriver *d, GError **error)
{
  PriorityFilter *self = (PriorityFilter *) d;
  self->of_facility = *(const gboolean *) d->klass->data;
  GPtrArray *values = self->values;
  if (!values || !values->len)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("%s() needs at least one value"), d->klass->name);
      return FALSE;
    }
  for (guint i = 0; i < values->len; i++)
    {
      const gchar *item = g_ptr_array_index (values, i);
      /* Debian's configuration writes ranges with spaces: level(crit .. emerg) */
      if (i + 2 < values->len && strcmp (g_ptr_array_index (values, i + 1), "..") == 0)
        {
          gchar *range = g_strconcat (item, "..", g_ptr_array_index (values, i + 2), NULL);
          gboolean ok = add_item (self, range, error);
          g_free (range);
          if (!ok)
            return FALSE;
          i += 2;
        }
      else if (!add_item (self, item, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
priority_match (SlDriver *d, const SlMessage *msg)
{
  PriorityFilter *self = (PriorityFilter *) d;
  guint v = self->of_facility ? SL_PRI_FACILITY (msg->pri) : SL_PRI_SEVERITY (msg->pri);
  return v < 32 && (self->mask & (1u << v));
}

static const SlFilterOps priority_ops = { .match = priority_match };

/* what each class reads of the priority: whether the facility */
static const gboolean facility_part = TRUE;
static const gboolean level_part = FALSE;

#define PRIORITY_FILTER_CLASS(var, word, part, text) \
  static const SlDriverClass var = { \
    .kind = SL_DRIVER_FILTER, \
    .name = word, \
    .summary = text, \
    .options = priority_options, \
    .instance_size = sizeof (PriorityFilter), \
    .data = &part, \
    .init = priority_init, \
    .ops.filter = &priority_ops, \
  }

PRIORITY_FILTER_CLASS (facility_class, "facility", facility_part, "match the facility: facility(auth, authpriv) or facility(local0..local7)");
PRIORITY_FILTER_CLASS (level_class, "level", level_part, "match the level: level(err..emerg) or level(info, notice)");
PRIORITY_FILTER_CLASS (priority_class, "priority", level_part, "the same as level()");

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "priority-filters",
  .drivers = (const SlDriverClass *const[]) { &facility_class, &level_class, &priority_class, NULL },
};
