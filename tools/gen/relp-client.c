/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tools/gen/relp-client.h"
#include "core/i18n.h"
#include "plugins/protocols/relp/relp-frame.h"

#include <errno.h>
#include <string.h>

#define MAX_ANSWER 4096

void
sl_gen_relp_init (SlGenRelp *r, guint window)
{
  memset (r, 0, sizeof *r);
  r->window = MAX (window, 1);
  r->out = g_string_sized_new (256 * 1024);
  r->in = g_string_sized_new (MAX_ANSWER);
}

void
sl_gen_relp_clear (SlGenRelp *r)
{
  g_string_free (r->out, TRUE);
  g_string_free (r->in, TRUE);
  g_free (r->answered);
}

static gboolean
write_out (SlGenRelp *r)
{
  gsize off = 0;
  while (off < r->out->len)
    {
      gssize n = r->write (r->conn, r->out->str + off, r->out->len - off);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (n == 0)
            errno = EPIPE;
          return FALSE;
        }
      off += (gsize) n;
    }
  g_string_truncate (r->out, 0);
  return TRUE;
}

/* The next answer frame; *used bytes of r->in are dropped at the next call. */
static gboolean
read_answer (SlGenRelp *r, RelpFrame *f, gsize *used)
{
  for (;;)
    {
      g_string_erase (r->in, 0, (gssize) *used);
      *used = 0;
      RelpFrameStatus st = relp_frame_parse (r->in->str, r->in->len, MAX_ANSWER, f, used);
      if (st == RELP_FRAME_OK)
        return TRUE;
      if (st != RELP_FRAME_INCOMPLETE)
        {
          errno = EPROTO;
          return FALSE;
        }
      gchar buf[MAX_ANSWER];
      gssize n = r->read (r->conn, buf, sizeof buf);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (n == 0)
            errno = ECONNRESET;
          return FALSE;
        }
      g_string_append_len (r->in, buf, n);
    }
}

static const gchar offers[] = "relp_version=0\nrelp_software=sluice-gen\ncommands=syslog";

gboolean
sl_gen_relp_open (SlGenRelp *r, SlGenRelpIo read, SlGenRelpIo write, gpointer conn, GError **error)
{
  r->read = read;
  r->write = write;
  r->conn = conn;
  r->txnr = 1;
  g_string_truncate (r->in, 0);
  g_string_truncate (r->out, 0);
  relp_frame_append (r->out, r->txnr, "open", offers, sizeof offers - 1);
  r->txnr = relp_txnr_next (r->txnr);
  RelpFrame f;
  gsize used = 0;
  if (!write_out (r) || !read_answer (r, &f, &used))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("RELP open: %s"), g_strerror (errno));
      return FALSE;
    }
  if (strcmp (f.command, "rsp") != 0 || relp_rsp_code (f.data, f.len) != 200)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("RELP open refused: %.*s"), (gint) MIN (f.len, 200),
                   f.data);
      return FALSE;
    }
  g_string_erase (r->in, 0, (gssize) used);
  return TRUE;
}

gboolean
sl_gen_relp_send (SlGenRelp *r, const gchar *messages, const gsize *offsets, guint first, guint count,
                  guint *answered)
{
  if (r->answered_cap < count)
    {
      r->answered_cap = count;
      r->answered = g_realloc (r->answered, count);
    }
  memset (r->answered, 0, count);
  guint32 first_txnr = r->txnr;
  guint sent = 0, done = 0, in_flight = 0;
  gsize used = 0;
  *answered = 0;
  while (done < count)
    {
      while (sent < count && in_flight < r->window)
        {
          guint i = first + sent;
          relp_frame_append (r->out, r->txnr, "syslog", messages + offsets[i], offsets[i + 1] - offsets[i]);
          r->txnr = relp_txnr_next (r->txnr);
          sent++;
          in_flight++;
        }
      RelpFrame f;
      if ((r->out->len && !write_out (r)) || !read_answer (r, &f, &used))
        return FALSE;
      if (strcmp (f.command, "serverclose") == 0)
        {
          errno = ECONNRESET;
          return FALSE;
        }
      guint64 off = f.txnr >= first_txnr ? (guint64) f.txnr - first_txnr
                                         : (guint64) f.txnr + RELP_TXNR_MAX - first_txnr;
      if (strcmp (f.command, "rsp") != 0 || off >= sent || r->answered[off])
        continue;
      if (relp_rsp_code (f.data, f.len) != 200)
        {
          errno = EPROTO;
          return FALSE;
        }
      r->answered[off] = 1;
      in_flight--;
      while (done < count && r->answered[done])
        done++;
      *answered = done;
    }
  g_string_erase (r->in, 0, (gssize) used);
  return TRUE;
}
