/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslog-ng's multi-line-mode() of file sources: which lines of a file
 * make one message. */
#ifndef MULTI_LINE_H
#define MULTI_LINE_H

#include "core/plugin/plugin.h"
#include "core/plugin/options.h"

G_BEGIN_DECLS

typedef enum
{
  MULTI_LINE_NONE,
  MULTI_LINE_INDENTED,       /* a line starting with a space or tab continues the message */
  MULTI_LINE_PREFIX_GARBAGE, /* prefix starts a message; garbage ends it and is dropped */
  MULTI_LINE_PREFIX_SUFFIX,  /* prefix starts a message; suffix ends it and is kept */
} MultiLineMode;

/* What a file source keeps in its struct, listing
 * MULTI_LINE_OPTIONS (its struct, the member) in its table. */
typedef struct
{
  gint mode;                /* MultiLineMode */
  const gchar *prefix;
  const gchar *suffix;
  gint64 timeout;           /* ms; 0: held until the next message starts */
} MultiLineOptions;

extern const SlOptionWord multi_line_mode_words[];

#define MULTI_LINE_OPTIONS(T, m) \
  { "multi-line-mode", SL_CHOICE (T, m.mode), "none", "which lines make one message", \
    .words = multi_line_mode_words }, \
  { "multi-line-prefix", SL_STRING (T, m.prefix), NULL, \
    "regexp and prefix-* modes: a line this PCRE finds a match in starts a new message" }, \
  { "multi-line-suffix", SL_STRING (T, m.suffix), NULL, \
    "prefix-suffix: a match of this PCRE ends the message after it; prefix-garbage: before it, dropping it" }, \
  { "multi-line-garbage", SL_STRING (T, m.suffix), NULL, "another name of multi-line-suffix()" }, \
  { "multi-line-timeout", SL_DURATION (T, m.timeout), "0", \
    "a message waiting for more lines is sent when the file had nothing new this long; 0: when the next one starts" }

typedef struct _SlMultiLine MultiLine;

/* NULL without an error for multi-line-mode(none). */
MultiLine *multi_line_new (SlDriver *owner, const MultiLineOptions *options, GError **error);
void         multi_line_free (MultiLine *ml);
gint64       multi_line_timeout (const MultiLine *ml);

typedef enum
{
  MULTI_LINE_WAIT,       /* the line belongs to the message, which may go on */
  MULTI_LINE_END,        /* the message ends in this line, after *keep of its bytes */
  MULTI_LINE_BEFORE,     /* the message ended before this line, which starts the next */
} MultiLineVerdict;

/* Where line (without its newline) goes, held_len bytes of the message
 * being read; held_len 0: the line starts one. */
MultiLineVerdict multi_line_add (const MultiLine *ml, gsize held_len, const gchar *line, gsize len,
                                      gsize *keep);

G_END_DECLS

#endif
