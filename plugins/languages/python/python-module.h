/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The _syslogng extension module: the types of syslog-ng's Python API,
 * which the syslogng package (pylib/syslogng) re-exports. */
#ifndef PYTHON_MODULE_H
#define PYTHON_MODULE_H

#include "python-embed.h"

/* Before Py_InitializeEx: makes _syslogng importable. */
void      py_module_register (void);
/* After it, with the GIL: whatever needs a running interpreter. */
void      py_module_ready (void);

/* The parts, each in a file of its own; each adds its types to module. */
gboolean  py_logmsg_add      (PyObject *module);
gboolean  py_logtemplate_add (PyObject *module);
gboolean  py_logger_add      (PyObject *module);
gboolean  py_logsource_add   (PyObject *module);
gboolean  py_persist_add     (PyObject *module);
gboolean  py_reloc_add       (PyObject *module);
gboolean  py_confgen_add     (PyObject *module);

#endif
