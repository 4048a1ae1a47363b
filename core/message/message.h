/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlMessage: a reference-counted log record shared by every path it takes. */
#ifndef SL_MESSAGE_H
#define SL_MESSAGE_H

#include <glib.h>

G_BEGIN_DECLS

typedef guint32 SlHandle;

/* Builtin fields live at fixed handles so the hot path never hashes their
 * names; any other name is interned on first use into a handle above them. */
enum
{
  SL_F_NONE = 0,
  SL_F_HOST,
  SL_F_HOST_FROM,
  SL_F_PROGRAM,
  SL_F_PID,
  SL_F_MSGID,
  SL_F_MESSAGE,
  SL_F_SOURCEIP,
  SL_F_LEGACY_MSGHDR,
  SL_F_RAWMSG,
  SL_F_BUILTIN_MAX,
  /* dynamic fields at fixed handles, as syslog-ng 4 predefines them:
   * what its sources set on every message (@version: 4.x), so that a
   * source sets them without a lookup and nv-pairs scopes list them */
  SL_F_MSGFORMAT = SL_F_BUILTIN_MAX,  /* before TRANSPORT: the parser sets it first */
  SL_F_TRANSPORT,
  SL_F_PREDEFINED_MAX
};

/* Names are interned for the life of the process, and a sender can invent
 * new ones with every message (.SDATA.<id>.<param>): past this many names,
 * a new one gets SL_F_NONE, counted and logged once, and setting SL_F_NONE
 * stores nothing (the RFC 5424 parser then keeps the structured data whole,
 * see sl_message_keep_sdata). Names interned before keep working. */
#define SL_FIELD_NAMES_MAX 16384

SlHandle     sl_field_handle (const gchar *name);
SlHandle     sl_field_lookup (const gchar *name);
const gchar *sl_field_name   (SlHandle handle);

/* A point in time and the zone it was written in, seconds east of UTC. */
typedef struct
{
  gint64 usec;
  gint32 gmtoff;
} SlTime;

void sl_time_now (SlTime *t);

typedef struct _SlWindow SlWindow;

/* A value's type, as syslog-ng 4 gives one to every name-value pair: what
 * json-parser() read it as, or what a type hint (n=int($PID), list(...))
 * says. The value itself is always its text: "42", "true", "" for null,
 * syslog-ng's list text (core/message/list-text.h), JSON text. A value
 * set without a type is a string. A datetime is a UNIX time, as
 * syslog-ng 4.8 keeps one ("1700000000", "1700000000.5+01:00": see
 * sl_value_datetime_msec()). A consumer that sends text only (amqp(),
 * stomp(), riemann(), as syslog-ng's) uses the text; one that writes types
 * (format-json) casts. */
typedef enum
{
  SL_VALUE_STRING,
  SL_VALUE_JSON,        /* json(), literal(): written as it is */
  SL_VALUE_LIST,        /* list(): syslog-ng's list text */
  SL_VALUE_INT32,
  SL_VALUE_INT64,
  SL_VALUE_DOUBLE,
  SL_VALUE_BOOLEAN,
  SL_VALUE_NULL,
  SL_VALUE_DATETIME,    /* datetime(): a UNIX time */
} SlValueType;

/* The type a hint names, as syslog-ng writes hints (int("$PID"),
 * --pair n=list(...)): string, json, literal, list, int, int32, int64,
 * integer (syslog-ng 4's, with version_4), double, float, boolean,
 * datetime (a string without version_4: 3.38's messages have no types),
 * null; the first len bytes of name. FALSE for any other name. */
gboolean sl_value_type_from_name (const gchar *name, gsize len, gboolean version_4, SlValueType *type);

/* value[0..len) as a datetime in milliseconds since the epoch, as syslog-ng
 * 4.8's type_cast_to_datetime_msec() reads it: strtoll()'s seconds, then
 * a dot and one to nine digits of fraction, then nothing or a zone
 * (+hh:mm or -hh:mm, not followed by a digit; what comes after it is not
 * read, and the zone does not move the time). "" is 0. FALSE when the
 * text is not a datetime. */
