/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's message modification modules as parsers: mmnormalize as
 * lognorm-parser(), mmutf8fix as utf8-fix(), mmanon as anonymize-ip(),
 * mmfields as split-fields(). Their fields are named as rsyslogd names the
 * JSON members ($!a!b is the field a.b), and they read msg (the text from
 * the first space after the tag on, as rsyslog's property has it). Each
 * parameter does what it does in rsyslogd, or is refused with its place. */
#include "core/config/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"

#include <string.h>

static const gchar *
param_value (GPtrArray *params, const gchar *name)
{
  const SlRsParam *param = sl_rs_param_find (params, name);
  return param ? param->value : NULL;
}

static gboolean
refuse (GPtrArray *params, const gchar *name, const gchar *type, const gchar *why, GError **error)
{
  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, sl_rs_param_find (params, name)->pos,
                    _("the parameter '%s' of rsyslog's %s is not supported: %s"), name, type, why);
  return FALSE;
}

/* The field-name prefix of a variable such as $!a!b or !a!b (with_dollar
 * FALSE: mmfields' jsonRoot), named as the front end names variables:
 * "!a.b." for $!a!b, "!" for the root $! (also when not given) */
static gboolean
path_prefix (GPtrArray *params, const gchar *name, const gchar *type, gboolean with_dollar, GString *out,
             GError **error)
{
  const gchar *path = param_value (params, name);

  if (path && with_dollar && path[0] == '$')
    path++;
  if (path && path[0] != '!' && path[0] != '.')
    return refuse (params, name, type, with_dollar ? _("it takes a variable such as $!name") :
                                                     _("it takes a variable such as !name"), error);
  g_autofree gchar *variable = g_strconcat ("$", path ? path : "!", NULL);
  g_autofree gchar *field = sl_rs_variable_field (variable);
  g_string_append (out, field);
  if (out->len > 1)
    g_string_append_c (out, '.');
  return TRUE;
}

/* template() of the text the module reads: msg unless property names another */
static gboolean
append_input (GString *text, const gchar *property, SlCfgPos pos, GError **error)
{
  g_autoptr (GString) value = g_string_new (NULL);

  if (!sl_rs_property_value (property, pos, value, error))
    return FALSE;
  sl_rs_append_option (text, "template", value->str);
  return TRUE;
}

static gchar *
emit_parser (SlRsConf *c, SlCfgPos pos, const gchar *driver, GError **error)
{
  g_autofree gchar *name = sl_rs_new_name (c, "p");
  g_autofree gchar *text = g_strdup_printf ("parser %s { %s; };", name, driver);

  return sl_rs_emit (c, pos, text, error) ? g_steal_pointer (&name) : NULL;
}

static gchar *
mmnormalize (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  static const gchar *const own[] = { "rulebase", "rule", "userawmsg", "path", "variable" };
  if (!sl_rs_check_action_params (params, own, G_N_ELEMENTS (own), "mmnormalize", error))
    return NULL;
  const SlRsParam *rulebase = sl_rs_param_find (params, "rulebase");
  const SlRsParam *rule = sl_rs_param_find (params, "rule");
  const gchar *variable = param_value (params, "variable");
  gboolean raw = param_value (params, "userawmsg") && sl_rs_is_true (param_value (params, "userawmsg"));
  g_autoptr (GString) text = g_string_new ("lognorm-parser(");
  g_autoptr (GString) prefix = g_string_new (NULL);

  if (!rulebase == !rule)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos,
                        _("rsyslog's mmnormalize needs ruleBase= or rule=, and only one of them"));
      return NULL;
    }
  if (variable && raw)
    {
      refuse (params, "userawmsg", "mmnormalize", _("variable= names the text to normalize"), error);
      return NULL;
    }
  if (rulebase)
    sl_rs_append_option (text, "rulebase", rulebase->value);
  else
    {
      g_string_append (text, " rules(");
      for (guint i = 0; rule->items ? rule->items[i] != NULL : i == 0; i++)
        {
          g_string_append (text, i ? ", " : "");
          sl_rs_quote (text, rule->items ? rule->items[i] : rule->value);
        }
      g_string_append_c (text, ')');
    }
  if (!append_input (text, variable ? variable : raw ? "rawmsg" : "msg", pos, error)
      || !path_prefix (params, "path", "mmnormalize", TRUE, prefix, error))
    return NULL;
  sl_rs_append_option (text, "prefix", prefix->str);
  g_string_append_c (text, ')');
  return emit_parser (c, pos, text->str, error);
}

