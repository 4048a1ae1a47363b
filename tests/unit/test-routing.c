/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Routing semantics through the real core: configuration text in, messages
 * posted by a test source, and what each destination wrote out. */
#include "core/compile/config.h"
#include "core/compile/config-run.h"
#include "core/compile/loader.h"
#include "core/plugin/plugin.h"
#include "core/route/source.h"
#include "core/message/template.h"

#include <string.h>

typedef struct
{
  SlDriver super;
  const gchar *name;
  gboolean fail;
} TestDriver;

static GMutex lock;
static GHashTable *sources;    /* name -> SlSource */
static GHashTable *written;    /* name -> GString of "MESSAGE;" */

static const SlOptionSpec named_options[] = {
  { "name", SL_STRING (TestDriver, name), NULL, "", .flags = SL_OPT_POSITIONAL },
  { "fail", SL_BOOL (TestDriver, fail), "no", "refuse to start" },
  { NULL }
};

static guint starts;   /* inject() sources started */

static const gchar *const collect_defaults[] = {
  "flush-lines", "100", "flush-timeout", "10", "time-reopen", "1", NULL
};

static gboolean
inject_start (SlDriver *d, SlSource *src, GError **error)
{
  if (((TestDriver *) d)->fail)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s refuses to start", d->id);
      return FALSE;
    }
  g_mutex_lock (&lock);
  starts++;
  g_hash_table_insert (sources, g_strdup (((TestDriver *) d)->name), src);
  g_mutex_unlock (&lock);
  return TRUE;
}

static SlWriteResult
collect_write (SlDriver *d, SlWriteBatch *batch)
{
  g_mutex_lock (&lock);
  GString *out = g_hash_table_lookup (written, ((TestDriver *) d)->name);
  if (!out)
    {
      out = g_string_new (NULL);
      g_hash_table_insert (written, g_strdup (((TestDriver *) d)->name), out);
    }
  for (guint i = 0; i < batch->n; i++)
    {
      gsize len;
      const gchar *v = sl_message_get (batch->msgs[i], SL_F_MESSAGE, &len);
      g_string_append_len (out, v, len);
      g_string_append_c (out, ';');
    }
  g_mutex_unlock (&lock);
  batch->done = batch->n;
  return SL_WRITE_OK;
}

static guint copies;    /* messages set-message() had to copy to change */

static gboolean
rewrite_process (SlDriver *d, SlMessage **msg)
{
  SlMessage *before = *msg;
  sl_message_make_writable (msg);
  if (*msg != before)
    copies++;
  sl_message_set (*msg, SL_F_MESSAGE, ((TestDriver *) d)->name, -1);
  return TRUE;
}

/* where-ran(): the message becomes "main" or "other", the thread that ran it */
static GThread *main_thread;

static gboolean
where_ran_process (SlDriver *d, SlMessage **msg)
{
  sl_message_make_writable (msg);
  sl_message_set (*msg, SL_F_MESSAGE, g_thread_self () == main_thread ? "main" : "other", -1);
  return TRUE;
}

/* gate(): holds each message until the test opens it */
static GMutex gate_lock;
static GCond gate_cond;
static gboolean gate_open;
static guint gate_waiting;

static gboolean
gate_process (SlDriver *d, SlMessage **msg)
{
  g_mutex_lock (&gate_lock);
  gate_waiting++;
  g_cond_broadcast (&gate_cond);
  while (!gate_open)
    g_cond_wait (&gate_cond, &gate_lock);
  g_mutex_unlock (&gate_lock);
  return TRUE;
}

static const SlDriverClass inject_class = {
  .kind = SL_DRIVER_SOURCE, .name = "inject", .options = named_options,
  .instance_size = sizeof (TestDriver), .ops.source = &(const SlSourceOps) { .start = inject_start },
};
static const SlDriverClass collect_class = {
  .kind = SL_DRIVER_DESTINATION, .name = "collect", .options = named_options, .defaults = collect_defaults,
  .instance_size = sizeof (TestDriver), .ops.destination = &(const SlDestinationOps) { .write = collect_write },
};
static const SlDriverClass set_message_class = {
  .kind = SL_DRIVER_REWRITE, .name = "set-message", .options = named_options,
  .instance_size = sizeof (TestDriver), .ops.rewrite = &(const SlRewriteOps) { .process = rewrite_process },
};
static const SlDriverClass where_ran_class = {
  .kind = SL_DRIVER_REWRITE, .name = "where-ran", .instance_size = sizeof (SlDriver),
  .ops.rewrite = &(const SlRewriteOps) { .process = where_ran_process },
};
static const SlDriverClass gate_class = {
  .kind = SL_DRIVER_REWRITE, .name = "gate", .instance_size = sizeof (SlDriver),
  .ops.rewrite = &(const SlRewriteOps) { .process = gate_process },
};
static const SlModule test_module = {
  SL_ABI_VERSION, "routing-test",
  (const SlDriverClass *const[]) { &inject_class, &collect_class, &set_message_class, &where_ran_class,
                                   &gate_class, NULL },
};

