/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON messages through the real daemon: TCP in, json-parser(), a
 * date-parser() on a parsed field, a comparison filter, and files written
 * with named templates that use $(format-json) and $(if); the JSON written
 * is read back with jansson. What does not parse or does not pass falls
 * through to a fallback path. */
#include "tests/functional/harness.h"

#include <jansson.h>
#include <string.h>
#include <sys/socket.h>

static const gchar chain_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) keep-hostname(yes)); };\n"
  "template t_json { template(\"$(format-json --scope nv-pairs --key json.*)\\n\"); };\n"
  "template t_line \"${json.level} ${json.user.id} $(if (\\\"${json.user.id}\\\" > 40) big small)"
  " $(if (level(err) and facility(user)) E N) ${S_ISODATE}\\n\";\n"
  "destination d_errors { file(\"@DIR@/errors.json\" template(t_json)); };\n"
  "destination d_lines { file(\"@DIR@/lines.log\" template(t_line)); };\n"
  "destination d_rest { file(\"@DIR@/rest.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log {\n"
  "  source(s_net);\n"
  "  parser { json-parser(prefix(\"json.\")); };\n"
  "  parser { date-parser(template(\"${json.ts}\") format(\"%FT%T%z\")); };\n"
  "  filter { \"${json.level}\" eq \"error\"; };\n"
  "  destination(d_errors); destination(d_lines);\n"
  "};\n"
  "log { source(s_net); destination(d_rest); flags(fallback); };\n";

static const gchar input[] =
  "<11>Feb  3 12:34:56 web1 app[1]: {\"level\":\"error\",\"user\":{\"id\":42,\"name\":\"Ada \\\"A\\\" L.\"},"
  "\"ts\":\"2026-02-03T12:00:00+01:00\",\"tags\":[\"a\",\"b\"]}\n"
  "<14>Feb  3 12:34:57 web1 app[1]: {\"level\":\"info\",\"user\":{\"id\":43},\"ts\":\"2026-02-03T12:00:01Z\"}\n"
  "<14>Feb  3 12:34:58 web1 app[1]: plain text, no JSON\n"
  "<19>Feb  3 12:34:59 web2 db[2]: {\"level\":\"error\",\"user\":{\"id\":7,\"name\":\"\\u00e9\\u0001\\t\"},"
  "\"ts\":\"2026-02-03T13:00:00-05:00\"}\n";


/* The member at a path below root, or NULL. */
static json_t *
node_at (json_t *root, const gchar *const *path)
{
  json_t *node = root;
  for (guint i = 0; path[i] && node; i++)
    node = json_object_get (node, path[i]);
  return node;
}

#define AT(...) ((const gchar *const[]) { __VA_ARGS__, NULL })

/* The string at a path of member names below root, or NULL. */
static const gchar *
string_at (json_t *root, const gchar *const *path)
{
  json_t *node = node_at (root, path);
  return json_is_string (node) ? json_string_value (node) : NULL;
}

static json_t *
read_json_line (const gchar *line)
{
  json_error_t error;
  json_t *root = json_loads (line, 0, &error);
  if (!root)
    g_test_fail_printf ("not JSON (%s): %s", error.text, line);
  return root;
}

static void
check_errors_file (SlTestEnv *env)
{
  g_autofree gchar *path = sl_test_path (env, "errors.json");
  g_auto (GStrv) lines = sl_test_read_lines (path);
  g_assert_nonnull (lines);
  g_assert_cmpuint (g_strv_length (lines), ==, 2);

  json_t *first = read_json_line (lines[0]);
  json_t *second = read_json_line (lines[1]);
  if (!first || !second)
    goto out;
  g_assert_cmpstr (string_at (first, AT ("HOST")), ==, "web1");
  g_assert_cmpstr (string_at (first, AT ("PROGRAM")), ==, "app");
  g_assert_cmpstr (string_at (first, AT ("PID")), ==, "1");
  g_assert_cmpstr (string_at (first, AT ("json", "level")), ==, "error");
  /* @version: 4.0: the values keep the types json-parser() read */
  g_assert_true (json_is_integer (node_at (first, AT ("json", "user", "id"))));
  g_assert_cmpint (json_integer_value (node_at (first, AT ("json", "user", "id"))), ==, 42);
  g_assert_cmpstr (string_at (first, AT ("json", "user", "name")), ==, "Ada \"A\" L.");
  json_t *tags = node_at (first, AT ("json", "tags"));
  g_assert_true (json_is_array (tags) && json_array_size (tags) == 2);
  g_assert_cmpstr (json_string_value (json_array_get (tags, 1)), ==, "b");
  g_assert_true (g_str_has_prefix (string_at (first, AT ("MESSAGE")), "{\"level\":\"error\""));

  g_assert_cmpstr (string_at (second, AT ("HOST")), ==, "web2");
  g_assert_cmpint (json_integer_value (node_at (second, AT ("json", "user", "id"))), ==, 7);
  g_assert_cmpstr (string_at (second, AT ("json", "user", "name")), ==, "\xc3\xa9\x01\t");

out:
  json_decref (first);
  json_decref (second);
}

static void
test_chain (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  if (!port || !sl_test_write_config (env, chain_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  if (!sl_test_tcp_send (port, input))
    return;

  g_autofree gchar *errors = sl_test_path (env, "errors.json");
  g_autofree gchar *lines = sl_test_path (env, "lines.log");
  g_autofree gchar *rest = sl_test_path (env, "rest.log");
  if (!sl_test_wait_lines (env, errors, 2) || !sl_test_wait_lines (env, lines, 2) || !sl_test_wait_lines (env, rest, 2))
    return;

  check_errors_file (env);

  /* the stamp is the one the JSON carried, in the zone it was written in;
   * $(if) saw the comparison and the filter functions */
  g_autofree gchar *line_text = sl_test_read_file (lines);
  g_assert_cmpstr (line_text, ==,
                   "error 42 big E 2026-02-03T12:00:00+01:00\n"
                   "error 7 small N 2026-02-03T13:00:00-05:00\n");

  /* what did not parse and what did not pass took the fallback path */
  g_autofree gchar *rest_text = sl_test_read_file (rest);
  g_assert_cmpstr (rest_text, ==,
                   "{\"level\":\"info\",\"user\":{\"id\":43},\"ts\":\"2026-02-03T12:00:01Z\"}\n"
                   "plain text, no JSON\n");

  /* the line that was no JSON is counted by the parser */
  sl_test_wait_stat (env, "parser", NULL, "failed", 1);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/json-chain/tcp-parse-filter-format", test_chain);
  return g_test_run ();
}
