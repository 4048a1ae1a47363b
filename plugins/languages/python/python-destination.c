/* SPDX-License-Identifier: GPL-2.0-or-later */
/* python() destination: a class with send(msg), and optionally init,
 * deinit, open, close, is_opened and flush; msg is a LogMessage, or with
 * value-pairs() a dict of the pairs it selects. Each writer (one per
 * workers()) has an instance of its own, whose calls a runner thread of
 * the writer's makes: a writer waits for them, and gives up on a call that
 * has not returned PY_STOP_GRACE_US after the daemon began to stop, so a
 * send() that never returns cannot hold a stop or a reload. */
#include "python-drivers.h"
#include "python-logmsg.h"
#include "python-life.h"
#include "python-logtemplate.h"
#include "python-value.h"
#include "core/config/error.h"
#include "core/route/destination.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/message/value-pairs.h"
#include "core/stats.h"

/* syslog-ng's LogThreadedResult, which send() and flush() return */
enum
{
  RESULT_DROP,
  RESULT_ERROR,
  RESULT_EXPLICIT_ACK_MGMT,
  RESULT_SUCCESS,
  RESULT_QUEUED,
  RESULT_NOT_CONNECTED,
  RESULT_RETRY,
  RESULT_MAX
};

typedef struct
{
  SlDriver super;
  PyDriverBase base;
  PyLife life;
  gint batch_lines;
  const SlCfgNode *value_pairs;
  SlValuePairs *vp;             /* value-pairs(): send() gets a dict */
  PyObject *send;
  PyObject *flush;
  PyObject *is_opened;
  PyObject *open;
  gboolean warned_open_none;
} PyDest;

typedef struct
{
  PyDest *self;
  SlWriteBatch *batch;
  gboolean ok;
  SlWriteResult outcome;
} DestJob;

static const SlOptionSpec py_dest_options[] = {
  PY_DRIVER_OPTIONS (PyDest),
  { "batch-lines", SL_INT (PyDest, batch_lines), "0",
    "flush() after this many messages send() answered QUEUED (0: once per write of flush-lines() messages)" },
  { "value-pairs", SL_BLOCK (PyDest, value_pairs), NULL,
    "send() gets a dict of these name-value pairs instead of a LogMessage: each typed under @version 4, "
    "else an int for an int hint and bytes for the rest" },
  { NULL }
};

static gboolean
py_dest_init (SlDriver *d, GError **error)
{
  PyDest *self = (PyDest *) d;
  if (self->value_pairs
      && !(self->vp = sl_value_pairs_new_from_block (self->value_pairs, d->pos, "python() value-pairs()", 0, NULL,
                                                      error)))
    return FALSE;
  return py_life_init (&self->life, &self->base, d, "python-dest", error);
}

typedef struct
{
  PyObject *dict;
  gboolean typed;
} PairsDict;

/* A pair as syslog-ng's python-value-pairs.c puts it in: a 4.x
 * configuration's typed as LogMessage's values are; 3.38's an int for an
 * integer hint, bytes for the rest. */
static gboolean
add_pair (const gchar *name, SlValueType type, const gchar *value, gsize len, gpointer user_data)
{
  PairsDict *pairs = user_data;
  gboolean integer = type == SL_VALUE_INT32 || type == SL_VALUE_INT64;
  PyObject *v = py_value_from_typed (value, len, pairs->typed || integer ? type : SL_VALUE_STRING);
  if (!v || PyDict_SetItemString (pairs->dict, name, v) < 0)
    PyErr_Clear ();
  Py_XDECREF (v);
  return TRUE;
}

/* What send() gets for msg: a LogMessage, or value-pairs()' dict */
static PyObject *
message_object (PyDest *self, SlMessage *msg)
{
  if (!self->vp)
    return py_logmsg_new (msg, FALSE, self->base.typed_options);
  PairsDict pairs = { PyDict_New (), self->base.typed_options };
  if (pairs.dict)
    sl_value_pairs_foreach (self->vp, msg, sl_driver_template_env (&self->super), SL_VALUE_PAIRS_ASCENDING, add_pair,
                            &pairs);
  return pairs.dict;
}

static void
set_class_constant (PyObject *klass, const gchar *name, glong value)
{
  PyObject *v = PyLong_FromLong (value);
  if (PyObject_SetAttrString (klass, name, v) < 0)
    PyErr_Clear ();
  Py_DECREF (v);
}

/* self.stats_written_bytes_add(n) of syslog-ng 4: n bytes more in the
 * driver's written-bytes counter, the capsule's. */
