/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What kv-parser() and linux-audit-parser() share: their options and the
 * scan that sets a message's fields from its pairs; and the classes of the
 * module, snmptrapd-parser()'s among them. */
#ifndef KV_PARSER_H
#define KV_PARSER_H

#include "plugins/parsers/kv/kv-scanner.h"
#include "core/plugin/plugin.h"
#include "core/stats.h"

G_BEGIN_DECLS

typedef struct
{
  SlDriver base;
  SlTemplate *template;
  const gchar *prefix;
  gsize prefix_len;
  const gchar *value_separator_option;
  gchar value_separator;
  const gchar *pair_separator;    /* NULL: ", " */
  const gchar *stray_words_name;
  SlHandle stray_words;
  SlCounter *skipped_keys;
} KvParser;

extern const SlOptionSpec kv_parser_options[];
gboolean kv_parser_init (SlDriver *self, GError **error);

/* Sets msg's fields from the pairs of the parser's input, each value
 * passed through transform when it is not NULL. */
gboolean kv_parser_scan (KvParser *parser, SlMessage **msg, KvTransform transform);

extern const SlDriverClass kv_parser_class;
extern const SlDriverClass linux_audit_parser_class;
extern const SlDriverClass snmptrapd_parser_class;

G_END_DECLS

#endif
