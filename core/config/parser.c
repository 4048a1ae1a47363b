/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A recursive descent parser for syslog-ng's configuration language that
 * builds the generic tree of tree.h. */
#include "core/config/parser.h"
#include "core/config/install-dirs.h"

#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/appmodel.h"
#include "core/config/block.h"
#include "core/config/error.h"
#include "core/config/lexer.h"
#include "core/i18n.h"
#include "core/internal.h"

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SlToken, sl_token_clear)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCfgNode, sl_cfg_node_free)

/* Bounds on what a hostile or broken file can make the parser do. */
#define SL_PARSER_MAX_NESTING 200
#define SL_PARSER_MAX_INCLUDE_DEPTH 64
#define SL_PARSER_MAX_EXPANSION_DEPTH 64

/* syslog-ng's own include folder: its scl.conf and scl/ are used as they
 * are when present */
#define SYSLOG_NG_INCLUDE_DIR "/usr/share/syslog-ng/include"

typedef struct
{
  SlLexer *lexer;
  SlToken next;            /* the lookahead token, when has_next */
  gboolean has_next;
  GError *error;
  SlCfgNode *root;
  GArray *pragmas;         /* SlCfgPos of every pragma read */
  GHashTable *included_from;  /* interned file -> SlCfgPos * of its @include */
  GHashTable *blocks;      /* "context/normalized-name" -> SlCfgBlock */
  SlCfgAppModel *apps;     /* the applications read so far */
  guint nesting;
  /* the statements it reads: a configuration's, or a test file's */
  const gchar *const *keywords;
  guint n_keywords;
} SlParser;

/* What an error about a missing closer points back to: 'tcp(' opened at 3:10. */
typedef struct
{
  const gchar *text;
  SlCfgPos pos;
} SlOpener;

/* rsyslog's front end, when the program has one (sl_cfg_rsyslog_register()) */
static const SlCfgFrontEnd *rsyslog;

static const gchar *const statement_keywords[] = {
  "options", "source", "destination", "filter", "parser", "rewrite",
  "template", "template-function", "log",
};

/* what sluiced --test reads: test cases, each a block of items */
static const gchar *const test_keywords[] = { "test" };

static const gchar *const log_keywords[] = {
  "source", "destination", "filter", "parser", "rewrite", "flags",
  "log", "channel", "junction", "if", "parallelize",
};

/* Where a block may be used: the statement whose items it stands for. */
static const gchar *const block_contexts[] = {
  "source", "destination", "parser", "rewrite", "filter", "log", "root", "options",
};

static const gchar *const pragma_names[] = {
  "version", "include", "include-rsyslog", "define", "module", "requires",
};

static const gchar *const comparison_words[] = { "eq", "ne", "lt", "le", "gt", "ge" };

static gboolean parse_items (SlParser *p, SlCfgNode *parent, const gchar *context, const gchar *what,
                             const SlOpener *opener);
static gboolean parse_log_items (SlParser *p, SlCfgNode *parent, const SlOpener *opener);
static SlCfgNode *parse_binary (SlParser *p, const SlOpener *opener, guint level);
static SlCfgNode *parse_filter_body (SlParser *p, SlTokenKind closer, const SlOpener *opener);

/* Tokens */

static const SlToken *
peek (SlParser *p)
{
  if (!p->has_next)
    {
      if (!sl_lexer_next (p->lexer, &p->next, &p->error))
        return NULL;
      p->has_next = TRUE;
    }
  return &p->next;
}

/* Moves the next token into *token, which the caller then owns. */
static gboolean
take (SlParser *p, SlToken *token)
{
  if (!peek (p))
    return FALSE;
  *token = p->next;
  p->next.value = NULL;
  p->has_next = FALSE;
  return TRUE;
}

static gboolean
skip (SlParser *p)
{
  g_auto (SlToken) token = { 0 };

  return take (p, &token);
}

static gboolean
is_word (const SlToken *token, const gchar *word)
{
  return token->kind == SL_TOK_WORD && sl_cfg_name_equal (token->value, word);
}

static gboolean
is_value (const SlToken *token)
{
  return token->kind == SL_TOK_WORD || token->kind == SL_TOK_STRING;
}

static SlCfgArgKind
arg_kind (const SlToken *token)
{
  return token->kind == SL_TOK_STRING ? SL_CFG_ARG_STRING : SL_CFG_ARG_WORD;
}

/* The keyword as the tree names it, or NULL if word is none of them. */
static const gchar *
lookup_keyword (const gchar *word, const gchar *const *keywords, guint n)
{
  for (guint i = 0; i < n; i++)
    if (sl_cfg_name_equal (word, keywords[i]))
      return keywords[i];
  return NULL;
}

/* Errors */

static gboolean
fail (SlParser *p, SlCfgErrorCode code, SlCfgPos pos, const gchar *format, ...) G_GNUC_PRINTF (4, 5);

static gboolean
fail (SlParser *p, SlCfgErrorCode code, SlCfgPos pos, const gchar *format, ...)
{
  va_list args;

  va_start (args, format);
  g_autofree gchar *message = g_strdup_vprintf (format, args);
  va_end (args);
  sl_cfg_error_set (&p->error, code, pos, "%s", message);
  return FALSE;
}

static gchar *
describe_token (const SlToken *token)
{
  switch (token->kind)
    {
    case SL_TOK_EOF:
      return g_strdup (_("end of file"));
    case SL_TOK_STRING:
      if (strlen (token->value) > 40)
        {
          /* cut by bytes (the text need not be valid UTF-8), but not
           * inside a UTF-8 sequence */
          gsize len = 37;

          while (len > 0 && ((guchar) token->value[len] & 0xc0) == 0x80)
            len--;
          return g_strdup_printf ("\"%.*s...\"", (int) len, token->value);
        }
      return g_strdup_printf ("\"%s\"", token->value);
    case SL_TOK_PRAGMA:
      return g_strdup_printf ("'@%s'", token->value);
    default:
      return g_strdup_printf ("'%s'", token->value);
    }
}

/* "3:10", or "other.conf:3:10" when the opener is in another file than
 * the error. */
static gchar *
describe_opener_pos (const SlOpener *opener, SlCfgPos here)
{
  if (opener->pos.file != here.file)
    return g_strdup_printf ("%s:%d:%d", opener->pos.file, opener->pos.line, opener->pos.column);
  return g_strdup_printf ("%d:%d", opener->pos.line, opener->pos.column);
}

static gboolean
fail_end_of_file (SlParser *p, const SlToken *found, const SlOpener *opener)
{
  g_autofree gchar *where = describe_opener_pos (opener, found->pos);

  return fail (p, SL_CFG_ERROR_SYNTAX, found->pos,
               _("unexpected end of file in '%s' opened at %s"), opener->text, where);
}

/* "expected WHAT, found X", or the end-of-file error when X is the end. */
static gboolean
fail_expected (SlParser *p, const SlToken *found, const gchar *what, const SlOpener *opener)
{
  if (found->kind == SL_TOK_EOF && opener)
    return fail_end_of_file (p, found, opener);

  g_autofree gchar *found_text = describe_token (found);
  return fail (p, SL_CFG_ERROR_SYNTAX, found->pos, _("expected %s, found %s"), what, found_text);
}

static gboolean
fail_unclosed (SlParser *p, const SlToken *found, const gchar *closer, const SlOpener *opener)
{
  if (found->kind == SL_TOK_EOF)
    return fail_end_of_file (p, found, opener);

  g_autofree gchar *found_text = describe_token (found);
  g_autofree gchar *where = describe_opener_pos (opener, found->pos);
  return fail (p, SL_CFG_ERROR_SYNTAX, found->pos, _("expected '%s' to close '%s' opened at %s, found %s"),
               closer, opener->text, where, found_text);
}

static gboolean
fail_unknown (SlParser *p, const SlToken *word, const gchar *what,
              const gchar *const *candidates, guint n)
{
  const gchar *suggestion = sl_cfg_suggest (word->value, candidates, n);

  if (suggestion)
    return fail (p, SL_CFG_ERROR_UNKNOWN, word->pos, _("unknown %s '%s'; did you mean '%s'?"),
                 what, word->value, suggestion);
  return fail (p, SL_CFG_ERROR_UNKNOWN, word->pos, _("unknown %s '%s'"), what, word->value);
}

static gboolean
enter (SlParser *p, SlCfgPos pos)
{
  if (++p->nesting > SL_PARSER_MAX_NESTING)
    return fail (p, SL_CFG_ERROR_SYNTAX, pos, _("nested more than %d levels deep"), SL_PARSER_MAX_NESTING);
  return TRUE;
}

static void
leave (SlParser *p)
{
  p->nesting--;
}

/* Takes the closing token the lookahead is known to be, giving its position. */
static gboolean
take_closer (SlParser *p, SlCfgPos *pos)
{
  g_auto (SlToken) closer = { 0 };

  if (!take (p, &closer))
    return FALSE;
  *pos = closer.pos;
  return TRUE;
}

