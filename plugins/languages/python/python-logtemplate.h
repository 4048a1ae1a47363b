/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslogng.LogTemplate, LogTemplateException, LTZ_LOCAL and LTZ_SEND, and
 * the template_options a destination's class gets. */
#ifndef PYTHON_LOGTEMPLATE_H
#define PYTHON_LOGTEMPLATE_H

#include "python-embed.h"
#include "core/message/template.h"

/* A new reference: a copy of env as a LogTemplateOptions object. */
PyObject *py_template_options_new (const SlTemplateEnv *env);

#endif
