/* SPDX-License-Identifier: GPL-2.0-or-later */
/* riemann(): each message as one Riemann event, with syslog-ng 3.38's
 * options and defaults (host ${HOST}, service ${PROGRAM}, time
 * ${UNIXTIME}, port 5555 over TCP). On riemann-c-client (Debian's
 * libriemann-client-dev), the client syslog-ng's module uses: its protobuf
 * code, framing and TLS are the ones the Riemann tools share. Up to
 * batch-lines() events go in one Msg; a message is done only once the
 * server answered that Msg with ok; events it answers with an error are
 * sent retries() times in all, then dropped and counted, and a message
 * whose metric() or ttl() is not a number is dropped and counted, both as
 * syslog-ng does. */
#include "core/config/error.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/message/message.h"
#include "core/plugin/plugin.h"
#include "core/stats.h"
#include "core/message/template.h"
#include "core/message/value-pairs.h"
#include "core/io/tls-block.h"

#include <errno.h>
#include <riemann/simple.h>
#include <stdlib.h>
#include <string.h>

enum { FIELD_HOST, FIELD_SERVICE, FIELD_DESCRIPTION, FIELD_STATE, N_STRING_FIELDS };

typedef struct
{
  SlDriver base;
  const gchar *server;
  gint port;
  const SlCfgNode *type_node;
  SlTemplate *strings[N_STRING_FIELDS];
  GPtrArray *event_time_spec;
  SlTemplate *metric;
  SlTemplate *ttl;
  GPtrArray *tags;
  const SlCfgNode *attributes_node;
  gint64 timeout_ms;
  const SlCfgNode *tls_node;
  gint batch_lines;
  gint retries;

  SlOptions *type_options;  /* type("tls" ca-file() ...), as syslog-ng's grammar takes it */
  gint type;
  SlTlsBlock *tls;           /* tls() and the TLS options of type() */
  SlTemplate *event_time;
  riemann_event_field_t event_time_unit;
  SlValuePairs *attributes;
  GString *attribute_value;
  const SlTemplateEnv *env;
  riemann_client_t *client;
  GString *scratch;
  gint refusals;             /* answers with an error in a row for the first Msg of the rest */
  SlCounter *conversion_errors;
  SlCounter *refused;
} RiemannDestination;

static const SlOptionWord type_words[] = {
  { "tcp", RIEMANN_CLIENT_TCP }, { "udp", RIEMANN_CLIENT_UDP }, { "tls", RIEMANN_CLIENT_TLS }, { NULL }
};

static const SlOptionSpec type_options[] = {
  { "type", SL_CHOICE (RiemannDestination, type), "tcp", "tcp, udp or tls", .words = type_words,
    .flags = SL_OPT_POSITIONAL },
  SL_TLS_INLINE_OPTIONS,
  { NULL }
};

