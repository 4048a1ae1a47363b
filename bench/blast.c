/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sender of bench/floor: replays one prepared buffer of syslog lines
 * over a TCP connection with large write() calls, so that the sender costs
 * next to nothing and cannot be what limits a bare copy (which moves
 * 15-27 million 150-byte lines a second on loopback: more than sluice-gen,
 * which numbers every line, sends on one connection).
 *
 *   blast PORT SIZE LINES
 *
 * Sends LINES newline-framed RFC 3164 lines of SIZE bytes each (newline not
 * counted, as sluice-gen's -s) to 127.0.0.1:PORT, then prints
 * "start=UNIX-SECONDS lines=N bytes=N seconds=S" (the wall clock at the
 * first write, the lines and bytes sent, the time the writes took). Every
 * line is the same valid message, stamped once at the start, so a syslog
 * parser takes each one and every output line has the same length. Built
 * by bench/floor with the system's C compiler: it needs nothing but libc. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* bytes per write(): many thousand lines */
#define CHUNK (4 << 20)

static double
now (clockid_t clock)
{
  struct timespec ts;
  clock_gettime (clock, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* One line of size bytes and its newline: "<13>Dec  1 13:05:09 bench-host
 * blast[PID]: " and the text padded with x. */
static int
make_line (char *line, size_t size)
{
  static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
  time_t t = time (NULL);
  struct tm tm;
  localtime_r (&t, &tm);
  int n = snprintf (line, size + 1, "<13>%s %2d %02d:%02d:%02d bench-host blast[%d]: floor ",
                    months[tm.tm_mon], tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int) getpid ());
  if (n < 0 || (size_t) n >= size)
    return -1;
  memset (line + n, 'x', size - (size_t) n);
  line[size] = '\n';
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc != 4)
    {
      fprintf (stderr, "usage: blast PORT SIZE LINES\n");
      return 2;
    }
  int port = atoi (argv[1]);
  size_t size = strtoul (argv[2], NULL, 10);
  unsigned long long lines = strtoull (argv[3], NULL, 10);
  if (port <= 0 || port > 65535 || size < 64 || size > CHUNK / 2 || lines == 0)
    {
      fprintf (stderr, "blast: PORT 1-65535, SIZE 64 or more, LINES 1 or more\n");
      return 2;
    }
  size_t frame = size + 1;
  size_t per_chunk = CHUNK / frame;
  char *buf = malloc (per_chunk * frame);
  if (!buf || make_line (buf, size) < 0)
    {
      fprintf (stderr, "blast: cannot build the lines\n");
      return 1;
    }
  for (size_t i = 1; i < per_chunk; i++)
    memcpy (buf + i * frame, buf, frame);

  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons ((unsigned short) port),
                              .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  if (fd < 0 || connect (fd, (struct sockaddr *) &addr, sizeof addr) < 0)
    {
      perror ("blast: connect");
      return 1;
    }
  double start = now (CLOCK_REALTIME), t0 = now (CLOCK_MONOTONIC);
  unsigned long long left = lines;
  while (left > 0)
    {
      size_t n = left < per_chunk ? (size_t) left : per_chunk;
      const char *p = buf;
      size_t len = n * frame;
      while (len > 0)
        {
          ssize_t w = write (fd, p, len);
          if (w < 0)
            {
              perror ("blast: write");
              return 1;
            }
          p += w;
          len -= (size_t) w;
        }
      left -= n;
    }
  double seconds = now (CLOCK_MONOTONIC) - t0;
  close (fd);
  printf ("start=%.6f lines=%llu bytes=%llu seconds=%.6f\n", start, lines, lines * frame, seconds);
  free (buf);
  return 0;
}
