/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "python-ack-tracker.h"
#include <string.h>

struct _PyFlow
{
  gint ref_count;
  GMutex lock;
  GCond room;
  guint in_flight;
  guint size;
  gboolean cancelled;
};

typedef enum { TRACK_INSTANT, TRACK_CONSECUTIVE, TRACK_BATCHED } TrackKind;

typedef struct
{
  PyObject_HEAD
  TrackKind kind;
  PyObject *callback;
  guint64 next_seq;        /* consecutive: the sequence number of the next posted record */
  guint64 acked_up_to;     /* consecutive: every record before this was given back */
  GHashTable *acked;       /* consecutive: seq -> bookmark acknowledged out of order */
  guint timeout_ms;        /* batched */
  guint batch_size;
  PyObject *pending;       /* batched: list of bookmarks */
  gint64 first_pending_at;
} PyAckTracker;

typedef struct
{
  SlWindow *window;
  PyFlow *flow;
  PyAckTracker *tracker;
  PyObject *bookmark;
  guint64 seq;
} AckRecord;

static GAsyncQueue *acked_records;
static GThread *acker;
/* batched trackers with bookmarks pending; touched with the GIL */
static GPtrArray *batched;

PyFlow *
py_flow_new (guint size)
{
  PyFlow *flow = g_new0 (PyFlow, 1);
  flow->ref_count = 1;
  flow->size = MAX (size, 1);
  g_mutex_init (&flow->lock);
  g_cond_init (&flow->room);
  return flow;
}

void
py_flow_unref (PyFlow *flow)
{
  if (!g_atomic_int_dec_and_test (&flow->ref_count))
    return;
  g_mutex_clear (&flow->lock);
  g_cond_clear (&flow->room);
  g_free (flow);
}

gboolean
py_flow_wait (PyFlow *flow)
{
  g_mutex_lock (&flow->lock);
  while (flow->in_flight >= flow->size && !flow->cancelled)
    g_cond_wait (&flow->room, &flow->lock);
  gboolean ok = !flow->cancelled;
  if (ok)
    flow->in_flight++;
  g_mutex_unlock (&flow->lock);
  return ok;
}

void
py_flow_cancel (PyFlow *flow)
{
  g_mutex_lock (&flow->lock);
  flow->cancelled = TRUE;
  g_cond_broadcast (&flow->room);
  g_mutex_unlock (&flow->lock);
}

static void
flow_release (PyFlow *flow)
{
  g_mutex_lock (&flow->lock);
  flow->in_flight--;
  g_cond_signal (&flow->room);
  g_mutex_unlock (&flow->lock);
}

static void
call_back (PyAckTracker *tracker, PyObject *arg)
{
  PyObject *result = PyObject_CallOneArg (tracker->callback, arg);
  if (!result)
    {
      PyErr_Print ();
      PyErr_Clear ();
    }
  Py_XDECREF (result);
}

static void
flush_batch (PyAckTracker *t)
{
  if (!t->pending || PyList_GET_SIZE (t->pending) == 0)
    return;
  PyObject *batch = t->pending;
  t->pending = PyList_New (0);
  call_back (t, batch);
  Py_DECREF (batch);
  g_ptr_array_remove (batched, t);
}

/* Consecutive: the bookmark of the last of the run of acknowledged records
 * that starts at the oldest one not given back yet. */
static void
ack_consecutive (PyAckTracker *t, AckRecord *r)
{
  g_hash_table_insert (t->acked, GSIZE_TO_POINTER (r->seq + 1), Py_NewRef (r->bookmark));
  PyObject *last = NULL;
  PyObject *bookmark;
  while ((bookmark = g_hash_table_lookup (t->acked, GSIZE_TO_POINTER (t->acked_up_to + 1))))
    {
      g_hash_table_steal (t->acked, GSIZE_TO_POINTER (t->acked_up_to + 1));
      Py_XSETREF (last, bookmark);
      t->acked_up_to++;
    }
  if (last)
    call_back (t, last);
  Py_XDECREF (last);
}

static void
handle_ack (AckRecord *r)
{
  PyAckTracker *t = r->tracker;
  switch (t->kind)
    {
    case TRACK_INSTANT:
      call_back (t, r->bookmark);
      break;
    case TRACK_CONSECUTIVE:
      ack_consecutive (t, r);
      break;
    case TRACK_BATCHED:
      if (PyList_GET_SIZE (t->pending) == 0)
        {
          t->first_pending_at = g_get_monotonic_time ();
          g_ptr_array_add (batched, t);
        }
      PyList_Append (t->pending, r->bookmark);
      if ((guint) PyList_GET_SIZE (t->pending) >= t->batch_size)
        flush_batch (t);
      break;
    }
}

static void
flush_due_batches (void)
{
  gint64 now = g_get_monotonic_time ();
  for (guint i = batched->len; i > 0; i--)
    {
      PyAckTracker *t = g_ptr_array_index (batched, i - 1);
      if (now - t->first_pending_at >= (gint64) t->timeout_ms * 1000)
        flush_batch (t);
    }
}

static gpointer
acker_thread (gpointer unused)
{
  for (;;)
    {
      AckRecord *r = g_async_queue_timeout_pop (acked_records, 100 * 1000);
      PyGILState_STATE gil = PyGILState_Ensure ();
      if (r)
        {
          handle_ack (r);
          Py_DECREF (r->bookmark);
          Py_DECREF ((PyObject *) r->tracker);
        }
      flush_due_batches ();
      PyGILState_Release (gil);
      if (r)
        {
          sl_window_unref (r->window);
          py_flow_unref (r->flow);
          g_free (r);
        }
    }
  return NULL;
}

