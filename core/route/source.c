/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/route/source-private.h"
#include "core/config/error.h"
#include "core/config/syntax-version.h"
#include "core/route/driver-private.h"
#include "core/i18n.h"
#include "core/message/in-flight.h"
#include "core/internal.h"
#include "core/message/macros.h"
#include "core/message/priority.h"
#include "core/plugin/registry.h"
#include "core/route/route-private.h"

#include <inttypes.h>
#include <string.h>

static gboolean
read_default_pri (SlSource *src, const SlSourceOptions *o, GError **error)
{
  SlOptions *written = src->driver->options;
  /* flags(kernel) makes kern the facility unless one is written */
  gboolean kernel = (o->flags & SL_SOURCE_FLAG_KERNEL) && !sl_options_is_set (written, "default-facility");
  const gchar *fac = kernel ? "kern" : o->default_facility;
  gint f = sl_facility_lookup (fac);
  gint l = sl_level_lookup (o->default_priority);
  if (f < 0)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (written, "default-facility"),
                        _("unknown facility '%s'"), fac);
      return FALSE;
    }
  if (l < 0)
    {
      const gchar *option = sl_options_is_set (written, "default-level") ? "default-level" : "default-priority";
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (written, option),
                        _("unknown level '%s'"), o->default_priority);
      return FALSE;
    }
  src->parse.default_pri = SL_PRI_MAKE (f, l);
  return TRUE;
}

/* A source's common options: how its frames become messages. */
static gboolean
apply_parse_options (SlSource *src, GError **error)
{
  SlDriver *driver = src->driver;
  const SlSourceOptions *o = sl_driver_source_options (driver);
  src->format = sl_plugins_lookup (SL_DRIVER_FORMAT, o->format);
  if (!src->format)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, sl_options_pos (driver->options, "format"),
                        _("no message format named '%s' is loaded"), o->format);
      return FALSE;
    }
  src->parse.no_parse = (o->flags & SL_SOURCE_FLAG_NO_PARSE) != 0;
  src->parse.syslog_protocol = (o->flags & SL_SOURCE_FLAG_SYSLOG_PROTOCOL) != 0;
  src->parse.no_rfc3164_fallback = (o->flags & SL_SOURCE_FLAG_NO_RFC3164_FALLBACK) != 0;
  src->parse.detect_syslog_protocol = (o->flags & SL_SOURCE_FLAG_DETECT_SYSLOG_PROTOCOL) != 0;
  src->parse.store_raw = (o->flags & SL_SOURCE_FLAG_STORE_RAW) != 0;
  src->parse.no_hostname = (o->flags & SL_SOURCE_FLAG_NO_HOSTNAME) != 0;
  src->parse.sdata_as_received = (o->flags & SL_SOURCE_FLAG_SDATA_AS_RECEIVED) != 0;
  src->parse.syslog_ng_4 = sl_cfg_compiling_version_4 ();
  src->validate_utf8 = (o->flags & SL_SOURCE_FLAG_VALIDATE_UTF8) != 0;
  src->parse.keep_hostname = o->keep_hostname;
  src->parse.keep_timestamp = o->keep_timestamp;
  src->parse.host_override = o->host_override;
  src->parse.program_override = o->program_override;
  src->chain_hostnames = o->chain_hostnames;
  src->normalize_hostnames = o->normalize_hostnames;
  src->max_msg_size = MAX (o->msg_size, 64);
  src->trim_large_messages = o->trim_large_messages;
  src->escape_control_chars = o->escape_control_chars;
  src->iw_size = MAX (o->iw_size, 1);
  src->tags = o->tags && o->tags->len ? sl_tag_ids (o->tags) : NULL;
  /* use-dns(): names are never looked up, so that no message waits on a
   * name server; the address stays in HOST. */
  if (o->use_dns && sl_options_is_set (driver->options, "use-dns"))
    sl_log (SL_LOG_NOTICE, _("%s: use-dns(%s) accepted, but host names are not looked up; HOST keeps the address"),
            driver->id, o->use_dns == 1 ? "yes" : "persist-only");
  return read_default_pri (src, o, error);
}