static const SlOptionSpec riemann_options[] = {
  { "server", SL_STRING (RiemannDestination, server), "127.0.0.1", "the Riemann server's name or address" },
  { "port", SL_INT (RiemannDestination, port), "5555", "the Riemann server's port", SL_RANGE (1, 65535) },
  { "type", SL_BLOCK (RiemannDestination, type_node), NULL,
    "tcp (the default), udp or tls; after tls, its files may follow as in tls(): type(\"tls\" ca-file(\"ca.pem\"))" },
  { "host", SL_TEMPLATE (RiemannDestination, strings[FIELD_HOST]), "${HOST}", "the event's host" },
  { "service", SL_TEMPLATE (RiemannDestination, strings[FIELD_SERVICE]), "${PROGRAM}", "the event's service" },
  { "description", SL_TEMPLATE (RiemannDestination, strings[FIELD_DESCRIPTION]), NULL, "the event's description" },
  { "state", SL_TEMPLATE (RiemannDestination, strings[FIELD_STATE]), NULL, "the event's state (ok, warning, ...)" },
  { "event-time", SL_LIST (RiemannDestination, event_time_spec), NULL,
    "the event's time, a template of a UNIX time (default ${UNIXTIME}), then seconds or microseconds" },
  { "metric", SL_TEMPLATE (RiemannDestination, metric), NULL, "the event's metric, a number (sent as a double)" },
  { "ttl", SL_TEMPLATE (RiemannDestination, ttl), NULL, "how many seconds the event is valid, a number" },
  { "tags", SL_LIST (RiemannDestination, tags), NULL, "the event's tags; without it, the message's tags" },
  { "attributes", SL_BLOCK (RiemannDestination, attributes_node), NULL,
    "name-value pairs as the event's attributes: value-pairs' scope(), key(), exclude(), pair(), rekey(), NAME(VALUE)" },
  { "timeout", SL_DURATION (RiemannDestination, timeout_ms), "0",
    "how long a send or an answer may take, a bare number in seconds; 0: no limit" },
  { "tls", SL_BLOCK (RiemannDestination, tls_node), NULL,
    "for type(tls): ca-file(), cert-file(), key-file() (doc/tls.md, \"The tls() block\")" },
  { "batch-lines", SL_INT (RiemannDestination, batch_lines), "0",
    "most events in one message to the server, each confirmed by its answer; 0 or 1: one at a time",
    SL_RANGE_NON_NEGATIVE },
  { "retries", SL_INT (RiemannDestination, retries), "3",
    "how many times events the server answered with an error are sent, before they are dropped and counted",
    SL_RANGE_POSITIVE },
  { NULL }
};

static gboolean
is_number (const gchar *text, gdouble *value)
{
  gchar *end = NULL;
  errno = 0;
  *value = g_ascii_strtod (text, &end);
  return *text && end && !*end && errno == 0;
}

/* A literal metric() or ttl() that could never be sent is refused now,
 * rather than dropping every message. */
static gboolean
check_literal_number (RiemannDestination *self, SlTemplate *t, const gchar *option, gboolean non_negative,
                      GError **error)
{
  gdouble value;
  if (!t || !sl_template_is_literal (t) || !*sl_template_text (t))
    return TRUE;
  if (is_number (sl_template_text (t), &value) && (!non_negative || value >= 0))
    return TRUE;
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (self->base.options, option),
                    non_negative ? _("riemann() %s() must be a number of seconds from 0, not '%s'")
                                 : _("riemann() %s() must be a number, not '%s'"),
                    option, sl_template_text (t));
  return FALSE;
}

static gboolean
read_event_time (RiemannDestination *self, GError **error)
{
  GPtrArray *spec = self->event_time_spec;
  const gchar *text = spec && spec->len ? g_ptr_array_index (spec, 0) : "${UNIXTIME}";
  const gchar *unit = spec && spec->len > 1 ? g_ptr_array_index (spec, 1) : "seconds";
  SlCfgPos pos = sl_options_pos (self->base.options, "event-time");
  if (spec && spec->len > 2)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("riemann() event-time() takes a template and a unit"));
      return FALSE;
    }
  if (g_str_equal (unit, "seconds"))
    self->event_time_unit = RIEMANN_EVENT_FIELD_TIME;
  else if (g_str_equal (unit, "microseconds"))
    self->event_time_unit = RIEMANN_EVENT_FIELD_TIME_MICROS;
  else
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos,
                        _("riemann() event-time()'s unit is seconds or microseconds, not '%s'"), unit);
      return FALSE;
    }
  GError *template_error = NULL;
  self->event_time = sl_template_compile (text, &template_error);
  if (!self->event_time)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("riemann() event-time(): %s"), template_error->message);
      g_error_free (template_error);
      return FALSE;
    }
  return TRUE;
}

/* type() and tls(): riemann-c-client (GnuTLS) takes a CA file, a client
 * certificate and its key, and always checks the server's certificate
 * and name against that CA; nothing else. */
