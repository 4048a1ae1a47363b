/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/message/message.h"
#include "plugins/sources/journal/journal-private.h"

#include <string.h>
#include <time.h>

/* The fields that fill syslog's own macros */
enum
{
  SPECIAL_MESSAGE,
  SPECIAL_HOSTNAME,
  SPECIAL_PID,
  SPECIAL_IDENTIFIER,
  SPECIAL_COMM,
  SPECIAL_FACILITY,
  SPECIAL_PRIORITY,
  SPECIAL_COUNT
};

static const gchar *const special_names[SPECIAL_COUNT] = {
  "MESSAGE", "_HOSTNAME", "_PID", "SYSLOG_IDENTIFIER", "_COMM", "SYSLOG_FACILITY", "PRIORITY",
};

typedef struct
{
  SlHandle handle;
  guint32 offset;      /* of the value in the raw bytes */
  guint32 len;
} EntryField;

struct _SlJournalEntryBuilder
{
  const JournalSettings *settings;
  GString *raw;
  GString *name;
  GArray *fields;                  /* EntryField */
  gint special[SPECIAL_COUNT];     /* index in fields, or -1 */
  gint64 usec;
};

JournalEntryBuilder *
journal_entry_builder_new (const JournalSettings *settings)
{
  JournalEntryBuilder *b = g_new0 (JournalEntryBuilder, 1);
  b->settings = settings;
  b->raw = g_string_sized_new (4096);
  b->name = g_string_sized_new (64);
  b->fields = g_array_sized_new (FALSE, FALSE, sizeof (EntryField), 32);
  return b;
}

void
journal_entry_builder_free (JournalEntryBuilder *b)
{
  g_string_free (b->raw, TRUE);
  g_string_free (b->name, TRUE);
  g_array_unref (b->fields);
  g_free (b);
}

/* Appends NAME=value in the export format: as text, or with its length
 * when the value holds a newline. */
static void
append_field (JournalEntryBuilder *b, const gchar *data, gsize len)
{
  const gchar *eq = memchr (data, '=', len);
  if (!eq || eq == data)
    return;
  gsize name_len = eq - data;
  const gchar *value = eq + 1;
  gsize value_len = MIN (len - name_len - 1, b->settings->max_field_size);
  for (guint i = 0; i < SPECIAL_COUNT; i++)
    if (strlen (special_names[i]) == name_len && memcmp (special_names[i], data, name_len) == 0)
      {
        if (i == SPECIAL_MESSAGE && b->special[i] >= 0)
          return;
        b->special[i] = b->fields->len;
      }
  g_string_truncate (b->name, 0);
  g_string_append (b->name, b->settings->prefix);
  g_string_append_len (b->name, data, name_len);
  g_string_append_len (b->raw, data, name_len);
  if (memchr (value, '\n', value_len))
    {
      guint64 le = GUINT64_TO_LE ((guint64) value_len);
      g_string_append_c (b->raw, '\n');
      g_string_append_len (b->raw, (const gchar *) &le, sizeof le);
    }
  else
    g_string_append_c (b->raw, '=');
  EntryField f = { sl_field_handle (b->name->str), b->raw->len, value_len };
  g_string_append_len (b->raw, value, value_len);
  g_string_append_c (b->raw, '\n');
  g_array_append_val (b->fields, f);
}

static gboolean
number_of (const gchar *p, gsize len, gint max, gint *out)
{
  gint n = 0;
  if (!len || len > 2)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      if (p[i] < '0' || p[i] > '9')
        return FALSE;
      n = n * 10 + p[i] - '0';
    }
  *out = n;
  return n <= max;
}

/* The offset from UTC at usec: an entry of the last hour is in the zone
 * the receive time's offset was looked up for (once a second, by the
 * core); an older one is looked up. */
static gint32
zone_offset (gint64 usec, const SlTime *recvd)
{
  if (ABS (recvd->usec - usec) < (gint64) 3600 * G_USEC_PER_SEC)
    return recvd->gmtoff;
  time_t t = usec / G_USEC_PER_SEC;
  struct tm tm;
  return localtime_r (&t, &tm) ? (gint32) tm.tm_gmtoff : recvd->gmtoff;
}

static const EntryField *
special (JournalEntryBuilder *b, const SlMessage *msg, gint which)
{
  if (b->special[which] < 0)
    return NULL;
  const EntryField *f = &g_array_index (b->fields, EntryField, b->special[which]);
  return f->offset + f->len <= msg->raw_len ? f : NULL;
}

static void
fill (SlMessage *msg, gpointer data)
{
  JournalEntryBuilder *b = data;
  for (guint i = 0; i < b->fields->len; i++)
    {
      const EntryField *f = &g_array_index (b->fields, EntryField, i);
      /* what log-msg-size() cut off */
      if (f->offset + f->len > msg->raw_len)
        break;
      sl_message_set_slice (msg, f->handle, msg->raw + f->offset, f->len);
    }
  const EntryField *f;
  if ((f = special (b, msg, SPECIAL_MESSAGE)))
    sl_message_set_slice (msg, SL_F_MESSAGE, msg->raw + f->offset, f->len);
  if ((f = special (b, msg, SPECIAL_HOSTNAME)))
    sl_message_set_slice (msg, SL_F_HOST, msg->raw + f->offset, f->len);
  if ((f = special (b, msg, SPECIAL_PID)))
    sl_message_set_slice (msg, SL_F_PID, msg->raw + f->offset, f->len);
  f = special (b, msg, SPECIAL_IDENTIFIER);
  if (!f || !f->len)
    f = special (b, msg, SPECIAL_COMM);
  if (f)
    sl_message_set_slice (msg, SL_F_PROGRAM, msg->raw + f->offset, f->len);
  gint n;
  if ((f = special (b, msg, SPECIAL_FACILITY)) && number_of (msg->raw + f->offset, f->len, 23, &n))
    msg->pri = SL_PRI_MAKE (n, SL_PRI_SEVERITY (msg->pri));
  if ((f = special (b, msg, SPECIAL_PRIORITY)) && number_of (msg->raw + f->offset, f->len, 7, &n))
    msg->pri = SL_PRI_MAKE (SL_PRI_FACILITY (msg->pri), n);
  msg->stamp.usec = b->usec;
  msg->stamp.gmtoff = zone_offset (b->usec, &msg->recvd);
}

SlMessage *
journal_entry_message (JournalEntryBuilder *b, SlSource *src, sd_journal *j)
{
  g_string_truncate (b->raw, 0);
  g_array_set_size (b->fields, 0);
  for (guint i = 0; i < SPECIAL_COUNT; i++)
    b->special[i] = -1;
  const void *data;
  size_t len;
  /* MESSAGE first: what log-msg-size() cuts is the end */
  if (sd_journal_get_data (j, "MESSAGE", &data, &len) >= 0)
    append_field (b, data, len);
  SD_JOURNAL_FOREACH_DATA (j, data, len)
    append_field (b, data, len);
  guint64 usec = 0;
  b->usec = sd_journal_get_realtime_usec (j, &usec) >= 0 ? (gint64) usec : g_get_real_time ();
  return sl_source_parse_fields (src, b->raw->str, b->raw->len, fill, b);
}