SlSource *
sl_source_new (SlConfig *cfg, SlDriver *driver, const gchar *group, GError **error)
{
  SlSource *src = g_new0 (SlSource, 1);
  guint32 caps = driver->klass->capabilities;
  src->driver = driver;
  src->cfg = cfg;
  src->group = g_strdup (group);
  if (group)
    {
      gchar *tag = g_strconcat (".source.", group, NULL);
      src->source_tag = sl_tag_id (tag);
      g_free (tag);
    }
  src->tap = sl_tap_point ("source", group ? group : driver->id);
  src->paths = g_ptr_array_new ();
  src->compiled = g_ptr_array_new ();
  g_rw_lock_init (&src->route_lock);
  src->max_msg_size = 65536;
  src->iw_size = 10000;
  src->max_connections = 1;
  src->parse.default_pri = SL_PRI_MAKE (1, 5);
  src->parse.keep_timestamp = TRUE;
  src->received = sl_stats_counter ("source", driver->id, driver->klass->name, "received");
  src->truncated = sl_stats_counter ("source", driver->id, driver->klass->name, "truncated");
  src->parse_errors = sl_stats_counter ("source", driver->id, driver->klass->name, "parse_errors");
  src->invalid_utf8 = sl_stats_counter ("source", driver->id, driver->klass->name, "invalid_utf8");

  if ((caps & SL_CAP_PARSES) && !apply_parse_options (src, error))
    {
      sl_source_free (src);
      return NULL;
    }
  if (caps & SL_CAP_CONNECTIONS)
    {
      const SlSourceOptions *o = sl_driver_source_options (driver);
      src->max_connections = MAX (o->max_connections, 1);
      src->max_connections_per_ip = MAX (o->max_connections_per_ip, 0);
      src->idle_timeout_ms = MAX (o->idle_timeout_ms, 0);
      src->first_message_timeout_ms = MAX (o->first_message_timeout_ms, 0);
    }
  return src;
}

void
sl_source_use_compiled_paths (SlSource *src)
{
  if (!src->compiled)
    return;
  g_rw_lock_writer_lock (&src->route_lock);
  GPtrArray *before = src->paths;
  src->paths = src->compiled;
  src->compiled = NULL;
  g_rw_lock_writer_unlock (&src->route_lock);
  g_ptr_array_unref (before);
}

gboolean
sl_source_start (SlSource *src, GError **error)
{
  if (!src->driver->klass->ops.source->start (src->driver, src, error))
    return FALSE;
  src->started = TRUE;
  return TRUE;
}

void
sl_source_stop (SlSource *src)
{
  const SlSourceOps *ops = src->driver->klass->ops.source;
  if (src->started && ops->stop)
    ops->stop (src->driver);
  src->started = FALSE;
}

void
sl_source_free (SlSource *src)
{
  g_ptr_array_unref (src->paths);
  if (src->compiled)
    g_ptr_array_unref (src->compiled);
  g_rw_lock_clear (&src->route_lock);
  if (src->tags)
    g_array_unref (src->tags);
  g_free (src->group);
  g_free (src);
}

/* The receive time of what a reader thread parses: taken once per read by
 * readers that call sl_source_mark_read_time(), else once per message. The
 * local zone's offset is looked up once a second, not once per message. */
static __thread gboolean read_time_marked;
static __thread SlTime read_time;

static void
clock_now (SlTime *t)
{
  static __thread gint64 cached_sec = -1;
  static __thread gint32 cached_off;
  gint64 usec = g_get_real_time ();
  gint64 sec = usec / G_USEC_PER_SEC;
  if (sec != cached_sec)
    {
      SlTime full;
      sl_time_now (&full);
      cached_sec = sec;
      cached_off = full.gmtoff;
    }
  t->usec = usec;
  t->gmtoff = cached_off;
}

void
sl_source_mark_read_time (void)
{
  clock_now (&read_time);
  read_time_marked = TRUE;
}

