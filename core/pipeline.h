/* Log paths compiled into a graph, and the routing of messages through it. */
#ifndef SL_PIPELINE_H
#define SL_PIPELINE_H

#include "core/config-private.h"
#include "core/source-private.h"

G_BEGIN_DECLS

/* Compiles every top-level log {} of cfg->tree into cfg->paths and tells
 * each source which paths take it. */
gboolean sl_pipeline_compile (SlConfig *cfg, GError **error);
void     sl_path_free        (SlPath *path);
/* Sends msgs[0..n) of src down its paths; destinations receive one batch
 * each. Gives up the caller's references. */
void     sl_pipeline_route   (SlSource *src, SlMessage **msgs, guint n);

G_END_DECLS

#endif
