/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "otel-listener.h"
#include "otel-tls-front.h"
#include "core/io/admission.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

struct _OtelListener
{
  OtelSource *source;
  SlTlsContext *tls;
  OtelServeFunc serve;
  gpointer serve_data;
  gint listen_fd;
  gint stop_fd;              /* an eventfd: the accepting thread and every connection wake on it */
  gint closed_fd;            /* an eventfd: a connection ended, so there may be room for another */
  GThread *acceptor;
  GMutex lock;
  GList *connections;        /* Connection, each with a thread */
  guint open;
  SlAdmission *admission;    /* NULL: the serve function reports no activity */
};

struct _OtelActivity
{
  OtelListener *listener;
  SlAdmitFacts facts;        /* under the listener's lock */
};

typedef struct
{
  OtelListener *listener;
  gint fd;                   /* the listener's until the connection left: shut down to evict it */
  struct sockaddr_storage peer;
  socklen_t peer_len;
  gchar *peer_text;
  GThread *thread;
  gboolean finished;
  gboolean left;             /* under the lock: served, fd about to close */
  SlAdmitVerdict evicted;    /* under the lock: made to go, no longer counted as open */
  OtelActivity activity;
  gint plain;                /* behind TLS: the transport's end */
} Connection;

void
otel_activity_heard (OtelActivity *a)
{
  if (!a)
    return;
  g_mutex_lock (&a->listener->lock);
  a->facts.heard = TRUE;
  g_mutex_unlock (&a->listener->lock);
}

void
otel_activity_request (OtelActivity *a)
{
  if (!a)
    return;
  g_mutex_lock (&a->listener->lock);
  a->facts.last_frame = a->facts.quiet_since = g_get_monotonic_time ();
  g_mutex_unlock (&a->listener->lock);
}

void
otel_activity_waiting (OtelActivity *a, gboolean waiting)
{
  if (!a)
    return;
  g_mutex_lock (&a->listener->lock);
  a->facts.window_full = waiting;
  if (!waiting)
    a->facts.quiet_since = g_get_monotonic_time ();
  g_mutex_unlock (&a->listener->lock);
}

static OtelActivity *
connection_activity (Connection *conn)
{
  return conn->listener->admission ? &conn->activity : NULL;
}

static gpointer
serve_plain_thread (gpointer data)
{
  Connection *conn = data;
  OtelListener *l = conn->listener;
  l->serve (l->source, conn->plain, (struct sockaddr *) &conn->peer, conn->peer_len, l->stop_fd,
            connection_activity (conn), l->serve_data);
  return NULL;
}

static void
serve_tls (Connection *conn)
{
  OtelListener *l = conn->listener;
  g_autofree gchar *why = NULL;
  OtelTlsFront *front = otel_tls_front_new (l->tls, conn->fd, l->stop_fd, &conn->plain, &why);
  if (!front && conn->evicted == SL_ADMIT_KEEP)
    {
      sl_source_count (l->source->source, "tls_refused", 1);
      sl_log (SL_LOG_WARNING, _("%s: TLS handshake refused: %s"), l->source->super.id, why);
      return;
    }
  if (!front)
    return;
  GThread *transport = g_thread_new ("sl-otlp-serve", serve_plain_thread, conn);
  otel_tls_front_pump (front);
  /* closing our end of the socketpair ends the transport's */
  otel_tls_front_free (front);
  g_thread_join (transport);
}

static gpointer
connection_thread (gpointer data)
{
  Connection *conn = data;
  OtelListener *l = conn->listener;
  if (l->tls)
    serve_tls (conn);
  else
    {
      /* the serve function closes its own descriptor; the listener's stays
       * open, so that an eviction never shuts down a number reused */
      gint fd = dup (conn->fd);
      if (fd >= 0)
        l->serve (l->source, fd, (struct sockaddr *) &conn->peer, conn->peer_len, l->stop_fd,
                  connection_activity (conn), l->serve_data);
    }
  g_mutex_lock (&l->lock);
  conn->left = TRUE;
  if (conn->evicted == SL_ADMIT_KEEP)
    l->open--;
  close (conn->fd);
  conn->finished = TRUE;
  g_mutex_unlock (&l->lock);
  guint64 one = 1;
  if (write (l->closed_fd, &one, sizeof one) < 0)
    sl_log (SL_LOG_WARNING, "%s: %s", l->source->super.id, g_strerror (errno));
  return NULL;
}

/* Joins the threads of connections that ended (all: every one); with
 * the lock held. */
static void
reap (OtelListener *l, gboolean all)
{
  for (GList *it = l->connections; it;)
    {
      GList *next = it->next;
      Connection *conn = it->data;
      if (all || conn->finished)
        {
          l->connections = g_list_delete_link (l->connections, it);
          g_mutex_unlock (&l->lock);
          g_thread_join (conn->thread);
          g_free (conn->peer_text);
          g_free (conn);
          g_mutex_lock (&l->lock);
        }
      it = next;
    }
}

/* With the lock held: shuts the connection down (its thread sees the
 * end and leaves); it no longer counts as open. */
static void
evict (OtelListener *l, Connection *conn, SlAdmitVerdict why)
{
  conn->evicted = why;
  l->open--;
  shutdown (conn->fd, SHUT_RDWR);
  sl_admission_closed (l->admission, why, conn->peer_text);
}

/* With the lock held: closes those that overstayed first-message-timeout()
 * or idle-timeout(). */
