/* SPDX-License-Identifier: GPL-2.0-or-later */
/* smtp(): each message as one mail, as syslog-ng's smtp() writes it:
 * from(), to(), cc(), bcc(), reply-to() each an address template and
 * optionally a display name before it, subject(), body() and header()
 * templates. On libESMTP (Debian's libesmtp-dev), the SMTP client
 * syslog-ng's module is built on: it speaks ESMTP (pipelining, 8BITMIME,
 * DSN), writes the envelope and fills in Date, Message-ID, From and To the
 * way that module's mails have them, so the same calls give the same
 * mails. Every message of a write() goes in one SMTP session; a message
 * is done only once the server accepted it. A connection that fails keeps
 * the rest; a temporary refusal (4xx) retries it; a mail the server
 * refuses for good (5xx, or every recipient refused) is dropped and
 * counted, and a recipient refused while others took the mail is
 * counted in refused_recipients. */
#include "plugins/destinations/smtp/smtp-mail.h"
#include "plugins/destinations/smtp/smtp-rsyslog.h"
#include "core/config/error.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/plugin/plugin.h"
#include "core/stats.h"

#include <libesmtp.h>

typedef struct
{
  SlDriver base;
  const gchar *host;
  gint port;
  gint64 timeout_ms;
  SmtpMailSpec spec;
  const SlTemplateEnv *env;
  SlCounter *refused_mails;
  SlCounter *refused_recipients;
} SmtpDestination;

/* The options that may be written more than once, or take one or two
 * values, are read from the driver's block in the order written
 * (smtp_mail_spec_read()); the table lists them for the help and the
 * reference. */
static const SlOptionSpec smtp_options[] = {
  { "host", SL_STRING (SmtpDestination, host), "127.0.0.1", "the SMTP server's name or address" },
  { "port", SL_INT (SmtpDestination, port), "25", "the SMTP server's TCP port" },
  { "from", SL_UNBOUND (SL_OPT_LIST), NULL,
    "the sender's address, a template, optionally after a display name (which no header shows, as in syslog-ng): from(\"syslog@example.com\") or "
    "from(\"Syslog\" \"syslog@example.com\"); the envelope's MAIL FROM and the From header" },
  { "sender", SL_UNBOUND (SL_OPT_LIST), NULL, "another name for from()" },
  { "to", SL_UNBOUND (SL_OPT_LIST), NULL,
    "a recipient in the To header, the same shape as from(); may be written more than once" },
  { "cc", SL_UNBOUND (SL_OPT_LIST), NULL, "a recipient in the Cc header; may be written more than once" },
  { "bcc", SL_UNBOUND (SL_OPT_LIST), NULL, "a recipient in no header; may be written more than once" },
  { "reply-to", SL_UNBOUND (SL_OPT_LIST), NULL, "the Reply-To header's address (no recipient)" },
  { "subject", SL_TEMPLATE (SmtpDestination, spec.subject), NULL, "the Subject header, a template (required)" },
  { "body", SL_TEMPLATE (SmtpDestination, spec.body), NULL, "the mail's text, a template (required)" },
  { "header", SL_UNBOUND (SL_OPT_LIST), NULL,
    "header(\"NAME\" \"template\"): one more header; may be written more than once (To, Cc, Bcc, From, "
    "Sender, Reply-To and Date cannot be set this way)" },
  { "timeout", SL_DURATION (SmtpDestination, timeout_ms), "60",
    "how long the server may take to greet and to answer each command; a bare number is seconds" },
  { NULL }
};

static gboolean
smtp_init (SlDriver *d, GError **error)
{
  SmtpDestination *self = (SmtpDestination *) d;
  if (!smtp_mail_spec_read (&self->spec, d, error))
    return FALSE;
  if (self->timeout_ms < 1000)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "timeout"),
                        _("timeout() of smtp() must be at least one second"));
      return FALSE;
    }
  self->env = sl_driver_template_env (d);
  self->refused_mails = sl_stats_counter ("destination", d->id, d->klass->name, "refused_mails");
  self->refused_recipients = sl_stats_counter ("destination", d->id, d->klass->name, "refused_recipients");
  return TRUE;
}

static smtp_session_t
session_new (SmtpDestination *self)
{
  smtp_session_t session = smtp_create_session ();
  g_autofree gchar *server = g_strdup_printf ("%s:%d", self->host, self->port);
  smtp_set_server (session, server);
  /* in milliseconds; below RFC 5321's minimums (minutes) only when told so */
  static const int phases[] = { Timeout_GREETING, Timeout_ENVELOPE, Timeout_DATA, Timeout_TRANSFER, Timeout_DATA2 };
  for (guint i = 0; i < G_N_ELEMENTS (phases); i++)
    smtp_set_timeout (session, phases[i] | Timeout_OVERRIDE_RFC2822_MINIMUM, (long) self->timeout_ms);
  return session;
}

