/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RELP frames (rsyslog's Reliable Event Logging Protocol):
 * "TXNR SP COMMAND SP DATALEN [SP DATA] LF". Cutting frames out of what a
 * peer sent, and writing them. Pure: no I/O. */
#ifndef RELP_FRAME_H
#define RELP_FRAME_H

#include <glib.h>

G_BEGIN_DECLS

/* the protocol's limits: nine digits of txnr and of data length, a
 * command of at most 32 letters */
#define RELP_TXNR_MAX 999999999u
#define RELP_COMMAND_MAX 32

typedef struct
{
  guint32 txnr;
  gchar command[RELP_COMMAND_MAX + 1];
  const gchar *data;        /* inside the buffer given to relp_frame_parse */
  gsize len;
} RelpFrame;

typedef enum
{
  RELP_FRAME_OK,            /* *frame is one whole frame, *consumed its bytes */
  RELP_FRAME_INCOMPLETE,    /* more bytes are needed */
  RELP_FRAME_MALFORMED,     /* not RELP: the session cannot go on */
  RELP_FRAME_TOO_LONG,      /* DATALEN is over max_data */
} RelpFrameStatus;

RelpFrameStatus relp_frame_parse  (const gchar *buf, gsize len, gsize max_data,
                                   RelpFrame *frame, gsize *consumed);
void            relp_frame_append (GString *out, guint32 txnr, const gchar *command,
                                   const gchar *data, gsize len);
/* the txnr after txnr: 1 follows RELP_TXNR_MAX */
guint32         relp_txnr_next    (guint32 txnr);
/* A response's status code ("200 OK" is 200), or 0 when data does not
 * start with three digits. */
guint           relp_rsp_code     (const gchar *data, gsize len);

G_END_DECLS

#endif
