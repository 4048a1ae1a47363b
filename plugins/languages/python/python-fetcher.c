/* SPDX-License-Identifier: GPL-2.0-or-later */
/* python-fetcher(): a LogFetcher class whose fetch() is called on a thread
 * of the source's own, again and again, as syslog-ng's threaded fetcher
 * calls it: SUCCESS posts the message and fetches again, TRY_AGAIN fetches
 * again, NO_DATA waits fetch-no-data-delay(), ERROR waits time-reopen(),
 * NOT_CONNECTED closes, waits time-reopen() and opens. Posted messages take
 * the source's window: a full window holds fetch() until destinations
 * acknowledge (flow control). */
#include "python-drivers.h"
#include "python-life.h"
#include "python-logmsg.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/route/source.h"
#include "core/message/window.h"

enum
{
  FETCH_ERROR,
  FETCH_NOT_CONNECTED,
  FETCH_SUCCESS,
  FETCH_TRY_AGAIN,
  FETCH_NO_DATA,
};

typedef struct
{
  SlDriver super;
  PyDriverBase base;
  PyLife life;
  gint64 no_data_delay_ms;
  gint64 time_reopen_ms;
  SlSource *source;
  SlWindow *window;
  GThread *thread;
  GMutex lock;
  GCond wake;
  gboolean stopping;
  PyObject *fetch;
  gboolean opened;
  PyObject *parse_options;
} PyFetcher;

static const SlOptionSpec py_fetcher_options[] = {
  PY_DRIVER_OPTIONS (PyFetcher),
  { "fetch-no-data-delay", SL_DURATION (PyFetcher, no_data_delay_ms), "1",
    "how long to wait after fetch() returned FETCH_NO_DATA" },
  { "time-reopen", SL_DURATION (PyFetcher, time_reopen_ms), "60",
    "how long to wait after FETCH_ERROR or FETCH_NOT_CONNECTED, or a failed init() or open()",
    .inherit = "time-reopen" },
  { NULL }
};

static gboolean
py_fetcher_init (SlDriver *d, GError **error)
{
  PyFetcher *self = (PyFetcher *) d;
  g_mutex_init (&self->lock);
  g_cond_init (&self->wake);
  return py_life_init (&self->life, &self->base, d, "python-fetcher", error);
}

/* Waits ms unless stopped; FALSE when stopping. */
static gboolean
nap (PyFetcher *self, gint64 ms)
{
  gint64 until = g_get_monotonic_time () + ms * 1000;
  g_mutex_lock (&self->lock);
  while (!self->stopping && g_get_monotonic_time () < until)
    g_cond_wait_until (&self->wake, &self->lock, until);
  gboolean go_on = !self->stopping;
  g_mutex_unlock (&self->lock);
  return go_on;
}

static gboolean
stopping (PyFetcher *self)
{
  g_mutex_lock (&self->lock);
  gboolean s = self->stopping;
  g_mutex_unlock (&self->lock);
  return s;
}

typedef struct
{
  PyFetcher *self;
  gboolean ok;
  gint code;
} FetchJob;

/* The instance made, init()ed and open()ed: job->ok. */
static void
open_job (PyRunner *r, gpointer data)
{
  FetchJob *job = data;
  PyFetcher *self = job->self;
  PyObject *result;

  if (!self->fetch)
    {
      static const gchar *const required[] = { "fetch", NULL };
      gint made = py_life_make (&self->life, required, NULL, NULL);
      if (made == PY_GAVE_UP)
        return;
      if (!made)
        {
          sl_log (SL_LOG_ERROR, _("python-fetcher %s: class '%s' is not ready; trying again after time-reopen()"),
                  self->base.id, self->base.class_name);
          return;
        }
      self->fetch = PyObject_GetAttrString (self->life.instance, "fetch");
      /* as syslog-ng, once init() returned */
      self->parse_options = py_parse_options_new (self->source);
      if (PyObject_SetAttrString (self->life.instance, "parse_options", self->parse_options) < 0)
        PyErr_Clear ();
    }
  if (!self->opened)
    {
      if (!py_life_call (&self->life, self->life.instance, PY_CALL_OPEN, "open", NULL, &result))
        return;
      self->opened = PyObject_HasAttrString (self->life.instance, "open") ? result && PyObject_IsTrue (result) == 1 : TRUE;
      Py_XDECREF (result);
    }
  job->ok = self->opened;
}

static void
close_job (PyRunner *r, gpointer data)
{
  PyFetcher *self = ((FetchJob *) data)->self;
  PyObject *result;
  if (!self->opened || !py_life_call (&self->life, self->life.instance, PY_CALL_CLOSE, "close", NULL, &result))
    return;
  Py_XDECREF (result);
  self->opened = FALSE;
}

static void
post_fetched (PyFetcher *self, PyLogMessage *fetched)
{
  SlMessage *msg = py_logmsg_for_source (fetched, self->source);
  sl_message_bind_window (msg, self->window);
  sl_source_post (self->source, &msg, 1);
}

