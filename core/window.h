/* SlWindow: the flow-control window of one source or connection. */
#ifndef SL_WINDOW_H
#define SL_WINDOW_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlWindow SlWindow;

SlWindow *sl_window_new     (guint size);
SlWindow *sl_window_ref     (SlWindow *w);
void      sl_window_unref   (SlWindow *w);
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
guint     sl_window_in_flight (SlWindow *w);

G_END_DECLS

#endif
