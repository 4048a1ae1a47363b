/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/sources/kmsg/kmsg-private.h"
#include "core/compile/loader.h"
#include "core/plugin/registry.h"

#include <string.h>

#define BOOT_USEC G_GINT64_CONSTANT (1764447957000000)   /* 2025-11-29T20:25:57Z */

static const SlParseOptions defaults = { .default_pri = 13, .keep_timestamp = TRUE };

static SlMessage *
parse (const gchar *record, gsize len, const SlParseOptions *options, gboolean *ok)
{
  SlMessage *msg = sl_message_new (record, len);
  sl_time_now (&msg->recvd);
  msg->stamp = msg->recvd;
  *ok = kmsg_parse (msg, BOOT_USEC, options);
  return msg;
}

static void
assert_field (const SlMessage *msg, const gchar *name, const gchar *expected)
{
  gsize len;
  const gchar *value = sl_message_get (msg, sl_field_handle (name), &len);
  if (!expected)
    {
      g_assert_null (value);
      return;
    }
  g_assert_nonnull (value);
  g_assert_cmpmem (value, len, expected, strlen (expected));
}

static void
test_record (void)
{
  static const gchar record[] = "6,1234,5000000,-;usb 1-1: new high-speed USB device number 2 using xhci_hcd";
  gboolean ok;
  SlMessage *msg = parse (record, strlen (record), &defaults, &ok);
  g_assert_true (ok);
  g_assert_cmpuint (msg->pri, ==, 6);    /* kern.info */
  g_assert_cmpint (msg->stamp.usec, ==, BOOT_USEC + 5000000);
  g_assert_cmpint (msg->stamp.gmtoff, ==, msg->recvd.gmtoff);
  assert_field (msg, "PROGRAM", "kernel");
  assert_field (msg, "MESSAGE", "usb 1-1: new high-speed USB device number 2 using xhci_hcd");
  assert_field (msg, "HOST", NULL);
  g_assert_cmpint (msg->flags & SL_MSG_PARSE_ERROR, ==, 0);
  sl_message_unref (msg);
}

/* Device properties follow on lines that start with a space. */
static void
test_properties (void)
{
  static const gchar record[] =
    "3,778,20000001,-,caller=T1;sd 0:0:0:0: [sda] Attached SCSI disk\n"
    " SUBSYSTEM=scsi\n"
    " DEVICE=+scsi:0:0:0:0\n"
    " not a property\n"
    " =empty name\n"
    " NAME_LONGER_THAN_THIRTY_TWO_CHARACTERS=x";
  gboolean ok;
  SlMessage *msg = parse (record, strlen (record), &defaults, &ok);
  g_assert_true (ok);
  g_assert_cmpuint (msg->pri, ==, 3);
  g_assert_cmpint (msg->stamp.usec, ==, BOOT_USEC + 20000001);
  assert_field (msg, "MESSAGE", "sd 0:0:0:0: [sda] Attached SCSI disk");
  assert_field (msg, ".linux.SUBSYSTEM", "scsi");
  assert_field (msg, ".linux.DEVICE", "+scsi:0:0:0:0");
  assert_field (msg, ".linux.NAME_LONGER_THAN_THIRTY_TWO_CHARACTERS", NULL);
  sl_message_unref (msg);
}

/* What programs write to /dev/kmsg carries their facility; a semicolon
 * in the text belongs to the text; a record may leave the flags out. */
static void
test_shapes (void)
{
  gboolean ok;
  static const gchar from_program[] = "30,9,123,-;systemd[1]: Started Journal; all good, really";
  SlMessage *msg = parse (from_program, strlen (from_program), &defaults, &ok);
  g_assert_true (ok);
  g_assert_cmpuint (SL_PRI_FACILITY (msg->pri), ==, 3);   /* daemon */
  g_assert_cmpuint (SL_PRI_SEVERITY (msg->pri), ==, 6);
  assert_field (msg, "MESSAGE", "systemd[1]: Started Journal; all good, really");
  sl_message_unref (msg);

  static const gchar no_flags[] = "4,10,77;text, with a comma";
  msg = parse (no_flags, strlen (no_flags), &defaults, &ok);
  g_assert_true (ok);
  g_assert_cmpint (msg->stamp.usec, ==, BOOT_USEC + 77);
  assert_field (msg, "MESSAGE", "text, with a comma");
  sl_message_unref (msg);

  /* past local7: the facility is the kernel's, the level kept */
  static const gchar odd_facility[] = "1023,11,1,-;odd";
  msg = parse (odd_facility, strlen (odd_facility), &defaults, &ok);
  g_assert_true (ok);
  g_assert_cmpuint (msg->pri, ==, 7);
  sl_message_unref (msg);

  static const gchar empty_text[] = "6,12,1,-;";
  msg = parse (empty_text, strlen (empty_text), &defaults, &ok);
  g_assert_true (ok);
  assert_field (msg, "MESSAGE", "");
  sl_message_unref (msg);
}