static void
receive_time (SlTime *t)
{
  if (read_time_marked)
    *t = read_time;
  else
    clock_now (t);
}

static void
apply_hostname (SlSource *src, SlMessage *msg, const gchar *peer, gsize peer_len)
{
  if (src->parse.host_override)
    {
      sl_message_set (msg, SL_F_HOST, src->parse.host_override, -1);
      return;
    }
  gsize host_len;
  const gchar *host = sl_message_get (msg, SL_F_HOST, &host_len);
  const gchar *from = peer ? peer : sl_macro_loghost ();
  gsize from_len = peer ? peer_len : strlen (from);

  /* a local message that names its host (syslog-ng 4's error records)
   * keeps it */
  if ((msg->flags & SL_MSG_LOCAL) && host && host_len)
    return;
  if (!host || !host_len)
    {
      if (peer)
        sl_message_set_slice (msg, SL_F_HOST, peer, peer_len);
      else
        sl_message_set (msg, SL_F_HOST, from, from_len);
    }
  else if (src->chain_hostnames)
    {
      gchar *chained = g_strdup_printf ("%.*s/%.*s", (int) from_len, from, (int) host_len, host);
      sl_message_set (msg, SL_F_HOST, chained, -1);
      g_free (chained);
    }
  else if (!src->parse.keep_hostname && peer)
    sl_message_set_slice (msg, SL_F_HOST, peer, peer_len);

  if (src->normalize_hostnames)
    {
      host = sl_message_get (msg, SL_F_HOST, &host_len);
      gchar *lower = g_ascii_strdown (host, host_len);
      sl_message_set (msg, SL_F_HOST, lower, -1);
      g_free (lower);
    }
}

/* Bad input is logged when it first shows up and then once per 10000, so
 * that a sender flooding garbage does not flood internal() too. */
static void
count_bad_input (SlSource *src, SlCounter *counter, const gchar *what)
{
  gint64 before = sl_counter_get (counter);
  sl_counter_add (counter, 1);
  if (before % 10000 == 0)
    sl_log (SL_LOG_WARNING, _("%s: %s; %" PRId64 " so far"), src->driver->id, what, before + 1);
}

static gboolean
escaped (const SlSource *src, guchar c)
{
  return c < 0x20 && (c != '\t' || src->escape_control_chars == SL_ESCAPE_CC_ALL);
}

/* Sixteen bytes compared at once by the compiler's vector extension (SSE2
 * on x86-64): fewer instructions per line than eight-byte words. */
typedef guint8 SlBytes16 __attribute__ ((vector_size (16)));
typedef guint64 SlWords2 __attribute__ ((vector_size (16)));

/* Of the 16 bytes at at, those below 0x20 as set bytes */
static inline SlWords2
below_space (const gchar *at)
{
  SlBytes16 bytes;
  memcpy (&bytes, at, sizeof bytes);
  return (SlWords2) (bytes < 0x20);
}

/* Where the first byte below 0x20 may be: 32 bytes at a time, then 16;
 * the last 16 bytes of a line tested together when fewer than 16 are
 * left, the bytes before them being tested already. */
static gsize
skip_printable (const gchar *data, gsize len)
{
  gsize i = 0;
  SlWords2 low;
  for (; i + 32 <= len; i += 32)
    {
      low = below_space (data + i) | below_space (data + i + 16);
      if (low[0] | low[1])
        break;
    }
  if (i + 16 <= len)
    {
      low = below_space (data + i);
      if (!(low[0] | low[1]))
        i += 16;
    }
  if (len >= 16 && i < len && i + 16 > len)
    {
      low = below_space (data + len - 16);
      if (!(low[0] | low[1]))
        return len;
    }
  return i;
}

/* rsyslogd's escaping on receive: # and three octal digits for each
 * control character, within log-msg-size(); one that no longer fits is
 * left out, as rsyslogd leaves it. NULL when nothing needs escaping, so
 * that the common message costs one scan. */
