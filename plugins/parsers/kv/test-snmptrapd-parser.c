/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snmptrapd-parser(): the fields syslog-ng 3.38's parser sets from
 * snmptrapd's records (the shapes of its own tests: v1 and v2 headers,
 * spaces around every part, numeric and symbolic names, types left out,
 * values without a type), the generated MESSAGE and its escapes, and
 * records that are no trap. */
#include "tests/unit/parser-harness.h"
#include "core/compile/loader.h"

#include <string.h>
#include <time.h>

extern const SlModule sl_module;

static SlMessage *
parse (SlTestParser *p, const gchar *input, gboolean expect_ok)
{
  SlMessage *msg = sl_test_message (input);
  g_assert_cmpint (sl_test_parser_process (p, &msg), ==, expect_ok);
  return msg;
}

static void
test_v2 (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "snmptrapd-parser(set-message-macro(no))");
  SlMessage *msg = parse (&p,
    "2026-03-04 05:06:07 trap-host.example [UDP: [192.0.2.1]:40000->[192.0.2.2]:162]:\n"
    "iso.3.6.1.2.1.1.3.0 = Timeticks: (12345) 0:02:03.45\t"
    "iso.3.6.1.6.3.1.1.4.1.0 = OID: iso.3.6.1.4.1.8072.2.3.0.1      "
    "iso.3.6.1.4.1.8072.2.3.2.1 = INTEGER: 7       \t "
    "iso.3.6.1.4.1.8072.2.1.3 = \"\"", TRUE);
  sl_test_assert_field (msg, ".snmp.hostname", "trap-host.example");
  sl_test_assert_field (msg, ".snmp.transport_info", "UDP: [192.0.2.1]:40000->[192.0.2.2]:162");
  sl_test_assert_field (msg, ".snmp.iso.3.6.1.2.1.1.3.0", "(12345) 0:02:03.45");
  sl_test_assert_field (msg, ".snmp.iso.3.6.1.6.3.1.1.4.1.0", "iso.3.6.1.4.1.8072.2.3.0.1");
  sl_test_assert_field (msg, ".snmp.iso.3.6.1.4.1.8072.2.3.2.1", "7");
  sl_test_assert_field (msg, ".snmp.iso.3.6.1.4.1.8072.2.1.3", "");
  sl_test_assert_field (msg, "PROGRAM", "snmptrapd");
  sl_test_assert_field (msg, "MESSAGE", NULL);
  struct tm tm = { .tm_year = 126, .tm_mon = 2, .tm_mday = 4, .tm_hour = 5, .tm_min = 6, .tm_sec = 7, .tm_isdst = -1 };
  g_assert_cmpint (msg->stamp.usec / G_USEC_PER_SEC, ==, mktime (&tm));
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

static void
test_v1 (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "snmptrapd-parser(prefix(\"trap.\"))");
  SlMessage *msg = parse (&p,
    "2026-03-04 05:06:07  agent  [UDP: [192.0.2.1]:40000->[192.0.2.2]:162] : netSnmpExampleNotification \n"
    "\t Cold Start Trap (0) Uptime:  3 days, 1:02:03.04\n "
    "netSnmpExampleInteger = INTEGER: 99 \t netSnmpExampleString = STRING: two words", TRUE);
  sl_test_assert_field (msg, "trap.hostname", "agent");
  sl_test_assert_field (msg, "trap.enterprise_oid", "netSnmpExampleNotification");
  sl_test_assert_field (msg, "trap.type", "Cold Start Trap");
  sl_test_assert_field (msg, "trap.subtype", "0");
  sl_test_assert_field (msg, "trap.uptime", "3 days, 1:02:03.04");
  sl_test_assert_field (msg, "trap.netSnmpExampleInteger", "99");
  sl_test_assert_field (msg, "trap.netSnmpExampleString", "two words");
  sl_test_assert_field (msg, "MESSAGE",
                        "hostname='agent', transport_info='UDP: [192.0.2.1]:40000->[192.0.2.2]:162', "
                        "enterprise_oid='netSnmpExampleNotification', type='Cold Start Trap', subtype='0', "
                        "uptime='3 days, 1:02:03.04', netSnmpExampleInteger='99', netSnmpExampleString='two words'");
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

