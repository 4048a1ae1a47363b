/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the files of the extra template functions: their classes, for
 * the module list, and syslog-ng's list text (list-scanner, str-repr). */
#ifndef EXTRA_PRIVATE_H
#define EXTRA_PRIVATE_H

#include <glib.h>
#include "core/plugin/plugin.h"
#include "core/message/list-text.h"
#include "core/message/template.h"

G_BEGIN_DECLS

extern const SlDriverClass tf_list_concat_class;
extern const SlDriverClass tf_list_append_class;
extern const SlDriverClass tf_list_head_class;
extern const SlDriverClass tf_list_nth_class;
extern const SlDriverClass tf_list_tail_class;
extern const SlDriverClass tf_list_slice_class;
extern const SlDriverClass tf_list_count_class;
extern const SlDriverClass tf_list_search_class;
extern const SlDriverClass tf_implode_class;
extern const SlDriverClass tf_explode_class;
extern const SlDriverClass tf_env_class;
extern const SlDriverClass tf_or_class;
extern const SlDriverClass tf_url_decode_class;
extern const SlDriverClass tf_basename_class;
extern const SlDriverClass tf_dirname_class;
extern const SlDriverClass tf_indent_multi_line_class;
extern const SlDriverClass tf_binary_class;
extern const SlDriverClass tf_uuid_class;
extern const SlDriverClass tf_min_class;
extern const SlDriverClass tf_max_class;
extern const SlDriverClass tf_sum_class;
extern const SlDriverClass tf_average_class;
extern const SlDriverClass tf_getent_class;
extern const SlDriverClass tf_context_length_class;
extern const SlDriverClass tf_context_values_class;
extern const SlDriverClass tf_context_lookup_class;
extern const SlDriverClass tf_grep_class;

/* A buffer of the calling thread, one per nesting level; released in
 * the order taken. */
GString *tf_extra_scratch_acquire (void);
void     tf_extra_scratch_release (void);

G_END_DECLS

#endif
