/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/message/message.h"
#include "core/message/message-pool.h"
#include "core/i18n.h"
#include "core/message/in-flight.h"
#include "core/internal.h"
#include "core/message/name-table.h"
#include "core/message/scratch.h"
#include "core/stats.h"
#include "core/message/window.h"

#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static const gchar *const builtin_names[SL_F_PREDEFINED_MAX] = {
  [SL_F_NONE] = "",
  [SL_F_HOST] = "HOST",
  [SL_F_HOST_FROM] = "HOST_FROM",
  [SL_F_PROGRAM] = "PROGRAM",
  [SL_F_PID] = "PID",
  [SL_F_MSGID] = "MSGID",
  [SL_F_MESSAGE] = "MESSAGE",
  [SL_F_SOURCEIP] = "SOURCEIP",
  [SL_F_LEGACY_MSGHDR] = "LEGACY_MSGHDR",
  [SL_F_RAWMSG] = "RAWMSG",
  [SL_F_MSGFORMAT] = "MSGFORMAT",
  [SL_F_TRANSPORT] = "TRANSPORT",
};

/* Field names are interned for the life of the process: handles are stored
 * in compiled templates and filters that outlive any one configuration. */
static SlNameTable field_names =
  SL_NAME_TABLE_INIT (SL_F_PREDEFINED_MAX + SL_FIELD_NAMES_MAX, builtin_names, SL_F_PREDEFINED_MAX);

/* Counts a name a full table refused; TRUE the first time, to log it. */
static gboolean
count_refused (const gchar *kind, SlCounter **counter, gint *logged)
{
  if (g_once_init_enter (counter))
    g_once_init_leave (counter, sl_stats_counter (kind, "registry", "names", "refused"));
  sl_counter_add (*counter, 1);
  return g_atomic_int_compare_and_exchange (logged, 0, 1);
}

SlHandle
sl_field_handle (const gchar *name)
{
  static SlCounter *counter;
  static gint logged;
  gboolean refused;
  SlHandle h = sl_name_table_intern (&field_names, name, &refused);
  if (refused && count_refused ("fields", &counter, &logged))
    sl_log (SL_LOG_WARNING, _("too many field names, %d; new ones such as '%s' are not stored, "
                              "and structured data using them is kept whole for $SDATA"),
            SL_FIELD_NAMES_MAX, name);
  return h;
}

SlHandle
sl_field_lookup (const gchar *name)
{
  return sl_name_table_lookup (&field_names, name);
}

const gchar *
sl_field_name (SlHandle handle)
{
  return sl_name_table_name (&field_names, handle);
}

static const gchar *const predefined_tags[SL_TAG_PREDEFINED_MAX] = {
  [SL_TAG_UTF8_SANITIZED] = "message.utf8_sanitized",
  [SL_TAG_SYSLOG_MISSING_PRI] = "syslog.missing_pri",
  [SL_TAG_SYSLOG_INVALID_PRI] = "syslog.invalid_pri",
  [SL_TAG_SYSLOG_MISSING_TIMESTAMP] = "syslog.missing_timestamp",
  [SL_TAG_SYSLOG_INVALID_HOSTNAME] = "syslog.invalid_hostname",
  [SL_TAG_SYSLOG_UNEXPECTED_FRAMING] = "syslog.unexpected_framing",
  [SL_TAG_SYSLOG_RFC3164_MISSING_HEADER] = "syslog.rfc3164_missing_header",
  [SL_TAG_SYSLOG_RFC5424_MISSING_HOSTNAME] = "syslog.rfc5424_missing_hostname",
  [SL_TAG_SYSLOG_RFC5424_MISSING_APP_NAME] = "syslog.rfc5424_missing_app_name",
  [SL_TAG_SYSLOG_RFC5424_MISSING_PROCID] = "syslog.rfc5424_missing_procid",
  [SL_TAG_SYSLOG_RFC5424_MISSING_MSGID] = "syslog.rfc5424_missing_msgid",
  [SL_TAG_SYSLOG_RFC5424_MISSING_SDATA] = "syslog.rfc5424_missing_sdata",
  [SL_TAG_SYSLOG_RFC5424_INVALID_SDATA] = "syslog.rfc5424_invalid_sdata",
  [SL_TAG_SYSLOG_RFC5424_MISSING_MESSAGE] = "syslog.rfc5424_missing_message",
};
static SlNameTable tag_names = SL_NAME_TABLE_INIT (SL_TAGS_MAX + 1, predefined_tags, SL_TAG_PREDEFINED_MAX);

