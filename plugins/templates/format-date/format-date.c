/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(format-date [--time-zone TZ] FORMAT [STAMP]), as syslog-ng 4 defines
 * it: strftime() of FORMAT (written as is, not a template; no %f, which
 * strftime() does not know) over STAMP, a UNIX time with an optional
 * fraction and an optional +hh:mm zone, or the message's stamp. A STAMP
 * that does not read so is the epoch. The stamp is shown in its own zone
 * (a STAMP without one: the local zone) unless --time-zone names another. */
#include "core/plugin/plugin.h"
#include "core/i18n.h"
#include "core/message/template.h"
#include "core/config/error.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct
{
  gchar *format;
  GTimeZone *zone;      /* --time-zone, or NULL */
  gint stamp_arg;       /* the argument that is STAMP, or -1 */
} FormatDate;

static GPrivate stamp_key = SL_SCRATCH_INIT;

static void
format_date_free (gpointer state)
{
  FormatDate *f = state;
  g_free (f->format);
  if (f->zone)
    g_time_zone_unref (f->zone);
  g_free (f);
}

static gboolean
usage (GError **error)
{
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
               _("$(format-date) takes [--time-zone TZ] FORMAT [STAMP]"));
  return FALSE;
}

/* --time-zone TZ, --time-zone=TZ or -Z TZ (syslog-ng reads them with GOption) */
static const gchar *
zone_option (const SlTfCall *call, gint *i)
{
  const gchar *arg = call->args[*i];
  if (g_str_has_prefix (arg, "--time-zone="))
    return arg + strlen ("--time-zone=");
  if ((strcmp (arg, "--time-zone") == 0 || strcmp (arg, "-Z") == 0) && *i + 1 < call->argc)
    return call->args[++*i];
  return NULL;
}

static gboolean
format_date_prepare (SlTfCall *call, GError **error)
{
  FormatDate *f = g_new0 (FormatDate, 1);
  f->stamp_arg = -1;
  call->state = f;
  gint i = 0;
  if (i < call->argc && call->args[i][0] == '-')
    {
      const gchar *zone = zone_option (call, &i);
      if (!zone)
        return usage (error);
      f->zone = g_time_zone_new_identifier (zone);
      if (!f->zone)
        {
          g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                       _("$(format-date): unknown time zone '%s'"), zone);
          return FALSE;
        }
      i++;
    }
  if (i >= call->argc || call->argc - i > 2)
    return usage (error);
  f->format = g_strdup (call->args[i]);
  if (i + 1 < call->argc)
    f->stamp_arg = i + 1;
  return TRUE;
}

/* syslog-ng's datetime: [-]SECONDS[.FRACTION of 1-9 digits][+hh:mm|-hh:mm] */
static gboolean
read_stamp (const gchar *text, gint64 *sec, gint32 *gmtoff, gboolean *has_zone)
{
  gchar *end;
  *sec = g_ascii_strtoll (text, &end, 10);
  if (*end == '.')
    {
      const gchar *digits = end + 1;
      g_ascii_strtoll (digits, &end, 10);
      if (end == digits || end - digits > 9)
        return FALSE;
    }
  *has_zone = *end != '\0';
  if (!*has_zone)
    return TRUE;
  if (!((end[0] == '+' || end[0] == '-') && g_ascii_isdigit (end[1]) && g_ascii_isdigit (end[2]) && end[3] == ':'
        && g_ascii_isdigit (end[4]) && g_ascii_isdigit (end[5]) && !g_ascii_isdigit (end[6])))
    return FALSE;
  gint32 minutes = ((end[1] - '0') * 10 + end[2] - '0') * 60 + (end[4] - '0') * 10 + end[5] - '0';
  *gmtoff = (end[0] == '-' ? -60 : 60) * minutes;
  return TRUE;
}

static void
format_date_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  const FormatDate *f = call->state;
  gint64 sec;
  gint32 gmtoff = 0;
  gboolean known_zone = TRUE;
  if (f->stamp_arg < 0)
    {
      /* the second the stamp is in, also before 1970 */
      sec = msg->stamp.usec / G_USEC_PER_SEC;
      if (msg->stamp.usec % G_USEC_PER_SEC < 0)
        sec--;
      gmtoff = msg->stamp.gmtoff;
    }
  else
    {
      GString *text = sl_scratch_push (&stamp_key);
      sl_template_append (call->arg_templates[f->stamp_arg], msg, env, text);
      if (!read_stamp (text->str, &sec, &gmtoff, &known_zone))
        {
          sec = 0;
          known_zone = FALSE;
        }
      sl_scratch_pop (&stamp_key);
    }

  const gchar *abbreviation = NULL;
  if (f->zone)
    {
      gint interval = g_time_zone_find_interval (f->zone, G_TIME_TYPE_UNIVERSAL, sec);
      gmtoff = g_time_zone_get_offset (f->zone, interval);
      abbreviation = g_time_zone_get_abbreviation (f->zone, interval);
    }
  else if (!known_zone)
    gmtoff = sl_time_local_gmtoff (sec);

  time_t shifted = (time_t) (sec + gmtoff);
  struct tm tm;
  gmtime_r (&shifted, &tm);
  /* %z and %Z of the zone shown, not of UTC that gmtime_r() speaks */
  tm.tm_gmtoff = gmtoff;
  tm.tm_zone = abbreviation ? abbreviation : "";
  /* strftime() says 0 both for an empty result and for one that did not
   * fit: the buffer grows a few times before the result counts as empty */
  gsize from = out->len;
  for (gsize room = 64; room <= 64 * 1024; room *= 4)
    {
      g_string_set_size (out, from + room);
      /* the format is the user's by design: that is what the function is */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
      gsize n = strftime (out->str + from, room, f->format, &tm);
#pragma GCC diagnostic pop
      if (n > 0 || !*f->format)
        {
          g_string_set_size (out, from + n);
          return;
        }
    }
  g_string_set_size (out, from);
}

static const SlTemplateFunctionOps format_date_ops = {
  .prepare = format_date_prepare, .eval = format_date_eval, .free = format_date_free,
};

static const SlDriverClass format_date_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "format-date",
  .summary = "a stamp (the message's, or a UNIX time) formatted by strftime()",
  .ops.template_function = &format_date_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "format-date",
  .drivers = (const SlDriverClass *const[]) { &format_date_class, NULL },
};
