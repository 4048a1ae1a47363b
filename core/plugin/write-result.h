/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What a destination's write() answers: how many messages it handled, what
 * becomes of the rest, and why they were not written. The core alone logs
 * a destination's failure, once as it begins and with the reason the
 * driver gave, and its recovery once; a driver keeps no flag of its own. */
#ifndef SL_WRITE_RESULT_H
#define SL_WRITE_RESULT_H

#include <glib.h>
#include "core/message/message.h"

G_BEGIN_DECLS

/* What a destination's write() says of the messages it did not take. */
typedef enum
{
  SL_WRITE_OK,             /* all were handled */
  SL_WRITE_RETRY,          /* a passing failure: the rest is kept and retried after time-reopen() */
  SL_WRITE_NOT_CONNECTED,  /* the peer is gone: closed, opened again after time-reopen(), the rest kept */
  SL_WRITE_DROP,           /* the rest can never be written: dropped and counted */
  SL_WRITE_ERROR,          /* the first of the rest failed: retried after time-reopen(),
                            * dropped and counted after three failures in a row */
} SlWriteResult;

#define SL_WRITE_REASON_MAX 256

/* One call of a destination's write(): msgs[0..n). The driver sets done to
 * how many, from the first, it handled, and counts in dropped those of them
 * it dropped on purpose (a path it may not write to); msgs[done..n) is what
 * the result speaks of, and reason why (sl_write_batch_fail()).
 *
 * A driver of SL_CAP_ANSWERS (its peer answers later) reads done as "sent":
 * msgs[0..done) are in flight, and the core keeps them, holding their
 * sources' windows, until they are answered. In answered it reports how
 * many of its messages in flight, oldest first (those of earlier calls,
 * then these), were answered since its last call, and counts in dropped
 * those of them it dropped on purpose; only they are written, counted and
 * released, in the order they were accepted. The core calls write() with
 * n == 0 when it has nothing new to send but messages are in flight (or
 * max-in-flight() of them are): the driver then waits, as long as its peer
 * may take, for at least one answer, as it does when its own window is
 * full. SL_WRITE_OK with done < n puts msgs[done..n) back in front of the
 * queue, to come again in the next call. Any other result gives back every
 * message not answered, in flight or not sent: the driver lets go of them
 * (its session is over), and the core sends them again, in order, once the
 * driver can write again. */
typedef struct
{
  SlMessage *const *msgs;
  guint n;
  guint done;
  guint dropped;
  gint error;                        /* an errno value, or 0 */
  gchar reason[SL_WRITE_REASON_MAX]; /* empty: none given */
  guint answered;                    /* SL_CAP_ANSWERS: settled since the last call */
} SlWriteBatch;

/* Says why msgs[done..n) were not written, in a few words a reader of the
 * log acts on ("connection refused by 10.0.0.1:5672", "server answered
 * 503"); err, when not 0, is added as its text and kept in batch->error.
 * Returns result, so that a write() ends with
 * `return sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, errno, ...)`. */
SlWriteResult sl_write_batch_fail (SlWriteBatch *batch, SlWriteResult result, gint err,
                                   const gchar *format, ...) G_GNUC_PRINTF (4, 5);

G_END_DECLS

#endif