static PyObject *
written_bytes_add (PyObject *capsule, PyObject *args)
{
  Py_ssize_t n;

  if (!PyArg_ParseTuple (args, "n", &n))
    return NULL;
  sl_counter_add (PyCapsule_GetPointer (capsule, NULL), n);
  Py_RETURN_NONE;
}

static PyMethodDef written_bytes_add_def = {
  "stats_written_bytes_add", written_bytes_add, METH_VARARGS, "count bytes written to the destination's peer",
};

/* What syslog-ng puts on a destination's class before its init(). */
static gboolean
decorate_class (gpointer driver, PyObject *instance)
{
  PyDest *self = driver;
  PyObject *klass = (PyObject *) Py_TYPE (instance);
  static const struct { const gchar *name; glong value; } results[] = {
    { "DROP", RESULT_DROP }, { "ERROR", RESULT_ERROR }, { "SUCCESS", RESULT_SUCCESS },
    { "QUEUED", RESULT_QUEUED }, { "NOT_CONNECTED", RESULT_NOT_CONNECTED }, { "RETRY", RESULT_RETRY },
    { "MAX", RESULT_MAX },
  };
  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    set_class_constant (klass, results[i].name, results[i].value);
  PyObject *options = py_template_options_new (sl_driver_template_env (&self->super));
  if (options && PyObject_SetAttrString (klass, "template_options", options) < 0)
    PyErr_Clear ();
  Py_XDECREF (options);
  PyObject *name = PyUnicode_FromFormat ("python(%s)", self->base.class_name);
  if (name && PyObject_SetAttrString (klass, "persist_name", name) < 0)
    PyErr_Clear ();
  Py_XDECREF (name);
  SlCounter *written = sl_stats_counter ("destination", self->super.id, self->super.klass->name, "written-bytes");
  PyObject *capsule = PyCapsule_New (written, NULL, NULL);
  PyObject *add = capsule ? PyCFunction_New (&written_bytes_add_def, capsule) : NULL;
  if (!add || PyObject_SetAttrString (instance, "stats_written_bytes_add", add) < 0)
    PyErr_Clear ();
  Py_XDECREF (add);
  Py_XDECREF (capsule);
  return TRUE;
}

static PyObject *
optional_attr (PyObject *obj, const gchar *name)
{
  PyObject *attr = PyObject_GetAttrString (obj, name);
  if (!attr)
    PyErr_Clear ();
  return attr;
}

/* The instance, made and init()ed on the runner the first time the writer
 * opens, so that a slow init() holds this destination only. TRUE, FALSE or
 * PY_GAVE_UP. */
static gint
ensure_instance (PyDest *self)
{
  static const gchar *const required[] = { "send", NULL };
  if (self->send)
    return TRUE;
  gint made = py_life_make (&self->life, required, decorate_class, self);
  if (made != TRUE)
    return made;
  PyObject *instance = self->life.instance;
  self->send = optional_attr (instance, "send");
  self->flush = optional_attr (instance, "flush");
  self->is_opened = optional_attr (instance, "is_opened");
  self->open = optional_attr (instance, "open");
  return self->send ? TRUE : FALSE;
}

/* TRUE, FALSE or PY_GAVE_UP. */
static gint
call_bool (PyDest *self, PyCallKind kind, PyObject *func, const gchar *what, gboolean none_is)
{
  PyObject *result;
  if (!py_runner_call (self->life.runner, func, NULL, &result))
    return PY_GAVE_UP;
  if (!result)
    {
      py_driver_log_exception (&self->base, kind, what);
      return FALSE;
    }
  gboolean ok = result == Py_None ? none_is : PyObject_IsTrue (result) == 1;
  Py_DECREF (result);
  return ok;
}

/* TRUE, FALSE or PY_GAVE_UP. */
static gint
invoke_open (PyDest *self)
{
  if (self->open)
    {
      PyObject *result;
      if (!py_runner_call (self->life.runner, self->open, NULL, &result))
        return PY_GAVE_UP;
      if (!result)
        {
          py_driver_log_exception (&self->base, PY_CALL_OPEN, "open()");
          return FALSE;
        }
      gboolean ok = TRUE;
      if (result == Py_None && !self->warned_open_none)
        {
          self->warned_open_none = TRUE;
          sl_log (SL_LOG_WARNING, _("python %s: open() of class '%s' returned None, taken as True as syslog-ng "
                                    "does; return True or False"), self->base.id, self->base.class_name);
        }
      else if (result != Py_None)
        ok = PyObject_IsTrue (result) == 1;
      Py_DECREF (result);
      if (!ok)
        return FALSE;
    }
  return self->is_opened ? call_bool (self, PY_CALL_OPEN, self->is_opened, "is_opened()", FALSE) : TRUE;
}

