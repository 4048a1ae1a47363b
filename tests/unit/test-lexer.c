/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The configuration lexer: token kinds, escapes, positions, the input
 * stack and backtick substitution. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "core/config/error.h"
#include "core/config/lexer.h"

static const gchar *
kind_name (SlTokenKind kind)
{
  switch (kind)
    {
    case SL_TOK_EOF: return "eof";
    case SL_TOK_WORD: return "word";
    case SL_TOK_STRING: return "string";
    case SL_TOK_LPAREN: return "lparen";
    case SL_TOK_RPAREN: return "rparen";
    case SL_TOK_LBRACE: return "lbrace";
    case SL_TOK_RBRACE: return "rbrace";
    case SL_TOK_SEMICOLON: return "semicolon";
    case SL_TOK_COMMA: return "comma";
    case SL_TOK_OPERATOR: return "operator";
    case SL_TOK_PRAGMA: return "pragma";
    case SL_TOK_COLON: return "colon";
    case SL_TOK_ARROW: return "arrow";
    case SL_TOK_LBRACKET: return "lbracket";
    case SL_TOK_RBRACKET: return "rbracket";
    }
  return "?";
}

/* All tokens of a lexer as "kind:value kind:value ... eof", or NULL with
 * *error set. */
static gchar *
drain (SlLexer *lexer, GError **error)
{
  GString *out = g_string_new (NULL);

  for (;;)
    {
      SlToken token = { 0 };

      if (!sl_lexer_next (lexer, &token, error))
        {
          g_string_free (out, TRUE);
          return NULL;
        }
      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, kind_name (token.kind));
      if (token.kind == SL_TOK_EOF)
        break;
      g_string_append_printf (out, ":%s", token.value);
      sl_token_clear (&token);
    }
  return g_string_free (out, FALSE);
}

static gchar *
tokens_of (const gchar *text)
{
  g_autoptr (GError) error = NULL;
  SlLexer *lexer = sl_lexer_new ();
  gchar *tokens;

  sl_lexer_push_string (lexer, text, "test.conf");
  tokens = drain (lexer, &error);
  g_assert_no_error (error);
  sl_lexer_free (lexer);
  return tokens;
}

/* The message of the error the text makes. */
static gchar *
error_of (const gchar *text, SlCfgErrorCode code)
{
  g_autoptr (GError) error = NULL;
  SlLexer *lexer = sl_lexer_new ();
  gchar *tokens;

  sl_lexer_push_string (lexer, text, "test.conf");
  tokens = drain (lexer, &error);
  g_assert_null (tokens);
  g_assert_error (error, SL_CFG_ERROR, (gint) code);
  sl_lexer_free (lexer);
  return g_strdup (error->message);
}

/* The value of the single string token of text. */
static gchar *
string_of (const gchar *text)
{
  g_autoptr (GError) error = NULL;
  SlLexer *lexer = sl_lexer_new ();
  SlToken token = { 0 };
  SlToken end = { 0 };

  sl_lexer_push_string (lexer, text, "test.conf");
  g_assert_true (sl_lexer_next (lexer, &token, &error));
  g_assert_no_error (error);
  g_assert_cmpint (token.kind, ==, SL_TOK_STRING);
  g_assert_true (sl_lexer_next (lexer, &end, &error));
  g_assert_cmpint (end.kind, ==, SL_TOK_EOF);
  sl_lexer_free (lexer);
  return token.value;
}

static void
assert_tokens (const gchar *text, const gchar *expected)
{
  g_autofree gchar *tokens = tokens_of (text);

  g_assert_cmpstr (tokens, ==, expected);
}

static void
assert_string (const gchar *text, const gchar *expected)
{
  g_autofree gchar *value = string_of (text);

  g_assert_cmpstr (value, ==, expected);
}

static void
test_punctuation (void)
{
  assert_tokens ("( ) { } ; ,", "lparen:( rparen:) lbrace:{ rbrace:} semicolon:; comma:, eof");
  assert_tokens ("tcp(port(514));", "word:tcp lparen:( word:port lparen:( word:514 rparen:) rparen:) semicolon:; eof");
  assert_tokens ("", "eof");
  assert_tokens ("  \t\r\n\n ", "eof");
}

