/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/io/listener.h"
#include "core/io/admission.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/io/io-worker.h"
#include "core/io/proxy-header.h"
#include "core/io/session-private.h"
#include "core/route/source-private.h"
#include "core/io/stream.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
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
/* A flood of refusals is logged the first time and then once per this
 * many; the counters have every one. */
#define LOG_EVERY 1000

/* How long a PROXY header may take without TLS, whose
 * handshake-timeout() bounds it otherwise. */
#define PROXY_TIMEOUT_MS 10000

/* What other threads ask of a connection, done by its worker's task. */
enum
{
  WAKE_ROOM = 1 << 0,   /* its window has room again */
  WAKE_STOP = 1 << 1,   /* the listener stops: drain and close */
  WAKE_IDLE = 1 << 2,   /* the sweep found it overstayed: close it if it still has */
  WAKE_PENDING = 1 << 3, /* TLS holds bytes that epoll cannot report */
  WAKE_EVICT = 1 << 4,  /* it makes room for a newcomer: close it */
};

/* Refusals remembered for logging each peer once; past this many peers
 * the memory starts again. */
#define REFUSALS_KEPT 4096

typedef struct
{
  SlIoWatch watch;      /* first: the worker's callback gets this address */
  SlIoTask task;
  SlListener *listener;
  SlStreamReader *reader;   /* NULL when a session serves it */
  SlSession *session;       /* once handed to its thread (under the lock) */
  SlTls *tls;           /* or NULL */
  gboolean handshaking;
  SlProxyHeaderReader *proxy;   /* while its PROXY header is awaited */
  gboolean counted;     /* in per_peer under peer */
  gint64 admit_by;      /* monotonic µs: end of the header and the handshake */
  gchar *peer;          /* numeric address; NULL for a local peer */
  gint64 accepted;      /* monotonic µs */
  gint heard;           /* a byte came since accept, for the listener to see */
  gint64 quiet_since;   /* monotonic µs: accepted, or its window last had room */
  gint window_full;     /* paused until its window has room, for the listener to see */
  gint evict;           /* the SlAdmitVerdict that made it go, once the listener chose it */
  GList link;           /* in listener->connections */
  gint wake;            /* WAKE_* */
} Connection;

/* The listening socket, the idle timer and the list of connections are
 * the listener's, used on the listening socket's worker; each
 * connection's reading is its worker's alone. The lock guards the list
 * and the count per address, so the stopping thread can reach
 * connections that their workers may close at any time.
 *
 * At max-connections() the listening socket leaves its worker's epoll
 * set: new peers wait in the kernel's backlog (or are refused by it when
 * that is full) instead of being accepted and hung up on, and the close
 * that makes room puts it back. With a peer waiting, the connection
 * SlAdmission names is asked to make room; when none may go yet, the
 * listening socket is looked at again when one may. */
struct _SlListener
{
  SlSource *src;
  SlListenerSettings settings;
  guint max_per_peer;        /* 0: no limit */
  SlAdmission *admission;
  SlRateLimit *limit;        /* or NULL: every connection's messages counted in one window */
  gboolean waiting;          /* paused with no connection that may go: counted once */
  SlIoWatch listen;
  SlIoWatch idle_timer;      /* timerfd of the sweep, fd -1 without a time limit */
  SlIoTask stop_listening;
  SlIoTask resume;           /* a connection closed: accept again if paused */
  SlIoTask retire;           /* the last task the listener posts itself */
  GMutex lock;
  GCond changed;
  gboolean listening;
  gboolean retired;
  GQueue connections;        /* Connection, linked through link */
  GHashTable *per_peer;      /* peer -> connections from it, while max_per_peer */
  SlCounter *rejected;
  SlCounter *proxy_refused;
  SlCounter *paused;
  GHashTable *refused;       /* "peer\nreason" of the TLS refusals logged */
};

/* Counts one event; TRUE when it is one to log: the first, then one per
 * LOG_EVERY. */
