/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's modules mapped last: ommail as smtp(), mmpstrucdata as
 * sdata-parser(), omhttp as http(). Each mapping only reads its
 * parameters, refuses what has no equal with its place, resolves its
 * templates and writes the driver; what each writes was checked against
 * rsyslogd 8.2302 (tests/functional/test-rsyslog-more). */
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

static gboolean
require (GPtrArray *params, const gchar *name, const gchar *type, SlCfgPos pos, GError **error)
{
  if (param_value (params, name))
    return TRUE;
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("rsyslog's %s needs %s="), type, name);
  return FALSE;
}

/* "$(template NAME)" of the template object of rsyslog's template name */
static gchar *
template_call (SlRsConf *c, const gchar *name, SlCfgPos pos, GError **error)
{
  g_autofree gchar *object = sl_rs_template_ref (c, name, pos, error);
  return object ? g_strdup_printf ("$(template %s)", object) : NULL;
}

/* Plain text as a template that writes it as it is */
static gchar *
literal_template (const gchar *text)
{
  g_auto (GStrv) parts = g_strsplit (text, "$", -1);
  return g_strjoinv ("$$", parts);
}

static gchar *
emit_destination (SlRsConf *c, GString *drivers, SlCfgPos pos, GError **error)
{
  for (guint i = 0; c->action_queue && i < c->action_queue->len; i++)
    g_string_append_printf (drivers, " %s", (const gchar *) g_ptr_array_index (c->action_queue, i));
  g_string_append (drivers, ");");
  return sl_rs_emit_destination (c, pos, drivers->str, error);
}

/* ommail: one mail per message, to mailTo's recipients in the reverse of
 * their order (rsyslogd keeps them so, in RCPT TO and in the To header),
 * its Subject subject.text, or subject.template's text, or "message from
 * rsyslog", its body the template's text (RSYSLOG_FileFormat) unless
 * body.enable="off", and the X-Mailer it names itself by. */
static gchar *
ommail (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  static const gchar *const own[] = { "server", "port", "mailfrom", "mailto", "subject.template", "subject.text",
                                      "body.enable" };

  if (!sl_rs_check_action_params (params, own, G_N_ELEMENTS (own), "ommail", error)
      || !require (params, "server", "ommail", pos, error) || !require (params, "port", "ommail", pos, error)
      || !require (params, "mailfrom", "ommail", pos, error) || !require (params, "mailto", "ommail", pos, error))
    return NULL;
  if (param_value (params, "subject.template") && param_value (params, "subject.text"))
    return refuse (params, "subject.text", "ommail", _("it and subject.template cannot both be set"), error), NULL;

  const SlRsParam *to = sl_rs_param_find (params, "mailto");
  g_autofree gchar *from = literal_template (param_value (params, "mailfrom"));
  g_autofree gchar *subject = NULL;
  g_autofree gchar *body = NULL;
  g_autoptr (GString) drivers = g_string_new ("smtp(");

  if (param_value (params, "subject.template"))
    subject = template_call (c, param_value (params, "subject.template"), pos, error);
  else
    subject = literal_template (param_value (params, "subject.text") ? param_value (params, "subject.text")
                                                                     : "message from rsyslog");
  if (param_value (params, "body.enable") && !sl_rs_is_true (param_value (params, "body.enable")))
    body = g_strdup ("\r\n");
  else
    body = template_call (c, param_value (params, "template") ? param_value (params, "template")
                                                              : "RSYSLOG_FileFormat", pos, error);
  if (!subject || !body)
    return NULL;
  sl_rs_append_option (drivers, "host", param_value (params, "server"));
  sl_rs_append_option (drivers, "port", param_value (params, "port"));
  sl_rs_append_option (drivers, "from", from);
  guint n_to = to->items ? g_strv_length (to->items) : 1;
  for (guint i = n_to; i > 0; i--)
    {
      g_autofree gchar *mailbox = literal_template (to->items ? to->items[i - 1] : to->value);
      sl_rs_append_option (drivers, "to", mailbox);
    }
  sl_rs_append_option (drivers, "subject", subject);
  sl_rs_append_option (drivers, "body", body);
  g_string_append (drivers, " header(\"X-Mailer\" \"rsyslog-ommail\")");
  return emit_destination (c, drivers, pos, error);
}

/* mmpstrucdata: the structured data of the message as
 * $!rfc5424-sd!ID!PARAM (under jsonRoot), the names in lower case unless
 * sd_name.lowercase="off"; a message without any is left as it is. */
gchar *
sl_rs_mmpstrucdata (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  static const gchar *const own[] = { "jsonroot", "sd_name.lowercase" };

  if (!sl_rs_check_action_params (params, own, G_N_ELEMENTS (own), "mmpstrucdata", error))
    return NULL;
  const gchar *root = param_value (params, "jsonroot") ? param_value (params, "jsonroot") : "$!";
  if (root[0] != '$' || (root[1] != '!' && root[1] != '.' && root[1] != '/'))
    return refuse (params, "jsonroot", "mmpstrucdata", _("it takes a variable such as $!name"), error), NULL;
  g_autofree gchar *field = sl_rs_variable_field (root);
  g_autofree gchar *prefix = g_strconcat (field, field[1] ? "." : "", "rfc5424-sd.", NULL);
  const gchar *lowercase = param_value (params, "sd_name.lowercase");
  g_autoptr (GString) value = g_string_new (NULL);
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree gchar *name = sl_rs_new_name (c, "p");

  if (!sl_rs_property_value ("structured-data", pos, value, error))
    return NULL;
  g_string_append_printf (text, "parser %s { sdata-parser(", name);
  sl_rs_append_option (text, "template", value->str);
  sl_rs_append_option (text, "prefix", prefix);
  g_string_append_printf (text, " lowercase-names(%s)); };", !lowercase || sl_rs_is_true (lowercase) ? "yes" : "no");
  return sl_rs_emit (c, pos, text->str, error) ? g_steal_pointer (&name) : NULL;
}

static const struct
{
  const gchar *type;
  gchar *(*make) (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error);
} outputs[] = {
  { "ommail", ommail },
};

gboolean
sl_rs_is_more_output (const gchar *type)
{
  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    if (g_ascii_strcasecmp (type, outputs[i].type) == 0)
      return TRUE;
  return FALSE;
}

gchar *
sl_rs_more_output (SlRsConf *c, GPtrArray *params, const gchar *type, SlCfgPos pos, GError **error)
{
  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    if (g_ascii_strcasecmp (type, outputs[i].type) == 0)
      return outputs[i].make (c, params, pos, error);
  g_return_val_if_reached (NULL);
}