static void
test_words (void)
{
  assert_tokens ("a.b:c/d*e+f@g-h_i info..warn err..emerg",
                 "word:a.b:c/d*e+f@g-h_i word:info..warn word:err..emerg eof");
  assert_tokens ("::1 10.0.0.0/8 -1 +01:00 100MB 4.0 user@host /var/log/*.log",
                 "word:::1 word:10.0.0.0/8 word:-1 word:+01:00 word:100MB word:4.0 word:user@host word:/var/log/*.log eof");
  assert_tokens ("flow_control flow-control", "word:flow_control word:flow-control eof");
}

static void
test_operators (void)
{
  assert_tokens ("== != < <= > >=",
                 "operator:== operator:!= operator:< operator:<= operator:> operator:>= eof");
  assert_tokens ("eq ne lt le gt ge", "word:eq word:ne word:lt word:le word:gt word:ge eof");
  assert_tokens ("\"${LEVEL_NUM}\"<=3", "string:${LEVEL_NUM} operator:<= word:3 eof");
  /* '$' is a word's character, as in syslog-ng: a bare macro (4.8's
   * PostgreSQL SCL compares $SEVERITY_NUM == 0) */
  assert_tokens ("$SEVERITY_NUM == 0", "word:$SEVERITY_NUM operator:== word:0 eof");
  assert_tokens ("\"a\"==\"b\"", "string:a operator:== string:b eof");
}

static void
test_pairs_and_brackets (void)
{
  assert_tokens ("config(\"acks\" => \"all\")", "word:config lparen:( string:acks arrow:=> string:all rparen:) eof");
  assert_tokens ("\"a\"=>b", "string:a arrow:=> word:b eof");
  assert_tokens ("application cisco[syslog-raw]", "word:application word:cisco lbracket:[ word:syslog-raw rbracket:] eof");
}

static void
test_pragmas (void)
{
  assert_tokens ("@version: 4.0", "pragma:version colon:: word:4.0 eof");
  assert_tokens ("@version:4.0", "pragma:version colon:: word:4.0 eof");
  assert_tokens ("@include \"conf.d/*.conf\"\n@define logdir \"/var/log\"\n@module python\n@requires json-plugin",
                 "pragma:include string:conf.d/*.conf pragma:define word:logdir string:/var/log "
                 "pragma:module word:python pragma:requires word:json-plugin eof");
  /* only the colon right after a pragma is one; elsewhere it is part of a word */
  assert_tokens ("@version: 4.0 ip(::1) a:b", "pragma:version colon:: word:4.0 word:ip lparen:( word:::1 rparen:) word:a:b eof");
  /* '@' inside a word is a word character */
  assert_tokens ("user@example.com", "word:user@example.com eof");
}

static void
test_comments (void)
{
  assert_tokens ("a # a comment ( \"not a string\n b", "word:a word:b eof");
  assert_tokens ("# only a comment", "eof");
  assert_tokens ("a#b\nc", "word:a word:c eof");
  assert_tokens ("\"# not a comment\"", "string:# not a comment eof");
}

static void
test_double_quoted_escapes (void)
{
  assert_string ("\"a\\nb\"", "a\nb");
  assert_string ("\"\\t\\r\\\\\\\"\\'\"", "\t\r\\\"'");
  assert_string ("\"\\a\\v\"", "\a\v");
  assert_string ("\"\\x41\\x7e\\x4\"", "A~\x04");
  assert_string ("\"\\x41b\"", "Ab");
  /* unknown escapes keep their backslash: regular expressions need it */
  assert_string ("\"^\\d+\\.\\s$\"", "^\\d+\\.\\s$");
  assert_string ("\"\\xg\"", "\\xg");
  assert_string ("\"\\q\"", "\\q");
  /* a backslash at the end of a line joins the lines */
  assert_string ("\"ab\\\ncd\"", "abcd");
  assert_string ("\"ab\\\r\ncd\"", "abcd");
  /* a plain newline is part of the string */
  assert_string ("\"line one\nline two\"", "line one\nline two");
  assert_string ("\"\"", "");
  assert_string ("\"it's\"", "it's");
}

