/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The configuration lexer: syslog-ng's tokens read from a stack of inputs. */
#include "core/config/lexer.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/config/error.h"
#include "core/i18n.h"

/* A backtick value may name further backticks; past this depth the value is
 * taken to refer to itself. */
#define SL_LEXER_MAX_SUBSTITUTION_DEPTH 16

typedef struct
{
  gchar *text;
  const gchar *file;   /* interned */
  gsize offset;
  gint line;
  gint column;
  SlCfgPos token_end;  /* just after the last token: where end of file is reported */
  /* The value of a backtick substitution: its tokens are reported at the
   * backtick, since the value has no place of its own in any file. */
  gboolean substituted;
  SlCfgPos origin;
  guint depth;
  /* an expanded block: no backtick substitution, positions from spans */
  gboolean verbatim;
  GArray *spans;          /* SlLexSpan, or NULL */
  guint next_span;
  gboolean frozen;
  const SlCfgExpansion *expansion;
} SlLexInput;

struct _SlLexer
{
  GPtrArray *inputs;      /* SlLexInput *, the one being read last */
  GHashTable *defines;    /* name -> value, from @define */
  SlCfgPos end;           /* where the bottom input ended */
  gboolean expansion_ended;  /* since the last token */
  gboolean after_pragma;  /* a ':' now is the one of `@version:` */
};

static void enter_spans (SlLexInput *input);

static void
sl_lex_input_free (gpointer data)
{
  SlLexInput *input = data;

  g_free (input->text);
  if (input->spans)
    g_array_unref (input->spans);
  g_free (input);
}

static SlLexInput *
sl_lex_input_new (gchar *text, const gchar *file)
{
  SlLexInput *input = g_new0 (SlLexInput, 1);

  input->text = text;
  input->file = file;
  input->line = 1;
  input->column = 1;
  if (g_str_has_prefix (text, "\xef\xbb\xbf"))
    input->offset = 3;
  input->token_end = (SlCfgPos) { file, 1, 1 };
  return input;
}

SlLexer *
sl_lexer_new (void)
{
  SlLexer *lexer = g_new0 (SlLexer, 1);

  lexer->inputs = g_ptr_array_new_with_free_func (sl_lex_input_free);
  lexer->defines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return lexer;
}

void
sl_lexer_free (SlLexer *lexer)
{
  if (!lexer)
    return;
  g_ptr_array_unref (lexer->inputs);
  g_hash_table_unref (lexer->defines);
  g_free (lexer);
}

void
sl_token_clear (SlToken *token)
{
  g_clear_pointer (&token->value, g_free);
  token->kind = SL_TOK_EOF;
}

/* syslog-ng's names are the same with '-' or '_': `module-path`, `scl_root`. */
void
sl_lexer_define (SlLexer *lexer, const gchar *name, const gchar *value)
{
  g_hash_table_replace (lexer->defines, sl_cfg_name_normalize (name), g_strdup (value));
}

static gchar *
read_file (const gchar *path, gsize *len, int *saved_errno)
{
  FILE *f = fopen (path, "rb");
  GString *text;
  gchar buf[16384];
  gsize n;

  if (!f)
    {
      *saved_errno = errno;
      return NULL;
    }
  text = g_string_new (NULL);
  while ((n = fread (buf, 1, sizeof buf, f)) > 0)
    g_string_append_len (text, buf, n);
  if (ferror (f))
    {
      *saved_errno = errno;
      fclose (f);
      g_string_free (text, TRUE);
      return NULL;
    }
  fclose (f);
  *len = text->len;
  return g_string_free (text, FALSE);
}

/* A configuration is text: a UTF-16 file (as some editors save it) or a
 * binary one given by mistake is refused at its first byte that text does
 * not have, and never echoed, so that the terminal shows no raw bytes. */
