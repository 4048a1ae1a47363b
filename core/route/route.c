/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/route/route.h"
#include "core/route/route-private.h"
#include "core/compile/config-private.h"
#include "core/route/path.h"
#include "core/plugin/plugin.h"
#include "core/message/scratch.h"
#include "core/message/macros.h"
#include "core/message/template.h"

/* Each destination collects what a batch sends it, and receives it with
 * one queue lock at the end. A batch mostly goes to the destination the
 * message before went to: that one is found without a lookup. */
typedef struct
{
  SlDestination *d;
  SlQueueItem *items;
  guint n;
  guint cap;
  gboolean lapsing;          /* without flags(flow-control), messages hold their window until d stalls */
} Share;

/* What a batch hands one partition of a parallelize(): pushed at its end,
 * so that a partition's lock is taken once a batch, as syslog-ng 4.8
 * hands over what an input thread collected. */
typedef struct
{
  SlScheduler *scheduler;
  guint partition;
  GPtrArray *items;             /* HandedOff */
} Handoff;

typedef struct
{
  GHashTable *by_destination;   /* SlDestination -> Share */
  GPtrArray *order;             /* Share, in first-use order */
  Share *last;
  GArray *handoffs;             /* Handoff; NULL until a parallelize() is met */
} Batch;

#define BATCH_INIT { g_hash_table_new (NULL, NULL), g_ptr_array_new (), NULL, NULL }

static Share *
batch_share (Batch *b, SlDestination *d)
{
  if (b->last && b->last->d == d)
    return b->last;
  Share *share = g_hash_table_lookup (b->by_destination, d);
  if (!share)
    {
      share = g_new (Share, 1);
      *share = (Share) { d, g_new (SlQueueItem, 64), 0, 64, sl_destination_holds_lapse (d) };
      g_hash_table_insert (b->by_destination, d, share);
      g_ptr_array_add (b->order, share);
    }
  return b->last = share;
}

static void
batch_add (Batch *b, SlDestination *d, SlMessage *msg, gboolean flow)
{
  Share *share = batch_share (b, d);
  if (share->n == share->cap)
    {
      share->cap *= 2;
      share->items = g_renew (SlQueueItem, share->items, share->cap);
    }
  SlQueueItem item = { sl_message_ref (msg), FALSE, FALSE };
  if (flow)
    {
      sl_message_ack_hold (msg);
      item.flow_controlled = TRUE;
    }
  else if (share->lapsing && sl_message_ack_hold (msg))
    item.flow_controlled = item.lapsing = TRUE;
  share->items[share->n++] = item;
}

/* Where the message a junction's channel let through goes on: the steps
 * after the junction in the path that holds it. */
typedef struct _Resume Resume;
struct _Resume
{
  SlPath *path;
  guint next;
  gboolean flow;
  Resume *up;
  gboolean reached;          /* a channel's message got to the end of path */
};

static gboolean run_siblings (GPtrArray *paths, gboolean flow, SlMessage *msg, Resume *up, Batch *b, gboolean owned,
                              guint heir);
static gboolean run_steps (SlPath *path, guint from, gboolean flow, SlMessage *msg, Resume *up, Batch *b,
                           gboolean owned);

/* Where an emitting parser stands while its process() runs: what
 * sl_parser_emit() routes through and sl_parser_continuation() copies. */
typedef struct _Emitting Emitting;
struct _Emitting
{
  SlPath *path;
  guint next;
  Resume *up;
  Batch *b;
  Emitting *outer;           /* an emitted message that reached another emitting parser */
};

static __thread Emitting *emitting;

/* A continuation as kept: the same chain as Resume, on the heap. */
struct _SlContinuation
{
  SlPath *path;
  guint next;
  gboolean flow;
  SlContinuation *up;
};

static gboolean
process_emitting (SlStep *s, SlPath *path, guint i, Resume *up, Batch *b, SlMessage **msg)
{
  Emitting here = { path, i + 1, up, b, emitting };
  emitting = &here;
  gboolean matched = s->process (s->processor, msg);
  emitting = here.outer;
  return matched;
}

/* An emitted message holds no flow-control window: no sender waits on
 * it, not even the one of a message it was copied from (an aggregate
 * that inherits the last message of its context). */
static void
detach_from_source (SlMessage *msg)
{
  g_clear_pointer (&msg->ack_root, sl_message_unref);
  msg->window = NULL;
}

void
sl_parser_emit (SlMessage *msg)
{
  if (G_UNLIKELY (!emitting))
    {
      sl_message_unref (msg);
      g_return_if_reached ();
    }
  detach_from_source (msg);
  run_steps (emitting->path, emitting->next, FALSE, msg, emitting->up, emitting->b, FALSE);
  sl_message_unref (msg);
}

/* The chain of up, on the heap. */
static SlContinuation *
continuation_from (const Resume *up)
{
  SlContinuation *first = NULL, **last = &first;
  for (const Resume *r = up; r; r = r->up)
    {
      *last = g_new0 (SlContinuation, 1);
      (*last)->path = r->path;
      (*last)->next = r->next;
      (*last)->flow = r->flow;
      last = &(*last)->up;
    }
  return first;
}

