/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The driver classes of the python plugin. */
#ifndef PYTHON_DRIVERS_H
#define PYTHON_DRIVERS_H

#include "python-interp.h"

extern const SlDriverClass py_destination_class;
extern const SlDriverClass py_parser_class;
extern const SlDriverClass py_fetcher_class;
extern const SlDriverClass py_source_class;
extern const SlDriverClass py_template_function_class;

#endif
