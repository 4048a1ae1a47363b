/* SPDX-License-Identifier: GPL-2.0-or-later */
/* riemann()'s attributes(): syslog-ng's value-pairs options, turned into a
 * $(format-flat-json ...) call, so the selection, rekeying and pairs are
 * the ones format-json() makes; each selected name-value pair becomes an
 * attribute of the event. */
#ifndef RIEMANN_ATTRIBUTES_H
#define RIEMANN_ATTRIBUTES_H

#include "core/config/tree.h"
#include "core/message/template.h"

#include <riemann/event.h>

G_BEGIN_DECLS

/* The template for the attributes() block node, which never selects the
 * names the event has fields for (host, service, ...); NULL and error set
 * (at the block's position) when an option is not one of value-pairs'. */
SlTemplate *riemann_attributes_compile (const SlCfgNode *node, GError **error);
/* Adds to event an attribute for each pair of json, the rendered template;
 * FALSE when json is not an object. */
gboolean    riemann_attributes_add     (riemann_event_t *event, const gchar *json, gsize len);

G_END_DECLS

#endif