static gboolean
check_text (const gchar *file, const gchar *text, gsize len, GError **error)
{
  SlCfgPos pos = { file, 1, 1 };
  if (len >= 2 && (((guchar) text[0] == 0xff && (guchar) text[1] == 0xfe)
                   || ((guchar) text[0] == 0xfe && (guchar) text[1] == 0xff)))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos,
                        _("the configuration is UTF-16 text, as its byte order mark says; sluiced reads UTF-8 "
                          "(iconv -f UTF-16 -t UTF-8 converts it)"));
      return FALSE;
    }
  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) text[i];
      if (c == '\n')
        {
          pos.line++;
          pos.column = 1;
          continue;
        }
      if ((c < 0x20 && (c == 0 || !strchr ("\t\r\f\v", c))) || c == 0x7f)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos,
                            _("the configuration is not text: it has a control byte 0x%02x here"), c);
          return FALSE;
        }
      pos.column++;
    }
  return TRUE;
}

gboolean
sl_lexer_push_file (SlLexer *lexer, const gchar *path, SlCfgPos *from, GError **error)
{
  int saved_errno = 0;
  gsize len = 0;
  gchar *text = read_file (path, &len, &saved_errno);

  if (!text)
    {
      if (from)
        sl_cfg_error_set (error, SL_CFG_ERROR_INCLUDE, *from, _("cannot read '%s': %s"),
                          path, g_strerror (saved_errno));
      else
        g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_INCLUDE, _("cannot read '%s': %s"),
                     path, g_strerror (saved_errno));
      return FALSE;
    }

  const gchar *file = sl_cfg_intern_file (path);
  if (!check_text (file, text, len, error))
    {
      g_free (text);
      return FALSE;
    }
  sl_cfg_source_remember (file, text);
  g_ptr_array_add (lexer->inputs, sl_lex_input_new (text, file));
  return TRUE;
}

void
sl_lexer_push_expansion (SlLexer *lexer, const gchar *text, const gchar *file,
                         GArray *spans, const SlCfgExpansion *expansion)
{
  SlLexInput *input = sl_lex_input_new (g_strdup (text), sl_cfg_intern_file (file));

  input->offset = 0;
  input->verbatim = TRUE;
  input->spans = g_array_ref (spans);
  input->expansion = expansion;
  enter_spans (input);
  g_ptr_array_add (lexer->inputs, input);
}

void
sl_lexer_push_string (SlLexer *lexer, const gchar *text, const gchar *name)
{
  const gchar *file = sl_cfg_intern_file (name ? name : "<string>");

  sl_cfg_source_remember (file, text);
  g_ptr_array_add (lexer->inputs, sl_lex_input_new (g_strdup (text), file));
}

static SlLexInput *
top_input (SlLexer *lexer)
{
  if (lexer->inputs->len == 0)
    return NULL;
  return g_ptr_array_index (lexer->inputs, lexer->inputs->len - 1);
}

static void
pop_input (SlLexer *lexer)
{
  SlLexInput *input = top_input (lexer);

  if (lexer->inputs->len == 1)
    lexer->end = input->token_end;
  if (input->verbatim)
    lexer->expansion_ended = TRUE;
  g_ptr_array_set_size (lexer->inputs, lexer->inputs->len - 1);
}

static gchar
cur (const SlLexInput *input)
{
  return input->text[input->offset];
}

static gchar
ahead (const SlLexInput *input, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (input->text[input->offset + i] == '\0')
      return '\0';
  return input->text[input->offset + n];
}

/* Moves onto the spans that begin at the current offset. */
static void
enter_spans (SlLexInput *input)
{
  while (input->spans && input->next_span < input->spans->len)
    {
      const SlLexSpan *span = &g_array_index (input->spans, SlLexSpan, input->next_span);

      if (span->offset > input->offset)
        break;
      input->line = span->line;
      input->column = span->column;
      input->frozen = span->frozen;
      input->next_span++;
    }
}

static void
advance (SlLexInput *input)
{
  if (input->frozen)
    ;
  else if (cur (input) == '\n')
    {
      input->line++;
      input->column = 1;
    }
  else
    input->column++;
  input->offset++;
  enter_spans (input);
}

static SlCfgPos
input_pos (const SlLexInput *input)
{
  if (input->substituted)
    return input->origin;
  return (SlCfgPos) { input->file, input->line, input->column, input->expansion };
}