SlTag
sl_tag_id (const gchar *name)
{
  static SlCounter *counter;
  static gint logged;
  gboolean refused;
  SlTag tag = sl_name_table_intern (&tag_names, name, &refused);
  if (refused && count_refused ("tags", &counter, &logged))
    sl_log (SL_LOG_WARNING, _("too many tags, %d; new ones such as '%s' are not set"), SL_TAGS_MAX, name);
  return tag;
}

SlTag
sl_tag_lookup (const gchar *name)
{
  return sl_name_table_lookup (&tag_names, name);
}

const gchar *
sl_tag_name (SlTag tag)
{
  return sl_name_table_name (&tag_names, tag);
}

GArray *
sl_tag_ids (GPtrArray *names)
{
  GArray *tags = g_array_sized_new (FALSE, FALSE, sizeof (SlTag), names->len);
  for (guint i = 0; i < names->len; i++)
    {
      SlTag tag = sl_tag_id (g_ptr_array_index (names, i));
      g_array_append_val (tags, tag);
    }
  return tags;
}

void
sl_time_now (SlTime *t)
{
  struct timeval tv;
  struct tm tm;

  gettimeofday (&tv, NULL);
  localtime_r (&tv.tv_sec, &tm);
  t->usec = (gint64) tv.tv_sec * G_USEC_PER_SEC + tv.tv_usec;
  t->gmtoff = (gint32) tm.tm_gmtoff;
}

/* Says that a message's fields live in the slack of its own block. */
#define FIELDS_INLINE G_MAXUINT8

/* A store doubles at most up to twice every handle there is. */
G_STATIC_ASSERT (2 * (SL_F_PREDEFINED_MAX + SL_FIELD_NAMES_MAX) <= G_MAXUINT16);

static gsize
message_bytes (gsize raw_len, gsize tail)
{
  return G_STRUCT_OFFSET (SlMessage, raw) + raw_len + 1 + tail;
}

/* A pool block is mostly larger than the message in it: the first few
 * dynamic fields go into what is left, so that a message with structured
 * data usually needs no second allocation. */
/* What a message's block counts in the bytes in flight. */
static gsize
block_bytes (const SlMessage *msg)
{
  return msg->pool_class ? sl_message_pool_block_size (msg->pool_class)
                         : message_bytes (msg->raw_len, msg->extra_len);
}

static gsize
fields_bytes (const SlMessage *msg)
{
  return msg->fields_pool ? sl_message_pool_block_size (msg->fields_pool) : msg->fields_cap * sizeof (SlValue);
}

static void
fields_use_slack (SlMessage *msg, gsize bytes, gsize block)
{
  gsize used = (bytes + G_ALIGNOF (SlValue) - 1) & ~(gsize) (G_ALIGNOF (SlValue) - 1);
  if (block < used + sizeof (SlValue))
    return;
  msg->fields = (SlValue *) ((gchar *) msg + used);
  msg->fields_cap = (block - used) / sizeof (SlValue);
  msg->fields_pool = FIELDS_INLINE;
}

/* How many dynamic fields the last message of this thread's that
 * outgrew its slack wanted: a reader's messages mostly come from one
 * parser, so its next message gets a block with room for them (RFC 5424
 * with structured data), and messages without fields get none. */
#define FIELDS_HINT_MAX 8
static __thread guint8 fields_hint;

