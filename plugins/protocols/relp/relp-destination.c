/* SPDX-License-Identifier: GPL-2.0-or-later */
/* relp() destination: sends each message as a RELP syslog frame (to
 * rsyslog's imrelp or our relp() source) and counts it done only once the
 * peer answered "200 OK".
 *
 * The RELP window spans batches (SL_CAP_ANSWERS): write() sends the
 * batch's frames, at most window-size() of them unanswered at a time,
 * takes the answers that came meanwhile and returns once every frame is
 * sent, not once every one is answered; the core keeps the messages in
 * flight and settles them, oldest first, as write() reports the run of
 * answered frames from the oldest. A call with no message waits for an
 * answer. When the session breaks, the core takes back every message not
 * answered (its queue or disk-buffer()) and hands it back after the
 * reconnect, in order: so a message the peer never confirmed is sent
 * again ("resent"), and one it took but whose answer was lost arrives
 * twice, never not at all.
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

enum
{
  ANSWER_NONE,
  ANSWER_OK,
  ANSWER_REFUSED,
};

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
  /* the window: frames from oldest (not answered) on, span of them sent;
   * their answers in answers[(answers_at + i) % window-size()] */
  guint32 oldest;
  guint span;
  guint answers_at;
  guint8 *answers;          /* ANSWER_* */
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
  { "window-size", SL_INT (RelpDestination, window_size), "128",
    "frames sent and not answered yet, across batches (omrelp's windowSize); max-in-flight() bounds them too" },
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
  self->answers = g_new0 (guint8, self->window_size);
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
  g_free (self->answers);
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

/* The frames in flight are forgotten with the session: the core sends
 * their messages again. */
static void
drop_session (RelpDestination *self)
{
  relp_conn_close (&self->conn);
  self->connected = FALSE;
  g_string_truncate (self->in, 0);
  self->span = 0;
  self->answers_at = 0;
  memset (self->answers, 0, self->window_size);
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
          if (deadline && sl_destination_stopping ())
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

/* Which frame of the window txnr stands for, or -1. */
static gint
window_index (guint32 oldest, guint span, guint32 txnr)
{
  guint64 off = txnr >= oldest ? (guint64) txnr - oldest : (guint64) txnr + RELP_TXNR_MAX - oldest;
  return off < span ? (gint) off : -1;
}

static SlWriteResult
broke (RelpDestination *self, SlWriteBatch *batch, RelpIoStatus io)
{
  sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, _("the RELP session with %s port %s broke: %s"), self->host,
                       self->port, relp_conn_failure (&self->conn, io));
  /* what the peer answered before the break is done, and counted so */
  sl_counter_add (self->acknowledged, batch->answered);
  self->unanswered_at_break = self->span + batch->n - batch->done;
  drop_session (self);
  return SL_WRITE_NOT_CONNECTED;
}

/* Notes one answer; the run of answered frames from the oldest leaves
 * the window and is counted in batch->answered. FALSE when the oldest
 * frame was refused. */
static gboolean
take_answer (RelpDestination *self, SlWriteBatch *batch, const RelpFrame *f)
{
  guint size = (guint) self->window_size;
  gint i = strcmp (f->command, "rsp") == 0 ? window_index (self->oldest, self->span, f->txnr) : -1;
  if (i >= 0 && self->answers[(self->answers_at + i) % size] == ANSWER_NONE)
    {
      guint8 answer = ANSWER_OK;
      if (relp_rsp_code (f->data, f->len) != 200)
        {
          sl_counter_add (self->refused, 1);
          sl_log (SL_LOG_WARNING, _("%s: %s port %s refused a message: %.*s"), self->super.id, self->host, self->port,
                  (gint) MIN (f->len, 200), f->data);
          answer = ANSWER_REFUSED;
        }
      self->answers[(self->answers_at + i) % size] = answer;
    }
  while (self->span && self->answers[self->answers_at] == ANSWER_OK)
    {
      self->answers[self->answers_at] = ANSWER_NONE;
      self->answers_at = (self->answers_at + 1) % size;
      self->oldest = relp_txnr_next (self->oldest);
      self->span--;
      batch->answered++;
    }
  return !self->span || self->answers[self->answers_at] != ANSWER_REFUSED;
}

/* Takes the answers there are, waiting until deadline for the first when
 * wait; RELP_IO_TIMEOUT when none came. *refused: the oldest frame was. */