/* One fetch(): job->code, the message posted. */
static void
fetch_job (PyRunner *r, gpointer data)
{
  FetchJob *job = data;
  PyFetcher *self = job->self;
  PyObject *result;

  if (!py_runner_call (r, self->fetch, NULL, &result))
    return;
  job->code = FETCH_ERROR;
  if (!result)
    {
      py_driver_log_exception (&self->base, PY_CALL_FETCH, "fetch()");
      return;
    }
  PyObject *first = PyTuple_Check (result) && PyTuple_GET_SIZE (result) >= 1 && PyTuple_GET_SIZE (result) <= 2
                    ? PyTuple_GET_ITEM (result, 0) : NULL;
  glong value = first && PyLong_Check (first) ? PyLong_AsLong (first) : -1;
  if (value >= FETCH_ERROR && value <= FETCH_NO_DATA)
    job->code = (gint) value;
  else
    first = NULL;
  if (first && job->code == FETCH_SUCCESS)
    {
      PyObject *msg = PyTuple_GET_SIZE (result) == 2 ? PyTuple_GET_ITEM (result, 1) : NULL;
      if (msg && py_logmsg_check (msg))
        post_fetched (self, (PyLogMessage *) msg);
      else
        first = NULL;
    }
  if (!first)
    {
      if (!(self->base.logged & (1u << PY_CALL_RESULT)))
        sl_log (SL_LOG_ERROR, _("python-fetcher %s: fetch() must return a tuple (FetchResult, LogMessage)"),
                self->base.id);
      self->base.logged |= 1u << PY_CALL_RESULT;
      job->code = FETCH_ERROR;
    }
  PyErr_Clear ();
  Py_DECREF (result);
  if (job->code == FETCH_NOT_CONNECTED)
    close_job (r, job);
}

static gboolean
fetcher_stopping (gpointer data)
{
  return stopping (data);
}

/* Calls Python only through the runner, so that a fetch() that does not
 * return holds the stop for PY_STOP_GRACE_US at most. */
static gpointer
fetcher_thread (gpointer data)
{
  PyFetcher *self = data;
  FetchJob job = { self, FALSE, FETCH_SUCCESS };

  while (!stopping (self))
    {
      job.ok = FALSE;
      if (!py_runner_run (self->life.runner, open_job, &job, fetcher_stopping, self))
        break;
      if (!job.ok)
        {
          nap (self, self->time_reopen_ms);
          continue;
        }
      if (!sl_window_wait (self->window))
        break;
      if (!py_runner_run (self->life.runner, fetch_job, &job, fetcher_stopping, self))
        break;
      if (job.code == FETCH_NO_DATA)
        nap (self, self->no_data_delay_ms);
      else if (job.code == FETCH_ERROR || job.code == FETCH_NOT_CONNECTED)
        nap (self, self->time_reopen_ms);
    }
  if (py_runner_given_up (self->life.runner))
    sl_log (SL_LOG_ERROR, _("python-fetcher %s: a call of class '%s' did not return within %d s of the stop; "
                            "given up on"), self->base.id, self->base.class_name,
            (gint) (PY_STOP_GRACE_US / G_USEC_PER_SEC));
  else
    py_runner_run (self->life.runner, close_job, &job, fetcher_stopping, self);
  return NULL;
}

static gboolean
py_fetcher_start (SlDriver *d, SlSource *source, GError **error)
{
  PyFetcher *self = (PyFetcher *) d;
  self->source = source;
  self->window = sl_source_new_window (source);
  self->stopping = FALSE;
  self->thread = g_thread_new ("python-fetcher", fetcher_thread, self);
  return TRUE;
}

/* request_exit() lets a fetch() that waits on something return early. */
static void
py_fetcher_stop (SlDriver *d)
{
  PyFetcher *self = (PyFetcher *) d;
  if (!self->thread)
    return;
  g_mutex_lock (&self->lock);
  self->stopping = TRUE;
  g_cond_broadcast (&self->wake);
  g_mutex_unlock (&self->lock);
  sl_window_cancel (self->window);
  PyGILState_STATE gil = PyGILState_Ensure ();
  PyObject *result;
  if (self->life.instance)
    py_call_optional (&self->base, PY_CALL_CLOSE, self->life.instance, "request_exit", NULL, &result);
  else
    result = NULL;
  Py_XDECREF (result);
  PyGILState_Release (gil);
  g_thread_join (self->thread);
  gil = PyGILState_Ensure ();
  if (self->parse_options)
    py_parse_options_clear (self->parse_options);
  PyGILState_Release (gil);
  self->thread = NULL;
  sl_window_unref (self->window);
  self->window = NULL;
}

static void
py_fetcher_free (SlDriver *d)
{
  PyFetcher *self = (PyFetcher *) d;
  py_life_free (&self->life);
  if (self->fetch)
    {
      PyGILState_STATE gil = PyGILState_Ensure ();
      Py_CLEAR (self->fetch);
      Py_CLEAR (self->parse_options);
      PyGILState_Release (gil);
    }
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->wake);
}

static const SlSourceOps py_fetcher_ops = {
  .start = py_fetcher_start,
  .stop = py_fetcher_stop,
};

const SlDriverClass py_fetcher_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "python-fetcher",
  .summary = "messages a Python LogFetcher's fetch() returns, syslog-ng's python-fetcher()",
  .options = py_fetcher_options,
  .capabilities = SL_CAP_PARSES,
  .instance_size = sizeof (PyFetcher),
  .init = py_fetcher_init,
  .free = py_fetcher_free,
  .ops.source = &py_fetcher_ops,
};
