/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What chooses the records of a message in add-contextual-data(): the
 * rendered selector("TEMPLATE") itself, the first selector of the database
 * that is a glob matching selector(glob("TEMPLATE")), or the first whose
 * filter of selector(filters("FILE")) matches. */
#ifndef CONTEXT_SELECTOR_H
#define CONTEXT_SELECTOR_H

#include "plugins/parsers/add-contextual-data/context-db.h"
#include "core/config/tree.h"

typedef struct _ContextSelector ContextSelector;

/* node is the selector() option; base_dir where a relative filters()
 * file is looked for first. db gives the order of globs and filters. */
ContextSelector *context_selector_new     (const SlCfgNode *node, const ContextDb *db, const gchar *base_dir,
                                           GError **error);
void             context_selector_free    (ContextSelector *selector);
/* The selector of msg, or NULL when none matches; a rendered template is
 * copied into buffer, which stays the caller's. */
const gchar     *context_selector_resolve (const ContextSelector *selector, const SlMessage *msg,
                                           GString *buffer);

#endif
