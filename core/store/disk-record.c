/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/store/disk-record.h"

#include <string.h>

/* Payload layout, little-endian:
 *   u8 pri, u8 flags, u8 has_extra, u8 0, u16 fields, u16 tags,
 *   i64 stamp usec, i32 stamp gmtoff, i32 recvd gmtoff, i64 recvd usec,
 *   u64 seqnum, u32 raw length, u32 extra length, raw bytes, extra bytes,
 *   per field: u16 name length, name, u32 offset in raw or INLINE, u32 length,
 *              the value's bytes when INLINE,
 *   per tag: u16 length, the tag. */
#define FIXED_LEN 48
#define INLINE 0xffffffffu

/* Field names live as long as the process: each encoding thread keeps
 * those it looked up, so encoding takes the name registry's lock only for
 * a handle new to the thread. */
static void
names_free (gpointer names)
{
  g_ptr_array_unref (names);
}

static GPrivate names_cache = G_PRIVATE_INIT (names_free);

static const gchar *
field_name (SlHandle h)
{
  GPtrArray *names = g_private_get (&names_cache);
  if (!names)
    {
      names = g_ptr_array_new ();
      g_private_set (&names_cache, names);
    }
  if (h >= names->len)
    g_ptr_array_set_size (names, h + 1);
  if (!names->pdata[h])
    names->pdata[h] = (gpointer) sl_field_name (h);
  return names->pdata[h];
}

static void
put16 (GByteArray *out, guint16 v)
{
  v = GUINT16_TO_LE (v);
  g_byte_array_append (out, (const guint8 *) &v, 2);
}

static void
put32 (GByteArray *out, guint32 v)
{
  v = GUINT32_TO_LE (v);
  g_byte_array_append (out, (const guint8 *) &v, 4);
}

static void
put64 (GByteArray *out, guint64 v)
{
  v = GUINT64_TO_LE (v);
  g_byte_array_append (out, (const guint8 *) &v, 8);
}

typedef struct
{
  const SlMessage *msg;
  GByteArray *out;
  guint count;
} Encoder;

static gboolean
encode_field (SlHandle h, const gchar *value, gsize len, gpointer data)
{
  Encoder *e = data;
  const gchar *name = field_name (h);
  if (!name || !*name)
    return TRUE;
  gsize name_len = MIN (strlen (name), G_MAXUINT16);
  put16 (e->out, name_len);
  g_byte_array_append (e->out, (const guint8 *) name, name_len);
  const gchar *raw = e->msg->raw;
  len = MIN (len, G_MAXUINT32 - 1);
  if (value >= raw && value + len <= raw + e->msg->raw_len + e->msg->extra_len)
    {
      put32 (e->out, value - raw);
      put32 (e->out, len);
    }
  else
    {
      put32 (e->out, INLINE);
      put32 (e->out, len);
      g_byte_array_append (e->out, (const guint8 *) value, len);
    }
  e->count++;
  return TRUE;
}

typedef struct
{
  GByteArray *out;
  guint n;
} TagEncoder;

static gboolean
encode_tag (SlTag tag, gpointer data)
{
  TagEncoder *e = data;
  const gchar *name = sl_tag_name (tag);
  gsize len = MIN (strlen (name), G_MAXUINT16);
  put16 (e->out, len);
  g_byte_array_append (e->out, (const guint8 *) name, len);
  return ++e->n < G_MAXUINT16;
}

static guint
encode_tags (const SlMessage *msg, GByteArray *out)
{
  TagEncoder e = { out, 0 };
  sl_message_foreach_tag (msg, encode_tag, &e);
  return e.n;
}

void
sl_disk_record_encode (const SlMessage *msg, GByteArray *out)
{
  guint start = out->len;
  guint8 head[4] = { msg->pri, msg->flags, msg->extra_len > 0, 0 };
  g_byte_array_append (out, head, 4);
  put16 (out, 0);
  put16 (out, 0);
  put64 (out, msg->stamp.usec);
  put32 (out, msg->stamp.gmtoff);
  put32 (out, msg->recvd.gmtoff);
  put64 (out, msg->recvd.usec);
  put64 (out, msg->seqnum);
  gsize extra = msg->extra_len ? msg->extra_len - 1 : 0;
  put32 (out, msg->raw_len);
  put32 (out, extra);
  g_byte_array_append (out, (const guint8 *) msg->raw, msg->raw_len);
  g_byte_array_append (out, (const guint8 *) msg->raw + msg->raw_len + 1, extra);

  Encoder e = { msg, out, 0 };
  for (SlHandle h = SL_F_NONE + 1; h < SL_F_BUILTIN_MAX; h++)
    {
      gsize len;
      const gchar *value = sl_message_get (msg, h, &len);
      if (value)
        encode_field (h, value, len, &e);
    }
  sl_message_foreach_dynamic (msg, encode_field, &e);
  guint tags = encode_tags (msg, out);
  guint16 counts[2] = { GUINT16_TO_LE (MIN (e.count, G_MAXUINT16)), GUINT16_TO_LE (tags) };
  memcpy (out->data + start + 4, counts, 4);
}

