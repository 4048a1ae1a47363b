/* SPDX-License-Identifier: GPL-2.0-or-later */
/* amqp_basic_publish() sends each message with three system calls (the
 * basic.publish method, the content header, the body), and librabbitmq
 * has no call that sends many frames at once: on this machine those
 * calls were most of amqp()'s CPU per message. Here librabbitmq still
 * encodes the method's arguments and the properties; this file only
 * puts them into frames (AMQP 0-9-1, 4.2.3: type, channel, size, payload,
 * frame-end) one after another, for one send() of a batch. */
#include "plugins/destinations/amqp/amqp-frames.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>

#define FRAME_HEADER 7          /* type, channel, payload size */
#define FRAME_FOOTER 1          /* AMQP_FRAME_END */
#define CHANNEL 1

static void
put_be (guint8 *p, guint64 value, guint bytes)
{
  for (guint i = 0; i < bytes; i++)
    p[i] = (guint8) (value >> (8 * (bytes - 1 - i)));
}

/* Makes room for a frame of up to room payload bytes at the end of out:
 * where its payload goes */
static guint8 *
frame_begin (GByteArray *out, gsize room)
{
  gsize at = out->len;
  g_byte_array_set_size (out, at + FRAME_HEADER + room + FRAME_FOOTER);
  return out->data + at + FRAME_HEADER;
}

/* Ends the frame begun last, its payload len bytes */
static void
frame_end (GByteArray *out, guint8 *payload, guint8 type, gsize len)
{
  guint8 *frame = payload - FRAME_HEADER;
  frame[0] = type;
  put_be (frame + 1, CHANNEL, 2);
  put_be (frame + 3, len, 4);
  payload[len] = AMQP_FRAME_END;
  g_byte_array_set_size (out, (payload - out->data) + len + FRAME_FOOTER);
}

gint
rmq_frames_add_publish (GByteArray *out, gsize frame_max, const amqp_basic_publish_t *m,
                        const amqp_basic_properties_t *props, amqp_bytes_t body)
{
  gsize start = out->len;
  gsize room = frame_max - FRAME_HEADER - FRAME_FOOTER;

  guint8 *payload = frame_begin (out, room);
  put_be (payload, AMQP_BASIC_PUBLISH_METHOD, 4);
  gint n = amqp_encode_method (AMQP_BASIC_PUBLISH_METHOD, (void *) m, (amqp_bytes_t) { room - 4, payload + 4 });
  if (n < 0)
    goto failed;
  frame_end (out, payload, AMQP_FRAME_METHOD, (gsize) n + 4);

  /* the content header: class, weight 0, body size, then the properties */
  payload = frame_begin (out, room);
  put_be (payload, AMQP_BASIC_CLASS, 2);
  put_be (payload + 2, 0, 2);
  put_be (payload + 4, body.len, 8);
  n = amqp_encode_properties (AMQP_BASIC_CLASS, (void *) props, (amqp_bytes_t) { room - 12, payload + 12 });
  if (n < 0)
    goto failed;
  frame_end (out, payload, AMQP_FRAME_HEADER, (gsize) n + 12);

  for (gsize offset = 0; offset < body.len; offset += room)
    {
      gsize len = MIN (room, body.len - offset);
      payload = frame_begin (out, len);
      memcpy (payload, (const guint8 *) body.bytes + offset, len);
      frame_end (out, payload, AMQP_FRAME_BODY, len);
    }
  return AMQP_STATUS_OK;

failed:
  g_byte_array_set_size (out, start);
  return n;
}

static gboolean
send_all (const GByteArray *out, gint fd, gint64 timeout_ms)
{
  gsize sent = 0;
  while (sent < out->len)
    {
      gssize n = send (fd, out->data + sent, out->len - sent, MSG_NOSIGNAL);
      if (n >= 0)
        {
          sent += (gsize) n;
          continue;
        }
      if (errno == EINTR)
        continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK)
        return FALSE;
      /* librabbitmq keeps its socket non-blocking */
      struct pollfd pfd = { fd, POLLOUT, 0 };
      gint ready = poll (&pfd, 1, (gint) MIN (timeout_ms, G_MAXINT));
      if (ready == 0)
        {
          errno = ETIMEDOUT;
          return FALSE;
        }
      if (ready < 0 && errno != EINTR)
        return FALSE;
    }
  return TRUE;
}

gboolean
rmq_frames_send (GByteArray *out, gint fd, gint64 timeout_ms)
{
  gboolean sent = send_all (out, fd, timeout_ms);
  gint saved = errno;
  g_byte_array_set_size (out, 0);
  errno = saved;
  return sent;
}
