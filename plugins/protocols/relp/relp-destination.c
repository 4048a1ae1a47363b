/* SPDX-License-Identifier: GPL-2.0-or-later */
/* relp() destination: sends each message as a RELP syslog frame (to
 * rsyslog's imrelp or our relp() source) and counts it done only once the
 * peer answered "200 OK".
 *
 * write() sends the batch's frames, at most window-size() unanswered at a
 * time, and reads answers until every frame of the batch is answered,
 * the session breaks, or timeout() passes; done is the run of answered
 * messages from the first. The rest stays with the core (its queue or
 * disk-buffer()), which hands it back after the reconnect: so a message
 * the peer never confirmed is sent again ("resent"), and one it took but
 * whose answer was lost arrives twice, never not at all.
 *
 * librelp's client is not used: relpCltSendSyslog() returns once a frame
 * is in its window, it tells nobody when the answer comes, and it keeps
 * unanswered frames only in its own memory, so a disk buffer could not
 * know when a message is safe. */
#include "plugins/protocols/relp/relp-conn.h"
#include "plugins/protocols/relp/relp-frame.h"
#include "plugins/protocols/relp/relp-module.h"
#include "core/config/error.h"
#include "core/route/destination.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/io/net-connect.h"
#include "core/plugin/plugin.h"
#include "core/stats.h"
#include "core/message/template.h"
#include "core/io/tls.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* how often a wait looks whether the destination is stopping */
#define STOP_POLL_US (200 * G_TIME_SPAN_MILLISECOND)
#define MAX_ANSWER 4096
/* how long a stopping destination waits for answers */
#define STOP_GRACE_MS 2000

typedef struct
{
  SlDriver super;
  const gchar *host;
  const gchar *port;
  SlTemplate *template;
  gint window_size;
  gint64 timeout_ms;
  gint64 conn_timeout_ms;
  gint rebind_interval;
  gboolean so_keepalive;
  const SlCfgNode *tls_node;
  SlTlsContext *tls;

  RelpConn conn;
  gboolean connected;
  guint32 txnr;             /* the next frame's */
  guint64 sent_on_session;  /* syslog frames, for rebind-interval() */
  guint unanswered_at_break; /* what the next write() sends again */
  GString *out;
  GString *in;
  GString *text;
  guint8 *answered;         /* per message of the batch */
  gsize answered_cap;
  gint64 stop_deadline;

  SlCounter *acknowledged;
  SlCounter *resent;
  SlCounter *sessions;
  SlCounter *refused;
} RelpDestination;

static const SlOptionSpec relp_destination_options[] = {
  { "host", SL_STRING (RelpDestination, host), NULL, "the host to send to (omrelp's target)", .flags = SL_OPT_POSITIONAL },
  { "port", SL_STRING (RelpDestination, port), "2514", "the port to send to" },
  { "template", SL_TEMPLATE (RelpDestination, template), "<${PRI}>${ISODATE} ${HOST} ${MSGHDR}${MESSAGE}",
    "what each message is sent as" },
  { "window-size", SL_INT (RelpDestination, window_size), "128", "frames sent before their answers came" },
  { "timeout", SL_DURATION (RelpDestination, timeout_ms), "90", "how long answers may take before the session is given up" },
  { "conn-timeout", SL_DURATION (RelpDestination, conn_timeout_ms), "10", "how long connecting and opening may take" },
  { "rebind-interval", SL_INT (RelpDestination, rebind_interval), "0",
    "reconnect after this many messages (0: never), to spread load behind a balancer" },
  { "so-keepalive", SL_BOOL (RelpDestination, so_keepalive), "no", "enable TCP keepalive probes" },
  { "tls", SL_BLOCK (RelpDestination, tls_node), NULL,
    "TLS: ca-file() peer-verify() key-file() cert-file() sni() trusted-keys() ... (omrelp's tls.*)" },
  { NULL }
};