static SlConfig *
start (const gchar *text)
{
  g_hash_table_remove_all (sources);
  g_hash_table_remove_all (written);
  GError *error = NULL;
  SlConfig *cfg = sl_config_load_string (text, "routing.conf", &error);
  g_assert_no_error (error);
  g_assert_true (sl_config_start (cfg, &error));
  g_assert_no_error (error);
  return cfg;
}

/* level is a number so that the core's comparison filter can route by it */
static void
post (const gchar *source, const gchar *text, guint level)
{
  SlSource *src = g_hash_table_lookup (sources, source);
  g_assert_nonnull (src);
  SlMessage *msg = sl_source_parse (src, text, strlen (text), NULL);
  sl_message_set (msg, SL_F_MESSAGE, text, -1);
  msg->pri = SL_PRI_MAKE (1, level);
  sl_source_post (src, &msg, 1);
}

static void
string_free (gpointer s)
{
  g_string_free (s, TRUE);
}

static const gchar *
got (const gchar *dest)
{
  GString *s = g_hash_table_lookup (written, dest);
  return s ? s->str : "";
}

static void
finish (SlConfig *cfg)
{
  sl_config_stop (cfg);
  sl_config_free (cfg);
}

static const gchar *const objects =
  "source s_a { inject(a); };\n"
  "source s_b { inject(b); };\n"
  "destination d1 { collect(d1); };\n"
  "destination d2 { collect(d2); };\n"
  "destination d3 { collect(d3); };\n"
  "destination d4 { collect(d4); };\n"
  "filter f_err { \"${LEVEL_NUM}\" <= 3; };\n";

static void
test_paths_in_order_and_final (void)
{
  gchar *text = g_strconcat (objects,
    "log { source(s_a); filter(f_err); destination(d1); flags(final); };\n"
    "log { source(s_a); destination(d2); };\n"
    "log { source(s_b); destination(d3); };\n", NULL);
  SlConfig *cfg = start (text);
  post ("a", "err", 3);
  post ("a", "info", 6);
  post ("b", "other", 6);
  finish (cfg);
  g_assert_cmpstr (got ("d1"), ==, "err;");
  g_assert_cmpstr (got ("d2"), ==, "info;");
  g_assert_cmpstr (got ("d3"), ==, "other;");
  g_free (text);
}

static void
test_fallback_gets_only_unmatched (void)
{
  gchar *text = g_strconcat (objects,
    "log { source(s_a); source(s_b); destination(d3); flags(fallback); };\n"
    "log { source(s_a); filter(f_err); destination(d1); };\n", NULL);
  SlConfig *cfg = start (text);
  post ("a", "err", 2);
  post ("a", "info", 6);
  post ("b", "bee", 6);
  finish (cfg);
  g_assert_cmpstr (got ("d1"), ==, "err;");
  g_assert_cmpstr (got ("d3"), ==, "info;bee;");
  g_free (text);
}

static void
test_catchall_takes_every_source (void)
{
  gchar *text = g_strconcat (objects,
    "log { source(s_a); destination(d1); };\n"
    "log { destination(d2); flags(catchall); };\n", NULL);
  SlConfig *cfg = start (text);
  post ("a", "one", 6);
  post ("b", "two", 6);
  finish (cfg);
  g_assert_cmpstr (got ("d1"), ==, "one;");
  g_assert_cmpstr (got ("d2"), ==, "one;two;");
  g_free (text);
}