/* A backslash at the end of a line joins it to the next, as in syslog-ng. */
static gboolean
skip_line_continuation (SlLexInput *input)
{
  if (cur (input) != '\\')
    return FALSE;
  if (ahead (input, 1) == '\n')
    {
      advance (input);
      advance (input);
      return TRUE;
    }
  if (ahead (input, 1) == '\r' && ahead (input, 2) == '\n')
    {
      advance (input);
      advance (input);
      advance (input);
      return TRUE;
    }
  return FALSE;
}

static void
skip_blanks (SlLexInput *input)
{
  for (;;)
    {
      gchar c = cur (input);

      if (c == '#')
        while (cur (input) != '\0' && cur (input) != '\n')
          advance (input);
      else if (g_ascii_isspace (c))
        advance (input);
      else if (!skip_line_continuation (input))
        return;
    }
}

static gboolean
is_word_char (gchar c)
{
  /* '$' as in syslog-ng's words: a bare $SEVERITY_NUM is a template */
  return c != '\0' && (g_ascii_isalnum (c) || strchr ("_.:/*+@$-", c) != NULL);
}

static gboolean
is_pragma_char (gchar c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '-';
}

static gchar *
describe_char (gchar c)
{
  if (g_ascii_isprint (c))
    return g_strdup_printf ("'%c'", c);
  return g_strdup_printf ("'\\x%02x'", (guchar) c);
}

const gchar *
sl_lexer_lookup (SlLexer *lexer, const gchar *name)
{
  g_autofree gchar *normal = sl_cfg_name_normalize (name);
  const gchar *value = g_hash_table_lookup (lexer->defines, normal);

  return value ? value : g_getenv (name);
}

static const gchar *
checked_value (SlLexer *lexer, const gchar *name, SlCfgPos pos, guint depth, GError **error)
{
  const gchar *value;

  if (depth > SL_LEXER_MAX_SUBSTITUTION_DEPTH)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_REFERENCE, pos,
                        _("`%s` refers to itself: substitutions nested more than %d deep"),
                        name, SL_LEXER_MAX_SUBSTITUTION_DEPTH);
      return NULL;
    }
  value = sl_lexer_lookup (lexer, name);
  if (!value)
    sl_cfg_error_set (error, SL_CFG_ERROR_REFERENCE, pos,
                      _("undefined `%s`: neither @define nor environment variable"), name);
  return value;
}

/* Appends the value of name, itself substituted, to a string being read.
 * "``" stands for a backtick itself. */
static gboolean
append_value (SlLexer *lexer, const gchar *name, SlCfgPos pos, guint depth,
              GString *out, GError **error)
{
  const gchar *value = checked_value (lexer, name, pos, depth, error);

  if (!value)
    return FALSE;
  for (const gchar *p = value; *p; p++)
    {
      const gchar *close = *p == '`' ? strchr (p + 1, '`') : NULL;

      if (!close)
        {
          g_string_append_c (out, *p);
          continue;
        }
      if (close == p + 1)
        g_string_append_c (out, '`');
      else
        {
          g_autofree gchar *inner = g_strndup (p + 1, close - p - 1);

          if (!append_value (lexer, inner, pos, depth + 1, out, error))
            return FALSE;
        }
      p = close;
    }
  return TRUE;
}

/* Reads `name` at the current backtick; stop is a character that may not
 * appear before the closing backtick. */
static gchar *
read_backtick_name (SlLexInput *input, gchar stop, SlCfgPos pos, GError **error)
{
  gsize start;

  advance (input);
  start = input->offset;
  while (cur (input) != '`')
    {
      if (cur (input) == '\0' || cur (input) == '\n' || cur (input) == stop)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, _("unterminated backtick substitution"));
          return NULL;
        }
      advance (input);
    }
  gchar *name = g_strndup (input->text + start, input->offset - start);
  advance (input);
  return name;
}