static gboolean
count_event (SlCounter *counter, gint64 *total)
{
  *total = sl_counter_get (counter) + 1;
  sl_counter_add (counter, 1);
  return (*total - 1) % LOG_EVERY == 0;
}

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
peer_forget (SlListener *l, const gchar *peer)
{
  if (!l->per_peer || !peer)
    return;
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (l->per_peer, peer));
  if (n > 1)
    g_hash_table_insert (l->per_peer, g_strdup (peer), GUINT_TO_POINTER (n - 1));
  else
    g_hash_table_remove (l->per_peer, peer);
}

/* The place it frees is offered to the listening socket's worker, which
 * accepts again if it had stopped; posted under the lock, so once the
 * list is empty no close can post any more. */
static void
connection_forget (Connection *c)
{
  SlListener *l = c->listener;
  g_mutex_lock (&l->lock);
  g_queue_unlink (&l->connections, &c->link);
  if (c->counted)
    peer_forget (l, c->peer);
  sl_io_worker_post (l->listen.worker, &l->resume);
  g_cond_broadcast (&l->changed);
  g_mutex_unlock (&l->lock);
}

static void
connection_free (Connection *c)
{
  sl_tls_free (c->tls);
  close (c->watch.fd);
  g_free (c->proxy);
  g_free (c->peer);
  g_free (c);
}

/* On the connection's worker. */
static void
connection_close (Connection *c)
{
  connection_forget (c);
  if (c->reader)
    sl_window_set_notify (sl_stream_reader_window (c->reader), NULL, NULL);
  sl_io_worker_unpost (c->watch.worker, &c->task);
  sl_io_worker_unwatch (&c->watch);
  if (c->reader)
    sl_stream_reader_free (c->reader);
  connection_free (c);
}

/* On the session's thread, once the protocol closed it. */
static void
session_ended (SlSession *s, gpointer data)
{
  Connection *c = data;
  SlAdmitVerdict why = g_atomic_int_get (&c->evict);
  if (why != SL_ADMIT_KEEP)
    sl_admission_closed (c->listener->admission, why, c->peer);
  connection_forget (c);
  sl_session_free (s);
  connection_free (c);
}

/* Under the lock, or on the connection's worker. */
static SlAdmitFacts
connection_facts (Connection *c)
{
  if (c->session)
    return sl_session_facts (c->session);
  gint64 last_frame = c->reader ? sl_stream_reader_last_frame (c->reader) : 0;
  return (SlAdmitFacts) {
    .accepted = c->accepted,
    .heard = g_atomic_int_get (&c->heard),
    .last_frame = last_frame,
    .quiet_since = MAX (last_frame, __atomic_load_n (&c->quiet_since, __ATOMIC_RELAXED)),
    .window_full = g_atomic_int_get (&c->window_full),
  };
}

/* Under the lock. A session's thread is ended here, by shutting its
 * socket down (its descriptor stays open until the thread ends); a
 * connection on a worker is asked through its task. */
static void
connection_wake (Connection *c, gint why)
{
  if (c->session)
    {
      if (why & WAKE_IDLE)
        {
          SlAdmitFacts facts = sl_session_facts (c->session);
          SlAdmitVerdict verdict = sl_admission_expired (c->listener->admission, &facts, g_get_monotonic_time ());
          if (verdict == SL_ADMIT_KEEP)
            return;
          g_atomic_int_set (&c->evict, verdict);
        }
      if (why & WAKE_STOP)
        sl_session_cancel (c->session);
      sl_session_shut (c->session);
      return;
    }
  g_atomic_int_or (&c->wake, why);
  sl_io_worker_post (c->watch.worker, &c->task);
}

/* A peer that tries again and again is logged once for each reason. */
static void
refuse (Connection *c, const gchar *why)
{
  SlListener *l = c->listener;
  const gchar *peer = c->peer ? c->peer : "local";
  sl_source_count (l->src, "tls_refused", 1);
  gchar *key = g_strconcat (peer, "\n", why, NULL);
  g_mutex_lock (&l->lock);
  gboolean fresh = !g_hash_table_contains (l->refused, key);
  if (fresh && g_hash_table_size (l->refused) >= REFUSALS_KEPT)
    g_hash_table_remove_all (l->refused);
  if (fresh)
    g_hash_table_add (l->refused, key);
  else
    g_free (key);
  g_mutex_unlock (&l->lock);
  if (fresh)
    sl_log (SL_LOG_WARNING, _("TLS handshake refused; client='%s', reason='%s', driver='%s'"), peer, why,
            sl_source_id (l->src));
  connection_close (c);
}

