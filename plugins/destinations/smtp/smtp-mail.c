/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The mail of one message, built with the libESMTP calls, in the order
 * and with the header options, that syslog-ng's smtp() uses, so that
 * libESMTP writes the same headers: From and To filled in from the
 * envelope unless an address option sets them, Subject, the address
 * headers, then header()s (each overriding one libESMTP would write), and
 * an X-Mailer line ahead of the body, which libESMTP needs to tell the
 * body from headers. CR and LF in an address, the subject or a header
 * become spaces, so no template can add a header of its own. */
#include "plugins/destinations/smtp/smtp-mail.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/plugin/options.h"
#include "core/version.h"

#include <string.h>

struct _SmtpMail
{
  const SmtpMailSpec *spec;
  GString *reverse_path;
  GString *subject;
  GPtrArray *mailboxes;    /* GString *, one per address of the spec */
  GPtrArray *header_values; /* GString *, one per header of the spec */
  GString *text;
};

static const struct
{
  const gchar *option;
  SmtpRcptKind kind;
} address_options[] = {
  { "to", SMTP_RCPT_TO },
  { "cc", SMTP_RCPT_CC },
  { "bcc", SMTP_RCPT_BCC },
  { "reply-to", SMTP_RCPT_REPLY_TO },
};

/* The headers libESMTP writes from the addresses, which header() may not set. */
static const gchar *const address_headers[] = { "to", "cc", "bcc", "from", "sender", "reply-to", "date" };

static void
wash (gchar *text)
{
  for (gchar *p = text; *p; p++)
    if (*p == '\r' || *p == '\n')
      *p = ' ';
}

static void
address_free (gpointer p)
{
  SmtpAddress *a = p;
  g_free (a->phrase);
  if (a->mailbox)
    sl_template_unref (a->mailbox);
  g_free (a);
}

static void
header_free (gpointer p)
{
  SmtpHeader *h = p;
  g_free (h->name);
  if (h->value)
    sl_template_unref (h->value);
  g_free (h);
}

static SlTemplate *
compile_arg (const SlCfgNode *option, guint index, GError **error)
{
  const SlCfgArg *arg = g_ptr_array_index (option->args, index);
  GError *template_error = NULL;
  SlTemplate *t = sl_template_compile (arg->value, &template_error);
  if (!t)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, arg->pos, _("%s() of smtp(): %s"), option->name,
                        template_error->message);
      g_error_free (template_error);
    }
  return t;
}

static guint
n_args (const SlCfgNode *option)
{
  return option->args ? option->args->len : 0;
}

/* from("addr") or from("Name" "addr"): the address template. */
static gboolean
read_address (const SlCfgNode *option, gchar **phrase, SlTemplate **mailbox, GError **error)
{
  guint n = n_args (option);
  if (n != 1 && n != 2)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, option->pos,
                        _("%s() of smtp() takes an address, or a name and an address: %s(\"Name\" \"user@example.com\")"),
                        option->name, option->name);
      return FALSE;
    }
  g_free (*phrase);
  *phrase = g_strdup (((const SlCfgArg *) g_ptr_array_index (option->args, 0))->value);
  wash (*phrase);
  if (*mailbox)
    sl_template_unref (*mailbox);
  *mailbox = compile_arg (option, n - 1, error);
  return *mailbox != NULL;
}

static gboolean
read_header (SmtpMailSpec *spec, const SlCfgNode *option, GError **error)
{
  if (n_args (option) != 2)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, option->pos,
                        _("header() of smtp() takes a name and a value: header(\"X-Host\" \"${HOST}\")"));
      return FALSE;
    }
  const gchar *name = ((const SlCfgArg *) g_ptr_array_index (option->args, 0))->value;
  for (guint i = 0; i < G_N_ELEMENTS (address_headers); i++)
    if (!g_ascii_strcasecmp (name, address_headers[i]))
      {
        /* syslog-ng loads such a configuration and leaves the header out */
        sl_log (SL_LOG_WARNING, _("%s:%d:%d: header(\"%s\") of smtp() is ignored: the address options and the "
                                  "server's clock set it"), option->pos.file, option->pos.line, option->pos.column,
                name);
        return TRUE;
      }
  SmtpHeader *h = g_new0 (SmtpHeader, 1);
  h->name = g_strdup (name);
  g_ptr_array_add (spec->headers, h);
  h->value = compile_arg (option, 1, error);
  return h->value != NULL;
}

static gboolean
read_option (SmtpMailSpec *spec, const SlCfgNode *option, GError **error)
{
  if (sl_cfg_name_equal (option->name, "from") || sl_cfg_name_equal (option->name, "sender"))
    {
      gchar *phrase = NULL;
      gboolean ok = read_address (option, &phrase, &spec->from, error);
      g_free (phrase);
      return ok;
    }
  if (sl_cfg_name_equal (option->name, "header"))
    return read_header (spec, option, error);
  for (guint i = 0; i < G_N_ELEMENTS (address_options); i++)
    if (sl_cfg_name_equal (option->name, address_options[i].option))
      {
        SmtpAddress *a = g_new0 (SmtpAddress, 1);
        a->kind = address_options[i].kind;
        g_ptr_array_add (spec->addresses, a);
        return read_address (option, &a->phrase, &a->mailbox, error);
      }
  return TRUE;
}