/* A backtick outside strings: its value is read as tokens of its own. */
static gboolean
push_substitution (SlLexer *lexer, SlLexInput *input, GError **error)
{
  SlCfgPos pos = input_pos (input);
  guint depth = input->depth + 1;
  g_autofree gchar *name = read_backtick_name (input, '\0', pos, error);
  const gchar *value;

  if (!name)
    return FALSE;
  if (!*name)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, _("empty backtick substitution"));
      return FALSE;
    }
  value = checked_value (lexer, name, pos, depth, error);
  if (!value)
    return FALSE;

  SlLexInput *sub = sl_lex_input_new (g_strdup (value), input->file);
  sub->substituted = TRUE;
  sub->origin = pos;
  sub->depth = depth;
  g_ptr_array_add (lexer->inputs, sub);
  return TRUE;
}

/* A quoted string inside raw text, kept as written; the cursor is on its
 * opening quote. */
/* A backtick in raw text read from a file: substituted as it would be in a
 * token, since the text is read again later without substitution. */
static gboolean
copy_raw_backtick (SlLexer *lexer, SlLexInput *input, gchar stop, GString *out, GError **error)
{
  SlCfgPos pos = input_pos (input);
  g_autofree gchar *name = read_backtick_name (input, stop, pos, error);

  if (!name)
    return FALSE;
  if (!*name)
    {
      g_string_append (out, "``");
      return TRUE;
    }
  return append_value (lexer, name, pos, input->depth + 1, out, error);
}

static gboolean
copy_raw_string (SlLexer *lexer, SlLexInput *input, gboolean substitute, GString *out, GError **error)
{
  gchar quote = cur (input);

  g_string_append_c (out, quote);
  advance (input);
  while (cur (input) != quote)
    {
      if (cur (input) == '\0')
        return FALSE;
      if (cur (input) == '`' && substitute)
        {
          if (!copy_raw_backtick (lexer, input, quote, out, error))
            return FALSE;
          continue;
        }
      if (quote == '"' && cur (input) == '\\' && ahead (input, 1) != '\0')
        {
          g_string_append_c (out, cur (input));
          advance (input);
        }
      g_string_append_c (out, cur (input));
      advance (input);
    }
  g_string_append_c (out, quote);
  advance (input);
  return TRUE;
}

gboolean
sl_lexer_read_raw (SlLexer *lexer, gchar close, gboolean substitute, SlCfgPos opener, gchar **text,
                   SlCfgPos *start, SlCfgPos *end, GError **error)
{
  SlLexInput *input = top_input (lexer);
  gchar open = close == ')' ? '(' : close == '}' ? '{' : '[';
  g_autoptr (GString) out = g_string_new (NULL);
  guint depth = 1;

  g_return_val_if_fail (input != NULL, FALSE);
  *start = input_pos (input);
  substitute = substitute && !input->verbatim;
  for (;;)
    {
      gchar c = cur (input);

      if (c == '\0')
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, opener, _("no '%c' closes this '%c'"), close, open);
          return FALSE;
        }
      if (c == '"' || c == '\'')
        {
          GError *inner = NULL;

          if (!copy_raw_string (lexer, input, substitute, out, &inner))
            {
              if (inner)
                g_propagate_error (error, inner);
              else
                sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, opener, _("unterminated string after this '%c'"), open);
              return FALSE;
            }
          continue;
        }
      if (c == '`' && substitute)
        {
          if (!copy_raw_backtick (lexer, input, '\0', out, error))
            return FALSE;
          continue;
        }
      if (c == '#')
        {
          while (cur (input) != '\0' && cur (input) != '\n')
            {
              g_string_append_c (out, cur (input));
              advance (input);
            }
          continue;
        }
      if (c == open)
        depth++;
      else if (c == close && --depth == 0)
        break;
      g_string_append_c (out, c);
      advance (input);
    }
  *end = input_pos (input);
  advance (input);
  input->token_end = input_pos (input);
  *text = g_string_free (g_steal_pointer (&out), FALSE);
  return TRUE;
}

static gint
hex_value (gchar c)
{
  return g_ascii_isxdigit (c) ? g_ascii_xdigit_value (c) : -1;
}

/* The escape at the backslash under the cursor, as syslog-ng reads it;
 * an unknown one is kept as written so regular expressions survive. */
