/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/config/error.h"
#include "core/config/parser.h"
#include "core/plugin/options.h"

#include <string.h>

/* A driver's struct as a plugin would declare it. */
typedef struct
{
  const gchar *path;
  gint port;
  gboolean keep_hostname;
  guint32 flags;
  GPtrArray *tags;
  gint fifo_size;
  const SlCfgNode *logrotate;
  gint64 buffer;
  gint64 reopen;
  gint64 flush;
  gint mode;
  const gchar *address;
  GPtrArray *config;
  const gchar *send_zone;
  const gchar *recv_zone;
} Drv;

enum { MODE_FAST = 1, MODE_SAFE = 2 };
enum { F_NO_PARSE = 1 << 0, F_PROTOCOL = 1 << 4, F_RAW = 1 << 9 };

static const SlOptionWord flag_words[] = {
  { "no-parse", F_NO_PARSE }, { "syslog-protocol", F_PROTOCOL }, { "store-raw-message", F_RAW }, { NULL }
};
static const SlOptionWord mode_words[] = { { "fast", MODE_FAST }, { "safe", MODE_SAFE }, { NULL } };

static const SlOptionSpec specs[] = {
  { "path", SL_STRING (Drv, path), NULL, "", .flags = SL_OPT_POSITIONAL },
  { "port", SL_INT (Drv, port), "514", "" },
  { "keep-hostname", SL_BOOL (Drv, keep_hostname), "no", "", .inherit = "keep-hostname" },
  { "flags", SL_FLAGS (Drv, flags), "no-parse", "", .words = flag_words },
  { "tags", SL_LIST (Drv, tags), NULL, "" },
  { "log-fifo-size", SL_INT (Drv, fifo_size), "100", "", .inherit = "log-fifo-size" },
  { "logrotate", SL_BLOCK (Drv, logrotate), NULL, "" },
  { "buffer", SL_SIZE (Drv, buffer), "64k", "" },
  { "reopen", SL_DURATION (Drv, reopen), "60", "", .inherit = "time-reopen" },
  { "flush", SL_DURATION_MS (Drv, flush), "1000", "" },
  { "mode", SL_CHOICE (Drv, mode), "safe", "", .words = mode_words },
  { "ip", SL_STRING (Drv, address), "0.0.0.0", "" },
  { "localip", SL_STRING (Drv, address), NULL, "the same as ip()" },
  { "legacy", SL_UNBOUND (SL_OPT_INT), "3", "" },
  { "config", SL_PAIRS (Drv, config), NULL, "" },
  { "send-zone", SL_STRING (Drv, send_zone), NULL, "", .inherit = "send-time-zone" },
  { "recv-zone", SL_STRING (Drv, recv_zone), NULL, "", .inherit = "recv-time-zone" },
  { NULL }
};
static const SlOptionSpec *const tables[] = { specs, NULL };

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

/* The options of text's driver, bound into *d; the root node is kept in *root. */
static SlOptions *
bind (const gchar *text, Drv *d, SlCfgNode **root)
{
  const SlCfgNode *driver, *globals;
  *root = parse (text, &driver, &globals);
  GError *error = NULL;
  SlOptions *o = sl_options_new ("drv()", tables, NULL, driver, globals, &error);
  g_assert_no_error (error);
  memset (d, 0, sizeof *d);
  g_assert_true (sl_options_bind (o, specs, d, NULL, &error));
  g_assert_no_error (error);
  return o;
}