SlMessage *
sl_message_new_with_extra (const gchar *raw, gsize len, const gchar *extra, gsize extra_len,
                           const gchar **extra_copy)
{
  gsize tail = extra ? extra_len + 1 : 0;
  gsize bytes = message_bytes (len, tail);
  guint8 pool_class;
  SlMessage *msg = sl_message_pool_alloc (bytes + fields_hint * sizeof (SlValue), &pool_class);

  memset (msg, 0, G_STRUCT_OFFSET (SlMessage, raw));
  msg->pool_class = pool_class;
  msg->ref_count = 1;
  msg->pri = SL_PRI_MAKE (1, 5);
  msg->raw_len = len;
  msg->extra_len = tail;
  if (len)
    memcpy (msg->raw, raw, len);
  msg->raw[len] = '\0';
  if (extra)
    {
      memcpy (msg->raw + len + 1, extra, extra_len);
      msg->raw[len + 1 + extra_len] = '\0';
      if (extra_copy)
        *extra_copy = msg->raw + len + 1;
    }
  gsize block = sl_message_pool_block_size (pool_class);
  fields_use_slack (msg, bytes, block);
  sl_in_flight_add (pool_class ? block : bytes);
  return msg;
}

SlMessage *
sl_message_new (const gchar *raw, gsize len)
{
  return sl_message_new_with_extra (raw, len, NULL, 0, NULL);
}

SlMessage *
sl_message_ref (SlMessage *msg)
{
  g_atomic_int_inc (&msg->ref_count);
  return msg;
}

/* A value's own copy, NUL-terminated for text, byte for byte for a value
 * that holds NULs (OTLP's records as received) */
static gchar *
copy_bytes (const gchar *p, gsize len)
{
  gchar *copy = g_malloc (len + 1);
  if (len)
    memcpy (copy, p, len);
  copy[len] = '\0';
  return copy;
}

static void
value_clear (SlValue *v)
{
  if (v->owned)
    g_free ((gchar *) v->ptr);
  v->ptr = NULL;
  v->len = 0;
  v->owned = FALSE;
  v->type = SL_VALUE_STRING;
}

static void
value_free (const SlValue *v)
{
  if (v->owned)
    g_free ((gchar *) v->ptr);
}

/* A new value in place of v's. Parsers mostly put a slice where there
 * was none or a slice, both strings: then the flags stay as they are, and
 * the hot path pays one test for the type. */
static inline void
value_put (SlValue *v, const gchar *ptr, guint32 len, SlValueType type, gboolean owned)
{
  if (G_UNLIKELY (v->owned || v->type != type || owned))
    {
      value_free (v);
      v->type = type;
      v->owned = owned;
    }
  v->ptr = ptr;
  v->len = len;
}

static G_GNUC_NO_INLINE void
fields_store_free (SlMessage *msg)
{
  sl_in_flight_add (-(gint64) fields_bytes (msg));
  sl_message_pool_free (msg->fields, msg->fields_pool);
}

static inline void
fields_free (SlMessage *msg)
{
  if (G_UNLIKELY (msg->fields && msg->fields_pool != FIELDS_INLINE))
    fields_store_free (msg);
}

SlWindow *
sl_message_unref_defer (SlMessage *msg)
{
  if (!g_atomic_int_dec_and_test (&msg->ref_count))
    return NULL;
  /* most messages hold only slices of their own bytes: nothing to look at */
  if (msg->owns_values)
    {
      for (guint i = 0; i < G_N_ELEMENTS (msg->builtin); i++)
        value_free (&msg->builtin[i]);
      for (guint i = 0; i < msg->n_fields; i++)
        value_free (&msg->fields[i]);
      value_free (&msg->sdata);
    }
  fields_free (msg);
  if (msg->more_tags)
    g_free (msg->more_tags);
  if (msg->ack_root)
    sl_message_unref (msg->ack_root);
  if (msg->held)
    g_bytes_unref (msg->held);
  SlWindow *window = msg->window;
  sl_in_flight_add (-(gint64) block_bytes (msg));
  sl_message_pool_free (msg, msg->pool_class);
  return window;
}

void
sl_message_unref (SlMessage *msg)
{
  SlWindow *window = sl_message_unref_defer (msg);
  if (window)
    sl_window_unref (window);
}

