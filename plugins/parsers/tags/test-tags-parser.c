/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tags-parser(): the items of a list as tags, as syslog-ng 3.38 reads the
 * same text (each case was run through it). */
#include "tests/unit/parser-harness.h"
#include "core/compile/loader.h"

#include <string.h>

extern const SlModule sl_module;

static gboolean
collect_tag (SlTag tag, gpointer user_data)
{
  GString *tags = user_data;
  g_string_append_printf (tags, "%s%s", tags->len ? "|" : "", sl_tag_name (tag));
  return TRUE;
}

/* The tags line gives, in id order, joined by '|'. */
static void
check (const gchar *line, const gchar *expected)
{
  SlTestParser p;
  sl_test_parser_init (&p, "tags-parser(template(\"${tags}\"))");
  SlMessage *msg = sl_test_message ("m");
  sl_message_set (msg, sl_field_handle ("tags"), line, -1);
  g_assert_true (sl_test_parser_process (&p, &msg));
  GString *tags = g_string_new ("");
  sl_message_foreach_tag (msg, collect_tag, tags);
  g_assert_cmpstr (tags->str, ==, expected);
  g_string_free (tags, TRUE);
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

static void
test_lists (void)
{
  check ("", "");
  check ("t.alpha", "t.alpha");
  check ("t.alpha,t.beta,,t.gamma,", "t.alpha|t.beta|t.gamma");
  check ("\"t.with space\",'t.q\\\"x'", "t.with space|t.q\\\"x");
  check ("\"t.esc\\\"aped\"", "t.esc\"aped");
  /* broken quotes: the item as written, up to and with its comma */
  check ("\"t.broken", "\"t.broken");
  check ("\"t.junk\"after,t.next", "\"t.junk\"after,|t.next");
}

static void
test_message_unchanged_without_tags (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "tags-parser()");
  SlMessage *original = sl_test_message (",,,");
  SlMessage *msg = sl_message_ref (original);
  g_assert_true (sl_test_parser_process (&p, &msg));
  g_assert_true (msg == original);
  sl_message_unref (msg);
  sl_message_unref (original);
  sl_test_parser_clear (&p);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/tags-parser/lists", test_lists);
  g_test_add_func ("/tags-parser/message-unchanged-without-tags", test_message_unchanged_without_tags);
  return g_test_run ();
}