static gchar *
error_of (const gchar *text)
{
  const SlCfgNode *driver, *globals;
  SlCfgNode *root = parse (text, &driver, &globals);
  GError *error = NULL;
  SlOptions *o = sl_options_new ("drv()", tables, NULL, driver, globals, &error);
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
  SlCfgNode *root;
  Drv d;
  SlOptions *o = bind ("options { log_fifo_size(2000); keep-hostname(yes); time-reopen(5); };\n"
                       "destination d { drv(\"/tmp/x\" port(0x10) keep_hostname(no) flags(store-raw-message, syslog_protocol)"
                       " tags(a b \"c d\") logrotate(size(1M))); };\n",
                       &d, &root);
  g_assert_cmpstr (d.path, ==, "/tmp/x");
  g_assert_cmpint (d.port, ==, 16);
  g_assert_false (d.keep_hostname);   /* the driver's own beats options {} */
  g_assert_cmpint (d.fifo_size, ==, 2000);
  g_assert_cmpint (d.reopen, ==, 5000);  /* inherited under another name */
  g_assert_true (sl_options_is_set (o, "log-fifo-size"));
  g_assert_cmpuint (d.flags, ==, F_PROTOCOL | F_RAW);
  g_assert_cmpuint (d.tags->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (d.tags, 2), ==, "c d");
  g_assert_nonnull (d.logrotate);
  g_assert_cmpstr (sl_cfg_node_arg (sl_cfg_node_child (d.logrotate, "size"), 0), ==, "1M");
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
  SlCfgNode *root;
  Drv d;
  SlOptions *o = bind ("source s { drv(); };\n", &d, &root);
  g_assert_null (d.path);
  g_assert_cmpint (d.port, ==, 514);
  g_assert_cmpuint (d.flags, ==, F_NO_PARSE);
  g_assert_false (sl_options_is_set (o, "port"));
  g_assert_null (d.tags);
  g_assert_cmpint (d.buffer, ==, 64 * 1024);
  g_assert_cmpint (d.reopen, ==, 60000);
  g_assert_cmpint (d.flush, ==, 1000);
  g_assert_cmpint (d.mode, ==, MODE_SAFE);
  g_assert_cmpstr (d.address, ==, "0.0.0.0");
  sl_options_free (o);
  sl_cfg_node_free (root);

  /* a class's own default for an option wins over the table's */
  const SlCfgNode *driver, *globals;
  root = parse ("source s { drv(); };\n", &driver, &globals);
  const gchar *const overrides[] = { "port", "601", "mode", "fast", NULL };
  o = sl_options_new ("drv()", tables, overrides, driver, NULL, NULL);
  g_assert_true (sl_options_bind (o, specs, &d, NULL, NULL));
  g_assert_cmpint (d.port, ==, 601);
  g_assert_cmpint (d.mode, ==, MODE_FAST);
  sl_options_free (o);
  sl_cfg_node_free (root);
}

static void
test_sizes_durations_and_aliases (void)
{
  SlCfgNode *root;
  Drv d;
  SlOptions *o = bind ("source s { drv(port(4k) log-fifo-size(2MiB) buffer(1GiB) reopen(500ms) flush(2s)"
                       " mode(FAST) localip(\"127.0.0.1\")); };\n",
                       &d, &root);
  g_assert_cmpint (d.port, ==, 4096);
  g_assert_cmpint (d.fifo_size, ==, 2 * 1024 * 1024);
  g_assert_cmpint (d.buffer, ==, G_GINT64_CONSTANT (1) << 30);
  g_assert_cmpint (d.reopen, ==, 500);
  g_assert_cmpint (d.flush, ==, 2000);
  g_assert_cmpint (d.mode, ==, MODE_FAST);
  /* the alias the user wrote wins over the other name's default */
  g_assert_cmpstr (d.address, ==, "127.0.0.1");
  sl_options_free (o);
  sl_cfg_node_free (root);

  o = bind ("source s { drv(reopen(2m) buffer(10M) flush(1h)); };\n", &d, &root);
  g_assert_cmpint (d.reopen, ==, 120000);
  g_assert_cmpint (d.buffer, ==, 10 * 1024 * 1024);
  g_assert_cmpint (d.flush, ==, 3600000);
  sl_options_free (o);
  sl_cfg_node_free (root);

  /* fractions, as follow-freq(0.1) is written */
  o = bind ("source s { drv(reopen(0.1) flush(1.5s)); };\n", &d, &root);
  g_assert_cmpint (d.reopen, ==, 100);
  g_assert_cmpint (d.flush, ==, 1500);
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

  m = error_of ("source s { drv(port(3000000000)); };\n");
  g_assert_nonnull (strstr (m, "expects a number, got '3000000000'"));
  g_free (m);

  m = error_of ("source s { drv(keep-hostname(maybe)); };\n");
  g_assert_nonnull (strstr (m, "expects yes or no, got 'maybe'"));
  g_free (m);

  m = error_of ("source s { drv(flags(no-prase)); };\n");
  g_assert_nonnull (strstr (m, "unknown flag 'no-prase' in flags(); expected any of: no-parse, syslog-protocol, store-raw-message"));
  g_free (m);

  m = error_of ("source s { drv(mode(quick)); };\n");
  g_assert_nonnull (strstr (m, "opts.conf:1:21: 'quick' is not a value of mode(); expected one of: fast, safe"));
  g_free (m);

  m = error_of ("source s { drv(buffer(10 MB)); };\n");
  g_assert_nonnull (strstr (m, "option 'buffer' of drv() takes one value, got 2"));
  g_free (m);

  m = error_of ("source s { drv(buffer(lots)); };\n");
  g_assert_nonnull (strstr (m, "expects a size such as 4096, 64k, 10M or 1GiB, got 'lots'"));
  g_free (m);

  m = error_of ("source s { drv(reopen(soon)); };\n");
  g_assert_nonnull (strstr (m, "expects a duration such as 60 (seconds), 500ms, 30s or 5m, got 'soon'"));
  g_free (m);

  m = error_of ("source s { drv(flush(5y)); };\n");
  g_assert_nonnull (strstr (m, "expects a duration such as 1000 (milliseconds)"));
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

  m = error_of ("options { log-fifo-size(x); };\nsource s { drv(); };\n");
  g_assert_nonnull (strstr (m, "opts.conf:1:25: option 'log-fifo-size' of options expects a number, got 'x'"));
  g_free (m);
}

