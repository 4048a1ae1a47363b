/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Templates compiled once: literal text, $NAME, ${NAME}, ${.SDATA.id.param}
 * and $(function args), resolved against a message on the hot path without
 * hashing a name. */
#ifndef SL_TEMPLATE_H
#define SL_TEMPLATE_H

#include <glib.h>
#include "core/message/macros.h"
#include "core/message/message.h"
#include "core/plugin/plugin.h"
/* template functions render their arguments into scratch buffers */
#include "core/message/scratch.h"
#include "core/message/timeutil.h"

G_BEGIN_DECLS

/* With env->file_name, every byte of what a macro, field or function
 * puts into the text that is '/' or a control character (NUL, newline,
 * ... 0x1f, 0x7f) becomes this, as syslog-ng's $(sanitize) does: a
 * sender's $HOST or $PROGRAM cannot make folders, end a name early or put
 * a line break into it. The template's own text is kept as written. */
#define SL_TEMPLATE_FILE_NAME_REPLACEMENT '_'


SlTemplate  *sl_template_compile (const gchar *text, GError **error);
/* The same; on an error that is about one place of text (an unknown
 * function's name), *error_at is its byte offset, otherwise G_MAXSIZE. */
SlTemplate  *sl_template_compile_located (const gchar *text, gsize *error_at, GError **error);
/* syslog-ng's template-function statements: while functions (name ->
 * SlTemplateUserFunction) is set, $(name) in a template compiled renders
 * that function's template, compiled at its first use (so a definition
 * nothing uses, such as one of the SCL's, costs nothing and cannot fail).
 * A configuration sets it while it compiles, then NULL. */
typedef struct
{
  gchar *text;
  SlTemplate *compiled;
  gboolean compiling;      /* a use inside its own text is refused */
} SlTemplateUserFunction;

void         sl_template_set_user_functions (GHashTable *functions);
void         sl_template_user_function_free (SlTemplateUserFunction *f);
/* The named templates of the configuration being compiled (`template NAME
 * { template("..."); };`, compiled in the order written), for $(template
 * NAME): NULL outside a compilation. A function that looks names up while
 * it renders keeps the table with g_hash_table_ref() and reads it only
 * through sl_template_named_lookup(). */
GHashTable  *sl_template_named      (void);
/* The template called name in named (- and _ alike), or NULL. */
SlTemplate  *sl_template_named_lookup (GHashTable *named, const gchar *name);
/* The template of one field or macro named as value("NAME") options name
 * them (PROGRAM, MSG, .SDATA.origin.ip, FACILITY): an error when name is
 * empty or holds what only a template can ($, braces, parentheses, :-). */
SlTemplate  *sl_template_compile_name (const gchar *name, GError **error);
SlTemplate  *sl_template_ref     (SlTemplate *t);
void         sl_template_unref   (SlTemplate *t);
const gchar *sl_template_text    (const SlTemplate *t);
/* True when the template has no macro, field or function in it. */
gboolean     sl_template_is_literal (const SlTemplate *t);
/* Appends the rendered template to out. */
void         sl_template_append  (const SlTemplate *t, const SlMessage *msg,
                                  const SlTemplateEnv *env, GString *out);
/* Renders t over a correlation context (grouping-by()'s aggregate()), as
 * syslog-ng does: messages are oldest first and n_messages >= 1; names
 * read the newest, ${NAME}@K and $(f ...)@K the K-th before it (empty
 * past the oldest), and $(f ...) gets the whole context (see
 * sl_template_env_context()). The messages are only read during the call.
 * sl_template_append() is the context of its one message. */
void         sl_template_append_context (const SlTemplate *t, const SlMessage *const *messages,
                                         guint n_messages, const SlTemplateEnv *env, GString *out);
/* For template functions: the messages a call is rendered over, oldest
 * first, the one it was given last: env's context, or msg alone. */
static inline const SlMessage *const *
sl_template_env_context (const SlTemplateEnv *env, const SlMessage *const *msg, guint *n)
{
  if (env && env->context)
    {
      *n = env->context_len;
      return env->context;
    }
  *n = 1;
  return msg;
}
/* What a template's text is made from, and those inputs as they were in
 * the last message asked about: a writer that renders one template for
 * message after message (file()'s path) renders it again only when they
 * change. One memo serves one thread. */
typedef struct _SlTemplateMemo SlTemplateMemo;

SlTemplateMemo *sl_template_memo_new  (const SlTemplate *t);
void            sl_template_memo_free (SlTemplateMemo *m);
/* TRUE when the memo's template renders msg in env to the text it rendered
 * for the last message asked about (its fields, the second and zone of the
 * stamps it shows, the fraction too where one is shown, ... are the same);
 * otherwise remembers msg's inputs for the next call and returns FALSE.
 * Never TRUE for a template with a template function, an @K or a macro
 * such as $SDATA or $TAGS in it, nor on the first call. */
gboolean        sl_template_memo_same (SlTemplateMemo *m, const SlMessage *msg, const SlTemplateEnv *env);

/* The field a template stands for when it is one field and nothing else
 * ("$HOST", "${MSG}", "${.SDATA.a.b}"), aliases resolved; SL_F_NONE when it
 * is anything more (text, a macro, a function, a fallback). */
SlHandle     sl_template_single_field (const SlTemplate *t);
/* A type hint written with the template (int("$PID"), list("a,b"), a bare
 * 42 or 1.5), as syslog-ng 4 takes one: it is the type of every value the
 * template renders (sl_template_peek_typed()). */
void         sl_template_set_type_hint (SlTemplate *t, SlValueType type);
/* The rendered value of t with the default environment, for code that only
 * reads it: a single-field template gives the field itself without a copy;
 * anything else is rendered into a buffer of the calling thread, valid
 * until that thread's next call. Never NULL; *len is its length. */
const gchar *sl_template_peek    (const SlTemplate *t, const SlMessage *msg, gsize *len);
/* sl_template_peek() and the type syslog-ng 4 gives what it renders: the
 * hint if one was written; else, for a template that is one field and
 * nothing else, that field's type (null when unset), for one function
 * call, the type its prepare() gave (SlTfCall's type); a string for
 * anything else. */
const gchar *sl_template_peek_typed (const SlTemplate *t, const SlMessage *msg, gsize *len, SlValueType *type);
/* Appends what t renders with the default environment to out and returns
 * the type sl_template_peek_typed() gives it. */
SlValueType  sl_template_append_typed (const SlTemplate *t, const SlMessage *msg, GString *out);

G_END_DECLS

#endif