static gboolean
read_tls (RiemannDestination *self, GError **error)
{
  SlDriver *d = &self->base;
  self->type = RIEMANN_CLIENT_TCP;
  if (self->type_node)
    {
      const SlOptionSpec *const tables[] = { type_options, NULL };
      self->type_options = sl_options_new ("riemann() type()", tables, NULL, self->type_node, NULL, error);
      if (!self->type_options || !sl_options_bind (self->type_options, type_options, self, NULL, error))
        return FALSE;
    }
  self->tls = sl_tls_block_new ("riemann()", self->tls_node, self->type_options, 0, "riemann-c-client", d->pos,
                                error);
  if (!self->tls)
    return FALSE;
  const SlTlsSettings *tls = sl_tls_block_settings (self->tls);
  const gchar *why = NULL;
  const gchar *option = NULL;
  if (self->type != RIEMANN_CLIENT_TLS && sl_tls_block_written (self->tls))
    why = _("its TLS options need type(\"tls\")");
  else if (self->type == RIEMANN_CLIENT_TLS && !tls->ca_file)
    why = _("type(\"tls\") needs ca-file(): riemann-c-client trusts no system store");
  else if (!tls->verify_trusted)
    {
      option = "peer-verify";
      why = _("riemann-c-client always checks the server's certificate and name");
    }
  if (!why)
    return TRUE;
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, option ? sl_tls_block_pos (self->tls, option) : d->pos,
                    "riemann(): %s", why);
  return FALSE;
}

static gboolean
riemann_init (SlDriver *d, GError **error)
{
  RiemannDestination *self = (RiemannDestination *) d;
  if (!check_literal_number (self, self->metric, "metric", FALSE, error)
      || !check_literal_number (self, self->ttl, "ttl", TRUE, error) || !read_event_time (self, error))
    return FALSE;
  /* the event's own fields, which syslog-ng never sends again as attributes */
  static const gchar *const own_fields[] = {
    "--exclude", "host", "--exclude", "service", "--exclude", "description", "--exclude", "state",
    "--exclude", "ttl", "--exclude", "metric", "--exclude", "tags", NULL,
  };
  if (self->attributes_node
      && !(self->attributes = sl_value_pairs_new_from_block (self->attributes_node, d->pos, "riemann() attributes()",
                                                             SL_VALUE_PAIRS_NAMED_PAIRS, own_fields, error)))
    return FALSE;
  if (!read_tls (self, error))
    return FALSE;
  self->scratch = g_string_sized_new (256);
  self->attribute_value = g_string_sized_new (256);
  self->env = sl_driver_template_env (d);
  self->conversion_errors = sl_stats_counter ("destination", d->id, d->klass->name, "conversion_errors");
  self->refused = sl_stats_counter ("destination", d->id, d->klass->name, "refused");
  return TRUE;
}

static void
riemann_close (SlDriver *d)
{
  RiemannDestination *self = (RiemannDestination *) d;
  if (!self->client)
    return;
  riemann_client_disconnect (self->client);
  riemann_client_free (self->client);
  self->client = NULL;
}

static gboolean
riemann_open (SlDriver *d, GError **error)
{
  RiemannDestination *self = (RiemannDestination *) d;
  const SlTlsSettings *tls = sl_tls_block_settings (self->tls);
  if (self->type == RIEMANN_CLIENT_TLS)
    self->client = riemann_client_create (RIEMANN_CLIENT_TLS, self->server, self->port,
                                          RIEMANN_CLIENT_OPTION_TLS_CA_FILE, tls->ca_file,
                                          RIEMANN_CLIENT_OPTION_TLS_CERT_FILE, tls->cert_file,
                                          RIEMANN_CLIENT_OPTION_TLS_KEY_FILE, tls->key_file,
                                          RIEMANN_CLIENT_OPTION_NONE);
  else
    self->client = riemann_client_create (self->type, self->server, self->port, RIEMANN_CLIENT_OPTION_NONE);
  if (!self->client)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("cannot connect to riemann at %s:%d: %s"),
                   self->server, self->port, g_strerror (errno));
      return FALSE;
    }
  if (self->timeout_ms > 0)
    {
      struct timeval timeout = { self->timeout_ms / 1000, (self->timeout_ms % 1000) * 1000 };
      riemann_client_set_timeout (self->client, &timeout);
    }
  return TRUE;
}

