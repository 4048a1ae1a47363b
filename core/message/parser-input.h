/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What a parser reads: the text of its template() option, or MESSAGE when
 * it has none, in a buffer of the calling thread. */
#ifndef SL_PARSER_INPUT_H
#define SL_PARSER_INPUT_H

#include <glib.h>
#include "core/message/message.h"
#include "core/message/template.h"

G_BEGIN_DECLS

/* Renders template (MESSAGE when NULL) into the calling thread's buffer and
 * returns it, NUL-terminated, with its length. Being a copy, it stays valid
 * while the parser changes msg, and the parser may change it in place (to
 * unquote values), until the thread's next call. For parsers only: a
 * template function calling it would overwrite its caller's text. */
gchar *sl_parser_input (const SlTemplate *template, const SlMessage *msg, gsize *len);

G_END_DECLS

#endif