static GString *
escape_control_chars (const SlSource *src, const gchar *data, gsize len)
{
  gsize i = skip_printable (data, len);
  while (i < len && !escaped (src, data[i]))
    i++;
  if (i == len)
    return NULL;
  GString *out = g_string_sized_new (MIN (len * 4, src->max_msg_size));
  g_string_append_len (out, data, i);
  for (; i < len && out->len < src->max_msg_size; i++)
    {
      guchar c = data[i];
      if (!escaped (src, c))
        g_string_append_c (out, c);
      else if (out->len + 3 < src->max_msg_size)
        g_string_append_printf (out, "#%03o", c);
    }
  return out;
}

void
sl_source_set_transport (SlSource *src, const gchar *transport)
{
  src->transport = transport;
  src->transport_len = transport ? strlen (transport) : 0;
}

static SlMessage *
parse_frame (SlSource *src, const SlDriverClass *format, SlSourceFill fill, gpointer fill_data,
             const gchar *transport, gsize transport_len, const gchar *data, gsize len, const gchar *peer,
             gsize extra_len)
{
  gboolean truncated = len > src->max_msg_size;
  if (truncated)
    {
      len = src->max_msg_size;
      count_bad_input (src, src->truncated, _("a message longer than log-msg-size() was cut to fit"));
    }
  g_autoptr (GString) escaped_copy = src->escape_control_chars ? escape_control_chars (src, data, len) : NULL;
  if (escaped_copy)
    {
      data = escaped_copy->str;
      len = escaped_copy->len;
    }
  const gchar *peer_copy = NULL;
  gsize peer_len = peer ? strlen (peer) : 0;
  SlMessage *msg = sl_message_new_with_extra (data, len, peer, MAX (extra_len, peer_len), &peer_copy);
  if (truncated)
    msg->flags |= SL_MSG_TRUNCATED;
  receive_time (&msg->recvd);
  msg->stamp = msg->recvd;
  msg->pri = src->parse.default_pri;
  /* one shared add a message, not two: readers of a source's connections
   * on other cores fight over each such line */
  msg->seqnum = (guint64) sl_counter_add_fetch (src->received, 1);

  if (peer_copy)
    {
      sl_message_set_slice (msg, SL_F_HOST_FROM, peer_copy, peer_len);
      sl_message_set_slice (msg, SL_F_SOURCEIP, peer_copy, peer_len);
    }
  else
    {
      const gchar *loghost = sl_macro_loghost ();
      sl_message_set_static (msg, SL_F_HOST_FROM, loghost, strlen (loghost));
    }

  if (fill)
    fill (msg, fill_data);
  else if (format && !format->ops.format->parse (msg, &src->parse))
    count_bad_input (src, src->parse_errors, _("a message could not be parsed; an error record stands for it"));
  /* 3.38 has no TRANSPORT: a 3.x configuration keeps its fields */
  if (transport && src->parse.syslog_ng_4)
    sl_message_set_static (msg, SL_F_TRANSPORT, transport, transport_len);
  if (src->validate_utf8 && !g_utf8_validate_len (msg->raw, msg->raw_len, NULL))
    {
      msg->flags |= SL_MSG_UTF8_BAD;
      count_bad_input (src, src->invalid_utf8, _("a message is not valid UTF-8"));
    }
  if (!src->parse.keep_timestamp)
    msg->stamp = msg->recvd;
  apply_hostname (src, msg, peer_copy, peer_len);
  if (src->parse.program_override)
    sl_message_set (msg, SL_F_PROGRAM, src->parse.program_override, -1);
  if (src->source_tag)
    {
      msg->source = src->source_tag;
      sl_message_set_tag_id (msg, src->source_tag);
    }
  for (guint i = 0; src->tags && i < src->tags->len; i++)
    sl_message_set_tag_id (msg, g_array_index (src->tags, SlTag, i));
  return msg;
}

SlMessage *
sl_source_parse (SlSource *src, const gchar *data, gsize len, const gchar *peer)
{
  return parse_frame (src, src->format, NULL, NULL, src->transport, src->transport_len, data, len, peer, 0);
}

