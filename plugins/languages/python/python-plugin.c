/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The python plugin: syslog-ng 3.38's python() drivers on one embedded
 * CPython interpreter. */
#include "python-drivers.h"

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "python",
  .drivers = (const SlDriverClass *const[]) {
    &py_destination_class, &py_parser_class, &py_fetcher_class, &py_source_class, &py_template_function_class, NULL,
  },
};
