/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's ommail as smtp(), as rsyslogd 8.2302 sends it (checked against
 * a real SMTP server in tests/functional/test-rsyslog-more): one mail per
 * message, to mailTo's recipients in the reverse of their order (rsyslogd
 * keeps them so, in RCPT TO and in the To header), its Subject
 * subject.text, or subject.template's text, or "message from rsyslog", its
 * body the template's text (RSYSLOG_FileFormat) unless body.enable="off",
 * and the X-Mailer it names itself by. */
#include "plugins/destinations/smtp/smtp-rsyslog.h"
#include "core/i18n.h"

static const gchar *const ommail_params[] = { "server", "port", "mailfrom", "mailto", "subject.template",
                                              "subject.text", "body.enable", "template", NULL };

/* "$(template OBJ)" of the template object of rsyslog's template name */
static gchar *
template_call (SlRsCall *call, const gchar *name, GError **error)
{
  g_autofree gchar *object = sl_rs_call_template (call, name, error);
  return object ? g_strdup_printf ("$(template %s)", object) : NULL;
}

static gboolean
ommail_write (SlRsCall *call, GString *driver, GError **error)
{
  static const gchar *const required[] = { "server", "port", "mailfrom", "mailto" };

  for (guint i = 0; i < G_N_ELEMENTS (required); i++)
    if (!sl_rs_call_value (call, required[i]))
      return sl_rs_call_fail (call, NULL, error, _("rsyslog's %s needs %s="), sl_rs_call_type (call), required[i]);
  if (sl_rs_call_value (call, "subject.template") && sl_rs_call_value (call, "subject.text")
      && !sl_rs_call_refuse (call, "subject.text", error, _("it and subject.template cannot both be set")))
    return FALSE;

  g_autofree gchar *subject = NULL;
  g_autofree gchar *body = NULL;
  if (sl_rs_call_value (call, "subject.template"))
    subject = template_call (call, sl_rs_call_value (call, "subject.template"), error);
  else
    subject = sl_rs_text_literal (sl_rs_call_value (call, "subject.text") ? sl_rs_call_value (call, "subject.text")
                                                                          : "message from rsyslog");
  /* without a body ommail still ends the data with a line break of its
   * own, an empty line; libESMTP adds none after one */
  if (!sl_rs_call_flag (call, "body.enable", TRUE))
    body = g_strdup ("\r\n");
  else
    body = template_call (call, sl_rs_call_value (call, "template") ? sl_rs_call_value (call, "template")
                                                                    : "RSYSLOG_FileFormat", error);
  if (!subject || !body)
    return FALSE;

  g_autofree gchar *from = sl_rs_text_literal (sl_rs_call_value (call, "mailfrom"));
  const gchar *const *items = sl_rs_call_items (call, "mailto");
  const gchar *single[] = { sl_rs_call_value (call, "mailto"), NULL };
  const gchar *const *to = items ? items : single;
  g_string_append (driver, "smtp(");
  sl_rs_text_option (driver, "host", sl_rs_call_value (call, "server"));
  sl_rs_text_option (driver, "port", sl_rs_call_value (call, "port"));
  sl_rs_text_option (driver, "from", from);
  for (guint i = g_strv_length ((gchar **) to); i > 0; i--)
    {
      g_autofree gchar *mailbox = sl_rs_text_literal (to[i - 1]);
      sl_rs_text_option (driver, "to", mailbox);
    }
  sl_rs_text_option (driver, "subject", subject);
  sl_rs_text_option (driver, "body", body);
  g_string_append (driver, " header(\"X-Mailer\" \"rsyslog-ommail\"))");
  return TRUE;
}

const SlRsModule smtp_ommail = {
  "ommail", SL_RS_MODULE_OUTPUT, ommail_params, NULL, ommail_write,
};
