/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The reference of every loaded driver and option, from their tables:
 * doc/reference.md and the body of sluice.conf(5). */
#ifndef SL_REFERENCE_H
#define SL_REFERENCE_H

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  SL_REFERENCE_MARKDOWN,
  SL_REFERENCE_MANPAGE,   /* roff sections, to go inside a page's .TH */
} SlReferenceFormat;

gchar *sl_reference_render (SlReferenceFormat format);

G_END_DECLS

#endif
