/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tap points: the places of the pipeline where sluicectl tap looks, one
 * per named source, parser, rewrite and destination. Untapped, a point
 * costs one relaxed load where messages pass it; a tap attached sees each
 * message there, on the thread that passes it. */
#ifndef SL_TAP_H
#define SL_TAP_H

#include <glib.h>
#include "core/message/message.h"

G_BEGIN_DECLS

/* Called for each message passing the point, on that message's thread:
 * it must not keep msg nor block. */
typedef void (*SlTapFunc) (const SlMessage *msg, gpointer user_data);

typedef struct _SlTapPoint SlTapPoint;
struct _SlTapPoint
{
  gpointer attached;         /* what sl_tap_attach() set, or NULL; read relaxed */
  gchar *kind;
  gchar *name;
};

/* The point of kind ("source", "parser", "rewrite", "destination") and
 * name: the same arguments give the same point, kept for the life of the
 * process (as counters are), so a tap outlives a reload that keeps the
 * name. */
SlTapPoint *sl_tap_point  (const gchar *kind, const gchar *name);
/* FALSE when another tap is attached there. */
gboolean    sl_tap_attach (SlTapPoint *point, SlTapFunc func, gpointer user_data);
/* Once it returns, func is not running for this point and will not be
 * called again. */
void        sl_tap_detach (SlTapPoint *point);

void        sl_tap_offer  (SlTapPoint *point, const SlMessage *msg);

static inline void
sl_tap_pass (SlTapPoint *point, const SlMessage *msg)
{
  if (G_UNLIKELY (__atomic_load_n (&point->attached, __ATOMIC_RELAXED)))
    sl_tap_offer (point, msg);
}

static inline gboolean
sl_tap_attached (SlTapPoint *point)
{
  return G_UNLIKELY (__atomic_load_n (&point->attached, __ATOMIC_RELAXED) != NULL);
}

G_END_DECLS

#endif
