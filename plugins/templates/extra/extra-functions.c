/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tf-extra module: syslog-ng 3.38's list, text, lookup and
 * correlation-context template functions. */
#include "plugins/templates/extra/extra-private.h"

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "extra-functions",
  .drivers = (const SlDriverClass *const[]) {
    &tf_list_concat_class, &tf_list_append_class, &tf_list_head_class, &tf_list_nth_class,
    &tf_list_tail_class, &tf_list_slice_class, &tf_list_count_class, &tf_list_search_class, &tf_implode_class,
    &tf_explode_class, &tf_env_class, &tf_or_class, &tf_url_decode_class, &tf_basename_class,
    &tf_dirname_class, &tf_indent_multi_line_class, &tf_binary_class, &tf_uuid_class,
    &tf_min_class, &tf_max_class, &tf_sum_class, &tf_average_class, &tf_getent_class,
    &tf_context_length_class, &tf_context_values_class, &tf_context_lookup_class, &tf_grep_class,
    NULL,
  },
};