static gboolean admit_peer (SlListener *l, const gchar *peer);

/* A header inside TLS is read by the stream reader: once it is in, the
 * client it names is admitted and the deadline goes. FALSE when it was
 * closed. */
static gboolean
inner_header_check (Connection *c)
{
  if (c->counted || sl_stream_reader_awaiting_proxy (c->reader))
    return TRUE;
  const gchar *peer = sl_stream_reader_peer (c->reader);
  if (peer && (!c->peer || strcmp (peer, c->peer) != 0))
    {
      g_free (c->peer);
      c->peer = g_strdup (peer);
    }
  if (!admit_peer (c->listener, c->peer))
    {
      connection_close (c);
      return FALSE;
    }
  c->counted = TRUE;
  sl_io_worker_set_deadline (&c->watch, 0, NULL);
  return TRUE;
}

/* On the connection's worker, admitted, its PROXY header read and its
 * handshake done: from here the session's thread has it. A stop or an
 * eviction asked for meanwhile is done here instead. */
static void
session_handoff (Connection *c)
{
  SlListener *l = c->listener;
  sl_io_worker_set_deadline (&c->watch, 0, NULL);
  sl_io_worker_unwatch (&c->watch);
  GError *error = NULL;
  /* tasks are posted under the lock: once it is the session's, none is;
   * the session may end (and free c) as soon as the lock is released */
  g_mutex_lock (&l->lock);
  sl_io_worker_unpost (c->watch.worker, &c->task);
  gint wake = g_atomic_int_and (&c->wake, 0);
  if (!(wake & (WAKE_STOP | WAKE_EVICT)))
    c->session = sl_session_start (l->settings.session, l->settings.session_data, c->watch.fd, c->tls, c->peer,
                                   c->accepted, session_ended, c, &error);
  gboolean started = c->session != NULL;
  g_mutex_unlock (&l->lock);
  if (started)
    return;
  if (wake & WAKE_EVICT)
    sl_admission_closed (l->admission, g_atomic_int_get (&c->evict), c->peer);
  if (error)
    sl_log (SL_LOG_ERROR, _("%s: cannot start a session's thread: %s"), sl_source_id (l->src), error->message);
  g_clear_error (&error);
  connection_close (c);
}

static void
connection_read (Connection *c)
{
  if (!c->reader)
    {
      session_handoff (c);
      return;
    }
  SlStreamStatus status = sl_stream_reader_pump (c->reader, READS_PER_TURN);
  if (status != SL_STREAM_END && !inner_header_check (c))
    return;
  switch (status)
    {
    case SL_STREAM_END:
      connection_close (c);
      break;
    case SL_STREAM_FULL:
      g_atomic_int_set (&c->window_full, TRUE);
      sl_io_worker_pause (&c->watch);
      break;
    case SL_STREAM_MORE:
      if (c->tls && sl_tls_pending (c->tls))
        connection_wake (c, WAKE_PENDING);
      break;
    case SL_STREAM_AGAIN:
      break;
    }
}

static void proxy_expired (SlIoWatch *watch);

