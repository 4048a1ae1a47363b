/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An OTLP log record, its resource and its scope made from a message's
 * .otel.* fields, typed from the fields' types, as syslog-ng 4.8's
 * opentelemetry() destination makes them (modules/grpc/otel,
 * otel-protobuf-formatter.cpp; doc/compatibility.md "OTLP" names the
 * function each rule comes from). */
#ifndef OTEL_FIELDS_H
#define OTEL_FIELDS_H

#include "core/message/message.h"

/* A resource or scope: its protobuf encoding and its schema URL */
typedef struct
{
  GByteArray *bytes;
  GString *schema;
} OtelPart;

typedef struct _OtelFields OtelFields;

/* id names the destination in what it logs */
OtelFields *otel_fields_new    (const gchar *id);
void        otel_fields_free   (OtelFields *f);

/* TRUE when syslog-ng would send msg as a log (get_message_type()):
 * .otel_raw.type, or .otel.type when that is unset or null, is a string
 * that "log" starts with. */
gboolean    otel_fields_is_log (const OtelFields *f, const SlMessage *msg);

/* The record (into record, emptied first), resource and scope of msg from
 * its .otel.* fields; a NULL one is not made. */
void        otel_fields_build  (OtelFields *f, const SlMessage *msg, GByteArray *record, OtelPart *resource,
                                OtelPart *scope);

#endif