static gboolean
in_raw (const SlMessage *msg, const gchar *ptr)
{
  return ptr >= msg->raw && ptr <= msg->raw + msg->raw_len + msg->extra_len;
}

static void
value_copy (const SlMessage *from, SlMessage *to, const SlValue *src, SlValue *dst)
{
  dst->handle = src->handle;
  dst->order = src->order;
  dst->type = src->type;
  if (!src->ptr)
    return;
  if (!src->owned && in_raw (from, src->ptr))
    {
      dst->ptr = to->raw + (src->ptr - from->raw);
      dst->owned = FALSE;
    }
  else if (!src->owned)
    {
      /* sl_message_set_static()'s, or in the held bytes, which the copy holds too */
      dst->ptr = src->ptr;
      dst->owned = FALSE;
    }
  else
    {
      dst->ptr = copy_bytes (src->ptr, src->len);
      dst->owned = TRUE;
      to->owns_values = TRUE;
    }
  dst->len = src->len;
}

/* Room for at least n fields. The store comes from the message pool while
 * it fits a block: a parser that sets fields on every message would
 * otherwise send each store through malloc across threads. */
static void
fields_reserve (SlMessage *msg, guint32 n)
{
  if (n <= msg->fields_cap)
    return;
  if (msg->fields_pool == FIELDS_INLINE || !msg->fields)
    fields_hint = MIN (MAX (n, 2 * msg->fields_cap), FIELDS_HINT_MAX);
  guint32 want = MAX (n, msg->fields_cap * 2);
  guint8 pool;
  SlValue *fields = sl_message_pool_alloc (want * sizeof (SlValue), &pool);
  guint32 cap = pool ? sl_message_pool_block_size (pool) / sizeof (SlValue) : want;
  if (msg->n_fields)
    memcpy (fields, msg->fields, msg->n_fields * sizeof (SlValue));
  fields_free (msg);
  msg->fields = fields;
  msg->fields_cap = cap;
  msg->fields_pool = pool;
  sl_in_flight_add (fields_bytes (msg));
}

static void
tags_copy (const SlMessage *msg, SlMessage *copy)
{
  copy->tags = msg->tags;
  if (msg->n_more_tags)
    {
      copy->more_tags = g_new (guint64, msg->n_more_tags);
      memcpy (copy->more_tags, msg->more_tags, msg->n_more_tags * sizeof (guint64));
      copy->n_more_tags = msg->n_more_tags;
    }
}

SlMessage *
sl_message_clone (const SlMessage *msg)
{
  SlMessage *copy = sl_message_new_with_extra (msg->raw, msg->raw_len,
                                               msg->extra_len ? msg->raw + msg->raw_len + 1 : NULL,
                                               msg->extra_len ? msg->extra_len - 1 : 0, NULL);

  copy->pri = msg->pri;
  copy->flags = msg->flags;
  copy->stamp = msg->stamp;
  copy->recvd = msg->recvd;
  copy->seqnum = msg->seqnum;
  copy->source = msg->source;
  for (guint i = 0; i < G_N_ELEMENTS (msg->builtin); i++)
    value_copy (msg, copy, &msg->builtin[i], &copy->builtin[i]);
  fields_reserve (copy, msg->n_fields);
  for (guint i = 0; i < msg->n_fields; i++)
    value_copy (msg, copy, &msg->fields[i], &copy->fields[i]);
  copy->n_fields = msg->n_fields;
  value_copy (msg, copy, &msg->sdata, &copy->sdata);
  /* values in the held bytes are kept by pointer, as static ones */
  if (msg->held)
    copy->held = g_bytes_ref (msg->held);
  tags_copy (msg, copy);
  /* A copy made by a rewrite still stands for the received message: its
   * acknowledgement has to reach the source's window through the original. */
  if (msg->window || msg->ack_root)
    copy->ack_root = sl_message_ref (msg->ack_root ? msg->ack_root : (SlMessage *) msg);
  return copy;
}