static gboolean
relp_destination_init (SlDriver *d, GError **error)
{
  RelpDestination *self = (RelpDestination *) d;
  self->conn.fd = -1;
  self->conn.stop_fd = -1;
  if (!self->host)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("relp() needs the host to send to"));
      return FALSE;
    }
  if (self->window_size < 1)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "window-size"),
                        _("window-size() must be at least 1, not %d"), self->window_size);
      return FALSE;
    }
  self->txnr = 1;
  self->out = g_string_sized_new (65536);
  self->in = g_string_sized_new (MAX_ANSWER);
  self->text = g_string_sized_new (1024);
  self->acknowledged = sl_stats_counter ("destination", d->id, d->klass->name, "acknowledged");
  self->resent = sl_stats_counter ("destination", d->id, d->klass->name, "resent");
  self->sessions = sl_stats_counter ("destination", d->id, d->klass->name, "sessions");
  self->refused = sl_stats_counter ("destination", d->id, d->klass->name, "refused");
  if (!self->tls_node)
    return TRUE;
  self->tls = sl_tls_context_new ("relp()", SL_TLS_CLIENT, self->tls_node, d->pos, error);
  return self->tls != NULL;
}

static void
relp_destination_free (SlDriver *d)
{
  RelpDestination *self = (RelpDestination *) d;
  relp_conn_close (&self->conn);
  if (self->tls)
    sl_tls_context_unref (self->tls);
  if (self->out)
    {
      g_string_free (self->out, TRUE);
      g_string_free (self->in, TRUE);
      g_string_free (self->text, TRUE);
    }
  g_free (self->answered);
}

static gint64
deadline_in (gint64 ms)
{
  return g_get_monotonic_time () + ms * 1000;
}

/* A slice of a wait, short enough to notice a stop. */
static gint64
slice (gint64 deadline)
{
  return MIN (deadline, g_get_monotonic_time () + STOP_POLL_US);
}

static gint
connect_socket (RelpDestination *self, GError **error)
{
  return sl_net_connect (self->host, self->port, (gint) self->conn_timeout_ms, self->so_keepalive, error);
}

static void
drop_session (RelpDestination *self)
{
  relp_conn_close (&self->conn);
  self->connected = FALSE;
  g_string_truncate (self->in, 0);
}

/* Reads one answer frame into *f (its data inside self->in until the
 * next call); the bytes after it stay for the next. */
static RelpIoStatus
read_answer (RelpDestination *self, RelpFrame *f, gint64 deadline, gsize *used)
{
  for (;;)
    {
      if (*used)
        {
          g_string_erase (self->in, 0, (gssize) *used);
          *used = 0;
        }
      RelpFrameStatus st = relp_frame_parse (self->in->str, self->in->len, MAX_ANSWER, f, used);
      if (st == RELP_FRAME_OK)
        return RELP_IO_OK;
      if (st != RELP_FRAME_INCOMPLETE)
        {
          errno = EPROTO;
          return RELP_IO_FAILED;
        }
      gchar buf[MAX_ANSWER];
      gsize got = 0;
      RelpIoStatus io;
      do
        {
          /* a stopping daemon gives a silent peer a little while, not timeout() */
          if (sl_destination_stopping ())
            {
              if (!self->stop_deadline)
                self->stop_deadline = deadline_in (STOP_GRACE_MS);
              if (g_get_monotonic_time () >= MIN (deadline, self->stop_deadline))
                return RELP_IO_STOPPED;
            }
          io = relp_conn_read (&self->conn, buf, sizeof buf, &got, slice (deadline));
        }
      while (io == RELP_IO_TIMEOUT && g_get_monotonic_time () < deadline);
      if (io != RELP_IO_OK)
        return io;
      g_string_append_len (self->in, buf, (gssize) got);
    }
}

static const gchar client_offers[] = "relp_version=0\nrelp_software=sluice\ncommands=syslog";

