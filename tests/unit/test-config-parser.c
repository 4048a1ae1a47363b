/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The configuration parser: tree shapes, pragmas, includes, defines and
 * printing the tree back. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "core/config/error.h"
#include "core/config/parser.h"
#include "core/config/tree.h"

static SlCfgNode *
parse_ok (const gchar *text)
{
  g_autoptr (GError) error = NULL;
  SlCfgNode *root = sl_cfg_parse_string (text, "test.conf", &error);

  g_assert_no_error (error);
  g_assert_nonnull (root);
  g_assert_cmpstr (root->name, ==, "config");
  return root;
}

static SlCfgNode *
child (const SlCfgNode *node, guint index)
{
  g_assert_cmpuint (index, <, node->children->len);
  return g_ptr_array_index (node->children, index);
}

static const SlCfgArg *
arg (const SlCfgNode *node, guint index)
{
  g_assert_cmpuint (index, <, node->args->len);
  return g_ptr_array_index (node->args, index);
}

static void
assert_node (const SlCfgNode *node, const gchar *name, guint n_args, guint n_children, gboolean has_body)
{
  g_assert_cmpstr (node->name, ==, name);
  g_assert_cmpuint (node->args->len, ==, n_args);
  g_assert_cmpuint (node->children->len, ==, n_children);
  g_assert_cmpint (node->has_body, ==, has_body);
}

static void
assert_arg (const SlCfgNode *node, guint index, SlCfgArgKind kind, const gchar *value)
{
  const SlCfgArg *a = arg (node, index);

  g_assert_cmpint (a->kind, ==, kind);
  g_assert_cmpstr (a->value, ==, value);
}

static void
assert_pos (SlCfgPos pos, const gchar *file, gint line, gint column)
{
  g_assert_cmpstr (pos.file, ==, file);
  g_assert_cmpint (pos.line, ==, line);
  g_assert_cmpint (pos.column, ==, column);
}

/* Parsing text prints as expected, and printing is stable: the printed
 * text parses back to a tree that prints the same. */
static void
assert_prints (const gchar *text, const gchar *expected)
{
  SlCfgNode *root = parse_ok (text);
  g_autofree gchar *printed = sl_cfg_node_to_string (root);
  SlCfgNode *again = parse_ok (printed);
  g_autofree gchar *reprinted = sl_cfg_node_to_string (again);

  g_assert_cmpstr (printed, ==, expected);
  g_assert_cmpstr (reprinted, ==, printed);
  sl_cfg_node_free (root);
  sl_cfg_node_free (again);
}

/* An expression tree as an s-expression: (or a (and b (not c))). */
static void
append_shape (GString *out, const SlCfgNode *node)
{
  if (g_str_equal (node->name, "compare"))
    {
      g_string_append_printf (out, "(compare %s %s %s)", arg (node, 0)->value,
                              arg (node, 1)->value, arg (node, 2)->value);
      return;
    }
  if (!g_str_equal (node->name, "and") && !g_str_equal (node->name, "or") && !g_str_equal (node->name, "not"))
    {
      g_string_append (out, node->name);
      return;
    }
  g_string_append_printf (out, "(%s", node->name);
  for (guint i = 0; i < node->children->len; i++)
    {
      g_string_append_c (out, ' ');
      append_shape (out, child (node, i));
    }
  g_string_append_c (out, ')');
}

static void
assert_filter_shape (const gchar *expr, const gchar *expected)
{
  g_autofree gchar *text = g_strdup_printf ("filter f { %s };", expr);
  SlCfgNode *root = parse_ok (text);
  SlCfgNode *filter = child (root, 0);
  GString *shape = g_string_new (NULL);

  assert_node (filter, "filter", 1, 1, TRUE);
  assert_arg (filter, 0, SL_CFG_ARG_WORD, "f");
  append_shape (shape, child (filter, 0));
  g_assert_cmpstr (shape->str, ==, expected);
  g_string_free (shape, TRUE);
  sl_cfg_node_free (root);
}

/* Temporary files */

