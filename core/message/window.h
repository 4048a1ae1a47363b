/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlWindow: the flow-control window of one source or connection. */
#ifndef SL_WINDOW_H
#define SL_WINDOW_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlWindow SlWindow;

/* Called on the thread that released, with the window's lock held: it
 * must not block nor call into this window. */
typedef void (*SlWindowNotify) (gpointer data);

SlWindow *sl_window_new     (guint size);
void      sl_window_unref   (SlWindow *w);
/* n references at once, for a batch of messages */
void      sl_window_ref_many   (SlWindow *w, guint n);
void      sl_window_unref_many (SlWindow *w, guint n);
void      sl_window_take    (SlWindow *w, guint n);
void      sl_window_release (SlWindow *w, guint n);
/* Blocks until the window has room or it is cancelled; FALSE when cancelled. */
gboolean  sl_window_wait    (SlWindow *w);
/* Blocks until every message taken is released (acknowledged), the window
 * is cancelled, or end_time (g_get_monotonic_time; -1: none) passes; TRUE
 * when nothing is in flight. For sources that record how far they got
 * only for what was delivered. */
gboolean  sl_window_wait_empty (SlWindow *w, gint64 end_time);
void      sl_window_cancel  (SlWindow *w);
/* For a reader that must not block (one on an I/O worker): notify is
 * called once after each sl_window_arm() that returned TRUE, when the
 * window has room again. NULL stops the calls; once this returns, no call
 * is running. */
void      sl_window_set_notify (SlWindow *w, SlWindowNotify notify, gpointer data);
/* FALSE when the window has room now; TRUE when it is full and notify
 * will be called once it has room. */
gboolean  sl_window_arm     (SlWindow *w);
guint     sl_window_in_flight (SlWindow *w);

G_END_DECLS

#endif