static void
test_single_quoted (void)
{
  assert_string ("'a\\nb'", "a\\nb");
  assert_string ("'say \"hi\"'", "say \"hi\"");
  assert_string ("'a``b'", "a`b");
  assert_string ("'two\nlines'", "two\nlines");
  assert_string ("''", "");
}

static void
test_adjacent_strings (void)
{
  assert_tokens ("\"a\" \"b\"", "string:a string:b eof");
  assert_tokens ("\"a\"\"b\"", "string:a string:b eof");
  assert_tokens ("'a''b'", "string:a string:b eof");
  assert_tokens ("\"a\",'b'", "string:a comma:, string:b eof");
}

static void
test_line_continuation (void)
{
  assert_tokens ("a \\\n b", "word:a word:b eof");
}

static void
test_byte_order_mark (void)
{
  SlLexer *lexer = sl_lexer_new ();
  SlToken token = { 0 };

  sl_lexer_push_string (lexer, "\xef\xbb\xbfsource", "bom.conf");
  g_assert_true (sl_lexer_next (lexer, &token, NULL));
  g_assert_cmpstr (token.value, ==, "source");
  g_assert_cmpint (token.pos.column, ==, 1);
  sl_token_clear (&token);
  sl_lexer_free (lexer);
}

typedef struct
{
  SlTokenKind kind;
  const gchar *value;
  gint line;
  gint column;
} ExpectedToken;

static void
assert_positions (SlLexer *lexer, const ExpectedToken *expected, gsize n, const gchar *file)
{
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr (GError) error = NULL;
      SlToken token = { 0 };

      g_assert_true (sl_lexer_next (lexer, &token, &error));
      g_assert_no_error (error);
      g_assert_cmpint (token.kind, ==, expected[i].kind);
      g_assert_cmpstr (token.value, ==, expected[i].value);
      g_assert_cmpint (token.pos.line, ==, expected[i].line);
      g_assert_cmpint (token.pos.column, ==, expected[i].column);
      g_assert_true (token.pos.file == sl_cfg_intern_file (file));
      sl_token_clear (&token);
    }
}

static void
test_positions (void)
{
  static const ExpectedToken expected[] = {
    { SL_TOK_WORD, "source", 1, 1 },
    { SL_TOK_WORD, "s_net", 1, 8 },
    { SL_TOK_LBRACE, "{", 1, 14 },
    { SL_TOK_WORD, "tcp", 2, 2 },          /* after a tab: one byte, one column */
    { SL_TOK_LPAREN, "(", 2, 5 },
    { SL_TOK_STRING, "multi\nline", 2, 6 },
    { SL_TOK_RPAREN, ")", 3, 6 },
    { SL_TOK_SEMICOLON, ";", 3, 7 },
    { SL_TOK_RBRACE, "}", 5, 1 },          /* past a comment line */
    { SL_TOK_SEMICOLON, ";", 5, 2 },
    { SL_TOK_EOF, NULL, 5, 3 },            /* just after the last token */
    { SL_TOK_EOF, NULL, 5, 3 },            /* and it stays there */
  };
  SlLexer *lexer = sl_lexer_new ();

  sl_lexer_push_string (lexer, "source s_net {\n\ttcp(\"multi\nline\");\n  # note\n};\n\n", "pos.conf");
  assert_positions (lexer, expected, G_N_ELEMENTS (expected), "pos.conf");
  sl_lexer_free (lexer);
}

static void
test_utf8_columns_are_bytes (void)
{
  static const ExpectedToken expected[] = {
    { SL_TOK_STRING, "é", 1, 1 },
    { SL_TOK_WORD, "x", 1, 6 },
  };
  SlLexer *lexer = sl_lexer_new ();

  sl_lexer_push_string (lexer, "\"é\" x", "utf8.conf");
  assert_positions (lexer, expected, G_N_ELEMENTS (expected), "utf8.conf");
  sl_lexer_free (lexer);
}

static void
test_error_unterminated_string (void)
{
  g_autofree gchar *dq = error_of ("x \"abc", SL_CFG_ERROR_SYNTAX);
  g_autofree gchar *sq = error_of ("a\n  'abc\ndef", SL_CFG_ERROR_SYNTAX);
  g_autofree gchar *escaped = error_of ("\"abc\\\"", SL_CFG_ERROR_SYNTAX);

  g_assert_cmpstr (dq, ==, "test.conf:1:3: unterminated string\n  x \"abc\n    ^");
  g_assert_cmpstr (sq, ==, "test.conf:2:3: unterminated string\n    'abc\n    ^");
  g_assert_cmpstr (escaped, ==, "test.conf:1:1: unterminated string\n  \"abc\\\"\n  ^");
}