static gboolean
read_escape (SlLexInput *input, GString *out, GError **error)
{
  SlCfgPos pos = input_pos (input);
  gchar c;

  if (skip_line_continuation (input))
    return TRUE;
  advance (input);
  c = cur (input);
  switch (c)
    {
    case '\0':
      return TRUE;
    case 'n':
      g_string_append_c (out, '\n');
      break;
    case 't':
      g_string_append_c (out, '\t');
      break;
    case 'r':
      g_string_append_c (out, '\r');
      break;
    case 'a':
      g_string_append_c (out, '\a');
      break;
    case 'v':
      g_string_append_c (out, '\v');
      break;
    case '\\':
    case '"':
    case '\'':
      g_string_append_c (out, c);
      break;
    case 'x':
      {
        gint high = hex_value (ahead (input, 1));
        gint low = high >= 0 ? hex_value (ahead (input, 2)) : -1;
        gint byte;

        if (high < 0)
          {
            g_string_append (out, "\\x");
            break;
          }
        advance (input);
        byte = high;
        if (low >= 0)
          {
            advance (input);
            byte = high * 16 + low;
          }
        if (byte == 0)
          {
            sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos,
                              _("a string cannot hold a NUL byte (\\x00)"));
            return FALSE;
          }
        g_string_append_c (out, (gchar) byte);
        break;
      }
    default:
      g_string_append_c (out, '\\');
      g_string_append_c (out, c);
    }
  advance (input);
  return TRUE;
}

static gboolean
read_double_quoted (SlLexer *lexer, SlLexInput *input, SlToken *token, GError **error)
{
  g_autoptr (GString) value = g_string_new (NULL);

  advance (input);
  for (;;)
    {
      gchar c = cur (input);

      if (c == '\0')
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, token->pos, _("unterminated string"));
          return FALSE;
        }
      if (c == '"')
        break;
      if (c == '\\')
        {
          if (!read_escape (input, value, error))
            return FALSE;
        }
      else if (c == '`' && !input->verbatim)
        {
          SlCfgPos pos = input_pos (input);
          g_autofree gchar *name = read_backtick_name (input, '"', pos, error);

          if (!name)
            return FALSE;
          if (!*name)
            g_string_append_c (value, '`');
          else if (!append_value (lexer, name, pos, input->depth + 1, value, error))
            return FALSE;
        }
      else
        {
          g_string_append_c (value, c);
          advance (input);
        }
    }
  advance (input);
  token->kind = SL_TOK_STRING;
  token->value = g_string_free (g_steal_pointer (&value), FALSE);
  return TRUE;
}

/* No escapes, but backticks are substituted, as syslog-ng does before it
 * reads any token: patterns('`a-pattern`') is how the SCL uses a define. */
static gboolean
read_single_quoted (SlLexer *lexer, SlLexInput *input, SlToken *token, GError **error)
{
  g_autoptr (GString) value = g_string_new (NULL);

  advance (input);
  while (cur (input) != '\'')
    {
      if (cur (input) == '\0')
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, token->pos, _("unterminated string"));
          return FALSE;
        }
      if (cur (input) == '`' && !input->verbatim)
        {
          SlCfgPos pos = input_pos (input);
          g_autofree gchar *name = read_backtick_name (input, '\'', pos, error);
          gsize before = value->len;

          if (!name)
            return FALSE;
          if (!*name)
            g_string_append_c (value, '`');
          else if (!append_value (lexer, name, pos, input->depth + 1, value, error))
            return FALSE;
          else if (memchr (value->str + before, '\'', value->len - before))
            {
              sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos,
                                _("the value of `%s` holds an apostrophe, which a '...' string cannot"), name);
              return FALSE;
            }
          continue;
        }
      g_string_append_c (value, cur (input));
      advance (input);
    }
  token->kind = SL_TOK_STRING;
  token->value = g_string_free (g_steal_pointer (&value), FALSE);
  advance (input);
  return TRUE;
}