static gchar *
make_temp_dir (void)
{
  g_autoptr (GError) error = NULL;
  gchar *dir = g_dir_make_tmp ("sluice-parser-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static gchar *
write_file (const gchar *dir, const gchar *name, const gchar *text)
{
  g_autoptr (GError) error = NULL;
  gchar *path = g_build_filename (dir, name, NULL);
  g_autofree gchar *parent = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_no_error (error);
  return path;
}

static void
remove_tree (const gchar *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      GDir *dir = g_dir_open (path, 0, NULL);
      const gchar *name;

      g_assert_nonnull (dir);
      while ((name = g_dir_read_name (dir)))
        {
          g_autofree gchar *entry = g_build_filename (path, name, NULL);
          remove_tree (entry);
        }
      g_dir_close (dir);
      g_assert_cmpint (g_rmdir (path), ==, 0);
    }
  else
    g_assert_cmpint (g_remove (path), ==, 0);
}

static SlCfgNode *
parse_file_ok (const gchar *path)
{
  g_autoptr (GError) error = NULL;
  SlCfgNode *root = sl_cfg_parse_file (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (root);
  return root;
}

/* Tests */

static void
test_source_shape (void)
{
  SlCfgNode *root = parse_ok ("source s_net {\n"
                              "  tcp(ip(\"0.0.0.0\") port(514));\n"
                              "  udp(port(514));\n"
                              "};\n");
  SlCfgNode *source = child (root, 0);
  SlCfgNode *tcp, *ip;

  assert_node (root, "config", 0, 1, FALSE);
  assert_node (source, "source", 1, 2, TRUE);
  assert_arg (source, 0, SL_CFG_ARG_WORD, "s_net");
  assert_pos (source->pos, "test.conf", 1, 1);
  assert_pos (arg (source, 0)->pos, "test.conf", 1, 8);

  tcp = child (source, 0);
  assert_node (tcp, "tcp", 0, 2, FALSE);
  assert_pos (tcp->pos, "test.conf", 2, 3);
  ip = child (tcp, 0);
  assert_node (ip, "ip", 1, 0, FALSE);
  assert_arg (ip, 0, SL_CFG_ARG_STRING, "0.0.0.0");
  assert_pos (arg (ip, 0)->pos, "test.conf", 2, 10);
  assert_node (child (tcp, 1), "port", 1, 0, FALSE);
  assert_arg (child (tcp, 1), 0, SL_CFG_ARG_WORD, "514");
  assert_node (child (source, 1), "udp", 0, 1, FALSE);
  sl_cfg_node_free (root);
}

static void
test_statement_kinds (void)
{
  SlCfgNode *root = parse_ok ("options { flush-lines(100); };\n"
                              "source s { internal(); };\n"
                              "destination \"d quoted\" { file(\"/x\"); };\n"
                              "parser p { json-parser(prefix(\".json.\")); };\n"
                              "rewrite r { set(\"x\" value(\"HOST\")); subst(\"a\", \"b\", value(\"MSG\") flags(global)); };\n"
                              "filter f { level(err); };\n"
                              "template t { template(\"$MSG\"); };\n"
                              "log { source(s); };\n");

  assert_node (child (root, 0), "options", 0, 1, TRUE);
  assert_node (child (root, 1), "source", 1, 1, TRUE);
  assert_node (child (root, 2), "destination", 1, 1, TRUE);
  assert_arg (child (root, 2), 0, SL_CFG_ARG_STRING, "d quoted");
  assert_node (child (root, 3), "parser", 1, 1, TRUE);
  assert_node (child (root, 4), "rewrite", 1, 2, TRUE);
  assert_node (child (child (root, 4), 1), "subst", 2, 2, FALSE);
  assert_node (child (root, 5), "filter", 1, 1, TRUE);
  assert_node (child (root, 6), "template", 1, 1, TRUE);
  assert_node (child (root, 7), "log", 0, 1, TRUE);
  sl_cfg_node_free (root);
}

static void
test_arguments (void)
{
  SlCfgNode *root = parse_ok ("destination d {\n"
                              "  file(\"/var/log/$HOST.log\", template(\"$MSG\\n\") perm(0640), create-dirs(yes));\n"
                              "  network(\"10.0.0.1\" port(514) failover(servers(\"a\" \"b\")));\n"
                              "  file('/x' logrotate(enable(yes) size(100MB) rotations(5)));\n"
                              "  python(class(\"m.C\") options { key(\"value\"); });\n"
                              "};");
  SlCfgNode *d = child (root, 0);
  SlCfgNode *file = child (d, 0);
  SlCfgNode *servers = child (child (child (d, 1), 1), 0);
  SlCfgNode *logrotate = child (child (d, 2), 0);
  SlCfgNode *options = child (child (d, 3), 1);

  assert_node (file, "file", 1, 3, FALSE);
  assert_arg (file, 0, SL_CFG_ARG_STRING, "/var/log/$HOST.log");
  assert_arg (child (file, 0), 0, SL_CFG_ARG_STRING, "$MSG\n");
  assert_arg (child (file, 1), 0, SL_CFG_ARG_WORD, "0640");
  assert_node (child (file, 2), "create-dirs", 1, 0, FALSE);

  assert_node (servers, "servers", 2, 0, FALSE);
  assert_arg (servers, 0, SL_CFG_ARG_STRING, "a");
  assert_arg (servers, 1, SL_CFG_ARG_STRING, "b");

  assert_arg (child (d, 2), 0, SL_CFG_ARG_STRING, "/x");
  assert_node (logrotate, "logrotate", 0, 3, FALSE);
  assert_arg (child (logrotate, 1), 0, SL_CFG_ARG_WORD, "100MB");

  assert_node (options, "options", 0, 1, TRUE);
  assert_node (child (options, 0), "key", 1, 0, FALSE);
  sl_cfg_node_free (root);
}

static void
test_version (void)
{
  SlCfgNode *with = parse_ok ("@version: 4.0\nsource s { internal(); };");
  SlCfgNode *quoted = parse_ok ("@version: \"3.38\"");
  SlCfgNode *without = parse_ok ("source s { internal(); };");
  SlCfgNode *twice = parse_ok ("@version: 4.0\n@version: 3.0\n");

  assert_node (with, "config", 1, 1, FALSE);
  assert_arg (with, 0, SL_CFG_ARG_WORD, "4.0");
  assert_pos (arg (with, 0)->pos, "test.conf", 1, 11);
  assert_arg (quoted, 0, SL_CFG_ARG_STRING, "3.38");
  g_assert_cmpuint (without->args->len, ==, 0);
  g_assert_cmpuint (twice->args->len, ==, 1);
  assert_arg (twice, 0, SL_CFG_ARG_WORD, "4.0");
  sl_cfg_node_free (with);
  sl_cfg_node_free (quoted);
  sl_cfg_node_free (without);
  sl_cfg_node_free (twice);
}

static void
test_module_and_requires (void)
{
  SlCfgNode *root = parse_ok ("@version: 4.0\n"
                              "@module mod-python\n"
                              "@module confgen context(source) name(my_src) exec(\"/bin/gen\")\n"
                              "@requires json-plugin\n"
                              "source s { internal(); };\n");
  SlCfgNode *confgen = child (root, 1);

  g_assert_cmpuint (root->children->len, ==, 4);
  assert_node (child (root, 0), "@module", 1, 0, FALSE);
  assert_arg (child (root, 0), 0, SL_CFG_ARG_WORD, "mod-python");
  assert_node (confgen, "@module", 1, 3, FALSE);
  assert_arg (confgen, 0, SL_CFG_ARG_WORD, "confgen");
  assert_node (child (confgen, 2), "exec", 1, 0, FALSE);
  assert_pos (confgen->pos, "test.conf", 3, 1);
  assert_node (child (root, 2), "@requires", 1, 0, FALSE);
  assert_node (child (root, 3), "source", 1, 1, TRUE);
  sl_cfg_node_free (root);

  assert_prints ("@module confgen context(source) name(my_src) exec(\"gen\")\n@requires json\n",
                 "@module confgen context(source) name(my_src) exec(\"gen\")\n@requires json\n");
}

static void
test_define (void)
{
  SlCfgNode *root = parse_ok ("@define logdir \"/var/log\"\n"
                              "@define port 514\n"
                              "@define drivers \"udp(port(`port`)); tcp();\"\n"
                              "source s { `drivers` };\n"
                              "destination d { file(\"`logdir`/messages\"); };\n"
                              "@define logdir \"/srv/log\"\n"
                              "destination d2 { file(\"`logdir`/messages\" template(`port`)); };\n");
  SlCfgNode *s = child (root, 0);

  assert_node (s, "source", 1, 2, TRUE);
  assert_node (child (s, 0), "udp", 0, 1, FALSE);
  assert_arg (child (child (s, 0), 0), 0, SL_CFG_ARG_WORD, "514");
  /* tokens from a substitution carry the position of its backtick */
  assert_pos (child (s, 1)->pos, "test.conf", 4, 12);
  assert_arg (child (child (root, 1), 0), 0, SL_CFG_ARG_STRING, "/var/log/messages");
  /* a later @define replaces the value from there on */
  assert_arg (child (child (root, 2), 0), 0, SL_CFG_ARG_STRING, "/srv/log/messages");
  assert_arg (child (child (child (root, 2), 0), 0), 0, SL_CFG_ARG_WORD, "514");
  sl_cfg_node_free (root);
}

static void
test_define_environment (void)
{
  SlCfgNode *root;

  g_setenv ("SL_TEST_PARSER_DIR", "/env/dir", TRUE);
  root = parse_ok ("destination d { file(\"`SL_TEST_PARSER_DIR`/x\"); file(`SL_TEST_PARSER_DIR`); };");
  g_unsetenv ("SL_TEST_PARSER_DIR");

  assert_arg (child (child (root, 0), 0), 0, SL_CFG_ARG_STRING, "/env/dir/x");
  assert_arg (child (child (root, 0), 1), 0, SL_CFG_ARG_WORD, "/env/dir");
  sl_cfg_node_free (root);
}

static void
test_pragma_semicolons (void)
{
  SlCfgNode *root = parse_ok ("@version: 4.0;\n"
                              "@define a \"b\";\n"
                              "@requires json;\n"
                              "source s { @define c \"d\"; internal(); };\n");

  g_assert_cmpuint (root->children->len, ==, 2);
  assert_node (child (root, 1), "source", 1, 1, TRUE);
  sl_cfg_node_free (root);
}

static void
test_filter_precedence (void)
{
  assert_filter_shape ("a() or b() and not c()", "(or a (and b (not c)))");
  assert_filter_shape ("a() and b() or c()", "(or (and a b) c)");
  assert_filter_shape ("a() and b() and c()", "(and (and a b) c)");
  assert_filter_shape ("a() or b() or c()", "(or (or a b) c)");
  assert_filter_shape ("a() and (b() or c())", "(and a (or b c))");
  assert_filter_shape ("not (a() or b())", "(not (or a b))");
  assert_filter_shape ("not not a()", "(not (not a))");
  assert_filter_shape ("not a() and b()", "(and (not a) b)");
  assert_filter_shape ("((a()))", "a");
  assert_filter_shape ("a(); b() or c();", "(and a (or b c))");
  assert_filter_shape ("a();; b();", "(and a b)");
}

static void
test_filter_comparisons (void)
{
  SlCfgNode *root = parse_ok ("filter f { \"${LEVEL_NUM}\" <= 3 and \"$HOST\" eq 'x' or \"$(length $MSG)\" != \"0\"; };");
  SlCfgNode *compare = child (child (child (child (root, 0), 0), 0), 0);

  assert_node (compare, "compare", 3, 0, FALSE);
  assert_arg (compare, 0, SL_CFG_ARG_STRING, "${LEVEL_NUM}");
  assert_arg (compare, 1, SL_CFG_ARG_WORD, "<=");
  assert_arg (compare, 2, SL_CFG_ARG_WORD, "3");
  assert_pos (compare->pos, "test.conf", 1, 12);
  sl_cfg_node_free (root);

  assert_filter_shape ("\"${LEVEL_NUM}\" <= 3 and \"$HOST\" eq 'x' or \"a\" != \"0\"",
                       "(or (and (compare ${LEVEL_NUM} <= 3) (compare $HOST eq x)) (compare a != 0))");
  assert_filter_shape ("\"x\" == 3", "(compare x == 3)");
  assert_filter_shape ("3 ge \"$LEVEL_NUM\"", "(compare 3 ge $LEVEL_NUM)");
  assert_filter_shape ("not \"a\" lt \"b\"", "(not (compare a lt b))");
  assert_filter_shape ("\"a\" ne \"b\" and \"c\" > \"d\"", "(and (compare a ne b) (compare c > d))");
}

static void
test_filter_functions (void)
{
  SlCfgNode *root = parse_ok ("filter f { match(\"^sshd\" value(\"PROGRAM\") type(pcre)) and filter(f_other)"
                              " and netmask(10.0.0.0/8) and level(err..emerg) and program(\"x\", flags(ignore-case)); };");
  SlCfgNode *expr = child (child (root, 0), 0);
  SlCfgNode *program = child (expr, 1);
  SlCfgNode *match = child (child (child (child (expr, 0), 0), 0), 0);

  assert_node (program, "program", 1, 1, FALSE);
  assert_node (match, "match", 1, 2, FALSE);
  assert_arg (match, 0, SL_CFG_ARG_STRING, "^sshd");
  assert_arg (child (child (child (child (expr, 0), 0), 0), 1), 0, SL_CFG_ARG_WORD, "f_other");
  sl_cfg_node_free (root);
}

/* condition() in a rewrite rule holds a filter expression, not arguments */
static void
test_rule_condition (void)
{
  SlCfgNode *root = parse_ok ("rewrite r {\n"
                              "  set(\"x\" value(\"A\") condition(program(\"p\") and (level(err) or not \"$B\" eq \"c\")));\n"
                              "  subst(\"a\" \"b\" condition(filter(f_x)));\n"
                              "};");
  SlCfgNode *set = child (child (root, 0), 0);
  SlCfgNode *condition = child (set, 1);
  SlCfgNode *expr;

  assert_node (set, "set", 1, 2, FALSE);
  assert_node (condition, "condition", 0, 1, FALSE);
  assert_pos (condition->pos, "test.conf", 2, 22);
  expr = child (condition, 0);
  assert_node (expr, "and", 0, 2, FALSE);
  assert_node (child (expr, 0), "program", 1, 0, FALSE);
  assert_node (child (expr, 1), "or", 0, 2, FALSE);
  assert_node (child (child (child (expr, 1), 1), 0), "compare", 3, 0, FALSE);
  assert_node (child (child (child (root, 0), 1), 0), "condition", 0, 1, FALSE);
  sl_cfg_node_free (root);

  g_autoptr (GError) error = NULL;
  g_assert_null (sl_cfg_parse_string ("rewrite r { set(\"x\" condition()); };", "test.conf", &error));
  g_assert_nonnull (strstr (error->message, "test.conf:1:31: expected a filter expression, found ')'"));
  g_clear_error (&error);
  g_assert_null (sl_cfg_parse_string ("rewrite r { set(\"x\" condition(level(err) value(\"y\"))); };",
                                      "test.conf", &error));
  g_assert_nonnull (strstr (error->message, "expected 'and', 'or' or ')' to close 'condition('"));
}

static void
test_log_shapes (void)
{
  SlCfgNode *root = parse_ok ("log {\n"
                              "  source(s_a); source(s_b);\n"
                              "  source { tcp(port(1)); udp(); };\n"
                              "  filter(f_a);\n"
                              "  filter { level(err); };\n"
                              "  parser(p_json); parser { json-parser(); };\n"
                              "  rewrite(r_a); rewrite { set(\"x\" value(\"y\")); };\n"
                              "  destination(d_a); destination { file(\"/x\"); };\n"
                              "  log { destination(d_nested); flags(final); };\n"
                              "  flags(final, flow-control);\n"
                              "};");
  SlCfgNode *log = child (root, 0);
  SlCfgNode *flags;

  assert_node (log, "log", 0, 13, TRUE);
  assert_node (child (log, 0), "source", 1, 0, FALSE);
  assert_arg (child (log, 1), 0, SL_CFG_ARG_WORD, "s_b");
  assert_node (child (log, 2), "source", 0, 2, TRUE);
  assert_node (child (child (log, 2), 0), "tcp", 0, 1, FALSE);
  assert_node (child (log, 3), "filter", 1, 0, FALSE);
  assert_node (child (log, 4), "filter", 0, 1, TRUE);
  assert_node (child (child (log, 4), 0), "level", 1, 0, FALSE);
  assert_node (child (log, 5), "parser", 1, 0, FALSE);
  assert_node (child (log, 6), "parser", 0, 1, TRUE);
  assert_node (child (log, 7), "rewrite", 1, 0, FALSE);
  assert_node (child (log, 8), "rewrite", 0, 1, TRUE);
  assert_node (child (log, 9), "destination", 1, 0, FALSE);
  assert_node (child (log, 10), "destination", 0, 1, TRUE);
  assert_node (child (log, 11), "log", 0, 2, TRUE);
  flags = child (log, 12);
  assert_node (flags, "flags", 2, 0, FALSE);
  assert_arg (flags, 0, SL_CFG_ARG_WORD, "final");
  assert_arg (flags, 1, SL_CFG_ARG_WORD, "flow-control");
  assert_pos (flags->pos, "test.conf", 10, 3);
  sl_cfg_node_free (root);
}

static void
test_if_elif_else (void)
{
  SlCfgNode *root = parse_ok ("log { source(s);\n"
                              "  if (level(err) and program(\"x\")) { destination(d_err); }\n"
                              "  elif (\"${PROGRAM}\" eq \"sshd\") { destination(d_ssh); flags(final); }\n"
                              "  elif (facility(mail)) { destination(d_mail); }\n"
                              "  else { destination(d_rest); log { destination(d_nested); }; };\n"
                              "  if (level(debug)) { destination(d_debug); };\n"
                              "  destination(d_all);\n"
                              "};");
  SlCfgNode *log = child (root, 0);
  SlCfgNode *branch = child (log, 1);
  SlCfgNode *elif;

  assert_node (log, "log", 0, 4, TRUE);
  assert_node (branch, "if", 0, 5, FALSE);
  assert_pos (branch->pos, "test.conf", 2, 3);
  assert_node (child (branch, 0), "condition", 0, 1, FALSE);
  assert_pos (child (branch, 0)->pos, "test.conf", 2, 6);
  assert_node (child (child (branch, 0), 0), "and", 0, 2, FALSE);
  assert_node (child (branch, 1), "then", 0, 1, TRUE);
  assert_node (child (child (branch, 1), 0), "destination", 1, 0, FALSE);

  elif = child (branch, 2);
  assert_node (elif, "elif", 0, 2, FALSE);
  assert_node (child (elif, 0), "condition", 0, 1, FALSE);
  assert_node (child (child (elif, 0), 0), "compare", 3, 0, FALSE);
  assert_node (child (elif, 1), "then", 0, 2, TRUE);
  assert_node (child (branch, 3), "elif", 0, 2, FALSE);
  assert_node (child (branch, 4), "else", 0, 2, TRUE);
  assert_node (child (child (branch, 4), 1), "log", 0, 1, TRUE);

  assert_node (child (log, 2), "if", 0, 2, FALSE);
  assert_node (child (log, 3), "destination", 1, 0, FALSE);
  sl_cfg_node_free (root);
}

static void
test_junction (void)
{
  SlCfgNode *root = parse_ok ("log { source(s);\n"
                              "  junction {\n"
                              "    channel { filter(f_a); destination(d_a); };\n"
                              "    channel { destination(d_b); flags(final); };\n"
                              "  };\n"
                              "  channel { destination(d_c); };\n"
                              "};");
  SlCfgNode *junction = child (child (root, 0), 1);

  assert_node (junction, "junction", 0, 2, TRUE);
  assert_node (child (junction, 0), "channel", 0, 2, TRUE);
  assert_node (child (junction, 1), "channel", 0, 2, TRUE);
  assert_node (child (child (junction, 1), 1), "flags", 1, 0, FALSE);
  assert_node (child (child (root, 0), 2), "channel", 0, 1, TRUE);
  sl_cfg_node_free (root);
}

static void
test_templates (void)
{
  SlCfgNode *root = parse_ok ("template t_long { template(\"${ISODATE} ${MSG}\\n\"); template-escape(yes); };\n"
                              "template t_short \"${MSG}\\n\";\n"
                              "template-function tf \"$(echo ${HOST})\";\n"
                              "template_function tf2 'x';\n");
  SlCfgNode *shorter = child (root, 1);

  assert_node (child (root, 0), "template", 1, 2, TRUE);
  assert_node (child (child (root, 0), 1), "template-escape", 1, 0, FALSE);
  assert_node (shorter, "template", 1, 1, FALSE);
  assert_arg (shorter, 0, SL_CFG_ARG_WORD, "t_short");
  assert_node (child (shorter, 0), "template", 1, 0, FALSE);
  assert_arg (child (shorter, 0), 0, SL_CFG_ARG_STRING, "${MSG}\n");
  assert_pos (child (shorter, 0)->pos, "test.conf", 2, 18);
  assert_node (child (root, 2), "template-function", 1, 1, FALSE);
  assert_node (child (root, 3), "template-function", 1, 1, FALSE);
  sl_cfg_node_free (root);
}

static void
test_names (void)
{
  SlCfgNode *root = parse_ok ("options { flow_control(yes); log-fifo-size(1000); };\n"
                              "log { source(s); flags(flow_control); };");
  SlCfgNode *options = child (root, 0);
  g_autofree gchar *normalized = sl_cfg_name_normalize ("log_fifo_size");

  /* names stay as written; lookups treat '-' and '_' alike */
  g_assert_cmpstr (child (options, 0)->name, ==, "flow_control");
  g_assert_true (sl_cfg_node_child (options, "flow-control") == child (options, 0));
  g_assert_true (sl_cfg_node_child (options, "log_fifo_size") == child (options, 1));
  g_assert_null (sl_cfg_node_child (options, "flow-controls"));
  assert_arg (child (child (root, 1), 1), 0, SL_CFG_ARG_WORD, "flow_control");

  g_assert_true (sl_cfg_name_equal ("flow-control", "flow_control"));
  g_assert_true (sl_cfg_name_equal ("a_b-c", "a-b_c"));
  g_assert_false (sl_cfg_name_equal ("a-b", "a-c"));
  g_assert_false (sl_cfg_name_equal ("ab", "abc"));
  g_assert_false (sl_cfg_name_equal ("Source", "source"));
  g_assert_true (sl_cfg_name_equal (NULL, NULL));
  g_assert_false (sl_cfg_name_equal ("a", NULL));
  g_assert_cmpstr (normalized, ==, "log-fifo-size");
  sl_cfg_node_free (root);
}

static void
test_tree_api (void)
{
  SlCfgPos pos = { sl_cfg_intern_file ("api.conf"), 3, 4 };
  SlCfgNode *tcp = sl_cfg_node_new ("tcp", pos);
  SlCfgNode *port = sl_cfg_node_new ("port", pos);
  g_autofree gchar *printed = NULL;
  g_autofree gchar *file = g_strdup ("api.conf");

  sl_cfg_node_add_arg (port, SL_CFG_ARG_WORD, "514", pos);
  sl_cfg_node_add_arg (tcp, SL_CFG_ARG_STRING, "host", pos);
  sl_cfg_node_add_child (tcp, port);
  g_assert_cmpstr (sl_cfg_node_arg (tcp, 0), ==, "host");
  g_assert_null (sl_cfg_node_arg (tcp, 1));
  g_assert_true (sl_cfg_node_child (tcp, "port") == port);
  g_assert_null (sl_cfg_node_child (tcp, "ip"));
  g_assert_true (sl_cfg_intern_file (file) == pos.file);
  printed = sl_cfg_node_to_string (tcp);
  g_assert_cmpstr (printed, ==, "tcp(\"host\" port(514))");
  sl_cfg_node_free (tcp);
  sl_cfg_node_free (NULL);
}

static void
test_print (void)
{
  assert_prints ("@version: 4.0\n"
                 "options { stats(freq(0)); };\n"
                 "source s_net { tcp(ip(\"0.0.0.0\") port(514)); udp(port(514)); };\n"
                 "filter f_err { level(err..emerg) and not facility(mail, news); };\n"
                 "template t \"$MSG\\n\";\n"
                 "log { source(s_net); filter(f_err); flags(flow-control); };\n",
                 "@version: 4.0\n"
                 "options { stats(freq(0)); };\n"
                 "source s_net { tcp(ip(\"0.0.0.0\") port(514)); udp(port(514)); };\n"
                 "filter f_err { level(err..emerg) and not facility(mail news); };\n"
                 "template t \"$MSG\\n\";\n"
                 "log { source(s_net); filter(f_err); flags(flow-control); };\n");
  /* parentheses only where the shape needs them */
  assert_prints ("filter f { (a() and b()) or (c() or d()) and not (e() or f()); };",
                 "filter f { a() and b() or (c() or d()) and not (e() or f()); };\n");
  assert_prints ("filter f { a() and (b() and c()) or (d() or e()); };",
                 "filter f { a() and (b() and c()) or (d() or e()); };\n");
  assert_prints ("filter f { a(); \"$X\" == 'y'; };", "filter f { a() and \"$X\" == \"y\"; };\n");
  assert_prints ("log { if (a()) { destination(d); } elif (b()) { } else { log { destination(e); }; }; };",
                 "log { if (a()) { destination(d); } elif (b()) { } else { log { destination(e); }; }; };\n");
  assert_prints ("log { source { tcp(); }; filter { a() or b(); }; junction { channel { destination(x); }; }; };",
                 "log { source { tcp(); }; filter { a() or b(); }; junction { channel { destination(x); }; }; };\n");
  assert_prints ("destination d { python(options { a(1); }); };", "destination d { python(options { a(1); }); };\n");
  assert_prints ("rewrite r { set(\"x\" value(\"y\") condition(a() and (b() or not c()))); };",
                 "rewrite r { set(\"x\" value(\"y\") condition(a() and (b() or not c()))); };\n");
  /* strings print with the escapes that read back to the same value */
  assert_prints ("destination d { file(\"a\\\"b\\\\c\\n\\t\\x01 ``\"); };",
                 "destination d { file(\"a\\\"b\\\\c\\n\\t\\x01 ``\"); };\n");
}

/* Debian's default syslog-ng.conf, brought to 4.x syntax. */
static const gchar debian_conf[] =
  "@version: 4.0\n"
  "@include \"scl.conf\"\n"
  "\n"
  "# Syslog-ng configuration file, compatible with default Debian syslogd\n"
  "# installation.\n"
  "\n"
  "# First, set some global options.\n"
  "options { chain_hostnames(off); flush_lines(0); use_dns(no); use_fqdn(no);\n"
  "\t  dns_cache(no); owner(\"root\"); group(\"adm\"); perm(0640);\n"
  "\t  stats(freq(0)); bad_hostname(\"^gconfd$\");\n"
  "};\n"
  "\n"
  "########################\n"
  "# Sources\n"
  "########################\n"
  "source s_src {\n"
  "       system();\n"
  "       internal();\n"
  "};\n"
  "\n"
  "#source s_net { tcp(ip(127.0.0.1) port(1000)); };\n"
  "source s_dev_log { unix-dgram(\"/dev/log\"); };\n"
  "\n"
  "########################\n"
  "# Destinations\n"
  "########################\n"
  "destination d_auth { file(\"/var/log/auth.log\"); };\n"
  "destination d_cron { file(\"/var/log/cron.log\"); };\n"
  "destination d_daemon { file(\"/var/log/daemon.log\"); };\n"
  "destination d_kern { file(\"/var/log/kern.log\"); };\n"
  "destination d_lpr { file(\"/var/log/lpr.log\"); };\n"
  "destination d_mail { file(\"/var/log/mail.log\"); };\n"
  "destination d_syslog { file(\"/var/log/syslog\"); };\n"
  "destination d_user { file(\"/var/log/user.log\"); };\n"
  "destination d_uucp { file(\"/var/log/uucp.log\"); };\n"
  "destination d_mailinfo { file(\"/var/log/mail.info\"); };\n"
  "destination d_mailwarn { file(\"/var/log/mail.warn\"); };\n"
  "destination d_mailerr { file(\"/var/log/mail.err\"); };\n"
  "destination d_newscrit { file(\"/var/log/news/news.crit\"); };\n"
  "destination d_newserr { file(\"/var/log/news/news.err\"); };\n"
  "destination d_newsnotice { file(\"/var/log/news/news.notice\"); };\n"
  "destination d_debug { file(\"/var/log/debug\"); };\n"
  "destination d_error { file(\"/var/log/error\"); };\n"
  "destination d_messages { file(\"/var/log/messages\"); };\n"
  "destination d_console { usertty(\"root\"); };\n"
  "destination d_console_all { file(`tty10`); };\n"
  "destination d_xconsole { pipe(\"/dev/xconsole\"); };\n"
  "#destination d_net { tcp(\"127.0.0.1\" port(1000) log_fifo_size(1000)); };\n"
  "destination d_ppp { file(\"/var/log/ppp.log\"); };\n"
  "\n"
  "########################\n"
  "# Filters\n"
  "########################\n"
  "filter f_dbg { level(debug); };\n"
  "filter f_info { level(info); };\n"
  "filter f_notice { level(notice); };\n"
  "filter f_warn { level(warn); };\n"
  "filter f_err { level(err); };\n"
  "filter f_crit { level(crit .. emerg); };\n"
  "\n"
  "filter f_debug { level(debug) and not facility(auth, authpriv, news, mail); };\n"
  "filter f_error { level(err .. emerg) ; };\n"
  "filter f_messages { level(info,notice,warn) and\n"
  "                    not facility(auth,authpriv,cron,daemon,mail,news); };\n"
  "\n"
  "filter f_auth { facility(auth, authpriv) and not filter(f_debug); };\n"
  "filter f_cron { facility(cron) and not filter(f_debug); };\n"
  "filter f_daemon { facility(daemon) and not filter(f_debug); };\n"
  "filter f_kern { facility(kern) and not filter(f_debug); };\n"
  "filter f_lpr { facility(lpr) and not filter(f_debug); };\n"
  "filter f_local { facility(local0, local1, local3, local4, local5,\n"
  "                        local6, local7) and not filter(f_debug); };\n"
  "filter f_mail { facility(mail) and not filter(f_debug); };\n"
  "filter f_news { facility(news) and not filter(f_debug); };\n"
  "filter f_syslog3 { not facility(auth, authpriv, mail) and not filter(f_debug); };\n"
  "filter f_user { facility(user) and not filter(f_debug); };\n"
  "filter f_uucp { facility(uucp) and not filter(f_debug); };\n"
  "\n"
  "filter f_cnews { level(notice, err, crit) and facility(news); };\n"
  "filter f_cother { level(debug, info, notice, warn) or facility(daemon, mail); };\n"
  "\n"
  "filter f_ppp { facility(local2) and not filter(f_debug); };\n"
  "filter f_console { level(warn .. emerg); };\n"
  "\n"
  "########################\n"
  "# Log paths\n"
  "########################\n"
  "log { source(s_src); filter(f_auth); destination(d_auth); };\n"
  "log { source(s_src); filter(f_cron); destination(d_cron); };\n"
  "log { source(s_src); filter(f_daemon); destination(d_daemon); };\n"
  "log { source(s_src); filter(f_kern); destination(d_kern); };\n"
  "log { source(s_src); filter(f_lpr); destination(d_lpr); };\n"
  "log { source(s_src); filter(f_syslog3); destination(d_syslog); };\n"
  "log { source(s_src); filter(f_user); destination(d_user); };\n"
  "log { source(s_src); filter(f_uucp); destination(d_uucp); };\n"
  "\n"
  "log { source(s_src); filter(f_mail); destination(d_mail); };\n"
  "#log { source(s_src); filter(f_mail); filter(f_info); destination(d_mailinfo); };\n"
  "log { source(s_src); filter(f_mail); filter(f_err); destination(d_mailerr); };\n"
  "\n"
  "log { source(s_src); filter(f_news); filter(f_crit); destination(d_newscrit); };\n"
  "log { source(s_src); filter(f_news); filter(f_err); destination(d_newserr); };\n"
  "log { source(s_src); filter(f_news); filter(f_notice); destination(d_newsnotice); };\n"
  "\n"
  "log { source(s_src); filter(f_dbg); destination(d_debug); flags(final); };\n"
  "log { source(s_src); filter(f_error); destination(d_error); };\n"
  "log { source(s_src); filter(f_messages); destination(d_messages); };\n"
  "\n"
  "log { source(s_src); filter(f_console); destination(d_console_all);\n"
  "\t\t\t\t    destination(d_xconsole); };\n"
  "log { source(s_src); filter(f_crit); destination(d_console); };\n"
  "\n"
  "###\n"
  "# Include all config files in conf.d/\n"
  "###\n"
  "@include \"conf.d/*.conf\"\n";

static guint
count_named (const SlCfgNode *root, const gchar *name)
{
  guint n = 0;

  for (guint i = 0; i < root->children->len; i++)
    n += g_str_equal (child (root, i)->name, name);
  return n;
}

static SlCfgNode *
find_object (const SlCfgNode *root, const gchar *kind, const gchar *name)
{
  for (guint i = 0; i < root->children->len; i++)
    {
      SlCfgNode *node = child (root, i);

      if (g_str_equal (node->name, kind) && g_strcmp0 (sl_cfg_node_arg (node, 0), name) == 0)
        return node;
    }
  g_assert_not_reached ();
}

static void
test_debian_conf (void)
{
  g_autofree gchar *dir = make_temp_dir ();
  g_autofree gchar *main_path = write_file (dir, "syslog-ng.conf", debian_conf);
  g_autofree gchar *scl = write_file (dir, "scl.conf", "@define tty10 \"/dev/tty10\"\n");
  g_autofree gchar *extra = write_file (dir, "conf.d/local.conf",
                                        "log { source(s_dev_log); destination(d_messages); flags(final); };\n");
  SlCfgNode *root = parse_file_ok (main_path);
  SlCfgNode *options = child (root, 0);
  SlCfgNode *node;
  g_autofree gchar *printed = NULL;

  assert_arg (root, 0, SL_CFG_ARG_WORD, "4.0");
  g_assert_cmpuint (count_named (root, "options"), ==, 1);
  g_assert_cmpuint (count_named (root, "source"), ==, 2);
  g_assert_cmpuint (count_named (root, "destination"), ==, 22);
  g_assert_cmpuint (count_named (root, "filter"), ==, 24);
  g_assert_cmpuint (count_named (root, "log"), ==, 19);
  g_assert_cmpuint (root->children->len, ==, 68);

  assert_node (options, "options", 0, 10, TRUE);
  assert_pos (options->pos, main_path, 8, 1);
  node = sl_cfg_node_child (options, "stats");
  assert_node (node, "stats", 0, 1, FALSE);
  assert_node (child (node, 0), "freq", 1, 0, FALSE);
  assert_arg (sl_cfg_node_child (options, "bad-hostname"), 0, SL_CFG_ARG_STRING, "^gconfd$");

  node = find_object (root, "source", "s_src");
  assert_node (child (node, 0), "system", 0, 0, FALSE);
  assert_node (child (node, 1), "internal", 0, 0, FALSE);
  node = find_object (root, "source", "s_dev_log");
  assert_arg (child (node, 0), 0, SL_CFG_ARG_STRING, "/dev/log");
  g_assert_cmpstr (child (node, 0)->name, ==, "unix-dgram");

  node = find_object (root, "destination", "d_auth");
  assert_arg (child (node, 0), 0, SL_CFG_ARG_STRING, "/var/log/auth.log");
  node = find_object (root, "destination", "d_console_all");
  assert_arg (child (node, 0), 0, SL_CFG_ARG_WORD, "/dev/tty10");

  node = find_object (root, "filter", "f_dbg");
  assert_node (child (node, 0), "level", 1, 0, FALSE);
  node = find_object (root, "filter", "f_crit");
  g_assert_cmpuint (child (node, 0)->args->len, ==, 3);
  node = find_object (root, "filter", "f_messages");
  printed = sl_cfg_node_to_string (node);
  g_assert_cmpstr (printed, ==, "filter f_messages { level(info notice warn) and "
                                "not facility(auth authpriv cron daemon mail news); };");
  assert_node (child (child (child (node, 0), 1), 0), "facility", 6, 0, FALSE);

  /* the last log comes from conf.d, after everything in the main file */
  node = child (root, root->children->len - 1);
  assert_node (node, "log", 0, 3, TRUE);
  assert_node (child (node, 2), "flags", 1, 0, FALSE);
  assert_arg (child (node, 2), 0, SL_CFG_ARG_WORD, "final");
  g_assert_cmpstr (node->pos.file, ==, extra);

  node = child (root, root->children->len - 6);
  assert_node (node, "log", 0, 4, TRUE);
  assert_arg (child (node, 3), 0, SL_CFG_ARG_WORD, "final");

  sl_cfg_node_free (root);
  remove_tree (dir);
  (void) scl;
}

static void
test_include_file (void)
{
  g_autofree gchar *dir = make_temp_dir ();
  g_autofree gchar *main_path = write_file (dir, "main.conf",
                                            "source s_a { internal(); };\n"
                                            "@include \"sub/extra.conf\"\n"
                                            "log { source(s_a); source(s_b); destination(d_more); };\n");
  g_autofree gchar *extra = write_file (dir, "sub/extra.conf",
                                        "@define where \"sub\"\n"
                                        "\n"
                                        "source s_b { udp(); };\n"
                                        "@include \"more.conf\"\n");
  g_autofree gchar *more = write_file (dir, "sub/more.conf", "destination d_more { file(\"`where`\"); };");
  SlCfgNode *root = parse_file_ok (main_path);

  g_assert_cmpuint (root->children->len, ==, 4);
  assert_pos (root->pos, main_path, 1, 1);
  assert_pos (child (root, 0)->pos, main_path, 1, 1);
  assert_node (child (root, 1), "source", 1, 1, TRUE);
  assert_pos (child (root, 1)->pos, extra, 3, 1);
  assert_pos (child (child (root, 1), 0)->pos, extra, 3, 14);
  /* relative to the including file's directory, and defines carry over */
  assert_pos (child (root, 2)->pos, more, 1, 1);
  assert_arg (child (child (root, 2), 0), 0, SL_CFG_ARG_STRING, "sub");
  assert_pos (child (root, 3)->pos, main_path, 3, 1);

  sl_cfg_node_free (root);
  remove_tree (dir);
}

static void
test_include_glob (void)
{
  g_autofree gchar *dir = make_temp_dir ();
  g_autofree gchar *main_path = write_file (dir, "main.conf",
                                            "@include \"conf.d/*.conf\"\n"
                                            "@include \"nothing/*.conf\"\n"
                                            "@include \"conf.d/?0-a.conf\"\n"
                                            "log { };\n");
  g_autofree gchar *b = write_file (dir, "conf.d/20-b.conf", "source s_b { udp(); };");
  g_autofree gchar *a = write_file (dir, "conf.d/10-a.conf", "source s_a { tcp(); };");
  g_autofree gchar *txt = write_file (dir, "conf.d/notes.txt", "not a config");
  SlCfgNode *root = parse_file_ok (main_path);

  g_assert_cmpuint (root->children->len, ==, 4);
  assert_arg (child (root, 0), 0, SL_CFG_ARG_WORD, "s_a");
  assert_pos (child (root, 0)->pos, a, 1, 1);
  assert_arg (child (root, 1), 0, SL_CFG_ARG_WORD, "s_b");
  assert_pos (child (root, 1)->pos, b, 1, 1);
  assert_arg (child (root, 2), 0, SL_CFG_ARG_WORD, "s_a");
  assert_node (child (root, 3), "log", 0, 0, TRUE);

  sl_cfg_node_free (root);
  remove_tree (dir);
  (void) txt;
}

static void
test_include_directory (void)
{
  g_autofree gchar *dir = make_temp_dir ();
  g_autofree gchar *main_path = write_file (dir, "main.conf", "@include \"conf.d\"\nlog { };\n");
  g_autofree gchar *b = write_file (dir, "conf.d/b.conf", "source s_b { udp(); };");
  g_autofree gchar *a = write_file (dir, "conf.d/a.conf", "source s_a { tcp(); };");
  g_autofree gchar *hidden = write_file (dir, "conf.d/.hidden.conf", "broken {");
  g_autofree gchar *backup = write_file (dir, "conf.d/a.conf~", "broken {");
  g_autofree gchar *nested = write_file (dir, "conf.d/sub/c.conf", "broken {");
  SlCfgNode *root = parse_file_ok (main_path);

  g_assert_cmpuint (root->children->len, ==, 3);
  assert_pos (child (root, 0)->pos, a, 1, 1);
  assert_pos (child (root, 1)->pos, b, 1, 1);
  assert_node (child (root, 2), "log", 0, 0, TRUE);

  sl_cfg_node_free (root);
  remove_tree (dir);
  (void) hidden, (void) backup, (void) nested;
}

static void
test_include_absolute_and_string_input (void)
{
  g_autofree gchar *dir = make_temp_dir ();
  g_autofree gchar *inc = write_file (dir, "inc.conf", "source s { internal(); };\n");
  g_autofree gchar *text = g_strdup_printf ("@include \"%s\";\nlog { source(s); };", inc);
  SlCfgNode *root = parse_ok (text);

  g_assert_cmpuint (root->children->len, ==, 2);
  assert_pos (child (root, 0)->pos, inc, 1, 1);
  sl_cfg_node_free (root);
  remove_tree (dir);
}

static void
test_include_in_block (void)
{
  g_autofree gchar *dir = make_temp_dir ();
  g_autofree gchar *main_path = write_file (dir, "main.conf",
                                            "source s {\n"
                                            "  @include \"drivers.conf\"\n"
                                            "  internal();\n"
                                            "};\n");
  g_autofree gchar *drivers = write_file (dir, "drivers.conf", "tcp(port(1));\nudp();\n");
  SlCfgNode *root = parse_file_ok (main_path);
  SlCfgNode *s = child (root, 0);

  assert_node (s, "source", 1, 3, TRUE);
  assert_node (child (s, 0), "tcp", 0, 1, FALSE);
  assert_pos (child (s, 1)->pos, drivers, 2, 1);
  assert_node (child (s, 2), "internal", 0, 0, FALSE);
  sl_cfg_node_free (root);
  remove_tree (dir);
}

static void
test_include_missing (void)
{
  g_autofree gchar *dir = make_temp_dir ();
  g_autofree gchar *main_path = write_file (dir, "main.conf", "log { };\n@include \"missing.conf\"\n");
  g_autofree gchar *missing = g_build_filename (dir, "missing.conf", NULL);
  g_autofree gchar *path = g_strdup_printf ("%s/a:%s/b", dir, dir);
  g_autofree gchar *expected = g_strdup_printf ("%s:2:1: cannot find 'missing.conf' beside %s nor in the "
                                                "include path '%s'\n"
                                                "  @include \"missing.conf\"\n"
                                                "  ^", main_path, main_path, path);
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) no_file = NULL;

  sl_cfg_set_paths (path, NULL);
  g_assert_null (sl_cfg_parse_file (main_path, &error));
  sl_cfg_set_paths (NULL, NULL);
  g_assert_error (error, SL_CFG_ERROR, SL_CFG_ERROR_INCLUDE);
  g_assert_cmpstr (error->message, ==, expected);

  g_assert_null (sl_cfg_parse_file (missing, &no_file));
  g_assert_error (no_file, SL_CFG_ERROR, SL_CFG_ERROR_INCLUDE);
  g_assert_true (g_str_has_suffix (no_file->message, "missing.conf': No such file or directory"));
  remove_tree (dir);
}

static void
test_include_cycle (void)
{
  g_autofree gchar *dir = make_temp_dir ();
  g_autofree gchar *a = write_file (dir, "a.conf", "@include \"b.conf\"\n");
  g_autofree gchar *b = write_file (dir, "b.conf", "log { };\n@include \"a.conf\"\n");
  g_autofree gchar *self = write_file (dir, "self.conf", "@include \"self.conf\"\n");
  g_autofree gchar *expected = g_strdup_printf ("%s:2:1: circular @include: '%s' is already being read", b, a);
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) self_error = NULL;

  g_assert_null (sl_cfg_parse_file (a, &error));
  g_assert_error (error, SL_CFG_ERROR, SL_CFG_ERROR_INCLUDE);
  g_assert_true (g_str_has_prefix (error->message, expected));

  g_assert_null (sl_cfg_parse_file (self, &self_error));
  g_assert_error (self_error, SL_CFG_ERROR, SL_CFG_ERROR_INCLUDE);
  g_assert_nonnull (strstr (self_error->message, "circular @include"));
  remove_tree (dir);
}