/* The ';' (or several, as syslog-ng allows) that ends what the closer ended. */
static gboolean
expect_semicolons (SlParser *p, SlCfgPos closer_pos, gchar closer)
{
  const SlToken *token = peek (p);

  if (!token)
    return FALSE;
  if (token->kind != SL_TOK_SEMICOLON)
    {
      SlCfgPos after = closer_pos;

      after.column++;
      return fail (p, SL_CFG_ERROR_SYNTAX, after, _("expected ';' after '%c'"), closer);
    }
  while (token->kind == SL_TOK_SEMICOLON)
    {
      if (!skip (p) || !(token = peek (p)))
        return FALSE;
    }
  return TRUE;
}

/* syslog-ng ends a pragma with its line; a ';' after one on that line is
 * what people write anyway, and is let through. */
static gboolean
is_pragma_semicolon (SlParser *p, const SlToken *token)
{
  if (token->kind != SL_TOK_SEMICOLON)
    return FALSE;
  for (guint i = 0; i < p->pragmas->len; i++)
    {
      SlCfgPos *pragma = &g_array_index (p->pragmas, SlCfgPos, i);

      if (pragma->file == token->pos.file && pragma->line == token->pos.line
          && pragma->column < token->pos.column)
        return TRUE;
    }
  return FALSE;
}

/* Blocks */

static gchar *
block_key (const gchar *context, const gchar *name)
{
  g_autofree gchar *normal = sl_cfg_name_normalize (name);

  return g_strconcat (context, "/", normal, NULL);
}

/* The block name stands for where a block of context may be used, or NULL. */
static const SlCfgBlock *
find_block (SlParser *p, const gchar *context, const gchar *name)
{
  if (!context || !p->blocks)
    return NULL;

  g_autofree gchar *key = block_key (context, name);
  return g_hash_table_lookup (p->blocks, key);
}

static void
add_block (SlParser *p, SlCfgBlock *block, const gchar *name)
{
  /* a later definition replaces an earlier one, as a plugin of syslog-ng
   * registered twice does */
  g_hash_table_replace (p->blocks, block_key (sl_cfg_block_context (block), name), block);
}

static const gchar *
lookup_define (gpointer lexer, const gchar *name)
{
  return sl_lexer_lookup (lexer, name);
}

/* A reference `name(args)` to block: name is taken and the lookahead is its
 * '('. The block's text is pushed, to be read next in place of the
 * reference, as syslog-ng substitutes it. */
static gboolean
expand_block (SlParser *p, const SlCfgBlock *block, const SlToken *name)
{
  g_auto (SlToken) open = { 0 };
  g_autofree gchar *args = NULL;
  SlCfgPos start, end;
  SlCfgExpanded out = { 0 };
  guint depth = 0;

  for (const SlCfgExpansion *e = name->pos.expansion; e; e = e->used_at.expansion)
    if (++depth >= SL_PARSER_MAX_EXPANSION_DEPTH)
      return fail (p, SL_CFG_ERROR_REFERENCE, name->pos,
                   _("blocks used inside each other more than %d deep: does '%s' use itself?"),
                   SL_PARSER_MAX_EXPANSION_DEPTH, name->value);
  if (!take (p, &open) || !sl_lexer_read_raw (p->lexer, ')', TRUE, open.pos, &args, &start, &end, &p->error))
    return FALSE;

  gboolean ok = sl_cfg_block_expand (block, args, start, name->pos, lookup_define, p->lexer, &out, &p->error);
  if (ok)
    sl_lexer_push_expansion (p->lexer, out.text, out.file, out.spans, out.expansion);
  sl_cfg_expanded_clear (&out);
  return ok;
}

/* Calls: name(args, children) */

static SlCfgNode *parse_item_block (SlParser *p, const SlToken *name, SlCfgPos *close_pos);
static SlCfgNode *parse_log_inline (SlParser *p, const gchar *keyword, SlCfgPos pos, SlCfgPos *close_pos);

/* `condition(expression)` of a rewrite rule (or another filter call, such
 * as grouping-by()'s trigger()): a filter expression, not arguments; the
 * name is taken and the lookahead is its '('. */
static SlCfgNode *
parse_condition_call (SlParser *p, const SlToken *name, SlCfgPos *close_pos)
{
  g_autoptr (SlCfgNode) node = sl_cfg_node_new (name->value, name->pos);
  g_autofree gchar *opened = g_strdup_printf ("%s(", name->value);
  SlOpener opener = { opened, name->pos };
  SlCfgNode *expr;

  if (!skip (p) || !enter (p, name->pos) || !(expr = parse_filter_body (p, SL_TOK_RPAREN, &opener)))
    return NULL;
  sl_cfg_node_add_child (node, expr);
  leave (p);
  if (!take_closer (p, close_pos))
    return NULL;
  return g_steal_pointer (&node);
}

/* `key => LogTemplate("text")` (or `LogTemplate()`), as syslog-ng 4's
 * python() options take a template: the word is taken and the lookahead
 * is its '('. */
static gboolean take_value (SlParser *p, SlToken *token, const gchar *what);

static gboolean
parse_pair_template (SlParser *p, SlCfgNode *node, const SlToken *key)
{
  g_auto (SlToken) text = { 0 };
  const SlToken *token;
  SlCfgPos close_pos;

  if (!skip (p) || !(token = peek (p)))
    return FALSE;
  if (token->kind != SL_TOK_RPAREN && !take_value (p, &text, _("a template or ')' after 'LogTemplate('")))
    return FALSE;
  if (!(token = peek (p)))
    return FALSE;
  if (token->kind != SL_TOK_RPAREN)
    return fail_expected (p, token, _("')' after LogTemplate()'s template"), NULL);
  if (!take_closer (p, &close_pos))
    return FALSE;
  sl_cfg_node_add_pair (node, key->value, SL_CFG_ARG_TEMPLATE, text.value ? text.value : "", key->pos);
  return TRUE;
}

/* `key => value`: key is taken and the lookahead is the arrow. */
static gboolean
parse_pair_value (SlParser *p, SlCfgNode *node, const SlToken *key)
{
  g_auto (SlToken) value = { 0 };
  const SlToken *token;

  if (!skip (p) || !(token = peek (p)))
    return FALSE;
  if (!is_value (token))
    {
      g_autofree gchar *what = g_strdup_printf (_("a value after '%s =>'"), key->value);
      return fail_expected (p, token, what, NULL);
    }
  take (p, &value);
  if (!(token = peek (p)))
    return FALSE;
  if (value.kind == SL_TOK_WORD && g_str_equal (value.value, "LogTemplate") && token->kind == SL_TOK_LPAREN)
    return parse_pair_template (p, node, key);
  sl_cfg_node_add_pair (node, key->value, arg_kind (&value), value.value, key->pos);
  return TRUE;
}

/* name is taken and the lookahead is its '('. */
static SlCfgNode *
parse_call (SlParser *p, const gchar *name, SlCfgPos pos, SlCfgPos *close_pos)
{
  g_autoptr (SlCfgNode) node = sl_cfg_node_new (name, pos);
  g_autofree gchar *text = g_strdup_printf ("%s(", name);
  SlOpener opener = { text, pos };

  if (!skip (p) || !enter (p, pos))
    return NULL;
  for (;;)
    {
      const SlToken *token = peek (p);
      g_auto (SlToken) value = { 0 };

      if (!token)
        return NULL;
      switch (token->kind)
        {
        case SL_TOK_RPAREN:
          leave (p);
          if (!take_closer (p, close_pos))
            return NULL;
          return g_steal_pointer (&node);
        case SL_TOK_COMMA:
          if (!skip (p))
            return NULL;
          break;
        case SL_TOK_STRING:
        case SL_TOK_WORD:
          {
            SlCfgPos child_close;
            SlCfgNode *child = NULL;

            take (p, &value);
            if (!(token = peek (p)))
              return NULL;
            if (token->kind == SL_TOK_ARROW)
              {
                if (!parse_pair_value (p, node, &value))
                  return NULL;
                break;
              }
            if (value.kind == SL_TOK_STRING)
              {
                sl_cfg_node_add_arg (node, SL_CFG_ARG_STRING, value.value, value.pos);
                break;
              }
            if (token->kind == SL_TOK_LPAREN && value.kind == SL_TOK_WORD && sl_cfg_is_filter_call (value.value))
              child = parse_condition_call (p, &value, &child_close);
            else if (token->kind == SL_TOK_LPAREN)
              child = parse_call (p, value.value, value.pos, &child_close);
            else if (token->kind == SL_TOK_LBRACE)
              child = parse_item_block (p, &value, &child_close);
            else
              {
                sl_cfg_node_add_arg (node, SL_CFG_ARG_WORD, value.value, value.pos);
                break;
              }
            if (!child)
              return NULL;
            sl_cfg_node_add_child (node, child);
            break;
          }
        default:
          fail_unclosed (p, token, ")", &opener);
          return NULL;
        }
    }
}

/* `name { items }` where an option or driver takes a block; name is taken
 * and the lookahead is its '{'. */
