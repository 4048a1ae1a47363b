/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(rsyslog-date KIND YEAR MONTH DAY HOUR MIN SEC TZOFFSET): the date
 * numbers rsyslogd 8.2302 computes itself (its datetime.c) for the
 * dateFormat values that have no Sluice macro: wday (0 is Sunday),
 * ordinal, week, isoweek and isoweekyear (ISO 8601's week and its year).
 * Its ordinal counts the seconds from the end of the year before, moved
 * by the stamp's offset (one second less for a + offset), in days, and
 * writes that count plus one; its week is (count + 6) / 7, one more when
 * the weekday comes before that of January 1st. */
#include "plugins/templates/rsyslog/rsyslog-classes.h"

#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/template.h"

#include <stdlib.h>
#include <string.h>

static const gchar *const kinds[] = { "wday", "ordinal", "week", "isoweek", "isoweekyear" };

static gboolean
date_prepare (SlTfCall *call, GError **error)
{
  for (guint i = 0; call->argc == 8 && i < G_N_ELEMENTS (kinds); i++)
    if (g_str_equal (call->args[0], kinds[i]))
      {
        call->state = GUINT_TO_POINTER (i);
        return TRUE;
      }
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
               _("$(rsyslog-date) takes wday, ordinal, week, isoweek or isoweekyear, then a stamp's year, month, "
                 "day, hour, minute, second and time zone offset"));
  return FALSE;
}

static gint
number (const SlTfCall *call, gint arg, const SlMessage *msg, const SlTemplateEnv *env)
{
  g_autoptr (GString) text = g_string_new (NULL);

  sl_template_append (call->arg_templates[arg], msg, env, text);
  return atoi (text->str);
}

/* rsyslog's getOrdinal() */
static gint
ordinal (GDateTime *local, gint year, const gchar *offset)
{
  gint hours = 0, minutes = 0;

  if (strlen (offset) == 6 && (offset[0] == '+' || offset[0] == '-'))
    {
      hours = atoi (offset + 1);
      minutes = atoi (offset + 4);
    }
  gint64 shift = hours * 3600 + minutes * 60;
  gint64 now = g_date_time_to_unix (local) - (offset[0] == '-' ? -shift : shift);
  g_autoptr (GDateTime) january = g_date_time_new_utc (year, 1, 1, 0, 0, 0);
  gint64 before = g_date_time_to_unix (january) - 1 + shift - (offset[0] == '-' ? 0 : 1);

  return (gint) ((now - before) / 86400);
}

static void
date_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gint year = number (call, 1, msg, env), month = number (call, 2, msg, env), day = number (call, 3, msg, env);
  g_autoptr (GString) offset = g_string_new (NULL);

  sl_template_append (call->arg_templates[7], msg, env, offset);
  if (!g_date_valid_dmy ((GDateDay) day, (GDateMonth) month, (GDateYear) year))
    return;
  /* the stamp's own clock reading, kept as if it were UTC */
  g_autoptr (GDateTime) local = g_date_time_new_utc (year, month, day, number (call, 4, msg, env),
                                                     number (call, 5, msg, env), number (call, 6, msg, env));
  g_autoptr (GDateTime) january = g_date_time_new_utc (year, 1, 1, 0, 0, 0);
  gint wday = g_date_time_get_day_of_week (local) % 7;
  gint count = ordinal (local, year, offset->str);

  switch (GPOINTER_TO_UINT (call->state))
    {
    case 0:
      g_string_append_printf (out, "%d", wday);
      break;
    case 1:
      g_string_append_printf (out, "%03d", count + 1);
      break;
    case 2:
      g_string_append_printf (out, "%02d", (count + 6) / 7 + (wday < g_date_time_get_day_of_week (january) % 7));
      break;
    case 3:
      g_string_append_printf (out, "%02d", g_date_time_get_week_of_year (local));
      break;
    default:
      g_string_append_printf (out, "%04d", g_date_time_get_week_numbering_year (local));
    }
}

static const SlTemplateFunctionOps date_ops = { .prepare = date_prepare, .eval = date_eval };

const SlDriverClass rsyslog_date_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-date",
  .summary = "rsyslog's wday, ordinal, week, isoweek or isoweekyear of a stamp: "
             "$(rsyslog-date KIND YEAR MONTH DAY HOUR MIN SEC TZOFFSET)",
  .ops.template_function = &date_ops,
};
