/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The drivers of the grouping plugin, for its module descriptor. */
#ifndef GROUPING_PRIVATE_H
#define GROUPING_PRIVATE_H

#include "core/plugin/plugin.h"

G_BEGIN_DECLS

extern const SlDriverClass grouping_by_class;
extern const SlDriverClass group_lines_class;

G_END_DECLS

#endif