SlContinuation *
sl_parser_continuation (void)
{
  g_return_val_if_fail (emitting != NULL, NULL);
  SlContinuation *first = g_new0 (SlContinuation, 1);
  first->path = emitting->path;
  first->next = emitting->next;
  first->up = continuation_from (emitting->up);
  return first;
}

void
sl_continuation_free (SlContinuation *k)
{
  while (k)
    {
      SlContinuation *up = k->up;
      g_free (k);
      k = up;
    }
}

static Resume *
resume_from (const SlContinuation *k)
{
  if (!k)
    return NULL;
  Resume *r = g_new0 (Resume, 1);
  r->path = k->path;
  r->next = k->next;
  r->flow = k->flow;
  r->up = resume_from (k->up);
  return r;
}

static void
resume_free (Resume *up)
{
  while (up)
    {
      Resume *next = up->up;
      g_free (up);
      up = next;
    }
}

static void batch_push (Batch *b);

/* A message on its way to a partition: where it goes on from. */
typedef struct
{
  SlMessage *msg;
  SlContinuation rest;
} HandedOff;

static guint
partition_of (const SlStep *s, const SlMessage *msg)
{
  if (!s->partition_key)
    return sl_scheduler_next (s->scheduler);
  static GPrivate key = SL_SCRATCH_INIT;
  GString *text = sl_scratch_get (&key);
  sl_template_append (s->partition_key, msg, &sl_template_env_default, text);
  return sl_scheduler_partition_of (s->scheduler, text->str, text->len);
}

/* The message goes on from path's step next on a partition of s; its
 * source's window waits for it there (released in sl_route_handed_off()). */
static void
hand_off (Batch *b, const SlStep *s, SlPath *path, guint next, gboolean flow, SlMessage *msg, const Resume *up)
{
  HandedOff *h = g_new (HandedOff, 1);
  h->msg = sl_message_ref (msg);
  sl_message_ack_hold (msg);
  h->rest = (SlContinuation) { path, next, flow, continuation_from (up) };
  guint partition = partition_of (s, msg);
  if (!b->handoffs)
    b->handoffs = g_array_new (FALSE, FALSE, sizeof (Handoff));
  Handoff *to = NULL;
  for (guint i = 0; i < b->handoffs->len && !to; i++)
    {
      Handoff *o = &g_array_index (b->handoffs, Handoff, i);
      if (o->scheduler == s->scheduler && o->partition == partition)
        to = o;
    }
  if (!to)
    {
      Handoff fresh = { s->scheduler, partition, g_ptr_array_new () };
      g_array_append_val (b->handoffs, fresh);
      to = &g_array_index (b->handoffs, Handoff, b->handoffs->len - 1);
    }
  g_ptr_array_add (to->items, h);
}

/* The end of routing a message the source handed over: the source's own
 * hold on its window ends, and its reference. */
static void
release_owned (SlMessage *msg)
{
  sl_message_ack (msg);
  sl_message_unref (msg);
}

static void
release (SlMessage *msg, gboolean owned)
{
  if (owned)
    release_owned (msg);
  else
    sl_message_unref (msg);
}

/* Runs path's steps from `from` on its own reference to msg, then the rest
 * of the paths around it (up). TRUE when the message matched path: passed
 * all its filters and parsers (through at least one channel of a junction),
 * or passed the condition of an if-branch. owned: the reference is the
 * source's, handed over because nothing runs on msg after this path, so
 * that a parser changes it in place instead of copying it. */
static gboolean
run_steps (SlPath *path, guint from, gboolean flow, SlMessage *msg, Resume *up, Batch *b, gboolean owned)
{
  if (!owned)
    msg = sl_message_ref (msg);
  gboolean matched = TRUE;
  guint i;
  for (i = from; matched && i < path->steps->len; i++)
    {
      SlStep *s = &g_array_index (path->steps, SlStep, i);
      switch (s->kind)
        {
        case SL_STEP_FILTER:
          matched = sl_filter_expr_eval (s->filter, &msg);
          break;
        case SL_STEP_PROCESS:
          matched = s->process (s->processor, &msg);
          if (matched && s->tap)
            sl_tap_pass (s->tap, msg);
          break;
        case SL_STEP_PROCESS_EMITTING:
          matched = process_emitting (s, path, i, up, b, &msg);
          if (matched && s->tap)
            sl_tap_pass (s->tap, msg);
          break;
        case SL_STEP_DESTINATION:
          sl_tap_pass (s->tap, msg);
          batch_add (b, s->destination, msg, flow);
          break;
        case SL_STEP_PATHS:
          run_siblings (s->paths, flow, msg, NULL, b, FALSE, G_MAXUINT);
          break;
        case SL_STEP_JUNCTION:
          {
            Resume rest = { path, i + 1, flow, up, FALSE };
            run_siblings (s->paths, flow, msg, &rest, b, FALSE, G_MAXUINT);
            release (msg, owned);
            return rest.reached || (path->conditional && i > 0);
          }
        case SL_STEP_PARALLELIZE:
          /* what the rest does is not known here: as in syslog-ng 4.8, the
           * message counts as matched by this path and those around it */
          hand_off (b, s, path, i + 1, flow, msg, up);
          for (Resume *r = up; r; r = r->up)
            r->reached = TRUE;
          release (msg, owned);
          return TRUE;
        }
    }
  if (matched && up && run_steps (up->path, up->next, up->flow, msg, up->up, b, FALSE))
    up->reached = TRUE;
  release (msg, owned);
  /* i is one past the step that dropped the message */
  return matched || (path->conditional && i > 1);
}

