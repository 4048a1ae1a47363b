/* SPDX-License-Identifier: GPL-2.0-or-later */
/* format("pacct"): acct_v3 records as syslog-ng 3.38 writes their fields
 * (the same records were read by it), other versions and short records
 * reported in MESSAGE. */
#include "core/message/message.h"
#include "core/compile/loader.h"
#include "core/plugin/plugin.h"
#include "core/plugin/registry.h"

#include <linux/acct.h>
#include <string.h>

extern const SlModule sl_module;
static const SlDriverClass *format;

static SlMessage *
parse (const struct acct_v3 *rec, gsize len)
{
  SlMessage *msg = sl_message_new ((const gchar *) rec, len);
  SlParseOptions options = { 0 };
  g_assert_true (format->ops.format->parse (msg, &options));
  return msg;
}

static void
assert_field (const SlMessage *msg, const gchar *name, const gchar *expected)
{
  gsize len;
  const gchar *value = sl_message_get (msg, sl_field_handle (name), &len);
  gchar *copy = value ? g_strndup (value, len) : NULL;
  g_assert_cmpstr (copy, ==, expected);
  g_free (copy);
}

static void
test_record (void)
{
  struct acct_v3 rec = {
    .ac_flag = 0x02, .ac_version = 3, .ac_tty = 34816, .ac_exitcode = 0, .ac_uid = 1000, .ac_gid = 1000,
    .ac_pid = 4242, .ac_ppid = 4200, .ac_btime = 1764590000, .ac_etime = 123.456f, .ac_utime = 0x2005,
    .ac_stime = 7, .ac_mem = 0x7fff, .ac_io = 1234, .ac_minflt = 56, .ac_comm = "bash",
  };
  g_assert_cmpuint (format->ops.format->record_size, ==, 64);
  SlMessage *msg = parse (&rec, sizeof rec);
  assert_field (msg, ".pacct.ac_flag", "02");
  assert_field (msg, ".pacct.ac_tty", "34816");
  assert_field (msg, ".pacct.ac_exitcode", "0");
  assert_field (msg, ".pacct.ac_uid", "1000");
  assert_field (msg, ".pacct.ac_gid", "1000");
  assert_field (msg, ".pacct.ac_pid", "4242");
  assert_field (msg, ".pacct.ac_ppid", "4200");
  /* syslog-ng expands ac_btime as if it were a comp_t */
  assert_field (msg, ".pacct.ac_btime", "1769472.00");
  assert_field (msg, ".pacct.ac_etime", "   123.46");
  /* 0x2005: 5 << 3 */
  assert_field (msg, ".pacct.ac_utime", "40.00");
  assert_field (msg, ".pacct.ac_stime", "7.00");
  assert_field (msg, ".pacct.ac_mem", "4193792");
  assert_field (msg, ".pacct.ac_io", "1234");
  assert_field (msg, ".pacct.ac_rw", "0");
  assert_field (msg, ".pacct.ac_minflt", "56");
  assert_field (msg, ".pacct.ac_majflt", "0");
  assert_field (msg, ".pacct.ac_swaps", "0");
  assert_field (msg, ".pacct.ac_comm", "bash");
  assert_field (msg, "MESSAGE", NULL);
  sl_message_unref (msg);

  /* a comp_t past 31 bits sign-extends, and a full ac_comm has no NUL */
  struct acct_v3 big = { .ac_version = 3, .ac_utime = 0xffff, .ac_stime = 0xe001 };
  memcpy (big.ac_comm, "sixteen-chars-xx", ACCT_COMM);
  msg = parse (&big, sizeof big);
  assert_field (msg, ".pacct.ac_utime", "18446744073707454464.00");
  assert_field (msg, ".pacct.ac_stime", "2097152.00");
  assert_field (msg, ".pacct.ac_comm", "sixteen-chars-xx");
  sl_message_unref (msg);
}

static void
test_bad_records (void)
{
  struct acct_v3 rec = { .ac_version = 2 };
  SlMessage *msg = parse (&rec, sizeof rec);
  assert_field (msg, "MESSAGE",
                "Error parsing process accounting record, only the v3 format is supported; version='2'");
  assert_field (msg, ".pacct.ac_pid", NULL);
  sl_message_unref (msg);

  rec.ac_version = 3;
  msg = parse (&rec, 10);
  assert_field (msg, "MESSAGE",
                "Error parsing process accounting record, record too small; rec_size='10', expected_size='64'");
  sl_message_unref (msg);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  format = sl_plugins_lookup (SL_DRIVER_FORMAT, "pacct");
  g_test_add_func ("/pacct-format/record", test_record);
  g_test_add_func ("/pacct-format/bad-records", test_bad_records);
  return g_test_run ();
}