/* On a writer thread: whether its destination is being stopped. */
static gboolean
writer_stopping (gpointer unused)
{
  return sl_destination_stopping ();
}

static void
open_job (PyRunner *r, gpointer data)
{
  DestJob *job = data;
  PyDest *self = job->self;
  gint made = ensure_instance (self);
  if (made == PY_GAVE_UP)
    return;
  gint opened = made ? invoke_open (self) : FALSE;
  if (opened == PY_GAVE_UP)
    return;
  job->ok = made && opened;
  job->outcome = made ? SL_WRITE_OK : SL_WRITE_ERROR;
}

static gboolean
py_dest_open (SlDriver *d, GError **error)
{
  PyDest *self = (PyDest *) d;
  DestJob job = { self, NULL, FALSE, SL_WRITE_OK };
  if (!py_runner_run (self->life.runner, open_job, &job, writer_stopping, NULL))
    job.outcome = SL_WRITE_NOT_CONNECTED;
  if (!job.ok)
    g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                 job.outcome == SL_WRITE_NOT_CONNECTED ? _("class '%s' did not return from a call in time, given up on")
                 : job.outcome == SL_WRITE_OK ? _("open() of class '%s' failed")
                 : _("class '%s' could not be made and init()ed"),
                 self->base.class_name);
  return job.ok;
}

/* send()'s or flush()'s answer: True/False or one of the result codes. */
static gint
result_code (PyDest *self, PyObject *result)
{
  if (PyBool_Check (result))
    return result == Py_True ? RESULT_SUCCESS : RESULT_ERROR;
  glong code = PyLong_AsLong (result);
  if (code == -1 && PyErr_Occurred ())
    {
      py_driver_log_exception (&self->base, PY_CALL_RESULT, "reading the result of send() or flush()");
      return RESULT_ERROR;
    }
  if (code < 0 || code >= RESULT_MAX || code == RESULT_EXPLICIT_ACK_MGMT)
    {
      if (!(self->base.logged & (1u << PY_CALL_RESULT)))
        sl_log (SL_LOG_ERROR, _("python %s: send() or flush() returned %ld, which is no result code; retrying"),
                self->base.id, code);
      self->base.logged |= 1u << PY_CALL_RESULT;
      return RESULT_ERROR;
    }
  return (gint) code;
}

static gint
call_flush (PyDest *self)
{
  if (!self->flush)
    return RESULT_SUCCESS;
  PyObject *result;
  if (!py_runner_call (self->life.runner, self->flush, NULL, &result))
    return PY_GAVE_UP;
  if (!result)
    {
      py_driver_log_exception (&self->base, PY_CALL_FLUSH, "flush()");
      return RESULT_ERROR;
    }
  gint code = result_code (self, result);
  Py_DECREF (result);
  return code;
}

/* What send() or flush() answered, as the write's result and reason. */
static SlWriteResult
write_result (PyDest *self, SlWriteBatch *batch, gint code)
{
  switch (code)
    {
    case RESULT_NOT_CONNECTED:
      return sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, _("class '%s' answered NOT_CONNECTED"),
                                  self->base.class_name);
    case RESULT_RETRY:
      return sl_write_batch_fail (batch, SL_WRITE_RETRY, 0, _("class '%s' answered RETRY"), self->base.class_name);
    default:
      return sl_write_batch_fail (batch, SL_WRITE_ERROR, 0, _("class '%s' answered ERROR or raised an exception"),
                                  self->base.class_name);
    }
}

/* A message send() QUEUED is done only once a flush() after it succeeded,
 * so what a failed flush() held is given back to be sent again, as
 * syslog-ng rewinds a batch. */