gboolean
sl_rs_mmnormalize_directive (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos, GError **error)
{
  gboolean rulebase = g_ascii_strcasecmp (name, "mmnormalizeRuleBase") == 0;

  if (!rulebase && g_ascii_strcasecmp (name, "mmnormalizeUseRawMsg") != 0)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("the rsyslog directive '$%s' is not supported"), name);
      return FALSE;
    }
  if (!g_hash_table_contains (c->loaded, "mmnormalize"))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("$%s needs $ModLoad mmnormalize before it"), name);
      return FALSE;
    }
  if (rulebase)
    {
      g_free (c->mmnormalize_rulebase);
      c->mmnormalize_rulebase = g_strdup (value);
    }
  else
    c->mmnormalize_raw = sl_rs_is_true (value);
  return TRUE;
}

/* as rsyslogd, the action takes the directives' values: the next one
 * needs its own $mmnormalizeRuleBase */
gchar *
sl_rs_legacy_mmnormalize (SlRsConf *c, SlCfgPos pos, GError **error)
{
  g_autofree gchar *rulebase = g_steal_pointer (&c->mmnormalize_rulebase);
  gboolean raw = c->mmnormalize_raw;
  g_autoptr (GString) text = g_string_new ("lognorm-parser(");

  c->mmnormalize_raw = FALSE;
  if (!rulebase)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("rsyslog's :mmnormalize: needs $mmnormalizeRuleBase before it"));
      return NULL;
    }
  sl_rs_append_option (text, "rulebase", rulebase);
  if (!append_input (text, raw ? "rawmsg" : "msg", pos, error))
    return NULL;
  g_string_append (text, " prefix(\"!\"))");
  return emit_parser (c, pos, text->str, error);
}

static gchar *
mmutf8fix (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  static const gchar *const own[] = { "mode", "replacementchar" };
  if (!sl_rs_check_action_params (params, own, G_N_ELEMENTS (own), "mmutf8fix", error))
    return NULL;
  const gchar *mode = param_value (params, "mode");
  const gchar *replacement = param_value (params, "replacementchar");
  g_autoptr (GString) text = g_string_new ("utf8-fix(");

  if (mode && g_ascii_strcasecmp (mode, "utf-8") != 0 && g_ascii_strcasecmp (mode, "controlcharacters") != 0)
    {
      refuse (params, "mode", "mmutf8fix", _("it is utf-8 or controlcharacters"), error);
      return NULL;
    }
  if (replacement && !*replacement)
    {
      refuse (params, "replacementchar", "mmutf8fix", _("it needs a character"), error);
      return NULL;
    }
  g_string_append_printf (text, "mode(%s)",
                          mode && g_ascii_strcasecmp (mode, "controlcharacters") == 0 ? "control-characters"
                                                                                       : "utf-8");
  if (replacement)
    {
      /* rsyslogd takes the first character of a longer text */
      g_autofree gchar *first = g_strndup (replacement, 1);
      sl_rs_append_option (text, "replacement", first);
    }
  g_string_append_c (text, ')');
  return emit_parser (c, pos, text->str, error);
}

/* value is one of modes (the first n of them): appended lower case as option */
static gboolean
append_mode (GPtrArray *params, const gchar *name, guint n, const gchar *option, GString *text, GError **error)
{
  static const gchar *const modes[] = { "zero", "random", "random-consistent", "simple" };
  const gchar *value = param_value (params, name);

  if (!value)
    return TRUE;
  for (guint i = 0; i < n; i++)
    if (g_ascii_strcasecmp (value, modes[i]) == 0)
      {
        g_string_append_printf (text, " %s(%s)", option, modes[i]);
        return TRUE;
      }
  return refuse (params, name, "mmanon", n == 4 ? _("it is zero, random, random-consistent or simple")
                                                : _("it is zero, random or random-consistent"), error);
}