gboolean sl_value_datetime_msec (const gchar *value, gsize len, gint64 *msec);

/* A field's value; in a message's dynamic store also which field it is.
 * The type takes four bits of what was the order: $SDATA orders 2047
 * structured-data fields, more than a message can carry in practice, and
 * the value stays 16 bytes. */
typedef struct
{
  const gchar *ptr;
  guint32      len;
  guint32      handle : 16;   /* below SL_F_PREDEFINED_MAX + SL_FIELD_NAMES_MAX */
  guint32      order : 11;    /* in a message's dynamic store: when it was added */
  guint32      type : 4;      /* SlValueType */
  guint32      owned : 1;
} SlValue;
#define SL_VALUE_ORDER_MAX ((1u << 11) - 1)

/* Tags are interned like field names, into ids from 1; a message keeps them
 * as bits. Past SL_TAGS_MAX names a new tag is refused, counted and logged
 * once, and setting it does nothing. */
typedef guint32 SlTag;

/* syslog-ng 4's predefined tags, at fixed ids in its order, so that the
 * syslog parser sets them without a lookup and $TAGS lists them first, as
 * syslog-ng 4.8 does */
enum
{
  SL_TAG_UTF8_SANITIZED = 1,
  SL_TAG_SYSLOG_MISSING_PRI,
  SL_TAG_SYSLOG_INVALID_PRI,
  SL_TAG_SYSLOG_MISSING_TIMESTAMP,
  SL_TAG_SYSLOG_INVALID_HOSTNAME,
  SL_TAG_SYSLOG_UNEXPECTED_FRAMING,
  SL_TAG_SYSLOG_RFC3164_MISSING_HEADER,
  SL_TAG_SYSLOG_RFC5424_MISSING_HOSTNAME,
  SL_TAG_SYSLOG_RFC5424_MISSING_APP_NAME,
  SL_TAG_SYSLOG_RFC5424_MISSING_PROCID,
  SL_TAG_SYSLOG_RFC5424_MISSING_MSGID,
  SL_TAG_SYSLOG_RFC5424_MISSING_SDATA,
  SL_TAG_SYSLOG_RFC5424_INVALID_SDATA,
  SL_TAG_SYSLOG_RFC5424_MISSING_MESSAGE,
  SL_TAG_PREDEFINED_MAX
};
#define SL_TAGS_MAX 4096

SlTag        sl_tag_id     (const gchar *name);
SlTag        sl_tag_lookup (const gchar *name);
const gchar *sl_tag_name   (SlTag tag);
/* The SlTag of each of names, interned: for drivers that name tags in their
 * configuration, so that tagging or testing a message is a bit operation. */
GArray      *sl_tag_ids    (GPtrArray *names);

/* Every message a full queue holds is one of these and its bytes in one
 * pool block: the small members come last, without holes, so that a
 * 150-byte line with syslog-ng 4's two fields fits 480 bytes. */
typedef struct _SlMessage SlMessage;
struct _SlMessage
{
  gint       ref_count;
  guint8     pri;
  guint8     flags;
  guint8     pool_class;       /* where its memory goes back to */
  guint8     owns_values;      /* some value is a copy of its own, freed with it */
  SlTime     stamp;
  SlTime     recvd;
  guint64    seqnum;
  SlValue    builtin[SL_F_BUILTIN_MAX - 1];  /* handle h at h - 1: SL_F_NONE has none */
  SlValue   *fields;           /* the dynamic fields it has, sorted by handle */
  SlValue    sdata;            /* structured data as received, when kept whole */
  guint64    tags;             /* tags 1 to 64, a bit each */
  guint64   *more_tags;        /* the bits of tags from 65 on, or NULL */
  SlMessage *ack_root;         /* the message a copy acknowledges through */
  SlWindow  *window;           /* flow-control window of the source, or NULL */
  GBytes    *held;             /* shared bytes some values lie in (sl_message_set_shared), or NULL */
  guint32    raw_len;          /* below 4 GiB, as a value's length */
  SlTag      source;           /* the .source.NAME tag of its source group, or 0 */
  gint       ack_pending;
  guint32    extra_len;        /* bytes kept after raw's NUL, such as the peer's address */
  guint16    n_more_tags;      /* words in more_tags: at most SL_TAGS_MAX / 64 */
  guint16    n_fields;         /* at most every handle: SL_F_PREDEFINED_MAX + SL_FIELD_NAMES_MAX */
  guint16    fields_cap;
  guint8     fields_pool;      /* where fields' memory goes back to */
  gchar      raw[];            /* the received bytes, NUL-terminated */
};

