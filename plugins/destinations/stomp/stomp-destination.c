/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stomp(): each message as a STOMP SEND frame, as syslog-ng 3.38's stomp()
 * sends it: to destination(), persistent:true with persistent(yes), the
 * value-pairs() as frame headers and body() as the body. The client asks
 * for STOMP 1.2 (1.0 and 1.1 accepted), so header values are escaped where
 * syslog-ng's 1.0 frames would break, and a body with a NUL gets a
 * content-length. Each receipt id is unique (syslog-ng sends receipt:0,
 * one frame at a time); RabbitMQ passes it on as a header.
 * With ack(yes) each SEND asks for a receipt and a message is done only
 * once its RECEIPT came back (RabbitMQ sends it once the message is
 * routed and, when persistent, on disk); up to batch-lines() frames are in
 * flight. With ack(no), the default as in syslog-ng, a message is done
 * once written to the socket, and a broker that dies may lose what it had
 * not taken yet. */
#include "plugins/destinations/stomp/stomp-frame.h"
#include "core/config/error.h"
#include "core/route/destination.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/io/net-connect.h"
#include "core/plugin/plugin.h"
#include "core/message/template.h"
#include "core/message/value-pairs.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define POLL_SLICE_MS 200

typedef struct
{
  SlDriver base;
  const gchar *host;
  const gchar *port;
  const gchar *destination;
  gboolean persistent;
  gboolean ack;
  const gchar *username;
  const gchar *password;
  SlTemplate *body;
  const SlCfgNode *value_pairs;
  gint batch_lines;
  gint64 timeout_ms;

  SlValuePairs *vp;
  const SlTemplateEnv *env;
  gint fd;
  StompVersion version;
  guint64 receipt;            /* the last receipt id asked for */
  GString *out;
  GString *in;
  GString *body_buf;
  GString *header_value;
  StompFrame frame;
} StompDestination;

static const SlOptionSpec stomp_options[] = {
  { "host", SL_STRING (StompDestination, host), "127.0.0.1", "the broker's name or address" },
  { "port", SL_PORT (StompDestination, port), "61613", "the broker's STOMP port" },
  { "destination", SL_STRING (StompDestination, destination), "/topic/syslog",
    "where messages go: /topic/NAME, /queue/NAME, /exchange/NAME/KEY on RabbitMQ" },
  { "persistent", SL_BOOL (StompDestination, persistent), "yes", "send persistent:true, kept on disk by the broker" },
  { "ack", SL_BOOL (StompDestination, ack), "no",
    "ask for a RECEIPT for each message and count it done only once it came" },
  { "username", SL_STRING (StompDestination, username), NULL, "the login sent with CONNECT" },
  { "password", SL_STRING (StompDestination, password), NULL, "the passcode sent with CONNECT" },
  { "body", SL_TEMPLATE (StompDestination, body), NULL, "each message's body; empty when unset, as in syslog-ng" },
  { "value-pairs", SL_BLOCK (StompDestination, value_pairs), NULL,
    "the pairs sent as frame headers: scope(), key(), exclude(), pair(), rekey(); "
    "default scope(selected-macros nv-pairs sdata)" },
  { "batch-lines", SL_INT (StompDestination, batch_lines), "100",
    "with ack(yes), most frames sent before their receipts are awaited", SL_RANGE_POSITIVE },
  { "timeout", SL_DURATION (StompDestination, timeout_ms), "10",
    "how long connecting, CONNECTED and each receipt may take; a bare number is seconds" },
  { "retries", SL_UNBOUND (SL_OPT_INT), "3",
    "accepted for syslog-ng compatibility: a message is sent again after a reconnect until it is done",
    SL_RANGE_POSITIVE },
  { NULL }
};

static gboolean
stomp_init (SlDriver *d, GError **error)
{
  StompDestination *self = (StompDestination *) d;
  if (!*self->destination)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "destination"),
                        _("stomp() needs a destination(), such as \"/topic/syslog\""));
      return FALSE;
    }
  if (!(self->vp = sl_value_pairs_new_from_block (self->value_pairs, d->pos, "stomp() value-pairs()", 0, NULL,
                                                   error)))
    return FALSE;
  self->env = sl_driver_template_env (d);
  self->fd = -1;
  self->out = g_string_sized_new (4096);
  self->in = g_string_sized_new (4096);
  self->body_buf = g_string_sized_new (1024);
  self->header_value = g_string_sized_new (256);
  stomp_frame_init (&self->frame);
  return TRUE;
}

static void
stomp_close (SlDriver *d)
{
  StompDestination *self = (StompDestination *) d;
  if (self->fd >= 0)
    close (self->fd);
  self->fd = -1;
  g_string_truncate (self->in, 0);
}

static gint
connect_socket (StompDestination *self, GError **error)
{
  gint fd = sl_net_connect (self->host, self->port, (gint) self->timeout_ms, FALSE, error);
  if (fd < 0)
    g_prefix_error (error, _("STOMP broker: "));
  return fd;
}

/* Writes all of out; FALSE when the connection failed or stayed full for
 * timeout(). */
