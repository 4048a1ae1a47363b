/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Building sluice-gen's frames once, and rewriting only their changing
 * digits for every batch. */
#include "tools/gen/format.h"

#include <string.h>
#include <time.h>

/* user.notice */
#define PRI "<13>"

static const gchar *const month_names[] = {
  "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
};

gchar *
sl_gen_format_stamp (SlGenSyntax syntax, gint64 unix_usec)
{
  time_t secs = (time_t) (unix_usec / G_USEC_PER_SEC);
  struct tm tm;
  gchar date[32];

  localtime_r (&secs, &tm);
  if (syntax == SL_GEN_RFC3164)
    /* the day is padded with a space, so the length never changes; the
     * month's name is English whatever the locale */
    return g_strdup_printf ("%s %2d %02d:%02d:%02d", month_names[tm.tm_mon], tm.tm_mday, tm.tm_hour,
                            tm.tm_min, tm.tm_sec);
  strftime (date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
  glong offset_min = tm.tm_gmtoff / 60;
  return g_strdup_printf ("%s.%06u%c%02ld:%02ld", date, (guint) (unix_usec % G_USEC_PER_SEC),
                          offset_min < 0 ? '-' : '+', ABS (offset_min) / 60, ABS (offset_min) % 60);
}

void
sl_gen_frame_append (GString *out, SlGenFraming framing, const gchar *message, gsize len)
{
  if (framing == SL_GEN_FRAMING_OCTET)
    g_string_append_printf (out, "%" G_GSIZE_FORMAT " ", len);
  g_string_append_len (out, message, len);
  if (framing == SL_GEN_FRAMING_NEWLINE)
    g_string_append_c (out, '\n');
}

/* One message with zeros for its sequence number; offsets relative to the
 * message's first byte. */
static GString *
message_new (const SlGenFormat *format, guint conn, gint64 unix_usec, gsize *stamp_offset,
             gsize *stamp_len, gsize *seq_offset)
{
  GString *m = g_string_new (PRI);
  gchar *stamp = sl_gen_format_stamp (format->syntax, unix_usec);

  if (format->syntax == SL_GEN_RFC5424)
    g_string_append (m, "1 ");
  *stamp_offset = m->len;
  *stamp_len = strlen (stamp);
  g_string_append (m, stamp);
  g_free (stamp);
  if (format->syntax == SL_GEN_RFC5424)
    g_string_append_printf (m, " %s %s %u - %s ", format->host, format->program, format->pid,
                            format->sdata && *format->sdata ? format->sdata : "-");
  else
    g_string_append_printf (m, " %s %s[%u]: ", format->host, format->program, format->pid);
  g_string_append_printf (m, SL_GEN_SEQ_MARK "%0*u:", SL_GEN_CONN_DIGITS, conn);
  *seq_offset = m->len;
  g_string_append_printf (m, "%0*u", SL_GEN_SEQ_DIGITS, 0);
  if (m->len < format->size)
    {
      g_string_append_c (m, ' ');
      while (m->len < format->size)
        g_string_append_c (m, 'x');
    }
  return m;
}

gchar *
sl_gen_frames_new (const SlGenFormat *format, guint conn, guint count, gint64 unix_usec,
                   SlGenLayout *layout)
{
  gsize stamp_offset, seq_offset;
  GString *message = message_new (format, conn, unix_usec, &stamp_offset, &layout->stamp_len,
                                  &seq_offset);
  GString *frame = g_string_new (NULL);

  sl_gen_frame_append (frame, format->framing, message->str, message->len);
  gsize prefix = frame->len - message->len - (format->framing == SL_GEN_FRAMING_NEWLINE);
  layout->frame_len = frame->len;
  layout->message_len = message->len;
  layout->stamp_offset = prefix + stamp_offset;
  layout->seq_offset = prefix + seq_offset;
  g_string_free (message, TRUE);

  gchar *frames = g_malloc ((gsize) count * frame->len);
  for (guint i = 0; i < count; i++)
    memcpy (frames + (gsize) i * frame->len, frame->str, frame->len);
  g_string_free (frame, TRUE);
  return frames;
}

/* Adds one to a fixed-width decimal number, as an odometer does. */
static void
increment_digits (gchar *digits, gsize width)
{
  for (gsize i = width; i-- > 0;)
    {
      if (digits[i] != '9')
        {
          digits[i]++;
          return;
        }
      digits[i] = '0';
    }
}

void
sl_gen_frames_set_seq (gchar *frames, const SlGenLayout *layout, guint count, guint64 first_seq)
{
  gchar digits[SL_GEN_SEQ_DIGITS + 1];

  g_snprintf (digits, sizeof digits, "%0*" G_GUINT64_FORMAT, SL_GEN_SEQ_DIGITS, first_seq);
  for (guint i = 0; i < count; i++)
    {
      memcpy (frames + (gsize) i * layout->frame_len + layout->seq_offset, digits, SL_GEN_SEQ_DIGITS);
      increment_digits (digits, SL_GEN_SEQ_DIGITS);
    }
}

void
sl_gen_frames_set_stamp (gchar *frames, const SlGenLayout *layout, guint count, const gchar *stamp)
{
  g_return_if_fail (strlen (stamp) == layout->stamp_len);
  for (guint i = 0; i < count; i++)
    memcpy (frames + (gsize) i * layout->frame_len + layout->stamp_offset, stamp, layout->stamp_len);
}
