/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluice-dq: what a disk buffer holds, as syslog-ng's dqtool shows it.
 *   sluice-dq info FILE     messages and bytes queued, what was cut
 *   sluice-dq cat FILE      each message's received text, one a line
 *   sluice-dq export FILE   each message as a JSON object, one a line
 * FILE is a buffer's NAME.dq-head. The buffer is locked while a sluiced
 * uses it: stop the daemon (or the destination) first. Opening checks the
 * files as sluiced does, so a torn tail is cut off here as well. */
#include <config.h>
#include "core/store/disk-queue.h"
#include "core/store/disk-record.h"
#include "core/i18n.h"

#include <jansson.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

static gboolean
add_field (SlHandle h, const gchar *value, gsize len, gpointer data)
{
  json_object_set_new (data, sl_field_name (h), json_stringn (value, len));
  return TRUE;
}

static void
export (const SlMessage *msg)
{
  json_t *fields = json_object ();
  for (SlHandle h = SL_F_NONE + 1; h < SL_F_BUILTIN_MAX; h++)
    {
      gsize len;
      const gchar *value = sl_message_get (msg, h, &len);
      if (value)
        add_field (h, value, len, fields);
    }
  sl_message_foreach_dynamic (msg, add_field, fields);
  json_t *o = json_pack ("{s:s%,s:i,s:i,s:I,s:i,s:I,s:i,s:o}", "raw", msg->raw, msg->raw_len, "pri", msg->pri,
                         "flags", msg->flags, "stamp_usec", (json_int_t) msg->stamp.usec, "stamp_gmtoff",
                         msg->stamp.gmtoff, "recvd_usec", (json_int_t) msg->recvd.usec, "recvd_gmtoff",
                         msg->recvd.gmtoff, "fields", fields);
  gchar *text = json_dumps (o, JSON_COMPACT | JSON_ENSURE_ASCII);
  puts (text);
  free (text);
  json_decref (o);
}

static gint
list (SlDiskQueue *q, gboolean as_json)
{
  const guint8 *payload;
  gsize len;
  SlDiskPos end;
  guint64 skipped, bad = 0;
  SlDiskReadResult r;
  while ((r = sl_disk_queue_read (q, &payload, &len, &end, &skipped)) != SL_DISK_READ_NONE)
    {
      SlMessage *msg = r == SL_DISK_READ_RECORD ? sl_disk_record_decode (payload, len) : NULL;
      if (!msg)
        {
          bad += r == SL_DISK_READ_RECORD ? 1 : skipped;
          continue;
        }
      if (as_json)
        export (msg);
      else
        printf ("%.*s\n", (int) msg->raw_len, msg->raw);
      sl_message_unref (msg);
    }
  if (bad)
    fprintf (stderr, _("sluice-dq: %llu records could not be read\n"), (unsigned long long) bad);
  return bad ? 1 : 0;
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  textdomain (GETTEXT_PACKAGE);
  if (argc != 3 || (strcmp (argv[1], "info") && strcmp (argv[1], "cat") && strcmp (argv[1], "export"))
      || !g_str_has_suffix (argv[2], ".dq-head"))
    {
      fprintf (stderr, _("usage: sluice-dq info|cat|export DIR/NAME.dq-head\n"));
      return 2;
    }
  if (!g_file_test (argv[2], G_FILE_TEST_IS_REGULAR))
    {
      fprintf (stderr, _("sluice-dq: %s: no such disk buffer\n"), argv[2]);
      return 1;
    }
  gchar *dir = g_path_get_dirname (argv[2]);
  gchar *base = g_path_get_basename (argv[2]);
  base[strlen (base) - strlen (".dq-head")] = '\0';
  SlDiskQueueLimits limits = { G_MAXINT64, 0, FALSE };
  SlDiskQueueReport report;
  GError *error = NULL;
  SlDiskQueue *q = sl_disk_queue_open (dir, base, &limits, &report, &error);
  gint status = 0;
  if (!q)
    {
      fprintf (stderr, "sluice-dq: %s\n", error->message);
      g_error_free (error);
      status = 1;
    }
  else if (strcmp (argv[1], "info") == 0)
    {
      printf (_("messages: %llu\nbytes: %llu\n"), (unsigned long long) report.records,
              (unsigned long long) report.bytes);
      if (report.cut_segments)
        printf (_("cut: %llu bytes of torn or corrupt records in %u files\n"), (unsigned long long) report.cut_bytes,
                report.cut_segments);
      if (report.head_lost)
        printf (_("head: unreadable; listing from the oldest record\n"));
    }
  else
    status = list (q, strcmp (argv[1], "export") == 0);
  sl_disk_queue_close (q);
  g_free (base);
  g_free (dir);
  return status;
}
