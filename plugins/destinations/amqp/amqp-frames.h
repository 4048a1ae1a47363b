/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A batch of basic.publish frames, written to the broker's socket in one
 * send() (amqp-frames.c). */
#ifndef AMQP_FRAMES_H
#define AMQP_FRAMES_H

#include <glib.h>
#include <amqp.h>
#include <amqp_framing.h>

G_BEGIN_DECLS

/* Appends to out the frames on channel 1 that publish body with m and
 * props, as amqp_basic_publish() sends them: the method, the content
 * header and the body in frames of frame_max bytes at most. Returns
 * librabbitmq's status, AMQP_STATUS_TABLE_TOO_BIG when the headers do
 * not fit in a frame; out is as before unless AMQP_STATUS_OK. */
gint     rmq_frames_add_publish (GByteArray *out, gsize frame_max, const amqp_basic_publish_t *m,
                                 const amqp_basic_properties_t *props, amqp_bytes_t body);

/* Writes all of out to the socket fd; FALSE with errno set (ETIMEDOUT
 * when the socket took nothing for timeout_ms). out is empty after,
 * whether or not it all went: a connection that failed is closed. */
gboolean rmq_frames_send        (GByteArray *out, gint fd, gint64 timeout_ms);

G_END_DECLS

#endif