static SlCfgNode *
parse_item_block (SlParser *p, const SlToken *name, SlCfgPos *close_pos)
{
  g_autoptr (SlCfgNode) node = sl_cfg_node_new (name->value, name->pos);
  g_autofree gchar *text = g_strdup_printf ("%s {", name->value);
  SlOpener opener = { text, name->pos };

  node->has_body = TRUE;
  if (!skip (p) || !enter (p, name->pos) || !parse_items (p, node, NULL, _("an option"), &opener))
    return NULL;
  leave (p);
  if (!take_closer (p, close_pos))
    return NULL;
  return g_steal_pointer (&node);
}

/* Pragmas */

static gchar *
resolve_include (const gchar *pattern, const gchar *including_file)
{
  if (g_path_is_absolute (pattern) || !including_file)
    return g_strdup (pattern);

  g_autofree gchar *dir = g_path_get_dirname (including_file);
  if (g_str_equal (dir, "."))
    return g_strdup (pattern);
  return g_build_filename (dir, pattern, NULL);
}

static gchar *include_path_setting;
static gchar *module_path_setting;

void
sl_cfg_set_paths (const gchar *include_path, const gchar *module_path)
{
  g_free (include_path_setting);
  g_free (module_path_setting);
  include_path_setting = g_strdup (include_path);
  module_path_setting = g_strdup (module_path);
}

gchar *
sl_cfg_default_include_path (void)
{
  if (g_file_test (SYSLOG_NG_INCLUDE_DIR, G_FILE_TEST_IS_DIR))
    return g_strdup (SL_INCLUDE_DIR G_SEARCHPATH_SEPARATOR_S SYSLOG_NG_INCLUDE_DIR);
  return g_strdup (SL_INCLUDE_DIR);
}

/* syslog-ng's built-in defines, pointing at Sluice's folders; scl-root is
 * the scl/ of the first include folder that has one, so that the SCL's
 * scripts (getvirtconsole's tty10.sh) are found where they are installed. */
static void
define_builtins (SlLexer *lexer)
{
  g_autofree gchar *include_path = include_path_setting ? g_strdup (include_path_setting)
                                                        : sl_cfg_default_include_path ();
  g_auto (GStrv) dirs = g_strsplit (include_path, G_SEARCHPATH_SEPARATOR_S, -1);
  g_autofree gchar *scl_root = NULL;

  for (guint i = 0; dirs[i] && !scl_root; i++)
    {
      g_autofree gchar *scl = g_build_filename (dirs[i], "scl", NULL);

      if (*dirs[i] && g_file_test (scl, G_FILE_TEST_IS_DIR))
        scl_root = g_steal_pointer (&scl);
    }
  if (!scl_root)
    scl_root = g_build_filename (SL_INCLUDE_DIR, "scl", NULL);

  sl_lexer_define (lexer, "syslog-ng-prefix", SL_PREFIX);
  sl_lexer_define (lexer, "syslog-ng-root", SL_PREFIX);
  sl_lexer_define (lexer, "syslog-ng-data", SL_DATADIR);
  sl_lexer_define (lexer, "syslog-ng-include", SL_INCLUDE_DIR);
  sl_lexer_define (lexer, "syslog-ng-sysconfdir", SL_SYSCONFDIR);
  sl_lexer_define (lexer, "scl-root", scl_root);
  sl_lexer_define (lexer, "module-path", module_path_setting ? module_path_setting : SL_MODULE_DIR);
  sl_lexer_define (lexer, "module-install-dir", sl_cfg_module_install_dir ());
  sl_lexer_define (lexer, "include-path", include_path);
}

static gboolean
has_glob_chars (const gchar *pattern)
{
  return strpbrk (pattern, "*?[") != NULL;
}

/* Where a relative @include is looked for after the including file's own
 * folder: the include-path define, which the command line sets and a
 * configuration may change, as in syslog-ng. */
static GStrv
include_dirs (SlParser *p)
{
  const gchar *path = sl_lexer_lookup (p->lexer, "include-path");

  return g_strsplit (path ? path : "", G_SEARCHPATH_SEPARATOR_S, -1);
}

/* The paths a relative pattern stands for along the include path: the
 * first folder that has the file, or every folder's matches of a glob. */
static void
search_include_path (SlParser *p, const gchar *pattern, GPtrArray *found)
{
  g_auto (GStrv) dirs = include_dirs (p);

  for (guint i = 0; dirs[i]; i++)
    {
      g_autofree gchar *path = NULL;
      glob_t matches;

      if (!*dirs[i])
        continue;
      path = g_build_filename (dirs[i], pattern, NULL);
      if (!has_glob_chars (pattern))
        {
          if (g_file_test (path, G_FILE_TEST_EXISTS))
            {
              g_ptr_array_add (found, g_steal_pointer (&path));
              return;
            }
          continue;
        }
      if (glob (path, 0, NULL, &matches) == 0)
        {
          for (gsize k = 0; k < matches.gl_pathc; k++)
            g_ptr_array_add (found, g_strdup (matches.gl_pathv[k]));
          globfree (&matches);
        }
    }
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar *const *) a, *(const gchar *const *) b);
}

/* Every file of a directory in name order, leaving out hidden files,
 * editor backups and subdirectories. */
static gboolean
list_directory (SlParser *p, const gchar *dir, GPtrArray *files, SlCfgPos from)
{
  g_autoptr (GError) local = NULL;
  g_autoptr (GDir) handle = g_dir_open (dir, 0, &local);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  const gchar *name;

  if (!handle)
    return fail (p, SL_CFG_ERROR_INCLUDE, from, _("cannot read directory '%s': %s"), dir, local->message);
  while ((name = g_dir_read_name (handle)))
    if (name[0] != '.' && !g_str_has_suffix (name, "~"))
      g_ptr_array_add (names, (gpointer) name);
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      gchar *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        g_free (path);
      else
        g_ptr_array_add (files, path);
    }
  return TRUE;
}

static gboolean
expand_include (SlParser *p, const gchar *path, GPtrArray *files, SlCfgPos from)
{
  glob_t matches;
  gint rc;

  if (!has_glob_chars (path))
    {
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        return list_directory (p, path, files, from);
      g_ptr_array_add (files, g_strdup (path));
      return TRUE;
    }

  rc = glob (path, 0, NULL, &matches);
  if (rc == GLOB_NOMATCH)
    return TRUE;
  if (rc != 0)
    return fail (p, SL_CFG_ERROR_INCLUDE, from, _("cannot expand '%s'"), path);

  gboolean ok = TRUE;
  for (gsize i = 0; ok && i < matches.gl_pathc; i++)
    {
      const gchar *match = matches.gl_pathv[i];

      if (g_file_test (match, G_FILE_TEST_IS_DIR))
        ok = list_directory (p, match, files, from);
      else
        g_ptr_array_add (files, g_strdup (match));
    }
  globfree (&matches);
  return ok;
}

/* A file that is already being read, directly or through others, would
 * include itself forever. */
static gboolean
check_include_cycle (SlParser *p, const gchar *file, SlCfgPos from)
{
  const gchar *target = sl_cfg_intern_file (file);
  guint depth = 0;

  for (const gchar *reader = from.file; reader; depth++)
    {
      const SlCfgPos *up;

      if (reader == target)
        return fail (p, SL_CFG_ERROR_INCLUDE, from, _("circular @include: '%s' is already being read"), file);
      if (depth >= SL_PARSER_MAX_INCLUDE_DEPTH)
        return fail (p, SL_CFG_ERROR_INCLUDE, from, _("@include nested more than %d levels deep"),
                     SL_PARSER_MAX_INCLUDE_DEPTH);
      up = g_hash_table_lookup (p->included_from, reader);
      reader = up ? up->file : NULL;
    }
  return TRUE;
}

/* Whether pattern names something beside the including file. */
static gboolean
exists_beside (const gchar *path)
{
  glob_t matches;
  gboolean any;

  if (!has_glob_chars (path))
    return g_file_test (path, G_FILE_TEST_EXISTS);
  any = glob (path, 0, NULL, &matches) == 0;
  if (any)
    globfree (&matches);
  return any;
}

static gboolean
include_files (SlParser *p, const SlToken *pattern, SlCfgPos from)
{
  g_autofree gchar *path = resolve_include (pattern->value, from.file);
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);

  if (!g_path_is_absolute (pattern->value) && !exists_beside (path))
    {
      g_autoptr (GPtrArray) found = g_ptr_array_new_with_free_func (g_free);

      search_include_path (p, pattern->value, found);
      if (found->len == 0 && !has_glob_chars (pattern->value))
        {
          const gchar *where = sl_lexer_lookup (p->lexer, "include-path");

          return fail (p, SL_CFG_ERROR_INCLUDE, from, _("cannot find '%s' beside %s nor in the include path '%s'"),
                       pattern->value, from.file, where ? where : "");
        }
      for (guint i = 0; i < found->len; i++)
        if (!expand_include (p, g_ptr_array_index (found, i), files, from))
          return FALSE;
    }
  else if (!expand_include (p, path, files, from))
    return FALSE;
  /* as syslog-ng warns: a glob that matches nothing is most often a typo
   * in a folder's name, and including nothing is not an error */
  if (!files->len && has_glob_chars (pattern->value))
    sl_log (SL_LOG_WARNING, _("%s:%d:%d: @include '%s' matches no file; nothing is included"), from.file,
            from.line, from.column, pattern->value);

  /* the lexer reads the last pushed input first */
  for (guint i = files->len; i > 0; i--)
    {
      const gchar *file = g_ptr_array_index (files, i - 1);

      if (!check_include_cycle (p, file, from)
          || !sl_lexer_push_file (p->lexer, file, &from, &p->error))
        return FALSE;
      g_hash_table_replace (p->included_from, (gpointer) sl_cfg_intern_file (file),
                            g_memdup2 (&from, sizeof from));
    }
  return TRUE;
}

