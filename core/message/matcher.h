/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Patterns as syslog-ng's filters and rewrite rules take them: a PCRE
 * regular expression (GRegex, compiled once), a literal string or a glob,
 * chosen by type() and tuned by flags(). Values are (pointer, length) and
 * need not end in NUL. */
#ifndef SL_MATCHER_H
#define SL_MATCHER_H

#include <glib.h>
#include "core/message/message.h"
#include "core/plugin/options.h"
#include "core/plugin/plugin.h"
#include "core/message/template.h"

G_BEGIN_DECLS

typedef enum
{
  SL_MATCHER_PCRE,
  SL_MATCHER_STRING,
  SL_MATCHER_GLOB,
} SlMatcherType;

/* flags(): one bit per word, in the order of the choices below. */
enum
{
  SL_MATCHER_IGNORE_CASE   = 1 << 0,
  SL_MATCHER_PREFIX        = 1 << 1,   /* string: the value starts with the pattern */
  SL_MATCHER_SUBSTRING     = 1 << 2,   /* string: the value contains the pattern */
  SL_MATCHER_UTF8          = 1 << 3,   /* pcre: characters, not bytes */
  SL_MATCHER_UNICODE       = 1 << 4,   /* the same as utf8 */
  SL_MATCHER_STORE_MATCHES = 1 << 5,   /* $0, $1 ... and named groups become fields */
  SL_MATCHER_GLOBAL        = 1 << 6,   /* replace: every match, not the first */
  SL_MATCHER_DISABLE_JIT   = 1 << 7,
  SL_MATCHER_DUPNAMES      = 1 << 8,   /* pcre: group names may repeat */
  SL_MATCHER_NEWLINE       = 1 << 9,   /* pcre: ^ and $ know CR, LF and CRLF */
};

/* What type() and flags() say; a driver that matches keeps one in its
 * struct and lists SL_MATCHER_OPTIONS (its struct, the member) in its table. */
typedef struct
{
  gint type;        /* SlMatcherType */
  guint32 flags;
} SlMatcherOptions;

extern const SlOptionWord sl_matcher_type_words[];
extern const SlOptionWord sl_matcher_flag_words[];

#define SL_MATCHER_OPTIONS(T, m) \
  { "type", SL_CHOICE (T, m.type), "pcre", "what the pattern is", .words = sl_matcher_type_words }, \
  { "flags", SL_FLAGS (T, m.flags), NULL, "how to match", .words = sl_matcher_flag_words }

typedef struct _SlMatcher SlMatcher;

/* Compiles pattern, written at pattern_pos, with the type() and flags() of
 * options. An invalid pattern is a configuration error at its position. owner names the counter of values that could not be matched
 * ("match-errors") and the one line logged about them. */
SlMatcher    *sl_matcher_new   (SlDriver *owner, const SlMatcherOptions *options, const gchar *pattern,
                                SlCfgPos pattern_pos, GError **error);
void          sl_matcher_free  (SlMatcher *m);
SlMatcherType sl_matcher_type  (const SlMatcher *m);

/* Whether value matches. A regular expression that reaches PCRE's
 * backtracking limit, or a utf8 one given bytes that are not UTF-8, does
 * not match and is counted. */
gboolean      sl_matcher_match (const SlMatcher *m, const gchar *value, gsize len);
/* The same; a match under flags(store-matches) also sets $0 (the whole
 * match), $1 ... (the groups) and named groups in *msg, made writable, and
 * unsets the numbered matches a previous pattern left. value may lie in
 * *msg. */
gboolean      sl_matcher_match_store (const SlMatcher *m, SlMessage **msg, const gchar *value, gsize len);
/* Appends to out value with its first match (every match with
 * flags(global)) replaced by replacement, rendered against *msg in which
 * $0, $1 ... hold the match being replaced. FALSE, with nothing appended,
 * when nothing matched. msg must be writable; value may lie in it. Glob
 * patterns cannot replace: callers refuse them. */
gboolean      sl_matcher_replace (const SlMatcher *m, SlMessage *msg, const gchar *value, gsize len,
                                  const SlTemplate *replacement, GString *out);

G_END_DECLS

#endif
