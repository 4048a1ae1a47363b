/* SPDX-License-Identifier: GPL-2.0-or-later */
/* STOMP frames (https://stomp.github.io, versions 1.0, 1.1 and 1.2): a
 * writer of client frames and a reader of what a broker sends, with the
 * header escapes of 1.1 and 1.2 and content-length bodies. Written here
 * because Debian has no maintained STOMP client library in C (librabbitmq
 * is AMQP only) and the protocol is a few lines of text per frame. */
#ifndef STOMP_FRAME_H
#define STOMP_FRAME_H

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  STOMP_1_0,
  STOMP_1_1,
  STOMP_1_2,
} StompVersion;

/* The most a frame read may hold, headers and body: a broker's frames to
 * a sender (CONNECTED, RECEIPT, ERROR) are small. */
#define STOMP_FRAME_MAX (1024 * 1024)
#define STOMP_HEADERS_MAX 256

typedef struct
{
  gchar *command;
  GPtrArray *names;    /* gchar*, unescaped */
  GPtrArray *values;   /* gchar*, unescaped */
  GString *body;
} StompFrame;

/* Writing: begin, any headers, end with the body (with a content-length
 * when it holds a NUL). CONNECT's headers are not escaped, as the spec says. */
void         stomp_frame_begin   (GString *out, const gchar *command);
void         stomp_frame_header  (GString *out, StompVersion version, const gchar *name, const gchar *value);
void         stomp_frame_end     (GString *out, const gchar *body, gsize len);

typedef enum
{
  STOMP_PARSE_MORE,    /* the frame is not complete yet */
  STOMP_PARSE_FRAME,   /* one frame was read into frame */
  STOMP_PARSE_ERROR,   /* not STOMP: error says what */
} StompParse;

void         stomp_frame_init    (StompFrame *frame);
void         stomp_frame_clear   (StompFrame *frame);
/* Reads the first frame of data[0..len), after any heart-beat line ends;
 * *used is how many bytes it took (with FRAME). */
StompParse   stomp_frame_parse   (const gchar *data, gsize len, StompVersion version, StompFrame *frame,
                                  gsize *used, GError **error);
/* The value of the first header called name (as 1.2 has it), or NULL. */
const gchar *stomp_frame_get     (const StompFrame *frame, const gchar *name);

G_END_DECLS

#endif