static gboolean
take_value (SlParser *p, SlToken *token, const gchar *what)
{
  const SlToken *next = peek (p);

  if (!next)
    return FALSE;
  if (!is_value (next))
    return fail_expected (p, next, what, NULL);
  return take (p, token);
}

static const gchar *
module_option (const SlCfgNode *node, const gchar *name)
{
  const SlCfgNode *child = sl_cfg_node_child (node, name);

  return child ? sl_cfg_node_arg (child, 0) : NULL;
}

/* `@module confgen context(destination) name(x) exec("program")`: a block
 * whose body is what the program prints when x() is used. */
static gboolean
define_confgen (SlParser *p, const SlCfgNode *node)
{
  const gchar *context = module_option (node, "context");
  const gchar *name = module_option (node, "name");
  const gchar *exec = module_option (node, "exec");
  const gchar *known;

  if (!context || !name || !exec)
    return fail (p, SL_CFG_ERROR_SYNTAX, node->pos, _("@module confgen needs context(), name() and exec()"));
  known = lookup_keyword (context, block_contexts, G_N_ELEMENTS (block_contexts));
  if (!known)
    return fail (p, SL_CFG_ERROR_VALUE, sl_cfg_node_child (node, "context")->pos,
                 _("unknown context '%s' for confgen; it is one of source, destination, parser, rewrite, "
                   "filter, log, root, options"), context);

  SlCfgBlock *block = sl_cfg_block_new (known, name, node->pos);
  sl_cfg_block_set_program (block, exec);
  add_block (p, block, name);
  return TRUE;
}

/* `@module name arg(value) ...` and `@requires name`: kept for whoever
 * loads modules; their arguments end with the line. */
static gboolean
parse_module_pragma (SlParser *p, SlCfgNode *parent, const SlToken *pragma, const gchar *name)
{
  g_autoptr (SlCfgNode) node = NULL;
  g_auto (SlToken) module = { 0 };
  g_autofree gchar *what = g_strdup_printf (_("a module name after '@%s'"), name);

  if (!take_value (p, &module, what))
    return FALSE;
  g_autofree gchar *node_name = g_strconcat ("@", name, NULL);
  node = sl_cfg_node_new (node_name, pragma->pos);
  sl_cfg_node_add_arg (node, arg_kind (&module), module.value, module.pos);

  for (;;)
    {
      const SlToken *token = peek (p);
      g_auto (SlToken) value = { 0 };

      if (!token)
        return FALSE;
      if (!is_value (token) || token->pos.file != pragma->pos.file || token->pos.line != pragma->pos.line)
        break;
      take (p, &value);
      if (!(token = peek (p)))
        return FALSE;
      if (value.kind == SL_TOK_WORD && token->kind == SL_TOK_LPAREN)
        {
          SlCfgPos close_pos;
          SlCfgNode *child = parse_call (p, value.value, value.pos, &close_pos);

          if (!child)
            return FALSE;
          sl_cfg_node_add_child (node, child);
        }
      else
        sl_cfg_node_add_arg (node, arg_kind (&value), value.value, value.pos);
    }
  if (g_str_equal (name, "module") && sl_cfg_name_equal (module.value, "confgen") && !define_confgen (p, node))
    return FALSE;
  sl_cfg_node_add_child (parent, g_steal_pointer (&node));
  return TRUE;
}

static gboolean
parse_pragma (SlParser *p, gboolean top_level)
{
  g_auto (SlToken) pragma = { 0 };
  g_auto (SlToken) value = { 0 };
  const gchar *name;

  if (!take (p, &pragma))
    return FALSE;
  g_array_append_val (p->pragmas, pragma.pos);
  name = lookup_keyword (pragma.value, pragma_names, G_N_ELEMENTS (pragma_names));
  if (!name)
    {
      const gchar *suggestion = sl_cfg_suggest (pragma.value, pragma_names, G_N_ELEMENTS (pragma_names));

      if (suggestion)
        return fail (p, SL_CFG_ERROR_UNKNOWN, pragma.pos, _("unknown pragma '@%s'; did you mean '@%s'?"),
                     pragma.value, suggestion);
      return fail (p, SL_CFG_ERROR_UNKNOWN, pragma.pos, _("unknown pragma '@%s'"), pragma.value);
    }
  /* the SCL's blocks say in their bodies which modules they need */
  if (!top_level && !g_str_equal (name, "include") && !g_str_equal (name, "define")
      && !g_str_equal (name, "requires"))
    return fail (p, SL_CFG_ERROR_SYNTAX, pragma.pos, _("'@%s' is only allowed at the top level"), name);

  if (g_str_equal (name, "version"))
    {
      const SlToken *colon = peek (p);

      if (!colon)
        return FALSE;
      if (colon->kind != SL_TOK_COLON)
        return fail_expected (p, colon, _("':' after '@version'"), NULL);
      if (!skip (p) || !take_value (p, &value, _("a version number after '@version:'")))
        return FALSE;
      /* only the first counts: included files may carry their own */
      if (p->root->args->len == 0)
        sl_cfg_node_add_arg (p->root, arg_kind (&value), value.value, value.pos);
      return TRUE;
    }
  if (g_str_equal (name, "include"))
    {
      /* the included files must be pushed before anything after the
       * pattern is read, so nothing is peeked here */
      if (!take_value (p, &value, _("a file name or pattern after '@include'")))
        return FALSE;
      return include_files (p, &value, pragma.pos);
    }
  if (g_str_equal (name, "include-rsyslog"))
    {
      if (!take_value (p, &value, _("a file name or pattern after '@include-rsyslog'")))
        return FALSE;
      if (!rsyslog)
        {
          sl_cfg_error_set (&p->error, SL_CFG_ERROR_SYNTAX, pragma.pos,
                            _("@include-rsyslog needs rsyslog's front end, which this program does not have"));
          return FALSE;
        }
      return rsyslog->include (p->root, value.value, pragma.pos, &p->error);
    }
  if (g_str_equal (name, "define"))
    {
      g_auto (SlToken) define_name = { 0 };

      if (!take_value (p, &define_name, _("a name after '@define'")))
        return FALSE;
      g_autofree gchar *what = g_strdup_printf (_("a value after '@define %s'"), define_name.value);
      if (!take_value (p, &value, what))
        return FALSE;
      sl_lexer_define (p->lexer, define_name.value, value.value);
      return TRUE;
    }
  return parse_module_pragma (p, p->root, &pragma, name);
}

/* What comes next inside a block: its end, a pragma or stray ';' (taken
 * here), or an item for the caller. */
typedef enum
{
  BLOCK_ERROR,
  BLOCK_END,
  BLOCK_SKIPPED,
  BLOCK_ITEM,
} BlockNext;

static BlockNext
next_in_block (SlParser *p, const SlToken *token)
{
  if (!token)
    return BLOCK_ERROR;
  if (token->kind == SL_TOK_RBRACE)
    return BLOCK_END;
  if (token->kind == SL_TOK_PRAGMA)
    return parse_pragma (p, FALSE) ? BLOCK_SKIPPED : BLOCK_ERROR;
  if (is_pragma_semicolon (p, token) || (token->kind == SL_TOK_SEMICOLON && token->follows_expansion))
    return skip (p) ? BLOCK_SKIPPED : BLOCK_ERROR;
  return BLOCK_ITEM;
}

/* Option and driver blocks: items `name(...)` or `name { ... }`, each
 * followed by ';'. Stops before the closing '}'. In the body of a
 * statement, context names the blocks that may be used as items. */
static gboolean
parse_items (SlParser *p, SlCfgNode *parent, const gchar *context, const gchar *what, const SlOpener *opener)
{
  for (;;)
    {
      const SlToken *token = peek (p);
      g_auto (SlToken) name = { 0 };
      SlCfgNode *child = NULL;
      SlCfgPos close_pos;
      gchar closer;

      switch (next_in_block (p, token))
        {
        case BLOCK_ERROR:
          return FALSE;
        case BLOCK_END:
          return TRUE;
        case BLOCK_SKIPPED:
          continue;
        case BLOCK_ITEM:
          break;
        }
      if (token->kind != SL_TOK_WORD)
        {
          g_autofree gchar *expected = g_strdup_printf (_("%s or '}'"), what);
          return fail_expected (p, token, expected, opener);
        }

      take (p, &name);
      if (!(token = peek (p)))
        return FALSE;
      const SlCfgBlock *block = token->kind == SL_TOK_LPAREN ? find_block (p, context, name.value) : NULL;
      if (block)
        {
          if (!expand_block (p, block, &name))
            return FALSE;
          continue;
        }
      if (token->kind == SL_TOK_LPAREN)
        {
          child = parse_call (p, name.value, name.pos, &close_pos);
          closer = ')';
        }
      else if (token->kind == SL_TOK_LBRACE && context && is_word (&name, "channel"))
        {
          /* syslog-ng's path inside an object: `parser { channel { ... }; }` */
          child = parse_log_inline (p, "channel", name.pos, &close_pos);
          closer = '}';
        }
      else if (token->kind == SL_TOK_LBRACE)
        {
          child = parse_item_block (p, &name, &close_pos);
          closer = '}';
        }
      else
        {
          g_autofree gchar *expected = g_strdup_printf (_("'(' after '%s'"), name.value);
          return fail_expected (p, token, expected, opener);
        }
      if (!child)
        return FALSE;
      sl_cfg_node_add_child (parent, child);
      if (!expect_semicolons (p, close_pos, closer))
        return FALSE;
    }
}