static void
test_error_unexpected_character (void)
{
  g_autofree gchar *bang = error_of ("a ! b", SL_CFG_ERROR_SYNTAX);
  g_autofree gchar *equals = error_of ("a = b", SL_CFG_ERROR_SYNTAX);
  g_autofree gchar *tilde = error_of ("x\n  ~HOST", SL_CFG_ERROR_SYNTAX);
  g_autofree gchar *control = error_of ("\x01", SL_CFG_ERROR_SYNTAX);
  g_autofree gchar *at = error_of ("@ x", SL_CFG_ERROR_SYNTAX);

  g_assert_cmpstr (bang, ==, "test.conf:1:3: unexpected character '!'; write 'not' to negate a filter, '!=' to compare\n  a ! b\n    ^");
  g_assert_cmpstr (equals, ==, "test.conf:1:3: unexpected character '='; did you mean '=='?\n  a = b\n    ^");
  g_assert_cmpstr (tilde, ==, "test.conf:2:3: unexpected character '~'\n    ~HOST\n    ^");
  g_assert_true (g_str_has_prefix (control, "test.conf:1:1: unexpected character '\\x01'"));
  g_assert_true (g_str_has_prefix (at, "test.conf:1:1: expected a name after '@'"));
}

static void
test_error_nul_escape (void)
{
  g_autofree gchar *message = error_of ("\"ab\\x00\"", SL_CFG_ERROR_SYNTAX);

  g_assert_cmpstr (message, ==, "test.conf:1:4: a string cannot hold a NUL byte (\\x00)\n  \"ab\\x00\"\n     ^");
}

static gchar *
tokens_with_define (const gchar *name, const gchar *value, const gchar *text)
{
  g_autoptr (GError) error = NULL;
  SlLexer *lexer = sl_lexer_new ();
  gchar *tokens;

  sl_lexer_define (lexer, name, value);
  sl_lexer_push_string (lexer, text, "test.conf");
  tokens = drain (lexer, &error);
  g_assert_no_error (error);
  sl_lexer_free (lexer);
  return tokens;
}

/* syslog-ng substitutes before it reads tokens, so inside '...' too: the
 * SCL writes patterns('`cisco-parser-timestamp-pattern`'). */
static void
test_backtick_in_single_quotes (void)
{
  g_autofree gchar *tokens = tokens_with_define ("pattern", "^\\d+ \"x\"", "patterns('`pattern`$')");
  g_autofree gchar *apostrophe = NULL;
  g_autoptr (GError) error = NULL;
  SlLexer *lexer = sl_lexer_new ();

  g_assert_cmpstr (tokens, ==, "word:patterns lparen:( string:^\\d+ \"x\"$ rparen:) eof");

  sl_lexer_define (lexer, "quote", "it's");
  sl_lexer_push_string (lexer, "'`quote`'", "test.conf");
  apostrophe = drain (lexer, &error);
  g_assert_null (apostrophe);
  g_assert_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE);
  g_assert_true (g_str_has_prefix (error->message, "test.conf:1:2: the value of `quote` holds an apostrophe"));
  sl_lexer_free (lexer);
}

static void
test_backtick_in_string (void)
{
  g_autofree gchar *tokens = tokens_with_define ("logdir", "/var/log", "file(\"`logdir`/messages\")");
  g_autofree gchar *twice = tokens_with_define ("x", "ab", "\"`x`-`x`\"");
  g_autofree gchar *literal = tokens_with_define ("x", "ab", "\"a``b\"");

  g_assert_cmpstr (tokens, ==, "word:file lparen:( string:/var/log/messages rparen:) eof");
  g_assert_cmpstr (twice, ==, "string:ab-ab eof");
  g_assert_cmpstr (literal, ==, "string:a`b eof");
}