static void
test_error_stops_parsing (void)
{
  g_autoptr (GError) error = NULL;

  g_assert_null (sl_cfg_parse_string ("source a { tcp(); };\nsource b { tcp( };\nbogus\n", "x.conf", &error));
  g_assert_error (error, SL_CFG_ERROR, SL_CFG_ERROR_SYNTAX);
  g_assert_true (g_str_has_prefix (error->message, "x.conf:2:17: "));
}


/* Blocks, pairs, applications, confgen, duplicates, the include path */

/* What text parses to, printed: blocks leave only what they expand to. */
static void
assert_expands (const gchar *text, const gchar *expected)
{
  SlCfgNode *root = parse_ok (text);
  g_autofree gchar *printed = sl_cfg_node_to_string (root);

  g_assert_cmpstr (printed, ==, expected);
  sl_cfg_node_free (root);
}

static void
test_block_parameters (void)
{
  assert_expands ("block destination d(path(\"/var/log/x\") mode(0640)) { file(\"`path`\" perm(`mode`)); };\n"
                  "destination x { d(path(\"/tmp/x\")); };\n"
                  "destination y { d(); };\n"
                  "destination z { d(mode(0600), path('/tmp/z')); };\n",
                  "destination x { file(\"/tmp/x\" perm(0640)); };\n"
                  "destination y { file(\"/var/log/x\" perm(0640)); };\n"
                  "destination z { file(\"/tmp/z\" perm(0600)); };\n");
  /* a value that is more than one string is put in as written; the body
   * may end without ';', the reference's own ends the driver */
  assert_expands ("block destination t(template(\"$MSG\\n\")) { file(\"/x\" template(`template`)) };\n"
                  "destination d { t(template(\"$HOST\" \"$MSG\")); t(); };\n",
                  "destination d { file(\"/x\" template(\"$HOST\" \"$MSG\")); file(\"/x\" template(\"$MSG\\n\")); };\n");
  /* '-' and '_' are the same in block and parameter names */
  assert_expands ("block source my_src(listen-port(514)) { tcp(port(`listen_port`)); };\n"
                  "source s { my-src(listen_port(601)); };\n",
                  "source s { tcp(port(601)); };\n");
  /* a define or an environment variable when no parameter has the name */
  assert_expands ("@define dir \"/srv\"\n"
                  "block destination d() { file(\"`dir`/x\"); };\n"
                  "destination x { d(); };\n",
                  "destination x { file(\"/srv/x\"); };\n");
}

