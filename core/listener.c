#include "core/listener.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/io-worker.h"
#include "core/stream.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

/* At a stop, peers get this long to close after they were told we are
 * going, and a connection that brought nothing for QUIET_MS is not
 * waited for any more. */
#define GOODBYE_MAX_MS 1000
#define GOODBYE_QUIET_MS 200

/* A connection's share of a worker's turn: a peer that sends without
 * pause gets this many reads, then the worker serves the others. */
#define READS_PER_TURN 4
/* Connections accepted in one turn of the listening socket's worker. */
#define ACCEPTS_PER_TURN 64

/* What other threads ask of a connection, done by its worker's task. */
enum
{
  WAKE_ROOM = 1 << 0,   /* its window has room again */
  WAKE_STOP = 1 << 1,   /* the listener stops: drain and close */
};

typedef struct
{
  SlIoWatch watch;      /* first: the worker's callback gets this address */
  SlIoTask task;
  SlListener *listener;
  SlStreamReader *reader;
  GList link;           /* in listener->connections */
  gint wake;            /* WAKE_* */
} Connection;

/* The listening socket and the list of connections are the listener's;
 * each connection's reading is its worker's alone. The lock guards the
 * list, so the stopping thread can reach connections that their workers
 * may close at any time. */
struct _SlListener
{
  SlSource *src;
  SlListenerSettings settings;
  SlIoWatch listen;
  SlIoTask stop_listening;
  GMutex lock;
  GCond changed;
  gboolean listening;
  GQueue connections;   /* Connection, linked through link */
};

/* Numeric address of a network peer; NULL for a local (unix) one. */
static gchar *
peer_name (const struct sockaddr_storage *addr, socklen_t len)
{
  if (addr->ss_family != AF_INET && addr->ss_family != AF_INET6)
    return NULL;
  gchar host[NI_MAXHOST];
  if (getnameinfo ((const struct sockaddr *) addr, len, host, sizeof host, NULL, 0, NI_NUMERICHOST) != 0)
    return g_strdup ("unknown");
  if (g_str_has_prefix (host, "::ffff:") && strchr (host, '.'))
    return g_strdup (host + 7);
  return g_strdup (host);
}

/* On the connection's worker. Unlinked first: after that the stopping
 * thread no longer posts to it; after the notify is cleared no writer
 * does; then nothing can be queued for it. */
static void
connection_close (Connection *c)
{
  SlListener *l = c->listener;
  g_mutex_lock (&l->lock);
  g_queue_unlink (&l->connections, &c->link);
  g_cond_broadcast (&l->changed);
  g_mutex_unlock (&l->lock);
  sl_window_set_notify (sl_stream_reader_window (c->reader), NULL, NULL);
  sl_io_worker_unpost (c->watch.worker, &c->task);
  sl_io_worker_unwatch (&c->watch);
  sl_stream_reader_free (c->reader);
  close (c->watch.fd);
  g_free (c);
}

static void
connection_ready (SlIoWatch *watch, guint32 events)
{
  Connection *c = (Connection *) watch;
  switch (sl_stream_reader_pump (c->reader, READS_PER_TURN))
    {
    case SL_STREAM_END:
      connection_close (c);
      break;
    case SL_STREAM_FULL:
      sl_io_worker_pause (&c->watch);
      break;
    case SL_STREAM_AGAIN:
    case SL_STREAM_MORE:
      break;
    }
}

static void
connection_task (SlIoTask *task)
{
  Connection *c = G_STRUCT_MEMBER_P (task, -G_STRUCT_OFFSET (Connection, task));
  gint wake = g_atomic_int_and (&c->wake, 0);
  if (wake & WAKE_STOP)
    {
      sl_stream_reader_drain (c->reader);
      connection_close (c);
    }
  else if (wake & WAKE_ROOM)
    sl_io_worker_resume (&c->watch);
}

/* From the thread that acknowledged, with the window's lock held. */
static void
connection_has_room (gpointer data)
{
  Connection *c = data;
  g_atomic_int_or (&c->wake, WAKE_ROOM);
  sl_io_worker_post (c->watch.worker, &c->task);
}

static void
connection_wake (Connection *c, gint why)
{
  g_atomic_int_or (&c->wake, why);
  sl_io_worker_post (c->watch.worker, &c->task);
}

