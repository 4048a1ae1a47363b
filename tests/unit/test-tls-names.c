/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* trusted-names() patterns, matched label by label as rsyslog matches the
 * permitted peers of its x509/name mode (runtime/net.c's wildcards). */
#include "core/io/tls-names.h"

static void
test_name_patterns (void)
{
  static const struct
  {
    const gchar *pattern, *name;
    gboolean matches;
  } cases[] = {
    { "logs-01.loggly.com", "logs-01.loggly.com", TRUE },
    { "logs-01.loggly.com", "LOGS-01.loggly.com", FALSE },
    { "*.loggly.com", "logs-01.loggly.com", TRUE },
    { "*.loggly.com", "a.b.loggly.com", FALSE },
    { "*.loggly.com", "loggly.com", FALSE },
    { "syslog.collection.*.sumologic.com", "syslog.collection.us2.sumologic.com", TRUE },
    { "syslog.collection.*.sumologic.com", "syslog.collection.sumologic.com", FALSE },
    { "*01.loggly.com", "logs-01.loggly.com", TRUE },
    { "*01.loggly.com", "logs-02.loggly.com", FALSE },
    { "logs*.loggly.com", "logs-01.loggly.com", TRUE },
    { "logs*.loggly.com", "log.loggly.com", FALSE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    if (sl_tls_name_matches (cases[i].pattern, cases[i].name) != cases[i].matches)
      g_test_fail_printf ("%s against %s: expected %s", cases[i].pattern, cases[i].name,
                          cases[i].matches ? "a match" : "none");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tls-names/patterns", test_name_patterns);
  return g_test_run ();
}