static const gchar *
render (RiemannDestination *self, SlTemplate *t, const SlMessage *msg)
{
  g_string_truncate (self->scratch, 0);
  sl_template_append (t, msg, self->env, self->scratch);
  return self->scratch->str;
}

static void
add_tags (RiemannDestination *self, riemann_event_t *event, const SlMessage *msg)
{
  if (self->tags)
    {
      for (guint i = 0; i < self->tags->len; i++)
        riemann_event_tag_add (event, g_ptr_array_index (self->tags, i));
      return;
    }
  g_string_truncate (self->scratch, 0);
  if (!sl_message_append_tags (msg, self->scratch))
    return;
  gchar **names = g_strsplit (self->scratch->str, ",", -1);
  for (guint i = 0; names[i]; i++)
    riemann_event_tag_add (event, names[i]);
  g_strfreev (names);
}

/* The time as a whole number; a fraction (frac-digits()) is cut off, as
 * syslog-ng does, and anything else leaves the field out. */
static void
add_time (RiemannDestination *self, riemann_event_t *event, const SlMessage *msg)
{
  const gchar *text = render (self, self->event_time, msg);
  gchar *end = NULL;
  gint64 whole = g_ascii_strtoll (text, &end, 10);
  gdouble value;
  if (*text && *end && is_number (text, &value))
    whole = (gint64) value;
  else if (!*text || *end)
    return;
  riemann_event_set (event, self->event_time_unit, whole, RIEMANN_EVENT_FIELD_NONE);
}

/* metric() and ttl(): empty leaves the field out, a number sets it,
 * anything else fails the message. */
static gboolean
add_number (RiemannDestination *self, riemann_event_t *event, const SlMessage *msg, SlTemplate *t,
            riemann_event_field_t field)
{
  if (!t)
    return TRUE;
  const gchar *text = render (self, t, msg);
  gdouble value;
  if (!*text)
    return TRUE;
  if (!is_number (text, &value))
    return FALSE;
  riemann_event_set (event, field, value, RIEMANN_EVENT_FIELD_NONE);
  return TRUE;
}

/* Every value as its text, whatever its type hint, as syslog-ng's riemann()
 * adds it: up to a NUL, as the C string an attribute is. */
typedef struct
{
  riemann_event_t *event;
  GString *text;
} AttributeTarget;

static gboolean
add_attribute (const gchar *name, SlValueType type, const gchar *value, gsize len, gpointer user_data)
{
  AttributeTarget *target = user_data;
  g_string_truncate (target->text, 0);
  g_string_append_len (target->text, value, len);
  riemann_event_string_attribute_add (target->event, name, target->text->str);
  return TRUE;
}

static riemann_event_t *
make_event (RiemannDestination *self, const SlMessage *msg)
{
  static const riemann_event_field_t string_fields[N_STRING_FIELDS] = {
    [FIELD_HOST] = RIEMANN_EVENT_FIELD_HOST, [FIELD_SERVICE] = RIEMANN_EVENT_FIELD_SERVICE,
    [FIELD_DESCRIPTION] = RIEMANN_EVENT_FIELD_DESCRIPTION, [FIELD_STATE] = RIEMANN_EVENT_FIELD_STATE,
  };
  riemann_event_t *event = riemann_event_new ();
  if (!add_number (self, event, msg, self->metric, RIEMANN_EVENT_FIELD_METRIC_D)
      || !add_number (self, event, msg, self->ttl, RIEMANN_EVENT_FIELD_TTL))
    {
      sl_counter_add (self->conversion_errors, 1);
      if (sl_counter_get (self->conversion_errors) % 1000 == 1)
        sl_log (SL_LOG_ERROR, _("%s: metric() or ttl() is not a number, the message is dropped (logged the first "
                                "time and then once per 1000); value='%s'"), self->base.id, self->scratch->str);
      riemann_event_free (event);
      return NULL;
    }
  for (guint i = 0; i < N_STRING_FIELDS; i++)
    if (self->strings[i] && *render (self, self->strings[i], msg))
      riemann_event_set (event, string_fields[i], self->scratch->str, RIEMANN_EVENT_FIELD_NONE);
  add_time (self, event, msg);
  add_tags (self, event, msg);
  if (self->attributes)
    {
      AttributeTarget target = { event, self->attribute_value };
      sl_value_pairs_foreach (self->attributes, msg, self->env, SL_VALUE_PAIRS_ASCENDING, add_attribute, &target);
    }
  return event;
}

