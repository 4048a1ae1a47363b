/* SPDX-License-Identifier: GPL-2.0-or-later */
/* relp() source: rsyslog's RELP, served by our own protocol code on the
 * kit's session listener (SlListener with an SlSession per connection,
 * each on a thread of its own).
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
#include "plugins/protocols/relp/relp-frame.h"
#include "plugins/protocols/relp/relp-module.h"
#include "core/io/activation.h"
#include "core/config/error.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/plugin/plugin.h"
#include "core/route/source.h"
#include "core/io/listener.h"
#include "core/io/session.h"
#include "core/io/tls.h"

#include <string.h>
#include <sys/socket.h>

/* messages posted at once; past it the session waits for room */
#define POST_BATCH 64
/* what a frame may carry beyond log-msg-size() (the rest is truncated and
 * counted by the parser); a larger frame ends the session */
#define FRAME_SLACK 65536

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
  SlListener *listener;
} RelpSource;

typedef struct
{
  RelpSource *owner;
  SlSession *session;
  SlWindow *window;
  GByteArray *in;           /* read, not yet a whole frame */
  gboolean opened;          /* the peer sent "open" */
  GString *out;             /* responses not yet sent */
  SlMessage *batch[POST_BATCH];
  guint batched;
  guint posted;             /* since the last answers */
} RelpSession;

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

static const gchar server_offers[] = "200 OK\nrelp_version=0\nrelp_software=sluice\ncommands=syslog";

/* One frame; FALSE ends the session (after what is answered so far). */
static gboolean
take_frame (RelpSession *s, const RelpFrame *f)
{
  SlSource *src = s->owner->source;
  if (strcmp (f->command, "syslog") == 0 && s->opened)
    {
      SlMessage *msg = sl_source_parse (src, f->data, f->len, sl_session_peer (s->session));
      if (sl_session_tls (s->session))
        sl_tls_set_fields (sl_session_tls (s->session), msg);
      s->batch[s->batched++] = msg;
      relp_frame_append (s->out, f->txnr, "rsp", "200 OK", 6);
      if (s->batched == POST_BATCH)
        {
          flush_batch (s);
          sl_session_waiting (s->session, TRUE);
          gboolean room = sl_window_wait (s->window);
          sl_session_waiting (s->session, FALSE);
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
            sl_session_peer (s->session), f->command);
  else
    sl_log (SL_LOG_WARNING, _("%s: RELP peer %s sent '%s' before open; session closed"), s->owner->super.id,
            sl_session_peer (s->session), f->command);
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
      sl_session_waiting (s->session, TRUE);
      gboolean empty = sl_window_wait_empty (s->window, -1);
      sl_session_waiting (s->session, FALSE);
      if (!empty)
        return FALSE;
    }
  if (!s->out->len)
    return TRUE;
  gboolean sent = sl_session_write (s->session, s->out->str, s->out->len);
  if (s->posted)
    sl_source_count (s->owner->source, "acknowledged", s->posted);
  s->posted = 0;
  g_string_truncate (s->out, 0);
  return sent;
}

static gpointer
session_opened (SlSession *session, gpointer data)
{
  RelpSource *owner = data;
  RelpSession *s = g_new0 (RelpSession, 1);
  s->owner = owner;
  s->session = session;
  s->window = sl_source_new_window (owner->source);
  s->in = g_byte_array_new ();
  s->out = g_string_sized_new (1024);
  return s;
}

/* Every whole frame read so far; FALSE ends the session. */
static gboolean
take_frames (RelpSession *s)
{
  SlSource *src = s->owner->source;
  gsize max_data = sl_source_max_msg_size (src) + FRAME_SLACK;
  const gchar *buf = (const gchar *) s->in->data;
  gsize at = 0;
  gboolean go_on = TRUE, framed = FALSE;
  while (go_on)
    {
      RelpFrame f;
      gsize used = 0;
      RelpFrameStatus st = relp_frame_parse (buf + at, s->in->len - at, max_data, &f, &used);
      if (st == RELP_FRAME_INCOMPLETE)
        break;
      if (st != RELP_FRAME_OK)
        {
          sl_source_count (src, "errors", 1);
          if (st == RELP_FRAME_TOO_LONG)
            sl_log (SL_LOG_WARNING, _("%s: RELP peer %s sent a frame over log-msg-size(); session closed"),
                    s->owner->super.id, sl_session_peer (s->session));
          else
            sl_log (SL_LOG_WARNING, _("%s: RELP peer %s sent a malformed frame; session closed"), s->owner->super.id,
                    sl_session_peer (s->session));
          go_on = FALSE;
          break;
        }
      go_on = take_frame (s, &f);
      at += used;
      framed = TRUE;
    }
  if (framed)
    sl_session_message (s->session);
  g_byte_array_remove_range (s->in, 0, (guint) at);
  return go_on;
}

/* What TLS holds already is read before answering: one wait for the
 * window covers the sender's whole window of frames. */
static gboolean
session_readable (SlSession *session, gpointer state, const gchar *buf, gsize len, gboolean more)
{
  RelpSession *s = state;
  sl_source_mark_read_time ();
  g_byte_array_append (s->in, (const guint8 *) buf, (guint) len);
  gboolean go_on = take_frames (s);
  if (more && go_on)
    return TRUE;
  return answer (s) && go_on;
}

static void
session_closed (SlSession *session, gpointer state)
{
  RelpSession *s = state;
  flush_batch (s);
  if (sl_session_failure (session))
    sl_log (SL_LOG_INFO, _("%s: RELP session with %s broke: %s"), s->owner->super.id, sl_session_peer (session),
            sl_session_failure (session));
  sl_window_unref (s->window);
  g_byte_array_unref (s->in);
  g_string_free (s->out, TRUE);
  g_free (s);
}

/* A session waiting for its window gives up without answering: what the
 * peer did not hear about, it sends again. */
static void
session_cancel (SlSession *session, gpointer state)
{
  sl_window_cancel (((RelpSession *) state)->window);
}

static const SlSessionOps relp_session_ops = {
  .opened = session_opened,
  .readable = session_readable,
  .closed = session_closed,
  .cancel = session_cancel,
};

static gboolean
relp_source_start (SlDriver *d, SlSource *source, GError **error)
{
  RelpSource *self = (RelpSource *) d;
  self->source = source;
  SlListenAddress where = { .ip = self->ip, .port = self->port, .type = SOCK_STREAM, .backlog = self->listen_backlog };
  gboolean inherited;
  gint fd = sl_activation_listen (&self->super, &where, &inherited, error);
  if (fd < 0)
    return FALSE;
  SlListenerSettings settings = {
    .max_connections = sl_source_max_connections (source),
    .so_keepalive = self->so_keepalive,
    .tls = self->tls,
    .session = &relp_session_ops,
    .session_data = self,
  };
  self->listener = sl_listener_start (source, fd, &settings, error);
  if (!self->listener)
    return FALSE;
  sl_log (SL_LOG_INFO, _("relp() listening on %s port %s (%s)"), self->ip, self->port, self->tls ? "tls" : "tcp");
  return TRUE;
}

static void
relp_source_stop (SlDriver *d)
{
  RelpSource *self = (RelpSource *) d;
  g_clear_pointer (&self->listener, sl_listener_stop);
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