static void
test_block_varargs (void)
{
  assert_expands ("block destination v(path(\"/a\") ...) { file(\"`path`\" `__VARARGS__`); };\n"
                  "destination z { v(perm(0600) owner(\"x\")); v(path(\"/b\")); };\n",
                  "destination z { file(\"/a\" perm(0600) owner(\"x\")); file(\"/b\"); };\n");
  /* defined, empty, in a block without `...` too (syslog-ng 4.8's
   * Jellyfin SCL uses it so) */
  assert_expands ("block destination w(path(\"/a\")) { file(\"`path`\" `__VARARGS__`); };\n"
                  "destination z { w(); };\n",
                  "destination z { file(\"/a\"); };\n");
  /* a comment in an argument is not part of its value: put in before a
   * ')', it would take that ')' */
  assert_expands ("block destination t(opts()) { file(\"/a\" perm(`opts`)); };\n"
                  "destination z { t(opts(\n  0600\n  # the owner's only\n)); };\n",
                  "destination z { file(\"/a\" perm(0600)); };\n");
}

/* Blocks used in blocks: the inner one's text carries both expansions. */
static void
test_block_nested (void)
{
  SlCfgNode *root = parse_ok ("block destination inner(p()) {\n"
                              "  file(\"`p`\");\n"
                              "};\n"
                              "block destination outer(p(\"/o\")) { inner(p(`p`)); };\n"
                              "destination o {\n"
                              "  outer();\n"
                              "};\n");
  SlCfgNode *file = child (child (root, 0), 0);
  const SlCfgExpansion *inner = file->pos.expansion;

  assert_node (file, "file", 1, 0, FALSE);
  assert_arg (file, 0, SL_CFG_ARG_STRING, "/o");
  assert_pos (file->pos, "test.conf", 2, 3);
  g_assert_nonnull (inner);
  g_assert_cmpstr (inner->block, ==, "inner");
  assert_pos (inner->used_at, "test.conf", 4, 36);
  g_assert_nonnull (inner->used_at.expansion);
  g_assert_cmpstr (inner->used_at.expansion->block, ==, "outer");
  assert_pos (inner->used_at.expansion->used_at, "test.conf", 6, 3);
  g_assert_null (inner->used_at.expansion->used_at.expansion);
  sl_cfg_node_free (root);
}

