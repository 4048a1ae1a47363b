/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* syslog-ng's application model: `application NAME[TOPIC] { filter {...};
 * parser {...}; };` definitions, and the app-parser() generator that sends
 * a message through the first of a topic's applications whose filter
 * matches, as syslog-ng 3.38's appmodel module does. */
#ifndef SL_CFG_APPMODEL_H
#define SL_CFG_APPMODEL_H

#include <glib.h>
#include "core/config/block.h"

G_BEGIN_DECLS

typedef struct _SlCfgAppModel SlCfgAppModel;

SlCfgAppModel *sl_cfg_app_model_new      (void);
void           sl_cfg_app_model_free     (SlCfgAppModel *model);
/* filter and parser are the texts inside their braces, or NULL. An
 * application of topic "*" lends its filter and parser to the ones of its
 * name that lack them. A name and topic defined again replace the one
 * before and move to the end. */
void           sl_cfg_app_model_add      (SlCfgAppModel *model, const gchar *name, const gchar *topic,
                                          const gchar *filter, const gchar *parser);
/* app-parser(topic(T) [auto-parse(yes|no)] [auto-parse-include(...)]
 * [auto-parse-exclude(...)]): an SlCfgGenerate over the model. */
gboolean       sl_cfg_app_model_generate (gpointer model, const SlCfgBlockArgs *args, SlCfgPos used_at,
                                          GString *out, GError **error);

G_END_DECLS

#endif