static void
test_nested_paths_and_if (void)
{
  gchar *text = g_strconcat (objects,
    "log { source(s_a);\n"
    "  log { filter(f_err); destination(d1); flags(final); };\n"
    "  log { destination(d2); };\n"
    "  if (\"${LEVEL_NUM}\" == 6) { destination(d3); } elif (\"${LEVEL_NUM}\" == 5) { destination(d4); }\n"
    "  else { destination(d1); };\n"
    "};\n", NULL);
  SlConfig *cfg = start (text);
  post ("a", "crit", 2);
  post ("a", "info", 6);
  post ("a", "notice", 5);
  finish (cfg);
  g_assert_cmpstr (got ("d1"), ==, "crit;crit;");
  g_assert_cmpstr (got ("d2"), ==, "info;notice;");
  g_assert_cmpstr (got ("d3"), ==, "info;");
  g_assert_cmpstr (got ("d4"), ==, "notice;");
  g_free (text);
}

/* A nested path of destinations alone (the rsyslog front end writes each
 * action as one) delivers what a path of its own would: a rewrite after it
 * does not reach back, a filter after it drops the message for its parent
 * (the fallback path gets it), and its flags(final) stops nothing. */
static void
test_nested_destinations (void)
{
  gchar *text = g_strconcat (objects,
    "rewrite r_set { set-message(changed); };\n"
    "log { source(s_a);\n"
    "  log { destination(d1); flags(final); };\n"
    "  rewrite(r_set);\n"
    "  log { destination(d2); };\n"
    "  filter(f_err);\n"
    "  log { destination(d3); };\n"
    "};\n"
    "log { source(s_b); log { destination(d4); }; filter(f_err); };\n"
    "log { source(s_b); destination(d4); flags(fallback); };\n", NULL);
  SlConfig *cfg = start (text);
  post ("a", "err", 2);
  post ("a", "info", 6);
  post ("b", "crit", 2);
  post ("b", "notice", 5);
  finish (cfg);
  g_assert_cmpstr (got ("d1"), ==, "err;info;");
  g_assert_cmpstr (got ("d2"), ==, "changed;changed;");
  g_assert_cmpstr (got ("d3"), ==, "changed;");
  g_assert_cmpstr (got ("d4"), ==, "crit;notice;notice;");
  g_free (text);
}

/* A junction gives the message to every channel in order (final stops the
 * later ones) and what each channel lets through, as it changed it, goes on
 * past the junction. */
static void
test_junction_channels (void)
{
  gchar *text = g_strconcat (objects,
    "log { source(s_a);\n"
    "  junction {\n"
    "    channel { filter(f_err); rewrite { set-message(err-seen); }; flags(final); };\n"
    "    channel { filter { \"${LEVEL_NUM}\" <= 5; }; };\n"
    "    channel { rewrite { set-message(any); }; };\n"
    "  };\n"
    "  destination(d1);\n"
    "};\n", NULL);
  SlConfig *cfg = start (text);
  post ("a", "crit", 2);
  post ("a", "notice", 5);
  post ("a", "info", 6);
  finish (cfg);
  g_assert_cmpstr (got ("d1"), ==, "err-seen;notice;any;any;");
  g_free (text);
}

/* syslog-ng's if: the taken branch's changes go on past it; a branch
 * without a condition is taken when its own filters pass, else the next
 * one; a branch whose condition passed keeps the message even when a later
 * filter of it drops it. */
static void
test_if_branches_go_on (void)
{
  gchar *text = g_strconcat (objects,
    "log { source(s_a);\n"
    "  if { filter(f_err); rewrite { set-message(bad); }; }\n"
    "  elif (\"${LEVEL_NUM}\" == 5) { filter { \"$MSG\" eq \"keep\"; }; }\n"
    "  else { rewrite { set-message(fine); }; };\n"
    "  destination(d1);\n"
    "};\n"
    "log { source(s_a); if (\"${LEVEL_NUM}\" == 4) { rewrite { set-message(warn); }; }; destination(d2); };\n", NULL);
  SlConfig *cfg = start (text);
  post ("a", "crit", 2);
  post ("a", "keep", 5);
  post ("a", "drop", 5);
  post ("a", "info", 6);
  post ("a", "warning", 4);
  finish (cfg);
  g_assert_cmpstr (got ("d1"), ==, "bad;keep;fine;fine;");
  g_assert_cmpstr (got ("d2"), ==, "crit;keep;drop;info;warn;");
  g_free (text);
}