static gboolean
has_recipient (const SmtpMailSpec *spec)
{
  for (guint i = 0; i < spec->addresses->len; i++)
    if (((const SmtpAddress *) g_ptr_array_index (spec->addresses, i))->kind != SMTP_RCPT_REPLY_TO)
      return TRUE;
  return FALSE;
}

gboolean
smtp_mail_spec_read (SmtpMailSpec *spec, const SlDriver *driver, GError **error)
{
  spec->addresses = g_ptr_array_new_with_free_func (address_free);
  spec->headers = g_ptr_array_new_with_free_func (header_free);
  const SlCfgNode *node = sl_options_node (driver->options);
  for (guint i = 0; node->children && i < node->children->len; i++)
    if (!read_option (spec, g_ptr_array_index (node->children, i), error))
      return FALSE;
  const gchar *missing = !spec->from ? "from()"
                         : !has_recipient (spec) ? "to(), cc() or bcc()"
                         : !spec->subject ? "subject()"
                         : !spec->body ? "body()" : NULL;
  if (missing)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, driver->pos, _("smtp() needs %s"), missing);
      return FALSE;
    }
  return TRUE;
}

void
smtp_mail_spec_clear (SmtpMailSpec *spec)
{
  if (spec->from)
    sl_template_unref (spec->from);
  if (spec->addresses)
    g_ptr_array_free (spec->addresses, TRUE);
  if (spec->headers)
    g_ptr_array_free (spec->headers, TRUE);
}

static GString *
render (const SlTemplate *t, const SlMessage *msg, const SlTemplateEnv *env)
{
  GString *out = g_string_new (NULL);
  sl_template_append (t, msg, env, out);
  wash (out->str);
  return out;
}

static void
string_free (gpointer s)
{
  g_string_free (s, TRUE);
}

SmtpMail *
smtp_mail_new (const SmtpMailSpec *spec, const SlMessage *msg, const SlTemplateEnv *env)
{
  SmtpMail *mail = g_new0 (SmtpMail, 1);
  mail->reverse_path = render (spec->from, msg, env);
  mail->subject = render (spec->subject, msg, env);
  mail->mailboxes = g_ptr_array_new_with_free_func (string_free);
  for (guint i = 0; i < spec->addresses->len; i++)
    g_ptr_array_add (mail->mailboxes,
                     render (((const SmtpAddress *) g_ptr_array_index (spec->addresses, i))->mailbox, msg, env));
  mail->header_values = g_ptr_array_new_with_free_func (string_free);
  for (guint i = 0; i < spec->headers->len; i++)
    g_ptr_array_add (mail->header_values,
                     render (((const SmtpHeader *) g_ptr_array_index (spec->headers, i))->value, msg, env));
  mail->text = g_string_new ("X-Mailer: sluice " SL_VERSION "\r\n\r\n");
  sl_template_append (spec->body, msg, env, mail->text);
  mail->spec = spec;
  return mail;
}

static const gchar *
address_header (SmtpRcptKind kind)
{
  switch (kind)
    {
    case SMTP_RCPT_TO:
      return "To";
    case SMTP_RCPT_CC:
      return "Cc";
    case SMTP_RCPT_REPLY_TO:
      return "Reply-To";
    default:
      return NULL;
    }
}

smtp_message_t
smtp_mail_add_to_session (SmtpMail *mail, smtp_session_t session)
{
  const SmtpMailSpec *spec = mail->spec;
  smtp_message_t message = smtp_add_message (session);
  smtp_set_reverse_path (message, mail->reverse_path->str);
  /* libESMTP's own To and From, from the envelope, unless set below */
  smtp_set_header (message, "To", NULL, NULL);
  smtp_set_header (message, "From", NULL, NULL);
  smtp_set_header (message, "Subject", mail->subject->str);
  smtp_set_header_option (message, "Subject", Hdr_OVERRIDE, 1);
  for (guint i = 0; i < spec->addresses->len; i++)
    {
      const SmtpAddress *a = g_ptr_array_index (spec->addresses, i);
      const gchar *mailbox = ((GString *) g_ptr_array_index (mail->mailboxes, i))->str;
      if (a->kind != SMTP_RCPT_REPLY_TO)
        smtp_add_recipient (message, mailbox);
      const gchar *header = address_header (a->kind);
      if (header)
        {
          smtp_set_header (message, header, a->phrase, mailbox);
          smtp_set_header_option (message, header, Hdr_OVERRIDE, 1);
        }
    }
  for (guint i = 0; i < spec->headers->len; i++)
    {
      const SmtpHeader *h = g_ptr_array_index (spec->headers, i);
      smtp_set_header (message, h->name, ((GString *) g_ptr_array_index (mail->header_values, i))->str, NULL);
      smtp_set_header_option (message, h->name, Hdr_OVERRIDE, 1);
    }
  smtp_set_message_str (message, mail->text->str);
  return message;
}

void
smtp_mail_free (SmtpMail *mail)
{
  g_string_free (mail->reverse_path, TRUE);
  g_string_free (mail->subject, TRUE);
  g_ptr_array_free (mail->mailboxes, TRUE);
  g_ptr_array_free (mail->header_values, TRUE);
  g_string_free (mail->text, TRUE);
  g_free (mail);
}