/* Filter expressions: `not` binds tighter than `and`, `and` than `or`.
 * syslog-ng also reads `a; b` as `a and b`, looser than both. */

static SlCfgNode *
binary_node (const gchar *name, SlCfgPos pos, SlCfgNode *left, SlCfgNode *right)
{
  SlCfgNode *node = sl_cfg_node_new (name, pos);

  sl_cfg_node_add_child (node, left);
  sl_cfg_node_add_child (node, right);
  return node;
}

static gboolean
is_comparison (const SlToken *token)
{
  return token->kind == SL_TOK_OPERATOR
         || (token->kind == SL_TOK_WORD
             && lookup_keyword (token->value, comparison_words, G_N_ELEMENTS (comparison_words)));
}

/* `left OP right`; left is taken and the lookahead is the operator. */
static SlCfgNode *
parse_comparison (SlParser *p, const SlToken *left, const SlOpener *opener)
{
  g_auto (SlToken) op = { 0 };
  g_auto (SlToken) right = { 0 };
  SlCfgNode *node;

  take (p, &op);
  g_autofree gchar *what = g_strdup_printf (_("a value to compare after '%s'"), op.value);
  const SlToken *token = peek (p);
  if (!token)
    return NULL;
  if (!is_value (token))
    {
      fail_expected (p, token, what, opener);
      return NULL;
    }
  take (p, &right);

  node = sl_cfg_node_new ("compare", left->pos);
  sl_cfg_node_add_arg (node, arg_kind (left), left->value, left->pos);
  sl_cfg_node_add_arg (node, SL_CFG_ARG_WORD, op.value, op.pos);
  sl_cfg_node_add_arg (node, arg_kind (&right), right.value, right.pos);
  return node;
}

static SlCfgNode *
parse_primary (SlParser *p, const SlOpener *opener)
{
  const SlToken *token = peek (p);
  g_auto (SlToken) first = { 0 };

  if (!token)
    return NULL;

  if (token->kind == SL_TOK_LPAREN)
    {
      SlOpener group = { "(", token->pos };
      g_autoptr (SlCfgNode) inner = NULL;

      if (!skip (p) || !enter (p, group.pos) || !(inner = parse_binary (p, &group, 0)))
        return NULL;
      leave (p);
      if (!(token = peek (p)))
        return NULL;
      if (token->kind != SL_TOK_RPAREN)
        {
          fail_unclosed (p, token, ")", &group);
          return NULL;
        }
      if (!skip (p))
        return NULL;
      return g_steal_pointer (&inner);
    }

  if (!is_value (token))
    {
      fail_expected (p, token, _("a filter expression"), opener);
      return NULL;
    }

  take (p, &first);
  if (!(token = peek (p)))
    return NULL;
  if (first.kind == SL_TOK_WORD && token->kind == SL_TOK_LPAREN)
    {
      const SlCfgBlock *block = find_block (p, "filter", first.value);
      SlCfgPos close_pos;

      /* the block's expression is read as if written here */
      if (block)
        return expand_block (p, block, &first) ? parse_primary (p, opener) : NULL;
      return parse_call (p, first.value, first.pos, &close_pos);
    }
  if (is_comparison (token))
    return parse_comparison (p, &first, opener);

  g_autofree gchar *what = first.kind == SL_TOK_WORD
                           ? g_strdup_printf (_("'(' or a comparison operator after '%s'"), first.value)
                           : g_strdup (_("a comparison operator such as '==' or 'eq' after a string"));
  fail_expected (p, token, what, opener);
  return NULL;
}

static SlCfgNode *
parse_not (SlParser *p, const SlOpener *opener)
{
  const SlToken *token = peek (p);
  g_auto (SlToken) not_word = { 0 };
  SlCfgNode *operand;
  SlCfgNode *node;

  if (!token)
    return NULL;
  if (!is_word (token, "not"))
    return parse_primary (p, opener);

  take (p, &not_word);
  if (!enter (p, not_word.pos) || !(operand = parse_not (p, opener)))
    return NULL;
  leave (p);
  node = sl_cfg_node_new ("not", not_word.pos);
  sl_cfg_node_add_child (node, operand);
  return node;
}

/* and binds tighter than or: level 0 is or, whose operands are ands,
 * whose operands are nots; both are left-associative. */
static const gchar *const binary_words[] = { "or", "and" };

static SlCfgNode *
parse_binary (SlParser *p, const SlOpener *opener, guint level)
{
  if (level == G_N_ELEMENTS (binary_words))
    return parse_not (p, opener);
  g_autoptr (SlCfgNode) left = parse_binary (p, opener, level + 1);
  const SlToken *token;

  while (left && (token = peek (p)) && is_word (token, binary_words[level]))
    {
      SlCfgPos pos = token->pos;
      SlCfgNode *right;

      if (!skip (p) || !(right = parse_binary (p, opener, level + 1)))
        return NULL;
      left = binary_node (binary_words[level], pos, g_steal_pointer (&left), right);
    }
  return p->error ? NULL : g_steal_pointer (&left);
}

/* A filter's body or a condition, up to (not including) closer. */
static SlCfgNode *
parse_filter_body (SlParser *p, SlTokenKind closer, const SlOpener *opener)
{
  g_autoptr (SlCfgNode) expr = parse_binary (p, opener, 0);
  const gchar *closer_text = closer == SL_TOK_RBRACE ? "}" : ")";

  while (expr)
    {
      const SlToken *token = peek (p);
      SlCfgNode *right;
      SlCfgPos pos;

      if (!token)
        return NULL;
      if (token->kind == closer)
        break;
      if (token->kind != SL_TOK_SEMICOLON)
        {
          if (token->kind == SL_TOK_EOF)
            fail_end_of_file (p, token, opener);
          else
            {
              g_autofree gchar *what = g_strdup_printf (_("'and', 'or' or '%s' to close '%s'"),
                                                        closer_text, opener->text);
              fail_expected (p, token, what, opener);
            }
          return NULL;
        }
      pos = token->pos;
      if (!skip (p) || !(token = peek (p)))
        return NULL;
      while (token->kind == SL_TOK_SEMICOLON)
        if (!skip (p) || !(token = peek (p)))
          return NULL;
      if (token->kind == closer)
        break;
      if (!(right = parse_binary (p, opener, 0)))
        return NULL;
      expr = binary_node ("and", pos, g_steal_pointer (&expr), right);
    }
  return g_steal_pointer (&expr);
}

/* `{ expression }` of a filter; the lookahead is the '{'. */
static gboolean
parse_filter_block (SlParser *p, SlCfgNode *node, const SlOpener *opener, SlCfgPos *close_pos)
{
  SlCfgNode *expr;

  if (!skip (p) || !(expr = parse_filter_body (p, SL_TOK_RBRACE, opener)))
    return FALSE;
  sl_cfg_node_add_child (node, expr);
  return take_closer (p, close_pos);
}

/* Log paths */

static gboolean
expect_token (SlParser *p, SlTokenKind kind, const gchar *what, SlCfgPos *pos)
{
  const SlToken *token = peek (p);

  if (!token)
    return FALSE;
  if (token->kind != kind)
    return fail_expected (p, token, what, NULL);
  return take_closer (p, pos);
}

/* `{ log items }` into node; the lookahead is the '{'. */
static gboolean
parse_log_block (SlParser *p, SlCfgNode *node, const SlOpener *opener, SlCfgPos *close_pos)
{
  if (!skip (p) || !enter (p, opener->pos) || !parse_log_items (p, node, opener))
    return FALSE;
  leave (p);
  return take_closer (p, close_pos);
}

/* `(condition) { log items }` or `{ log items }` of an if or elif, added
 * to node. */
