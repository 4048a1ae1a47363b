/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "daemon/metrics-http.h"
#include "core/i18n.h"
#include "core/stats-private.h"

#include <errno.h>
#include <glib-unix.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* A request line and a few headers; a scraper sends well under 1 KiB. */
#define MAX_REQUEST 8192
/* Connections served at once, so that a flood of idle clients cannot grow
 * the daemon; and from one address, so that one client cannot take every
 * place. A newcomer takes the place of the oldest client still sending
 * its request (its own address's first): a scraper gets in however many
 * hold half a request. */
#define MAX_CLIENTS 16
#define MAX_PER_PEER 8
/* Connections the kernel keeps while the main loop is busy. */
#define BACKLOG 64
/* A scraper sends its whole request at once: one that has not within this
 * long is dropped, however it trickles. */
#define REQUEST_MS 2000
/* A client that has not read the answer by then is dropped. */
#define ANSWER_SECONDS 5

typedef struct
{
  SlMetricsHttp *http;
  gint fd;
  GString *in;
  GString *out;
  gsize sent;
  guint watch;
  guint timeout;
  gchar peer[NI_MAXHOST];   /* numeric address */
} Client;

struct _SlMetricsHttp
{
  gchar *address;
  gint fd;
  guint watch;
  GPtrArray *clients;   /* Client */
};

static gboolean
parse_address (const gchar *address, struct addrinfo **result, GError **error)
{
  g_autofree gchar *host = NULL;
  const gchar *port;
  const gchar *colon = strrchr (address, ':');
  if (address[0] == '[' && colon && colon > address && colon[-1] == ']')
    {
      host = g_strndup (address + 1, colon - address - 2);
      port = colon + 1;
    }
  else if (colon && !strchr (address, '[') && colon == strchr (address, ':'))
    {
      host = g_strndup (address, colon - address);
      port = colon + 1;
    }
  else
    port = address;
  gboolean numeric = *port && strspn (port, "0123456789") == strlen (port) && atoi (port) > 0 && atoi (port) < 65536;
  if (!numeric || (port == address && strchr (address, ':')))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("stats(listen(\"%s\")): give host:port, [IPv6]:port or a port"), address);
      return FALSE;
    }
  struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                            .ai_flags = AI_NUMERICSERV | AI_PASSIVE };
  gint rc = getaddrinfo (host && *host ? host : "127.0.0.1", port, &hints, result);
  if (rc != 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("stats(listen(\"%s\")): %s"), address, gai_strerror (rc));
      return FALSE;
    }
  return TRUE;
}

gboolean
sl_metrics_http_check_address (const gchar *address, GError **error)
{
  struct addrinfo *ai = NULL;
  if (!parse_address (address, &ai, error))
    return FALSE;
  freeaddrinfo (ai);
  return TRUE;
}

static void
client_free (Client *c)
{
  if (c->watch)
    g_source_remove (c->watch);
  if (c->timeout)
    g_source_remove (c->timeout);
  close (c->fd);
  g_string_free (c->in, TRUE);
  if (c->out)
    g_string_free (c->out, TRUE);
  g_free (c);
}

static void
client_close (Client *c)
{
  g_ptr_array_remove (c->http->clients, c);
}

static gboolean
on_timeout (gpointer data)
{
  Client *c = data;
  c->timeout = 0;
  client_close (c);
  return G_SOURCE_REMOVE;
}

static gboolean
on_writable (gint fd, GIOCondition condition, gpointer data)
{
  Client *c = data;
  while (c->sent < c->out->len)
    {
      gssize n = send (fd, c->out->str + c->sent, c->out->len - c->sent, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && errno == EAGAIN)
        return G_SOURCE_CONTINUE;
      if (n <= 0)
        break;
      c->sent += n;
    }
  c->watch = 0;
  client_close (c);
  return G_SOURCE_REMOVE;
}

static void
respond (Client *c, const gchar *status, const gchar *type, const gchar *body, gboolean head)
{
  c->out = g_string_new (NULL);
  g_string_append_printf (c->out, "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                                  "Cache-Control: no-store\r\nConnection: close\r\n\r\n",
                          status, type, strlen (body));
  if (!head)
    g_string_append (c->out, body);
}

/* "GET /metrics HTTP/1.1": GET and HEAD of /metrics and /health; anything
 * else is refused, nothing changes state. */
static void
answer (Client *c)
{
  gchar **words = g_strsplit_set (c->in->str, " \r\n", 4);
  gboolean request = g_strv_length (words) >= 3 && g_str_has_prefix (words[2], "HTTP/1.");
  gboolean head = request && strcmp (words[0], "HEAD") == 0;
  gchar *path = request ? g_strndup (words[1], strcspn (words[1], "?")) : NULL;
  static const gchar text[] = "text/plain; charset=utf-8";
  if (!request)
    respond (c, "400 Bad Request", text, "bad request\n", FALSE);
  else if (!head && strcmp (words[0], "GET") != 0)
    respond (c, "405 Method Not Allowed", text, "only GET and HEAD\n", FALSE);
  else if (strcmp (path, "/metrics") == 0)
    {
      gchar *metrics = sl_stats_to_prometheus ();
      respond (c, "200 OK", "text/plain; version=0.0.4; charset=utf-8", metrics, head);
      g_free (metrics);
    }
  else if (strcmp (path, "/health") == 0)
    respond (c, "200 OK", text, "OK\n", head);
  else
    respond (c, "404 Not Found", text, "/metrics and /health are served here\n", head);
  g_free (path);
  g_strfreev (words);
}

