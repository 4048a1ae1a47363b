/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tests/unit/plugin-fixture.h"
#include "core/compile/loader.h"

#include <arpa/inet.h>
#include <string.h>

extern const SlModule sl_module;

static gboolean
sender_passes (const gchar *filter, const gchar *source_ip)
{
  SlTestDriver t;
  GError *error = NULL;
  g_assert_true (sl_test_driver_new (&t, SL_DRIVER_FILTER, NULL, filter, &error));
  g_assert_no_error (error);
  SlMessage *msg = source_ip ? sl_test_message_new ("SOURCEIP", source_ip, NULL) : sl_message_new ("", 0);
  gboolean pass = t.driver->klass->ops.filter->match (t.driver, msg);
  sl_message_unref (msg);
  sl_test_driver_free (&t);
  return pass;
}

static void
test_netmask (void)
{
  g_assert_true (sender_passes ("netmask(\"10.0.0.0/8\")", "10.200.3.4"));
  g_assert_false (sender_passes ("netmask(\"10.0.0.0/8\")", "11.0.0.1"));
  g_assert_true (sender_passes ("netmask(\"192.168.1.0/255.255.255.0\")", "192.168.1.77"));
  g_assert_false (sender_passes ("netmask(\"192.168.1.0/255.255.255.0\")", "192.168.2.77"));
  g_assert_true (sender_passes ("netmask(\"172.16.0.0/12\")", "172.31.255.255"));
  g_assert_false (sender_passes ("netmask(\"172.16.0.0/12\")", "172.32.0.0"));
  /* host bits of the network are ignored */
  g_assert_true (sender_passes ("netmask(\"10.1.2.3/16\")", "10.1.99.1"));
  /* an address alone is a /32 */
  g_assert_true (sender_passes ("netmask(\"127.0.0.1\")", "127.0.0.1"));
  g_assert_false (sender_passes ("netmask(\"127.0.0.1\")", "127.0.0.2"));
  g_assert_true (sender_passes ("netmask(\"0.0.0.0/0\")", "203.0.113.9"));
  /* an IPv4 sender seen through an IPv6 socket */
  g_assert_true (sender_passes ("netmask(\"10.0.0.0/8\")", "::ffff:10.9.9.9"));
  /* IPv6 senders, local senders and garbage never match netmask() */
  g_assert_false (sender_passes ("netmask(\"0.0.0.0/0\")", "2001:db8::1"));
  g_assert_false (sender_passes ("netmask(\"0.0.0.0/0\")", NULL));
  g_assert_false (sender_passes ("netmask(\"0.0.0.0/0\")", "not an address"));
  g_assert_false (sender_passes ("netmask(\"0.0.0.0/0\")", "10.0.0.1 trailing"));
}

static void
test_netmask6 (void)
{
  g_assert_true (sender_passes ("netmask6(\"2001:db8::/32\")", "2001:db8:1:2::3"));
  g_assert_false (sender_passes ("netmask6(\"2001:db8::/32\")", "2001:db9::1"));
  g_assert_true (sender_passes ("netmask6(\"2001:db8:abcd:12::/60\")", "2001:db8:abcd:1f::1"));
  g_assert_false (sender_passes ("netmask6(\"2001:db8:abcd:12::/60\")", "2001:db8:abcd:20::1"));
  g_assert_true (sender_passes ("netmask6(\"::1\")", "::1"));
  g_assert_false (sender_passes ("netmask6(\"::1\")", "::2"));
  g_assert_true (sender_passes ("netmask6(\"fe80::/10\")", "fe80::1%eth0"));
  /* IPv4 senders are seen mapped */
  g_assert_true (sender_passes ("netmask6(\"::ffff:10.0.0.0/104\")", "10.1.1.1"));
  g_assert_false (sender_passes ("netmask6(\"2001:db8::/32\")", "10.1.1.1"));
  g_assert_false (sender_passes ("netmask6(\"::/0\")", NULL));
}

static void
test_hostile_source (void)
{
  gchar *long_ip = g_strnfill (4096, '1');
  g_assert_false (sender_passes ("netmask(\"0.0.0.0/0\")", long_ip));
  g_assert_false (sender_passes ("netmask6(\"::/0\")", long_ip));
  g_free (long_ip);
  /* a SOURCEIP that is exactly as long as the stack buffer */
  gchar *edge = g_strnfill (INET6_ADDRSTRLEN, ':');
  g_assert_false (sender_passes ("netmask6(\"::/0\")", edge));
  g_free (edge);
}

static void
assert_refused (const gchar *filter, const gchar *expected)
{
  SlTestDriver t;
  GError *error = NULL;
  g_assert_false (sl_test_driver_new (&t, SL_DRIVER_FILTER, NULL, filter, &error));
  g_assert_nonnull (error);
  if (!strstr (error->message, expected))
    g_error ("'%s' not in: %s", expected, error->message);
  g_error_free (error);
  sl_test_driver_free (&t);
}

static void
test_config_errors (void)
{
  assert_refused ("netmask(\"10.0.0/8\")", "test.conf:1:20: '10.0.0/8' is not an IPv4 address");
  assert_refused ("netmask(\"10.0.0.0/33\")", "the netmask after '/' must be a length 0 to 32");
  assert_refused ("netmask(\"10.0.0.0/255.0.255.0\")", "must be a length 0 to 32 or a mask");
  assert_refused ("netmask(\"10.0.0.0/\")", "must be a length");
  assert_refused ("netmask(\"2001:db8::/32\")", "is not an IPv4 address");
  assert_refused ("netmask6(\"10.0.0.0/8\")", "is not an IPv6 address");
  assert_refused ("netmask6(\"2001:db8::/129\")", "must be 0 to 128");
  assert_refused ("netmask()", "netmask() needs a network");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/netmask-filters/netmask", test_netmask);
  g_test_add_func ("/netmask-filters/netmask6", test_netmask6);
  g_test_add_func ("/netmask-filters/hostile-source", test_hostile_source);
  g_test_add_func ("/netmask-filters/config-errors", test_config_errors);
  return g_test_run ();
}
