/* SPDX-License-Identifier: GPL-2.0-or-later */
/* relp() source: rsyslog's RELP, served by our own protocol code on a
 * thread per session.
 *
 * A sender learns that a message is safe from its "200 OK". A session
 * reads what the peer sent, makes messages of every syslog frame in it,
 * posts them into its window and waits until the window is empty before
 * it answers them all at once: under flow control that is once every
 * flow-controlled destination wrote them (or a reliable disk buffer
 * took them); without flow control the window empties as the paths queue
 * them, so the answers go out at once. One wait covers a whole read (a
 * sender's window of frames), and sessions never wait on each other.
 *
 * librelp's server is not used: it sends "200 OK" as soon as its receive
 * callback returns and runs every session on one thread, so waiting for
 * safety in the callback would answer one frame per round trip through
 * the paths and stall every other session meanwhile. */
#include "plugins/protocols/relp/relp-conn.h"
#include "plugins/protocols/relp/relp-frame.h"
#include "plugins/protocols/relp/relp-module.h"
#include "core/io/activation.h"
#include "core/io/admission.h"
#include "core/config/error.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/plugin/plugin.h"
#include "core/route/source.h"
#include "core/io/tls.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

/* messages posted at once; past it the session waits for room */
#define POST_BATCH 64
/* what a frame may carry beyond log-msg-size() (the rest is truncated and
 * counted by the parser); a larger frame ends the session */
#define FRAME_SLACK 65536

typedef struct _RelpSession RelpSession;

typedef struct
{
  SlDriver super;
  const gchar *ip;
  const gchar *port;
  gboolean so_keepalive;
  gint listen_backlog;
  const SlCfgNode *tls_node;
  SlTlsContext *tls;

  SlSource *source;
  gint listen_fd;
  gint stop_fd;             /* an eventfd, readable once stopping */
  GThread *acceptor;
  GMutex lock;
  GList *sessions;          /* RelpSession, each with its thread */
  guint active;
  GHashTable *per_peer;     /* address -> sessions from it, for max-connections-per-ip() */
  SlAdmission *admission;   /* who overstayed, and who makes room at max-connections() */
} RelpSource;

struct _RelpSession
{
  RelpSource *owner;
  RelpConn conn;
  gchar peer[NI_MAXHOST];
  SlWindow *window;
  GThread *thread;
  gboolean finished;        /* atomic: the thread may be joined */
  SlAdmitFacts facts;       /* under the owner's lock */
  SlAdmitVerdict evicted;   /* under the owner's lock: it made room, and is no longer active */
  gboolean left;            /* under the owner's lock: its session ended */
  gboolean opened;          /* the peer sent "open" */
  GString *out;             /* responses not yet sent */
  SlMessage *batch[POST_BATCH];
  guint batched;
  guint posted;             /* since the last answers */
};

static const SlOptionSpec relp_source_options[] = {
  { "ip", SL_STRING (RelpSource, ip), "0.0.0.0", "address to listen on" },
  { "localip", SL_STRING (RelpSource, ip), NULL, "the same as ip()" },
  { "port", SL_STRING (RelpSource, port), "2514", "port to listen on" },
  { "localport", SL_STRING (RelpSource, port), NULL, "the same as port()" },
  { "so-keepalive", SL_BOOL (RelpSource, so_keepalive), "no", "enable TCP keepalive probes (imrelp's keepalive)" },
  { "listen-backlog", SL_INT (RelpSource, listen_backlog), "256", "pending connections the kernel keeps" },
  { "tls", SL_BLOCK (RelpSource, tls_node), NULL,
    "TLS: key-file() cert-file() ca-file() peer-verify() trusted-dn() ... (imrelp's tls.*)" },
  { NULL }
};

static gboolean
relp_source_init (SlDriver *d, GError **error)
{
  RelpSource *self = (RelpSource *) d;
  sl_driver_source_add_flags (d, SL_SOURCE_FLAG_DETECT_SYSLOG_PROTOCOL);
  self->listen_backlog = MAX (self->listen_backlog, 1);
  self->listen_fd = -1;
  self->stop_fd = -1;
  g_mutex_init (&self->lock);
  self->per_peer = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (!self->tls_node)
    return TRUE;
  self->tls = sl_tls_context_new ("relp()", SL_TLS_SERVER, self->tls_node, d->pos, error);
  return self->tls != NULL;
}