static void
test_backtick_outside_string (void)
{
  static const ExpectedToken expected[] = {
    { SL_TOK_WORD, "a", 1, 1 },
    { SL_TOK_WORD, "tcp", 2, 3 },
    { SL_TOK_LPAREN, "(", 2, 3 },
    { SL_TOK_WORD, "port", 2, 3 },
    { SL_TOK_LPAREN, "(", 2, 3 },
    { SL_TOK_STRING, "514", 2, 3 },
    { SL_TOK_RPAREN, ")", 2, 3 },
    { SL_TOK_RPAREN, ")", 2, 3 },
    { SL_TOK_WORD, "b", 2, 9 },
    { SL_TOK_EOF, NULL, 2, 10 },
  };
  SlLexer *lexer = sl_lexer_new ();

  sl_lexer_define (lexer, "drv", "tcp(port(\"514\"))");
  sl_lexer_push_string (lexer, "a\n  `drv` b", "sub.conf");
  assert_positions (lexer, expected, G_N_ELEMENTS (expected), "sub.conf");
  sl_lexer_free (lexer);
}

static void
test_backtick_nested (void)
{
  SlLexer *lexer = sl_lexer_new ();
  g_autoptr (GError) error = NULL;
  g_autofree gchar *tokens = NULL;

  sl_lexer_define (lexer, "inner", "514");
  sl_lexer_define (lexer, "outer", "port(`inner`)");
  sl_lexer_push_string (lexer, "`outer` \"<`outer`>\"", "test.conf");
  tokens = drain (lexer, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tokens, ==, "word:port lparen:( word:514 rparen:) string:<port(514)> eof");
  sl_lexer_free (lexer);
}

static void
test_backtick_environment (void)
{
  g_autofree gchar *from_env = NULL;
  g_autofree gchar *define_wins = NULL;

  g_setenv ("SL_TEST_LEXER_PORT", "6514", TRUE);
  from_env = tokens_with_define ("unused", "x", "port(`SL_TEST_LEXER_PORT`) \"p=`SL_TEST_LEXER_PORT`\"");
  define_wins = tokens_with_define ("SL_TEST_LEXER_PORT", "514", "`SL_TEST_LEXER_PORT`");
  g_unsetenv ("SL_TEST_LEXER_PORT");

  g_assert_cmpstr (from_env, ==, "word:port lparen:( word:6514 rparen:) string:p=6514 eof");
  g_assert_cmpstr (define_wins, ==, "word:514 eof");
}

static void
test_backtick_undefined (void)
{
  g_autofree gchar *outside = NULL;
  g_autofree gchar *inside = NULL;

  g_unsetenv ("SL_TEST_LEXER_NOPE");
  outside = error_of ("a\n b `SL_TEST_LEXER_NOPE`", SL_CFG_ERROR_REFERENCE);
  inside = error_of ("file(\"/x/`SL_TEST_LEXER_NOPE`\")", SL_CFG_ERROR_REFERENCE);

  g_assert_cmpstr (outside, ==,
                   "test.conf:2:4: undefined `SL_TEST_LEXER_NOPE`: neither @define nor environment variable\n"
                   "   b `SL_TEST_LEXER_NOPE`\n"
                   "     ^");
  g_assert_cmpstr (inside, ==,
                   "test.conf:1:10: undefined `SL_TEST_LEXER_NOPE`: neither @define nor environment variable\n"
                   "  file(\"/x/`SL_TEST_LEXER_NOPE`\")\n"
                   "           ^");
}

static void
assert_self_reference (const gchar *text, const gchar *position)
{
  g_autoptr (GError) error = NULL;
  SlLexer *lexer = sl_lexer_new ();
  g_autofree gchar *tokens = NULL;

  sl_lexer_define (lexer, "loop", "x `loop`");
  sl_lexer_define (lexer, "ping", "`pong`");
  sl_lexer_define (lexer, "pong", "`ping`");
  sl_lexer_push_string (lexer, text, "test.conf");
  tokens = drain (lexer, &error);
  g_assert_null (tokens);
  g_assert_error (error, SL_CFG_ERROR, SL_CFG_ERROR_REFERENCE);
  g_assert_nonnull (strstr (error->message, "refers to itself"));
  g_assert_true (g_str_has_prefix (error->message, position));
  sl_lexer_free (lexer);
}

