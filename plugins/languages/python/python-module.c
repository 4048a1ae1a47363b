/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "python-module.h"
#include "python-ack-tracker.h"

static struct PyModuleDef module_def = {
  PyModuleDef_HEAD_INIT,
  .m_name = "_syslogng",
  .m_doc = "Sluice's implementation of syslog-ng's Python API",
  .m_size = -1,
};

static PyObject *
module_init (void)
{
  PyObject *module = PyModule_Create (&module_def);

  if (!module)
    return NULL;
  if (!py_logmsg_add (module) || !py_logtemplate_add (module) || !py_logger_add (module)
      || !py_logsource_add (module) || !py_persist_add (module) || !py_ack_tracker_add (module)
      || !py_reloc_add (module) || !py_confgen_add (module))
    {
      Py_DECREF (module);
      return NULL;
    }
  return module;
}

void
py_module_register (void)
{
  PyImport_AppendInittab ("_syslogng", module_init);
}

void
py_module_ready (void)
{
  PyObject *module = PyImport_ImportModule ("_syslogng");
  Py_XDECREF (module);
  if (!module)
    PyErr_Print ();
}