static gboolean
parse_branch (SlParser *p, SlCfgNode *node, const gchar *keyword, SlCfgPos *close_pos)
{
  g_autofree gchar *paren_text = g_strdup_printf ("%s (", keyword);
  g_autofree gchar *brace_text = g_strdup_printf ("%s (...) {", keyword);
  SlOpener paren = { paren_text, node->pos };
  SlOpener brace = { brace_text, node->pos };
  const SlToken *token = peek (p);
  SlCfgNode *condition;
  SlCfgNode *then;
  SlCfgNode *expr;
  SlCfgPos pos;

  if (!token)
    return FALSE;
  if (token->kind == SL_TOK_LBRACE)
    {
      /* syslog-ng's `if { parser {...}; }`: the branch is taken when its
       * own filters and parsers let the message through */
      g_autofree gchar *text = g_strdup_printf ("%s {", keyword);
      SlOpener opener = { text, node->pos };
      then = sl_cfg_node_new ("then", token->pos);
      then->has_body = TRUE;
      sl_cfg_node_add_child (node, then);
      return parse_log_block (p, then, &opener, close_pos);
    }
  if (token->kind != SL_TOK_LPAREN)
    {
      g_autofree gchar *what = g_strdup_printf (_("'(' or '{' after '%s'"), keyword);
      return fail_expected (p, token, what, NULL);
    }

  condition = sl_cfg_node_new ("condition", token->pos);
  sl_cfg_node_add_child (node, condition);
  if (!skip (p) || !(expr = parse_filter_body (p, SL_TOK_RPAREN, &paren)))
    return FALSE;
  sl_cfg_node_add_child (condition, expr);
  if (!skip (p))
    return FALSE;

  if (!(token = peek (p)))
    return FALSE;
  if (token->kind != SL_TOK_LBRACE)
    {
      g_autofree gchar *what = g_strdup_printf (_("'{' after the condition of '%s'"), keyword);
      return fail_expected (p, token, what, NULL);
    }
  pos = token->pos;
  then = sl_cfg_node_new ("then", pos);
  then->has_body = TRUE;
  sl_cfg_node_add_child (node, then);
  return parse_log_block (p, then, &brace, close_pos);
}

/* `if (...) { ... } elif (...) { ... } else { ... }`; "if" is taken. */
static SlCfgNode *
parse_if (SlParser *p, const SlToken *if_word, SlCfgPos *close_pos)
{
  g_autoptr (SlCfgNode) node = sl_cfg_node_new ("if", if_word->pos);
  const SlToken *token;

  if (!parse_branch (p, node, "if", close_pos))
    return NULL;
  while ((token = peek (p)) && is_word (token, "elif"))
    {
      SlCfgNode *elif = sl_cfg_node_new ("elif", token->pos);

      sl_cfg_node_add_child (node, elif);
      if (!skip (p) || !parse_branch (p, elif, "elif", close_pos))
        return NULL;
    }
  if (!token)
    return NULL;
  if (is_word (token, "else"))
    {
      SlCfgNode *otherwise = sl_cfg_node_new ("else", token->pos);
      SlOpener opener = { "else {", token->pos };

      otherwise->has_body = TRUE;
      sl_cfg_node_add_child (node, otherwise);
      if (!skip (p) || !(token = peek (p)))
        return NULL;
      if (token->kind != SL_TOK_LBRACE)
        {
          fail_expected (p, token, _("'{' after 'else'"), NULL);
          return NULL;
        }
      if (!parse_log_block (p, otherwise, &opener, close_pos))
        return NULL;
    }
  return g_steal_pointer (&node);
}

/* `junction { channel { ... }; channel { ... }; }` */
static gboolean
parse_junction_items (SlParser *p, SlCfgNode *junction, const SlOpener *opener)
{
  for (;;)
    {
      const SlToken *token = peek (p);
      g_auto (SlToken) word = { 0 };
      SlCfgPos close_pos;

      if (!token)
        return FALSE;
      if (token->kind == SL_TOK_RBRACE)
        return TRUE;
      if (!is_word (token, "channel") && !is_word (token, "log"))
        return fail_expected (p, token, _("'channel { ... }' or '}'"), opener);

      take (p, &word);
      SlCfgNode *channel = sl_cfg_node_new (is_word (&word, "log") ? "log" : "channel", word.pos);
      g_autofree gchar *text = g_strdup_printf ("%s {", channel->name);
      SlOpener channel_opener = { text, word.pos };

      channel->has_body = TRUE;
      sl_cfg_node_add_child (junction, channel);
      if (!expect_token (p, SL_TOK_LBRACE, _("'{' after 'channel'"), &close_pos)
          || !enter (p, word.pos) || !parse_log_items (p, channel, &channel_opener))
        return FALSE;
      leave (p);
      if (!take_closer (p, &close_pos) || !expect_semicolons (p, close_pos, '}'))
        return FALSE;
    }
}

static const gchar *
body_what (const gchar *keyword)
{
  if (g_str_equal (keyword, "parser"))
    return _("a parser");
  if (g_str_equal (keyword, "rewrite"))
    return _("a rewrite rule");
  if (g_str_equal (keyword, "options") || g_str_equal (keyword, "template"))
    return _("an option");
  return _("a driver");
}

/* An inline object or nested path in a log path: `keyword { ... }`, whose
 * '{' is the lookahead. */
static SlCfgNode *
parse_log_inline (SlParser *p, const gchar *keyword, SlCfgPos pos, SlCfgPos *close_pos)
{
  g_autoptr (SlCfgNode) node = sl_cfg_node_new (keyword, pos);
  g_autofree gchar *text = g_strdup_printf ("%s {", keyword);
  SlOpener opener = { text, pos };
  gboolean ok;

  node->has_body = TRUE;
  if (g_str_equal (keyword, "filter"))
    ok = parse_filter_block (p, node, &opener, close_pos);
  else if (g_str_equal (keyword, "log") || g_str_equal (keyword, "channel"))
    ok = parse_log_block (p, node, &opener, close_pos);
  else
    {
      ok = skip (p) && enter (p, pos);
      if (ok && g_str_equal (keyword, "junction"))
        ok = parse_junction_items (p, node, &opener);
      else if (ok)
        ok = parse_items (p, node, keyword, body_what (keyword), &opener);
      if (ok)
        {
          leave (p);
          ok = take_closer (p, close_pos);
        }
    }
  return ok ? g_steal_pointer (&node) : NULL;
}

/* An item of a log path, or NULL: then *expanded tells whether a block
 * was used in its place rather than an error found. */
static SlCfgNode *
parse_log_item (SlParser *p, SlCfgPos *close_pos, gboolean *expanded)
{
  g_auto (SlToken) word = { 0 };
  const gchar *keyword;
  const SlToken *token;

  take (p, &word);
  keyword = lookup_keyword (word.value, log_keywords, G_N_ELEMENTS (log_keywords));
  if (!keyword)
    {
      const SlCfgBlock *block = find_block (p, "log", word.value);

      if (!(token = peek (p)))
        return NULL;
      if (block && token->kind == SL_TOK_LPAREN)
        {
          *expanded = expand_block (p, block, &word);
          return NULL;
        }
      if (is_word (&word, "elif") || is_word (&word, "else"))
        fail (p, SL_CFG_ERROR_SYNTAX, word.pos, _("'%s' must follow the '}' of an 'if'"), word.value);
      else
        fail_unknown (p, &word, _("log path element"), log_keywords, G_N_ELEMENTS (log_keywords));
      return NULL;
    }
  if (g_str_equal (keyword, "if"))
    return parse_if (p, &word, close_pos);

  gboolean takes_call = !g_str_equal (keyword, "log") && !g_str_equal (keyword, "channel")
                        && !g_str_equal (keyword, "junction");
  gboolean takes_block = !g_str_equal (keyword, "flags") && !g_str_equal (keyword, "parallelize");

  if (!(token = peek (p)))
    return NULL;
  if (takes_call && token->kind == SL_TOK_LPAREN)
    return parse_call (p, keyword, word.pos, close_pos);
  if (takes_block && token->kind == SL_TOK_LBRACE)
    return parse_log_inline (p, keyword, word.pos, close_pos);

  g_autofree gchar *what = g_strdup_printf (takes_call && takes_block ? _("'(' or '{' after '%s'")
                                            : takes_call ? _("'(' after '%s'") : _("'{' after '%s'"),
                                            word.value);
  fail_expected (p, token, what, NULL);
  return NULL;
}

/* The items of a log path, up to (not including) its '}'. */
static gboolean
parse_log_items (SlParser *p, SlCfgNode *parent, const SlOpener *opener)
{
  for (;;)
    {
      const SlToken *token = peek (p);
      SlCfgNode *item;
      SlCfgPos close_pos;
      gchar closer;

      switch (next_in_block (p, token))
        {
        case BLOCK_ERROR:
          return FALSE;
        case BLOCK_END:
          return TRUE;
        case BLOCK_SKIPPED:
          continue;
        case BLOCK_ITEM:
          break;
        }
      if (token->kind != SL_TOK_WORD)
        return fail_expected (p, token, _("a log path element such as 'source(...)' or '}'"), opener);

      gboolean expanded = FALSE;
      if (!(item = parse_log_item (p, &close_pos, &expanded)))
        {
          if (expanded)
            continue;
          return FALSE;
        }
      sl_cfg_node_add_child (parent, item);
      closer = item->has_body || g_str_equal (item->name, "if") ? '}' : ')';
      if (!expect_semicolons (p, close_pos, closer))
        return FALSE;
    }
}

/* Top-level statements */

