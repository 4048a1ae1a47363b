/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/io/activation-private.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

typedef struct
{
  gint fd;
  gint type;
  struct sockaddr_storage addr;
  socklen_t len;
  gchar *name;
  gboolean taken;
} Passed;

static GMutex lock;
static GArray *passed;

static gchar *
describe_address (const struct sockaddr_storage *addr, socklen_t len)
{
  gchar host[INET6_ADDRSTRLEN] = "";
  if (addr->ss_family == AF_INET)
    {
      const struct sockaddr_in *in = (const struct sockaddr_in *) addr;
      inet_ntop (AF_INET, &in->sin_addr, host, sizeof host);
      return g_strdup_printf ("%s port %u", host, ntohs (in->sin_port));
    }
  if (addr->ss_family == AF_INET6)
    {
      const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *) addr;
      inet_ntop (AF_INET6, &in6->sin6_addr, host, sizeof host);
      return g_strdup_printf ("%s port %u", host, ntohs (in6->sin6_port));
    }
  if (addr->ss_family == AF_UNIX)
    {
      const struct sockaddr_un *un = (const struct sockaddr_un *) addr;
      gsize path_len = len > offsetof (struct sockaddr_un, sun_path) ? len - offsetof (struct sockaddr_un, sun_path) : 0;
      if (path_len && un->sun_path[0] == '\0')
        return g_strdup_printf ("@%.*s", (int) path_len - 1, un->sun_path + 1);
      return g_strndup (un->sun_path, strnlen (un->sun_path, path_len));
    }
  return g_strdup_printf ("address family %d", addr->ss_family);
}

void
sl_activation_init (void)
{
  gchar **names = NULL;
  gint n = sd_listen_fds_with_names (TRUE, &names);
  if (n < 0)
    sl_log (SL_LOG_WARNING, _("cannot take the sockets systemd passed: %s"), g_strerror (-n));
  if (n <= 0)
    {
      g_strfreev (names);
      return;
    }
  passed = g_array_new (FALSE, TRUE, sizeof (Passed));
  for (gint i = 0; i < n; i++)
    {
      Passed p = { .fd = SD_LISTEN_FDS_START + i, .len = sizeof p.addr };
      socklen_t type_len = sizeof p.type;
      fcntl (p.fd, F_SETFD, FD_CLOEXEC);
      p.name = g_strdup (names && names[i] ? names[i] : "unknown");
      if (getsockopt (p.fd, SOL_SOCKET, SO_TYPE, &p.type, &type_len) < 0
          || getsockname (p.fd, (struct sockaddr *) &p.addr, &p.len) < 0)
        {
          sl_log (SL_LOG_WARNING, _("descriptor %d (%s) that systemd passed is not a socket; closing it"), p.fd,
                  p.name);
          close (p.fd);
          g_free (p.name);
          continue;
        }
      g_array_append_val (passed, p);
    }
  g_strfreev (names);
}

/* The same socket file: the path as written, or another path to it (a
 * symbolic link such as /dev/log). */
