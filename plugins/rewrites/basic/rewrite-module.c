/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The rewrite rules of syslog-ng that change one field, tag or priority:
 * set(), unset(), groupset(), groupunset(), subst(), set-tag(), clear-tag(),
 * set-facility(), set-severity() and set-pri(). Each takes condition(). */
#include "plugins/rewrites/basic/rewrite-rule.h"

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "rewrite-basic",
  .drivers = (const SlDriverClass *const[]) {
    &rewrite_set_class, &rewrite_unset_class, &rewrite_groupunset_class, &rewrite_groupset_class, &rewrite_subst_class,
    &rewrite_set_tag_class, &rewrite_clear_tag_class,
    &rewrite_set_facility_class, &rewrite_set_severity_class, &rewrite_set_pri_class,
    NULL,
  },
};
