/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What sluice-gen sends: syslog messages padded to a size, laid out so that
 * the sequence number and the timestamp can be rewritten in place, many
 * frames to a buffer. */
#ifndef SL_GEN_FORMAT_H
#define SL_GEN_FORMAT_H

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  SL_GEN_RFC3164,
  SL_GEN_RFC5424,
} SlGenSyntax;

typedef enum
{
  SL_GEN_FRAMING_NEWLINE,   /* "MESSAGE\n" */
  SL_GEN_FRAMING_OCTET,     /* "LEN MESSAGE" (RFC 6587) */
  SL_GEN_FRAMING_NONE,      /* the datagram is the message */
} SlGenFraming;

/* Connection ids take this many digits, sequence numbers SEQ_DIGITS: a
 * fixed width keeps every frame of a run the same length. */
#define SL_GEN_CONN_DIGITS 4
#define SL_GEN_SEQ_DIGITS 10
#define SL_GEN_MAX_CONN 9999
/* The mark in the message text that the verifier looks for. */
#define SL_GEN_SEQ_MARK "seq="

typedef struct
{
  SlGenSyntax syntax;
  SlGenFraming framing;
  const gchar *host;
  const gchar *program;
  guint pid;
  const gchar *sdata;   /* RFC 5424 structured data; NULL sends "-" */
  gsize size;           /* the message is padded to this many bytes, framing not counted */
} SlGenFormat;

/* Where the parts that change sit in every frame of a buffer. */
typedef struct
{
  gsize frame_len;      /* framing included */
  gsize message_len;    /* framing not included */
  gsize stamp_offset;
  gsize stamp_len;
  gsize seq_offset;     /* the SL_GEN_SEQ_DIGITS digits of the sequence number */
} SlGenLayout;

/* The timestamp of the syntax for a moment, in local time: "Nov 29 21:04:26"
 * (RFC 3164) or "2024-11-29T21:04:26.123456+01:00" (RFC 5424). Always the
 * same length for a syntax. */
gchar   *sl_gen_format_stamp   (SlGenSyntax syntax, gint64 unix_usec);

/* count frames of connection conn (sequence numbers not yet written),
 * stamped with unix_usec; layout tells where their parts are. */
gchar   *sl_gen_frames_new     (const SlGenFormat *format, guint conn, guint count,
                                gint64 unix_usec, SlGenLayout *layout);
/* Numbers frames[0..count) first_seq, first_seq + 1, ... */
void     sl_gen_frames_set_seq (gchar *frames, const SlGenLayout *layout, guint count,
                                guint64 first_seq);
/* Writes stamp (as sl_gen_format_stamp made it) into frames[0..count). */
void     sl_gen_frames_set_stamp (gchar *frames, const SlGenLayout *layout, guint count,
                                  const gchar *stamp);

/* One frame around a line of a replayed file. */
void     sl_gen_frame_append   (GString *out, SlGenFraming framing, const gchar *message, gsize len);

G_END_DECLS

#endif
