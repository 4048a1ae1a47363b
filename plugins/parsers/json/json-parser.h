/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the parts of json-parser() share: its options as the driver holds
 * them, and the two ways it turns a JSON text into fields. */
#ifndef JSON_PARSER_H
#define JSON_PARSER_H

#include "core/plugin/plugin.h"
#include "core/stats.h"

G_BEGIN_DECLS

/* A flattened name longer than this is skipped and counted: the sender
 * chooses the keys, and every field name is kept for the life of the
 * process. */
#define JSON_MAX_NAME 255

/* One step of extract-prefix(): a member name or an array index. */
typedef struct
{
  gchar *key;        /* NULL for an index */
  gsize key_len;
  gsize index;
} JsonStep;

/* types(): what the values keep of their JSON types */
enum
{
  JSON_TYPES_VERSION,  /* as syslog-ng of the configuration's @version */
  JSON_TYPES_RSYSLOG,  /* as rsyslogd's mmjsonparse */
};

typedef struct
{
  SlDriver base;
  SlTemplate *template;
  const gchar *prefix;
  const gchar *marker;
  const gchar *extract_prefix;
  const gchar *key_delimiter;
  gsize marker_len;
  gchar delimiter;
  gint types;        /* JSON_TYPES_* */
  gboolean typed;    /* a syslog-ng 4 configuration's or types(rsyslog): json-typed.c reads */
  GArray *extract;   /* JsonStep */
  SlCounter *failed;
  SlCounter *skipped_keys;
} JsonParser;

/* The name of the member being set: the prefix and the names of the
 * enclosing members, in a buffer on the stack. */
typedef struct
{
  gchar text[JSON_MAX_NAME + 1];
  gsize len;
} JsonName;

typedef enum
{
  JSON_SCAN_SET,       /* valid, the fields are set */
  JSON_SCAN_REFUSED,   /* not JSON, or nothing to take fields from: msg unchanged */
  JSON_SCAN_AMBIGUOUS, /* a key repeats in an object (or an object is too
                           * wide to check cheaply): msg unchanged, the tree
                           * decides which of the values count */
} JsonScanResult;

/* The single pass: input (len bytes, changed in place) is checked against
 * the grammar jansson accepts while the fields are collected; they are set
 * in *msg (made writable) only when the whole text is valid. */
JsonScanResult json_scan_flatten (const JsonParser *parser, gchar *input, gsize len, SlMessage **msg);

/* The reference: jansson's tree of input, flattened. FALSE when input is
 * refused (msg unchanged). */
gboolean json_tree_flatten (const JsonParser *parser, const gchar *input, gsize len, SlMessage **msg);

/* A syslog-ng 4 configuration's json-parser(): the fields typed as 4.8
 * types them (json-typed.c). FALSE when input is refused (msg unchanged). */
gboolean json_typed_flatten (const JsonParser *parser, const gchar *input, gsize len, SlMessage **msg);

/* A real as syslog-ng 3.38's json-parser() writes a field: printf's %f.
 * buffer holds JSON_REAL_SIZE bytes, enough for the largest double. */
#define JSON_REAL_SIZE (G_ASCII_DTOSTR_BUF_SIZE + 320)
void json_format_real (gchar *buffer, gdouble value);
/* The four hex digits of a \u escape at p, -1 when one is not; both readers share it. */
gint json_hex4 (const gchar *p);

G_END_DECLS

#endif
