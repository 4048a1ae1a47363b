/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's configuration language as a second front end of the loader:
 * it makes the same tree (tree.h) the syslog-ng grammar makes, so every
 * driver, filter and flag serves both. See doc/rsyslog.md. */
#ifndef SL_CFG_RSYSLOG_H
#define SL_CFG_RSYSLOG_H

#include <glib.h>
#include "core/config/tree.h"

G_BEGIN_DECLS

/* A whole rsyslog configuration: a root node "config" as
 * sl_cfg_parse_file() returns, or NULL with *error set. */
SlCfgNode *sl_cfg_rsyslog_parse_file (const gchar *path, GError **error);
/* @include-rsyslog: the files of pattern (a path or a glob; relative to the
 * folder of from's file) read into root, their rules taking the messages
 * of every source defined before, and of the files' own inputs. */
gboolean   sl_cfg_rsyslog_include    (SlCfgNode *root, const gchar *pattern, SlCfgPos from, GError **error);
/* Whether text reads as rsyslog's language, or as syslog-ng's, by lines
 * only one of them has: for telling a user which language a file is in. */
gboolean   sl_cfg_rsyslog_looks_like (const gchar *text);
/* Makes the parser (config/parser.h) read rsyslog's language through this
 * front end: --config-format rsyslog, @include-rsyslog, and the sentence
 * for a file in the wrong language. */
void       sl_cfg_rsyslog_register   (void);

G_END_DECLS

#endif