/* Symbolic names: runs of ':' become one '_' in the field's name, not in
 * MESSAGE; a value in quotes keeps what the quotes hold; no type (NULL)
 * leaves the value whole; MESSAGE escapes quotes and control characters. */
static void
test_names_types_and_escapes (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "snmptrapd-parser()");
  SlMessage *msg = parse (&p,
    "2026-03-04 05:06:07 localhost [UDP: [127.0.0.1]:1->[127.0.0.1]:162]:  \n "
    "SNMPv2-MIB::sysUpTime.0 = Timeticks: (1) 0:00:00.01\t"
    "NET-SNMP-EXAMPLES-MIB::netSnmpExampleString = STRING: \"it's key='v' \\\"q\\\"\"\t"
    "a:::b = Gauge32: 22\t"
    "org.5.3 = Hex-STRING: A0 BB CC \t"
    "org.8.8 = NULL\t"
    "dod.7 = IpAddress: 192.0.2.9", TRUE);
  sl_test_assert_field (msg, ".snmp.SNMPv2-MIB_sysUpTime.0", "(1) 0:00:00.01");
  sl_test_assert_field (msg, ".snmp.NET-SNMP-EXAMPLES-MIB_netSnmpExampleString", "it's key='v' \"q\"");
  sl_test_assert_field (msg, ".snmp.a_b", "22");
  sl_test_assert_field (msg, ".snmp.org.5.3", "A0 BB CC");
  sl_test_assert_field (msg, ".snmp.org.8.8", "NULL");
  sl_test_assert_field (msg, ".snmp.dod.7", "192.0.2.9");
  sl_test_assert_field (msg, "MESSAGE",
                        "hostname='localhost', transport_info='UDP: [127.0.0.1]:1->[127.0.0.1]:162', "
                        "SNMPv2-MIB::sysUpTime.0='(1) 0:00:00.01', "
                        "NET-SNMP-EXAMPLES-MIB::netSnmpExampleString='it\\'s key=\\'v\\' \"q\"', a:::b='22', "
                        "org.5.3='A0 BB CC', org.8.8='NULL', dod.7='192.0.2.9'");
  sl_message_unref (msg);
  msg = parse (&p,
    "2026-03-04 05:06:07 localhost [UDP: [127.0.0.1]:1->[127.0.0.1]:162]:\n"
    "x = STRING: \"tab\\there\\\\ \\x01\"", TRUE);
  sl_test_assert_field (msg, ".snmp.x", "tab\there\\ \\x01");
  g_assert_nonnull (strstr (sl_message_get (msg, SL_F_MESSAGE, NULL), "x='tab\\there\\\\ \\\\x01'"));
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

/* Records that are no trap do not match, and come to no harm. */
static void
test_not_traps (void)
{
  static const gchar *const inputs[] = {
    "NET-SNMP version 5.9.3",
    "2026-03-04 05:06:07 NET-SNMP version 5.9.3 Stopped.",
    "2026-03-04 05:06:07 localhost [127.0.0.1] (via UDP: [127.0.0.1]:1->[127.0.0.1]:162) TRAP, SNMP v1, "
    "community public\n\t.1.3.6.1.4.1.8072.2.3 Enterprise Specific Trap (17) Uptime: 1:00:00.00\n",
    "2026-03-04 05:06:07 localhost [UDP: [127.0.0.1]:1->[127.0.0.1]:162]",
    "2026-03-04 05:06:07 localhost [UDP: no closing bracket\n",
    "2026-3-4 5:6:7 h [t]:x",
    "",
  };
  SlTestParser p;
  sl_test_parser_init (&p, "snmptrapd-parser()");
  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    sl_message_unref (parse (&p, inputs[i], FALSE));
  sl_test_parser_clear (&p);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_setenv ("TZ", "Europe/Budapest", TRUE);
  tzset ();
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/snmptrapd-parser/v2", test_v2);
  g_test_add_func ("/snmptrapd-parser/v1", test_v1);
  g_test_add_func ("/snmptrapd-parser/names-types-and-escapes", test_names_types_and_escapes);
  g_test_add_func ("/snmptrapd-parser/not-traps", test_not_traps);
  return g_test_run ();
}