/* channel {} inside objects: a parser or rewrite object's channel is part
 * of the path; a source object's channel runs for its own sources before
 * the paths; a destination object's channel gets the message as a nested
 * path does. */
static void
test_channels_in_objects (void)
{
  gchar *text = g_strconcat (objects,
    "source s_c { channel { source { inject(c); }; rewrite { set-message(from-c); }; }; inject(c2); };\n"
    "source s_d { channel { log { source { inject(d); }; rewrite { set-message(from-d); }; }; }; };\n"
    "rewrite r_ch { channel { filter(f_err); rewrite { set-message(rewritten); }; }; };\n"
    "destination d_ch { collect(dc); channel { rewrite { set-message(in-channel); }; destination(d4); }; };\n"
    "log { source(s_c); source(s_d); destination(d3); };\n"
    "log { source(s_a); rewrite(r_ch); destination(d1); };\n"
    "log { source(s_b); destination(d_ch); destination(d2); };\n", NULL);
  SlConfig *cfg = start (text);
  post ("c", "x", 6);
  post ("c2", "y", 6);
  post ("d", "z", 6);
  post ("a", "err", 3);
  post ("a", "info", 6);
  post ("b", "m", 6);
  finish (cfg);
  g_assert_cmpstr (got ("d3"), ==, "from-c;y;from-d;");
  g_assert_cmpstr (got ("d1"), ==, "rewritten;");
  g_assert_cmpstr (got ("dc"), ==, "m;");
  g_assert_cmpstr (got ("d4"), ==, "in-channel;");
  g_assert_cmpstr (got ("d2"), ==, "m;");
  g_free (text);
}

/* template-function "name" "text": $(name) renders the text; it takes no
 * arguments, as in syslog-ng. */
static void
test_template_function_statement (void)
{
  GError *error = NULL;
  SlConfig *cfg = sl_config_load_string ("template-function \"tagged\" \"<$MSG>\";\n"
                                         "template-function \"twice\" \"$(tagged)$(tagged)\";\n"
                                         "template t { template(\"$(twice)\"); };\n", "tf.conf", &error);
  g_assert_no_error (error);
  SlTemplate *t = sl_config_compile_template (cfg, "t", (SlCfgPos) { 0 }, &error);
  g_assert_no_error (error);
  SlMessage *msg = sl_message_new ("hi", 2);
  sl_message_set (msg, SL_F_MESSAGE, "hi", 2);
  GString *out = g_string_new (NULL);
  sl_template_append (t, msg, NULL, out);
  g_assert_cmpstr (out->str, ==, "<hi><hi>");
  g_string_free (out, TRUE);
  sl_message_unref (msg);
  sl_template_unref (t);
  sl_config_free (cfg);

  cfg = sl_config_load_string ("template-function \"f\" \"x\";\n"
                               "template t { template(\"$(f a)\"); };\n", "tf.conf", &error);
  g_assert_null (cfg);
  g_assert_nonnull (strstr (error->message, "$(f) cannot have arguments"));
  g_clear_error (&error);

  /* compiled where used: a definition nothing uses is not an error */
  cfg = sl_config_load_string ("template-function \"unused\" \"$(no-such-function)\";\n", "tf.conf", &error);
  g_assert_no_error (error);
  sl_config_free (cfg);
  cfg = sl_config_load_string ("template-function \"loop\" \"$(loop)\";\n"
                               "template t { template(\"$(loop)\"); };\n", "tf.conf", &error);
  g_assert_null (cfg);
  g_assert_nonnull (strstr (error->message, "$(loop) uses itself"));
  g_error_free (error);
}

static void
test_inline_filters (void)
{
  gchar *text = g_strconcat (objects,
    "log { source(s_a); filter { \"${LEVEL_NUM}\" <= 3 and not \"$MSG\" eq \"skip\"; }; destination(d1); };\n"
    "log { source(s_a); filter { filter(f_err) or \"$MSG\" eq \"note\"; }; destination(d2); };\n", NULL);
  SlConfig *cfg = start (text);
  post ("a", "err", 3);
  post ("a", "skip", 2);
  post ("a", "note", 6);
  post ("a", "info", 6);
  finish (cfg);
  g_assert_cmpstr (got ("d1"), ==, "err;");
  g_assert_cmpstr (got ("d2"), ==, "err;skip;note;");
  g_free (text);
}