void
sl_message_make_writable (SlMessage **msg)
{
  if (g_atomic_int_get (&(*msg)->ref_count) == 1)
    return;
  SlMessage *copy = sl_message_clone (*msg);
  sl_message_unref (*msg);
  *msg = copy;
}

/* Where handle h is in the store, or where it would go. */
static guint32
field_index (const SlMessage *msg, SlHandle h, gboolean *found)
{
  guint32 lo = 0, hi = msg->n_fields;
  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;
      if (msg->fields[mid].handle < h)
        lo = mid + 1;
      else
        hi = mid;
    }
  *found = lo < msg->n_fields && msg->fields[lo].handle == h;
  return lo;
}

/* TRUE for a builtin field's handle; SL_F_NONE (0) wraps above them. */
static inline gboolean
is_builtin (SlHandle h)
{
  return h - 1u < SL_F_BUILTIN_MAX - 1u;
}

static SlValue *
find (const SlMessage *msg, SlHandle h)
{
  if (is_builtin (h))
    return (SlValue *) &msg->builtin[h - 1];
  gboolean found;
  guint32 i = field_index (msg, h, &found);
  return found ? &msg->fields[i] : NULL;
}

/* Parsers mostly set fields in the order their names were interned, so
 * the common case appends. */
static SlValue *
find_or_add (SlMessage *msg, SlHandle h)
{
  if (is_builtin (h))
    return &msg->builtin[h - 1];
  guint32 i = msg->n_fields;
  if (i && msg->fields[i - 1].handle >= h)
    {
      gboolean found;
      i = field_index (msg, h, &found);
      if (found)
        return &msg->fields[i];
    }
  if (msg->n_fields == msg->fields_cap)
    fields_reserve (msg, msg->n_fields + 1);
  if (i < msg->n_fields)
    memmove (&msg->fields[i + 1], &msg->fields[i], (msg->n_fields - i) * sizeof (SlValue));
  /* the order a field came in: $SDATA writes structured data in it */
  guint32 order = MIN (msg->n_fields, SL_VALUE_ORDER_MAX);
  msg->n_fields++;
  msg->fields[i] = (SlValue) { .handle = h, .order = order };
  return &msg->fields[i];
}

/* The setters share these bodies rather than call each other: a call
 * between exported functions goes through the PLT. */
static inline void
set_copy (SlMessage *msg, SlHandle h, const gchar *value, gssize len, SlValueType type)
{
  if (h == SL_F_NONE)
    return;
  if (len < 0)
    len = strlen (value);
  gchar *copy = copy_bytes (value, len);
  value_put (find_or_add (msg, h), copy, len, type, TRUE);
  msg->owns_values = TRUE;
}

static inline void
set_slice (SlMessage *msg, SlHandle h, const gchar *ptr, gsize len, SlValueType type)
{
  if (h == SL_F_NONE)
    return;
  g_return_if_fail (in_raw (msg, ptr) && ptr + len <= msg->raw + msg->raw_len + msg->extra_len);
  value_put (find_or_add (msg, h), ptr, len, type, FALSE);
}

void
sl_message_set (SlMessage *msg, SlHandle h, const gchar *value, gssize len)
{
  set_copy (msg, h, value, len, SL_VALUE_STRING);
}

static const struct
{
  const gchar *name;
  SlValueType type;
  gboolean since_4;       /* a name or type syslog-ng 3.38 does not know */
} type_names[] = {
  { "string", SL_VALUE_STRING }, { "datetime", SL_VALUE_DATETIME, TRUE }, { "datetime", SL_VALUE_STRING },
  { "json", SL_VALUE_JSON },
  { "literal", SL_VALUE_JSON }, { "list", SL_VALUE_LIST }, { "int", SL_VALUE_INT32 }, { "int32", SL_VALUE_INT32 },
  { "int64", SL_VALUE_INT64 }, { "integer", SL_VALUE_INT64, TRUE }, { "double", SL_VALUE_DOUBLE },
  { "float", SL_VALUE_DOUBLE }, { "boolean", SL_VALUE_BOOLEAN }, { "null", SL_VALUE_NULL },
};