static void
test_backtick_self_reference (void)
{
  assert_self_reference ("a `loop`", "test.conf:1:3: ");
  assert_self_reference ("a \"`loop`\"", "test.conf:1:4: ");
  assert_self_reference ("a `ping`", "test.conf:1:3: ");
  assert_self_reference ("a \"`ping`\"", "test.conf:1:4: ");
}

static void
test_backtick_malformed (void)
{
  g_autofree gchar *unterminated = error_of ("a `name\nb", SL_CFG_ERROR_SYNTAX);
  g_autofree gchar *in_string = error_of ("\"a `name\"", SL_CFG_ERROR_SYNTAX);
  g_autofree gchar *empty = error_of ("``", SL_CFG_ERROR_SYNTAX);

  g_assert_cmpstr (unterminated, ==, "test.conf:1:3: unterminated backtick substitution\n  a `name\n    ^");
  g_assert_true (g_str_has_prefix (in_string, "test.conf:1:4: unterminated backtick substitution"));
  g_assert_true (g_str_has_prefix (empty, "test.conf:1:1: empty backtick substitution"));
}

/* Raw text up to the matching bracket, as a block's body and arguments are
 * read: nested pairs, strings and comments kept, the closer consumed. */
static void
test_read_raw (void)
{
  g_autoptr (GError) error = NULL;
  SlLexer *lexer = sl_lexer_new ();
  SlToken token = { 0 };
  g_autofree gchar *body = NULL;
  g_autofree gchar *args = NULL;
  SlCfgPos start, end;

  sl_lexer_define (lexer, "dir", "/var/log");
  sl_lexer_push_string (lexer, "x { file(\"}`p`\" # }\n ) } y(a(\"`dir`\") b('`dir`')) z", "raw.conf");
  g_assert_true (sl_lexer_next (lexer, &token, &error));
  sl_token_clear (&token);
  g_assert_true (sl_lexer_next (lexer, &token, &error));
  g_assert_cmpint (token.kind, ==, SL_TOK_LBRACE);
  g_assert_true (sl_lexer_read_raw (lexer, '}', FALSE, token.pos, &body, &start, &end, &error));
  g_assert_no_error (error);
  sl_token_clear (&token);
  g_assert_cmpstr (body, ==, " file(\"}`p`\" # }\n ) ");
  g_assert_cmpint (start.line, ==, 1);
  g_assert_cmpint (start.column, ==, 4);
  g_assert_cmpint (end.line, ==, 2);
  g_assert_cmpint (end.column, ==, 4);

  g_assert_true (sl_lexer_next (lexer, &token, &error));
  sl_token_clear (&token);
  g_assert_true (sl_lexer_next (lexer, &token, &error));
  g_assert_cmpint (token.kind, ==, SL_TOK_LPAREN);
  g_assert_true (sl_lexer_read_raw (lexer, ')', TRUE, token.pos, &args, &start, &end, &error));
  sl_token_clear (&token);
  g_assert_cmpstr (args, ==, "a(\"/var/log\") b('/var/log')");
  g_assert_true (sl_lexer_next (lexer, &token, &error));
  g_assert_cmpstr (token.value, ==, "z");
  sl_token_clear (&token);
  sl_lexer_free (lexer);
}

static void
test_read_raw_unclosed (void)
{
  g_autoptr (GError) error = NULL;
  SlLexer *lexer = sl_lexer_new ();
  SlToken token = { 0 };
  gchar *text = NULL;
  SlCfgPos start, end;

  sl_lexer_push_string (lexer, "\n  { a(b) ", "raw.conf");
  g_assert_true (sl_lexer_next (lexer, &token, &error));
  g_assert_false (sl_lexer_read_raw (lexer, '}', FALSE, token.pos, &text, &start, &end, &error));
  g_assert_null (text);
  g_assert_error (error, SL_CFG_ERROR, SL_CFG_ERROR_SYNTAX);
  g_assert_true (g_str_has_prefix (error->message, "raw.conf:2:3: no '}' closes this '{'"));
  sl_token_clear (&token);
  sl_lexer_free (lexer);
}

/* Expanded text is read verbatim, at the places its spans give, and every
 * position carries the expansion; the token after it says so. */