static void
test_block_contexts (void)
{
  assert_expands ("block source s1(port(514)) { tcp(port(`port`)); };\n"
                  "block parser p1() { csv-parser(columns(\"a\")); };\n"
                  "block rewrite r1(v(\"x\")) { set(\"`v`\" value(\"MSG\")); };\n"
                  "block filter f1(l(err)) { level(`l`) };\n"
                  "block log l1() { source(s); destination(d); };\n"
                  "block options o1() { flush-lines(5); };\n"
                  "block root r2(name(s_r)) { source `name` { s1(); }; };\n"
                  "source s { s1(port(601)); };\n"
                  "parser p { p1(); };\n"
                  "rewrite r { r1(); };\n"
                  "filter f { f1() and not f1(l(debug)) };\n"
                  "log { l1(); parser { p1(); }; rewrite { r1(v(y)); }; filter { f1(); }; flags(final); };\n"
                  "options { o1(); };\n"
                  "r2();\n"
                  "r2(name(s_other))\n",
                  "source s { tcp(port(601)); };\n"
                  "parser p { csv-parser(columns(\"a\")); };\n"
                  "rewrite r { set(\"x\" value(\"MSG\")); };\n"
                  "filter f { level(err) and not level(debug); };\n"
                  "log { source(s); destination(d); parser { csv-parser(columns(\"a\")); }; "
                  "rewrite { set(\"y\" value(\"MSG\")); }; filter { level(err); }; flags(final); };\n"
                  "options { flush-lines(5); };\n"
                  "source s_r { tcp(port(514)); };\n"
                  "source s_other { tcp(port(514)); };\n");
  /* a block is used only where its context is: elsewhere its name is a
   * driver like any other, found or refused when the driver is made */
  assert_expands ("block source s1() { internal(); };\n"
                  "destination d { s1(); };\n",
                  "destination d { s1(); };\n");
  /* an empty body leaves the reference's ';' alone, which is let through */
  assert_expands ("block destination nothing() { # commented out\n};\n"
                  "block root none() { };\n"
                  "destination d { nothing(); file(\"/x\"); nothing(); };\n"
                  "none();\n",
                  "destination d { file(\"/x\"); };\n");
  /* the SCL's bodies name the modules they need; that is kept at the top */
  assert_expands ("block destination need() {\n"
                  "  @requires http \"The need() driver needs http\"\n"
                  "  file(\"/x\");\n"
                  "};\n"
                  "destination d { need(); };\n",
                  "@requires http \"The need() driver needs http\"\n"
                  "destination d { file(\"/x\"); };\n");
  /* a path inside an object, as the SCL's parsers are written */
  assert_prints ("parser p { channel { parser { csv-parser(); }; filter { level(err) }; }; };\n",
                 "parser p { channel { parser { csv-parser(); }; filter { level(err); }; }; };\n");
  /* a later definition replaces an earlier one */
  assert_expands ("block source s1() { internal(); };\n"
                  "block source s1() { tcp(); };\n"
                  "source s { s1(); };\n",
                  "source s { tcp(); };\n");
}