static gboolean
send_all (StompDestination *self, const GString *out)
{
  gsize sent = 0;
  gint64 deadline = g_get_monotonic_time () + self->timeout_ms * 1000;
  while (sent < out->len)
    {
      gssize n = send (self->fd, out->str + sent, out->len - sent, MSG_NOSIGNAL);
      if (n > 0)
        {
          sent += (gsize) n;
          deadline = g_get_monotonic_time () + self->timeout_ms * 1000;
          continue;
        }
      if (n < 0 && errno != EAGAIN && errno != EINTR)
        return FALSE;
      if (g_get_monotonic_time () > deadline || sl_destination_stopping ())
        return FALSE;
      struct pollfd p = { .fd = self->fd, .events = POLLOUT };
      poll (&p, 1, POLL_SLICE_MS);
    }
  return TRUE;
}

typedef enum
{
  READ_FRAME,
  READ_NONE,     /* nothing within the wait asked for */
  READ_FAILED,
} ReadStatus;

/* Reads the next frame into self->frame, waiting up to wait_ms (0: only
 * what already arrived). */
static ReadStatus
read_frame (StompDestination *self, gint64 wait_ms, GError **error)
{
  gint64 deadline = g_get_monotonic_time () + wait_ms * 1000;
  for (;;)
    {
      gsize used = 0;
      StompParse parsed = stomp_frame_parse (self->in->str, self->in->len, self->version, &self->frame, &used, error);
      if (parsed == STOMP_PARSE_ERROR)
        return READ_FAILED;
      if (parsed == STOMP_PARSE_FRAME)
        {
          g_string_erase (self->in, 0, (gssize) used);
          return READ_FRAME;
        }
      gchar buf[4096];
      gssize n = recv (self->fd, buf, sizeof buf, 0);
      if (n > 0)
        {
          g_string_append_len (self->in, buf, n);
          continue;
        }
      if (n == 0 || (errno != EAGAIN && errno != EINTR))
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("the broker closed the connection"));
          return READ_FAILED;
        }
      gint64 left = (deadline - g_get_monotonic_time ()) / 1000;
      if (left <= 0)
        return READ_NONE;
      struct pollfd p = { .fd = self->fd, .events = POLLIN };
      poll (&p, 1, (gint) MIN (left, POLL_SLICE_MS));
    }
}

static gchar *
error_text (const StompFrame *frame)
{
  const gchar *message = stomp_frame_get (frame, "message");
  return g_strdup_printf ("%s%s%.*s", message ? message : _("ERROR frame"), frame->body->len ? ": " : "",
                          (gint) MIN (frame->body->len, 200), frame->body->str);
}

static gboolean
stomp_open (SlDriver *d, GError **error)
{
  StompDestination *self = (StompDestination *) d;
  self->fd = connect_socket (self, error);
  if (self->fd < 0)
    return FALSE;
  self->version = STOMP_1_0;
  self->receipt = 0;
  g_string_truncate (self->out, 0);
  /* no host header: RabbitMQ would take it as the virtual host */
  stomp_frame_begin (self->out, "CONNECT");
  stomp_frame_header (self->out, STOMP_1_0, "accept-version", "1.0,1.1,1.2");
  stomp_frame_header (self->out, STOMP_1_0, "heart-beat", "0,0");
  if (self->username)
    stomp_frame_header (self->out, STOMP_1_0, "login", self->username);
  if (self->password)
    stomp_frame_header (self->out, STOMP_1_0, "passcode", self->password);
  g_string_append (self->out, "\n");
  g_string_append_c (self->out, '\0');
  if (!send_all (self, self->out))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("cannot send CONNECT to %s port %s"), self->host,
                   self->port);
      stomp_close (d);
      return FALSE;
    }
  GError *read_error = NULL;
  ReadStatus status = read_frame (self, self->timeout_ms, &read_error);
  if (status != READ_FRAME || strcmp (self->frame.command, "CONNECTED") != 0)
    {
      gchar *why = status == READ_FRAME ? error_text (&self->frame)
                   : g_strdup (read_error ? read_error->message : _("no answer within timeout()"));
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("the STOMP broker at %s port %s refused CONNECT: %s"),
                   self->host, self->port, why);
      g_free (why);
      g_clear_error (&read_error);
      stomp_close (d);
      return FALSE;
    }
  const gchar *version = stomp_frame_get (&self->frame, "version");
  self->version = !version ? STOMP_1_0 : g_str_equal (version, "1.2") ? STOMP_1_2
                  : g_str_equal (version, "1.1") ? STOMP_1_1 : STOMP_1_0;
  return TRUE;
}

/* Every value as its text, whatever its type hint, as syslog-ng's stomp()
 * sends it: up to a NUL, which a header cannot carry. */
static gboolean
add_header (const gchar *name, SlValueType type, const gchar *value, gsize len, gpointer user_data)
{
  StompDestination *self = user_data;
  g_string_truncate (self->header_value, 0);
  g_string_append_len (self->header_value, value, len);
  stomp_frame_header (self->out, self->version, name, self->header_value->str);
  return TRUE;
}

