/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's mmutf8fix, mmanon and mmfields as utf8-fix(), anonymize-ip()
 * and split-fields(). Their fields are named as rsyslogd names the JSON
 * members ($!a!b is the field a.b), and they read msg (the text from the
 * first space after the tag on, as rsyslog's property has it). Each
 * parameter does what it does in rsyslogd, or is refused with its place. */
#include "plugins/parsers/modifiers/modifiers.h"
#include "core/i18n.h"

/* template() of the text the module reads */
static gboolean
append_input (SlRsCall *call, GString *driver, const gchar *property, GError **error)
{
  g_autofree gchar *value = sl_rs_call_property (call, property, error);

  if (!value)
    return FALSE;
  sl_rs_text_option (driver, "template", value);
  return TRUE;
}

static const gchar *const mmutf8fix_params[] = { "mode", "replacementchar", NULL };

static gboolean
mmutf8fix_write (SlRsCall *call, GString *driver, GError **error)
{
  const gchar *mode = sl_rs_call_value (call, "mode");
  const gchar *replacement = sl_rs_call_value (call, "replacementchar");

  if (mode && g_ascii_strcasecmp (mode, "utf-8") != 0 && g_ascii_strcasecmp (mode, "controlcharacters") != 0)
    return sl_rs_call_refuse (call, "mode", error, _("it is utf-8 or controlcharacters"));
  if (replacement && !*replacement)
    return sl_rs_call_refuse (call, "replacementchar", error, _("it needs a character"));
  g_string_append_printf (driver, "utf8-fix(mode(%s)",
                          mode && g_ascii_strcasecmp (mode, "controlcharacters") == 0 ? "control-characters"
                                                                                       : "utf-8");
  if (replacement)
    {
      /* rsyslogd takes the first character of a longer text */
      g_autofree gchar *first = g_strndup (replacement, 1);
      sl_rs_text_option (driver, "replacement", first);
    }
  g_string_append_c (driver, ')');
  return TRUE;
}

/* param's value is one of modes (the first n of them): appended lower case as option */
static gboolean
append_mode (SlRsCall *call, const gchar *param, guint n, const gchar *option, GString *driver, GError **error)
{
  static const gchar *const modes[] = { "zero", "random", "random-consistent", "simple" };
  const gchar *value = sl_rs_call_value (call, param);

  if (!value)
    return TRUE;
  for (guint i = 0; i < n; i++)
    if (g_ascii_strcasecmp (value, modes[i]) == 0)
      {
        g_string_append_printf (driver, " %s(%s)", option, modes[i]);
        return TRUE;
      }
  return sl_rs_call_refuse (call, param, error, "%s", n == 4 ? _("it is zero, random, random-consistent or simple")
                                                             : _("it is zero, random or random-consistent"));
}

static const gchar *const mmanon_params[] = { "ipv4.enable", "ipv4.mode", "mode", "ipv4.bits", "ipv4.replacechar",
                                              "replacementchar", "ipv6.enable", "ipv6.anonmode", "ipv6.bits",
                                              "embeddedipv4.enable", "embeddedipv4.anonmode", "embeddedipv4.bits",
                                              NULL };

static gboolean
mmanon_write (SlRsCall *call, GString *driver, GError **error)
{
  static const struct
  {
    const gchar *param, *option;
  } switches[] = {
    { "ipv4.enable", "ipv4" }, { "ipv6.enable", "ipv6" }, { "embeddedipv4.enable", "embedded-ipv4" },
  }, numbers[] = {
    { "ipv4.bits", "bits" }, { "ipv6.bits", "ipv6-bits" }, { "embeddedipv4.bits", "embedded-ipv4-bits" },
  };
  const gchar *replacement = sl_rs_call_value (call, "ipv4.replacechar") ? sl_rs_call_value (call, "ipv4.replacechar")
                                                                         : sl_rs_call_value (call, "replacementchar");

  g_string_append (driver, "anonymize-ip(");
  for (guint i = 0; i < G_N_ELEMENTS (switches); i++)
    if (sl_rs_call_value (call, switches[i].param))
      g_string_append_printf (driver, " %s(%s)", switches[i].option,
                              sl_rs_call_flag (call, switches[i].param, FALSE) ? "yes" : "no");
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    if (sl_rs_call_value (call, numbers[i].param))
      sl_rs_text_option (driver, numbers[i].option, sl_rs_call_value (call, numbers[i].param));
  if (!append_mode (call, sl_rs_call_value (call, "ipv4.mode") ? "ipv4.mode" : "mode", 4, "mode", driver, error)
      || !append_mode (call, "ipv6.anonmode", 3, "ipv6-mode", driver, error)
      || !append_mode (call, "embeddedipv4.anonmode", 3, "embedded-ipv4-mode", driver, error))
    return FALSE;
  if (replacement && *replacement)
    {
      g_autofree gchar *first = g_strndup (replacement, 1);
      sl_rs_text_option (driver, "replacement", first);
    }
  g_string_append_c (driver, ')');
  return TRUE;
}

static const gchar *const mmfields_params[] = { "separator", "jsonroot", NULL };

static gboolean
mmfields_write (SlRsCall *call, GString *driver, GError **error)
{
  const gchar *root = sl_rs_call_value (call, "jsonroot");
  const gchar *separator = sl_rs_call_value (call, "separator");

  if (root && root[0] != '!' && root[0] != '.')
    return sl_rs_call_refuse (call, "jsonroot", error, _("it takes a variable such as !name"));
  /* "!a.b." for jsonRoot="!a!b", "!" for the root (also when not given) */
  g_autofree gchar *variable = g_strconcat ("$", root ? root : "!", NULL);
  g_autofree gchar *field = sl_rs_call_variable_field (call, variable);
  g_autoptr (GString) prefix = g_string_new (field);
  if (prefix->len > 1)
    g_string_append_c (prefix, '.');

  g_string_append (driver, "split-fields(");
  if (!append_input (call, driver, "msg", error))
    return FALSE;
  if (separator)
    sl_rs_text_option (driver, "separator", separator);
  /* %$!x% of jsonRoot="!x" is the object */
  if (prefix->len > 1)
    {
      g_autofree gchar *object = g_strndup (prefix->str, prefix->len - 1);
      sl_rs_text_option (driver, "json-field", object);
    }
  g_string_append (prefix, "f");
  sl_rs_text_option (driver, "prefix", prefix->str);
  g_string_append_c (driver, ')');
  return TRUE;
}

const SlRsModule modifiers_mmutf8fix = {
  "mmutf8fix", SL_RS_MODULE_MODIFIER, mmutf8fix_params, NULL, mmutf8fix_write,
};
const SlRsModule modifiers_mmanon = {
  "mmanon", SL_RS_MODULE_MODIFIER, mmanon_params, NULL, mmanon_write,
};
const SlRsModule modifiers_mmfields = {
  "mmfields", SL_RS_MODULE_MODIFIER, mmfields_params, NULL, mmfields_write,
};
