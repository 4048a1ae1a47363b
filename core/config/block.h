/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Blocks: syslog-ng's parameterised pieces of configuration. A definition
 * keeps its body as text; a reference substitutes its arguments into that
 * text, which the lexer then reads where the reference was written. A
 * confgen block's body is what its program prints. */
#ifndef SL_CFG_BLOCK_H
#define SL_CFG_BLOCK_H

#include <glib.h>
#include "core/config/tree.h"

G_BEGIN_DECLS

typedef struct _SlCfgBlock SlCfgBlock;

/* The text an expansion made, where it goes back to, and the expansion
 * every position read from it carries. */
typedef struct
{
  gchar *text;
  const gchar *file;            /* interned */
  GArray *spans;                /* SlLexSpan */
  const SlCfgExpansion *expansion;
} SlCfgExpanded;

/* The arguments of one reference, by name. */
typedef struct _SlCfgBlockArgs SlCfgBlockArgs;

/* Makes the text of a generator block's reference from its arguments:
 * syslog-ng's generator plugins, such as app-parser(). */
typedef gboolean (*SlCfgGenerate) (gpointer user_data, const SlCfgBlockArgs *args, SlCfgPos used_at,
                                   GString *out, GError **error);

/* The value of a name not given to the block: an @define or the
 * environment, or NULL. */
typedef const gchar *(*SlCfgLookup) (gpointer user_data, const gchar *name);

/* context is the word of `block CONTEXT NAME`: source, destination, ... */
SlCfgBlock  *sl_cfg_block_new         (const gchar *context, const gchar *name, SlCfgPos pos);
void         sl_cfg_block_free        (SlCfgBlock *block);
const gchar *sl_cfg_block_context     (const SlCfgBlock *block);
/* The parameters as written between the parentheses of the definition:
 * `name(default) other() ...`, start being where that text begins. */
gboolean     sl_cfg_block_set_params  (SlCfgBlock *block, const gchar *text, SlCfgPos start, GError **error);
void         sl_cfg_block_set_body    (SlCfgBlock *block, const gchar *text, SlCfgPos start);
/* A confgen block: a shell command run at each reference, with each
 * argument in the environment as confgen_NAME. */
void         sl_cfg_block_set_program (SlCfgBlock *block, const gchar *command);
/* A generator block: generate makes its text at each reference, any
 * argument being accepted; the file names that text in errors. */
void         sl_cfg_block_set_generator (SlCfgBlock *block, const gchar *file, SlCfgGenerate generate,
                                         gpointer user_data);
/* An argument's value as written; NULL when not given or empty. */
const gchar *sl_cfg_block_args_get    (const SlCfgBlockArgs *args, const gchar *name);

/* The body of a reference `name(args)`, args being the text between its
 * parentheses (backticks already substituted) that begins at args_start;
 * used_at is the reference's name. */
gboolean     sl_cfg_block_expand      (const SlCfgBlock *block, const gchar *args, SlCfgPos args_start,
                                       SlCfgPos used_at, SlCfgLookup lookup, gpointer user_data,
                                       SlCfgExpanded *out, GError **error);
void         sl_cfg_expanded_clear    (SlCfgExpanded *out);

G_END_DECLS

#endif