static void
handshake (Connection *c)
{
  switch (sl_tls_handshake (c->tls))
    {
    case SL_TLS_DONE:
      c->handshaking = FALSE;
      if (c->counted)
        sl_io_worker_set_deadline (&c->watch, 0, NULL);
      else
        sl_io_worker_set_deadline (&c->watch, c->admit_by, proxy_expired);
      sl_io_worker_modify (&c->watch, EPOLLIN);
      if (c->reader)
        sl_stream_reader_set_tls (c->reader, c->tls);
      sl_log (SL_LOG_INFO, _("TLS connection accepted; client='%s', cn='%s', driver='%s'"), c->peer ? c->peer : "local",
              sl_tls_peer_cn (c->tls) ? sl_tls_peer_cn (c->tls) : "", sl_source_id (c->listener->src));
      /* what came with the handshake's last flight is held by OpenSSL */
      connection_read (c);
      break;
    case SL_TLS_WANT_READ:
      sl_io_worker_modify (&c->watch, EPOLLIN);
      break;
    case SL_TLS_WANT_WRITE:
      sl_io_worker_modify (&c->watch, EPOLLOUT);
      break;
    case SL_TLS_CLOSED:
    case SL_TLS_FAILED:
      refuse (c, sl_tls_failure (c->tls));
      break;
    }
}

static void
handshake_expired (SlIoWatch *watch)
{
  refuse ((Connection *) watch, _("no handshake within handshake-timeout()"));
}

static void read_proxy_header (Connection *c);

static void
connection_ready (SlIoWatch *watch, guint32 events)
{
  Connection *c = (Connection *) watch;
  if ((events & EPOLLIN) && !c->heard)
    g_atomic_int_set (&c->heard, TRUE);
  if (c->proxy)
    read_proxy_header (c);
  else if (c->handshaking)
    handshake (c);
  else
    connection_read (c);
}

/* What the kernel holds is read first: a message that completed meanwhile
 * is kept. A handshake that did not finish brought no message. */
static void
connection_leave (Connection *c, SlAdmitVerdict why)
{
  sl_admission_closed (c->listener->admission, why, c->peer);
  if (!c->handshaking && c->reader)
    sl_stream_reader_drain (c->reader);
  connection_close (c);
}

static void
connection_task (SlIoTask *task)
{
  Connection *c = G_STRUCT_MEMBER_P (task, -G_STRUCT_OFFSET (Connection, task));
  gint wake = g_atomic_int_and (&c->wake, 0);
  if (wake & WAKE_STOP)
    {
      /* a handshake that did not finish brought no message */
      if (!c->handshaking && !c->proxy && c->reader)
        sl_stream_reader_drain (c->reader);
      connection_close (c);
      return;
    }
  if (wake & WAKE_EVICT)
    {
      connection_leave (c, g_atomic_int_get (&c->evict));
      return;
    }
  if (wake & WAKE_ROOM)
    {
      /* waiting for room was our doing, not the peer's silence */
      __atomic_store_n (&c->quiet_since, g_get_monotonic_time (), __ATOMIC_RELAXED);
      g_atomic_int_set (&c->window_full, FALSE);
      sl_io_worker_resume (&c->watch);
    }
  else if (wake & WAKE_IDLE)
    {
      SlAdmitFacts facts = connection_facts (c);
      facts.window_full = c->watch.paused;
      SlAdmitVerdict why = sl_admission_expired (c->listener->admission, &facts, g_get_monotonic_time ());
      if (why != SL_ADMIT_KEEP)
        {
          connection_leave (c, why);
          return;
        }
    }
  if ((wake & (WAKE_ROOM | WAKE_PENDING)) && !c->watch.paused && c->tls && sl_tls_pending (c->tls))
    connection_read (c);
}

/* From the thread that acknowledged, with the window's lock held. */
static void
connection_has_room (gpointer data)
{
  Connection *c = data;
  g_atomic_int_or (&c->wake, WAKE_ROOM);
  sl_io_worker_post (c->watch.worker, &c->task);
}

/* Under the lock: whether peer may have one more connection, counted
 * if so. */
static gboolean
peer_admit (SlListener *l, const gchar *peer)
{
  if (!l->per_peer || !peer)
    return TRUE;
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (l->per_peer, peer));
  if (n >= l->max_per_peer)
    return FALSE;
  g_hash_table_insert (l->per_peer, g_strdup (peer), GUINT_TO_POINTER (n + 1));
  return TRUE;
}

/* A reset rather than an orderly close: the peer's next write fails
 * instead of vanishing into a connection nobody reads. */
