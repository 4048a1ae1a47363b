/* SPDX-License-Identifier: GPL-2.0-or-later */
/* set-facility("local3"), set-severity("err") and set-pri("92"): change
 * the message's priority. The value is a name or a number, or a template
 * that renders one ("$.json.level"); a fixed value is checked when the
 * configuration loads, a rendered one that is neither is left alone and
 * counted (invalid-values), as syslog-ng ignores it. */
#include "plugins/rewrites/basic/rewrite-rule.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/priority.h"
#include "core/plugin/registry.h"
#include "core/stats.h"
#include "core/message/template.h"

#include <string.h>

typedef enum
{
  PART_FACILITY,
  PART_SEVERITY,
  PART_PRI,
} PriPart;

typedef struct
{
  RewriteRule rule;
  PriPart part;
  SlTemplate *value;
  gint fixed;             /* the value when it does not depend on the message, else -1 */
  SlCounter *invalid;
} PriRule;

static const SlOptionSpec pri_options[] = {
  { "value", SL_TEMPLATE (PriRule, value), NULL, "a name or number, or a template that renders one",
    .flags = SL_OPT_POSITIONAL },
  REWRITE_RULE_OPTIONS,
  { NULL }
};

/* The facility, severity or PRI that text (len bytes) names, or -1. */
static gint
parse_value (PriPart part, const gchar *text, gsize len)
{
  static const guint limits[] = { [PART_FACILITY] = 24, [PART_SEVERITY] = 8, [PART_PRI] = 192 };
  gchar word[16];
  if (!len || len >= sizeof word)
    return -1;
  memcpy (word, text, len);
  word[len] = '\0';
  if (g_ascii_isdigit (word[0]))
    {
      gchar *end;
      guint64 n = g_ascii_strtoull (word, &end, 10);
      return !*end && n < limits[part] ? (gint) n : -1;
    }
  if (part == PART_PRI)
    return -1;
  return part == PART_FACILITY ? sl_facility_lookup (word) : sl_level_lookup (word);
}

static gboolean
pri_init (SlDriver *d, GError **error)
{
  PriRule *self = (PriRule *) d;
  self->part = d->klass == &rewrite_set_facility_class ? PART_FACILITY
               : d->klass == &rewrite_set_severity_class ? PART_SEVERITY : PART_PRI;
  self->fixed = -1;
  if (!self->value)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("%s() needs a value, as in %s"), d->klass->name,
                        self->part == PART_FACILITY ? "set-facility(\"local3\")"
                        : self->part == PART_SEVERITY ? "set-severity(\"err\")" : "set-pri(\"92\")");
      return FALSE;
    }
  if (sl_template_is_literal (self->value))
    {
      gsize len;
      const gchar *text = sl_template_peek (self->value, NULL, &len);
      self->fixed = parse_value (self->part, text, len);
      if (self->fixed < 0)
        {
          const gchar *written = sl_template_text (self->value);
          SlCfgPos pos = sl_options_pos (d->options, "value");
          if (self->part == PART_FACILITY)
            sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos,
                              _("unknown facility '%s'; use a name such as local3 or a number 0 to 23"), written);
          else if (self->part == PART_SEVERITY)
            sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos,
                              _("unknown severity '%s'; use a name such as err or a number 0 to 7"), written);
          else
            sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("'%s' is no priority; use a number 0 to 191"),
                              written);
          return FALSE;
        }
    }
  else
    self->invalid = sl_stats_counter (sl_driver_kind_name (d->klass->kind), d->id, d->klass->name,
                                      "invalid-values");
  return TRUE;
}

static gboolean
pri_process (SlDriver *d, SlMessage **msg)
{
  PriRule *self = (PriRule *) d;
  if (!rewrite_rule_applies (&self->rule, msg))
    return TRUE;
  gint v = self->fixed;
  if (v < 0)
    {
      gsize len;
      const gchar *text = sl_template_peek (self->value, *msg, &len);
      if ((v = parse_value (self->part, text, len)) < 0)
        {
          sl_counter_add (self->invalid, 1);
          return TRUE;
        }
    }
  guint8 pri = (*msg)->pri;
  switch (self->part)
    {
    case PART_FACILITY: pri = SL_PRI_MAKE (v, SL_PRI_SEVERITY (pri)); break;
    case PART_SEVERITY: pri = SL_PRI_MAKE (SL_PRI_FACILITY (pri), v); break;
    case PART_PRI: pri = (guint8) v; break;
    }
  if (pri == (*msg)->pri)
    return TRUE;
  sl_message_make_writable (msg);
  (*msg)->pri = pri;
  return TRUE;
}

static const SlRewriteOps pri_ops = { .process = pri_process };

#define PRI_RULE_CLASS(var, word, text) \
  const SlDriverClass var = { \
    .kind = SL_DRIVER_REWRITE, \
    .name = word, \
    .summary = text, \
    .options = pri_options, \
    .instance_size = sizeof (PriRule), \
    .init = pri_init, \
    .ops.rewrite = &pri_ops, \
  }

PRI_RULE_CLASS (rewrite_set_facility_class, "set-facility", "change the facility: set-facility(\"local3\")");
PRI_RULE_CLASS (rewrite_set_severity_class, "set-severity", "change the severity: set-severity(\"err\")");
PRI_RULE_CLASS (rewrite_set_pri_class, "set-pri", "change facility and severity at once: set-pri(\"92\")");