typedef struct
{
  SmtpDestination *self;
  guint accepted;
  guint refused;    /* for good */
  guint deferred;   /* for now */
} RecipientTally;

static void
tally_recipient (smtp_recipient_t recipient, const char *mailbox, void *arg)
{
  RecipientTally *tally = arg;
  const smtp_status_t *status = smtp_recipient_status (recipient);
  if (status->code / 100 == 2)
    tally->accepted++;
  else if (status->code / 100 == 5)
    {
      tally->refused++;
      sl_counter_add (tally->self->refused_recipients, 1);
      sl_log (SL_LOG_ERROR, _("%s: the SMTP server refused a recipient; recipient='%s', reply='%d %s'"),
              tally->self->base.id, mailbox, status->code, status->text ? status->text : "");
    }
  else if (status->code)
    tally->deferred++;
}

typedef enum
{
  MAIL_SENT,
  MAIL_REFUSED,
  MAIL_DEFERRED,
  MAIL_NOT_TRIED,
} MailFate;

/* What became of one mail of a session, from the replies libESMTP kept. */
static MailFate
mail_fate (SmtpDestination *self, smtp_message_t message, const smtp_status_t **why)
{
  const smtp_status_t *transfer = smtp_message_transfer_status (message);
  const smtp_status_t *sender = smtp_reverse_path_status (message);
  RecipientTally tally = { self, 0, 0, 0 };
  smtp_enumerate_recipients (message, tally_recipient, &tally);
  *why = transfer;
  if (transfer->code / 100 == 2)
    return MAIL_SENT;
  if (transfer->code / 100 == 5)
    return MAIL_REFUSED;
  if (transfer->code / 100 == 4)
    return MAIL_DEFERRED;
  *why = sender;
  if (sender->code / 100 == 5)
    return MAIL_REFUSED;
  if (sender->code / 100 == 4 || tally.deferred)
    return MAIL_DEFERRED;
  if (tally.refused && !tally.accepted)
    return MAIL_REFUSED;
  return MAIL_NOT_TRIED;
}

static SlWriteResult
smtp_write (SlDriver *d, SlWriteBatch *batch)
{
  SmtpDestination *self = (SmtpDestination *) d;
  smtp_session_t session = session_new (self);
  guint first = batch->done;
  guint n = batch->n - first;
  smtp_message_t *messages = g_new (smtp_message_t, n);
  SmtpMail **mails = g_new (SmtpMail *, n);
  for (guint i = 0; i < n; i++)
    {
      mails[i] = smtp_mail_new (&self->spec, batch->msgs[first + i], self->env);
      messages[i] = smtp_mail_add_to_session (mails[i], session);
    }
  gboolean session_ok = smtp_start_session (session);
  gchar error_text[256] = "";
  if (!session_ok)
    smtp_strerror (smtp_errno (), error_text, sizeof error_text);

  SlWriteResult result = SL_WRITE_OK;
  for (guint i = 0; i < n && result == SL_WRITE_OK; i++)
    {
      const smtp_status_t *why = NULL;
      switch (mail_fate (self, messages[i], &why))
        {
        case MAIL_SENT:
          batch->done++;
          break;
        case MAIL_REFUSED:
          sl_counter_add (self->refused_mails, 1);
          sl_log (SL_LOG_ERROR, _("%s: the SMTP server refused a mail, the message is dropped; reply='%d %s'"),
                  d->id, why->code, why->text ? why->text : "");
          batch->dropped++;
          batch->done++;
          break;
        case MAIL_DEFERRED:
          result = sl_write_batch_fail (batch, SL_WRITE_RETRY, 0, _("the SMTP server %s:%d cannot take the mail now: %d %s"),
                                        self->host, self->port, why->code, why->text ? why->text : "");
          break;
        case MAIL_NOT_TRIED:
          result = sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, _("the SMTP session with %s:%d failed: %s"),
                                        self->host, self->port,
                                        session_ok ? _("the server closed the connection") : error_text);
          break;
        }
    }
  smtp_destroy_session (session);
  for (guint i = 0; i < n; i++)
    smtp_mail_free (mails[i]);
  g_free (mails);
  g_free (messages);
  return result;
}

static void
smtp_free (SlDriver *d)
{
  SmtpDestination *self = (SmtpDestination *) d;
  smtp_mail_spec_clear (&self->spec);
}

static const SlDestinationOps smtp_ops = {
  .write = smtp_write,
};

static const SlDriverClass smtp_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "smtp",
  .summary = "each message as one mail to an SMTP server, done once the server accepted it",
  .options = smtp_options,
  .capabilities = SL_CAP_TEMPLATES | SL_CAP_WORKERS | SL_CAP_DISK_BUFFER,
  .instance_size = sizeof (SmtpDestination),
  .init = smtp_init,
  .free = smtp_free,
  .ops.destination = &smtp_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "smtp",
  .drivers = (const SlDriverClass *const[]) { &smtp_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &smtp_ommail, NULL },
};