static void
test_expansion_positions (void)
{
  static const ExpectedToken expected[] = {
    { SL_TOK_WORD, "file", 3, 5 },
    { SL_TOK_LPAREN, "(", 3, 9 },
    { SL_TOK_STRING, "/x`y", 3, 10 },
    { SL_TOK_WORD, "perm", 7, 2 },
    { SL_TOK_WORD, "0640", 7, 2 },
    { SL_TOK_RPAREN, ")", 7, 9 },
  };
  g_autoptr (GError) error = NULL;
  SlLexer *lexer = sl_lexer_new ();
  GArray *spans = g_array_new (FALSE, TRUE, sizeof (SlLexSpan));
  const SlCfgExpansion *expansion = sl_cfg_intern_expansion ("b", (SlCfgPos) { "use.conf", 9, 3, NULL });
  SlLexSpan parts[] = { { 0, 3, 5, FALSE }, { 12, 7, 2, TRUE }, { 21, 7, 9, FALSE } };
  SlToken token = { 0 };

  g_array_append_vals (spans, parts, G_N_ELEMENTS (parts));
  sl_lexer_push_string (lexer, "; after", "use.conf");
  sl_lexer_push_expansion (lexer, "file(\"/x`y\" perm 0640)", "def.conf", spans, expansion);
  g_array_unref (spans);
  for (gsize i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_assert_true (sl_lexer_next (lexer, &token, &error));
      g_assert_cmpint (token.kind, ==, expected[i].kind);
      g_assert_cmpstr (token.value, ==, expected[i].value);
      g_assert_cmpstr (token.pos.file, ==, "def.conf");
      g_assert_cmpint (token.pos.line, ==, expected[i].line);
      g_assert_cmpint (token.pos.column, ==, expected[i].column);
      g_assert_true (token.pos.expansion == expansion);
      g_assert_false (token.follows_expansion);
      sl_token_clear (&token);
    }
  g_assert_true (sl_lexer_next (lexer, &token, &error));
  g_assert_cmpint (token.kind, ==, SL_TOK_SEMICOLON);
  g_assert_true (token.follows_expansion);
  g_assert_null (token.pos.expansion);
  sl_token_clear (&token);
  sl_lexer_free (lexer);
}

static void
test_input_stack (void)
{
  SlLexer *lexer = sl_lexer_new ();
  g_autoptr (GError) error = NULL;
  SlToken token = { 0 };

  /* the input pushed last is read first, then the one below it */
  sl_lexer_push_string (lexer, "below1 below2", "below.conf");
  g_assert_true (sl_lexer_next (lexer, &token, &error));
  g_assert_cmpstr (token.value, ==, "below1");
  sl_token_clear (&token);

  sl_lexer_push_string (lexer, "\n  above", "above.conf");
  g_assert_true (sl_lexer_next (lexer, &token, &error));
  g_assert_cmpstr (token.value, ==, "above");
  g_assert_cmpstr (token.pos.file, ==, "above.conf");
  g_assert_cmpint (token.pos.line, ==, 2);
  g_assert_cmpint (token.pos.column, ==, 3);
  sl_token_clear (&token);

  g_assert_true (sl_lexer_next (lexer, &token, &error));
  g_assert_cmpstr (token.value, ==, "below2");
  g_assert_cmpstr (token.pos.file, ==, "below.conf");
  g_assert_cmpint (token.pos.column, ==, 8);
  sl_token_clear (&token);

  /* the end of file is where the bottom input ended */
  g_assert_true (sl_lexer_next (lexer, &token, &error));
  g_assert_cmpint (token.kind, ==, SL_TOK_EOF);
  g_assert_cmpstr (token.pos.file, ==, "below.conf");
  g_assert_cmpint (token.pos.column, ==, 14);
  g_assert_no_error (error);
  sl_lexer_free (lexer);
}

