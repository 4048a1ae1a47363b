#include "core/source-private.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/macros.h"
#include "core/pipeline.h"
#include "core/priority.h"

#include <string.h>

/* bits of SL_SOURCE_FLAG_CHOICES */
enum
{
  FLAG_NO_PARSE = 1 << 0,
  FLAG_SYSLOG_PROTOCOL = 1 << 1,
  FLAG_STORE_RAW = 1 << 2,
  FLAG_VALIDATE_UTF8 = 1 << 3,
  FLAG_KERNEL = 1 << 6,
};

static gboolean
read_default_pri (SlOptions *o, SlSource *src, GError **error)
{
  /* flags(kernel) makes kern the facility unless one is written */
  gboolean kernel = (sl_options_flags (o, "flags") & FLAG_KERNEL) && !sl_options_is_set (o, "default-facility");
  const gchar *fac = kernel ? "kern" : sl_options_string (o, "default-facility");
  const gchar *lev = sl_options_is_set (o, "default-level") ? sl_options_string (o, "default-level")
                                                            : sl_options_string (o, "default-priority");
  gint f = sl_facility_lookup (fac);
  gint l = sl_level_lookup (lev);
  if (f < 0)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (o, "default-facility"),
                        _("unknown facility '%s'"), fac);
      return FALSE;
    }
  if (l < 0)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (o, "default-priority"),
                        _("unknown level '%s'"), lev);
      return FALSE;
    }
  src->parse.default_pri = SL_PRI_MAKE (f, l);
  return TRUE;
}

/* use-dns(): names are never looked up, so that no message waits on a
 * name server; the address stays in HOST. The syslog-ng values are
 * accepted so that its configurations load. */
static gboolean
check_use_dns (SlOptions *o, SlDriver *driver, GError **error)
{
  const gchar *value = sl_options_string (o, "use-dns");
  static const gchar *const known[] = { "no", "yes", "persist-only" };
  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    if (value && sl_cfg_name_equal (value, known[i]))
      {
        if (i > 0 && sl_options_is_set (o, "use-dns"))
          sl_log (SL_LOG_NOTICE, _("%s: use-dns(%s) accepted, but host names are not looked up; HOST keeps the address"),
                  driver->id, value);
        return TRUE;
      }
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (o, "use-dns"),
                    _("use-dns() takes yes, no or persist_only, not '%s'"), value ? value : "");
  return FALSE;
}

SlSource *
sl_source_new (SlConfig *cfg, SlDriver *driver, const gchar *group, GError **error)
{
  SlSource *src = g_new0 (SlSource, 1);
  SlOptions *o = sl_config_driver_options (cfg, driver);
  src->driver = driver;
  src->cfg = cfg;
  src->group = g_strdup (group);
  src->paths = g_ptr_array_new ();
  src->max_msg_size = 65536;
  src->iw_size = 10000;
  src->max_connections = 1;
  src->parse.default_pri = SL_PRI_MAKE (1, 5);
  src->parse.keep_timestamp = TRUE;
  src->received = sl_stats_counter ("source", driver->id, driver->klass->name, "received");
  src->truncated = sl_stats_counter ("source", driver->id, driver->klass->name, "truncated");
  src->parse_errors = sl_stats_counter ("source", driver->id, driver->klass->name, "parse_errors");
  src->invalid_utf8 = sl_stats_counter ("source", driver->id, driver->klass->name, "invalid_utf8");

  if (sl_options_has (o, "format"))
    {
      const gchar *format = sl_options_string (o, "format");
      src->format = sl_plugins_lookup (SL_DRIVER_FORMAT, format);
      if (!src->format)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, sl_options_pos (o, "format"),
                            _("no message format named '%s' is loaded"), format);
          sl_source_free (src);
          return NULL;
        }
      guint32 flags = sl_options_flags (o, "flags");
      src->parse.no_parse = (flags & FLAG_NO_PARSE) != 0;
      src->parse.syslog_protocol = (flags & FLAG_SYSLOG_PROTOCOL) != 0;
      src->parse.store_raw = (flags & FLAG_STORE_RAW) != 0;
      src->validate_utf8 = (flags & FLAG_VALIDATE_UTF8) != 0;
      src->parse.keep_hostname = sl_options_bool (o, "keep-hostname");
      src->parse.keep_timestamp = sl_options_bool (o, "keep-timestamp");
      src->parse.host_override = sl_options_string (o, "host-override");
      src->parse.program_override = sl_options_string (o, "program-override");
      src->chain_hostnames = sl_options_bool (o, "chain-hostnames");
      src->normalize_hostnames = sl_options_bool (o, "normalize-hostnames");
      src->max_msg_size = MAX (sl_options_int (o, "log-msg-size"), 64);
      src->iw_size = MAX (sl_options_int (o, "log-iw-size"), 1);
      GPtrArray *tags = sl_options_list (o, "tags");
      src->tags = tags && tags->len ? sl_tag_ids (tags) : NULL;
      if (!read_default_pri (o, src, error) || !check_use_dns (o, driver, error))
        {
          sl_source_free (src);
          return NULL;
        }
    }
  if (sl_options_has (o, "max-connections"))
    src->max_connections = MAX (sl_options_int (o, "max-connections"), 1);
  return src;
}