static gboolean
same_unix_address (const struct sockaddr_un *a, socklen_t a_len, const struct sockaddr_un *b, socklen_t b_len)
{
  gsize off = offsetof (struct sockaddr_un, sun_path);
  if (a_len <= off || b_len <= off)
    return FALSE;
  if (a->sun_path[0] == '\0' || b->sun_path[0] == '\0')
    return a_len == b_len && memcmp (a->sun_path, b->sun_path, a_len - off) == 0;
  gchar *pa = g_strndup (a->sun_path, a_len - off);
  gchar *pb = g_strndup (b->sun_path, b_len - off);
  struct stat sa, sb;
  gboolean same = strcmp (pa, pb) == 0
                  || (stat (pa, &sa) == 0 && stat (pb, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
  g_free (pa);
  g_free (pb);
  return same;
}

static gboolean
same_address (const Passed *p, const struct sockaddr *addr, socklen_t len)
{
  if (p->addr.ss_family != addr->sa_family)
    return FALSE;
  if (addr->sa_family == AF_INET)
    {
      const struct sockaddr_in *a = (const struct sockaddr_in *) &p->addr;
      const struct sockaddr_in *b = (const struct sockaddr_in *) addr;
      return a->sin_port == b->sin_port && a->sin_addr.s_addr == b->sin_addr.s_addr;
    }
  if (addr->sa_family == AF_INET6)
    {
      const struct sockaddr_in6 *a = (const struct sockaddr_in6 *) &p->addr;
      const struct sockaddr_in6 *b = (const struct sockaddr_in6 *) addr;
      return a->sin6_port == b->sin6_port && memcmp (&a->sin6_addr, &b->sin6_addr, sizeof a->sin6_addr) == 0;
    }
  if (addr->sa_family == AF_UNIX)
    return same_unix_address ((const struct sockaddr_un *) &p->addr, p->len, (const struct sockaddr_un *) addr, len);
  return FALSE;
}

gint
sl_activation_take (const struct sockaddr *addr, socklen_t len, gint type)
{
  gint fd = -1;
  g_mutex_lock (&lock);
  for (guint i = 0; passed && i < passed->len && fd < 0; i++)
    {
      Passed *p = &g_array_index (passed, Passed, i);
      if (p->fd < 0 || p->type != type || !same_address (p, addr, len))
        continue;
      fd = fcntl (p->fd, F_DUPFD_CLOEXEC, 0);
      if (fd < 0)
        sl_log (SL_LOG_WARNING, _("cannot use the socket systemd passed (%s): %s"), p->name, g_strerror (errno));
      else
        p->taken = TRUE;
    }
  g_mutex_unlock (&lock);
  return fd;
}

void
sl_activation_close_unclaimed (void)
{
  g_mutex_lock (&lock);
  for (guint i = 0; passed && i < passed->len; i++)
    {
      Passed *p = &g_array_index (passed, Passed, i);
      if (p->fd >= 0 && !p->taken)
        {
          gchar *where = describe_address (&p->addr, p->len);
          sl_log (SL_LOG_WARNING, _("no source of the configuration listens on %s (%s, passed by systemd); closing it"),
                  where, p->name);
          g_free (where);
          close (p->fd);
          p->fd = -1;
        }
      p->taken = FALSE;
    }
  g_mutex_unlock (&lock);
}

gint
sl_activation_listen (const SlDriver *d, const SlListenAddress *where, gboolean *inherited, GError **error)
{
  struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = where->type, .ai_flags = AI_PASSIVE };
  struct addrinfo *res = NULL;
  gint rc = getaddrinfo (where->ip, where->port, &hints, &res);
  if (rc != 0)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("%s(): cannot resolve %s port %s: %s"), d->klass->name,
                        where->ip ? where->ip : "*", where->port, gai_strerror (rc));
      return -1;
    }
  gint fd = sl_activation_take (res->ai_addr, res->ai_addrlen, where->type);
  *inherited = fd >= 0;
  if (*inherited)
    {
      freeaddrinfo (res);
      return fd;
    }
  fd = socket (res->ai_family, where->type | SOCK_CLOEXEC, 0);
  gint one = 1;
  if (fd >= 0)
    setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (fd >= 0 && where->type == SOCK_DGRAM && where->so_rcvbuf > 0)
    setsockopt (fd, SOL_SOCKET, SO_RCVBUF, &where->so_rcvbuf, sizeof where->so_rcvbuf);
  if (fd < 0 || bind (fd, res->ai_addr, res->ai_addrlen) < 0
      || (where->type == SOCK_STREAM && listen (fd, where->backlog) < 0))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("%s(): cannot listen on %s port %s: %s"), d->klass->name,
                        where->ip ? where->ip : "*", where->port, g_strerror (errno));
      if (fd >= 0)
        close (fd);
      fd = -1;
    }
  freeaddrinfo (res);
  return fd;
}