static void
test_rewrite_is_copy_on_write (void)
{
  gchar *text = g_strconcat (objects,
    "rewrite r_set { set-message(changed); };\n"
    "log { source(s_a); destination(d1); };\n"
    "log { source(s_a); rewrite(r_set); destination(d2); };\n"
    "log { source(s_a); destination(d3); };\n", NULL);
  SlConfig *cfg = start (text);
  post ("a", "original", 6);
  finish (cfg);
  g_assert_cmpstr (got ("d1"), ==, "original;");
  g_assert_cmpstr (got ("d2"), ==, "changed;");
  g_assert_cmpstr (got ("d3"), ==, "original;");
  g_free (text);
}

/* The last path to run takes the source's reference over: its rewrite
 * changes the message without a copy where no destination holds it yet,
 * and the source's window is still
 * released once every path is done, also when a final path or none ends
 * the routing first. */
static void
test_last_path_changes_in_place (void)
{
  static const struct
  {
    const gchar *paths;
    guint copies;
    const gchar *d1, *d2;
  } cases[] = {
    { "log { source(s_a); rewrite(r_set); destination(d1); flags(flow-control); };\n", 0, "changed;", "" },
    { "log { source(s_a); rewrite(r_set); destination(d1); flags(flow-control); };\n"
      "log { source(s_a); destination(d2); flags(flow-control); };\n", 1, "changed;", "m;" },
    { "log { source(s_a); destination(d1); flags(flow-control); };\n"
      "log { source(s_a); rewrite(r_set); destination(d2); flags(flow-control); };\n", 1, "m;", "changed;" },
    { "log { source(s_a); destination(d1); flags(flow-control, final); };\n"
      "log { source(s_a); rewrite(r_set); destination(d2); flags(flow-control); };\n", 0, "m;", "" },
    { "log { source(s_a); filter { \"${LEVEL_NUM}\" <= 3; }; destination(d1); flags(flow-control); };\n"
      "log { source(s_a); rewrite(r_set); destination(d2); flags(flow-control, fallback); };\n", 1, "", "changed;" },
    { "log { source(s_a); rewrite(r_set); destination(d1); destination(d2); flags(flow-control); };\n", 0,
      "changed;", "changed;" },
    { "log { source(s_a); destination(d1); rewrite(r_set); destination(d2); flags(flow-control); };\n", 1,
      "m;", "changed;" },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      gchar *text = g_strconcat (objects, "rewrite r_set { set-message(changed); };\n", cases[c].paths, NULL);
      SlConfig *cfg = start (text);
      SlSource *src = g_hash_table_lookup (sources, "a");
      SlWindow *w = sl_source_new_window (src);
      SlMessage *msg = sl_source_parse (src, "m", 1, NULL);
      sl_message_set (msg, SL_F_MESSAGE, "m", 1);
      msg->pri = SL_PRI_MAKE (1, 6);
      sl_message_bind_window (msg, w);
      copies = 0;
      sl_source_post (src, &msg, 1);
      finish (cfg);
      g_assert_cmpuint (copies, ==, cases[c].copies);
      g_assert_cmpstr (got ("d1"), ==, cases[c].d1);
      g_assert_cmpstr (got ("d2"), ==, cases[c].d2);
      g_assert_cmpuint (sl_window_in_flight (w), ==, 0);
      sl_window_unref (w);
      g_free (text);
    }
}

static void
test_flow_control_acknowledges_after_write (void)
{
  gchar *text = g_strconcat (objects,
    "log { source(s_a); destination(d1); destination(d2); flags(flow-control); };\n", NULL);
  SlConfig *cfg = start (text);
  SlSource *src = g_hash_table_lookup (sources, "a");
  SlWindow *w = sl_source_new_window (src);
  for (guint i = 0; i < 50; i++)
    {
      SlMessage *msg = sl_source_parse (src, "m", 1, NULL);
      sl_message_set (msg, SL_F_MESSAGE, "m", 1);
      sl_message_bind_window (msg, w);
      sl_source_post (src, &msg, 1);
    }
  finish (cfg);
  g_assert_cmpuint (sl_window_in_flight (w), ==, 0);
  g_assert_cmpuint (strlen (got ("d1")), ==, 100);
  g_assert_cmpuint (strlen (got ("d2")), ==, 100);
  sl_window_unref (w);
  g_free (text);
}

