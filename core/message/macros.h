/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* syslog-ng's macros: values computed from a message rather than stored. */
#ifndef SL_MACROS_H
#define SL_MACROS_H

#include <glib.h>
#include "core/message/message.h"
#include "core/plugin/plugin.h"
#include "core/message/timeutil.h"

G_BEGIN_DECLS

/* on-error(): what a template function that writes types (format-json)
 * does with a value that does not cast to its type, as syslog-ng's
 * on-error.c reads it; csv-parser()'s on-type-error() takes the same. */
typedef enum
{
  SL_ON_ERROR_DROP_MESSAGE       = 1 << 0,   /* the function writes nothing: the default */
  SL_ON_ERROR_DROP_PROPERTY      = 1 << 1,   /* the value is left out */
  SL_ON_ERROR_FALLBACK_TO_STRING = 1 << 2,   /* the value is written as a string */
  SL_ON_ERROR_SILENT             = 1 << 3,   /* with one of the others: nothing is logged */
} SlOnError;

/* on-error()'s words: drop-message, silently-drop-property, ... */
extern const SlOptionWord sl_on_error_words[];

/* How a destination wants its templates rendered, macros as well as fields. */
struct _SlTemplateEnv
{
  SlTsFormat ts_format;    /* for $STAMP and the R_/S_ STAMP forms */
  gint frac_digits;        /* digits after the second in ISO stamps */
  GTimeZone *zone;         /* convert stamps to this zone, or NULL to keep the message's */
  gboolean escape;         /* template-escape(yes): escape ' " \ in values */
  gboolean file_name;      /* values become safe in a path: see SL_TEMPLATE_FILE_NAME_REPLACEMENT */
  SlOnError on_error;      /* on-error() */
  /* The messages of a correlation context, oldest first, the rendered
   * message last; NULL outside one, where the context is the rendered
   * message alone. Only sl_template_append_context() sets them. */
  const SlMessage *const *context;
  guint context_len;
};

/* RFC 3164 stamps in the message's own zone, nothing escaped. */
extern const SlTemplateEnv sl_template_env_default;

/* A macro id greater than zero, or 0 when name is no macro (then it is a field). */
guint    sl_macro_lookup (const gchar *name);
/* Appends the macro's value; FALSE when the message has no value for it. */
gboolean sl_macro_append (guint id, const SlMessage *msg, const SlTemplateEnv *env, GString *out);
/* What a macro's value is computed from, for a template's memo (see
 * sl_template_memo_same()): a value from the same inputs is the same. */
enum
{
  SL_MACRO_READS_PRI      = 1 << 0,
  SL_MACRO_READS_SOURCE   = 1 << 1,   /* the .source.NAME tag */
  SL_MACRO_READS_STAMP    = 1 << 2,   /* the message's stamp: its second and zone */
  SL_MACRO_READS_RECVD    = 1 << 3,   /* its reception time: its second and zone */
  SL_MACRO_READS_USEC     = 1 << 4,   /* and the fraction of those seconds */
  SL_MACRO_READS_FRAC     = 1 << 5,   /* and the fraction when env->frac_digits > 0 */
  SL_MACRO_READS_MSGHDR   = 1 << 6,   /* PROGRAM, PID and LEGACY_MSGHDR */
  SL_MACRO_READS_ANY      = 1 << 7,   /* more than this list says: never the same */
};
guint    sl_macro_inputs (guint id);
/* The name this host logs as ($LOGHOST, and HOST of local messages);
 * interned, so it lives as long as the process (sl_message_set_static()). */
const gchar *sl_macro_loghost (void);
/* options { local-hostname() use-fqdn() }: name, else the system's host
 * name, whole with fqdn (resolved when it has no domain), else up to its
 * first dot. A running configuration's messages take it from then on. */
void         sl_macro_set_loghost (const gchar *name, gboolean fqdn);
/* syslog-ng's own FQDN: the host name when it has a dot, else the first
 * name with a dot that resolving it gives, else the host name itself. */
const gchar *sl_macro_local_fqdn (void);

/* The value-pairs scopes ($(format-json --scope ...)) that list macros. */
enum
{
  SL_MACRO_SCOPE_RFC3164  = 1 << 0,   /* also called core and base */
  SL_MACRO_SCOPE_RFC5424  = 1 << 1,   /* rfc3164 and MSGID */
  SL_MACRO_SCOPE_SELECTED = 1 << 2,   /* selected-macros: rfc3164, TAGS, SOURCEIP and SEQNUM */
  SL_MACRO_SCOPE_ALL      = 1 << 3,   /* all-macros: syslog-ng's macros that Sluice has */
};

/* scopes: the SL_MACRO_SCOPE_* that list name; name lives until the call
 * returns. */
typedef void (*SlMacroFunc) (const gchar *name, guint scopes, gpointer user_data);
/* Calls func once for each macro of all-macros (a computed one, or a field
 * the message stores, such as HOST): the time macros, then their R_ and S_
 * forms, then the others. */
void sl_macro_foreach (SlMacroFunc func, gpointer user_data);

G_END_DECLS

#endif