static gboolean
relp_destination_open (SlDriver *d, GError **error)
{
  RelpDestination *self = (RelpDestination *) d;
  if (self->connected)
    return TRUE;
  gint fd = connect_socket (self, error);
  if (fd < 0)
    return FALSE;
  relp_conn_init (&self->conn, fd, self->tls, self->host, -1);
  gint64 deadline = deadline_in (self->conn_timeout_ms);
  RelpIoStatus io = relp_conn_handshake (&self->conn, deadline);
  const gchar *why = NULL;
  if (io == RELP_IO_OK)
    {
      g_string_truncate (self->out, 0);
      self->txnr = 1;
      relp_frame_append (self->out, self->txnr, "open", client_offers, sizeof client_offers - 1);
      self->txnr = relp_txnr_next (self->txnr);
      io = relp_conn_write_all (&self->conn, self->out->str, self->out->len, deadline);
    }
  else
    why = "TLS handshake";
  RelpFrame f;
  gsize used = 0;
  if (io == RELP_IO_OK)
    io = read_answer (self, &f, deadline, &used);
  if (io == RELP_IO_OK && (f.txnr != 1 || strcmp (f.command, "rsp") != 0 || relp_rsp_code (f.data, f.len) != 200
                           || !g_strstr_len (f.data, (gssize) f.len, "syslog")))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("%s port %s refused the RELP session: %.*s"), self->host,
                   self->port, (gint) MIN (f.len, 200), f.data);
      drop_session (self);
      return FALSE;
    }
  if (io != RELP_IO_OK)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("RELP session with %s port %s: %s%s%s"), self->host,
                   self->port, why ? why : "", why ? ": " : "", relp_conn_failure (&self->conn, io));
      drop_session (self);
      return FALSE;
    }
  g_string_erase (self->in, 0, (gssize) used);
  self->connected = TRUE;
  self->sent_on_session = 0;
  sl_counter_add (self->sessions, 1);
  return TRUE;
}

/* Ends the session politely: "close", and its answer, which comes after
 * every answer before it. */
static void
close_session (RelpDestination *self)
{
  if (!self->connected)
    return;
  g_string_truncate (self->out, 0);
  relp_frame_append (self->out, self->txnr, "close", "", 0);
  self->txnr = relp_txnr_next (self->txnr);
  gint64 deadline = deadline_in (MIN (self->timeout_ms, 1000));
  if (relp_conn_write_all (&self->conn, self->out->str, self->out->len, deadline) == RELP_IO_OK)
    {
      RelpFrame f;
      gsize used = 0;
      while (read_answer (self, &f, deadline, &used) == RELP_IO_OK && strcmp (f.command, "serverclose") != 0
             && f.txnr != 0 && relp_txnr_next (f.txnr) != self->txnr)
        ;
    }
  drop_session (self);
}

static void
relp_destination_close (SlDriver *d)
{
  close_session ((RelpDestination *) d);
}

/* Which message of the batch txnr stands for, or -1. */
static gint
batch_index (guint32 first, guint n, guint32 txnr)
{
  guint64 off = txnr >= first ? (guint64) txnr - first : (guint64) txnr + RELP_TXNR_MAX - first;
  return off < n ? (gint) off : -1;
}

static SlWriteResult
broke (RelpDestination *self, SlWriteBatch *batch, guint done, RelpIoStatus io)
{
  sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, _("the RELP session with %s port %s broke: %s"), self->host,
                       self->port, relp_conn_failure (&self->conn, io));
  /* what the peer answered before the break is done, and counted so */
  sl_counter_add (self->acknowledged, done);
  self->unanswered_at_break = batch->n - done;
  drop_session (self);
  return SL_WRITE_NOT_CONNECTED;
}