static SlConfig *
take_over (SlConfig *running, const gchar *text, gboolean works)
{
  GError *error = NULL;
  SlConfig *next = sl_config_load_string_after (text, "routing.conf", running, &error);
  g_assert_no_error (error);
  gboolean ok = sl_config_take_over (next, running, &error);
  g_assert_true (ok == works);
  if (!ok)
    {
      g_assert_nonnull (strstr (error->message, "refuses to start"));
      g_error_free (error);
      sl_config_free (next);
      return running;
    }
  sl_config_free (running);
  return next;
}

/* A reload keeps the sources and destinations made the same, routes by the
 * new paths, starts what is new and stops what is gone; one whose new
 * sources cannot start leaves the running configuration as it was. */
static void
test_reload_takes_over_what_is_the_same (void)
{
  gchar *first = g_strconcat (objects, "log { source(s_a); destination(d1); };\n", NULL);
  SlConfig *cfg = start (first);
  guint started = starts;
  SlSource *a = g_hash_table_lookup (sources, "a");
  post ("a", "one", 6);

  gchar *second = g_strconcat (objects, "log { source(s_a); destination(d1); destination(d2); };\n"
                               "log { source(s_b); destination(d3); };\n", NULL);
  cfg = take_over (cfg, second, TRUE);
  g_assert_true (g_hash_table_lookup (sources, "a") == a);
  g_assert_cmpuint (starts, ==, started + 1);   /* only s_b is new */
  post ("a", "two", 6);
  post ("b", "three", 6);

  /* a source that cannot start: the running paths go on */
  gchar *third = g_strconcat (objects, "source s_c { inject(c fail(yes)); };\n"
                              "log { source(s_a); destination(d4); };\n"
                              "log { source(s_c); destination(d4); };\n", NULL);
  cfg = take_over (cfg, third, FALSE);
  post ("a", "four", 6);
  post ("b", "five", 6);

  /* the source's own text changed: a new one replaces it */
  gchar *fourth = "source s_a { inject(a fail(no)); };\ndestination d4 { collect(d4); };\n"
                  "log { source(s_a); destination(d4); };\n";
  cfg = take_over (cfg, fourth, TRUE);
  g_assert_true (g_hash_table_lookup (sources, "a") != a);
  post ("a", "six", 6);
  finish (cfg);
  g_assert_cmpstr (got ("d1"), ==, "one;two;four;");
  g_assert_cmpstr (got ("d2"), ==, "two;four;");
  g_assert_cmpstr (got ("d3"), ==, "three;five;");
  g_assert_cmpstr (got ("d4"), ==, "six;");
  g_free (first);
  g_free (second);
  g_free (third);
}

static void
test_unknown_reference_is_refused (void)
{
  GError *error = NULL;
  SlConfig *cfg = sl_config_load_string ("log { source(s_missing); };\n", "bad.conf", &error);
  g_assert_null (cfg);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "bad.conf:1:7: there is no source named 's_missing'"));
  g_clear_error (&error);

  cfg = sl_config_load_string ("source s { inject(s); };\nlog { source(s); destination(d_missing); };\n", "bad.conf", &error);
  g_assert_null (cfg);
  g_assert_nonnull (strstr (error->message, "bad.conf:2:18: there is no destination named 'd_missing'"));
  g_clear_error (&error);

  cfg = sl_config_load_string ("source s { inject(s); };\nlog { source(s); destination(); };\n", "bad.conf", &error);
  g_assert_null (cfg);
  g_assert_nonnull (strstr (error->message, "bad.conf:2:18: destination() needs the name of a destination"));
  g_error_free (error);
}

/* The rest of the path runs on the partitions, and partitions(0), 4.8's
 * default, runs it in place. */
static void
test_parallelize_runs_elsewhere (void)
{
  gchar *text = g_strconcat (objects,
    "log { source(s_a); parallelize(partitions(2)); rewrite { where-ran(); }; destination(d1); };\n"
    "log { source(s_b); parallelize(); rewrite { where-ran(); }; destination(d2); };\n", NULL);
  SlConfig *cfg = start (text);
  post ("a", "x", 6);
  post ("a", "y", 6);
  post ("b", "z", 6);
  finish (cfg);
  g_assert_cmpstr (got ("d1"), ==, "other;other;");
  g_assert_cmpstr (got ("d2"), ==, "main;");
  g_free (text);
}

