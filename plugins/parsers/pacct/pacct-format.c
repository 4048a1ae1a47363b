/* SPDX-License-Identifier: GPL-2.0-or-later */
/* format("pacct"): BSD process accounting records (struct acct_v3 of
 * <linux/acct.h>, which the kernel appends to the file accton(8) names),
 * as syslog-ng's pacctformat module reads them: every field as .pacct.NAME,
 * written the way it writes them, and MESSAGE empty. A record of another
 * version, or a short one, is reported in MESSAGE. */
#include "core/message/message.h"
#include "core/plugin/plugin.h"

#include <linux/acct.h>
#include <string.h>

typedef struct acct_v3 PacctRecord;

enum
{
  F_FLAG, F_TTY, F_EXITCODE, F_UID, F_GID, F_PID, F_PPID, F_BTIME, F_ETIME, F_UTIME, F_STIME,
  F_MEM, F_IO, F_RW, F_MINFLT, F_MAJFLT, F_SWAPS, F_COMM, F_COUNT
};

static const gchar *const field_names[F_COUNT] = {
  ".pacct.ac_flag", ".pacct.ac_tty", ".pacct.ac_exitcode", ".pacct.ac_uid", ".pacct.ac_gid",
  ".pacct.ac_pid", ".pacct.ac_ppid", ".pacct.ac_btime", ".pacct.ac_etime", ".pacct.ac_utime",
  ".pacct.ac_stime", ".pacct.ac_mem", ".pacct.ac_io", ".pacct.ac_rw", ".pacct.ac_minflt",
  ".pacct.ac_majflt", ".pacct.ac_swaps", ".pacct.ac_comm",
};

static SlHandle fields[F_COUNT];

static gpointer
intern_fields (gpointer unused)
{
  for (guint i = 0; i < F_COUNT; i++)
    fields[i] = sl_field_handle (field_names[i]);
  return NULL;
}

/* syslog-ng expands a comp_t (13 bits of mantissa, 3 of base-8 exponent)
 * in the int it is promoted to, then widens that to unsigned long: a value
 * past 31 bits comes out sign-extended, and so it is here. */
static gulong
comp_value (comp_t c)
{
  guint32 expanded = (guint32) (c & 0x1fff) << (((c >> 13) & 0x7) * 3);
  return (gulong) (glong) (gint32) expanded;
}

/* It applies the same expansion to ac_btime, a plain 32-bit time: kept,
 * so that the fields match what syslog-ng writes. */
static gulong
btime_value (guint32 t)
{
  return (gulong) (guint32) ((t & 0x1fff) << (((t >> 13) & 0x7) * 3));
}

static void
set_printf (SlMessage *msg, guint field, const gchar *format, ...) G_GNUC_PRINTF (3, 4);

static void
set_printf (SlMessage *msg, guint field, const gchar *format, ...)
{
  gchar buf[64];
  va_list args;

  va_start (args, format);
  gint len = g_vsnprintf (buf, sizeof buf, format, args);
  va_end (args);
  sl_message_set (msg, fields[field], buf, MIN (len, (gint) sizeof buf - 1));
}

static gboolean
pacct_parse (SlMessage *msg, const SlParseOptions *options)
{
  static GOnce once = G_ONCE_INIT;
  PacctRecord rec;
  gchar error[160];

  if (msg->raw_len < sizeof rec)
    {
      g_snprintf (error, sizeof error, "Error parsing process accounting record, record too small; "
                  "rec_size='%d', expected_size='%d'", (gint) msg->raw_len, (gint) sizeof rec);
      sl_message_set (msg, SL_F_MESSAGE, error, -1);
      return TRUE;
    }
  memcpy (&rec, msg->raw, sizeof rec);
  if (rec.ac_version != 3)
    {
      g_snprintf (error, sizeof error, "Error parsing process accounting record, only the v3 format is "
                  "supported; version='%d'", rec.ac_version);
      sl_message_set (msg, SL_F_MESSAGE, error, -1);
      return TRUE;
    }
  g_once (&once, intern_fields, NULL);
  set_printf (msg, F_FLAG, "%02x", rec.ac_flag);
  set_printf (msg, F_TTY, "%u", rec.ac_tty);
  set_printf (msg, F_EXITCODE, "%u", rec.ac_exitcode);
  set_printf (msg, F_UID, "%u", rec.ac_uid);
  set_printf (msg, F_GID, "%u", rec.ac_gid);
  set_printf (msg, F_PID, "%u", rec.ac_pid);
  set_printf (msg, F_PPID, "%u", rec.ac_ppid);
  set_printf (msg, F_BTIME, "%lu.00", btime_value (rec.ac_btime));
  set_printf (msg, F_ETIME, "%9.2f", (gdouble) rec.ac_etime);
  set_printf (msg, F_UTIME, "%lu.00", comp_value (rec.ac_utime));
  set_printf (msg, F_STIME, "%lu.00", comp_value (rec.ac_stime));
  set_printf (msg, F_MEM, "%lu", comp_value (rec.ac_mem));
  set_printf (msg, F_IO, "%lu", comp_value (rec.ac_io));
  set_printf (msg, F_RW, "%lu", comp_value (rec.ac_rw));
  set_printf (msg, F_MINFLT, "%lu", comp_value (rec.ac_minflt));
  set_printf (msg, F_MAJFLT, "%lu", comp_value (rec.ac_majflt));
  set_printf (msg, F_SWAPS, "%lu", comp_value (rec.ac_swaps));
  gsize comm_len = rec.ac_comm[ACCT_COMM - 1] ? ACCT_COMM : strlen (rec.ac_comm);
  sl_message_set (msg, fields[F_COMM], rec.ac_comm, comm_len);
  /* as syslog-ng 4 sets it, on a record it read */
  if (options->syslog_ng_4)
    sl_message_set_static (msg, SL_F_MSGFORMAT, "linux:pacct", strlen ("linux:pacct"));
  return TRUE;
}

static const SlFormatOps pacct_format_ops = { .parse = pacct_parse, .record_size = sizeof (PacctRecord) };

static const SlDriverClass pacct_format_class = {
  .kind = SL_DRIVER_FORMAT,
  .name = "pacct",
  .summary = "BSD process accounting records (Linux acct_v3), as file(format(\"pacct\")) reads them",
  .ops.format = &pacct_format_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "pacct",
  .drivers = (const SlDriverClass *const[]) { &pacct_format_class, NULL },
};