enum
{
  SL_MSG_PARSE_ERROR = 1 << 0,  /* the format parser did not recognise it */
  SL_MSG_LOCAL       = 1 << 1,  /* generated by the daemon itself */
  SL_MSG_UTF8_BAD    = 1 << 2,
  SL_MSG_TRUNCATED   = 1 << 3,
  /* syslog-ng's MARK of internal() or of a destination's mark-mode():
   * a destination whose mark-mode() is not internal drops internal()'s */
  SL_MSG_MARK        = 1 << 4,
  SL_MSG_RFC5424     = 1 << 5,  /* read as RFC 5424 (syslog-protocol) */
  SL_MSG_STAMP_Z     = 1 << 6,  /* its stamp came in UTC written as 'Z': rsyslog writes it back so */
};

#define SL_PRI_FACILITY(pri) ((pri) >> 3)
#define SL_PRI_SEVERITY(pri) ((pri) & 7)
#define SL_PRI_MAKE(fac, sev) ((guint8) (((fac) << 3) | ((sev) & 7)))

SlMessage   *sl_message_new        (const gchar *raw, gsize len);
/* Also keeps extra (NUL-terminated) after raw in the same allocation, so
 * that fields such as HOST_FROM can be slices of it; *extra_copy points there. */
SlMessage   *sl_message_new_with_extra (const gchar *raw, gsize len, const gchar *extra,
                                        gsize extra_len, const gchar **extra_copy);
SlMessage   *sl_message_ref        (SlMessage *msg);
void         sl_message_unref      (SlMessage *msg);
SlMessage   *sl_message_clone      (const SlMessage *msg);
void         sl_message_make_writable (SlMessage **msg);

/* sl_message_set copies the value, all len bytes of it (a value may hold
 * NULs); sl_message_set_slice takes a range that lies inside msg->raw, so
 * parsing in place needs no copy. */
void         sl_message_set        (SlMessage *msg, SlHandle h, const gchar *value, gssize len);
void         sl_message_set_slice  (SlMessage *msg, SlHandle h, const gchar *ptr, gsize len);
/* The same, with the value's type: both set it a string. */
void         sl_message_set_typed  (SlMessage *msg, SlHandle h, const gchar *value, gssize len, SlValueType type);
void         sl_message_set_slice_typed (SlMessage *msg, SlHandle h, const gchar *ptr, gsize len, SlValueType type);
/* A string that outlives every message (a constant, or interned for the
 * process): kept by pointer, never copied, also by sl_message_clone(). */
void         sl_message_set_static (SlMessage *msg, SlHandle h, const gchar *value, gsize len);
/* The len bytes at offset in bytes, which many messages share (a cache of
 * what a lookup found, filled once for them all): msg keeps a reference to
 * bytes instead of a copy of the value, and so do its clones. A message
 * keeps one such reference: a value from other bytes than those it holds
 * is copied, as sl_message_set() copies. */
void         sl_message_set_shared (SlMessage *msg, SlHandle h, GBytes *bytes, gsize offset, gsize len);
void         sl_message_unset      (SlMessage *msg, SlHandle h);
/* Unsets what a parser sets: every field, builtin and dynamic, but where it
 * came from (HOST_FROM, SOURCEIP), and the kept structured data. */