/* Inside an if branch, what follows the if runs on the partition too,
 * with what the branch changed. */
static void
test_parallelize_in_branch_goes_on (void)
{
  gchar *text = g_strconcat (objects,
    "log { source(s_a); if (\"${LEVEL_NUM}\" == 6) { parallelize(partitions(2)); rewrite { where-ran(); }; };\n"
    "  destination(d1); };\n", NULL);
  SlConfig *cfg = start (text);
  post ("a", "err", 3);
  post ("a", "info", 6);
  finish (cfg);
  /* the partition's message and the one routed in place race to d1 */
  const gchar *d1 = got ("d1");
  g_assert_true (g_str_equal (d1, "err;other;") || g_str_equal (d1, "other;err;"));
  g_free (text);
}

/* Messages of one key keep their order; the stop routes on everything the
 * partitions still held. */
static void
test_parallelize_keeps_order_per_key (void)
{
  gchar *text = g_strconcat (objects,
    "log { source(s_a); parallelize(partitions(4) partition-key(\"${LEVEL_NUM}\"));\n"
    "  if (\"${LEVEL_NUM}\" == 6) { destination(d1); } else { destination(d2); }; };\n", NULL);
  SlConfig *cfg = start (text);
  GString *want1 = g_string_new (NULL), *want2 = g_string_new (NULL);
  for (guint i = 0; i < 2000; i++)
    {
      gchar *m = g_strdup_printf ("m%u", i);
      post ("a", m, i % 3 ? 6 : 5);
      g_string_append_printf (i % 3 ? want1 : want2, "%s;", m);
      g_free (m);
    }
  finish (cfg);
  g_assert_cmpstr (got ("d1"), ==, want1->str);
  g_assert_cmpstr (got ("d2"), ==, want2->str);
  g_string_free (want1, TRUE);
  g_string_free (want2, TRUE);
  g_free (text);
}

/* As in syslog-ng 4.8, a path counts as matched once its message is
 * handed to parallelize(): a filter after it does not send the message to
 * the fallback path. */
static void
test_parallelize_path_matches (void)
{
  gchar *text = g_strconcat (objects,
    "log { source(s_a); junction { channel { parallelize(partitions(2)); filter(f_err); }; };\n"
    "  destination(d1); };\n"
    "log { source(s_a); destination(d2); flags(fallback); };\n", NULL);
  SlConfig *cfg = start (text);
  post ("a", "err", 3);
  post ("a", "info", 6);
  finish (cfg);
  g_assert_cmpstr (got ("d1"), ==, "err;");
  g_assert_cmpstr (got ("d2"), ==, "");
  g_free (text);
}

/* A source's window waits for what a partition has not finished. */
static void
test_parallelize_holds_window (void)
{
  gchar *text = g_strconcat (objects,
    "log { source(s_a); parallelize(partitions(2)); rewrite { gate(); }; destination(d1); };\n", NULL);
  SlConfig *cfg = start (text);
  SlSource *src = g_hash_table_lookup (sources, "a");
  SlWindow *w = sl_source_new_window (src);
  gate_open = FALSE;
  gate_waiting = 0;
  SlMessage *msg = sl_source_parse (src, "m", 1, NULL);
  sl_message_set (msg, SL_F_MESSAGE, "m", 1);
  sl_message_bind_window (msg, w);
  sl_source_post (src, &msg, 1);
  g_mutex_lock (&gate_lock);
  while (!gate_waiting)
    g_cond_wait (&gate_cond, &gate_lock);
  g_assert_cmpuint (sl_window_in_flight (w), ==, 1);
  gate_open = TRUE;
  g_cond_broadcast (&gate_cond);
  g_mutex_unlock (&gate_lock);
  finish (cfg);
  g_assert_cmpuint (sl_window_in_flight (w), ==, 0);
  g_assert_cmpstr (got ("d1"), ==, "m;");
  sl_window_unref (w);
  g_free (text);
}

static gpointer
open_gate_soon (gpointer unused)
{
  g_mutex_lock (&gate_lock);
  while (!gate_waiting)
    g_cond_wait (&gate_cond, &gate_lock);
  g_mutex_unlock (&gate_lock);
  g_usleep (100 * 1000);
  g_mutex_lock (&gate_lock);
  gate_open = TRUE;
  g_cond_broadcast (&gate_cond);
  g_mutex_unlock (&gate_lock);
  return NULL;
}

