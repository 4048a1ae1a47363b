/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A python() driver's options() value as the Python object syslog-ng
 * gives init(): under a 4.x configuration a bare number is an int (with
 * syslog-ng's k/M/G, Ki/Mi/Gi suffixes), a bare decimal a float, yes/no,
 * on/off, True/False a bool; a 3.x configuration's are all str, as 3.38
 * gives them. `LogTemplate("...")` is a compiled syslogng.LogTemplate. */
#ifndef PYTHON_OPTIONS_H
#define PYTHON_OPTIONS_H

#include "python-embed.h"
#include "core/config/tree.h"

/* A new reference, or NULL with the exception set. */
PyObject *py_option_value (const SlCfgArg *arg, gboolean typed);

#endif
