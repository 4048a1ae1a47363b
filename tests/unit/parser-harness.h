/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the parser plugins' unit tests share: a parser made from its
 * configuration text the way a log path makes it, messages to feed it, and
 * its counters. */
#ifndef SL_TEST_PARSER_HARNESS_H
#define SL_TEST_PARSER_HARNESS_H

#include <glib.h>
#include "core/message/message.h"
#include "core/plugin/plugin.h"

G_BEGIN_DECLS

typedef struct
{
  SlConfig *cfg;
  SlCfgNode *tree;
  SlDriver *driver;
  GHashTable *counters_before;   /* counters are kept by name across tests */
} SlTestParser;

/* Makes the parser written as text (such as "kv-parser(prefix(\"kv.\"))"),
 * which the configuration "test.conf" holds on its line 2. */
gboolean    sl_test_parser_new    (SlTestParser *p, const gchar *text, GError **error);
/* The same, failing the test when the parser cannot be made. */
void        sl_test_parser_init   (SlTestParser *p, const gchar *text);
/* The same in a configuration of "@version: version" (on line 1, text on
 * line 3): a 4.x version gives syslog-ng 4's typed values. */
void        sl_test_parser_init_version (SlTestParser *p, const gchar *version, const gchar *text);
void        sl_test_parser_clear  (SlTestParser *p);
gboolean    sl_test_parser_process (SlTestParser *p, SlMessage **msg);
/* What the parser's counter name counted since it was made. */
gint64      sl_test_parser_counter (SlTestParser *p, const gchar *name);

/* A message whose MESSAGE is text. */
SlMessage  *sl_test_message       (const gchar *text);
/* Asserts that field name holds expected (NULL: unset). */
void        sl_test_assert_field  (const SlMessage *msg, const gchar *name, const gchar *expected);

G_END_DECLS

#endif