/* A reload routes on what the old partitions hold before the destination
 * the reload changed hands its queue to the new one: nothing is lost. */
static void
test_parallelize_reload_drains (void)
{
  gchar *first = g_strconcat (objects, "log { source(s_a); parallelize(partitions(2) partition-key(\"k\"));\n"
                              "  rewrite { gate(); }; destination(d1); };\n", NULL);
  SlConfig *cfg = start (first);
  gate_open = FALSE;
  gate_waiting = 0;
  post ("a", "one", 6);
  post ("a", "two", 6);
  post ("a", "three", 6);
  GThread *opener = g_thread_new ("opener", open_gate_soon, NULL);
  cfg = take_over (cfg, "source s_a { inject(a); };\ndestination d1 { collect(d1 fail(no)); };\n"
                        "log { source(s_a); destination(d1); };\n", TRUE);
  g_thread_join (opener);
  post ("a", "four", 6);
  finish (cfg);
  g_assert_cmpstr (got ("d1"), ==, "one;two;three;four;");
  g_free (first);
}

/* Wrong values at their position; workers() is not 4.8's option. */
static void
test_parallelize_refuses (void)
{
  GError *error = NULL;
  gchar *text = g_strconcat (objects, "log { source(s_a); parallelize(partitions(-1)); destination(d1); };\n", NULL);
  g_assert_null (sl_config_load_string (text, "bad.conf", &error));
  g_assert_nonnull (strstr (error->message, "bad.conf:8:"));
  g_assert_nonnull (strstr (error->message, "partitions"));
  g_clear_error (&error);
  g_free (text);
  text = g_strconcat (objects, "log { source(s_a); parallelize(workers(2)); destination(d1); };\n", NULL);
  g_assert_null (sl_config_load_string (text, "bad.conf", &error));
  g_assert_nonnull (strstr (error->message, "bad.conf:8:32:"));
  g_assert_nonnull (strstr (error->message, "workers"));
  g_clear_error (&error);
  g_free (text);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  main_thread = g_thread_self ();
  sources = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  written = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, string_free);
  g_assert_true (sl_plugins_register (&test_module, __FILE__, NULL));
  g_test_add_func ("/routing/order-and-final", test_paths_in_order_and_final);
  g_test_add_func ("/routing/fallback", test_fallback_gets_only_unmatched);
  g_test_add_func ("/routing/catchall", test_catchall_takes_every_source);
  g_test_add_func ("/routing/nested-and-if", test_nested_paths_and_if);
  g_test_add_func ("/routing/nested-destinations", test_nested_destinations);
  g_test_add_func ("/routing/junction", test_junction_channels);
  g_test_add_func ("/routing/if-branches-go-on", test_if_branches_go_on);
  g_test_add_func ("/routing/channels-in-objects", test_channels_in_objects);
  g_test_add_func ("/routing/template-function", test_template_function_statement);
  g_test_add_func ("/routing/inline-filters", test_inline_filters);
  g_test_add_func ("/routing/rewrite-copy-on-write", test_rewrite_is_copy_on_write);
  g_test_add_func ("/routing/flow-control-ack", test_flow_control_acknowledges_after_write);
  g_test_add_func ("/routing/last-path-changes-in-place", test_last_path_changes_in_place);
  g_test_add_func ("/routing/unknown-reference", test_unknown_reference_is_refused);
  g_test_add_func ("/routing/reload-takes-over", test_reload_takes_over_what_is_the_same);
  g_test_add_func ("/routing/parallelize/runs-elsewhere", test_parallelize_runs_elsewhere);
  g_test_add_func ("/routing/parallelize/order-per-key", test_parallelize_keeps_order_per_key);
  g_test_add_func ("/routing/parallelize/in-branch", test_parallelize_in_branch_goes_on);
  g_test_add_func ("/routing/parallelize/path-matches", test_parallelize_path_matches);
  g_test_add_func ("/routing/parallelize/holds-window", test_parallelize_holds_window);
  g_test_add_func ("/routing/parallelize/reload-drains", test_parallelize_reload_drains);
  g_test_add_func ("/routing/parallelize/refuses", test_parallelize_refuses);
  int status = g_test_run ();
  g_hash_table_unref (sources);
  g_hash_table_unref (written);
  return status;
}