gboolean
sl_value_type_from_name (const gchar *name, gsize len, gboolean version_4, SlValueType *type)
{
  for (guint i = 0; i < G_N_ELEMENTS (type_names); i++)
    if (strlen (type_names[i].name) == len && strncmp (name, type_names[i].name, len) == 0
        && (!type_names[i].since_4 || version_4))
      {
        *type = type_names[i].type;
        return TRUE;
      }
  return FALSE;
}

/* syslog-ng 4.8's zone after a UNIX time (scan_iso_timezone()) */
static gboolean
is_zone (const gchar *p)
{
  return (p[0] == '+' || p[0] == '-') && g_ascii_isdigit (p[1]) && g_ascii_isdigit (p[2]) && p[3] == ':'
         && g_ascii_isdigit (p[4]) && g_ascii_isdigit (p[5]) && !g_ascii_isdigit (p[6]);
}

static gboolean
datetime_msec (const gchar *text, gint64 *msec)
{
  gchar *end;
  gint64 sec = strtoll (text, &end, 10);
  gint64 nsec = 0;

  if (*end == '.')
    {
      const gchar *frac = end + 1;
      nsec = strtoll (frac, &end, 10);
      if (end == frac || end - frac > 9)
        return FALSE;
      for (glong digits = end - frac; digits < 9; digits++)
        nsec *= 10;
    }
  if (*end && !is_zone (end))
    return FALSE;
  /* 4.8 keeps the microseconds unsigned, a negative fraction wrapping, and
   * the product wraps as 4.8's does */
  guint32 usec = (guint32) (nsec / 1000);
  *msec = (gint64) ((guint64) sec * 1000 + usec / 1000);
  return TRUE;
}

gboolean
sl_value_datetime_msec (const gchar *value, gsize len, gint64 *msec)
{
  /* NUL-terminated for strtoll in the thread's buffer: filters compare
   * datetimes message by message */
  static GPrivate text_key = SL_SCRATCH_INIT;
  GString *text = sl_scratch_get (&text_key);
  g_string_append_len (text, value, len);
  return datetime_msec (text->str, msec);
}

void
sl_message_set_typed (SlMessage *msg, SlHandle h, const gchar *value, gssize len, SlValueType type)
{
  set_copy (msg, h, value, len, type);
}

void
sl_message_set_slice (SlMessage *msg, SlHandle h, const gchar *ptr, gsize len)
{
  set_slice (msg, h, ptr, len, SL_VALUE_STRING);
}

void
sl_message_set_slice_typed (SlMessage *msg, SlHandle h, const gchar *ptr, gsize len, SlValueType type)
{
  set_slice (msg, h, ptr, len, type);
}

void
sl_message_set_static (SlMessage *msg, SlHandle h, const gchar *value, gsize len)
{
  if (h != SL_F_NONE)
    value_put (find_or_add (msg, h), value, len, SL_VALUE_STRING, FALSE);
}

void
sl_message_set_shared (SlMessage *msg, SlHandle h, GBytes *bytes, gsize offset, gsize len)
{
  gsize size;
  const gchar *data = g_bytes_get_data (bytes, &size);
  g_return_if_fail (offset <= size && len <= size - offset);
  if (h == SL_F_NONE)
    return;
  if (!msg->held)
    msg->held = g_bytes_ref (bytes);
  if (msg->held == bytes)
    value_put (find_or_add (msg, h), data + offset, len, SL_VALUE_STRING, FALSE);
  else
    set_copy (msg, h, data + offset, len, SL_VALUE_STRING);
}

void
sl_message_unset (SlMessage *msg, SlHandle h)
{
  if (is_builtin (h))
    {
      value_clear (&msg->builtin[h - 1]);
      return;
    }
  gboolean found;
  guint32 i = field_index (msg, h, &found);
  if (!found)
    return;
  value_clear (&msg->fields[i]);
  msg->n_fields--;
  memmove (&msg->fields[i], &msg->fields[i + 1], (msg->n_fields - i) * sizeof (SlValue));
}