gboolean
sl_source_start (SlSource *src, GError **error)
{
  if (!src->driver->klass->start (src->driver, src, error))
    return FALSE;
  src->started = TRUE;
  return TRUE;
}

void
sl_source_stop (SlSource *src)
{
  if (src->started && src->driver->klass->stop)
    src->driver->klass->stop (src->driver);
  src->started = FALSE;
}

void
sl_source_free (SlSource *src)
{
  g_ptr_array_unref (src->paths);
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
    sl_log (SL_LOG_WARNING, _("%s: %s; %" G_GINT64_FORMAT " so far"), src->driver->id, what, before + 1);
}

static SlMessage *
parse_frame (SlSource *src, const SlDriverClass *format, const gchar *data, gsize len, const gchar *peer)
{
  gboolean truncated = len > src->max_msg_size;
  if (truncated)
    {
      len = src->max_msg_size;
      count_bad_input (src, src->truncated, _("a message longer than log-msg-size() was cut to fit"));
    }
  const gchar *peer_copy = NULL;
  gsize peer_len = peer ? strlen (peer) : 0;
  SlMessage *msg = sl_message_new_with_extra (data, len, peer, peer_len, &peer_copy);
  if (truncated)
    msg->flags |= SL_MSG_TRUNCATED;
  receive_time (&msg->recvd);
  msg->stamp = msg->recvd;
  msg->pri = src->parse.default_pri;
  msg->seqnum = __atomic_add_fetch (&src->seqnum, 1, __ATOMIC_RELAXED);
  sl_counter_add (src->received, 1);

  if (peer_copy)
    {
      sl_message_set_slice (msg, SL_F_HOST_FROM, peer_copy, peer_len);
      sl_message_set_slice (msg, SL_F_SOURCEIP, peer_copy, peer_len);
    }
  else
    sl_message_set (msg, SL_F_HOST_FROM, sl_macro_loghost (), -1);

  if (format && !format->parse_format (msg, &src->parse))
    count_bad_input (src, src->parse_errors, _("a message could not be parsed and was kept whole"));
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
  for (guint i = 0; src->tags && i < src->tags->len; i++)
    sl_message_set_tag_id (msg, g_array_index (src->tags, SlTag, i));
  return msg;
}

SlMessage *
sl_source_parse (SlSource *src, const gchar *data, gsize len, const gchar *peer)
{
  return parse_frame (src, src->format, data, len, peer);
}

SlMessage *
sl_source_parse_with (SlSource *src, const SlDriverClass *format, const gchar *data, gsize len,
                      const gchar *peer)
{
  return parse_frame (src, format, data, len, peer);
}

void
sl_source_post (SlSource *src, SlMessage **msgs, guint n)
{
  sl_pipeline_route (src, msgs, n);
}

SlWindow *
sl_source_new_window (SlSource *src)
{
  return sl_window_new (MAX (src->iw_size / src->max_connections, 100));
}

gsize
sl_source_max_msg_size (SlSource *src)
{
  return src->max_msg_size;
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
