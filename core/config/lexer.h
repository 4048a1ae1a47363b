/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tokens of the configuration language, from a stack of inputs: files,
 * included files and the text of backtick substitutions. */
#ifndef SL_CFG_LEXER_H
#define SL_CFG_LEXER_H

#include <glib.h>
#include "core/config/tree.h"

G_BEGIN_DECLS

typedef enum
{
  SL_TOK_EOF,
  SL_TOK_WORD,
  SL_TOK_STRING,
  SL_TOK_LPAREN,
  SL_TOK_RPAREN,
  SL_TOK_LBRACE,
  SL_TOK_RBRACE,
  SL_TOK_SEMICOLON,
  SL_TOK_COMMA,
  SL_TOK_OPERATOR,   /* == != < <= > >= and the string forms are words */
  SL_TOK_PRAGMA,     /* @version, @include, @define, ... : value is the name */
  SL_TOK_COLON,
  SL_TOK_ARROW,      /* => between a key and its value */
  SL_TOK_LBRACKET,   /* [ ] around an application's context */
  SL_TOK_RBRACKET,
} SlTokenKind;

typedef struct
{
  SlTokenKind kind;
  gchar *value;
  SlCfgPos pos;
  /* the first token after an expanded block's text: a ';' here ends the
   * reference, whatever the body ended with */
  gboolean follows_expansion;
} SlToken;

typedef struct _SlLexer SlLexer;

/* Where a stretch of generated text was written: from offset on, the text
 * stands at line:column of file; a frozen span is a substituted value, all
 * of whose tokens are reported at the backtick that named it. */
typedef struct
{
  gsize offset;
  gint line;
  gint column;
  gboolean frozen;
} SlLexSpan;

SlLexer  *sl_lexer_new          (void);
void      sl_lexer_free         (SlLexer *lexer);
gboolean  sl_lexer_push_file    (SlLexer *lexer, const gchar *path, SlCfgPos *from, GError **error);
void      sl_lexer_push_string  (SlLexer *lexer, const gchar *text, const gchar *name);
/* Text made by expanding a block: its backticks are already substituted,
 * so it is read verbatim; spans (SlLexSpan, by offset, the first at 0) map
 * it back to where its parts were written, and every position read from it
 * carries expansion. */
void      sl_lexer_push_expansion (SlLexer *lexer, const gchar *text, const gchar *file,
                                   GArray *spans, const SlCfgExpansion *expansion);
void      sl_lexer_define       (SlLexer *lexer, const gchar *name, const gchar *value);
/* The value of a backtick name: an @define, else the environment, else NULL. */
const gchar *sl_lexer_lookup    (SlLexer *lexer, const gchar *name);
/* Reads the text after the opening bracket just returned as a token, up to
 * its matching close (one of ')', '}', ']'), which is consumed: strings,
 * comments and nested pairs are kept as written, backticks substituted
 * when substitute is set (a block's body keeps them for its parameters).
 * *start is where the text begins, *end where its close is. */
gboolean  sl_lexer_read_raw     (SlLexer *lexer, gchar close, gboolean substitute, SlCfgPos opener,
                                 gchar **text, SlCfgPos *start, SlCfgPos *end, GError **error);
/* The next token, or FALSE with *error set on a lexical error. */
gboolean  sl_lexer_next         (SlLexer *lexer, SlToken *token, GError **error);
void      sl_token_clear        (SlToken *token);

G_END_DECLS

#endif
