/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "otel-listener.h"
#include "otel-tls-front.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>
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
};

typedef struct
{
  OtelListener *listener;
  gint fd;
  struct sockaddr_storage peer;
  socklen_t peer_len;
  GThread *thread;
  gboolean finished;
  gint plain;                /* behind TLS: the transport's end */
} Connection;

static gpointer
serve_plain_thread (gpointer data)
{
  Connection *conn = data;
  OtelListener *l = conn->listener;
  l->serve (l->source, conn->plain, (struct sockaddr *) &conn->peer, conn->peer_len, l->stop_fd, l->serve_data);
  return NULL;
}

static void
serve_tls (Connection *conn)
{
  OtelListener *l = conn->listener;
  g_autofree gchar *why = NULL;
  OtelTlsFront *front = otel_tls_front_new (l->tls, conn->fd, l->stop_fd, &conn->plain, &why);
  if (!front)
    {
      sl_source_count (l->source->source, "tls_refused", 1);
      sl_log (SL_LOG_WARNING, _("%s: TLS handshake refused: %s"), l->source->super.id, why);
      return;
    }
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
    {
      serve_tls (conn);
      close (conn->fd);
    }
  else
    l->serve (l->source, conn->fd, (struct sockaddr *) &conn->peer, conn->peer_len, l->stop_fd, l->serve_data);
  g_mutex_lock (&l->lock);
  conn->finished = TRUE;
  l->open--;
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
          g_free (conn);
          g_mutex_lock (&l->lock);
        }
      it = next;
    }
}

static gpointer
accept_thread (gpointer data)
{
  OtelListener *l = data;
  for (;;)
    {
      g_mutex_lock (&l->lock);
      reap (l, FALSE);
      /* at max-connections() new peers wait in the kernel's backlog */
      gboolean full = l->open >= l->source->max_connections;
      g_mutex_unlock (&l->lock);
      struct pollfd fds[3] = {
        { l->listen_fd, full ? 0 : POLLIN, 0 },
        { l->stop_fd, POLLIN, 0 },
        { l->closed_fd, POLLIN, 0 },
      };
      if (poll (fds, 3, -1) < 0 && errno != EINTR)
        break;
      if (fds[1].revents)
        break;
      guint64 ended;
      if (fds[2].revents && read (l->closed_fd, &ended, sizeof ended) < 0)
        continue;
      if (!(fds[0].revents & POLLIN))
        continue;
      Connection *conn = g_new0 (Connection, 1);
      conn->listener = l;
      conn->peer_len = sizeof conn->peer;
      conn->fd = accept4 (l->listen_fd, (struct sockaddr *) &conn->peer, &conn->peer_len,
                          SOCK_CLOEXEC | (l->tls ? SOCK_NONBLOCK : 0));
      if (conn->fd < 0)
        {
          g_free (conn);
          continue;
        }
      sl_source_count (l->source->source, "connections", 1);
      g_mutex_lock (&l->lock);
      l->open++;
      l->connections = g_list_prepend (l->connections, conn);
      conn->thread = g_thread_new ("sl-otlp-conn", connection_thread, conn);
      g_mutex_unlock (&l->lock);
    }
  return NULL;
}

OtelListener *
otel_listener_start (OtelSource *self, gint listen_fd, SlTlsContext *tls, OtelServeFunc serve, gpointer data,
                     GError **error)
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
  g_mutex_clear (&l->lock);
  g_free (l);
}