static SlWriteResult
relp_destination_write (SlDriver *d, SlWriteBatch *batch)
{
  RelpDestination *self = (RelpDestination *) d;
  GError *error = NULL;
  if (!self->connected && !relp_destination_open (d, &error))
    {
      sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, "%s", error->message);
      g_error_free (error);
      return SL_WRITE_NOT_CONNECTED;
    }
  guint n = batch->n;
  if (self->unanswered_at_break)
    {
      sl_counter_add (self->resent, MIN (self->unanswered_at_break, n));
      self->unanswered_at_break = 0;
    }
  if (self->answered_cap < n)
    {
      self->answered_cap = n;
      self->answered = g_realloc (self->answered, n);
    }
  memset (self->answered, 0, n);
  const SlTemplateEnv *env = sl_driver_template_env (d);
  guint32 first = self->txnr;
  guint sent = 0, done = 0, in_flight = 0;
  gint64 deadline = deadline_in (self->timeout_ms);
  gsize used = 0;
  while (done < n)
    {
      g_string_truncate (self->out, 0);
      while (sent < n && in_flight < (guint) self->window_size)
        {
          g_string_truncate (self->text, 0);
          sl_template_append (self->template, batch->msgs[sent], env, self->text);
          relp_frame_append (self->out, self->txnr, "syslog", self->text->str, self->text->len);
          self->txnr = relp_txnr_next (self->txnr);
          sent++;
          in_flight++;
        }
      if (self->out->len)
        {
          RelpIoStatus io = relp_conn_write_all (&self->conn, self->out->str, self->out->len, deadline);
          if (io != RELP_IO_OK)
            {
              batch->done = done;
              return broke (self, batch, done, io);
            }
          deadline = deadline_in (self->timeout_ms);
        }
      RelpFrame f;
      RelpIoStatus io = read_answer (self, &f, deadline, &used);
      if (io == RELP_IO_OK && strcmp (f.command, "serverclose") == 0)
        io = RELP_IO_CLOSED;
      if (io != RELP_IO_OK)
        {
          batch->done = done;
          return broke (self, batch, done, io);
        }
      gint i = strcmp (f.command, "rsp") == 0 ? batch_index (first, sent, f.txnr) : -1;
      if (i < 0 || self->answered[i])
        continue;
      self->answered[i] = 1;
      in_flight--;
      if (relp_rsp_code (f.data, f.len) != 200)
        {
          sl_counter_add (self->refused, 1);
          sl_log (SL_LOG_WARNING, _("%s: %s port %s refused a message: %.*s"), d->id, self->host, self->port,
                  (gint) MIN (f.len, 200), f.data);
          self->answered[i] = 2;
        }
      while (done < n && self->answered[done] == 1)
        done++;
      if (done < n && self->answered[done] == 2)
        break;
    }
  g_string_erase (self->in, 0, (gssize) used);
  sl_counter_add (self->acknowledged, done);
  self->sent_on_session += sent;
  batch->done = done;
  if (done < n)
    {
      /* a refusal: the session goes on, but what followed it is sent again */
      self->unanswered_at_break = n - done;
      close_session (self);
      return sl_write_batch_fail (batch, SL_WRITE_ERROR, 0, _("%s port %s refused a message"), self->host, self->port);
    }
  if (self->rebind_interval > 0 && self->sent_on_session >= (guint64) self->rebind_interval)
    close_session (self);
  return SL_WRITE_OK;
}

static const SlDestinationOps relp_destination_ops = {
  .open = relp_destination_open,
  .write = relp_destination_write,
  .close = relp_destination_close,
};

const SlDriverClass relp_destination_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "relp",
  .summary = "sends RELP (to rsyslog's imrelp); a message is done once the peer answered it",
  .options = relp_destination_options,
  .capabilities = SL_CAP_TEMPLATES | SL_CAP_DISK_BUFFER,
  .instance_size = sizeof (RelpDestination),
  .init = relp_destination_init,
  .free = relp_destination_free,
  .ops.destination = &relp_destination_ops,
};
