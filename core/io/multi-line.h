/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* syslog-ng's multi-line-mode(): which lines make one message, for the
 * file sources (lines of a file) and group-lines() (messages of a key). */
#ifndef SL_MULTI_LINE_H
#define SL_MULTI_LINE_H

#include "core/io/multi-line-state.h"
#include "core/plugin/plugin.h"
#include "core/plugin/options.h"

G_BEGIN_DECLS

typedef enum
{
  SL_MULTI_LINE_NONE,
  SL_MULTI_LINE_INDENTED,       /* a line starting with a space or tab continues the message */
  SL_MULTI_LINE_PREFIX_GARBAGE, /* prefix starts a message; garbage ends it and is dropped */
  SL_MULTI_LINE_PREFIX_SUFFIX,  /* prefix starts a message; suffix ends it and is kept */
  SL_MULTI_LINE_SMART,          /* the lines of a stack trace (Java, Python, PHP, Go, Ruby, Dart) make one
                                 * message, by syslog-ng 4.8's rules (smart-multi-line.fsm) */
} SlMultiLineMode;

/* What a driver keeps in its struct, listing SL_MULTI_LINE_OPTIONS (its
 * struct, the member) in its option table. */
typedef struct
{
  gint mode;                /* SlMultiLineMode */
  const gchar *prefix;
  const gchar *suffix;
} SlMultiLineOptions;

extern const SlOptionWord sl_multi_line_mode_words[];

#define SL_MULTI_LINE_OPTIONS(T, m) \
  { "multi-line-mode", SL_CHOICE (T, m.mode), "none", "which lines make one message", \
    .words = sl_multi_line_mode_words }, \
  { "multi-line-prefix", SL_STRING (T, m.prefix), NULL, \
    "regexp and prefix-* modes: a line this PCRE finds a match in starts a new message" }, \
  { "multi-line-suffix", SL_STRING (T, m.suffix), NULL, \
    "prefix-suffix: a match of this PCRE ends the message after it; prefix-garbage: before it, dropping it" }, \
  { "multi-line-garbage", SL_STRING (T, m.suffix), NULL, "another name of multi-line-suffix()" }

typedef struct _SlMultiLine SlMultiLine;

/* NULL without an error for multi-line-mode(none). */
SlMultiLine *sl_multi_line_new  (SlDriver *owner, const SlMultiLineOptions *options, GError **error);
void         sl_multi_line_free (SlMultiLine *ml);

/* Where line (without its newline) goes, held_len bytes of the message
 * being put together; held_len 0: the line starts one. After
 * SL_MULTI_LINE_BEFORE the same line comes again, with held_len 0. */
SlMultiLineVerdict sl_multi_line_add (const SlMultiLine *ml, SlMultiLineState *state, gsize held_len,
                                      const gchar *line, gsize len, gsize *keep);

G_END_DECLS

#endif