static void
relp_source_free (SlDriver *d)
{
  RelpSource *self = (RelpSource *) d;
  if (self->tls)
    sl_tls_context_unref (self->tls);
  g_mutex_clear (&self->lock);
  if (self->per_peer)
    g_hash_table_unref (self->per_peer);
}

static void
flush_batch (RelpSession *s)
{
  if (!s->batched)
    return;
  sl_message_bind_window_many (s->batch, s->batched, s->window);
  sl_source_post (s->owner->source, s->batch, s->batched);
  s->posted += s->batched;
  s->batched = 0;
}

/* While it waits for room in its window, a session's silence is ours:
 * neither idle nor a candidate to make room. */
static void
set_window_full (RelpSession *s, gboolean full)
{
  g_mutex_lock (&s->owner->lock);
  s->facts.window_full = full;
  if (!full)
    s->facts.quiet_since = g_get_monotonic_time ();
  g_mutex_unlock (&s->owner->lock);
}

/* What a read brought: a byte, and maybe frames. */
static void
note_read (RelpSession *s, gboolean frames)
{
  g_mutex_lock (&s->owner->lock);
  s->facts.heard = TRUE;
  if (frames)
    s->facts.last_frame = s->facts.quiet_since = g_get_monotonic_time ();
  g_mutex_unlock (&s->owner->lock);
}

/* Whether the session overstayed first-message-timeout() or
 * idle-timeout(), counted and logged if so. */
static gboolean
overstayed (RelpSession *s)
{
  RelpSource *owner = s->owner;
  g_mutex_lock (&owner->lock);
  SlAdmitVerdict why = sl_admission_expired (owner->admission, &s->facts, g_get_monotonic_time ());
  g_mutex_unlock (&owner->lock);
  sl_admission_closed (owner->admission, why, s->peer);
  return why != SL_ADMIT_KEEP;
}

static const gchar server_offers[] = "200 OK\nrelp_version=0\nrelp_software=sluice\ncommands=syslog";

/* One frame; FALSE ends the session (after what is answered so far). */
static gboolean
take_frame (RelpSession *s, const RelpFrame *f)
{
  SlSource *src = s->owner->source;
  if (strcmp (f->command, "syslog") == 0 && s->opened)
    {
      SlMessage *msg = sl_source_parse (src, f->data, f->len, s->peer);
      if (s->conn.tls)
        sl_tls_set_fields (s->conn.tls, msg);
      s->batch[s->batched++] = msg;
      relp_frame_append (s->out, f->txnr, "rsp", "200 OK", 6);
      if (s->batched == POST_BATCH)
        {
          flush_batch (s);
          set_window_full (s, TRUE);
          gboolean room = sl_window_wait (s->window);
          set_window_full (s, FALSE);
          return room;
        }
      return TRUE;
    }
  if (strcmp (f->command, "open") == 0 && !s->opened)
    {
      s->opened = TRUE;
      sl_source_count (src, "sessions", 1);
      relp_frame_append (s->out, f->txnr, "rsp", server_offers, sizeof server_offers - 1);
      return TRUE;
    }
  if (strcmp (f->command, "close") == 0)
    {
      relp_frame_append (s->out, f->txnr, "rsp", "", 0);
      return FALSE;
    }
  static const gchar refused[] = "500 command not supported";
  relp_frame_append (s->out, f->txnr, "rsp", refused, sizeof refused - 1);
  sl_source_count (src, "errors", 1);
  if (s->opened)
    sl_log (SL_LOG_WARNING, _("%s: RELP peer %s sent '%s', which is not served; session closed"), s->owner->super.id,
            s->peer, f->command);
  else
    sl_log (SL_LOG_WARNING, _("%s: RELP peer %s sent '%s' before open; session closed"), s->owner->super.id, s->peer,
            f->command);
  return FALSE;
}

/* Answers what was read once it is safe; FALSE when the window was
 * cancelled (stopping: nothing is answered, the peer sends it again) or
 * the answers could not be sent. */