/* `key => value` pairs in the order written; a pair where one value is
 * meant, or a value without a key where pairs are, is an error. */
static void
test_pairs (void)
{
  SlCfgNode *root;
  Drv d;
  SlOptions *o = bind ("destination d { drv(config(\"acks\" => \"all\" linger.ms => 5)); };\n", &d, &root);
  g_assert_cmpuint (d.config->len, ==, 2);
  const SlOptionPair *acks = g_ptr_array_index (d.config, 0);
  const SlOptionPair *linger = g_ptr_array_index (d.config, 1);
  g_assert_cmpstr (acks->key, ==, "acks");
  g_assert_cmpstr (acks->value, ==, "all");
  g_assert_cmpstr (linger->key, ==, "linger.ms");
  g_assert_cmpstr (linger->value, ==, "5");
  sl_options_free (o);
  sl_cfg_node_free (root);

  o = bind ("destination d { drv(); };\n", &d, &root);
  g_assert_null (d.config);
  sl_options_free (o);
  sl_cfg_node_free (root);

  gchar *m = error_of ("destination d { drv(config(\"acks\" => \"all\" \"x\")); };\n");
  g_assert_nonnull (strstr (m, "opts.conf:1:44: option 'config' of drv() takes \"key\" => value pairs, got 'x' without a key"));
  g_free (m);
  m = error_of ("destination d { drv(port(\"p\" => 1)); };\n");
  g_assert_nonnull (strstr (m, "opts.conf:1:26: option 'port' of drv() takes no \"key\" => value pairs"));
  g_free (m);
}

/* Type hints of templates, as syslog-ng's template_content takes them:
 * handed to the compiler with the text. What it is given is recorded, as
 * "hint|text", in place of a compiled template. */
typedef struct
{
  struct _SlTemplate *value;   /* the positional template */
  struct _SlTemplate *other;   /* template(...) */
} Hinted;

static const SlOptionSpec hinted_specs[] = {
  { "value", SL_TEMPLATE (Hinted, value), NULL, "", .flags = SL_OPT_POSITIONAL },
  { "template", SL_TEMPLATE (Hinted, other), NULL, "" },
  { NULL }
};

static gpointer
record_template (gpointer user_data, const gchar *text, const gchar *hint, SlCfgPos pos, GError **error)
{
  return g_strdup_printf ("%s|%s", hint ? hint : "-", text);
}

