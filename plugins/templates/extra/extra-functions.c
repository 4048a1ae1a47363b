/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tf-extra module: syslog-ng 3.38's list, text, lookup and
 * correlation-context template functions. */
#include "plugins/templates/extra/extra-private.h"

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "extra-functions",
  .drivers = (const SlDriverClass *const[]) {
    &sl_tf_list_concat_class, &sl_tf_list_append_class, &sl_tf_list_head_class, &sl_tf_list_nth_class,
    &sl_tf_list_tail_class, &sl_tf_list_slice_class, &sl_tf_list_count_class, &sl_tf_implode_class,
    &sl_tf_explode_class, &sl_tf_env_class, &sl_tf_or_class, &sl_tf_url_decode_class, &sl_tf_basename_class,
    &sl_tf_dirname_class, &sl_tf_indent_multi_line_class, &sl_tf_binary_class, &sl_tf_uuid_class,
    &sl_tf_min_class, &sl_tf_max_class, &sl_tf_sum_class, &sl_tf_average_class, &sl_tf_getent_class,
    &sl_tf_context_length_class, &sl_tf_context_values_class, &sl_tf_context_lookup_class, &sl_tf_grep_class,
    NULL,
  },
};
