/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/io/proxy-header.h"
#include "core/i18n.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define V1_MAX 107
#define V2_FIXED 16

static const guint8 v1_sig[] = "PROXY ";
static const guint8 v2_sig[12] = { '\r', '\n', '\r', '\n', 0, '\r', '\n', 'Q', 'U', 'I', 'T', '\n' };

/* Whether the len bytes so far may begin a header of that signature. */
static gboolean
prefix_of (const guint8 *buf, gsize len, const guint8 *sig, gsize sig_len)
{
  return memcmp (buf, sig, MIN (len, sig_len)) == 0;
}

static gboolean
read_port (const gchar *text, guint16 *port)
{
  gsize n = strlen (text);
  if (n < 1 || n > 5 || (n > 1 && text[0] == '0') || strspn (text, "0123456789") != n)
    return FALSE;
  guint v = (guint) atoi (text);
  if (v > 65535)
    return FALSE;
  *port = (guint16) v;
  return TRUE;
}

/* "PROXY TCP4 SRC DST SPORT DPORT" or "PROXY UNKNOWN ..." without its CRLF. */
static gboolean
parse_v1_line (const gchar *line, SlProxyHeader *h)
{
  if (strcmp (line, "PROXY UNKNOWN") == 0 || g_str_has_prefix (line, "PROXY UNKNOWN "))
    {
      h->local = TRUE;
      return TRUE;
    }
  gchar **parts = g_strsplit (line, " ", -1);
  gboolean ok = g_strv_length (parts) == 6;
  gint family = 0;
  if (ok && strcmp (parts[1], "TCP4") == 0)
    family = AF_INET;
  else if (ok && strcmp (parts[1], "TCP6") == 0)
    family = AF_INET6;
  guint8 addr[16];
  ok = ok && family && strlen (parts[2]) < sizeof h->src_ip && strlen (parts[3]) < sizeof h->dst_ip
       && inet_pton (family, parts[2], addr) == 1 && inet_pton (family, parts[3], addr) == 1
       && read_port (parts[4], &h->src_port) && read_port (parts[5], &h->dst_port);
  if (ok)
    {
      h->ip_version = family == AF_INET ? 4 : 6;
      g_strlcpy (h->src_ip, parts[2], sizeof h->src_ip);
      g_strlcpy (h->dst_ip, parts[3], sizeof h->dst_ip);
    }
  g_strfreev (parts);
  return ok;
}

static SlProxyHeaderStatus
parse_v1 (const guint8 *buf, gsize len, SlProxyHeader *h, gsize *consumed)
{
  gsize limit = MIN (len, V1_MAX);
  for (gsize i = 0; i < limit; i++)
    {
      if (buf[i] == '\n')
        {
          if (i == 0 || buf[i - 1] != '\r')
            return SL_PROXY_HEADER_MALFORMED;
          gchar line[V1_MAX + 1];
          memcpy (line, buf, i - 1);
          line[i - 1] = '\0';
          if (!parse_v1_line (line, h))
            return SL_PROXY_HEADER_MALFORMED;
          *consumed = i + 1;
          return SL_PROXY_HEADER_DONE;
        }
      /* the line is printable ASCII: binary garbage is not a slow header */
      if (buf[i] != '\r' && (buf[i] < ' ' || buf[i] > '~'))
        return SL_PROXY_HEADER_MALFORMED;
      if (buf[i] == '\r' && i + 1 < len && buf[i + 1] != '\n')
        return SL_PROXY_HEADER_MALFORMED;
    }
  return len >= V1_MAX ? SL_PROXY_HEADER_TOO_LONG : SL_PROXY_HEADER_INCOMPLETE;
}

static SlProxyHeaderStatus
parse_v2 (const guint8 *buf, gsize len, SlProxyHeader *h, gsize *consumed)
{
  if (len > 12 && (buf[12] >> 4) != 2)
    return SL_PROXY_HEADER_MALFORMED;
  guint command = len > 12 ? buf[12] & 0x0f : 0;
  if (command > 1)
    return SL_PROXY_HEADER_MALFORMED;
  if (len < V2_FIXED)
    return SL_PROXY_HEADER_INCOMPLETE;
  gsize body = ((gsize) buf[14] << 8) | buf[15];
  if (V2_FIXED + body > SL_PROXY_HEADER_MAX)
    return SL_PROXY_HEADER_TOO_LONG;
  guint8 family = buf[13];
  gsize need = family == 0x11 ? 12 : family == 0x21 ? 36 : 0;
  if (command == 1 && body < need)
    return SL_PROXY_HEADER_MALFORMED;
  if (len < V2_FIXED + body)
    return SL_PROXY_HEADER_INCOMPLETE;
  const guint8 *a = buf + V2_FIXED;
  h->local = command == 0 || need == 0;
  if (!h->local)
    {
      gint af = family == 0x11 ? AF_INET : AF_INET6;
      gsize alen = af == AF_INET ? 4 : 16;
      h->ip_version = af == AF_INET ? 4 : 6;
      inet_ntop (af, a, h->src_ip, sizeof h->src_ip);
      inet_ntop (af, a + alen, h->dst_ip, sizeof h->dst_ip);
      h->src_port = (guint16) ((a[2 * alen] << 8) | a[2 * alen + 1]);
      h->dst_port = (guint16) ((a[2 * alen + 2] << 8) | a[2 * alen + 3]);
    }
  *consumed = V2_FIXED + body;
  return SL_PROXY_HEADER_DONE;
}

