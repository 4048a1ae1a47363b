/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading /dev/kmsg: each read() gives one record, and the kernel keeps
 * records in a ring that survives the daemon's restarts, so the reader
 * remembers the last record number it read (with the boot it belongs to)
 * and skips what it already read. Like datagrams the records are not held
 * back by flow control: what the queues cannot hold is dropped and
 * counted. A named pipe or a file in the same format reads the same way,
 * records ending at newlines. */
#include "plugins/sources/kmsg/kmsg-private.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/store/persist.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

/* larger than the longest record the kernel gives (8 KiB with properties):
 * a read into a smaller buffer fails */
#define BUFFER_SIZE (32 * 1024)
#define POST_BATCH 64
#define BOOT_ID_PATH "/proc/sys/kernel/random/boot_id"

struct _SlKmsgReader
{
  SlSource *src;
  const SlDriverClass *format;
  gchar *path;
  gint fd;
  gint wake;
  GThread *thread;
  gchar *persist_key;
  gchar *boot_id;           /* NULL when unknown: nothing is skipped */
  guint64 read_through;     /* records up to this number were read before */
  gboolean have_read;
  gboolean kernel_only;     /* records of other facilities are passed over */
  gsize end;
  SlMessage *batch[POST_BATCH];
  guint batched;
  gchar buf[BUFFER_SIZE];
};

static gchar *
read_boot_id (void)
{
  gchar *text = NULL;
  if (!g_file_get_contents (BOOT_ID_PATH, &text, NULL, NULL))
    return NULL;
  return g_strstrip (text);
}

/* The last record read in this boot, from the persist file. */
static void
load_position (KmsgReader *r)
{
  gchar *saved = sl_persist_get (r->persist_key);
  gchar boot[64];
  guint64 seq;
  if (r->boot_id && saved && sscanf (saved, "%63s %" G_GUINT64_FORMAT, boot, &seq) == 2
      && strcmp (boot, r->boot_id) == 0)
    {
      r->read_through = seq;
      r->have_read = TRUE;
    }
  g_free (saved);
}

static void
save_position (KmsgReader *r)
{
  if (!r->boot_id || !r->have_read)
    return;
  gchar *value = g_strdup_printf ("%s %" G_GUINT64_FORMAT, r->boot_id, r->read_through);
  sl_persist_set (r->persist_key, value);
  g_free (value);
}

static void
flush_batch (KmsgReader *r)
{
  if (!r->batched)
    return;
  sl_source_post (r->src, r->batch, r->batched);
  r->batched = 0;
  save_position (r);
}

static void
emit (KmsgReader *r, const gchar *record, gsize len)
{
  KmsgHeader header;
  if (kmsg_parse_header (record, len, &header))
    {
      if (r->have_read && header.seq <= r->read_through)
        return;
      r->read_through = header.seq;
      r->have_read = TRUE;
      if (r->kernel_only && SL_PRI_FACILITY (header.pri) != 0)
        return;
    }
  /* the transport of syslog-ng 4's file("/dev/kmsg"), also as a part of
   * system(), whose source has the socket's */
  r->batch[r->batched++] = sl_source_parse_with (r->src, r->format, "local+devkmsg", record, len, NULL);
  if (r->batched == POST_BATCH)
    flush_batch (r);
}

/* A record is its line and the property lines after it, which start with
 * a space; one still incomplete stays in the buffer. */
static void
split_records (KmsgReader *r)
{
  gchar *p = r->buf;
  gchar *end = r->buf + r->end;
  while (p < end)
    {
      gchar *nl = memchr (p, '\n', end - p);
      if (!nl)
        break;
      gchar *record_end = nl;
      gchar *next = nl + 1;
      while (next < end && *next == ' ' && (nl = memchr (next, '\n', end - next)))
        {
          record_end = nl;
          next = nl + 1;
        }
      if (next < end && *next == ' ')
        break;
      if (record_end > p)
        emit (r, p, record_end - p);
      p = next;
    }
  if (p == r->buf && r->end == sizeof r->buf)
    {
      /* no newline in a full buffer: not the kernel's format */
      emit (r, r->buf, r->end);
      p = end;
    }
  r->end = end - p;
  memmove (r->buf, p, r->end);
  flush_batch (r);
}

/* FALSE when the reader is done: stopped, or the input ended. */
static gboolean
read_records (KmsgReader *r)
{
  struct pollfd fds[2] = { { r->fd, POLLIN, 0 }, { r->wake, POLLIN, 0 } };
  if (poll (fds, 2, -1) < 0)
    return errno == EINTR;
  if (fds[1].revents)
    return FALSE;
  gssize n = read (r->fd, r->buf + r->end, sizeof r->buf - r->end);
  if (n > 0)
    {
      r->end += n;
      split_records (r);
      return TRUE;
    }
  if (n == 0)
    {
      sl_log (SL_LOG_NOTICE, _("%s: end of %s"), sl_source_id (r->src), r->path);
      return FALSE;
    }
  switch (errno)
    {
    case EINTR:
    case EAGAIN:
      return TRUE;
    case EPIPE:
      /* the kernel overwrote records before they were read; the next read
       * goes on from the oldest one left */
      sl_source_count (r->src, "overruns", 1);
      sl_log (SL_LOG_WARNING, _("%s: the kernel overwrote log records before they were read"),
              sl_source_id (r->src));
      return TRUE;
    default:
      sl_source_count (r->src, "read_errors", 1);
      sl_log (SL_LOG_ERROR, _("%s: cannot read %s: %s"), sl_source_id (r->src), r->path, g_strerror (errno));
      return FALSE;
    }
}

static gpointer
reader_thread (gpointer data)
{
  KmsgReader *r = data;
  while (read_records (r))
    ;
  return NULL;
}

KmsgReader *
kmsg_reader_start (SlSource *src, const SlDriverClass *format, const gchar *path, gboolean kernel_only,
                   GError **error)
{
  struct stat st;
  /* a named pipe is opened for writing too, so that it never ends */
  gint flags = stat (path, &st) == 0 && S_ISFIFO (st.st_mode) ? O_RDWR : O_RDONLY;
  gint fd = open (path, flags | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), _("cannot open %s: %s"), path,
                   g_strerror (errno));
      return NULL;
    }
  KmsgReader *r = g_new0 (KmsgReader, 1);
  r->wake = eventfd (0, EFD_CLOEXEC);
  if (r->wake < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "eventfd: %s", g_strerror (errno));
      close (fd);
      g_free (r);
      return NULL;
    }
  r->src = src;
  r->format = format;
  r->kernel_only = kernel_only;
  r->fd = fd;
  r->path = g_strdup (path);
  r->persist_key = g_strdup_printf ("kmsg(%s)", path);
  r->boot_id = read_boot_id ();
  load_position (r);
  r->thread = g_thread_new ("sl-kmsg", reader_thread, r);
  sl_log (SL_LOG_INFO, _("%s: reading the kernel's log from %s"), sl_source_id (src), path);
  return r;
}

void
kmsg_reader_stop (KmsgReader *r)
{
  eventfd_write (r->wake, 1);
  g_thread_join (r->thread);
  close (r->fd);
  close (r->wake);
  g_free (r->boot_id);
  g_free (r->persist_key);
  g_free (r->path);
  g_free (r);
}