/* `template NAME "text";`: the text becomes a child like the long form's. */
static gboolean
parse_short_template (SlParser *p, SlCfgNode *node)
{
  g_auto (SlToken) text = { 0 };
  SlCfgNode *child;
  const SlToken *token;

  take (p, &text);
  child = sl_cfg_node_new ("template", text.pos);
  sl_cfg_node_add_arg (child, arg_kind (&text), text.value, text.pos);
  sl_cfg_node_add_child (node, child);
  if (!(token = peek (p)))
    return FALSE;
  if (token->kind != SL_TOK_SEMICOLON)
    return fail_expected (p, token, _("';' after the template text"), NULL);
  return expect_semicolons (p, token->pos, ';');
}

/* `[context]` of an application; the lookahead is the '['. */
static gboolean
parse_bracketed_word (SlParser *p, SlToken *word)
{
  const SlToken *token;

  if (!skip (p) || !take_value (p, word, _("a context after '['")) || !(token = peek (p)))
    return FALSE;
  if (token->kind != SL_TOK_RBRACKET)
    return fail_expected (p, token, _("']'"), NULL);
  return skip (p);
}

/* `{ text }` kept as written; the lookahead is the '{'. */
static gboolean
read_raw_body (SlParser *p, gboolean substitute, gchar **text, SlCfgPos *start, SlCfgPos *close_pos)
{
  g_auto (SlToken) open = { 0 };

  return take (p, &open)
         && sl_lexer_read_raw (p->lexer, '}', substitute, open.pos, text, start, close_pos, &p->error);
}

/* `block CONTEXT NAME(params) { body };`; "block" is taken. */
static gboolean
parse_block_definition (SlParser *p, const SlToken *word)
{
  g_auto (SlToken) context = { 0 };
  g_auto (SlToken) name = { 0 };
  g_autofree gchar *params = NULL;
  g_autofree gchar *body = NULL;
  SlCfgPos start, close_pos;
  const SlToken *token;
  const gchar *known;

  if (!take_value (p, &context, _("a context after 'block', such as 'source' or 'destination'")))
    return FALSE;
  known = lookup_keyword (context.value, block_contexts, G_N_ELEMENTS (block_contexts));
  if (!known)
    return fail_unknown (p, &context, _("block context"), block_contexts, G_N_ELEMENTS (block_contexts));
  g_autofree gchar *what = g_strdup_printf (_("a name after 'block %s'"), known);
  if (!take_value (p, &name, what) || !(token = peek (p)))
    return FALSE;
  if (token->kind != SL_TOK_LPAREN)
    {
      g_autofree gchar *expected = g_strdup_printf (_("'(' after 'block %s %s'"), known, name.value);
      return fail_expected (p, token, expected, NULL);
    }

  g_auto (SlToken) open = { 0 };
  if (!take (p, &open) || !sl_lexer_read_raw (p->lexer, ')', TRUE, open.pos, &params, &start, &close_pos, &p->error))
    return FALSE;
  SlCfgBlock *block = sl_cfg_block_new (known, name.value, word->pos);
  if (!sl_cfg_block_set_params (block, params, start, &p->error) || !(token = peek (p)))
    {
      sl_cfg_block_free (block);
      return FALSE;
    }
  if (token->kind != SL_TOK_LBRACE)
    {
      g_autofree gchar *expected = g_strdup_printf (_("'{' after 'block %s %s(...)'"), known, name.value);
      sl_cfg_block_free (block);
      return fail_expected (p, token, expected, NULL);
    }
  if (!read_raw_body (p, FALSE, &body, &start, &close_pos))
    {
      sl_cfg_block_free (block);
      return FALSE;
    }
  sl_cfg_block_set_body (block, body, start);
  add_block (p, block, name.value);
  return expect_semicolons (p, close_pos, '}');
}

/* The `filter { ... }` or `parser { ... }` of an application, kept as
 * text; the lookahead is its keyword. */
static gboolean
parse_application_option (SlParser *p, GString *body, gchar **filter, gchar **parser)
{
  g_auto (SlToken) option = { 0 };
  g_autofree gchar *text = NULL;
  SlCfgPos start, close_pos;
  const SlToken *token;

  take (p, &option);
  if (!is_word (&option, "filter") && !is_word (&option, "parser"))
    return fail_expected (p, &option, _("'filter', 'parser' or '}' in an application"), NULL);
  if (!(token = peek (p)))
    return FALSE;
  if (token->kind != SL_TOK_LBRACE)
    {
      g_autofree gchar *expected = g_strdup_printf (_("'{' after '%s'"), option.value);
      return fail_expected (p, token, expected, NULL);
    }
  if (!read_raw_body (p, TRUE, &text, &start, &close_pos))
    return FALSE;
  g_string_append_printf (body, "%s {%s}; ", option.value, text);
  gchar **slot = is_word (&option, "filter") ? filter : parser;
  g_free (*slot);
  *slot = g_steal_pointer (&text);
  return expect_semicolons (p, close_pos, '}');
}

/* `application NAME[CONTEXT] { filter {...}; parser {...}; };` of the
 * appmodel module: what app-parser() of the context expands into; the tree
 * keeps its body as text. */
static gboolean
parse_application (SlParser *p, SlCfgNode *parent, const SlToken *word)
{
  g_auto (SlToken) name = { 0 };
  g_auto (SlToken) context = { 0 };
  g_auto (SlToken) open = { 0 };
  g_autoptr (GString) body = g_string_new (" ");
  g_autofree gchar *filter = NULL;
  g_autofree gchar *parser = NULL;
  SlCfgPos close_pos;
  const SlToken *token;

  if (!take_value (p, &name, _("a name after 'application'")) || !(token = peek (p)))
    return FALSE;
  if (token->kind != SL_TOK_LBRACKET)
    return fail_expected (p, token, _("'[' and a context after the application's name"), NULL);
  if (!parse_bracketed_word (p, &context) || !(token = peek (p)))
    return FALSE;
  if (token->kind != SL_TOK_LBRACE)
    return fail_expected (p, token, _("'{' after 'application NAME[CONTEXT]'"), NULL);
  if (!take (p, &open))
    return FALSE;
  SlOpener opener = { "{", open.pos };
  for (;;)
    {
      if (!(token = peek (p)))
        return FALSE;
      if (token->kind == SL_TOK_EOF)
        return fail_unclosed (p, token, "}", &opener);
      if (token->kind == SL_TOK_RBRACE)
        break;
      if (token->kind == SL_TOK_SEMICOLON)
        {
          if (!skip (p))
            return FALSE;
          continue;
        }
      if (!parse_application_option (p, body, &filter, &parser))
        return FALSE;
    }
  if (!take_closer (p, &close_pos))
    return FALSE;

  sl_cfg_app_model_add (p->apps, name.value, context.value, filter, parser);
  SlCfgNode *node = sl_cfg_node_new ("application", word->pos);
  sl_cfg_node_add_arg (node, arg_kind (&name), name.value, name.pos);
  sl_cfg_node_add_arg (node, arg_kind (&context), context.value, context.pos);
  sl_cfg_node_add_arg (node, SL_CFG_ARG_STRING, body->str, open.pos);
  sl_cfg_node_add_child (parent, node);
  return expect_semicolons (p, close_pos, '}');
}

/* `python { code };` of syslog-ng's python module: the code is Python, not
 * configuration, so its text is kept raw (no backticks substituted) as the
 * node's one argument, at the position where it starts. */
static gboolean
parse_python_block (SlParser *p, SlCfgNode *parent, const SlToken *word)
{
  g_autofree gchar *code = NULL;
  SlCfgPos start, close_pos;

  if (!read_raw_body (p, FALSE, &code, &start, &close_pos))
    return FALSE;
  SlCfgNode *node = sl_cfg_node_new ("python", word->pos);
  sl_cfg_node_add_arg (node, SL_CFG_ARG_STRING, code, start);
  sl_cfg_node_add_child (parent, node);
  return expect_semicolons (p, close_pos, '}');
}

/* `@define allow-config-dups 1`: an object defined again replaces the one
 * before instead of being an error, from the define on, as in syslog-ng. */
static gboolean
allows_duplicates (SlParser *p)
{
  const gchar *value = sl_lexer_lookup (p->lexer, "allow-config-dups");

  return value && (atoi (value) != 0 || g_ascii_strcasecmp (value, "yes") == 0);
}

static void
add_statement (SlParser *p, SlCfgNode *parent, SlCfgNode *node)
{
  const gchar *name = sl_cfg_node_arg (node, 0);

  if (name && !g_str_equal (node->name, "log") && allows_duplicates (p))
    for (guint i = 0; i < parent->children->len; i++)
      {
        SlCfgNode *before = g_ptr_array_index (parent->children, i);

        if (g_str_equal (before->name, node->name) && sl_cfg_name_equal (sl_cfg_node_arg (before, 0), name))
          {
            sl_cfg_node_free (before);
            parent->children->pdata[i] = node;
            return;
          }
      }
  sl_cfg_node_add_child (parent, node);
}