typedef struct
{
  const guint8 *p;
  const guint8 *end;
} Reader;

static gboolean
take (Reader *r, gsize n, const guint8 **out)
{
  if ((gsize) (r->end - r->p) < n)
    return FALSE;
  *out = r->p;
  r->p += n;
  return TRUE;
}

static gboolean
get16 (Reader *r, guint16 *v)
{
  const guint8 *p;
  if (!take (r, 2, &p))
    return FALSE;
  memcpy (v, p, 2);
  *v = GUINT16_FROM_LE (*v);
  return TRUE;
}

static gboolean
get32 (Reader *r, guint32 *v)
{
  const guint8 *p;
  if (!take (r, 4, &p))
    return FALSE;
  memcpy (v, p, 4);
  *v = GUINT32_FROM_LE (*v);
  return TRUE;
}

static gboolean
get64 (Reader *r, guint64 *v)
{
  const guint8 *p;
  if (!take (r, 8, &p))
    return FALSE;
  memcpy (v, p, 8);
  *v = GUINT64_FROM_LE (*v);
  return TRUE;
}

/* A name or tag as a C string: in buf when it fits, else allocated in
 * *heap. NULL for an empty one or one with a NUL inside. */
static const gchar *
c_string (const guint8 *p, gsize len, gchar *buf, gsize size, gchar **heap)
{
  if (!len || memchr (p, 0, len))
    return NULL;
  if (len < size)
    {
      memcpy (buf, p, len);
      buf[len] = '\0';
      return buf;
    }
  return *heap = g_strndup ((const gchar *) p, len);
}

static gboolean
decode_field (Reader *r, SlMessage *msg)
{
  guint16 name_len;
  guint32 offset, len;
  const guint8 *name, *value = NULL;
  if (!get16 (r, &name_len) || !take (r, name_len, &name) || !get32 (r, &offset) || !get32 (r, &len))
    return FALSE;
  if (offset == INLINE && !take (r, len, &value))
    return FALSE;
  gsize region = msg->raw_len + msg->extra_len;
  if (offset != INLINE && (offset > region || len > region - offset))
    return FALSE;
  gchar buf[256], *heap = NULL;
  const gchar *cname = c_string (name, name_len, buf, sizeof buf, &heap);
  if (!cname)
    return FALSE;
  SlHandle h = sl_field_handle (cname);
  g_free (heap);
  if (offset == INLINE)
    sl_message_set (msg, h, (const gchar *) value, len);
  else
    sl_message_set_slice (msg, h, msg->raw + offset, len);
  return TRUE;
}

static gboolean
decode_tag (Reader *r, SlMessage *msg)
{
  guint16 len;
  const guint8 *p;
  if (!get16 (r, &len) || !take (r, len, &p))
    return FALSE;
  gchar buf[256], *heap = NULL;
  const gchar *tag = c_string (p, len, buf, sizeof buf, &heap);
  if (!tag)
    return FALSE;
  sl_message_set_tag (msg, tag);
  g_free (heap);
  return TRUE;
}

SlMessage *
sl_disk_record_decode (const guint8 *data, gsize len)
{
  Reader r = { data, data + len };
  const guint8 *head, *raw, *extra;
  guint16 fields, tags;
  guint32 stamp_off, recvd_off, raw_len, extra_len;
  guint64 stamp, recvd, seqnum;
  if (!take (&r, 4, &head) || head[2] > 1 || head[3] != 0 || !get16 (&r, &fields) || !get16 (&r, &tags)
      || !get64 (&r, &stamp) || !get32 (&r, &stamp_off) || !get32 (&r, &recvd_off) || !get64 (&r, &recvd)
      || !get64 (&r, &seqnum) || !get32 (&r, &raw_len) || !get32 (&r, &extra_len)
      || !take (&r, raw_len, &raw) || !take (&r, extra_len, &extra) || (!head[2] && extra_len))
    return NULL;
  SlMessage *msg = sl_message_new_with_extra ((const gchar *) raw, raw_len,
                                              head[2] ? (const gchar *) extra : NULL, extra_len, NULL);
  msg->pri = head[0];
  msg->flags = head[1];
  msg->stamp = (SlTime) { (gint64) stamp, (gint32) stamp_off };
  msg->recvd = (SlTime) { (gint64) recvd, (gint32) recvd_off };
  msg->seqnum = seqnum;
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < fields; i++)
    ok = decode_field (&r, msg);
  for (guint i = 0; ok && i < tags; i++)
    ok = decode_tag (&r, msg);
  if (!ok || r.p != r.end)
    {
      sl_message_unref (msg);
      return NULL;
    }
  return msg;
}