static gboolean
answer (RelpSession *s)
{
  flush_batch (s);
  if (s->posted)
    {
      set_window_full (s, TRUE);
      gboolean empty = sl_window_wait_empty (s->window, -1);
      set_window_full (s, FALSE);
      if (!empty)
        return FALSE;
    }
  if (!s->out->len)
    return TRUE;
  RelpIoStatus io = relp_conn_write_all (&s->conn, s->out->str, s->out->len, G_MAXINT64);
  if (s->posted)
    sl_source_count (s->owner->source, "acknowledged", s->posted);
  s->posted = 0;
  g_string_truncate (s->out, 0);
  return io == RELP_IO_OK;
}

static gboolean
session_evicted (RelpSession *s)
{
  g_mutex_lock (&s->owner->lock);
  gboolean evicted = s->evicted != SL_ADMIT_KEEP;
  g_mutex_unlock (&s->owner->lock);
  return evicted;
}

static void
run_session (RelpSession *s)
{
  RelpSource *owner = s->owner;
  SlSource *src = owner->source;
  gsize max_data = sl_source_max_msg_size (src) + FRAME_SLACK;
  gsize cap = max_data + 64;
  g_autofree gchar *buf = g_malloc (cap);
  gsize fill = 0;
  if (s->conn.tls)
    {
      gint64 limit = sl_tls_context_handshake_timeout_ms (owner->tls);
      RelpIoStatus io = relp_conn_handshake (&s->conn, g_get_monotonic_time () + limit * 1000);
      if (io != RELP_IO_OK && !session_evicted (s))
        {
          sl_source_count (src, "tls_refused", 1);
          sl_log (SL_LOG_WARNING, _("%s: TLS handshake with %s failed: %s"), owner->super.id, s->peer,
                  relp_conn_failure (&s->conn, io));
          return;
        }
      if (io != RELP_IO_OK)
        return;
    }
  gint64 sweep_us = sl_admission_sweep_us (owner->admission);
  for (;;)
    {
      gsize got = 0;
      gint64 deadline = sweep_us ? g_get_monotonic_time () + sweep_us : G_MAXINT64;
      RelpIoStatus io = relp_conn_read (&s->conn, buf + fill, cap - fill, &got, deadline);
      if (io == RELP_IO_TIMEOUT)
        {
          if (overstayed (s))
            break;
          continue;
        }
      if (io != RELP_IO_OK)
        {
          if (io == RELP_IO_FAILED && !session_evicted (s))
            sl_log (SL_LOG_INFO, _("%s: RELP session with %s broke: %s"), owner->super.id, s->peer,
                    relp_conn_failure (&s->conn, io));
          break;
        }
      sl_source_mark_read_time ();
      fill += got;
      gsize at = 0;
      gboolean go_on = TRUE, framed = FALSE;
      while (go_on)
        {
          RelpFrame f;
          gsize used = 0;
          RelpFrameStatus st = relp_frame_parse (buf + at, fill - at, max_data, &f, &used);
          if (st == RELP_FRAME_INCOMPLETE)
            break;
          if (st != RELP_FRAME_OK)
            {
              sl_source_count (src, "errors", 1);
              if (st == RELP_FRAME_TOO_LONG)
                sl_log (SL_LOG_WARNING, _("%s: RELP peer %s sent a frame over log-msg-size(); session closed"),
                        owner->super.id, s->peer);
              else
                sl_log (SL_LOG_WARNING, _("%s: RELP peer %s sent a malformed frame; session closed"), owner->super.id,
                        s->peer);
              go_on = FALSE;
              break;
            }
          go_on = take_frame (s, &f);
          at += used;
          framed = TRUE;
        }
      note_read (s, framed);
      memmove (buf, buf + at, fill - at);
      fill -= at;
      if (relp_conn_pending (&s->conn) && go_on)
        continue;
      if (!answer (s) || !go_on)
        break;
    }
  flush_batch (s);
}

