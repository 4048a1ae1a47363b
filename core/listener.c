#include "core/listener.h"
#include "core/internal.h"
#include "core/stream.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* At a stop, peers get this long to close after they were told we are
 * going, and a connection that brought nothing for QUIET_MS is not
 * waited for any more. */
#define GOODBYE_MAX_MS 1000
#define GOODBYE_QUIET_MS 200

typedef struct
{
  gint fd;
  SlStreamReader *reader;
  GThread *thread;
  gint finished;
} Connection;

struct _SlListener
{
  SlSource *src;
  SlListenerSettings settings;
  gint listen_fd;
  gint wake[2];
  GThread *acceptor;
  GMutex lock;
  GPtrArray *connections;   /* Connection */
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

static gpointer
connection_thread (gpointer data)
{
  Connection *c = data;
  sl_stream_reader_run (c->reader);
  g_atomic_int_set (&c->finished, 1);
  return NULL;
}

static void
connection_free (Connection *c)
{
  g_thread_join (c->thread);
  sl_stream_reader_free (c->reader);
  close (c->fd);
  g_free (c);
}

/* Joins the threads of connections that ended, so a long-lived listener
 * does not pile up finished threads. */
static guint
reap_connections (SlListener *l)
{
  g_mutex_lock (&l->lock);
  for (guint i = l->connections->len; i-- > 0;)
    {
      Connection *c = g_ptr_array_index (l->connections, i);
      if (g_atomic_int_get (&c->finished))
        {
          g_ptr_array_remove_index_fast (l->connections, i);
          connection_free (c);
        }
    }
  guint active = l->connections->len;
  g_mutex_unlock (&l->lock);
  return active;
}

static void
accept_one (SlListener *l)
{
  struct sockaddr_storage addr;
  socklen_t len = sizeof addr;
  gint fd = accept4 (l->listen_fd, (struct sockaddr *) &addr, &len, SOCK_CLOEXEC);
  if (fd < 0)
    return;
  gchar *peer = peer_name (&addr, len);
  if (reap_connections (l) >= l->settings.max_connections)
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
  c->fd = fd;
  c->reader = sl_stream_reader_new (l->src, fd, peer);
  sl_source_count (l->src, "connections", 1);
  sl_log (SL_LOG_INFO, "connection accepted; client='%s', driver='%s'", peer ? peer : "local", sl_source_id (l->src));
  g_free (peer);
  g_mutex_lock (&l->lock);
  g_ptr_array_add (l->connections, c);
  c->thread = g_thread_new ("sl-conn", connection_thread, c);
  g_mutex_unlock (&l->lock);
}

static gpointer
acceptor_thread (gpointer data)
{
  SlListener *l = data;
  struct pollfd fds[2] = { { l->listen_fd, POLLIN, 0 }, { l->wake[0], POLLIN, 0 } };
  for (;;)
    {
      if (poll (fds, 2, 1000) < 0 && errno != EINTR)
        break;
      if (fds[1].revents)
        break;
      if (fds[0].revents & POLLIN)
        accept_one (l);
      else
        reap_connections (l);
    }
  return NULL;
}

SlListener *
sl_listener_start (SlSource *src, gint listen_fd, const SlListenerSettings *settings, GError **error)
{
  SlListener *l = g_new0 (SlListener, 1);
  if (pipe2 (l->wake, O_CLOEXEC) < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "pipe: %s", g_strerror (errno));
      g_free (l);
      close (listen_fd);
      return NULL;
    }
  l->src = src;
  l->settings = *settings;
  l->settings.max_connections = MAX (settings->max_connections, 1);
  l->listen_fd = listen_fd;
  g_mutex_init (&l->lock);
  l->connections = g_ptr_array_new ();
  l->acceptor = g_thread_new ("sl-accept", acceptor_thread, l);
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
      for (guint i = 0; i < l->connections->len && !waiting; i++)
        {
          Connection *c = g_ptr_array_index (l->connections, i);
          gint64 last = MAX (sl_stream_reader_last_read (c->reader), start);
          waiting = !g_atomic_int_get (&c->finished) && now - last < GOODBYE_QUIET_MS * 1000;
        }
      if (!waiting || now >= limit)
        return;
      g_usleep (10 * 1000);
    }
}

void
sl_listener_stop (SlListener *l)
{
  if (write (l->wake[1], "x", 1) != 1)
    sl_log (SL_LOG_ERROR, "cannot wake the acceptor of %s: %s", sl_source_id (l->src), g_strerror (errno));
  g_thread_join (l->acceptor);
  close (l->listen_fd);
  close (l->wake[0]);
  close (l->wake[1]);
  /* What a peer's TCP already had acknowledged is read before the
   * connection is closed: closing with unread data would reset it and
   * lose those messages. */
  for (guint i = 0; i < l->connections->len; i++)
    sl_stream_reader_finish (((Connection *) g_ptr_array_index (l->connections, i))->reader);
  wait_for_goodbyes (l);
  for (guint i = 0; i < l->connections->len; i++)
    sl_stream_reader_cancel (((Connection *) g_ptr_array_index (l->connections, i))->reader);
  for (guint i = 0; i < l->connections->len; i++)
    connection_free (g_ptr_array_index (l->connections, i));
  g_ptr_array_unref (l->connections);
  g_mutex_clear (&l->lock);
  g_free (l);
}