typedef enum { SENT, REFUSED, LOST } Outcome;

/* Sends events[0..n) in one Msg (which takes them) and waits for the
 * answer; what went wrong is the batch's reason. */
static Outcome
communicate (RiemannDestination *self, SlWriteBatch *batch, riemann_event_t **events, guint n)
{
  riemann_message_t *message = riemann_message_new ();
  riemann_message_set_events_n (message, n, events);
  errno = 0;
  riemann_message_t *reply = riemann_communicate (self->client, message);
  if (!reply)
    {
      sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, errno ? errno : EPIPE, _("the connection to riemann failed"));
      return LOST;
    }
  gboolean ok = !reply->error && (!reply->has_ok || reply->ok);
  if (!ok)
    sl_write_batch_fail (batch, SL_WRITE_RETRY, 0, _("riemann answered the events with an error: %s"),
                         reply->error ? reply->error : "");
  riemann_message_free (reply);
  return ok ? SENT : REFUSED;
}

static SlWriteResult
riemann_write (SlDriver *d, SlWriteBatch *batch)
{
  RiemannDestination *self = (RiemannDestination *) d;
  guint per_message = MAX (1, self->batch_lines);
  while (batch->done < batch->n)
    {
      guint k = MIN (batch->n - batch->done, per_message);
      /* the library frees the array with the Msg */
      riemann_event_t **events = malloc (k * sizeof *events);
      guint n = 0;
      while (n < k)
        {
          riemann_event_t *event = make_event (self, batch->msgs[batch->done + n]);
          if (event)
            events[n++] = event;
          else if (n == 0)
            {
              batch->done++;
              batch->dropped++;
              if (--k == 0)
                break;
            }
          else
            break;
        }
      if (n == 0)
        {
          free (events);
          continue;
        }
      Outcome outcome = communicate (self, batch, events, n);
      if (outcome == LOST)
        return SL_WRITE_NOT_CONNECTED;
      /* as syslog-ng: events refused retries() times are dropped */
      if (outcome == REFUSED && ++self->refusals < self->retries)
        return SL_WRITE_RETRY;
      if (outcome == REFUSED)
        {
          sl_log (SL_LOG_ERROR, _("%s: riemann refused events %d times, they are dropped; events='%u', reason='%s'"),
                  d->id, self->retries, n, batch->reason);
          sl_counter_add (self->refused, n);
          batch->dropped += n;
        }
      self->refusals = 0;
      batch->done += n;
    }
  return SL_WRITE_OK;
}

static void
riemann_free (SlDriver *d)
{
  RiemannDestination *self = (RiemannDestination *) d;
  riemann_close (d);
  if (self->event_time)
    sl_template_unref (self->event_time);
  sl_value_pairs_free (self->attributes);
  if (self->type_options)
    sl_options_free (self->type_options);
  sl_tls_block_free (self->tls);
  if (self->scratch)
    g_string_free (self->scratch, TRUE);
  if (self->attribute_value)
    g_string_free (self->attribute_value, TRUE);
}

static const SlDestinationOps riemann_ops = {
  .open = riemann_open,
  .write = riemann_write,
  .close = riemann_close,
};

static const SlDriverClass riemann_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "riemann",
  .summary = "each message as a Riemann event (host, service, state, metric, tags, attributes), confirmed by "
             "the server's answer",
  .options = riemann_options,
  .capabilities = SL_CAP_TEMPLATES | SL_CAP_WORKERS | SL_CAP_DISK_BUFFER | SL_CAP_BATCHES,
  .instance_size = sizeof (RiemannDestination),
  .init = riemann_init,
  .free = riemann_free,
  .ops.destination = &riemann_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "riemann",
  .drivers = (const SlDriverClass *const[]) { &riemann_class, NULL },
};