static RelpIoStatus
take_answers (RelpDestination *self, SlWriteBatch *batch, gboolean wait, gint64 deadline, gboolean *refused)
{
  gsize used = 0;
  RelpIoStatus io;
  guint taken = 0;
  for (;;)
    {
      RelpFrame f;
      io = read_answer (self, &f, taken || !wait ? 0 : deadline, &used);
      if (io == RELP_IO_OK && strcmp (f.command, "serverclose") == 0)
        io = RELP_IO_CLOSED;
      if (io != RELP_IO_OK)
        break;
      taken++;
      if (!take_answer (self, batch, &f))
        {
          *refused = TRUE;
          break;
        }
    }
  g_string_erase (self->in, 0, (gssize) used);
  if (taken && (io == RELP_IO_TIMEOUT || io == RELP_IO_STOPPED || io == RELP_IO_OK))
    return RELP_IO_OK;
  return io;
}

/* Frames for msgs[batch->done..n) while the window has room, in one write. */
static RelpIoStatus
send_frames (RelpDestination *self, SlWriteBatch *batch, gint64 deadline)
{
  const SlTemplateEnv *env = sl_driver_template_env (&self->super);
  g_string_truncate (self->out, 0);
  guint from = batch->done;
  while (batch->done < batch->n && self->span < (guint) self->window_size)
    {
      g_string_truncate (self->text, 0);
      sl_template_append (self->template, batch->msgs[batch->done], env, self->text);
      relp_frame_append (self->out, self->txnr, "syslog", self->text->str, self->text->len);
      if (!self->span)
        self->oldest = self->txnr;
      self->txnr = relp_txnr_next (self->txnr);
      self->span++;
      batch->done++;
    }
  self->sent_on_session += batch->done - from;
  return self->out->len ? relp_conn_write_all (&self->conn, self->out->str, self->out->len, deadline) : RELP_IO_OK;
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
  if (self->unanswered_at_break && batch->n)
    {
      sl_counter_add (self->resent, MIN (self->unanswered_at_break, batch->n));
      self->unanswered_at_break = 0;
    }
  gint64 deadline = deadline_in (self->timeout_ms);
  gboolean refused = FALSE;
  for (;;)
    {
      /* rebind-interval(): the session ends once its frames are answered */
      gboolean rebind = self->rebind_interval > 0 && self->sent_on_session >= (guint64) self->rebind_interval;
      if (rebind && !self->span)
        {
          close_session (self);
          if (batch->done == batch->n)
            break;
          if (!relp_destination_open (d, &error))
            {
              sl_counter_add (self->acknowledged, batch->answered);
              sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, "%s", error->message);
              g_error_free (error);
              return SL_WRITE_NOT_CONNECTED;
            }
          rebind = FALSE;
        }
      if (!rebind)
        {
          RelpIoStatus io = send_frames (self, batch, deadline);
          if (io != RELP_IO_OK)
            return broke (self, batch, io);
        }
      /* with every frame sent, the answers that came are taken without
       * waiting; a full window, a call with nothing to send and a session
       * to end wait for one */
      gboolean all_sent = batch->done == batch->n && !rebind;
      gboolean wait = !all_sent || (!batch->n && !batch->answered);
      if (!self->span)
        break;
      RelpIoStatus io = take_answers (self, batch, wait, deadline, &refused);
      if (refused)
        break;
      if (io == RELP_IO_OK)
        deadline = deadline_in (self->timeout_ms);
      else if (io != RELP_IO_TIMEOUT || wait)
        return broke (self, batch, io);
      if (all_sent && (batch->n || batch->answered))
        break;
    }
  sl_counter_add (self->acknowledged, batch->answered);
  if (refused)
    {
      /* the session ends, and what was not answered is sent again */
      self->unanswered_at_break = self->span + batch->n - batch->done;
      close_session (self);
      return sl_write_batch_fail (batch, SL_WRITE_ERROR, 0, _("%s port %s refused a message"), self->host, self->port);
    }
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
  .capabilities = SL_CAP_TEMPLATES | SL_CAP_DISK_BUFFER | SL_CAP_ANSWERS,
  .instance_size = sizeof (RelpDestination),
  .init = relp_destination_init,
  .free = relp_destination_free,
  .ops.destination = &relp_destination_ops,
};