static void
write_job (PyRunner *r, gpointer data)
{
  DestJob *job = data;
  PyDest *self = job->self;
  SlWriteBatch *batch = job->batch;
  guint queued = 0;
  gint code = RESULT_SUCCESS;

  job->outcome = SL_WRITE_OK;
  for (guint i = 0; i < batch->n; i++)
    {
      if (self->is_opened)
        {
          gint opened = call_bool (self, PY_CALL_OPEN, self->is_opened, "is_opened()", FALSE);
          if (opened == FALSE)
            opened = invoke_open (self);
          if (opened == PY_GAVE_UP)
            return;
          if (!opened)
            {
              job->outcome = sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, _("open() of class '%s' failed"),
                                                  self->base.class_name);
              return;
            }
        }
      PyObject *msg = message_object (self, batch->msgs[i]);
      PyObject *result;
      gboolean ours = py_runner_call (r, self->send, msg, &result);
      Py_DECREF (msg);
      if (!ours)
        return;
      if (!result)
        {
          py_driver_log_exception (&self->base, PY_CALL_SEND, "send()");
          code = RESULT_ERROR;
        }
      else
        {
          code = result_code (self, result);
          Py_DECREF (result);
        }
      if (code == RESULT_QUEUED && self->batch_lines > 0 && ++queued >= (guint) self->batch_lines)
        {
          code = call_flush (self);
          queued = 0;
        }
      switch (code)
        {
        case PY_GAVE_UP:
          return;
        case RESULT_QUEUED:
          queued++;
          continue;
        case RESULT_SUCCESS:
          batch->done = i + 1;
          queued = 0;
          continue;
        case RESULT_DROP:
          batch->done = i + 1;
          batch->dropped++;
          queued = 0;
          continue;
        default:
          job->outcome = write_result (self, batch, code);
          return;
        }
    }
  if (!queued)
    return;
  code = call_flush (self);
  if (code == PY_GAVE_UP)
    return;
  if (code == RESULT_SUCCESS || code == RESULT_QUEUED)
    batch->done = batch->n;
  else if (code != RESULT_DROP)
    job->outcome = write_result (self, batch, code);
  else
    {
      batch->dropped += batch->n - batch->done;
      batch->done = batch->n;
    }
}

/* The runner sets batch->done only while the writer waits; once given up
 * on, what it delivered so far counts and the rest waits for the next
 * open, which is refused: the core's stop counts it. */
static SlWriteResult
py_dest_write (SlDriver *d, SlWriteBatch *batch)
{
  PyDest *self = (PyDest *) d;
  DestJob job = { self, batch, TRUE, SL_WRITE_OK };
  if (!py_runner_run (self->life.runner, write_job, &job, writer_stopping, NULL))
    {
      sl_log (SL_LOG_ERROR, _("python %s: a call of class '%s' did not return within %d s of the stop; "
                              "given up on, %u messages of its batch not delivered"),
              self->base.id, self->base.class_name, (gint) (PY_STOP_GRACE_US / G_USEC_PER_SEC),
              batch->n - MIN (batch->done, batch->n));
      return SL_WRITE_NOT_CONNECTED;
    }
  return job.outcome;
}

static void
close_job (PyRunner *r, gpointer data)
{
  PyDest *self = ((DestJob *) data)->self;
  if (!self->send)
    return;
  if (self->is_opened)
    {
      gint opened = call_bool (self, PY_CALL_CLOSE, self->is_opened, "is_opened()", FALSE);
      if (opened != TRUE)
        return;
    }
  PyObject *result;
  if (py_life_call (&self->life, self->life.instance, PY_CALL_CLOSE, "close", NULL, &result))
    Py_XDECREF (result);
}

static void
py_dest_close (SlDriver *d)
{
  PyDest *self = (PyDest *) d;
  DestJob job = { self, NULL, TRUE, SL_WRITE_OK };
  py_runner_run (self->life.runner, close_job, &job, writer_stopping, NULL);
}

/* deinit() gets PY_STOP_GRACE_US too; a runner given up on keeps its own
 * references and ends when its call returns. */
static void
py_dest_free (SlDriver *d)
{
  PyDest *self = (PyDest *) d;
  py_life_free (&self->life);
  if (self->vp)
    sl_value_pairs_free (self->vp);
  if (!self->send)
    return;
  PyGILState_STATE gil = PyGILState_Ensure ();
  Py_CLEAR (self->send);
  Py_CLEAR (self->flush);
  Py_CLEAR (self->is_opened);
  Py_CLEAR (self->open);
  PyGILState_Release (gil);
}

static const SlDestinationOps py_dest_ops = {
  .open = py_dest_open,
  .write = py_dest_write,
  .close = py_dest_close,
};

const SlDriverClass py_destination_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "python",
  .summary = "messages to send() of a Python class, syslog-ng's python() destination",
  .options = py_dest_options,
  .capabilities = SL_CAP_TEMPLATES | SL_CAP_WORKERS | SL_CAP_BATCHES | SL_CAP_DISK_BUFFER,
  .instance_size = sizeof (PyDest),
  .init = py_dest_init,
  .free = py_dest_free,
  .ops.destination = &py_dest_ops,
};
