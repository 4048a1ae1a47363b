/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What smtp() makes of its options, and the one mail it makes of a
 * message with them, as libESMTP calls that build it in a session. */
#ifndef SMTP_MAIL_H
#define SMTP_MAIL_H

#include "core/plugin/plugin.h"
#include "core/message/template.h"

#include <libesmtp.h>

typedef enum
{
  SMTP_RCPT_TO,
  SMTP_RCPT_CC,
  SMTP_RCPT_BCC,
  SMTP_RCPT_REPLY_TO,
} SmtpRcptKind;

/* An address option: to("Name" "addr") or to("addr"); the display name
 * is the text as written (syslog-ng does not expand it), the address a
 * template. */
typedef struct
{
  SmtpRcptKind kind;
  gchar *phrase;
  SlTemplate *mailbox;
} SmtpAddress;

typedef struct
{
  gchar *name;
  SlTemplate *value;
} SmtpHeader;

typedef struct
{
  SlTemplate *subject;   /* bound by the option table */
  SlTemplate *body;      /* bound by the option table */
  SlTemplate *from;
  GPtrArray *addresses;  /* SmtpAddress *, in the order written */
  GPtrArray *headers;    /* SmtpHeader *, in the order written */
} SmtpMailSpec;

/* Reads from()/sender(), to(), cc(), bcc(), reply-to() and header() from
 * the driver's block and checks that what a mail needs is there. */
gboolean  smtp_mail_spec_read  (SmtpMailSpec *spec, const SlDriver *driver, GError **error);
void      smtp_mail_spec_clear (SmtpMailSpec *spec);

typedef struct _SmtpMail SmtpMail;

/* The texts of msg's mail, rendered in env; they live as long as the mail. */
SmtpMail       *smtp_mail_new            (const SmtpMailSpec *spec, const SlMessage *msg,
                                          const SlTemplateEnv *env);
/* The mail as a message of session; mail must outlive the session. */
smtp_message_t  smtp_mail_add_to_session (SmtpMail *mail, smtp_session_t session);
void            smtp_mail_free           (SmtpMail *mail);

#endif
