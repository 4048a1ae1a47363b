/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A program that logs the way most programs do, through glibc's
 * syslog(3), which always writes to /dev/log: the unix sources' test runs
 * it where /dev/log leads to the daemon under test.
 * Usage: syslog-client IDENT MESSAGE */
#include <stdio.h>
#include <syslog.h>

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: %s IDENT MESSAGE\n", argv[0]);
      return 2;
    }
  openlog (argv[1], LOG_PID, LOG_LOCAL2);
  syslog (LOG_WARNING, "%s", argv[2]);
  closelog ();
  return 0;
}
