/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A filter expression written as text, compiled outside any configuration
 * block: what a template function such as $(if ("${LEVEL_NUM}" < 4) ...)
 * holds. The same language as a filter {} body: and, or, not, parentheses,
 * comparisons and filter functions; filter(name) references are not
 * available, since no configuration's named filters are in reach. */
#ifndef SL_TEXT_FILTER_H
#define SL_TEXT_FILTER_H

#include <glib.h>
#include "core/message/message.h"

G_BEGIN_DECLS

typedef struct _SlTextFilter SlTextFilter;

/* name says where the text came from in error messages, as a file would. */
SlTextFilter *sl_text_filter_compile (const gchar *text, const gchar *name, GError **error);
/* Safe to call from several threads at once. */
gboolean      sl_text_filter_eval    (const SlTextFilter *filter, const SlMessage *msg);
void          sl_text_filter_free    (SlTextFilter *filter);

G_END_DECLS

#endif
