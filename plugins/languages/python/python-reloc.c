/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslogng.get_installation_path_for(): syslog-ng's ${prefix},
 * ${localstatedir}, ... in a path, as Sluice's own folders. */
#include "python-module.h"
#include "core/config/install-dirs.h"
#include "core/store/persist.h"

static const struct
{
  const gchar *name;
  const gchar *value;
} folders[] = {
  { "${prefix}", PY_PREFIX },
  { "${exec_prefix}", PY_PREFIX },
  { "${libexecdir}", PY_PREFIX "/libexec" },
  { "${datarootdir}", PY_PREFIX "/share" },
  { "${datadir}", PY_PREFIX "/share" },
  { "${pkgdatadir}", PY_PKGDATADIR },
};

/* syslog-ng's localstatedir holds its persist file (and disk buffers):
 * the folder of Sluice's persist file, where its disk buffers go too. */
static gchar *
state_dir (void)
{
  gchar *dir = sl_persist_dir ();
  return dir ? dir : g_strdup (PY_STATEDIR);
}

/* Each known ${name} replaced; an unknown one is kept as written.
 * ${moduledir} is syslog-ng's module-install-dir. */
static PyObject *
get_installation_path_for (PyObject *self, PyObject *args, PyObject *kwargs)
{
  static char *kwlist[] = { "template", NULL };
  const gchar *template;

  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "s", kwlist, &template))
    return NULL;
  GString *path = g_string_new (template);
  g_autofree gchar *state = state_dir ();
  g_string_replace (path, "${localstatedir}", state, 0);
  g_string_replace (path, "${moduledir}", sl_cfg_module_install_dir (), 0);
  for (guint i = 0; i < G_N_ELEMENTS (folders); i++)
    g_string_replace (path, folders[i].name, folders[i].value, 0);
  PyObject *result = PyUnicode_FromStringAndSize (path->str, path->len);
  g_string_free (path, TRUE);
  return result;
}

static PyMethodDef methods[] = {
  { "get_installation_path_for", (PyCFunction) (void (*) (void)) get_installation_path_for,
    METH_VARARGS | METH_KEYWORDS, "resolve syslog-ng's ${prefix}, ${localstatedir}, ... in a path" },
  { NULL }
};

gboolean
py_reloc_add (PyObject *module)
{
  return PyModule_AddFunctions (module, methods) == 0;
}