/* On the thread that acknowledged, with the window's lock held. */
static void
record_released (gpointer data)
{
  AckRecord *r = data;
  flow_release (r->flow);
  g_async_queue_push (acked_records, r);
}

void
py_ack_tracker_track (PyObject *tracker, PyFlow *flow, PyObject *bookmark, SlMessage *msg)
{
  PyAckTracker *t = (PyAckTracker *) tracker;
  AckRecord *r = g_new0 (AckRecord, 1);

  if (!acker)
    acker = g_thread_new ("python-acks", acker_thread, NULL);
  r->window = sl_window_new (1);
  g_atomic_int_inc (&flow->ref_count);
  r->flow = flow;
  r->tracker = (PyAckTracker *) Py_NewRef (tracker);
  r->bookmark = Py_NewRef (bookmark);
  r->seq = t->next_seq++;
  sl_window_set_notify (r->window, record_released, r);
  sl_message_bind_window (msg, r->window);
  /* full with its one message: released means delivered */
  sl_window_arm (r->window);
}

void
py_ack_tracker_flush (PyObject *tracker)
{
  PyAckTracker *t = (PyAckTracker *) tracker;
  if (t->kind == TRACK_BATCHED)
    flush_batch (t);
}

static PyObject *
tracker_new (PyTypeObject *type, TrackKind kind, PyObject *callback)
{
  if (!PyCallable_Check (callback))
    return PyErr_Format (PyExc_TypeError, "A callable object is expected (ack_callback)");
  PyAckTracker *self = (PyAckTracker *) type->tp_alloc (type, 0);
  if (!self)
    return NULL;
  self->kind = kind;
  self->callback = Py_NewRef (callback);
  self->acked = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->pending = PyList_New (0);
  return (PyObject *) self;
}

static PyObject *
instant_new (PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
  static char *kwlist[] = { "ack_callback", NULL };
  PyObject *callback;
  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "O", kwlist, &callback))
    return NULL;
  return tracker_new (type, TRACK_INSTANT, callback);
}

static PyObject *
consecutive_new (PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
  static char *kwlist[] = { "ack_callback", NULL };
  PyObject *callback;
  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "O", kwlist, &callback))
    return NULL;
  return tracker_new (type, TRACK_CONSECUTIVE, callback);
}

static PyObject *
batched_new (PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
  static char *kwlist[] = { "timeout", "batch_size", "batched_ack_callback", NULL };
  unsigned int timeout, batch_size;
  PyObject *callback;
  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "IIO", kwlist, &timeout, &batch_size, &callback))
    return NULL;
  PyAckTracker *self = (PyAckTracker *) tracker_new (type, TRACK_BATCHED, callback);
  if (self)
    {
      self->timeout_ms = timeout;
      self->batch_size = MAX (batch_size, 1);
    }
  return (PyObject *) self;
}

static void
tracker_dealloc (PyAckTracker *self)
{
  Py_CLEAR (self->callback);
  Py_CLEAR (self->pending);
  GHashTableIter iter;
  gpointer value;
  g_hash_table_iter_init (&iter, self->acked);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    Py_DECREF ((PyObject *) value);
  g_hash_table_unref (self->acked);
  Py_TYPE (self)->tp_free ((PyObject *) self);
}

static PyTypeObject tracker_type = {
  PyVarObject_HEAD_INIT (NULL, 0)
  .tp_name = "_syslogng.AckTracker",
  .tp_basicsize = sizeof (PyAckTracker),
  .tp_dealloc = (destructor) tracker_dealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
  .tp_doc = "gives a source's bookmarks back once their messages were delivered",
};

#define TRACKER_TYPE(cname, pyname, ctor, doc) \
  static PyTypeObject cname = { \
    PyVarObject_HEAD_INIT (NULL, 0) \
    .tp_name = "_syslogng." pyname, \
    .tp_basicsize = sizeof (PyAckTracker), \
    .tp_dealloc = (destructor) tracker_dealloc, \
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, \
    .tp_doc = doc, \
    .tp_new = ctor, \
  }

TRACKER_TYPE (instant_type, "InstantAckTracker", instant_new, "ack_callback(bookmark) for each delivered message");
TRACKER_TYPE (consecutive_type, "ConsecutiveAckTracker", consecutive_new,
              "ack_callback(bookmark) of the last of the delivered messages, in the order they were posted");
TRACKER_TYPE (batched_type, "BatchedAckTracker", batched_new,
              "batched_ack_callback([bookmark, ...]) every batch_size delivered messages or timeout ms");

gboolean
py_ack_tracker_check (PyObject *obj)
{
  return PyObject_TypeCheck (obj, &tracker_type);
}

gboolean
py_ack_tracker_add (PyObject *module)
{
  acked_records = g_async_queue_new ();
  batched = g_ptr_array_new ();
  if (PyType_Ready (&tracker_type) < 0)
    return FALSE;
  PyTypeObject *types[] = { &instant_type, &consecutive_type, &batched_type };
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      types[i]->tp_base = &tracker_type;
      if (PyType_Ready (types[i]) < 0)
        return FALSE;
      Py_INCREF (types[i]);
      if (PyModule_AddObject (module, types[i]->tp_name + strlen ("_syslogng."), (PyObject *) types[i]) < 0)
        return FALSE;
    }
  Py_INCREF (&tracker_type);
  return PyModule_AddObject (module, "AckTracker", (PyObject *) &tracker_type) == 0;
}