static void
append_send (StompDestination *self, const SlMessage *msg)
{
  stomp_frame_begin (self->out, "SEND");
  stomp_frame_header (self->out, self->version, "destination", self->destination);
  if (self->persistent)
    stomp_frame_header (self->out, self->version, "persistent", "true");
  if (self->ack)
    {
      gchar id[24];
      g_snprintf (id, sizeof id, "%" G_GUINT64_FORMAT, ++self->receipt);
      stomp_frame_header (self->out, self->version, "receipt", id);
    }
  sl_value_pairs_foreach (self->vp, msg, self->env, SL_VALUE_PAIRS_ASCENDING, add_header, self);
  g_string_truncate (self->body_buf, 0);
  if (self->body)
    sl_template_append (self->body, msg, self->env, self->body_buf);
  stomp_frame_end (self->out, self->body_buf->str, self->body_buf->len);
}

static SlWriteResult
connection_failed (SlWriteBatch *batch, const gchar *why)
{
  return sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, _("the connection to the STOMP broker failed: %s"), why);
}

/* Waits for the receipts of the round's k frames, whose ids follow
 * first_id; *received counts those that came, in order. */
static gboolean
await_receipts (StompDestination *self, guint64 first_id, guint k, guint *received, gchar **why)
{
  gint64 deadline = g_get_monotonic_time () + self->timeout_ms * 1000;
  while (*received < k)
    {
      GError *error = NULL;
      ReadStatus status = read_frame (self, POLL_SLICE_MS, &error);
      if (status == READ_FAILED)
        {
          *why = g_strdup (error->message);
          g_error_free (error);
          return FALSE;
        }
      if (status == READ_NONE)
        {
          if (g_get_monotonic_time () > deadline)
            {
              *why = g_strdup (_("no RECEIPT within timeout()"));
              return FALSE;
            }
          continue;
        }
      if (g_str_equal (self->frame.command, "ERROR"))
        {
          *why = error_text (&self->frame);
          return FALSE;
        }
      const gchar *id = stomp_frame_get (&self->frame, "receipt-id");
      if (!g_str_equal (self->frame.command, "RECEIPT") || !id)
        continue;
      /* receipts come in the order the frames were sent */
      guint64 n = g_ascii_strtoull (id, NULL, 10);
      if (n >= first_id && n < first_id + k && n - first_id + 1 > *received)
        *received = (guint) (n - first_id + 1);
      deadline = g_get_monotonic_time () + self->timeout_ms * 1000;
    }
  return TRUE;
}

static SlWriteResult
stomp_write (SlDriver *d, SlWriteBatch *batch)
{
  StompDestination *self = (StompDestination *) d;
  /* anything the broker sent since (an ERROR before it closes) */
  GError *error = NULL;
  ReadStatus early = read_frame (self, 0, &error);
  if (early == READ_FAILED || (early == READ_FRAME && g_str_equal (self->frame.command, "ERROR")))
    {
      gchar *why = early == READ_FRAME ? error_text (&self->frame) : g_strdup (error->message);
      g_clear_error (&error);
      SlWriteResult r = connection_failed (batch, why);
      g_free (why);
      return r;
    }
  while (batch->done < batch->n)
    {
      guint k = self->ack ? MIN (batch->n - batch->done, (guint) self->batch_lines) : batch->n - batch->done;
      guint64 first_id = self->receipt + 1;
      g_string_truncate (self->out, 0);
      for (guint i = 0; i < k; i++)
        append_send (self, batch->msgs[batch->done + i]);
      if (!send_all (self, self->out))
        return connection_failed (batch, g_strerror (errno));
      if (!self->ack)
        {
          batch->done += k;
          continue;
        }
      guint received = 0;
      gchar *why = NULL;
      gboolean ok = await_receipts (self, first_id, k, &received, &why);
      batch->done += received;
      if (!ok)
        {
          SlWriteResult r = connection_failed (batch, why);
          g_free (why);
          return r;
        }
    }
  return SL_WRITE_OK;
}

static void
stomp_free (SlDriver *d)
{
  StompDestination *self = (StompDestination *) d;
  stomp_close (d);
  sl_value_pairs_free (self->vp);
  if (self->out)
    {
      g_string_free (self->out, TRUE);
      g_string_free (self->in, TRUE);
      g_string_free (self->body_buf, TRUE);
      g_string_free (self->header_value, TRUE);
      stomp_frame_clear (&self->frame);
    }
}

static const SlDestinationOps stomp_ops = {
  .open = stomp_open,
  .write = stomp_write,
  .close = stomp_close,
};

static const SlDriverClass stomp_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "stomp",
  .summary = "each message as a STOMP SEND frame (RabbitMQ, ActiveMQ), with ack(yes) done once its RECEIPT came",
  .options = stomp_options,
  .capabilities = SL_CAP_TEMPLATES | SL_CAP_WORKERS | SL_CAP_DISK_BUFFER,
  .instance_size = sizeof (StompDestination),
  .init = stomp_init,
  .free = stomp_free,
  .ops.destination = &stomp_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "stomp",
  .drivers = (const SlDriverClass *const[]) { &stomp_class, NULL },
};
