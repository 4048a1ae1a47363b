/* SPDX-License-Identifier: GPL-2.0-or-later */
/* OTLP/JSON read into the protobuf-c message the binary encoding would
 * unpack to, so that one mapping serves both encodings. */
#ifndef OTEL_JSON_H
#define OTEL_JSON_H

#include <glib.h>
#include <protobuf-c/protobuf-c.h>

/* Reads the JSON text data as a message of desc, following OTLP/JSON's
 * rules: keys in lowerCamelCase (the proto's names taken too), 64-bit
 * integers as numbers or strings, enums as integers (or their names),
 * trace and span ids in hex, other bytes in base64, unknown keys ignored.
 * The result is freed with protobuf_c_message_free_unpacked (msg, NULL);
 * NULL with *error set when the text is not such a message. */
ProtobufCMessage *otel_json_unpack (const ProtobufCMessageDescriptor *desc, const gchar *data, gsize len,
                                    GError **error);

#endif
