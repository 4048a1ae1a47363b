/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "python-runner.h"

struct _PyRunner
{
  gint ref_count;
  GMutex lock;
  GCond cond;
  GThread *thread;
  PyRunnerJob func;        /* the job waiting or running, or NULL */
  gpointer job;
  gboolean running;
  gboolean finished;
  gboolean given_up;
  gboolean quit;
};

static void
runner_unref (PyRunner *r)
{
  if (!g_atomic_int_dec_and_test (&r->ref_count))
    return;
  g_mutex_clear (&r->lock);
  g_cond_clear (&r->cond);
  g_free (r);
}

static gpointer
runner_thread (gpointer data)
{
  PyRunner *r = data;

  g_mutex_lock (&r->lock);
  for (;;)
    {
      while (!r->func && !r->quit && !r->given_up)
        g_cond_wait (&r->cond, &r->lock);
      if (r->given_up || (r->quit && !r->func))
        break;
      PyRunnerJob func = r->func;
      r->running = TRUE;
      g_mutex_unlock (&r->lock);
      PyGILState_STATE gil = PyGILState_Ensure ();
      g_mutex_lock (&r->lock);
      if (!r->given_up)
        func (r, r->job);
      /* a job that found the runner given up returned without the lock */
      if (!r->given_up)
        {
          r->func = NULL;
          r->running = FALSE;
          r->finished = TRUE;
          g_cond_broadcast (&r->cond);
          g_mutex_unlock (&r->lock);
        }
      else
        g_mutex_unlock (&r->lock);
      PyErr_Clear ();
      PyGILState_Release (gil);
      g_mutex_lock (&r->lock);
    }
  g_mutex_unlock (&r->lock);
  runner_unref (r);
  return NULL;
}

PyRunner *
py_runner_new (const gchar *name)
{
  PyRunner *r = g_new0 (PyRunner, 1);
  r->ref_count = 2;
  g_mutex_init (&r->lock);
  g_cond_init (&r->cond);
  r->thread = g_thread_new (name, runner_thread, r);
  return r;
}

gboolean
py_runner_run (PyRunner *r, PyRunnerJob func, gpointer job, PyRunnerStopping stopping, gpointer stopping_data)
{
  gint64 stop_seen = 0;

  g_mutex_lock (&r->lock);
  if (r->given_up)
    {
      g_mutex_unlock (&r->lock);
      return FALSE;
    }
  r->func = func;
  r->job = job;
  r->finished = FALSE;
  g_cond_broadcast (&r->cond);
  while (!r->finished)
    {
      g_cond_wait_until (&r->cond, &r->lock, g_get_monotonic_time () + G_USEC_PER_SEC);
      if (r->finished || !stopping || !stopping (stopping_data))
        continue;
      gint64 now = g_get_monotonic_time ();
      if (!stop_seen)
        stop_seen = now;
      else if (now - stop_seen >= PY_STOP_GRACE_US)
        {
          r->given_up = TRUE;
          g_cond_broadcast (&r->cond);
          break;
        }
    }
  gboolean ok = !r->given_up;
  g_mutex_unlock (&r->lock);
  return ok;
}

gboolean
py_runner_given_up (PyRunner *r)
{
  g_mutex_lock (&r->lock);
  gboolean given_up = r->given_up;
  g_mutex_unlock (&r->lock);
  return given_up;
}

void
py_runner_pause (PyRunner *r)
{
  g_mutex_unlock (&r->lock);
}

gboolean
py_runner_resume (PyRunner *r)
{
  g_mutex_lock (&r->lock);
  return !r->given_up;
}

void
py_runner_free (PyRunner *r)
{
  g_mutex_lock (&r->lock);
  gboolean given_up = r->given_up;
  r->quit = TRUE;
  g_cond_broadcast (&r->cond);
  g_mutex_unlock (&r->lock);
  if (given_up)
    g_thread_unref (r->thread);
  else
    g_thread_join (r->thread);
  runner_unref (r);
}

gboolean
py_runner_call (PyRunner *r, PyObject *callable, PyObject *arg, PyObject **result)
{
  Py_INCREF (callable);
  Py_XINCREF (arg);
  py_runner_pause (r);
  *result = arg ? PyObject_CallOneArg (callable, arg) : PyObject_CallNoArgs (callable);
  Py_DECREF (callable);
  Py_XDECREF (arg);
  if (py_runner_resume (r))
    return TRUE;
  Py_CLEAR (*result);
  PyErr_Clear ();
  return FALSE;
}