static void
test_malformed (void)
{
  static const gchar *const bad[] = {
    "", ";", "6", "6,", "6,1", "6,1,", "6,1,2", "6,1,2,-", "x,1,2,-;m", "6,y,2,-;m", "6,1,z,-;m",
    "1024,1,2,-;priority too large", "6,99999999999999999999999,2,-;sequence overflows",
    "6,1,2,-\n;semicolon on the next line", "<13>Nov 29 20:25:57 host prog: syslog, not kmsg",
  };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      gboolean ok = TRUE;
      SlMessage *msg = parse (bad[i], strlen (bad[i]), &defaults, &ok);
      g_assert_false (ok);
      g_assert_true (msg->flags & SL_MSG_PARSE_ERROR);
      g_assert_cmpuint (msg->pri, ==, 13);
      assert_field (msg, "MESSAGE", bad[i]);
      assert_field (msg, "PROGRAM", "kernel");
      sl_message_unref (msg);
    }
}

static void
test_options (void)
{
  static const gchar record[] = "6,1,5,-;text";
  SlParseOptions no_parse = defaults;
  no_parse.no_parse = TRUE;
  no_parse.store_raw = TRUE;
  gboolean ok;
  SlMessage *msg = parse (record, strlen (record), &no_parse, &ok);
  g_assert_true (ok);
  g_assert_cmpuint (msg->pri, ==, 13);
  assert_field (msg, "MESSAGE", record);
  assert_field (msg, "RAWMSG", record);
  sl_message_unref (msg);
}

/* Every prefix of a record with properties parses without reading past
 * it: the reader may hand over cut records. */
static void
test_every_prefix (void)
{
  static const gchar record[] = "6,1234,5000000,-;message\n SUBSYSTEM=pci\n DEVICE=+pci:0000:00:01.0";
  for (gsize len = 0; len <= strlen (record); len++)
    {
      gchar *copy = g_memdup2 (record, len);
      gboolean ok;
      SlMessage *msg = parse (copy, len, &defaults, &ok);
      g_free (copy);
      gsize text_len;
      g_assert_nonnull (sl_message_get (msg, SL_F_MESSAGE, &text_len));
      g_assert_cmpuint (text_len, <=, len);
      sl_message_unref (msg);
    }
}

static void
test_header (void)
{
  KmsgHeader header;
  static const gchar record[] = "14,18446744073709551615,123,c;x";
  g_assert_true (kmsg_parse_header (record, strlen (record), &header));
  g_assert_cmpuint (header.pri, ==, 14);
  g_assert_cmpuint (header.seq, ==, G_MAXUINT64);
  g_assert_cmpuint (header.usec, ==, 123);
  g_assert_cmpuint (header.text_offset, ==, strlen (record) - 1);
}

static void
test_format_class (void)
{
  g_assert_cmpint (kmsg_format_class.kind, ==, SL_DRIVER_FORMAT);
  g_assert_cmpstr (kmsg_format_class.name, ==, "linux-kmsg");
  /* the registry takes it: its kind's operations are there */
  const SlDriverClass *const classes[] = { &kmsg_format_class, NULL };
  const SlModule module = { .abi_version = SL_ABI_VERSION, .name = "kmsg-format", .drivers = classes };
  g_assert_true (sl_plugins_register (&module, __FILE__, NULL));
  g_assert_true (sl_plugins_lookup (SL_DRIVER_FORMAT, "linux-kmsg") == &kmsg_format_class);
  static const gchar record[] = "6,1,0,-;at boot";
  SlMessage *msg = sl_message_new (record, strlen (record));
  sl_time_now (&msg->recvd);
  g_assert_true (kmsg_format_class.ops.format->parse (msg, &defaults));
  /* time zero of the kernel's clock is the boot, before now */
  g_assert_cmpint (msg->stamp.usec, ==, kmsg_boot_time ());
  g_assert_cmpint (msg->stamp.usec, <=, msg->recvd.usec);
  sl_message_unref (msg);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/kmsg/record", test_record);
  g_test_add_func ("/kmsg/properties", test_properties);
  g_test_add_func ("/kmsg/shapes", test_shapes);
  g_test_add_func ("/kmsg/malformed", test_malformed);
  g_test_add_func ("/kmsg/options", test_options);
  g_test_add_func ("/kmsg/every-prefix", test_every_prefix);
  g_test_add_func ("/kmsg/header", test_header);
  g_test_add_func ("/kmsg/format-class", test_format_class);
  return g_test_run ();
}
