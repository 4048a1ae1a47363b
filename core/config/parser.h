/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reads configuration text into the generic tree: pragmas, includes,
 * defines and backtick substitution are resolved here. */
#ifndef SL_CFG_PARSER_H
#define SL_CFG_PARSER_H

#include <glib.h>
#include "core/config/tree.h"

G_BEGIN_DECLS

/* Returns a root node named "config" whose children are the top-level
 * statements in order, or NULL with *error set. The "@version" value is
 * kept as the root's first argument when given. */
SlCfgNode *sl_cfg_parse_file   (const gchar *path, GError **error);

typedef enum
{
  SL_CFG_LANGUAGE_SLUICE,   /* syslog-ng's */
  SL_CFG_LANGUAGE_RSYSLOG,  /* rsyslog's: daemon/rsyslog/rsyslog.h */
} SlCfgLanguage;

/* The language sl_cfg_parse_file() reads from now on (sluiced's
 * --config-format); every configuration after, reloads too. */
void       sl_cfg_set_language (SlCfgLanguage language);
/* rsyslog's language, which its front end (sluiced's, daemon/rsyslog/rsyslog.h) registers
 * with sl_cfg_rsyslog_register(): the parser sits below that front end,
 * which builds on it, and reaches it only through these. */
typedef struct
{
  SlCfgNode *(*parse_file) (const gchar *path, GError **error);   /* SL_CFG_LANGUAGE_RSYSLOG */
  gboolean   (*include)    (SlCfgNode *root, const gchar *pattern, SlCfgPos from, GError **error);
  gboolean   (*looks_like) (const gchar *text);
} SlCfgFrontEnd;
void       sl_cfg_set_rsyslog_front_end (const SlCfgFrontEnd *front_end);
/* Whether text has lines only syslog-ng's language has (@version, a
 * source/destination/filter/log/options block): telling a user which
 * language a file is in. */
gboolean   sl_cfg_syslog_ng_looks_like (const gchar *text);
SlCfgNode *sl_cfg_parse_string (const gchar *text, const gchar *name, GError **error);
/* A test file of sluiced --test: `test "NAME" { ITEM(...); ... };`
 * statements in the same language, each a node "test" whose first
 * argument is its name and whose children are its items. */
SlCfgNode *sl_cfg_parse_tests  (const gchar *path, GError **error);
/* One filter expression and nothing after it, as the body of a filter {}
 * holds: the tree of tree.h without a surrounding statement. */
SlCfgNode *sl_cfg_parse_filter_expr (const gchar *text, const gchar *name, GError **error);

/* The folders a relative @include is looked for in after the including
 * file's own (':'-separated; NULL: the default), and the module path the
 * `module-path` define names. For every configuration parsed after. */
void       sl_cfg_set_paths    (const gchar *include_path, const gchar *module_path);
/* Sluice's include folder, then syslog-ng's where it is installed. */
gchar     *sl_cfg_default_include_path (void);

G_END_DECLS

#endif