static void
test_push_file (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree gchar *dir = g_dir_make_tmp ("sluice-lexer-XXXXXX", &error);
  g_autofree gchar *path = g_build_filename (dir, "drivers.conf", NULL);
  g_autofree gchar *tokens = NULL;
  SlLexer *lexer = sl_lexer_new ();
  SlToken token = { 0 };

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, "\n udp();", -1, &error));

  sl_lexer_push_string (lexer, "after", "main.conf");
  g_assert_true (sl_lexer_push_file (lexer, path, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (sl_lexer_next (lexer, &token, &error));
  g_assert_cmpstr (token.value, ==, "udp");
  g_assert_true (token.pos.file == sl_cfg_intern_file (path));
  g_assert_cmpint (token.pos.line, ==, 2);
  g_assert_cmpint (token.pos.column, ==, 2);
  sl_token_clear (&token);
  tokens = drain (lexer, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tokens, ==, "lparen:( rparen:) semicolon:; word:after eof");
  sl_lexer_free (lexer);

  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_push_file_unreadable (void)
{
  g_autoptr (GError) plain = NULL;
  g_autoptr (GError) included = NULL;
  SlLexer *lexer = sl_lexer_new ();
  SlCfgPos from = { sl_cfg_intern_file ("main.conf"), 2, 1 };

  g_assert_false (sl_lexer_push_file (lexer, "/nonexistent/sluice.conf", NULL, &plain));
  g_assert_error (plain, SL_CFG_ERROR, SL_CFG_ERROR_INCLUDE);
  g_assert_cmpstr (plain->message, ==, "cannot read '/nonexistent/sluice.conf': No such file or directory");

  sl_cfg_source_remember ("main.conf", "options { };\n@include \"/nonexistent/x.conf\"\n");
  g_assert_false (sl_lexer_push_file (lexer, "/nonexistent/x.conf", &from, &included));
  g_assert_error (included, SL_CFG_ERROR, SL_CFG_ERROR_INCLUDE);
  g_assert_cmpstr (included->message, ==,
                   "main.conf:2:1: cannot read '/nonexistent/x.conf': No such file or directory\n"
                   "  @include \"/nonexistent/x.conf\"\n"
                   "  ^");
  sl_lexer_free (lexer);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/lexer/punctuation", test_punctuation);
  g_test_add_func ("/lexer/words", test_words);
  g_test_add_func ("/lexer/operators", test_operators);
  g_test_add_func ("/lexer/pairs-and-brackets", test_pairs_and_brackets);
  g_test_add_func ("/lexer/pragmas", test_pragmas);
  g_test_add_func ("/lexer/comments", test_comments);
  g_test_add_func ("/lexer/string/escapes", test_double_quoted_escapes);
  g_test_add_func ("/lexer/string/single-quoted", test_single_quoted);
  g_test_add_func ("/lexer/string/adjacent", test_adjacent_strings);
  g_test_add_func ("/lexer/line-continuation", test_line_continuation);
  g_test_add_func ("/lexer/byte-order-mark", test_byte_order_mark);
  g_test_add_func ("/lexer/positions", test_positions);
  g_test_add_func ("/lexer/positions/utf8", test_utf8_columns_are_bytes);
  g_test_add_func ("/lexer/error/unterminated-string", test_error_unterminated_string);
  g_test_add_func ("/lexer/error/unexpected-character", test_error_unexpected_character);
  g_test_add_func ("/lexer/error/nul-escape", test_error_nul_escape);
  g_test_add_func ("/lexer/backtick/in-string", test_backtick_in_string);
  g_test_add_func ("/lexer/backtick/in-single-quotes", test_backtick_in_single_quotes);
  g_test_add_func ("/lexer/backtick/outside-string", test_backtick_outside_string);
  g_test_add_func ("/lexer/backtick/nested", test_backtick_nested);
  g_test_add_func ("/lexer/backtick/environment", test_backtick_environment);
  g_test_add_func ("/lexer/backtick/undefined", test_backtick_undefined);
  g_test_add_func ("/lexer/backtick/self-reference", test_backtick_self_reference);
  g_test_add_func ("/lexer/backtick/malformed", test_backtick_malformed);
  g_test_add_func ("/lexer/raw", test_read_raw);
  g_test_add_func ("/lexer/raw/unclosed", test_read_raw_unclosed);
  g_test_add_func ("/lexer/expansion/positions", test_expansion_positions);
  g_test_add_func ("/lexer/stack/strings", test_input_stack);
  g_test_add_func ("/lexer/stack/file", test_push_file);
  g_test_add_func ("/lexer/stack/unreadable", test_push_file_unreadable);

  return g_test_run ();
}