SlProxyHeaderStatus
sl_proxy_header_parse (const guint8 *buf, gsize len, SlProxyHeader *header, gsize *consumed)
{
  memset (header, 0, sizeof *header);
  *consumed = 0;
  if (!len)
    return SL_PROXY_HEADER_INCOMPLETE;
  if (prefix_of (buf, len, v1_sig, sizeof v1_sig - 1))
    return len < sizeof v1_sig - 1 ? SL_PROXY_HEADER_INCOMPLETE : parse_v1 (buf, len, header, consumed);
  if (prefix_of (buf, len, v2_sig, sizeof v2_sig))
    return len < sizeof v2_sig ? SL_PROXY_HEADER_INCOMPLETE : parse_v2 (buf, len, header, consumed);
  return SL_PROXY_HEADER_MALFORMED;
}

/* Peeks at what is there: bytes of a header that is not complete yet
 * all belong to it, so they are taken; of a complete one only its own. */
SlProxyHeaderStatus
sl_proxy_header_read (SlProxyHeaderReader *r, gint fd, SlProxyHeader *header, gboolean *closed)
{
  *closed = FALSE;
  gssize n = recv (fd, r->buf + r->fill, sizeof r->buf - r->fill, MSG_PEEK);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
    return SL_PROXY_HEADER_INCOMPLETE;
  if (n <= 0)
    {
      *closed = TRUE;
      return SL_PROXY_HEADER_MALFORMED;
    }
  gsize consumed = 0;
  SlProxyHeaderStatus status = sl_proxy_header_parse (r->buf, r->fill + (gsize) n, header, &consumed);
  gsize take = status == SL_PROXY_HEADER_DONE ? consumed - r->fill : status == SL_PROXY_HEADER_INCOMPLETE ? (gsize) n : 0;
  if (take && recv (fd, r->buf + r->fill, take, 0) != (gssize) take)
    {
      *closed = TRUE;
      return SL_PROXY_HEADER_MALFORMED;
    }
  r->fill += take;
  return status;
}

const gchar *
sl_proxy_header_failure (SlProxyHeaderStatus status)
{
  switch (status)
    {
    case SL_PROXY_HEADER_TOO_LONG:
      return _("PROXY header too long");
    case SL_PROXY_HEADER_INCOMPLETE:
      return _("no complete PROXY header within handshake-timeout()");
    default:
      return _("no valid PROXY header");
    }
}

enum
{
  FIELD_SRCIP,
  FIELD_SRCPORT,
  FIELD_DSTIP,
  FIELD_DSTPORT,
  FIELD_IP_VERSION,
  FIELD_COUNT
};

static gpointer
intern_fields (gpointer data)
{
  static SlHandle h[FIELD_COUNT];
  static const gchar *const names[FIELD_COUNT] = {
    "PROXIED_SRCIP", "PROXIED_SRCPORT", "PROXIED_DSTIP", "PROXIED_DSTPORT", "PROXIED_IP_VERSION",
  };
  for (guint i = 0; i < FIELD_COUNT; i++)
    h[i] = sl_field_handle (names[i]);
  return h;
}

void
sl_proxy_header_set_fields (const SlProxyHeader *header, SlMessage *msg)
{
  if (header->local)
    return;
  static GOnce once = G_ONCE_INIT;
  const SlHandle *h = g_once (&once, intern_fields, NULL);
  gchar sport[8], dport[8], version[4];
  g_snprintf (sport, sizeof sport, "%u", header->src_port);
  g_snprintf (dport, sizeof dport, "%u", header->dst_port);
  g_snprintf (version, sizeof version, "%u", header->ip_version);
  sl_message_set (msg, h[FIELD_SRCIP], header->src_ip, -1);
  sl_message_set (msg, h[FIELD_SRCPORT], sport, -1);
  sl_message_set (msg, h[FIELD_DSTIP], header->dst_ip, -1);
  sl_message_set (msg, h[FIELD_DSTPORT], dport, -1);
  sl_message_set (msg, h[FIELD_IP_VERSION], version, -1);
}
