/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What grouping-by() and group-lines() share, as syslog-ng's grouping
 * parsers do: messages gather in a context by key() within scope(), on a
 * clock of their own; a context no message came to for timeout() expires
 * and becomes one message, sent on along the path after the parser. */
#ifndef CORRELATION_H
#define CORRELATION_H

#include "core/plugin/plugin.h"
#include "core/plugin/options.h"
#include "core/route/route.h"

G_BEGIN_DECLS

enum { SCOPE_PROCESS, SCOPE_PROGRAM, SCOPE_HOST, SCOPE_GLOBAL };
extern const SlOptionWord correlation_scope_words[];

/* One key's context; a driver's own context starts with it. */
typedef struct
{
  gchar *key;                /* scope's host, program, pid and the session, NUL-separated */
  gsize key_len;
  gchar *session;            /* what key() rendered */
  const gchar *host, *program, *pid;   /* into key, as scope() keeps them */
  gint64 expires;            /* on the correlation clock, seconds */
  SlContinuation *next;      /* where the first message went on from the parser */
} CorrContext;

typedef struct
{
  gsize context_size;                              /* the driver's context, CorrContext first */
  void (*context_clear) (CorrContext *c);          /* frees what the driver keeps in c */
  /* the message an expired context makes, or NULL; may keep its own
   * lock, as it is called without the correlation's */
  SlMessage *(*aggregate) (SlDriver *owner, CorrContext *c);
} CorrClass;

typedef struct
{
  SlDriver *owner;
  const CorrClass *klass;
  gint scope;
  gint64 timeout;            /* seconds */
  GMutex lock;
  gint64 now;                /* the correlation clock, seconds */
  gint64 last_tick;          /* monotonic µs when the timer last moved it */
  GHashTable *contexts;      /* CorrContext (by its key) -> the same */
  GSource *timer;
} Correlation;

void         correlation_init   (Correlation *self, SlDriver *owner, const CorrClass *klass, gint scope,
                                 gint64 timeout_ms);
void         correlation_clear  (Correlation *self);
/* Takes the lock, moves the clock to msg's time (the contexts that
 * expires are taken into *due, an array made for the first of them, for
 * correlation_emit()), and returns the context of session (key()'s value for msg), made when new, its expiry
 * moved on. correlation_leave() gives the lock back. */
CorrContext *correlation_enter  (Correlation *self, const SlMessage *msg, const gchar *session, gsize session_len,
                                 GPtrArray **due);
void         correlation_leave  (Correlation *self);
/* Under the lock: takes c out, for the caller to aggregate and free. */
void         correlation_take   (Correlation *self, CorrContext *c);
void         correlation_context_free (Correlation *self, CorrContext *c);
/* Aggregates each context of due (NULL: none) and sends what it makes on
 * after the parser, inside its process(); frees them. */
void         correlation_emit   (Correlation *self, GPtrArray *due);

G_END_DECLS

#endif
