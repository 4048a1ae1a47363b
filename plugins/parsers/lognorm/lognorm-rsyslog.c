/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's mmnormalize as lognorm-parser(): a rule base or rules, the
 * text of msg (rawmsg with useRawMsg, a variable with variable=), the
 * result's members as the fields of path= ($! unless given), as rsyslogd
 * names them ($!a!b is the field a.b). */
#include "plugins/parsers/lognorm/lognorm-rsyslog.h"
#include "core/i18n.h"

static const gchar *const mmnormalize_params[] = { "rulebase", "rule", "userawmsg", "path", "variable", NULL };

static gboolean
mmnormalize_write (SlRsCall *call, GString *driver, GError **error)
{
  const gchar *rulebase = sl_rs_call_value (call, "rulebase");
  const gchar *rule = sl_rs_call_value (call, "rule");
  const gchar *const *rules = sl_rs_call_items (call, "rule");
  const gchar *variable = sl_rs_call_value (call, "variable");
  const gchar *path = sl_rs_call_value (call, "path");
  gboolean raw = sl_rs_call_flag (call, "userawmsg", FALSE);

  if (!rulebase == !rule)
    return sl_rs_call_fail (call, NULL, error, _("rsyslog's mmnormalize needs ruleBase= or rule=, and only one of them"));
  if (variable && raw)
    return sl_rs_call_refuse (call, "userawmsg", error, _("variable= names the text to normalize"));
  g_string_append (driver, "lognorm-parser(");
  if (rulebase)
    sl_rs_text_option (driver, "rulebase", rulebase);
  else
    {
      g_string_append (driver, " rules(");
      for (guint i = 0; rules ? rules[i] != NULL : i == 0; i++)
        {
          g_string_append (driver, i ? ", " : "");
          sl_rs_text_quote (driver, rules ? rules[i] : rule);
        }
      g_string_append_c (driver, ')');
    }
  g_autofree gchar *input = sl_rs_call_property (call, variable ? variable : raw ? "rawmsg" : "msg", error);
  if (!input)
    return FALSE;
  sl_rs_text_option (driver, "template", input);

  if (path && path[0] == '$')
    path++;
  if (path && path[0] != '!' && path[0] != '.')
    return sl_rs_call_refuse (call, "path", error, _("it takes a variable such as $!name"));
  /* "!a.b." for $!a!b, "!" for the root $! (also when not given) */
  g_autofree gchar *variable_name = g_strconcat ("$", path ? path : "!", NULL);
  g_autofree gchar *field = sl_rs_call_variable_field (call, variable_name);
  g_autoptr (GString) prefix = g_string_new (field);
  if (prefix->len > 1)
    g_string_append_c (prefix, '.');
  sl_rs_text_option (driver, "prefix", prefix->str);
  g_string_append (driver, " escape-dots(yes))");
  return TRUE;
}

const SlRsModule lognorm_mmnormalize = {
  "mmnormalize", SL_RS_MODULE_MODIFIER, mmnormalize_params, NULL, mmnormalize_write,
};