static void
set_reset_on_close (gint fd)
{
  struct linger reset = { .l_onoff = 1, .l_linger = 0 };
  setsockopt (fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
}

static void
reset_connection (gint fd)
{
  set_reset_on_close (fd);
  close (fd);
}

/* max-connections-per-ip(): FALSE (counted and logged) when peer has
 * its share already. */
static gboolean
admit_peer (SlListener *l, const gchar *peer)
{
  g_mutex_lock (&l->lock);
  gboolean admitted = peer_admit (l, peer);
  g_mutex_unlock (&l->lock);
  gint64 total;
  if (!admitted && count_event (l->rejected, &total))
    sl_log (SL_LOG_WARNING, _("max-connections-per-ip() reached, connection reset; "
                              "client='%s', driver='%s', max='%u', rejected='%" PRId64 "'"),
            peer, sl_source_id (l->src), l->max_per_peer, total);
  return admitted;
}

/* A connection without a valid PROXY header is closed unread: its bytes
 * are not the client's lines. A balancer's bare health check (a
 * connection closed before it sent anything) is not counted. */
static void
proxy_refuse (Connection *c, const gchar *why, gboolean count)
{
  SlListener *l = c->listener;
  if (count)
    {
      gint64 total;
      if (count_event (l->proxy_refused, &total))
        sl_log (SL_LOG_WARNING, _("connection closed: %s; balancer='%s', driver='%s', refused='%" PRId64 "'"), why,
                c->peer ? c->peer : "local", sl_source_id (l->src), total);
    }
  connection_close (c);
}

static void
proxy_expired (SlIoWatch *watch)
{
  Connection *c = (Connection *) watch;
  proxy_refuse (c, sl_proxy_header_failure (SL_PROXY_HEADER_INCOMPLETE), TRUE);
}

/* The header is in: its client becomes the peer, admitted under its own
 * address; then TLS, if any, within what is left of the deadline. */
static void
proxy_done (Connection *c, const SlProxyHeader *header)
{
  SlListener *l = c->listener;
  g_clear_pointer (&c->proxy, g_free);
  if (!header->local)
    {
      g_free (c->peer);
      c->peer = g_strdup (header->src_ip);
    }
  if (!admit_peer (l, c->peer))
    {
      set_reset_on_close (c->watch.fd);
      connection_close (c);
      return;
    }
  c->counted = TRUE;
  if (c->reader)
    sl_stream_reader_set_proxy (c->reader, header);
  if (c->tls)
    {
      sl_io_worker_set_deadline (&c->watch, c->admit_by, handshake_expired);
      handshake (c);
      return;
    }
  sl_io_worker_set_deadline (&c->watch, 0, NULL);
  connection_read (c);
}

static void
read_proxy_header (Connection *c)
{
  SlProxyHeader header;
  gboolean closed;
  SlProxyHeaderStatus status = sl_proxy_header_read (c->proxy, c->watch.fd, &header, &closed);
  if (status == SL_PROXY_HEADER_DONE)
    proxy_done (c, &header);
  else if (status != SL_PROXY_HEADER_INCOMPLETE)
    proxy_refuse (c, closed ? _("closed before its PROXY header") : sl_proxy_header_failure (status),
                  !closed || c->proxy->fill > 0);
}

static void
accept_one (SlListener *l, gint fd, const struct sockaddr_storage *addr, socklen_t len)
{
  gchar *peer = peer_name (addr, len);
  /* behind a balancer the client is known only once its header came */
  if (l->settings.proxy == SL_LISTENER_PROXY_NONE && !admit_peer (l, peer))
    {
      reset_connection (fd);
      g_free (peer);
      return;
    }
  gint one = 1;
  if (l->settings.so_keepalive)
    setsockopt (fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
  if (l->settings.so_rcvbuf > 0)
    setsockopt (fd, SOL_SOCKET, SO_RCVBUF, &l->settings.so_rcvbuf, sizeof l->settings.so_rcvbuf);
  /* OpenSSL writes a handshake flight as several records: with Nagle the
   * later ones wait for the client's delayed acknowledgement (a third of
   * the handshakes a second); we send nothing else */
  if (l->settings.tls)
    setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  Connection *c = g_new0 (Connection, 1);
  c->watch.fd = fd;
  c->watch.ready = connection_ready;
  c->watch.worker = sl_io_worker_pick ();
  c->task.func = connection_task;
  c->listener = l;
  c->link.data = c;
  c->peer = peer;
  c->counted = l->settings.proxy == SL_LISTENER_PROXY_NONE;
  c->accepted = g_get_monotonic_time ();
  c->quiet_since = c->accepted;
  if (!l->settings.session)
    {
      c->reader = sl_stream_reader_new (l->src, fd, peer, l->settings.framing);
      sl_stream_reader_set_rate_limit (c->reader, l->limit);
    }
  c->admit_by = g_get_monotonic_time ()
                + (l->settings.tls ? sl_tls_context_handshake_timeout_ms (l->settings.tls) : PROXY_TIMEOUT_MS) * 1000;
  if (l->settings.tls)
    {
      c->tls = sl_tls_new (l->settings.tls, fd, NULL);
      c->handshaking = TRUE;
    }
  /* set before the worker can see the connection, which it may close */
  if (l->settings.proxy == SL_LISTENER_PROXY_IN_TLS && c->reader)
    sl_stream_reader_expect_proxy (c->reader);
  if (l->settings.proxy == SL_LISTENER_PROXY_FIRST)
    {
      c->proxy = g_new0 (SlProxyHeaderReader, 1);
      sl_io_worker_set_deadline (&c->watch, c->admit_by, proxy_expired);
    }
  else if (c->tls)
    sl_io_worker_set_deadline (&c->watch, c->admit_by, handshake_expired);
  if (c->reader)
    sl_window_set_notify (sl_stream_reader_window (c->reader), connection_has_room, c);
  sl_source_count (l->src, "connections", 1);
  sl_log (SL_LOG_INFO, _("connection accepted; client='%s', driver='%s'"), peer ? peer : "local", sl_source_id (l->src));
  g_mutex_lock (&l->lock);
  g_queue_push_tail_link (&l->connections, &c->link);
  g_mutex_unlock (&l->lock);
  if (!sl_io_worker_watch (c->watch.worker, &c->watch, EPOLLIN))
    {
      sl_log (SL_LOG_ERROR, _("%s: cannot watch the connection from %s: %s"), sl_source_id (l->src),
              peer ? peer : "local", g_strerror (errno));
      connection_close (c);
    }
}

static gboolean
is_full (SlListener *l)
{
  g_mutex_lock (&l->lock);
  gboolean full = l->connections.length >= l->settings.max_connections;
  g_mutex_unlock (&l->lock);
  return full;
}

static void
retry_room (SlIoWatch *watch)
{
  SlListener *l = G_STRUCT_MEMBER_P (watch, -G_STRUCT_OFFSET (SlListener, listen));
  if (l->listening)
    sl_io_worker_resume (&l->listen);
}

/* On the listening socket's worker, full with a peer waiting: asks the
 * connection that should go to close, one at a time (its close resumes
 * accepting); FALSE when none may go now. */
static gboolean
make_room (SlListener *l)
{
  gint64 now = g_get_monotonic_time ();
  SlAdmitChoice choice;
  sl_admission_choice_init (&choice);
  gboolean leaving = FALSE;
  g_mutex_lock (&l->lock);
  for (GList *i = l->connections.head; i && !leaving; i = i->next)
    {
      Connection *c = i->data;
      SlAdmitFacts facts = connection_facts (c);
      leaving = g_atomic_int_get (&c->evict) != SL_ADMIT_KEEP;
      sl_admission_consider (l->admission, &choice, c, &facts, now);
    }
  if (!leaving && choice.victim)
    {
      Connection *victim = choice.victim;
      g_atomic_int_set (&victim->evict, choice.why);
      connection_wake (victim, WAKE_EVICT);
    }
  g_mutex_unlock (&l->lock);
  if (leaving || choice.victim)
    return TRUE;
  if (choice.next_chance)
    sl_io_worker_set_deadline (&l->listen, choice.next_chance, retry_room);
  return FALSE;
}

/* Whether the backlog holds a connection: the room made for one that is
 * not there would be a connection lost for nothing. */
static gboolean
peer_waiting (gint listen_fd)
{
  struct pollfd p = { listen_fd, POLLIN, 0 };
  return poll (&p, 1, 0) > 0;
}

/* Level triggered: what is left after this turn is reported again. The
 * first accept of a turn has a peer waiting. */
static void
listen_ready (SlIoWatch *watch, guint32 events)
{
  SlListener *l = G_STRUCT_MEMBER_P (watch, -G_STRUCT_OFFSET (SlListener, listen));
  for (guint i = 0; i < ACCEPTS_PER_TURN; i++)
    {
      if (is_full (l))
        {
          /* watched while full, it reports the next peer that comes */
          if (i > 0 && !peer_waiting (watch->fd))
            return;
          sl_io_worker_pause (&l->listen);
          if (make_room (l) || l->waiting)
            return;
          l->waiting = TRUE;
          gint64 total;
          if (count_event (l->paused, &total))
            sl_log (SL_LOG_WARNING, _("max-connections() reached, new connections wait in the listen backlog; "
                                      "driver='%s', max='%u', times='%" PRId64 "'"),
                    sl_source_id (l->src), l->settings.max_connections, total);
          return;
        }
      struct sockaddr_storage addr;
      socklen_t len = sizeof addr;
      gint fd = accept4 (watch->fd, (struct sockaddr *) &addr, &len, SOCK_CLOEXEC | SOCK_NONBLOCK);
      if (fd < 0)
        return;
      l->waiting = FALSE;
      accept_one (l, fd, &addr, len);
    }
}

/* On the listening socket's worker, where it was paused. */
static void
resume_accepting (SlIoTask *task)
{
  SlListener *l = G_STRUCT_MEMBER_P (task, -G_STRUCT_OFFSET (SlListener, resume));
  if (l->listening && l->listen.paused && !is_full (l))
    sl_io_worker_resume (&l->listen);
}

/* Asks the workers of the connections that overstayed a time limit to
 * close them; each looks again on its own thread, where it knows whether
 * it was waiting for room in its window. */
static void
sweep (SlIoWatch *watch, guint32 events)
{
  SlListener *l = G_STRUCT_MEMBER_P (watch, -G_STRUCT_OFFSET (SlListener, idle_timer));
  guint64 expirations;
  if (read (watch->fd, &expirations, sizeof expirations) < 0)
    return;
  gint64 now = g_get_monotonic_time ();
  g_mutex_lock (&l->lock);
  for (GList *i = l->connections.head; i; i = i->next)
    {
      Connection *c = i->data;
      SlAdmitFacts facts = connection_facts (c);
      if (sl_admission_expired (l->admission, &facts, now) != SL_ADMIT_KEEP)
        connection_wake (c, WAKE_IDLE);
    }
  g_mutex_unlock (&l->lock);
}

static gboolean
start_sweep_timer (SlListener *l)
{
  l->idle_timer.fd = -1;
  gint64 period_us = sl_admission_sweep_us (l->admission);
  if (!period_us)
    return TRUE;
  struct timespec ts = { period_us / G_USEC_PER_SEC, (period_us % G_USEC_PER_SEC) * 1000 };
  struct itimerspec spec = { .it_interval = ts, .it_value = ts };
  l->idle_timer.fd = timerfd_create (CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  l->idle_timer.ready = sweep;
  if (l->idle_timer.fd >= 0 && timerfd_settime (l->idle_timer.fd, 0, &spec, NULL) == 0
      && sl_io_worker_watch (l->listen.worker, &l->idle_timer, EPOLLIN))
    return TRUE;
  if (l->idle_timer.fd >= 0)
    close (l->idle_timer.fd);
  l->idle_timer.fd = -1;
  return FALSE;
}

/* On the listening socket's worker, so no accept or sweep runs at the
 * same time. */
static void
stop_listening (SlIoTask *task)
{
  SlListener *l = G_STRUCT_MEMBER_P (task, -G_STRUCT_OFFSET (SlListener, stop_listening));
  sl_io_worker_unwatch (&l->listen);
  close (l->listen.fd);
  if (l->idle_timer.fd >= 0)
    {
      sl_io_worker_unwatch (&l->idle_timer);
      close (l->idle_timer.fd);
    }
  g_mutex_lock (&l->lock);
  l->listening = FALSE;
  g_cond_broadcast (&l->changed);
  g_mutex_unlock (&l->lock);
}

/* Runs after every task the closes posted to the listening socket's
 * worker: from then on nothing refers to the listener. */
static void
retire (SlIoTask *task)
{
  SlListener *l = G_STRUCT_MEMBER_P (task, -G_STRUCT_OFFSET (SlListener, retire));
  g_mutex_lock (&l->lock);
  l->retired = TRUE;
  g_cond_broadcast (&l->changed);
  g_mutex_unlock (&l->lock);
}

static void
listener_free (SlListener *l)
{
  sl_admission_free (l->admission);
  sl_rate_limit_free (l->limit);
  g_hash_table_unref (l->refused);
  g_mutex_clear (&l->lock);
  g_cond_clear (&l->changed);
  if (l->per_peer)
    g_hash_table_unref (l->per_peer);
  g_free (l);
}

SlListener *
sl_listener_start (SlSource *src, gint listen_fd, const SlListenerSettings *settings, GError **error)
{
  gint flags = fcntl (listen_fd, F_GETFL);
  SlListener *l = g_new0 (SlListener, 1);
  l->src = src;
  l->settings = *settings;
  l->settings.max_connections = MAX (settings->max_connections, 1);
  l->max_per_peer = src->max_connections_per_ip;
  l->admission = sl_admission_new (src);
  l->limit = sl_rate_limit_new (sl_source_rate_limit (src));
  l->listen.fd = listen_fd;
  l->listen.ready = listen_ready;
  l->stop_listening.func = stop_listening;
  l->resume.func = resume_accepting;
  l->retire.func = retire;
  l->listening = TRUE;
  g_mutex_init (&l->lock);
  g_cond_init (&l->changed);
  g_queue_init (&l->connections);
  if (l->max_per_peer)
    l->per_peer = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const gchar *id = sl_source_id (src);
  const gchar *kind = src->driver->klass->name;
  l->rejected = sl_stats_counter ("source", id, kind, "rejected");
  l->proxy_refused = sl_stats_counter ("source", id, kind, "proxy_refused");
  l->paused = sl_stats_counter ("source", id, kind, "accept_paused");
  l->refused = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (flags < 0 || fcntl (listen_fd, F_SETFL, flags | O_NONBLOCK) < 0
      || !sl_io_worker_watch (sl_io_worker_pick (), &l->listen, EPOLLIN))
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), _("%s: cannot watch the listening socket: %s"),
                   sl_source_id (src), g_strerror (errno));
      close (listen_fd);
      listener_free (l);
      return NULL;
    }
  /* the listening socket's worker accepts, which the timer's callback
   * must not run beside */
  if (!start_sweep_timer (l))
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), _("%s: cannot start the connection timer: %s"),
                   sl_source_id (src), g_strerror (errno));
      sl_listener_stop (l);
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
          if (!c->reader)
            continue;
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
    if (((Connection *) i->data)->reader)
      sl_stream_reader_finish (((Connection *) i->data)->reader);
  g_mutex_unlock (&l->lock);
  wait_for_goodbyes (l);
  g_mutex_lock (&l->lock);
  for (GList *i = l->connections.head; i; i = i->next)
    connection_wake (i->data, WAKE_STOP);
  while (l->connections.length)
    g_cond_wait (&l->changed, &l->lock);
  sl_io_worker_post (l->listen.worker, &l->retire);
  while (!l->retired)
    g_cond_wait (&l->changed, &l->lock);
  g_mutex_unlock (&l->lock);
  listener_free (l);
}
