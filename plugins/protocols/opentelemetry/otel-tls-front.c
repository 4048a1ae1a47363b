/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Both directions buffer one read each and write it without blocking,
 * so that a transport that writes its answer while the client's next
 * request waits to be read cannot deadlock with it. */
#include "otel-tls-front.h"

#include <errno.h>
#include <glib-unix.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#define CHUNK 65536

typedef struct
{
  gchar data[CHUNK];
  gsize len;
  gsize at;
} Pending;

struct _OtelTlsFront
{
  SlTls *tls;
  gint fd;                   /* the client's, TLS */
  gint plain;                /* our end of the socketpair */
  Pending in;                /* from the client, for the transport */
  Pending out;               /* from the transport, for the client */
  SlTlsStatus tls_wait;      /* what the last TLS write waits for, or DONE */
};

OtelTlsFront *
otel_tls_front_new (SlTls *tls, gint fd, gint *plain, gchar **why)
{
  gint pair[2];
  /* the transport's end blocks, as a plain connection would */
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) < 0)
    {
      *why = g_strdup (g_strerror (errno));
      return NULL;
    }
  if (!g_unix_set_fd_nonblocking (pair[1], TRUE, NULL))
    {
      *why = g_strdup (g_strerror (errno));
      close (pair[0]);
      close (pair[1]);
      return NULL;
    }
  OtelTlsFront *front = g_new0 (OtelTlsFront, 1);
  front->tls = tls;
  front->fd = fd;
  front->plain = pair[1];
  front->tls_wait = SL_TLS_DONE;
  *plain = pair[0];
  return front;
}

/* One step each way; FALSE when a side ended. */
static gboolean
move (OtelTlsFront *f)
{
  SlTlsStatus st;
  if (f->in.at == f->in.len)
    {
      f->in.at = f->in.len = 0;
      f->in.len = sl_tls_read (f->tls, f->in.data, CHUNK, &st);
      if (!f->in.len && (st == SL_TLS_CLOSED || st == SL_TLS_FAILED))
        return FALSE;
    }
  if (f->in.at < f->in.len)
    {
      gssize n = send (f->plain, f->in.data + f->in.at, f->in.len - f->in.at, MSG_NOSIGNAL);
      if (n < 0 && errno != EAGAIN && errno != EINTR)
        return FALSE;
      if (n > 0)
        f->in.at += (gsize) n;
    }
  if (f->out.at == f->out.len)
    {
      f->out.at = f->out.len = 0;
      gssize n = recv (f->plain, f->out.data, CHUNK, 0);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
        return FALSE;
      if (n > 0)
        f->out.len = (gsize) n;
    }
  f->tls_wait = SL_TLS_DONE;
  if (f->out.at < f->out.len)
    {
      gsize n = sl_tls_write (f->tls, f->out.data + f->out.at, f->out.len - f->out.at, &st);
      if (!n && st == SL_TLS_FAILED)
        return FALSE;
      if (n)
        f->out.at += n;
      else
        f->tls_wait = st;
    }
  return TRUE;
}

void
otel_tls_front_pump (OtelTlsFront *f)
{
  while (move (f))
    {
      /* bytes OpenSSL already decrypted are invisible to poll */
      if (f->in.at == f->in.len && sl_tls_pending (f->tls))
        continue;
      short client = 0, transport = 0;
      if (f->in.at == f->in.len || f->tls_wait == SL_TLS_WANT_READ)
        client |= POLLIN;
      if (f->tls_wait == SL_TLS_WANT_WRITE)
        client |= POLLOUT;
      if (f->in.at < f->in.len)
        transport |= POLLOUT;
      if (f->out.at == f->out.len)
        transport |= POLLIN;
      struct pollfd fds[2] = { { f->fd, client, 0 }, { f->plain, transport, 0 } };
      if (poll (fds, 2, -1) < 0 && errno != EINTR)
        return;
    }
}

void
otel_tls_front_free (OtelTlsFront *front)
{
  close (front->plain);
  g_free (front);
}
