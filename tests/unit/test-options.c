#include "core/config/error.h"
#include "core/config/parser.h"
#include "core/options.h"

#include <string.h>

static const SlOptionSpec specs[] = {
  { "path", SL_OPT_STRING, NULL, "", NULL, TRUE },
  { "port", SL_OPT_INT, "514", "" },
  { "keep-hostname", SL_OPT_BOOL, "no", "" },
  { "flags", SL_OPT_FLAGS, "no-parse", "", "no-parse,syslog-protocol,store-raw-message" },
  { "tags", SL_OPT_LIST, NULL, "" },
  { "log-fifo-size", SL_OPT_INT, "100", "" },
  { "logrotate", SL_OPT_BLOCK, NULL, "" },
  { NULL }
};

/* The first driver of the first statement of text, and the options {} node. */
static SlCfgNode *
parse (const gchar *text, const SlCfgNode **driver, const SlCfgNode **globals)
{
  GError *error = NULL;
  SlCfgNode *root = sl_cfg_parse_string (text, "opts.conf", &error);
  g_assert_no_error (error);
  *globals = NULL;
  *driver = NULL;
  for (guint i = 0; i < root->children->len; i++)
    {
      const SlCfgNode *n = g_ptr_array_index (root->children, i);
      if (strcmp (n->name, "options") == 0)
        *globals = n;
      else if (!*driver)
        *driver = g_ptr_array_index (n->children, 0);
    }
  return root;
}

static gchar *
error_of (const gchar *text)
{
  const SlCfgNode *driver, *globals;
  SlCfgNode *root = parse (text, &driver, &globals);
  GError *error = NULL;
  SlOptions *o = sl_options_new ("drv()", specs, driver, globals, &error);
  g_assert_null (o);
  g_assert_nonnull (error);
  gchar *message = g_strdup (error->message);
  g_error_free (error);
  sl_cfg_node_free (root);
  return message;
}

static void
test_values_defaults_and_globals (void)
{
  const SlCfgNode *driver, *globals;
  SlCfgNode *root = parse ("options { log_fifo_size(2000); keep-hostname(yes); };\n"
                           "destination d { drv(\"/tmp/x\" port(0x10) keep_hostname(no) flags(store-raw-message, syslog_protocol) tags(a b \"c d\") logrotate(size(1M))); };\n",
                           &driver, &globals);
  GError *error = NULL;
  SlOptions *o = sl_options_new ("drv()", specs, driver, globals, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sl_options_string (o, "path"), ==, "/tmp/x");
  g_assert_cmpint (sl_options_int (o, "port"), ==, 16);
  g_assert_false (sl_options_bool (o, "keep-hostname"));   /* the driver's own beats options {} */
  g_assert_cmpint (sl_options_int (o, "log-fifo-size"), ==, 2000);
  g_assert_true (sl_options_is_set (o, "log-fifo-size"));
  g_assert_cmpuint (sl_options_flags (o, "flags"), ==, (1u << 1) | (1u << 2));
  GPtrArray *tags = sl_options_list (o, "tags");
  g_assert_cmpuint (tags->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (tags, 2), ==, "c d");
  const SlCfgNode *block = sl_options_block (o, "logrotate");
  g_assert_nonnull (block);
  g_assert_cmpstr (sl_cfg_node_arg (sl_cfg_node_child (block, "size"), 0), ==, "1M");
  g_assert_true (sl_options_has (o, "tags"));
  g_assert_false (sl_options_has (o, "nonsense"));
  g_assert_cmpint (sl_options_pos (o, "port").line, ==, 2);
  /* a positional value is set, and its position is the value's own */
  g_assert_true (sl_options_is_set (o, "path"));
  g_assert_cmpint (sl_options_pos (o, "path").line, ==, 2);
  g_assert_cmpint (sl_options_pos (o, "path").column, ==, 21);
  sl_options_free (o);
  sl_cfg_node_free (root);
}

static void
test_defaults (void)
{
  const SlCfgNode *driver, *globals;
  SlCfgNode *root = parse ("source s { drv(); };\n", &driver, &globals);
  SlOptions *o = sl_options_new ("drv()", specs, driver, NULL, NULL);
  g_assert_nonnull (o);
  g_assert_null (sl_options_string (o, "path"));
  g_assert_cmpint (sl_options_int (o, "port"), ==, 514);
  g_assert_cmpuint (sl_options_flags (o, "flags"), ==, 1);
  g_assert_false (sl_options_is_set (o, "port"));
  g_assert_null (sl_options_list (o, "tags"));
  sl_options_free (o);
  sl_cfg_node_free (root);
}

static void
test_size_suffixes (void)
{
  const SlCfgNode *driver, *globals;
  SlCfgNode *root = parse ("source s { drv(port(4k) log-fifo-size(2MiB)); };\n", &driver, &globals);
  SlOptions *o = sl_options_new ("drv()", specs, driver, NULL, NULL);
  g_assert_cmpint (sl_options_int (o, "port"), ==, 4096);
  g_assert_cmpint (sl_options_int (o, "log-fifo-size"), ==, 2 * 1024 * 1024);
  sl_options_free (o);
  sl_cfg_node_free (root);
}

static void
test_errors (void)
{
  gchar *m = error_of ("source s { drv(prot(514)); };\n");
  g_assert_cmpstr (m, ==, "opts.conf:1:16: unknown option 'prot' in drv(); did you mean 'port'?\n"
                          "  source s { drv(prot(514)); };\n"
                          "                 ^");
  g_free (m);

  m = error_of ("source s { drv(port(abc)); };\n");
  g_assert_nonnull (strstr (m, "opts.conf:1:21: option 'port' of drv() expects a number, got 'abc'"));
  g_free (m);

  m = error_of ("source s { drv(keep-hostname(maybe)); };\n");
  g_assert_nonnull (strstr (m, "expects yes or no, got 'maybe'"));
  g_free (m);

  m = error_of ("source s { drv(flags(no-prase)); };\n");
  g_assert_nonnull (strstr (m, "unknown flag 'no-prase' in flags(); expected any of: no-parse,syslog-protocol,store-raw-message"));
  g_free (m);

  m = error_of ("source s { drv(port(1 2)); };\n");
  g_assert_nonnull (strstr (m, "option 'port' of drv() takes one value, got 2"));
  g_free (m);

  m = error_of ("source s { drv(\"a\" \"b\"); };\n");
  g_assert_nonnull (strstr (m, "drv() takes one bare value, 'b' is one too many"));
  g_free (m);

  m = error_of ("source s { drv(zzzzzz(1)); };\n");
  g_assert_nonnull (strstr (m, "unknown option 'zzzzzz' in drv(); it takes: path, port,"));
  g_free (m);

  m = error_of ("source s { drv(port(nested(1))); };\n");
  g_assert_nonnull (strstr (m, "option 'port' of drv() takes a value, not 'nested(...)'"));
  g_free (m);

  m = error_of ("options { port(x); };\nsource s { drv(); };\n");
  g_assert_nonnull (strstr (m, "opts.conf:1:16: option 'port' of options expects a number, got 'x'"));
  g_free (m);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/options/values", test_values_defaults_and_globals);
  g_test_add_func ("/options/defaults", test_defaults);
  g_test_add_func ("/options/size-suffixes", test_size_suffixes);
  g_test_add_func ("/options/errors", test_errors);
  return g_test_run ();
}