static gboolean
read_pragma (SlLexInput *input, SlToken *token, GError **error)
{
  gsize start;

  advance (input);
  start = input->offset;
  while (is_pragma_char (cur (input)))
    advance (input);
  if (input->offset == start)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, token->pos,
                        _("expected a name after '@', such as '@version' or '@include'"));
      return FALSE;
    }
  token->kind = SL_TOK_PRAGMA;
  token->value = g_strndup (input->text + start, input->offset - start);
  return TRUE;
}

static gboolean
read_operator (SlLexInput *input, SlToken *token, GError **error)
{
  gchar c = cur (input);
  gboolean with_equals = ahead (input, 1) == '=';

  if (c == '=' && ahead (input, 1) == '>')
    {
      advance (input);
      advance (input);
      token->kind = SL_TOK_ARROW;
      token->value = g_strdup ("=>");
      return TRUE;
    }
  if ((c == '=' || c == '!') && !with_equals)
    {
      if (c == '=')
        sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, token->pos,
                          _("unexpected character '='; did you mean '=='?"));
      else
        sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, token->pos,
                          _("unexpected character '!'; write 'not' to negate a filter, '!=' to compare"));
      return FALSE;
    }
  advance (input);
  if (with_equals)
    advance (input);
  token->kind = SL_TOK_OPERATOR;
  token->value = with_equals ? g_strdup_printf ("%c=", c) : g_strdup_printf ("%c", c);
  return TRUE;
}

static gboolean
read_token (SlLexer *lexer, SlLexInput *input, SlToken *token, GError **error)
{
  static const struct
  {
    gchar c;
    SlTokenKind kind;
  } punctuation[] = {
    { '(', SL_TOK_LPAREN },
    { ')', SL_TOK_RPAREN },
    { '{', SL_TOK_LBRACE },
    { '}', SL_TOK_RBRACE },
    { ';', SL_TOK_SEMICOLON },
    { ',', SL_TOK_COMMA },
    { '[', SL_TOK_LBRACKET },
    { ']', SL_TOK_RBRACKET },
  };
  gchar c = cur (input);

  for (gsize i = 0; i < G_N_ELEMENTS (punctuation); i++)
    if (c == punctuation[i].c)
      {
        advance (input);
        token->kind = punctuation[i].kind;
        token->value = g_strndup (&c, 1);
        return TRUE;
      }

  if (c == ':' && lexer->after_pragma)
    {
      advance (input);
      token->kind = SL_TOK_COLON;
      token->value = g_strdup (":");
      return TRUE;
    }

  switch (c)
    {
    case '"':
      return read_double_quoted (lexer, input, token, error);
    case '\'':
      return read_single_quoted (lexer, input, token, error);
    case '@':
      return read_pragma (input, token, error);
    case '=':
    case '!':
    case '<':
    case '>':
      return read_operator (input, token, error);
    default:
      break;
    }

  if (is_word_char (c))
    {
      gsize start = input->offset;

      while (is_word_char (cur (input)))
        advance (input);
      token->kind = SL_TOK_WORD;
      token->value = g_strndup (input->text + start, input->offset - start);
      return TRUE;
    }

  g_autofree gchar *what = describe_char (c);
  sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, token->pos, _("unexpected character %s"), what);
  return FALSE;
}

gboolean
sl_lexer_next (SlLexer *lexer, SlToken *token, GError **error)
{
  token->value = NULL;
  token->follows_expansion = FALSE;
  for (;;)
    {
      SlLexInput *input = top_input (lexer);

      if (!input)
        {
          token->kind = SL_TOK_EOF;
          token->pos = lexer->end;
          return TRUE;
        }
      skip_blanks (input);
      if (cur (input) == '\0')
        {
          pop_input (lexer);
          continue;
        }
      if (cur (input) == '`' && !input->verbatim)
        {
          if (!push_substitution (lexer, input, error))
            return FALSE;
          continue;
        }

      token->pos = input_pos (input);
      if (!read_token (lexer, input, token, error))
        {
          token->kind = SL_TOK_EOF;
          return FALSE;
        }
      lexer->after_pragma = token->kind == SL_TOK_PRAGMA;
      token->follows_expansion = lexer->expansion_ended;
      lexer->expansion_ended = FALSE;
      input->token_end = input_pos (input);
      return TRUE;
    }
}