SlMessage *
sl_source_parse_extra (SlSource *src, const gchar *data, gsize len, const gchar *peer, gsize extra_len,
                       const gchar **extra_copy)
{
  SlMessage *msg = parse_frame (src, src->format, NULL, NULL, src->transport, src->transport_len, data, len, peer,
                                extra_len);
  *extra_copy = msg->raw + msg->raw_len + 1;
  return msg;
}

SlMessage *
sl_source_parse_with (SlSource *src, const SlDriverClass *format, const gchar *transport, const gchar *data,
                      gsize len, const gchar *peer)
{
  return parse_frame (src, format ? format : src->format, NULL, NULL, transport, transport ? strlen (transport) : 0,
                      data, len, peer, 0);
}

SlMessage *
sl_source_parse_fields (SlSource *src, const gchar *data, gsize len, SlSourceFill fill, gpointer user_data)
{
  return parse_frame (src, NULL, fill, user_data, src->transport, src->transport_len, data, len, NULL, 0);
}

void
sl_source_post (SlSource *src, SlMessage **msgs, guint n)
{
  if (sl_tap_attached (src->tap))
    for (guint i = 0; i < n; i++)
      sl_tap_offer (src->tap, msgs[i]);
  g_rw_lock_reader_lock (&src->route_lock);
  sl_route (src->paths, msgs, n);
  g_rw_lock_reader_unlock (&src->route_lock);
  /* once per batch, so that the bytes in flight are near what is held */
  sl_in_flight_flush ();
}

guint
sl_source_window_size (SlSource *src)
{
  return MAX (src->iw_size / src->max_connections, 100);
}

SlWindow *
sl_source_new_window (SlSource *src)
{
  return sl_window_new (sl_source_window_size (src));
}

gsize
sl_source_record_size (SlSource *src)
{
  return src->format ? src->format->ops.format->record_size : 0;
}

gsize
sl_source_max_msg_size (SlSource *src)
{
  return src->max_msg_size;
}

void
sl_source_set_sender_pid (SlSource *src, gboolean sender_pid)
{
  src->sender_pid = sender_pid;
}

gboolean
sl_source_sender_pid (SlSource *src)
{
  return src->sender_pid;
}

void
sl_source_set_tag_pid (SlSource *src, gboolean tag_pid)
{
  src->tag_pid = tag_pid;
}

gboolean
sl_source_tag_pid (SlSource *src)
{
  return src->tag_pid;
}

void
sl_source_set_ignore_own (SlSource *src, gboolean ignore_own)
{
  src->ignore_own = ignore_own;
}

gboolean
sl_source_ignore_own (SlSource *src)
{
  return src->ignore_own;
}

void
sl_source_set_annotate (SlSource *src, SlAnnotate annotate)
{
  src->annotate = annotate;
}

SlAnnotate
sl_source_annotate (SlSource *src)
{
  return src->annotate;
}

void
sl_source_set_rate_limit (SlSource *src, const SlRateLimitSpec *spec)
{
  src->rate_limit = *spec;
}

const SlRateLimitSpec *
sl_source_rate_limit (SlSource *src)
{
  return &src->rate_limit;
}

guint
sl_source_max_connections (SlSource *src)
{
  return src->max_connections;
}

guint
sl_source_max_connections_per_ip (SlSource *src)
{
  return src->max_connections_per_ip;
}

gint64
sl_source_idle_timeout_ms (SlSource *src)
{
  return src->idle_timeout_ms;
}

SlTrimLargeMessages
sl_source_trim_large_messages (SlSource *src)
{
  return src->trim_large_messages;
}

SlEscapeControlChars
sl_source_escape_control_chars (SlSource *src)
{
  return src->escape_control_chars;
}

void
sl_source_count_truncated (SlSource *src)
{
  count_bad_input (src, src->truncated, _("a message longer than log-msg-size() was cut to fit"));
}

void
sl_source_count (SlSource *src, const gchar *counter, gint64 n)
{
  sl_counter_add (sl_stats_counter ("source", src->driver->id, src->driver->klass->name, counter), n);
}

const gchar *
sl_source_id (SlSource *src)
{
  return src->driver->id;
}