static gboolean
on_readable (gint fd, GIOCondition condition, gpointer data)
{
  Client *c = data;
  gchar buf[2048];
  gssize n = recv (fd, buf, sizeof buf, 0);
  if (n < 0 && (errno == EINTR || errno == EAGAIN))
    return G_SOURCE_CONTINUE;
  if (n <= 0)
    {
      c->watch = 0;
      client_close (c);
      return G_SOURCE_REMOVE;
    }
  g_string_append_len (c->in, buf, n);
  gboolean complete = strstr (c->in->str, "\r\n\r\n") || strstr (c->in->str, "\n\n");
  if (!complete && c->in->len < MAX_REQUEST)
    return G_SOURCE_CONTINUE;
  if (complete)
    answer (c);
  else
    respond (c, "431 Request Header Fields Too Large", "text/plain; charset=utf-8", "request too large\n", FALSE);
  g_source_remove (c->timeout);
  c->timeout = g_timeout_add_seconds (ANSWER_SECONDS, on_timeout, c);
  c->watch = g_unix_fd_add (fd, G_IO_OUT, on_writable, c);
  return G_SOURCE_REMOVE;
}

/* The client whose place a newcomer from peer takes: the first (oldest)
 * still sending its request from peer when peer holds MAX_PER_PEER, else
 * from anywhere when every place is taken; NULL when it needs none.
 * *refuse when it needs one and none may go. */
static Client *
place_for (SlMetricsHttp *http, const gchar *peer, gboolean *refuse)
{
  guint from_peer = 0;
  Client *oldest = NULL;
  Client *oldest_of_peer = NULL;
  for (guint i = 0; i < http->clients->len; i++)
    {
      Client *c = g_ptr_array_index (http->clients, i);
      gboolean same = strcmp (c->peer, peer) == 0;
      from_peer += same;
      if (c->out)
        continue;
      if (!oldest)
        oldest = c;
      if (same && !oldest_of_peer)
        oldest_of_peer = c;
    }
  Client *victim = NULL;
  if (from_peer >= MAX_PER_PEER)
    victim = oldest_of_peer;
  else if (http->clients->len >= MAX_CLIENTS)
    victim = oldest;
  else
    return NULL;
  *refuse = victim == NULL;
  return victim;
}

static gboolean
on_accept (gint fd, GIOCondition condition, gpointer data)
{
  SlMetricsHttp *http = data;
  gint client;
  struct sockaddr_storage addr;
  socklen_t len = sizeof addr;
  while ((client = accept4 (fd, (struct sockaddr *) &addr, &len, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0)
    {
      Client *c = g_new0 (Client, 1);
      if (getnameinfo ((struct sockaddr *) &addr, len, c->peer, sizeof c->peer, NULL, 0, NI_NUMERICHOST) != 0)
        g_strlcpy (c->peer, "unknown", sizeof c->peer);
      len = sizeof addr;
      gboolean refuse = FALSE;
      Client *victim = place_for (http, c->peer, &refuse);
      if (refuse)
        {
          close (client);
          g_free (c);
          continue;
        }
      if (victim)
        client_close (victim);
      c->http = http;
      c->fd = client;
      c->in = g_string_new (NULL);
      c->watch = g_unix_fd_add (client, G_IO_IN, on_readable, c);
      c->timeout = g_timeout_add (REQUEST_MS, on_timeout, c);
      g_ptr_array_add (http->clients, c);
    }
  return G_SOURCE_CONTINUE;
}

SlMetricsHttp *
sl_metrics_http_new (const gchar *address, GError **error)
{
  struct addrinfo *ai = NULL;
  if (!parse_address (address, &ai, error))
    return NULL;
  gint fd = socket (ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  gint one = 1;
  if (fd < 0 || setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0
      || bind (fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen (fd, BACKLOG) < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                   _("cannot serve metrics on %s: %s"), address, g_strerror (errno));
      if (fd >= 0)
        close (fd);
      freeaddrinfo (ai);
      return NULL;
    }
  freeaddrinfo (ai);
  SlMetricsHttp *http = g_new0 (SlMetricsHttp, 1);
  http->address = g_strdup (address);
  http->fd = fd;
  http->clients = g_ptr_array_new_with_free_func ((GDestroyNotify) client_free);
  http->watch = g_unix_fd_add (fd, G_IO_IN, on_accept, http);
  return http;
}

const gchar *
sl_metrics_http_address (const SlMetricsHttp *http)
{
  return http->address;
}

void
sl_metrics_http_free (SlMetricsHttp *http)
{
  if (!http)
    return;
  g_source_remove (http->watch);
  close (http->fd);
  g_ptr_array_unref (http->clients);
  g_free (http->address);
  g_free (http);
}
