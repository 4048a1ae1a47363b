/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/io/dgram.h"
#include "core/io/trusted.h"
#include "core/route/rate-limit.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64

/* The sender's address as text, kept for the datagrams after it: most
 * come from the same few hosts, and getnameinfo() cost more than parsing
 * the message did (1,800 instructions of a datagram's 4,500). */
typedef struct
{
  sa_family_t family;
  guint32 scope;
  guint8 addr[16];
  gchar text[NI_MAXHOST];
} PeerCache;

struct _SlDgramReader
{
  SlSource *src;
  gint fd;
  gint wake[2];
  GThread *thread;
  gsize size;
  gchar *bufs;              /* BATCH buffers of size bytes */
  struct mmsghdr hdrs[BATCH];
  struct iovec iovs[BATCH];
  struct sockaddr_storage addrs[BATCH];
  gboolean sender_pid;
  gboolean tag_pid;
  SlAnnotate annotate;
  gint64 own_pid;          /* what sl_source_ignore_own() drops, or 0: nothing */
  gboolean pass_creds;     /* SO_PASSCRED: for sender_pid, tag_pid, annotate, own_pid or limit */
  SlRateLimit *limit;      /* or NULL: sl_source_rate_limit() */
  gboolean limit_per_pid;  /* a unix socket's: a window per sending PID; else one for the socket */
  gboolean keep_nuls;      /* escape-control-chars() writes them as #000 */
  gint stopping;
  PeerCache peer;
  union
  {
    struct cmsghdr align;
    gchar buf[CMSG_SPACE (sizeof (struct ucred))];
  } creds[BATCH];
};

/* an IPv4 address in dotted decimal, what getnameinfo() writes for it */
static void
format_ipv4 (const guint8 *a, gchar *out)
{
  for (guint i = 0; i < 4; i++)
    {
      guint v = a[i];
      if (v >= 100)
        *out++ = '0' + v / 100;
      if (v >= 10)
        *out++ = '0' + v / 10 % 10;
      *out++ = '0' + v % 10;
      *out++ = i < 3 ? '.' : '\0';
    }
}

static const gchar *
peer_of (PeerCache *cache, const struct sockaddr_storage *addr, socklen_t len)
{
  const guint8 *a;
  gsize alen;
  guint32 scope = 0;
  if (addr->ss_family == AF_INET)
    {
      a = (const guint8 *) &((const struct sockaddr_in *) addr)->sin_addr;
      alen = 4;
    }
  else if (addr->ss_family == AF_INET6)
    {
      const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *) addr;
      a = in6->sin6_addr.s6_addr;
      alen = 16;
      scope = in6->sin6_scope_id;
    }
  else
    return NULL;
  if (cache->family == addr->ss_family && cache->scope == scope && memcmp (cache->addr, a, alen) == 0)
    return cache->text;
  cache->family = AF_UNSPEC;
  if (alen == 16 && IN6_IS_ADDR_V4MAPPED ((const struct in6_addr *) a))
    format_ipv4 (a + 12, cache->text);
  else if (alen == 4)
    format_ipv4 (a, cache->text);
  else if (getnameinfo ((const struct sockaddr *) addr, len, cache->text, sizeof cache->text, NULL, 0, NI_NUMERICHOST) != 0)
    return "unknown";
  cache->family = addr->ss_family;
  cache->scope = scope;
  memcpy (cache->addr, a, alen);
  return cache->text;
}

/* A datagram is one message (RFC 5426), so a NUL inside it does not end
 * a frame as on a stream: it becomes a space, the way no-multi-line
 * treats a line break, and no NUL reaches a file or a C string cut
 * short. NULs that end the datagram are dropped before this. */
static void
replace_nuls (gchar *data, gsize len)
{
  for (gchar *p = data; (p = memchr (p, '\0', len - (p - data))); p++)
    *p = ' ';
}

/* The PID from the datagram's credentials; LEGACY_MSGHDR goes, so that the
 * header is written from PROGRAM and this PID, as syslog-ng writes it
 * after setting PID. */
