/* SPDX-License-Identifier: GPL-2.0-or-later */
/* value-pairs() of amqp() and stomp(): the name-value pairs syslog-ng
 * sends with each message (AMQP headers, STOMP frame headers). The block
 * is read into the arguments of $(format-flat-json), which already selects
 * pairs as syslog-ng's value-pairs does (scopes, globs, rekeys, pairs), so
 * the selection has one implementation; its JSON is read back into flat
 * names and string values. */
#ifndef VP_HEADERS_H
#define VP_HEADERS_H

#include "core/config/tree.h"
#include "core/message/template.h"

G_BEGIN_DECLS

typedef struct _VpHeaders VpHeaders;

/* One pair: both are valid only during the call. */
typedef void (*VpHeaderFunc) (const gchar *name, const gchar *value, gpointer user_data);

/* block: the driver's value-pairs() (NULL: syslog-ng's default scopes,
 * selected-macros, nv-pairs and sdata); owner names the driver in errors,
 * which carry the position of the option at fault. */
VpHeaders *vp_headers_new     (const SlCfgNode *block, SlCfgPos driver_pos, const gchar *owner, GError **error);
/* Calls func for each pair of msg, names in the order syslog-ng gives
 * them (sorted); returns how many. */
guint      vp_headers_foreach (VpHeaders *vp, const SlMessage *msg, const SlTemplateEnv *env,
                               VpHeaderFunc func, gpointer user_data);
void       vp_headers_free    (VpHeaders *vp);

G_END_DECLS

#endif
