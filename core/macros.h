/* syslog-ng's macros: values computed from a message rather than stored. */
#ifndef SL_MACROS_H
#define SL_MACROS_H

#include <glib.h>
#include "core/message.h"
#include "core/template.h"

G_BEGIN_DECLS

/* A macro id greater than zero, or 0 when name is no macro (then it is a field). */
guint    sl_macro_lookup (const gchar *name);
/* Appends the macro's value; FALSE when the message has no value for it. */
gboolean sl_macro_append (guint id, const SlMessage *msg, const SlTemplateEnv *env, GString *out);
/* The name this host logs as ($LOGHOST, and HOST of local messages). */
const gchar *sl_macro_loghost (void);

G_END_DECLS

#endif