/* The path that runs last when none is a fallback path, which may run
 * after all the others or not at all; G_MAXUINT when there is none. */
static guint
last_to_run (GPtrArray *paths)
{
  for (guint i = 0; i < paths->len; i++)
    if (((SlPath *) g_ptr_array_index (paths, i))->fallback)
      return G_MAXUINT;
  return paths->len ? paths->len - 1 : G_MAXUINT;
}

/* owned: msg is the source's, and path heir (last_to_run()) takes it over
 * (release_owned() when none does). */
static gboolean
run_siblings (GPtrArray *paths, gboolean flow, SlMessage *msg, Resume *up, Batch *b, gboolean owned, guint heir)
{
  gboolean any = FALSE;
  for (gint pass = 0; pass < 2; pass++)
    {
      /* pass 0 runs the ordinary paths, pass 1 the fallback ones, and only
       * when no ordinary path matched */
      if (pass == 1 && any)
        break;
      for (guint i = 0; i < paths->len; i++)
        {
          SlPath *p = g_ptr_array_index (paths, i);
          if (p->fallback != (pass == 1))
            continue;
          if (run_steps (p, 0, flow || p->flow_control, msg, up, b, i == heir))
            {
              if (p->matched)
                sl_counter_add (p->matched, 1);
              any = TRUE;
              if (p->final)
                {
                  if (owned && i != heir)
                    release_owned (msg);
                  return TRUE;
                }
            }
        }
    }
  if (owned && heir == G_MAXUINT)
    release_owned (msg);
  return any;
}

/* Each destination receives what the batch collected for it, each
 * partition what it was handed (or, when its scheduler does not run, the
 * caller routes it on itself), and the batch is done. */
static void
batch_push (Batch *b)
{
  for (guint i = 0; i < b->order->len; i++)
    {
      Share *share = g_ptr_array_index (b->order, i);
      sl_destination_push (share->d, share->items, share->n);
      g_free (share->items);
      g_free (share);
    }
  g_hash_table_unref (b->by_destination);
  g_ptr_array_unref (b->order);
  for (guint i = 0; b->handoffs && i < b->handoffs->len; i++)
    {
      Handoff *h = &g_array_index (b->handoffs, Handoff, i);
      if (!sl_scheduler_push (h->scheduler, h->partition, h->items->pdata, h->items->len))
        sl_route_handed_off (h->items->pdata, h->items->len, NULL);
      g_ptr_array_unref (h->items);
    }
  if (b->handoffs)
    g_array_unref (b->handoffs);
}

/* A partition routes what it took in pieces of this many, as a reader
 * posts them: its destinations start writing, and its sources' windows
 * open, while it goes on with the rest. */
#define HANDED_OFF_BATCH 256

void
sl_route_handed_off (gpointer *items, guint n, gpointer unused)
{
  for (guint from = 0; from < n; from += HANDED_OFF_BATCH)
    {
      guint to = MIN (n, from + HANDED_OFF_BATCH);
      Batch b = BATCH_INIT;
      for (guint i = from; i < to; i++)
        {
          HandedOff *h = items[i];
          Resume *up = resume_from (h->rest.up);
          run_steps (h->rest.path, h->rest.next, h->rest.flow, h->msg, up, &b, FALSE);
          resume_free (up);
        }
      batch_push (&b);
      for (guint i = from; i < to; i++)
        {
          HandedOff *h = items[i];
          sl_message_ack (h->msg);
          sl_message_unref (h->msg);
          sl_continuation_free (h->rest.up);
          g_free (h);
        }
    }
}

void
sl_route (GPtrArray *paths, SlMessage **msgs, guint n)
{
  Batch b = BATCH_INIT;
  guint heir = last_to_run (paths);
  for (guint i = 0; i < n; i++)
    run_siblings (paths, FALSE, msgs[i], NULL, &b, TRUE, heir);
  batch_push (&b);
}

/* On the main thread, which starts and stops configurations: k points
 * into paths that live as long as self's configuration, and its
 * destinations take messages while it runs. */
gboolean
sl_parser_emit_later (SlDriver *self, const SlContinuation *k, SlMessage *msg)
{
  if (!k || !self->cfg->started)
    {
      sl_message_unref (msg);
      return FALSE;
    }
  detach_from_source (msg);
  Batch b = BATCH_INIT;
  Resume *up = resume_from (k->up);
  run_steps (k->path, k->next, FALSE, msg, up, &b, FALSE);
  sl_message_unref (msg);
  resume_free (up);
  batch_push (&b);
  return TRUE;
}
