/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gzip request bodies, which OTLP senders may send over either transport. */
#ifndef OTEL_GZIP_H
#define OTEL_GZIP_H

#include <glib.h>

/* Inflates the gzip data into out; FALSE when it is not gzip or inflates
 * to more than max bytes. */
gboolean otel_gunzip (const guint8 *data, gsize len, gsize max, GByteArray *out);

#endif