static gpointer
session_thread (gpointer data)
{
  RelpSession *s = data;
  run_session (s);
  RelpSource *owner = s->owner;
  g_mutex_lock (&owner->lock);
  /* from here its descriptor may close, and its number go to another */
  s->left = TRUE;
  if (s->evicted == SL_ADMIT_KEEP)
    owner->active--;
  guint from_peer = GPOINTER_TO_UINT (g_hash_table_lookup (owner->per_peer, s->peer));
  if (from_peer > 1)
    g_hash_table_insert (owner->per_peer, g_strdup (s->peer), GUINT_TO_POINTER (from_peer - 1));
  else
    g_hash_table_remove (owner->per_peer, s->peer);
  g_mutex_unlock (&owner->lock);
  relp_conn_close (&s->conn);
  g_atomic_int_set (&s->finished, TRUE);
  return NULL;
}

static void
session_free (RelpSession *s)
{
  g_thread_join (s->thread);
  sl_window_unref (s->window);
  g_string_free (s->out, TRUE);
  g_free (s);
}

/* Joins the sessions that ended; all of them when all. */
static void
reap_sessions (RelpSource *self, gboolean all)
{
  g_mutex_lock (&self->lock);
  GList *done = NULL;
  for (GList *l = self->sessions, *next; l; l = next)
    {
      next = l->next;
      RelpSession *s = l->data;
      if (all || g_atomic_int_get (&s->finished))
        {
          self->sessions = g_list_remove_link (self->sessions, l);
          done = g_list_concat (done, l);
        }
    }
  g_mutex_unlock (&self->lock);
  g_list_free_full (done, (GDestroyNotify) session_free);
}

static gboolean
make_room (RelpSource *self, gint64 *next_chance)
{
  *next_chance = 0;
  if (self->active < sl_source_max_connections (self->source))
    return TRUE;
  gint64 now = g_get_monotonic_time ();
  SlAdmitChoice choice;
  sl_admission_choice_init (&choice);
  for (GList *l = self->sessions; l; l = l->next)
    {
      RelpSession *s = l->data;
      if (s->evicted == SL_ADMIT_KEEP && !s->left)
        sl_admission_consider (self->admission, &choice, s, &s->facts, now);
    }
  RelpSession *victim = choice.victim;
  *next_chance = choice.next_chance;
  if (!victim)
    return FALSE;
  victim->evicted = choice.why;
  self->active--;
  shutdown (victim->conn.fd, SHUT_RDWR);
  sl_admission_closed (self->admission, choice.why, victim->peer);
  return TRUE;
}

/* Whether a newcomer may have a place, making one at max-connections()
 * if a session should go (it is shut down, and no longer counts as
 * active); if none may go yet, *next_chance says when one may (0: when
 * one ends). */
static gboolean
room_for_one (RelpSource *self, gint64 *next_chance)
{
  g_mutex_lock (&self->lock);
  gboolean room = make_room (self, next_chance);
  g_mutex_unlock (&self->lock);
  return room;
}

static void
accept_one (RelpSource *self)
{
  struct sockaddr_storage addr;
  socklen_t alen = sizeof addr;
  gint fd = accept4 (self->listen_fd, (struct sockaddr *) &addr, &alen, SOCK_CLOEXEC);
  if (fd < 0)
    return;
  gchar peer[NI_MAXHOST];
  if (getnameinfo ((struct sockaddr *) &addr, alen, peer, sizeof peer, NULL, 0, NI_NUMERICHOST) != 0)
    g_strlcpy (peer, "unknown", sizeof peer);
  guint per_ip = sl_source_max_connections_per_ip (self->source);
  g_mutex_lock (&self->lock);
  guint from_peer = GPOINTER_TO_UINT (g_hash_table_lookup (self->per_peer, peer));
  gboolean full = per_ip && from_peer >= per_ip;
  if (!full)
    {
      self->active++;
      g_hash_table_insert (self->per_peer, g_strdup (peer), GUINT_TO_POINTER (from_peer + 1));
    }
  g_mutex_unlock (&self->lock);
  if (full)
    {
      sl_source_count (self->source, "rejected", 1);
      close (fd);
      return;
    }
  if (self->so_keepalive)
    setsockopt (fd, SOL_SOCKET, SO_KEEPALIVE, &(gint) { 1 }, sizeof (gint));
  RelpSession *s = g_new0 (RelpSession, 1);
  s->owner = self;
  s->facts.accepted = g_get_monotonic_time ();
  g_strlcpy (s->peer, peer, sizeof s->peer);
  relp_conn_init (&s->conn, fd, self->tls, NULL, self->stop_fd);
  s->window = sl_source_new_window (self->source);
  s->out = g_string_sized_new (1024);
  sl_source_count (self->source, "connections", 1);
  g_mutex_lock (&self->lock);
  self->sessions = g_list_prepend (self->sessions, s);
  s->thread = g_thread_new ("relp-session", session_thread, s);
  g_mutex_unlock (&self->lock);
}