void
sl_message_clear_fields (SlMessage *msg)
{
  for (SlHandle h = SL_F_NONE + 1; h < SL_F_BUILTIN_MAX; h++)
    if (h != SL_F_HOST_FROM && h != SL_F_SOURCEIP)
      value_clear (&msg->builtin[h - 1]);
  for (guint i = 0; i < msg->n_fields; i++)
    value_clear (&msg->fields[i]);
  msg->n_fields = 0;
  value_clear (&msg->sdata);
}

const gchar *
sl_message_get (const SlMessage *msg, SlHandle h, gsize *len)
{
  const SlValue *v = find (msg, h);
  if (!v || !v->ptr)
    {
      if (len)
        *len = 0;
      return NULL;
    }
  if (len)
    *len = v->len;
  return v->ptr;
}

const gchar *
sl_message_get_typed (const SlMessage *msg, SlHandle h, gsize *len, SlValueType *type)
{
  const SlValue *v = find (msg, h);
  if (!v || !v->ptr)
    {
      *len = 0;
      *type = SL_VALUE_STRING;
      return NULL;
    }
  *len = v->len;
  *type = v->type;
  return v->ptr;
}

gboolean
sl_message_has (const SlMessage *msg, SlHandle h)
{
  const SlValue *v = find (msg, h);
  return v && v->ptr;
}

void
sl_message_foreach_dynamic (const SlMessage *msg, SlFieldFunc func, gpointer user_data)
{
  for (guint i = 0; i < msg->n_fields; i++)
    {
      const SlValue *v = &msg->fields[i];
      if (!func (v->handle, v->ptr, v->len, user_data))
        return;
    }
}

SlHandle
sl_message_handle_limit (const SlMessage *msg)
{
  return msg->n_fields ? msg->fields[msg->n_fields - 1].handle + 1 : SL_F_BUILTIN_MAX;
}

const SlValue *
sl_message_fields_between (const SlMessage *msg, SlHandle lo, SlHandle hi, guint32 *n)
{
  gboolean found;
  guint32 first = field_index (msg, lo, &found), end = first;
  while (end < msg->n_fields && msg->fields[end].handle <= hi)
    end++;
  *n = end - first;
  return msg->fields + first;
}

static gsize
value_bytes (const SlValue *v)
{
  return v->owned ? v->len + 1 : 0;
}

gsize
sl_message_allocated_size (const SlMessage *msg)
{
  gsize size = block_bytes (msg);
  if (msg->fields && msg->fields_pool != FIELDS_INLINE)
    size += fields_bytes (msg);
  for (guint i = 0; i < G_N_ELEMENTS (msg->builtin); i++)
    size += value_bytes (&msg->builtin[i]);
  for (guint i = 0; i < msg->n_fields; i++)
    size += value_bytes (&msg->fields[i]);
  return size + value_bytes (&msg->sdata) + msg->n_more_tags * sizeof (guint64);
}

void
sl_message_keep_sdata (SlMessage *msg, const gchar *ptr, gsize len)
{
  value_clear (&msg->sdata);
  if (in_raw (msg, ptr) && ptr + len <= msg->raw + msg->raw_len + msg->extra_len)
    msg->sdata.ptr = ptr;
  else
    {
      msg->sdata.ptr = g_strndup (ptr, len);
      msg->sdata.owned = TRUE;
      msg->owns_values = TRUE;
    }
  msg->sdata.len = len;
}

const gchar *
sl_message_kept_sdata (const SlMessage *msg, gsize *len)
{
  *len = msg->sdata.len;
  return msg->sdata.ptr;
}

/* Tag t is bit (t - 1) % 64 of word (t - 1) / 64: word 0 is msg->tags,
 * the others are in more_tags. */
static guint64 *
tag_word (const SlMessage *msg, SlTag tag)
{
  guint32 word = (tag - 1) / 64;
  if (!word)
    return (guint64 *) &msg->tags;
  return word <= msg->n_more_tags ? &msg->more_tags[word - 1] : NULL;
}