static void
test_pairs (void)
{
  SlCfgNode *root = parse_ok ("destination k { kafka(config(\"acks\" => \"all\", linger => 5)\n"
                              "  headers(\"X\" => \"y\")); };\n");
  SlCfgNode *config = child (child (child (root, 0), 0), 0);
  const SlCfgArg *acks = g_ptr_array_index (config->args, 0);
  const SlCfgArg *linger = g_ptr_array_index (config->args, 1);

  assert_node (config, "config", 2, 0, FALSE);
  g_assert_cmpstr (acks->key, ==, "acks");
  g_assert_cmpstr (acks->value, ==, "all");
  g_assert_cmpint (acks->kind, ==, SL_CFG_ARG_STRING);
  assert_pos (acks->pos, "test.conf", 1, 30);
  g_assert_cmpstr (linger->key, ==, "linger");
  g_assert_cmpint (linger->kind, ==, SL_CFG_ARG_WORD);
  sl_cfg_node_free (root);

  assert_prints ("destination k { kafka(config(\"acks\" => \"all\" linger => 5)); };\n",
                 "destination k { kafka(config(\"acks\" => \"all\" \"linger\" => 5)); };\n");
}

/* syslog-ng 4's `"key" => LogTemplate("...")` of python()'s options. */
static void
test_pair_template (void)
{
  SlCfgNode *root = parse_ok ("destination d { python(options(\"k\" => LogTemplate(\"${HOST}\") e => LogTemplate())); };\n");
  SlCfgNode *options = child (child (child (root, 0), 0), 0);
  const SlCfgArg *k = g_ptr_array_index (options->args, 0);
  const SlCfgArg *e = g_ptr_array_index (options->args, 1);

  g_assert_cmpint (k->kind, ==, SL_CFG_ARG_TEMPLATE);
  g_assert_cmpstr (k->key, ==, "k");
  g_assert_cmpstr (k->value, ==, "${HOST}");
  g_assert_cmpint (e->kind, ==, SL_CFG_ARG_TEMPLATE);
  g_assert_cmpstr (e->value, ==, "");
  sl_cfg_node_free (root);

  assert_prints ("destination d { python(options(\"k\" => LogTemplate(\"$MSG\"))); };\n",
                 "destination d { python(options(\"k\" => LogTemplate(\"$MSG\"))); };\n");

  g_autoptr (GError) error = NULL;
  g_assert_null (sl_cfg_parse_string ("destination d { python(options(\"k\" => LogTemplate(\"a\" \"b\"))); };\n",
                                      "test.conf", &error));
  g_assert_nonnull (strstr (error->message, "test.conf:1:55: expected ')' after LogTemplate()'s template"));
}

