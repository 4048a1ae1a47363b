/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The floor for "TCP in, file out": accepts one TCP connection on
 * 127.0.0.1 and copies its bytes into a file with large read() and write()
 * calls, nothing else. No log router can move lines faster than this, so
 * bench/floor reports Sluice's rate as a fraction of it.
 *
 *   bare-copy PORTFILE OUTPUT [overwrite]
 *
 * With "overwrite" OUTPUT is written from its start without being
 * truncated first: run again over the file of a run of the same size, the
 * copy finds every page of it in the page cache and only copies bytes, as
 * a loop rerun over its last output does. Without it (the floor Sluice is
 * held to, which appends to a new file) every 4 KiB page is allocated
 * anew, which costs a virtual machine more than the copy itself.
 *
 * Listens on a port the kernel picks and writes its number into PORTFILE
 * (written whole, then renamed into place, so a reader never sees half of
 * it); returns when the peer closes the connection, printing "cpu=SECONDS",
 * the user and system time it took: a figure that the machine's other load
 * changes less than a rate. Built by bench/floor with the system's C
 * compiler: it needs nothing but libc. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

/* large enough that a call moves thousands of lines */
#define CHUNK (4 << 20)

static int
fail (const char *what)
{
  perror (what);
  return 1;
}

static int
publish_port (const char *path, int port)
{
  char tmp[4096];
  snprintf (tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen (tmp, "w");
  if (!f || fprintf (f, "%d\n", port) < 0 || fclose (f) != 0)
    return -1;
  return rename (tmp, path);
}

static int
write_all (int fd, const char *buf, size_t len)
{
  while (len > 0)
    {
      ssize_t n = write (fd, buf, len);
      if (n < 0)
        return -1;
      buf += n;
      len -= (size_t) n;
    }
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc != 3 && !(argc == 4 && strcmp (argv[3], "overwrite") == 0))
    {
      fprintf (stderr, "usage: bare-copy PORTFILE OUTPUT [overwrite]\n");
      return 2;
    }
  int lfd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t alen = sizeof addr;
  if (lfd < 0 || bind (lfd, (struct sockaddr *) &addr, sizeof addr) < 0 || listen (lfd, 1) < 0
      || getsockname (lfd, (struct sockaddr *) &addr, &alen) < 0)
    return fail ("bare-copy: listen");
  int out = open (argv[2], O_WRONLY | O_CREAT | O_CLOEXEC | (argc == 4 ? 0 : O_TRUNC), 0644);
  if (out < 0)
    return fail (argv[2]);
  if (publish_port (argv[1], ntohs (addr.sin_port)) < 0)
    return fail (argv[1]);
  int fd = accept4 (lfd, NULL, NULL, SOCK_CLOEXEC);
  if (fd < 0)
    return fail ("bare-copy: accept");
  close (lfd);
  char *buf = malloc (CHUNK);
  if (!buf)
    return fail ("bare-copy: malloc");
  for (;;)
    {
      ssize_t n = read (fd, buf, CHUNK);
      if (n == 0)
        break;
      if (n < 0 || write_all (out, buf, (size_t) n) < 0)
        return fail ("bare-copy: copy");
    }
  free (buf);
  close (fd);
  if (close (out) < 0)
    return fail (argv[2]);
  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);
  printf ("cpu=%.6f\n", (double) (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec)
                          + (double) (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
  return 0;
}