static guint64
tag_bit (SlTag tag)
{
  return G_GUINT64_CONSTANT (1) << ((tag - 1) % 64);
}

void
sl_message_set_tag_id (SlMessage *msg, SlTag tag)
{
  if (!tag)
    return;
  guint32 words = (tag - 1) / 64;
  if (words > msg->n_more_tags)
    {
      msg->more_tags = g_renew (guint64, msg->more_tags, words);
      memset (msg->more_tags + msg->n_more_tags, 0, (words - msg->n_more_tags) * sizeof (guint64));
      msg->n_more_tags = words;
    }
  *tag_word (msg, tag) |= tag_bit (tag);
}

void
sl_message_clear_tag_id (SlMessage *msg, SlTag tag)
{
  guint64 *word = tag ? tag_word (msg, tag) : NULL;
  if (word)
    *word &= ~tag_bit (tag);
}

gboolean
sl_message_has_tag_id (const SlMessage *msg, SlTag tag)
{
  const guint64 *word = tag ? tag_word (msg, tag) : NULL;
  return word && (*word & tag_bit (tag));
}

void
sl_message_set_tag (SlMessage *msg, const gchar *tag)
{
  sl_message_set_tag_id (msg, sl_tag_id (tag));
}

/* A name never interned is on no message: looking it up interns nothing. */
void
sl_message_clear_tag (SlMessage *msg, const gchar *tag)
{
  sl_message_clear_tag_id (msg, sl_tag_lookup (tag));
}

gboolean
sl_message_has_tag (const SlMessage *msg, const gchar *tag)
{
  return sl_message_has_tag_id (msg, sl_tag_lookup (tag));
}

void
sl_message_foreach_tag (const SlMessage *msg, SlTagFunc func, gpointer user_data)
{
  for (guint32 w = 0; w <= msg->n_more_tags; w++)
    {
      guint64 bits = w ? msg->more_tags[w - 1] : msg->tags;
      while (bits)
        {
          guint b = __builtin_ctzll (bits);
          bits &= bits - 1;
          if (!func (w * 64 + b + 1, user_data))
            return;
        }
    }
}

typedef struct
{
  GString *out;
  gboolean any;
} TagNames;

static gboolean
append_tag_name (SlTag tag, gpointer data)
{
  TagNames *t = data;
  if (t->any)
    g_string_append_c (t->out, ',');
  g_string_append (t->out, sl_tag_name (tag));
  t->any = TRUE;
  return TRUE;
}

gboolean
sl_message_append_tags (const SlMessage *msg, GString *out)
{
  TagNames t = { out, FALSE };
  sl_message_foreach_tag (msg, append_tag_name, &t);
  return t.any;
}

void
sl_message_bind_window_many (SlMessage *const *msgs, guint n, SlWindow *window)
{
  if (!n)
    return;
  for (guint i = 0; i < n; i++)
    {
      msgs[i]->window = window;
      msgs[i]->ack_pending = 1;
    }
  sl_window_ref_many (window, n);
  sl_window_take (window, n);
}

void
sl_message_bind_window (SlMessage *msg, SlWindow *window)
{
  sl_message_bind_window_many (&msg, 1, window);
}

static SlMessage *
ack_target (SlMessage *msg)
{
  return msg->ack_root ? msg->ack_root : msg;
}

gboolean
sl_message_ack_hold (SlMessage *msg)
{
  SlMessage *root = ack_target (msg);
  if (!root->window)
    return FALSE;
  g_atomic_int_inc (&root->ack_pending);
  return TRUE;
}

SlWindow *
sl_message_ack_defer (SlMessage *msg)
{
  SlMessage *root = ack_target (msg);
  if (root->window && g_atomic_int_dec_and_test (&root->ack_pending))
    return root->window;
  return NULL;
}

void
sl_message_ack (SlMessage *msg)
{
  SlWindow *window = sl_message_ack_defer (msg);
  if (window)
    sl_window_release (window, 1);
}