void         sl_message_clear_fields (SlMessage *msg);
const gchar *sl_message_get        (const SlMessage *msg, SlHandle h, gsize *len);
gboolean     sl_message_has        (const SlMessage *msg, SlHandle h);
/* sl_message_get() and the value's type: a field not set is a string. */
const gchar *sl_message_get_typed  (const SlMessage *msg, SlHandle h, gsize *len, SlValueType *type);

typedef gboolean (*SlFieldFunc) (SlHandle h, const gchar *value, gsize len, gpointer user_data);
/* Calls func on each set dynamic field in handle order; stops when it returns FALSE. */
void         sl_message_foreach_dynamic (const SlMessage *msg, SlFieldFunc func, gpointer user_data);
/* One past the highest handle set in msg: getting a handle at or above it
 * finds nothing, so a caller checking many handles can skip those. */
SlHandle     sl_message_handle_limit (const SlMessage *msg);
/* msg's dynamic fields whose handles are from lo to hi (both dynamic), in
 * handle order, found with one search: for a caller that wants whichever
 * of a few names interned together is set, at the cost of one lookup;
 * *n of them. */
const SlValue *sl_message_fields_between (const SlMessage *msg, SlHandle lo, SlHandle hi, guint32 *n);
/* The bytes msg holds: its block, its fields' store, copied values, tags. */
gsize        sl_message_allocated_size (const SlMessage *msg);

/* When a parser could not intern some of a message's structured-data names,
 * it keeps the structured data whole (a slice when ptr lies in msg->raw,
 * else a copy); $SDATA then renders this instead of the .SDATA. fields. */
void         sl_message_keep_sdata (SlMessage *msg, const gchar *ptr, gsize len);
const gchar *sl_message_kept_sdata (const SlMessage *msg, gsize *len);

void         sl_message_set_tag    (SlMessage *msg, const gchar *tag);
void         sl_message_clear_tag  (SlMessage *msg, const gchar *tag);
gboolean     sl_message_has_tag    (const SlMessage *msg, const gchar *tag);
void         sl_message_set_tag_id   (SlMessage *msg, SlTag tag);
void         sl_message_clear_tag_id (SlMessage *msg, SlTag tag);
gboolean     sl_message_has_tag_id   (const SlMessage *msg, SlTag tag);
/* Appends the names of msg's tags, comma-separated, in the order the names
 * were first interned in the process; FALSE when it has none. */
gboolean     sl_message_append_tags (const SlMessage *msg, GString *out);
typedef gboolean (*SlTagFunc) (SlTag tag, gpointer user_data);
/* Calls func on each of msg's tags in the same order; stops when it returns FALSE. */
void         sl_message_foreach_tag (const SlMessage *msg, SlTagFunc func, gpointer user_data);

/* Flow control: a message bound to a window holds one place in it until every
 * flow-controlled destination that took it has acknowledged it. */
void         sl_message_bind_window (SlMessage *msg, SlWindow *window);
/* TRUE when msg is bound to a window (and so now holds one more place) */
gboolean     sl_message_ack_hold    (SlMessage *msg);
void         sl_message_ack         (SlMessage *msg);
/* For batches: the reading thread and the writing threads meet on a
 * window's counters once per run of messages instead of once per message.
 * bind_window_many binds msgs[0..n) with one update of the window.
 * ack_defer is sl_message_ack() that returns the window to release one
 * place in (or NULL) instead of releasing it: the caller releases while
 * it still holds msg. unref_defer is sl_message_unref() that hands the
 * window reference of a message it freed (or NULL) to the caller. */
void         sl_message_bind_window_many (SlMessage *const *msgs, guint n, SlWindow *window);
SlWindow    *sl_message_ack_defer   (SlMessage *msg);
SlWindow    *sl_message_unref_defer (SlMessage *msg);

G_END_DECLS

#endif