static void
sweep (OtelListener *l, gint64 now)
{
  for (GList *it = l->connections; it; it = it->next)
    {
      Connection *conn = it->data;
      if (conn->left || conn->evicted != SL_ADMIT_KEEP)
        continue;
      SlAdmitVerdict why = sl_admission_expired (l->admission, &conn->activity.facts, now);
      if (why != SL_ADMIT_KEEP)
        evict (l, conn, why);
    }
}

/* With the lock held, at max-connections() with a newcomer waiting:
 * whether the connection that should go made room; if none may go yet,
 * *next_chance says when one may (0: when one ends). */
static gboolean
make_room (OtelListener *l, gint64 now, gint64 *next_chance)
{
  SlAdmitChoice choice;
  sl_admission_choice_init (&choice);
  for (GList *it = l->connections; it; it = it->next)
    {
      Connection *conn = it->data;
      if (!conn->left && conn->evicted == SL_ADMIT_KEEP)
        sl_admission_consider (l->admission, &choice, conn, &conn->activity.facts, now);
    }
  *next_chance = choice.next_chance;
  if (!choice.victim)
    return FALSE;
  evict (l, choice.victim, choice.why);
  return TRUE;
}

static gboolean
peer_waiting (gint listen_fd)
{
  struct pollfd p = { listen_fd, POLLIN, 0 };
  return poll (&p, 1, 0) > 0;
}

static void
accept_one (OtelListener *l)
{
  Connection *conn = g_new0 (Connection, 1);
  conn->listener = l;
  conn->peer_len = sizeof conn->peer;
  conn->fd = accept4 (l->listen_fd, (struct sockaddr *) &conn->peer, &conn->peer_len,
                      SOCK_CLOEXEC | (l->tls ? SOCK_NONBLOCK : 0));
  if (conn->fd < 0)
    {
      g_free (conn);
      return;
    }
  conn->peer_text = otel_peer_address ((struct sockaddr *) &conn->peer);
  conn->activity.listener = l;
  conn->activity.facts.accepted = g_get_monotonic_time ();
  sl_source_count (l->source->source, "connections", 1);
  g_mutex_lock (&l->lock);
  l->open++;
  l->connections = g_list_prepend (l->connections, conn);
  conn->thread = g_thread_new ("sl-otlp-conn", connection_thread, conn);
  g_mutex_unlock (&l->lock);
}

/* At max-connections() new peers wait in the kernel's backlog until one
 * ends or, when connections are judged, the one that should go made
 * room. */
static gpointer
accept_thread (gpointer data)
{
  OtelListener *l = data;
  gint64 sweep_us = l->admission ? sl_admission_sweep_us (l->admission) : 0;
  for (;;)
    {
      gint64 now = g_get_monotonic_time (), next_chance = 0;
      g_mutex_lock (&l->lock);
      reap (l, FALSE);
      if (sweep_us)
        sweep (l, now);
      gboolean full = l->open >= l->source->max_connections;
      gboolean waiting = full && l->admission && peer_waiting (l->listen_fd);
      gboolean room = !full || (waiting && make_room (l, now, &next_chance));
      g_mutex_unlock (&l->lock);
      gint timeout_ms = sweep_us ? (gint) (sweep_us / 1000) : -1;
      if (next_chance)
        {
          gint chance_ms = (gint) CLAMP ((next_chance - now) / 1000 + 1, 1, 1000);
          timeout_ms = timeout_ms < 0 ? chance_ms : MIN (timeout_ms, chance_ms);
        }
      struct pollfd fds[3] = {
        { l->listen_fd, room || (l->admission && !waiting) ? POLLIN : 0, 0 },
        { l->stop_fd, POLLIN, 0 },
        { l->closed_fd, POLLIN, 0 },
      };
      if (poll (fds, 3, timeout_ms) < 0 && errno != EINTR)
        break;
      if (fds[1].revents)
        break;
      guint64 ended;
      if (fds[2].revents && read (l->closed_fd, &ended, sizeof ended) < 0)
        continue;
      if (room && (fds[0].revents & POLLIN))
        accept_one (l);
    }
  return NULL;
}

OtelListener *
otel_listener_start (OtelSource *self, gint listen_fd, SlTlsContext *tls, gboolean judge, OtelServeFunc serve,
                     gpointer data, GError **error)
{
  gint stop_fd = eventfd (0, EFD_CLOEXEC), closed_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (stop_fd < 0 || closed_fd < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), _("%s: cannot make an eventfd: %s"),
                   self->super.id, g_strerror (errno));
      if (stop_fd >= 0)
        close (stop_fd);
      if (closed_fd >= 0)
        close (closed_fd);
      return NULL;
    }
  OtelListener *l = g_new0 (OtelListener, 1);
  l->source = self;
  l->tls = tls;
  l->serve = serve;
  l->serve_data = data;
  l->listen_fd = listen_fd;
  l->stop_fd = stop_fd;
  l->closed_fd = closed_fd;
  g_mutex_init (&l->lock);
  if (judge)
    l->admission = sl_admission_new (self->source);
  l->acceptor = g_thread_new ("sl-otlp-accept", accept_thread, l);
  return l;
}

void
otel_listener_stop (OtelListener *l)
{
  guint64 one = 1;
  if (write (l->stop_fd, &one, sizeof one) < 0)
    sl_log (SL_LOG_WARNING, "%s: %s", l->source->super.id, g_strerror (errno));
  g_thread_join (l->acceptor);
  g_mutex_lock (&l->lock);
  reap (l, TRUE);
  g_mutex_unlock (&l->lock);
  close (l->stop_fd);
  close (l->closed_fd);
  close (l->listen_fd);
  if (l->admission)
    sl_admission_free (l->admission);
  g_mutex_clear (&l->lock);
  g_free (l);
}