static void
assert_hinted (const gchar *text, const gchar *value, const gchar *other)
{
  const SlCfgNode *driver, *globals;
  SlCfgNode *root = parse (text, &driver, &globals);
  const SlOptionSpec *const hinted_tables[] = { hinted_specs, NULL };
  GError *error = NULL;
  SlOptions *o = sl_options_new ("set()", hinted_tables, NULL, driver, globals, &error);
  g_assert_no_error (error);
  const SlOptionsCompiler compiler = { .template_new = record_template, .template_free = g_free };
  Hinted h = { 0 };
  g_assert_true (sl_options_bind (o, hinted_specs, &h, &compiler, &error));
  g_assert_no_error (error);
  g_assert_cmpstr ((const gchar *) h.value, ==, value);
  g_assert_cmpstr ((const gchar *) h.other, ==, other);
  sl_options_free (o);
  sl_cfg_node_free (root);
}

static void
test_type_hints (void)
{
  assert_hinted ("rewrite r { set(\"$PID\"); };\n", "-|$PID", NULL);
  assert_hinted ("rewrite r { set(int(\"$PID\")); };\n", "int|$PID", NULL);
  assert_hinted ("rewrite r { set(list(\"a,b\") template(json(\"{}\"))); };\n", "list|a,b", "json|{}");
  assert_hinted ("rewrite r { set(42 template(1.5)); };\n", "int64|42", "float|1.5");
  assert_hinted ("rewrite r { set(+7); };\n", "int64|7", NULL);
  assert_hinted ("rewrite r { set(-7 template(t_name)); };\n", "int64|-7", "-|t_name");
}

/* Only options declared inherited take options {} values: a global that a
 * driver's table has but does not inherit leaves the driver's default. */
static void
test_only_inherited_options_come_from_globals (void)
{
  SlCfgNode *root;
  Drv d;
  SlOptions *o = bind ("options { port(1); flags(store-raw-message); };\nsource s { drv(); };\n", &d, &root);
  g_assert_cmpint (d.port, ==, 514);
  g_assert_cmpuint (d.flags, ==, F_NO_PARSE);
  g_assert_false (sl_options_is_set (o, "port"));
  sl_options_free (o);
  sl_cfg_node_free (root);
}

/* In options {}, time-zone() is send-time-zone(), as syslog-ng 3.38 reads
 * it; recv-time-zone() keeps its own. Each assigns: the last one wins. */
static void
test_global_time_zone (void)
{
  static const struct
  {
    const gchar *globals;
    const gchar *send_zone;
    const gchar *recv_zone;
  } cases[] = {
    { "time-zone(\"+05:00\");", "+05:00", NULL },
    { "recv-time-zone(\"+01:00\"); time-zone(\"+05:00\");", "+05:00", "+01:00" },
    { "send-time-zone(\"+02:00\"); time-zone(\"+05:00\");", "+05:00", NULL },
    { "time-zone(\"+05:00\"); send-time-zone(\"+02:00\");", "+02:00", NULL },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      SlCfgNode *root;
      Drv d;
      g_autofree gchar *text = g_strdup_printf ("options { %s };\ndestination d { drv(); };\n", cases[i].globals);
      SlOptions *o = bind (text, &d, &root);
      g_assert_cmpstr (d.send_zone, ==, cases[i].send_zone);
      g_assert_cmpstr (d.recv_zone, ==, cases[i].recv_zone);
      sl_options_free (o);
      sl_cfg_node_free (root);
    }
  g_assert_cmpstr (sl_options_global_name ("time_zone"), ==, "send-time-zone");
  g_assert_cmpstr (sl_options_global_name ("recv-time-zone"), ==, "recv-time-zone");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/options/values", test_values_defaults_and_globals);
  g_test_add_func ("/options/defaults", test_defaults);
  g_test_add_func ("/options/sizes-durations-aliases", test_sizes_durations_and_aliases);
  g_test_add_func ("/options/errors", test_errors);
  g_test_add_func ("/options/pairs", test_pairs);
  g_test_add_func ("/options/type-hints", test_type_hints);
  g_test_add_func ("/options/inherit", test_only_inherited_options_come_from_globals);
  g_test_add_func ("/options/global-time-zone", test_global_time_zone);
  return g_test_run ();
}