static void
test_application (void)
{
  SlCfgNode *root = parse_ok ("@module appmodel\n"
                              "application cisco[syslog-raw] {\n"
                              "  filter { message(\": %\" type(string)); };\n"
                              "  parser { cisco-parser(); };\n"
                              "};\n");
  SlCfgNode *app = child (root, 1);

  assert_node (app, "application", 3, 0, FALSE);
  assert_arg (app, 0, SL_CFG_ARG_WORD, "cisco");
  assert_arg (app, 1, SL_CFG_ARG_WORD, "syslog-raw");
  g_assert_nonnull (strstr (sl_cfg_node_arg (app, 2), "cisco-parser();"));
  assert_pos (app->pos, "test.conf", 2, 1);
  sl_cfg_node_free (root);

  assert_prints ("application a[syslog] { parser { p(); }; };\n", "application a[syslog] { parser { p(); }; };\n");
}

/* The code of python {} is Python: braces in its strings and comments,
 * quotes of either kind, backticks and '#' are its own. */
static void
test_python_block (void)
{
  SlCfgNode *root = parse_ok ("python {\n"
                              "import re  # a comment's { brace\n"
                              "def f(msg):\n"
                              "    return '{%s}' % \"`x`\"\n"
                              "};\n"
                              "destination d { python(class(\"m.C\") options(\"a\" \"1\" \"b\" => \"2\")); };\n");
  SlCfgNode *code = child (root, 0);

  assert_node (code, "python", 1, 0, FALSE);
  assert_arg (code, 0, SL_CFG_ARG_STRING,
              "\nimport re  # a comment's { brace\ndef f(msg):\n    return '{%s}' % \"`x`\"\n");
  assert_pos (arg (code, 0)->pos, "test.conf", 1, 9);
  assert_node (child (root, 1), "destination", 1, 1, TRUE);
  sl_cfg_node_free (root);

  assert_prints ("python {\nx = {1: 2}\n};\n", "python {\nx = {1: 2}\n};\n");
}