static gboolean
parse_statement (SlParser *p, SlCfgNode *parent)
{
  g_auto (SlToken) word = { 0 };
  g_autoptr (SlCfgNode) node = NULL;
  g_autoptr (GString) opener_text = NULL;
  const gchar *keyword;
  const SlToken *token;
  SlCfgPos close_pos;
  gboolean ok;

  take (p, &word);
  if (is_word (&word, "block"))
    return parse_block_definition (p, &word);
  if (is_word (&word, "application"))
    return parse_application (p, parent, &word);
  if (is_word (&word, "python") && (token = peek (p)) && token->kind == SL_TOK_LBRACE)
    return parse_python_block (p, parent, &word);
  keyword = lookup_keyword (word.value, p->keywords, p->n_keywords);
  if (!keyword)
    {
      const SlCfgBlock *block = find_block (p, "root", word.value);

      if (!(token = peek (p)))
        return FALSE;
      if (block && token->kind == SL_TOK_LPAREN)
        return expand_block (p, block, &word);
      return fail_unknown (p, &word, _("statement"), p->keywords, p->n_keywords);
    }

  node = sl_cfg_node_new (keyword, word.pos);
  opener_text = g_string_new (keyword);
  if (!g_str_equal (keyword, "options") && !g_str_equal (keyword, "log"))
    {
      g_auto (SlToken) name = { 0 };
      g_autofree gchar *what = g_strdup_printf (_("a name after '%s'"), keyword);

      if (!take_value (p, &name, what))
        return FALSE;
      sl_cfg_node_add_arg (node, arg_kind (&name), name.value, name.pos);
      g_string_append_printf (opener_text, name.kind == SL_TOK_STRING ? " \"%s\"" : " %s", name.value);
    }

  if (!(token = peek (p)))
    return FALSE;
  if (g_str_has_prefix (keyword, "template") && is_value (token))
    {
      if (!parse_short_template (p, node))
        return FALSE;
      add_statement (p, parent, g_steal_pointer (&node));
      return TRUE;
    }
  if (token->kind != SL_TOK_LBRACE)
    {
      g_autofree gchar *what = g_strdup_printf (_("'{' after '%s'"), opener_text->str);
      return fail_expected (p, token, what, NULL);
    }

  g_string_append (opener_text, " {");
  SlOpener opener = { opener_text->str, word.pos };
  node->has_body = TRUE;
  if (g_str_equal (keyword, "filter"))
    ok = parse_filter_block (p, node, &opener, &close_pos);
  else if (g_str_equal (keyword, "log"))
    ok = parse_log_block (p, node, &opener, &close_pos);
  else
    {
      ok = skip (p) && parse_items (p, node, keyword, body_what (keyword), &opener)
           && take_closer (p, &close_pos);
    }
  if (!ok || !expect_semicolons (p, close_pos, '}'))
    return FALSE;
  add_statement (p, parent, g_steal_pointer (&node));
  return TRUE;
}

static gboolean
parse_statements (SlParser *p)
{
  for (;;)
    {
      const SlToken *token = peek (p);

      if (!token)
        return FALSE;
      if (token->kind == SL_TOK_EOF)
        return TRUE;

      gboolean ok;
      if (token->kind == SL_TOK_PRAGMA)
        ok = parse_pragma (p, TRUE);
      else if (is_pragma_semicolon (p, token) || (token->kind == SL_TOK_SEMICOLON && token->follows_expansion))
        ok = skip (p);
      else if (token->kind == SL_TOK_WORD)
        ok = parse_statement (p, p->root);
      else
        ok = fail_expected (p, token, _("a statement such as 'source', 'log' or 'options'"), NULL);
      if (!ok)
        return FALSE;
    }
}

/* The generator plugins of syslog-ng that Sluice has: blocks whose text is
 * made at each reference. */
static void
define_generators (SlParser *p)
{
  SlCfgBlock *block = sl_cfg_block_new ("parser", "app-parser", (SlCfgPos) { sl_cfg_intern_file ("<builtin>"), 1, 1 });

  sl_cfg_block_set_generator (block, _("<app-parser generator>"), sl_cfg_app_model_generate, p->apps);
  add_block (p, block, "app-parser");
}

static SlCfgNode *
parse_statements_of (SlLexer *lexer, const gchar *name, const gchar *const *keywords, guint n_keywords,
                     GError **error)
{
  SlParser p = { 0 };
  SlCfgNode *root;

  p.lexer = lexer;
  p.keywords = keywords;
  p.n_keywords = n_keywords;
  p.root = sl_cfg_node_new ("config", (SlCfgPos) { sl_cfg_intern_file (name), 1, 1 });
  p.pragmas = g_array_new (FALSE, FALSE, sizeof (SlCfgPos));
  p.included_from = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  p.blocks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) sl_cfg_block_free);
  p.apps = sl_cfg_app_model_new ();
  define_builtins (lexer);
  define_generators (&p);

  root = parse_statements (&p) ? p.root : NULL;
  if (!root)
    {
      sl_cfg_node_free (p.root);
      g_propagate_error (error, p.error);
    }
  sl_token_clear (&p.next);
  g_array_unref (p.pragmas);
  g_hash_table_unref (p.included_from);
  g_hash_table_unref (p.blocks);
  sl_cfg_app_model_free (p.apps);
  sl_lexer_free (lexer);
  return root;
}

static SlCfgNode *
parse (SlLexer *lexer, const gchar *name, GError **error)
{
  return parse_statements_of (lexer, name, statement_keywords, G_N_ELEMENTS (statement_keywords), error);
}

SlCfgNode *
sl_cfg_parse_tests (const gchar *path, GError **error)
{
  SlLexer *lexer = sl_lexer_new ();

  if (!sl_lexer_push_file (lexer, path, NULL, error))
    {
      sl_lexer_free (lexer);
      return NULL;
    }
  return parse_statements_of (lexer, path, test_keywords, G_N_ELEMENTS (test_keywords), error);
}

static SlCfgLanguage language = SL_CFG_LANGUAGE_SLUICE;

void
sl_cfg_set_rsyslog_front_end (const SlCfgFrontEnd *front_end)
{
  rsyslog = front_end;
}

gboolean
sl_cfg_syslog_ng_looks_like (const gchar *text)
{
  return g_regex_match_simple ("^[ \\t]*(@version|(source|destination|filter|log|options)[ \\t]+[a-z0-9_-]*[ \\t]*\\{)",
                               text, G_REGEX_MULTILINE | G_REGEX_CASELESS, 0);
}

void
sl_cfg_set_language (SlCfgLanguage which)
{
  language = which;
}

/* A file that fails to parse and reads as rsyslog's language gets one
 * sentence saying so instead of the first token syslog-ng's grammar
 * could not take. */
static void
explain_language (const gchar *path, GError **error)
{
  g_autofree gchar *text = NULL;

  if (!rsyslog || !error || !*error || !g_file_get_contents (path, &text, NULL, NULL) || !rsyslog->looks_like (text)
      || sl_cfg_syslog_ng_looks_like (text))
    return;
  g_clear_error (error);
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_SYNTAX,
               _("%s: this is rsyslog's configuration language, not Sluice's (syslog-ng's); run sluiced with "
                 "--config-format rsyslog to read it, or include it with @include-rsyslog"),
               path);
}

SlCfgNode *
sl_cfg_parse_file (const gchar *path, GError **error)
{
  SlLexer *lexer;
  SlCfgNode *root;

  if (language == SL_CFG_LANGUAGE_RSYSLOG && rsyslog)
    return rsyslog->parse_file (path, error);
  lexer = sl_lexer_new ();
  if (!sl_lexer_push_file (lexer, path, NULL, error))
    {
      sl_lexer_free (lexer);
      return NULL;
    }
  root = parse (lexer, path, error);
  if (!root)
    explain_language (path, error);
  return root;
}

SlCfgNode *
sl_cfg_parse_string (const gchar *text, const gchar *name, GError **error)
{
  SlLexer *lexer = sl_lexer_new ();

  if (!name)
    name = "<string>";
  sl_lexer_push_string (lexer, text, name);
  return parse (lexer, name, error);
}

SlCfgNode *
sl_cfg_parse_filter_expr (const gchar *text, const gchar *name, GError **error)
{
  SlParser p = { 0 };
  g_autoptr (SlCfgNode) expr = NULL;
  const SlToken *token;

  p.lexer = sl_lexer_new ();
  p.pragmas = g_array_new (FALSE, FALSE, sizeof (SlCfgPos));
  p.included_from = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  sl_lexer_push_string (p.lexer, text, name ? name : "<string>");

  expr = parse_binary (&p, NULL, 0);
  if (expr && (token = peek (&p)) && token->kind != SL_TOK_EOF)
    {
      fail_expected (&p, token, _("the end of the filter expression"), NULL);
      g_clear_pointer (&expr, sl_cfg_node_free);
    }
  if (p.error)
    {
      g_clear_pointer (&expr, sl_cfg_node_free);
      g_propagate_error (error, p.error);
    }
  sl_token_clear (&p.next);
  g_array_unref (p.pragmas);
  g_hash_table_unref (p.included_from);
  sl_lexer_free (p.lexer);
  return g_steal_pointer (&expr);
}