static void
accept_one (SlListener *l, gint fd, const struct sockaddr_storage *addr, socklen_t len)
{
  gchar *peer = peer_name (addr, len);
  g_mutex_lock (&l->lock);
  gboolean full = l->connections.length >= l->settings.max_connections;
  g_mutex_unlock (&l->lock);
  if (full)
    {
      sl_source_count (l->src, "rejected", 1);
      sl_log (SL_LOG_WARNING, "number of allowed concurrent connections reached, rejecting connection; client='%s', driver='%s', max='%u'",
              peer ? peer : "local", sl_source_id (l->src), l->settings.max_connections);
      close (fd);
      g_free (peer);
      return;
    }
  gint one = 1;
  if (l->settings.so_keepalive)
    setsockopt (fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
  if (l->settings.so_rcvbuf > 0)
    setsockopt (fd, SOL_SOCKET, SO_RCVBUF, &l->settings.so_rcvbuf, sizeof l->settings.so_rcvbuf);
  Connection *c = g_new0 (Connection, 1);
  c->watch.fd = fd;
  c->watch.ready = connection_ready;
  c->watch.worker = sl_io_worker_pick ();
  c->task.func = connection_task;
  c->listener = l;
  c->link.data = c;
  c->reader = sl_stream_reader_new (l->src, fd, peer);
  sl_window_set_notify (sl_stream_reader_window (c->reader), connection_has_room, c);
  sl_source_count (l->src, "connections", 1);
  sl_log (SL_LOG_INFO, "connection accepted; client='%s', driver='%s'", peer ? peer : "local", sl_source_id (l->src));
  g_mutex_lock (&l->lock);
  g_queue_push_tail_link (&l->connections, &c->link);
  g_mutex_unlock (&l->lock);
  if (!sl_io_worker_watch (c->watch.worker, &c->watch, EPOLLIN))
    {
      sl_log (SL_LOG_ERROR, _("%s: cannot watch the connection from %s: %s"), sl_source_id (l->src),
              peer ? peer : "local", g_strerror (errno));
      connection_close (c);
    }
  g_free (peer);
}

/* Level triggered: what is left after this turn is reported again. */
static void
listen_ready (SlIoWatch *watch, guint32 events)
{
  SlListener *l = G_STRUCT_MEMBER_P (watch, -G_STRUCT_OFFSET (SlListener, listen));
  for (guint i = 0; i < ACCEPTS_PER_TURN; i++)
    {
      struct sockaddr_storage addr;
      socklen_t len = sizeof addr;
      gint fd = accept4 (watch->fd, (struct sockaddr *) &addr, &len, SOCK_CLOEXEC | SOCK_NONBLOCK);
      if (fd < 0)
        return;
      accept_one (l, fd, &addr, len);
    }
}

/* On the listening socket's worker, so no accept runs at the same time. */
static void
stop_listening (SlIoTask *task)
{
  SlListener *l = G_STRUCT_MEMBER_P (task, -G_STRUCT_OFFSET (SlListener, stop_listening));
  sl_io_worker_unwatch (&l->listen);
  close (l->listen.fd);
  g_mutex_lock (&l->lock);
  l->listening = FALSE;
  g_cond_broadcast (&l->changed);
  g_mutex_unlock (&l->lock);
}

SlListener *
sl_listener_start (SlSource *src, gint listen_fd, const SlListenerSettings *settings, GError **error)
{
  gint flags = fcntl (listen_fd, F_GETFL);
  SlListener *l = g_new0 (SlListener, 1);
  l->src = src;
  l->settings = *settings;
  l->settings.max_connections = MAX (settings->max_connections, 1);
  l->listen.fd = listen_fd;
  l->listen.ready = listen_ready;
  l->stop_listening.func = stop_listening;
  l->listening = TRUE;
  g_mutex_init (&l->lock);
  g_cond_init (&l->changed);
  g_queue_init (&l->connections);
  if (flags < 0 || fcntl (listen_fd, F_SETFL, flags | O_NONBLOCK) < 0
      || !sl_io_worker_watch (sl_io_worker_pick (), &l->listen, EPOLLIN))
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), _("%s: cannot watch the listening socket: %s"),
                   sl_source_id (src), g_strerror (errno));
      close (listen_fd);
      g_mutex_clear (&l->lock);
      g_cond_clear (&l->changed);
      g_free (l);
      return NULL;
    }
  return l;
}

/* Waits until every peer has closed, none has sent anything for a quiet
 * spell, or the limit passed. */
static void
wait_for_goodbyes (SlListener *l)
{
  gint64 start = g_get_monotonic_time ();
  gint64 limit = start + GOODBYE_MAX_MS * 1000;
  for (;;)
    {
      gint64 now = g_get_monotonic_time ();
      gboolean waiting = FALSE;
      g_mutex_lock (&l->lock);
      for (GList *i = l->connections.head; i && !waiting; i = i->next)
        {
          Connection *c = i->data;
          gint64 last = MAX (sl_stream_reader_last_read (c->reader), start);
          waiting = now - last < GOODBYE_QUIET_MS * 1000;
        }
      g_mutex_unlock (&l->lock);
      if (!waiting || now >= limit)
        return;
      g_usleep (10 * 1000);
    }
}

void
sl_listener_stop (SlListener *l)
{
  sl_io_worker_post (l->listen.worker, &l->stop_listening);
  g_mutex_lock (&l->lock);
  while (l->listening)
    g_cond_wait (&l->changed, &l->lock);
  /* What a peer's TCP already had acknowledged is read before the
   * connection is closed: closing with unread data would reset it and
   * lose those messages. */
  for (GList *i = l->connections.head; i; i = i->next)
    sl_stream_reader_finish (((Connection *) i->data)->reader);
  g_mutex_unlock (&l->lock);
  wait_for_goodbyes (l);
  g_mutex_lock (&l->lock);
  for (GList *i = l->connections.head; i; i = i->next)
    connection_wake (i->data, WAKE_STOP);
  while (l->connections.length)
    g_cond_wait (&l->changed, &l->lock);
  g_mutex_unlock (&l->lock);
  g_mutex_clear (&l->lock);
  g_cond_clear (&l->changed);
  g_free (l);
}