static void
test_confgen (void)
{
  g_autofree gchar *dir = make_temp_dir ();
  g_autofree gchar *script = write_file (dir, "gen.sh", "echo \"file(\\\"/tmp/$confgen_path\\\");\"\n");
  g_autofree gchar *text = g_strdup_printf ("@module confgen context(destination) name(gen) exec(\"sh %s\")\n"
                                            "destination d { gen(path(x)); };\n", script);
  SlCfgNode *root = parse_ok (text);
  SlCfgNode *file = child (child (root, 1), 0);

  assert_node (file, "file", 1, 0, FALSE);
  assert_arg (file, 0, SL_CFG_ARG_STRING, "/tmp/x");
  g_assert_cmpstr (file->pos.expansion->block, ==, "gen");
  assert_pos (file->pos.expansion->used_at, "test.conf", 2, 17);
  sl_cfg_node_free (root);
  remove_tree (dir);
}

static void
test_allow_config_dups (void)
{
  assert_expands ("source s { internal(); };\n"
                  "@define allow-config-dups 1\n"
                  "source s { tcp(); };\n"
                  "log { source(s); };\n"
                  "log { source(s); };\n",
                  "source s { tcp(); };\n"
                  "log { source(s); };\n"
                  "log { source(s); };\n");
  /* without it both stay, and the configuration refuses the second */
  assert_expands ("source s { internal(); };\nsource s { tcp(); };\n",
                  "source s { internal(); };\nsource s { tcp(); };\n");
}

/* A relative @include is looked for beside the including file, then in
 * each folder of the include path: a file in the first that has it, a glob
 * in all of them. */
static void
test_include_path (void)
{
  g_autofree gchar *dir = make_temp_dir ();
  g_autofree gchar *path = g_strdup_printf ("%s/first:%s/second:%s/third", dir, dir, dir);
  g_autofree gchar *a = write_file (dir, "first/scl.conf", "@include 'scl/*/*.conf'\n");
  g_autofree gchar *b = write_file (dir, "second/scl.conf", "source never { internal(); };\n");
  g_autofree gchar *c = write_file (dir, "second/scl/a/plugin.conf", "source a { internal(); };\n");
  g_autofree gchar *d = write_file (dir, "third/scl/b/plugin.conf", "source b { internal(); };\n");
  g_autofree gchar *e = write_file (dir, "etc/beside.conf", "source beside { internal(); };\n");
  g_autofree gchar *f = write_file (dir, "second/beside.conf", "source never2 { internal(); };\n");
  g_autofree gchar *main_path = write_file (dir, "etc/main.conf",
                                            "@include \"scl.conf\"\n@include \"beside.conf\"\n");
  g_autofree gchar *printed = NULL;
  SlCfgNode *root;

  sl_cfg_set_paths (path, NULL);
  root = parse_file_ok (main_path);
  sl_cfg_set_paths (NULL, NULL);
  printed = sl_cfg_node_to_string (root);
  g_assert_cmpstr (printed, ==, "source a { internal(); };\nsource b { internal(); };\nsource beside { internal(); };\n");
  sl_cfg_node_free (root);
  remove_tree (dir);
}

/* syslog-ng's defines name Sluice's folders; include-path is the one
 * @include searches, and scl-root the first scl/ along it. */
static void
test_builtin_defines (void)
{
  g_autofree gchar *dir = make_temp_dir ();
  g_autofree gchar *scl = write_file (dir, "inc/scl/x/plugin.conf", "");
  g_autofree gchar *path = g_strdup_printf ("%s/none:%s/inc", dir, dir);
  g_autofree gchar *expected = g_strdup_printf ("destination d { file(\"%s/inc/scl|%s|%s/include|%s\"); };\n",
                                                dir, path, SL_DATADIR, SL_MODULE_DIR);

  sl_cfg_set_paths (path, "/elsewhere");
  assert_expands ("destination d { file(\"`scl-root`|`include-path`|`syslog-ng-data`/include|`module-install-dir`\"); };\n",
                  expected);
  assert_expands ("destination d { file(\"`module-path` `syslog-ng-sysconfdir` `syslog-ng-prefix`\"); };\n",
                  "destination d { file(\"/elsewhere " SL_SYSCONFDIR " " SL_PREFIX "\"); };\n");
  sl_cfg_set_paths (NULL, NULL);
  remove_tree (dir);
}

/* Debian's own configuration with the SCL installed by syslog-ng-scl: it
 * parses, and getvirtconsole() is what tty10.sh prints. */
static void
test_debian_stock_conf (void)
{
  static const gchar *const files[] = {
    "/etc/syslog-ng/syslog-ng.conf", "/etc/syslog-ng/scl.conf", "/usr/share/syslog-ng/include/scl/cisco/plugin.conf",
  };
  const gchar *srcdir = g_getenv ("SL_TOP_SRCDIR");

  if (!srcdir)
    {
      g_test_skip ("SL_TOP_SRCDIR is not set; run the test through `make check`");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    if (!g_file_test (files[i], G_FILE_TEST_EXISTS))
      {
        g_test_skip ("Debian's syslog-ng-core and syslog-ng-scl are not installed");
        return;
      }

  g_autofree gchar *dir = make_temp_dir ();
  g_autofree gchar *text = NULL;
  g_assert_true (g_file_get_contents (files[0], &text, NULL, NULL));
  g_autofree gchar *main_path = write_file (dir, "syslog-ng.conf", text);
  g_autofree gchar *printed = NULL;
  SlCfgNode *root;

  g_autofree gchar *path = g_strdup_printf ("%s/config/include:/usr/share/syslog-ng/include", srcdir);
  sl_cfg_set_paths (path, NULL);
  root = parse_file_ok (main_path);
  sl_cfg_set_paths (NULL, NULL);
  printed = sl_cfg_node_to_string (root);
  g_assert_nonnull (strstr (printed, "destination d_console_all { file(\"/dev/"));
  g_assert_nonnull (strstr (printed, "application cisco[syslog-raw]"));
  g_assert_nonnull (strstr (printed, "log { source(s_src); filter(f_crit); destination(d_console); };"));
  sl_cfg_node_free (root);
  remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/config-parser/source-shape", test_source_shape);
  g_test_add_func ("/config-parser/statement-kinds", test_statement_kinds);
  g_test_add_func ("/config-parser/arguments", test_arguments);
  g_test_add_func ("/config-parser/pragma/version", test_version);
  g_test_add_func ("/config-parser/pragma/module-requires", test_module_and_requires);
  g_test_add_func ("/config-parser/pragma/define", test_define);
  g_test_add_func ("/config-parser/pragma/define-environment", test_define_environment);
  g_test_add_func ("/config-parser/pragma/semicolons", test_pragma_semicolons);
  g_test_add_func ("/config-parser/filter/precedence", test_filter_precedence);
  g_test_add_func ("/config-parser/filter/comparisons", test_filter_comparisons);
  g_test_add_func ("/config-parser/filter/functions", test_filter_functions);
  g_test_add_func ("/config-parser/filter/rule-condition", test_rule_condition);
  g_test_add_func ("/config-parser/log/shapes", test_log_shapes);
  g_test_add_func ("/config-parser/log/if-elif-else", test_if_elif_else);
  g_test_add_func ("/config-parser/log/junction", test_junction);
  g_test_add_func ("/config-parser/templates", test_templates);
  g_test_add_func ("/config-parser/names", test_names);
  g_test_add_func ("/config-parser/tree-api", test_tree_api);
  g_test_add_func ("/config-parser/print", test_print);
  g_test_add_func ("/config-parser/debian-conf", test_debian_conf);
  g_test_add_func ("/config-parser/include/file", test_include_file);
  g_test_add_func ("/config-parser/include/glob", test_include_glob);
  g_test_add_func ("/config-parser/include/directory", test_include_directory);
  g_test_add_func ("/config-parser/include/absolute", test_include_absolute_and_string_input);
  g_test_add_func ("/config-parser/include/in-block", test_include_in_block);
  g_test_add_func ("/config-parser/include/missing", test_include_missing);
  g_test_add_func ("/config-parser/include/cycle", test_include_cycle);
  g_test_add_func ("/config-parser/include/path", test_include_path);
  g_test_add_func ("/config-parser/error-stops-parsing", test_error_stops_parsing);
  g_test_add_func ("/config-parser/block/parameters", test_block_parameters);
  g_test_add_func ("/config-parser/block/varargs", test_block_varargs);
  g_test_add_func ("/config-parser/block/nested", test_block_nested);
  g_test_add_func ("/config-parser/block/contexts", test_block_contexts);
  g_test_add_func ("/config-parser/pairs", test_pairs);
  g_test_add_func ("/config-parser/pair-template", test_pair_template);
  g_test_add_func ("/config-parser/application", test_application);
  g_test_add_func ("/config-parser/python-block", test_python_block);
  g_test_add_func ("/config-parser/confgen", test_confgen);
  g_test_add_func ("/config-parser/allow-config-dups", test_allow_config_dups);
  g_test_add_func ("/config-parser/builtin-defines", test_builtin_defines);
  g_test_add_func ("/config-parser/debian-stock-conf", test_debian_stock_conf);

  return g_test_run ();
}
