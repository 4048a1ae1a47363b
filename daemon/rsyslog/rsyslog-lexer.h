/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Characters of an rsyslog configuration file with their positions: rsyslog's
 * language mixes line-based legacy statements with free-form RainerScript,
 * so the reader asks for what it expects next rather than for tokens. */
#ifndef SL_CFG_RSYSLOG_LEXER_H
#define SL_CFG_RSYSLOG_LEXER_H

#include <glib.h>
#include "core/config/tree.h"

G_BEGIN_DECLS

/* Where a piece of joined text (sl_rs_join_lines) starts in the file. */
typedef struct
{
  gsize at;
  gint line;
  gint column;
} SlRsMark;

typedef struct
{
  const gchar *file;   /* interned */
  const gchar *text;
  gsize at;
  gint line;
  gint column;
  const GArray *marks; /* SlRsMark, or NULL: positions as the text counts them */
  guint next_mark;
} SlRsLexer;

/* A file's text as rsyslog reads it: a line whose last non-blank
 * character is a backslash goes on with the next line, whose leading
 * blanks are dropped, anywhere in the file (in comments and strings too).
 * marks (SlRsMark) say where each joined piece and each line after a
 * joined one start in the file. */
gchar    *sl_rs_join_lines        (const gchar *text, GArray **marks);
void      sl_rs_lexer_init        (SlRsLexer *lx, const gchar *file, const gchar *text);
/* The same over sl_rs_join_lines' text, positions from its marks. */
void      sl_rs_lexer_init_joined (SlRsLexer *lx, const gchar *file, const gchar *text, const GArray *marks);
SlCfgPos  sl_rs_lexer_pos         (const SlRsLexer *lx);
/* The character n ahead, or '\0' at the end. */
gchar     sl_rs_lexer_peek        (const SlRsLexer *lx, guint n);
void      sl_rs_lexer_advance     (SlRsLexer *lx, guint n);
/* Skips blanks and comments (# to the end of the line, C comments); over
 * line ends too when newlines is set. */
void      sl_rs_lexer_skip_blanks (SlRsLexer *lx, gboolean newlines);
/* Whether only blanks and a comment are left on this line. */
gboolean  sl_rs_lexer_at_line_end (SlRsLexer *lx);
/* The rest of the line, blanks around it removed; the line end is consumed. */
gchar    *sl_rs_lexer_read_line   (SlRsLexer *lx);
/* Letters, digits and the characters of also; NULL when there is none. */
gchar    *sl_rs_lexer_read_word   (SlRsLexer *lx, const gchar *also);
/* A run of anything but blanks, line ends and the characters of stop. */
gchar    *sl_rs_lexer_read_until_blank (SlRsLexer *lx, const gchar *stop);
/* A "..." or '...' string with RainerScript's backslash escapes resolved;
 * the lexer stands on the quote. */
gboolean  sl_rs_lexer_read_string (SlRsLexer *lx, gchar **value, GError **error);
/* Consumes word when it comes next as a whole word (case-insensitive). */
gboolean  sl_rs_lexer_take_word   (SlRsLexer *lx, const gchar *word);

G_END_DECLS

#endif
