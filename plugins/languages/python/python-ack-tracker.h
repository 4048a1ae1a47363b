/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslogng.InstantAckTracker, ConsecutiveAckTracker and BatchedAckTracker:
 * a python() source's bookmarks given back to Python once the messages that
 * carried them were delivered. Each message with a bookmark gets a window
 * of its own whose release (every destination done with it) queues the
 * bookmark for a thread of the plugin's, which calls the callbacks. */
#ifndef PYTHON_ACK_TRACKER_H
#define PYTHON_ACK_TRACKER_H

#include "python-embed.h"
#include "core/message/message.h"
#include "core/message/window.h"

/* What a source counts its messages in flight with, shared with the
 * records of those messages, which may be acknowledged after the source
 * is gone. */
typedef struct _PyFlow PyFlow;

PyFlow   *py_flow_new     (guint size);
void      py_flow_unref   (PyFlow *flow);
/* Waits for a place (without the GIL); FALSE once cancelled. */
gboolean  py_flow_wait    (PyFlow *flow);
void      py_flow_cancel  (PyFlow *flow);

gboolean  py_ack_tracker_check (PyObject *obj);
/* Binds msg, which took a place of flow (py_flow_wait), to a window of its
 * own whose release gives the place back and bookmark to tracker. With the
 * GIL, before msg is posted. */
void      py_ack_tracker_track (PyObject *tracker, PyFlow *flow, PyObject *bookmark, SlMessage *msg);
/* Calls what a batched tracker still holds (at a source's stop). With the GIL. */
void      py_ack_tracker_flush (PyObject *tracker);

gboolean  py_ack_tracker_add (PyObject *module);

#endif
