/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(stardate [--digits N] UNIXTIME), syslog-ng's stardate module: the
 * year of a UNIX time and the part of that year gone by, in N decimal
 * digits (2 unless told, 0 to 9), cut rather than rounded. As syslog-ng
 * 4.8 computes it, the year is UTC's whatever the local zone; a time that
 * does not read as whole seconds (a fraction, trailing text) writes
 * nothing, an empty one is the epoch. */
#include "core/plugin/plugin.h"
#include "core/i18n.h"
#include "core/message/template.h"
#include "core/config/error.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static GPrivate stamp_key = SL_SCRATCH_INIT;

static gboolean
usage (GError **error)
{
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("$(stardate) takes [--digits N] UNIXTIME"));
  return FALSE;
}

/* --digits N or --digits=N, as GOption reads them */
static const gchar *
digits_option (const SlTfCall *call, gint *i)
{
  const gchar *arg = call->args[*i];
  if (g_str_has_prefix (arg, "--digits="))
    return arg + strlen ("--digits=");
  if (strcmp (arg, "--digits") == 0 && *i + 1 < call->argc)
    return call->args[++*i];
  return NULL;
}

static gboolean
stardate_prepare (SlTfCall *call, GError **error)
{
  gint digits = 2;
  gint i = 0;

  if (i < call->argc && call->args[i][0] == '-')
    {
      const gchar *value = digits_option (call, &i);
      gchar *end;
      if (!value)
        return usage (error);
      gint64 n = g_ascii_strtoll (value, &end, 10);
      if (end == value || *end || n < 0 || n > 9)
        {
          g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("$(stardate): --digits takes 0 to 9, not '%s'"),
                       value);
          return FALSE;
        }
      digits = (gint) n;
      i++;
    }
  if (call->argc - i != 1)
    return usage (error);
  /* the digits, and where the time is among the arguments */
  call->state = GINT_TO_POINTER (digits << 8 | i);
  return TRUE;
}

static void
stardate_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gint digits = GPOINTER_TO_INT (call->state) >> 8;
  gint arg = GPOINTER_TO_INT (call->state) & 0xff;
  GString *text = sl_scratch_push (&stamp_key);
  gchar *end;

  sl_template_append (call->arg_templates[arg], msg, env, text);
  time_t sec = (time_t) g_ascii_strtoll (text->str, &end, 10);
  gboolean valid = *end == '\0';
  sl_scratch_pop (&stamp_key);
  struct tm tm;
  if (!valid || !gmtime_r (&sec, &tm))
    return;

  gint year = tm.tm_year + 1900;
  gboolean leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  gint64 elapsed = (gint64) tm.tm_yday * 86400 + tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec;
  gint64 scale = 1;
  for (gint i = 0; i < digits; i++)
    scale *= 10;
  /* below 2^25 seconds times at most 10^9: exact in 64 bits */
  gint64 part = elapsed * scale / ((leap ? 366 : 365) * G_GINT64_CONSTANT (86400));
  g_string_append_printf (out, "%d", year);
  if (digits)
    g_string_append_printf (out, ".%0*" G_GINT64_FORMAT, digits, part);
}

static const SlTemplateFunctionOps stardate_ops = { .prepare = stardate_prepare, .eval = stardate_eval };

static const SlDriverClass stardate_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "stardate",
  .summary = "a UNIX time as its year and the part of it gone by: $(stardate [--digits N] UNIXTIME)",
  .ops.template_function = &stardate_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "stardate",
  .drivers = (const SlDriverClass *const[]) { &stardate_class, NULL },
};
