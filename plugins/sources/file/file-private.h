/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The drivers of the file plugin, for its module descriptor. */
#ifndef SL_FILE_PRIVATE_H
#define SL_FILE_PRIVATE_H

#include "core/plugin.h"

G_BEGIN_DECLS

extern const SlDriverClass sl_file_source_class;
extern const SlDriverClass sl_pipe_source_class;
extern const SlDriverClass sl_stdin_source_class;
extern const SlDriverClass sl_wildcard_file_source_class;

G_END_DECLS

#endif
