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
} SlTokenKind;

typedef struct
{
  SlTokenKind kind;
  gchar *value;
  SlCfgPos pos;
} SlToken;

typedef struct _SlLexer SlLexer;

SlLexer  *sl_lexer_new          (void);
void      sl_lexer_free         (SlLexer *lexer);
gboolean  sl_lexer_push_file    (SlLexer *lexer, const gchar *path, SlCfgPos *from, GError **error);
void      sl_lexer_push_string  (SlLexer *lexer, const gchar *text, const gchar *name);
void      sl_lexer_define       (SlLexer *lexer, const gchar *name, const gchar *value);
/* The next token, or FALSE with *error set on a lexical error. */
gboolean  sl_lexer_next         (SlLexer *lexer, SlToken *token, GError **error);
void      sl_token_clear        (SlToken *token);

G_END_DECLS

#endif
