/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One export request as both transports handle it: decoded, delivered,
 * and the answer's status and body. */
#ifndef OTEL_EXPORT_H
#define OTEL_EXPORT_H

#include "otel-connection.h"

typedef enum
{
  OTEL_EXPORT_OK,           /* every record is safe */
  OTEL_EXPORT_BAD_REQUEST,  /* not an export request: not to be sent again */
  OTEL_EXPORT_UNAVAILABLE,  /* the source stops: to be sent again */
} OtelExportStatus;

typedef enum
{
  OTEL_ENCODING_PROTOBUF,
  OTEL_ENCODING_JSON,
} OtelEncoding;

/* Decodes data (an ExportLogsServiceRequest), delivers its records with
 * the connection's window, and fills response with the
 * ExportLogsServiceResponse to send (encoded as the request was) when OK,
 * or with why not (text) otherwise. */
OtelExportStatus otel_export_logs (OtelSource *self, SlWindow *window, const gchar *peer, OtelEncoding encoding,
                                   const guint8 *data, gsize len, GByteArray *response);

#endif