static gchar *
mmanon (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  static const gchar *const own[] = { "ipv4.enable", "ipv4.mode", "mode", "ipv4.bits", "ipv4.replacechar",
                                      "replacementchar", "ipv6.enable", "ipv6.anonmode", "ipv6.bits",
                                      "embeddedipv4.enable", "embeddedipv4.anonmode", "embeddedipv4.bits" };
  static const struct
  {
    const gchar *param, *option;
  } switches[] = {
    { "ipv4.enable", "ipv4" }, { "ipv6.enable", "ipv6" }, { "embeddedipv4.enable", "embedded-ipv4" },
  }, numbers[] = {
    { "ipv4.bits", "bits" }, { "ipv6.bits", "ipv6-bits" }, { "embeddedipv4.bits", "embedded-ipv4-bits" },
  };
  if (!sl_rs_check_action_params (params, own, G_N_ELEMENTS (own), "mmanon", error))
    return NULL;
  g_autoptr (GString) text = g_string_new ("anonymize-ip(");
  const gchar *replacement = param_value (params, "ipv4.replacechar") ? param_value (params, "ipv4.replacechar")
                                                                     : param_value (params, "replacementchar");

  for (guint i = 0; i < G_N_ELEMENTS (switches); i++)
    if (param_value (params, switches[i].param))
      g_string_append_printf (text, " %s(%s)", switches[i].option,
                              sl_rs_is_true (param_value (params, switches[i].param)) ? "yes" : "no");
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    if (param_value (params, numbers[i].param))
      sl_rs_append_option (text, numbers[i].option, param_value (params, numbers[i].param));
  if (!append_mode (params, param_value (params, "ipv4.mode") ? "ipv4.mode" : "mode", 4, "mode", text, error)
      || !append_mode (params, "ipv6.anonmode", 3, "ipv6-mode", text, error)
      || !append_mode (params, "embeddedipv4.anonmode", 3, "embedded-ipv4-mode", text, error))
    return NULL;
  if (replacement && *replacement)
    {
      g_autofree gchar *first = g_strndup (replacement, 1);
      sl_rs_append_option (text, "replacement", first);
    }
  g_string_append_c (text, ')');
  return emit_parser (c, pos, text->str, error);
}

static gchar *
mmfields (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  static const gchar *const own[] = { "separator", "jsonroot" };
  if (!sl_rs_check_action_params (params, own, G_N_ELEMENTS (own), "mmfields", error))
    return NULL;
  g_autoptr (GString) text = g_string_new ("split-fields(");
  g_autoptr (GString) prefix = g_string_new (NULL);
  const gchar *separator = param_value (params, "separator");

  if (!path_prefix (params, "jsonroot", "mmfields", FALSE, prefix, error)
      || !append_input (text, "msg", pos, error))
    return NULL;
  if (separator)
    sl_rs_append_option (text, "separator", separator);
  /* %$!x% of jsonRoot="!x" is the object */
  if (prefix->len > 1)
    {
      g_autofree gchar *object = g_strndup (prefix->str, prefix->len - 1);
      sl_rs_append_option (text, "json-field", object);
    }
  g_string_append (prefix, "f");
  sl_rs_append_option (text, "prefix", prefix->str);
  g_string_append_c (text, ')');
  return emit_parser (c, pos, text->str, error);
}

static const struct
{
  const gchar *type;
  gchar *(*make) (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error);
} modifiers[] = {
  { "mmnormalize", mmnormalize }, { "mmutf8fix", mmutf8fix }, { "mmanon", mmanon }, { "mmfields", mmfields },
  { "mmpstrucdata", sl_rs_mmpstrucdata },
};

gboolean
sl_rs_is_modifier (const gchar *type)
{
  for (guint i = 0; i < G_N_ELEMENTS (modifiers); i++)
    if (g_ascii_strcasecmp (type, modifiers[i].type) == 0)
      return TRUE;
  return FALSE;
}

gchar *
sl_rs_modifier_action (SlRsConf *c, GPtrArray *params, const gchar *type, SlCfgPos pos, GError **error)
{
  for (guint i = 0; i < params->len; i++)
    {
      const SlRsParam *param = g_ptr_array_index (params, i);
      if (g_str_has_prefix (param->name, "queue.")
          && !(g_str_equal (param->name, "queue.type") && g_ascii_strcasecmp (param->value, "direct") == 0))
        {
          refuse (params, param->name, type,
                  _("a queue of its own would give the module a copy of the message, which the actions after it "
                    "do not see; Sluice runs it in the path"), error);
          return NULL;
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (modifiers); i++)
    if (g_ascii_strcasecmp (type, modifiers[i].type) == 0)
      return modifiers[i].make (c, params, pos, error);
  g_return_val_if_reached (NULL);
}