static void
set_sender_pid (SlMessage *msg, struct msghdr *hdr)
{
  for (struct cmsghdr *c = CMSG_FIRSTHDR (hdr); c; c = CMSG_NXTHDR (hdr, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS)
      {
        struct ucred cred;
        gchar pid[16];
        memcpy (&cred, CMSG_DATA (c), sizeof cred);
        sl_message_set (msg, SL_F_PID, pid, g_snprintf (pid, sizeof pid, "%d", (gint) cred.pid));
        sl_message_unset (msg, SL_F_LEGACY_MSGHDR);
      }
}

static gboolean
credentials_of (struct msghdr *hdr, struct ucred *cred)
{
  for (struct cmsghdr *c = CMSG_FIRSTHDR (hdr); c; c = CMSG_NXTHDR (hdr, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS)
      {
        memcpy (cred, CMSG_DATA (c), sizeof *cred);
        return TRUE;
      }
  return FALSE;
}

/* The sending PID, -1 for a datagram without credentials, which then
 * share one window. */
static gint64
sender_of (struct msghdr *hdr)
{
  struct ucred cred;
  return credentials_of (hdr, &cred) ? cred.pid : -1;
}

/* The datagram with the sender's trusted properties after it, parsed as
 * one, as imuxsock parses what it annotated, or with them as fields; as
 * it came without credentials */
static SlMessage *
parse_annotated (SlDgramReader *r, const gchar *data, gsize len, const gchar *peer, struct msghdr *hdr)
{
  struct ucred cred;
  if (!credentials_of (hdr, &cred))
    return sl_source_parse (r->src, data, len, peer);
  if (r->annotate == SL_ANNOTATE_FIELDS)
    {
      SlMessage *msg = sl_source_parse (r->src, data, len, peer);
      sl_trusted_set_fields (msg, cred.pid, cred.uid, cred.gid);
      return msg;
    }
  g_autoptr (GString) text = g_string_new_len (data, len);
  sl_trusted_annotate (text, cred.pid, cred.uid, cred.gid);
  return sl_source_parse (r->src, text->str, text->len, peer);
}

/* rsyslogd's imuxsock reads at most this much of a tag, and leaves a tag
 * alone that the PID would make longer (CONF_TAG_MAXSIZE) */
#define RSYSLOG_TAG_MAX 512

/* rsyslogd's usePIDFromSystem, on the tag and text the parser left
 * (LEGACY_MSGHDR and MESSAGE, which the rsyslog front end's %syslogtag%
 * and %msg% split at the first space again) */
static void
set_tag_pid (SlMessage *msg, struct msghdr *hdr)
{
  gint64 pid = sender_of (hdr);
  gsize head_len = 0, text_len = 0;
  const gchar *head = sl_message_get (msg, SL_F_LEGACY_MSGHDR, &head_len);
  const gchar *text = sl_message_get (msg, SL_F_MESSAGE, &text_len);
  if (pid < 0 || !head)
    return;
  g_autoptr (GString) all = g_string_new_len (head, head_len);
  g_string_append_len (all, text, text_len);
  const gchar *space = memchr (all->str, ' ', all->len);
  gsize tag_len = MIN (space ? (gsize) (space - all->str) : all->len, RSYSLOG_TAG_MAX - 1);
  /* an empty tag: rsyslogd writes before its buffer */
  if (!tag_len)
    return;
  gsize at = tag_len;
  while (at > 0 && all->str[at - 1] != '[')
    at--;
  at = at ? at - 1 : tag_len - 1;
  gchar tag_pid[24];
  gint pid_len = g_snprintf (tag_pid, sizeof tag_pid, "[%" G_GINT64_FORMAT "]:", pid);
  if (at + pid_len > RSYSLOG_TAG_MAX)
    return;
  g_string_erase (all, at, tag_len - at);
  g_string_insert_len (all, at, tag_pid, pid_len);
  tag_len = at + pid_len;
  /* the tag and one space after it, as the parser cuts them */
  head_len = tag_len + (all->len > tag_len && all->str[tag_len] == ' ');
  gsize program_len = strcspn (all->str, "[: ");
  sl_message_set (msg, SL_F_PROGRAM, all->str, MIN (program_len, at));
  sl_message_set (msg, SL_F_PID, tag_pid + 1, pid_len - 3);
  sl_message_set (msg, SL_F_LEGACY_MSGHDR, all->str, head_len);
  sl_message_set (msg, SL_F_MESSAGE, all->str + head_len, all->len - head_len);
}

static gboolean
admit (SlDgramReader *r, SlMessage *msg, struct msghdr *hdr, gint64 now, guint *dropped)
{
  gint64 pid = r->limit_per_pid ? sender_of (hdr) : 0;
  if (sl_rate_limit_admit (r->limit, sl_source_id (r->src), r->limit_per_pid, pid, SL_PRI_SEVERITY (msg->pri), now))
    return TRUE;
  (*dropped)++;
  return FALSE;
}

static void
post_received (SlDgramReader *r, gint n)
{
  SlMessage *msgs[BATCH];
  guint count = 0;
  guint dropped = 0;
  gint64 now = r->limit ? g_get_real_time () / G_USEC_PER_SEC : 0;
  for (gint i = 0; i < n; i++)
    {
      gchar *data = r->iovs[i].iov_base;
      gsize len = r->hdrs[i].msg_len;
      /* a cut datagram fills the buffer, one byte over log-msg-size(), so
       * the source counts it; its last bytes are no line end to strip */
      gboolean cut = (r->hdrs[i].msg_hdr.msg_flags & MSG_TRUNC) != 0;
      /* a CR before the newline stays in the message, as syslog-ng keeps it */
      while (!cut && len && (data[len - 1] == '\n' || data[len - 1] == '\0'))
        len--;
      if (!len)
        continue;
      /* rsyslogd drops these before the rate limit counts them */
      if (r->own_pid && sender_of (&r->hdrs[i].msg_hdr) == r->own_pid)
        continue;
      if (!r->keep_nuls)
        replace_nuls (data, len);
      const gchar *peer = peer_of (&r->peer, &r->addrs[i], r->hdrs[i].msg_hdr.msg_namelen);
      msgs[count] = r->annotate != SL_ANNOTATE_NONE ? parse_annotated (r, data, len, peer, &r->hdrs[i].msg_hdr)
                                : sl_source_parse (r->src, data, len, peer);
      if (r->limit && !admit (r, msgs[count], &r->hdrs[i].msg_hdr, now, &dropped))
        {
          sl_message_unref (msgs[count]);
          continue;
        }
      if (r->sender_pid)
        set_sender_pid (msgs[count], &r->hdrs[i].msg_hdr);
      if (r->tag_pid)
        set_tag_pid (msgs[count], &r->hdrs[i].msg_hdr);
      count++;
    }
  if (dropped)
    sl_source_count (r->src, "rate_limited", dropped);
  if (count)
    sl_source_post (r->src, msgs, count);
}

/* Readies entries [0, n) for recvmmsg(), which changes only those it filled. */
static void
prepare (SlDgramReader *r, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      r->iovs[i].iov_base = r->bufs + i * r->size;
      r->iovs[i].iov_len = r->size;
      memset (&r->hdrs[i], 0, sizeof r->hdrs[i]);
      r->hdrs[i].msg_hdr.msg_iov = &r->iovs[i];
      r->hdrs[i].msg_hdr.msg_iovlen = 1;
      r->hdrs[i].msg_hdr.msg_name = &r->addrs[i];
      r->hdrs[i].msg_hdr.msg_namelen = sizeof r->addrs[i];
      if (r->pass_creds)
        {
          r->hdrs[i].msg_hdr.msg_control = &r->creds[i];
          r->hdrs[i].msg_hdr.msg_controllen = sizeof r->creds[i];
        }
    }
}

/* After a short batch the reader naps before it reads again, so that
 * datagrams sent one by one are taken in batches instead of a wakeup each
 * (of this thread, and of the writers it hands them to). The first
 * datagram after a quiet spell is read at once; the nap adapts to fill
 * a quarter to a whole batch, within NAP_MIN_US and NAP_MAX_US, short enough that
 * even a default receive buffer holds what comes in it; a full batch is
 * followed by the next read at once. */
#define NAP_MIN_US 25
#define NAP_MAX_US 500

/* Naps for us microseconds unless stop() wakes it first: FALSE then. */
static gboolean
nap (SlDgramReader *r, guint us)
{
  struct pollfd wake = { r->wake[0], POLLIN, 0 };
  struct timespec ts = { 0, (glong) us * 1000 };
  return ppoll (&wake, 1, &ts, NULL) <= 0;
}

static gpointer
reader_thread (gpointer data)
{
  SlDgramReader *r = data;
  struct pollfd fds[2] = { { r->fd, POLLIN, 0 }, { r->wake[0], POLLIN, 0 } };
  guint nap_us = NAP_MIN_US * 4;
  gboolean napped = FALSE;
  prepare (r, BATCH);
  for (;;)
    {
      gint n = recvmmsg (r->fd, r->hdrs, BATCH, MSG_DONTWAIT, NULL);
      if (n > 0)
        {
          sl_source_mark_read_time ();
          post_received (r, n);
          prepare (r, n);
          if (napped && n == BATCH)
            nap_us = MAX (nap_us / 2, NAP_MIN_US);
          else if (napped && n < BATCH / 4)
            nap_us = MIN (nap_us * 2, NAP_MAX_US);
          napped = FALSE;
          if (g_atomic_int_get (&r->stopping))
            break;
          if (n == BATCH)
            continue;
          /* a short batch emptied the socket */
          if (!nap (r, nap_us))
            break;
          napped = TRUE;
          continue;
        }
      napped = FALSE;
      if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
        {
          sl_source_count (r->src, "read_errors", 1);
          sl_log (SL_LOG_ERROR, _("error reading datagrams; driver='%s', error='%s'"),
                  sl_source_id (r->src), g_strerror (errno));
        }
      if (poll (fds, 2, -1) < 0 && errno != EINTR)
        break;
      if (fds[1].revents)
        break;
    }
  return NULL;
}

SlDgramReader *
sl_dgram_reader_start (SlSource *src, gint fd, gboolean sender_pid, GError **error)
{
  SlDgramReader *r = g_new0 (SlDgramReader, 1);
  gint on = 1;
  sender_pid = sender_pid || sl_source_sender_pid (src);
  gboolean tag_pid = sl_source_tag_pid (src);
  SlAnnotate annotate = sl_source_annotate (src);
  gboolean ignore_own = sl_source_ignore_own (src);
  SlRateLimit *limit = sl_rate_limit_new (sl_source_rate_limit (src));
  struct sockaddr_storage bound;
  socklen_t bound_len = sizeof bound;
  gboolean unix_socket = getsockname (fd, (struct sockaddr *) &bound, &bound_len) == 0 && bound.ss_family == AF_UNIX;
  gboolean limit_per_pid = limit && unix_socket;
  gboolean pass_creds = sender_pid || tag_pid || annotate != SL_ANNOTATE_NONE || ignore_own || limit_per_pid;
  if (pass_creds && setsockopt (fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof on) < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "SO_PASSCRED: %s", g_strerror (errno));
      sl_rate_limit_free (limit);
      close (fd);
      g_free (r);
      return NULL;
    }
  if (pipe2 (r->wake, O_CLOEXEC) < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "pipe: %s", g_strerror (errno));
      sl_rate_limit_free (limit);
      close (fd);
      g_free (r);
      return NULL;
    }
  r->src = src;
  r->fd = fd;
  r->sender_pid = sender_pid;
  r->limit = limit;
  r->limit_per_pid = limit_per_pid;
  r->own_pid = ignore_own ? (gint64) getpid () : 0;
  r->tag_pid = tag_pid;
  r->annotate = annotate;
  r->pass_creds = pass_creds;
  r->keep_nuls = sl_source_escape_control_chars (src) != SL_ESCAPE_CC_NONE;
  /* one byte more than log-msg-size() lets the source see and count an
   * oversize datagram */
  r->size = sl_source_max_msg_size (src) + 1;
  r->bufs = g_malloc (r->size * BATCH);
  r->thread = g_thread_new ("sl-dgram", reader_thread, r);
  return r;
}

void
sl_dgram_reader_stop (SlDgramReader *r)
{
  g_atomic_int_set (&r->stopping, 1);
  if (write (r->wake[1], "x", 1) != 1)
    sl_log (SL_LOG_ERROR, _("cannot wake the reader of %s: %s"), sl_source_id (r->src), g_strerror (errno));
  g_thread_join (r->thread);
  close (r->fd);
  close (r->wake[0]);
  close (r->wake[1]);
  g_free (r->bufs);
  sl_rate_limit_free (r->limit);
  g_free (r);
}