/* Whether the backlog holds a connection: room made for one that is not
 * there would be a session closed for nothing. */
static gboolean
peer_waiting (gint listen_fd)
{
  struct pollfd p = { listen_fd, POLLIN, 0 };
  return poll (&p, 1, 0) > 0;
}

/* At max-connections() newcomers wait in the kernel's backlog, as with
 * tcp(), until a session ends or one that should go made room. */
static gpointer
acceptor_thread (gpointer data)
{
  RelpSource *self = data;
  for (;;)
    {
      gint64 next_chance = 0;
      gboolean room = !peer_waiting (self->listen_fd) || room_for_one (self, &next_chance);
      gint wait_ms = 1000;
      if (!room)
        wait_ms = next_chance ? (gint) CLAMP ((next_chance - g_get_monotonic_time ()) / 1000 + 1, 1, 1000) : 50;
      struct pollfd p[2] = { { .fd = self->stop_fd, .events = POLLIN }, { .fd = self->listen_fd, .events = POLLIN } };
      gint rc = poll (p, room ? 2 : 1, wait_ms);
      if (rc > 0 && (p[0].revents & POLLIN))
        break;
      if (room && rc > 0 && (p[1].revents & POLLIN) && room_for_one (self, &next_chance))
        accept_one (self);
      reap_sessions (self, FALSE);
    }
  return NULL;
}

static gint
open_listener (RelpSource *self, GError **error)
{
  SlListenAddress where = { .ip = self->ip, .port = self->port, .type = SOCK_STREAM, .backlog = self->listen_backlog };
  gboolean inherited;
  return sl_activation_listen (&self->super, &where, &inherited, error);
}

static gboolean
relp_source_start (SlDriver *d, SlSource *source, GError **error)
{
  RelpSource *self = (RelpSource *) d;
  self->source = source;
  self->listen_fd = open_listener (self, error);
  if (self->listen_fd < 0)
    return FALSE;
  self->stop_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  self->admission = sl_admission_new (source);
  self->acceptor = g_thread_new ("relp-accept", acceptor_thread, self);
  sl_log (SL_LOG_INFO, _("relp() listening on %s port %s (%s)"), self->ip, self->port, self->tls ? "tls" : "tcp");
  return TRUE;
}

/* Sessions waiting for their window give up without answering: what the
 * peer did not hear about, it sends again. */
static void
relp_source_stop (SlDriver *d)
{
  RelpSource *self = (RelpSource *) d;
  if (!self->acceptor)
    return;
  guint64 one = 1;
  if (write (self->stop_fd, &one, sizeof one) != sizeof one)
    sl_log (SL_LOG_ERROR, _("%s: cannot wake the RELP threads: %s"), d->id, g_strerror (errno));
  g_thread_join (self->acceptor);
  self->acceptor = NULL;
  g_mutex_lock (&self->lock);
  for (GList *l = self->sessions; l; l = l->next)
    sl_window_cancel (((RelpSession *) l->data)->window);
  g_mutex_unlock (&self->lock);
  reap_sessions (self, TRUE);
  close (self->listen_fd);
  close (self->stop_fd);
  g_clear_pointer (&self->admission, sl_admission_free);
  self->listen_fd = self->stop_fd = -1;
}

static const SlSourceOps relp_source_ops = {
  .start = relp_source_start,
  .stop = relp_source_stop,
};

const SlDriverClass relp_source_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "relp",
  .summary = "receives RELP (rsyslog's omrelp); a message is answered once it is safe by its paths' rules",
  .options = relp_source_options,
  .capabilities = SL_CAP_PARSES | SL_CAP_CONNECTIONS,
  .instance_size = sizeof (RelpSource),
  .init = relp_source_init,
  .free = relp_source_free,
  .ops.source = &relp_source_ops,
};
