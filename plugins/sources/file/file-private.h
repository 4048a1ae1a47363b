/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The drivers of the file plugin, for its module descriptor. */
#ifndef FILE_PRIVATE_H
#define FILE_PRIVATE_H

#include "core/plugin/plugin.h"

G_BEGIN_DECLS

extern const SlDriverClass file_source_class;
extern const SlDriverClass pipe_source_class;
extern const SlDriverClass stdin_source_class;
extern const SlDriverClass wildcard_file_source_class;

G_END_DECLS

#endif
