/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/io/session-private.h"
#include "core/i18n.h"

#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#define READ_SIZE 65536

struct _SlSession
{
  const SlSessionOps *ops;
  gpointer data;
  GMutex lock;              /* cancel against closed */
  gpointer state;           /* under the lock: the protocol's, between opened and closed */
  gint fd;
  SlTls *tls;
  gchar *peer;
  gint64 accepted;
  gboolean heard;           /* handed on once it was readable: always */
  gint64 last_frame;        /* atomic */
  gint64 quiet_since;       /* atomic */
  gint window_full;         /* atomic */
  gint shut;                /* atomic: the listener ended it */
  gboolean cancelled;       /* under the lock: the listener stops */
  const gchar *failure;
  SlSessionEnded ended;
  gpointer ended_data;
};

const gchar *
sl_session_peer (SlSession *s)
{
  return s->peer ? s->peer : "local";
}

SlTls *
sl_session_tls (SlSession *s)
{
  return s->tls;
}

gint
sl_session_fd (SlSession *s)
{
  return s->fd;
}

void
sl_session_message (SlSession *s)
{
  gint64 now = g_get_monotonic_time ();
  __atomic_store_n (&s->last_frame, now, __ATOMIC_RELAXED);
  __atomic_store_n (&s->quiet_since, now, __ATOMIC_RELAXED);
}

void
sl_session_waiting (SlSession *s, gboolean waiting)
{
  g_atomic_int_set (&s->window_full, waiting);
  if (!waiting)
    __atomic_store_n (&s->quiet_since, g_get_monotonic_time (), __ATOMIC_RELAXED);
}

const gchar *
sl_session_failure (SlSession *s)
{
  return s->failure;
}

SlAdmitFacts
sl_session_facts (SlSession *s)
{
  return (SlAdmitFacts) {
    .accepted = s->accepted,
    .heard = s->heard,
    .last_frame = __atomic_load_n (&s->last_frame, __ATOMIC_RELAXED),
    .quiet_since = __atomic_load_n (&s->quiet_since, __ATOMIC_RELAXED),
    .window_full = g_atomic_int_get (&s->window_full),
  };
}

void
sl_session_shut (SlSession *s)
{
  g_atomic_int_set (&s->shut, TRUE);
  shutdown (s->fd, SHUT_RDWR);
}

void
sl_session_cancel (SlSession *s)
{
  g_mutex_lock (&s->lock);
  s->cancelled = TRUE;
  if (s->ops->cancel && s->state)
    s->ops->cancel (s, s->state);
  g_mutex_unlock (&s->lock);
}

/* FALSE when the session is over: the peer closed, it broke (failure
 * set) or the listener shut it. */
static gboolean
await (SlSession *s, short events)
{
  struct pollfd p = { s->fd, events, 0 };
  while (poll (&p, 1, -1) < 0)
    if (errno != EINTR)
      {
        s->failure = g_strerror (errno);
        return FALSE;
      }
  return TRUE;
}

static gboolean
await_tls (SlSession *s, SlTlsStatus status)
{
  if (status == SL_TLS_WANT_READ)
    return await (s, POLLIN);
  if (status == SL_TLS_WANT_WRITE)
    return await (s, POLLOUT);
  if (status != SL_TLS_CLOSED)
    s->failure = sl_tls_failure (s->tls) ? sl_tls_failure (s->tls) : _("TLS failed");
  return FALSE;
}

/* 0 when the session is over. */
static gsize
session_read (SlSession *s, gchar *buf, gsize len)
{
  for (;;)
    {
      if (s->tls)
        {
          SlTlsStatus status;
          gsize got = sl_tls_read (s->tls, buf, len, &status);
          if (got || !await_tls (s, status))
            return got;
          continue;
        }
      gssize n = read (s->fd, buf, len);
      if (n > 0)
        return (gsize) n;
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && errno == EAGAIN)
        {
          if (!await (s, POLLIN))
            return 0;
          continue;
        }
      if (n < 0 && errno != ECONNRESET)
        s->failure = g_strerror (errno);
      return 0;
    }
}

gboolean
sl_session_write (SlSession *s, const void *data, gsize len)
{
  const gchar *buf = data;
  while (len)
    {
      if (s->tls)
        {
          SlTlsStatus status;
          gsize n = sl_tls_write (s->tls, buf, len, &status);
          if (!n && !await_tls (s, status))
            return FALSE;
          buf += n;
          len -= n;
          continue;
        }
      gssize n = send (s->fd, buf, len, MSG_NOSIGNAL);
      if (n > 0)
        {
          buf += n;
          len -= (gsize) n;
        }
      else if (n < 0 && errno == EAGAIN)
        {
          if (!await (s, POLLOUT))
            return FALSE;
        }
      else if (n == 0 || errno != EINTR)
        return FALSE;
    }
  return TRUE;
}

static void
session_run (SlSession *s)
{
  gsize cap = s->ops->read_size ? s->ops->read_size : READ_SIZE;
  g_autofree gchar *buf = g_malloc (cap);
  gpointer state = s->ops->opened (s, s->data);
  /* a stop that came while it opened reaches it now */
  g_mutex_lock (&s->lock);
  s->state = state;
  if (state && s->cancelled && s->ops->cancel)
    s->ops->cancel (s, state);
  g_mutex_unlock (&s->lock);
  gboolean go_on = state != NULL;
  while (go_on)
    {
      gsize got = session_read (s, buf, cap);
      /* what the kernel still held when the listener ended it is not taken */
      if (!got || g_atomic_int_get (&s->shut))
        break;
      go_on = s->ops->readable (s, state, buf, got, s->tls && sl_tls_pending (s->tls));
    }
  if (g_atomic_int_get (&s->shut))
    s->failure = NULL;
  g_mutex_lock (&s->lock);
  s->state = NULL;
  g_mutex_unlock (&s->lock);
  if (state)
    s->ops->closed (s, state);
}

static gpointer
session_thread (gpointer data)
{
  SlSession *s = data;
  if (s->ops->serve)
    s->ops->serve (s, s->data);
  else
    session_run (s);
  if (s->tls && !g_atomic_int_get (&s->shut))
    sl_tls_close_notify (s->tls);
  s->ended (s, s->ended_data);
  return NULL;
}

SlSession *
sl_session_start (const SlSessionOps *ops, gpointer data, gint fd, SlTls *tls, const gchar *peer, gint64 accepted,
                  SlSessionEnded ended, gpointer ended_data, GError **error)
{
  SlSession *s = g_new0 (SlSession, 1);
  s->ops = ops;
  s->data = data;
  s->fd = fd;
  s->tls = tls;
  s->peer = g_strdup (peer);
  s->accepted = accepted;
  s->quiet_since = accepted;
  /* the listener hands a connection on once it was readable (or its
   * handshake or PROXY header came) */
  s->heard = TRUE;
  s->ended = ended;
  s->ended_data = ended_data;
  g_mutex_init (&s->lock);
  GThread *thread = g_thread_try_new ("sl-session", session_thread, s, error);
  if (!thread)
    {
      sl_session_free (s);
      return NULL;
    }
  g_thread_unref (thread);
  return s;
}

void
sl_session_free (SlSession *s)
{
  g_mutex_clear (&s->lock);
  g_free (s->peer);
  g_free (s);
}
