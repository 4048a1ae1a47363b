/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The contracts between the core and its plugins: what registration
 * refuses, what options {} accepts, what a destination's write results
 * make the core do, and workers() sharing one queue. */
#include "core/compile/config-private.h"
#include "core/compile/config-run.h"
#include "core/compile/loader.h"
#include "core/plugin/registry-private.h"
#include "core/route/source.h"
#include "core/stats.h"

#include <string.h>

/* inject(): a source whose messages the test posts. */
typedef struct
{
  SlDriver super;
} Inject;

static SlSource *injector;

static gboolean
inject_start (SlDriver *d, SlSource *src, GError **error)
{
  injector = src;
  return TRUE;
}

static const SlDriverClass inject_class = {
  .kind = SL_DRIVER_SOURCE, .name = "inject", .instance_size = sizeof (Inject),
  .ops.source = &(const SlSourceOps) { .start = inject_start },
};

/* scripted(mode): a destination that answers write() as its mode says. */
enum { MODE_OK, MODE_DROP_ODD, MODE_REFUSE, MODE_FAIL, MODE_DISCONNECT_ONCE, MODE_AWAY };

static const SlOptionWord mode_words[] = {
  { "ok", MODE_OK }, { "drop-odd", MODE_DROP_ODD }, { "refuse", MODE_REFUSE },
  { "fail", MODE_FAIL }, { "disconnect-once", MODE_DISCONNECT_ONCE }, { "away", MODE_AWAY }, { NULL }
};

typedef struct
{
  SlDriver super;
  gint mode;
  const gchar *note;
  guint opens;
  guint closes;
  guint calls;
  guint written;
} Scripted;

static GMutex lock;
static GPtrArray *instances;   /* Scripted, every one made */

static const SlOptionSpec scripted_options[] = {
  { "mode", SL_CHOICE (Scripted, mode), "ok", "how write() answers", .words = mode_words },
  { "note", SL_STRING (Scripted, note), NULL, "inherited from options {}", .inherit = "scripted-note" },
  { NULL }
};

static gboolean
scripted_init (SlDriver *d, GError **error)
{
  g_mutex_lock (&lock);
  g_ptr_array_add (instances, d);
  g_mutex_unlock (&lock);
  return TRUE;
}

static gboolean
scripted_open (SlDriver *d, GError **error)
{
  ((Scripted *) d)->opens++;
  return TRUE;
}

static void
scripted_close (SlDriver *d)
{
  ((Scripted *) d)->closes++;
}

static SlWriteResult
scripted_write (SlDriver *d, SlWriteBatch *batch)
{
  Scripted *self = (Scripted *) d;
  self->calls++;
  switch (self->mode)
    {
    case MODE_DROP_ODD:
      for (guint i = 0; i < batch->n; i++)
        batch->dropped += batch->msgs[i]->seqnum % 2;
      batch->done = batch->n;
      break;
    case MODE_REFUSE:
      return SL_WRITE_DROP;
    case MODE_FAIL:
      return SL_WRITE_ERROR;
    case MODE_AWAY:
      return SL_WRITE_RETRY;
    case MODE_DISCONNECT_ONCE:
      if (self->calls == 1)
        return SL_WRITE_NOT_CONNECTED;
      batch->done = batch->n;
      break;
    default:
      /* slow enough that every worker gets a share */
      batch->done = batch->n;
      g_usleep (2000);
      break;
    }
  self->written += batch->done - batch->dropped;
  return batch->done == batch->n ? SL_WRITE_OK : SL_WRITE_RETRY;
}

static const SlDriverClass scripted_class = {
  .kind = SL_DRIVER_DESTINATION, .name = "scripted", .options = scripted_options,
  .capabilities = SL_CAP_WORKERS, .instance_size = sizeof (Scripted), .init = scripted_init,
  .defaults = (const gchar *const[]) { "time-reopen", "10ms", "flush-timeout", "1ms", NULL },
  .ops.destination = &(const SlDestinationOps) {
    .open = scripted_open, .write = scripted_write, .close = scripted_close,
  },
};

static const SlModule test_module = {
  SL_ABI_VERSION, "contracts-test",
  (const SlDriverClass *const[]) { &inject_class, &scripted_class, NULL },
};

static gint64
counter (const gchar *id, const gchar *name)
{
  return sl_counter_get (sl_stats_counter ("destination", id, "scripted", name));
}

/* Runs text's configuration, posts n messages, stops (which writes out
 * what is queued) and returns the config, still to be freed. */
static SlConfig *
run (const gchar *text, guint n)
{
  GError *error = NULL;
  g_ptr_array_set_size (instances, 0);
  SlConfig *cfg = sl_config_load_string (text, "contracts.conf", &error);
  g_assert_no_error (error);
  g_assert_true (sl_config_start (cfg, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      SlMessage *msg = sl_source_parse (injector, "m", 1, NULL);
      sl_source_post (injector, &msg, 1);
    }
  return cfg;
}

static void
wait_for (const gchar *id, const gchar *name, gint64 value)
{
  for (guint i = 0; i < 5000 && counter (id, name) < value; i++)
    g_usleep (1000);
  g_assert_cmpint (counter (id, name), ==, value);
}

static void
test_dropped_on_purpose_is_not_written (void)
{
  SlConfig *cfg = run ("destination d_odd { scripted(mode(drop-odd)); };\n"
                       "log { source { inject(); }; destination(d_odd); };\n", 10);
  wait_for ("d_odd#0", "written", 5);
  g_assert_cmpint (counter ("d_odd#0", "dropped"), ==, 5);
  sl_config_stop (cfg);
  sl_config_free (cfg);
}

static void
test_refused_and_failing_are_dropped (void)
{
  SlConfig *cfg = run ("destination d_refuse { scripted(mode(refuse)); };\n"
                       "log { source { inject(); }; destination(d_refuse); };\n", 4);
  wait_for ("d_refuse#0", "dropped", 4);
  g_assert_cmpint (counter ("d_refuse#0", "written"), ==, 0);
  sl_config_stop (cfg);
  sl_config_free (cfg);

  /* an error is retried after time-reopen(), and the message dropped after three */
  cfg = run ("destination d_fail { scripted(mode(fail)); };\n"
                       "log { source { inject(); }; destination(d_fail); };\n", 2);
  wait_for ("d_fail#0", "dropped", 2);
  Scripted *s = g_ptr_array_index (instances, 0);
  g_assert_cmpuint (s->calls, ==, 6);
  g_assert_cmpint (counter ("d_fail#0", "written"), ==, 0);
  sl_config_stop (cfg);
  sl_config_free (cfg);
}

static void
test_not_connected_reopens (void)
{
  SlConfig *cfg = run ("destination d_dis { scripted(mode(disconnect-once)); };\n"
                       "log { source { inject(); }; destination(d_dis); };\n", 3);
  wait_for ("d_dis#0", "written", 3);
  Scripted *s = g_ptr_array_index (instances, 0);
  g_assert_cmpuint (s->opens, ==, 2);
  g_assert_cmpuint (s->closes, ==, 1);
  g_assert_cmpint (counter ("d_dis#0", "dropped"), ==, 0);
  sl_config_stop (cfg);
  sl_config_free (cfg);
}

static void
test_workers_share_the_queue (void)
{
  SlConfig *cfg = run ("destination d_w { scripted(workers(3) flush-lines(5)); };\n"
                       "log { source { inject(); }; destination(d_w); flags(flow-control); };\n",
                       300);
  wait_for ("d_w#0", "written", 300);
  g_assert_cmpuint (instances->len, ==, 3);
  guint total = 0;
  for (guint i = 0; i < instances->len; i++)
    {
      Scripted *s = g_ptr_array_index (instances, i);
      g_assert_cmpuint (s->opens, ==, 1);
      g_assert_cmpstr (s->super.id, ==, "d_w#0");
      g_assert_cmpuint (s->written, >, 0);
      total += s->written;
    }
  g_assert_cmpuint (total, ==, 300);
  sl_config_stop (cfg);
  sl_config_free (cfg);
}

/* A reload that changes a destination whose peer is away hands what it
 * holds to the new one: nothing accepted under flow control is dropped. */
static void
test_reload_hands_a_changed_queue_over (void)
{
  SlConfig *running = run ("destination d_away { scripted(mode(away)); };\n"
                           "log { source { inject(); }; destination(d_away); flags(flow-control); };\n", 5);
  wait_for ("d_away#0", "processed", 5);
  GError *error = NULL;
  SlConfig *next = sl_config_load_string_after ("destination d_away { scripted(mode(ok)); };\n"
                                                "log { source { inject(); }; destination(d_away); flags(flow-control); };\n",
                                                "contracts.conf", running, &error);
  g_assert_no_error (error);
  g_assert_true (sl_config_take_over (next, running, &error));
  g_assert_no_error (error);
  sl_config_free (running);
  wait_for ("d_away#0", "written", 5);
  g_assert_cmpint (counter ("d_away#0", "dropped"), ==, 0);
  sl_config_stop (next);
  sl_config_free (next);
}

static gchar *
load_error (const gchar *text)
{
  GError *error = NULL;
  SlConfig *cfg = sl_config_load_string (text, "contracts.conf", &error);
  g_assert_null (cfg);
  g_assert_nonnull (error);
  gchar *message = g_strdup (error->message);
  g_error_free (error);
  return message;
}

static void
test_global_options (void)
{
  /* a global a driver inherits reaches it */
  GError *error = NULL;
  SlConfig *cfg = sl_config_load_string ("options { scripted-note(\"hi\"); log-fifo-size(7); };\n"
                                         "log { source { inject(); }; destination { scripted(); }; };\n",
                                         "contracts.conf", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (instances->len, >, 0);
  g_assert_cmpstr (((Scripted *) g_ptr_array_index (instances, instances->len - 1))->note, ==, "hi");
  sl_config_free (cfg);

  /* one no driver takes is refused, with a suggestion */
  gchar *m = load_error ("options { scripted-nte(\"hi\"); };\n");
  g_assert_nonnull (strstr (m, "contracts.conf:1:11: unknown global option 'scripted-nte' in options {}; did you mean 'scripted-note'?"));
  g_free (m);
  /* a driver's option that is not inherited is no global option */
  m = load_error ("options { mode(ok); };\n");
  g_assert_nonnull (strstr (m, "unknown global option 'mode'"));
  g_free (m);
  /* and a global is checked as the option that inherits it */
  m = load_error ("options { log-fifo-size(many); };\n");
  g_assert_nonnull (strstr (m, "expects a number, got 'many'"));
  g_free (m);
}

/* Old options syslog-ng 3.x still loads load, with a notice; at a
 * destination sync() is still flush-lines(). */
static void
test_deprecated_options_load (void)
{
  GError *error = NULL;
  SlConfig *cfg = sl_config_load_string ("options { sync(0); long_hostnames(off); pad_size(0); stats_freq(0);\n"
                                         "  log_msg_size(8192); use_time_recvd(no); };\n"
                                         "log { source { inject(); }; destination { scripted(sync(5)); }; };\n",
                                         "contracts.conf", &error);
  g_assert_no_error (error);
  g_assert_nonnull (cfg);
  sl_config_free (cfg);
}

/* A second object of a name is refused, unless allow-config-dups is
 * defined: then it replaces the first. */
static void
test_config_dups (void)
{
  static const gchar *const text = "destination d { scripted(); };\n"
                                   "destination d { scripted(sync(5)); };\n"
                                   "log { source { inject(); }; destination(d); };\n";
  gchar *m = load_error (text);
  g_assert_nonnull (strstr (m, "contracts.conf:2:1: destination 'd' is already defined at contracts.conf:1:1"));
  g_free (m);

  GError *error = NULL;
  g_autofree gchar *allowed = g_strconcat ("@define allow-config-dups 1\n", text, NULL);
  SlConfig *cfg = sl_config_load_string (allowed, "contracts.conf", &error);
  g_assert_no_error (error);
  sl_config_free (cfg);
}

/* A path inside an object is built (test-routing checks where its
 * messages go); a source inside a destination's channel is refused. */
static void
test_channel_in_object (void)
{
  GError *error = NULL;
  SlConfig *cfg = sl_config_load_string ("destination d {\n  channel { destination { scripted(); }; };\n};\n"
                                         "log { source { inject(); }; destination(d); };\n",
                                         "contracts.conf", &error);
  g_assert_no_error (error);
  sl_config_free (cfg);
  gchar *m = load_error ("destination d {\n  channel { source { inject(); }; destination { scripted(); }; };\n};\n"
                         "log { source { inject(); }; destination(d); };\n");
  g_assert_nonnull (strstr (m, "contracts.conf:2:13: a nested log path takes the sources of the path around it"));
  g_free (m);
}

/* Classes that registration refuses */
static const SlDriverClass no_write_class = {
  .kind = SL_DRIVER_DESTINATION, .name = "no-write",
  .ops.destination = &(const SlDestinationOps) { .open = scripted_open },
};
static const SlDriverClass no_ops_class = { .kind = SL_DRIVER_PARSER, .name = "no-ops" };
static const SlDriverClass odd_kind_class = { .kind = (SlDriverKind) 42, .name = "odd-kind" };
static const SlOptionSpec twice_options[] = {
  { "log-fifo-size", SL_UNBOUND (SL_OPT_INT), "1", "" },
  { NULL }
};
static const SlDriverClass twice_class = {
  .kind = SL_DRIVER_DESTINATION, .name = "twice", .options = twice_options, .instance_size = sizeof (SlDriver),
  .ops.destination = &(const SlDestinationOps) { .write = scripted_write },
};
static const SlDriverClass clash_class = {
  .kind = SL_DRIVER_DESTINATION, .name = "scripted", .instance_size = sizeof (SlDriver),
  .ops.destination = &(const SlDestinationOps) { .write = scripted_write },
};
static const SlDriverClass fine_class = {
  .kind = SL_DRIVER_DESTINATION, .name = "fine", .instance_size = sizeof (SlDriver),
  .ops.destination = &(const SlDestinationOps) { .write = scripted_write },
};

/* Classes whose shape or tables are wrong: each would otherwise fail on
 * every instance, or write past its struct */
typedef struct
{
  SlDriver super;
  const gchar *port;
  gint count;
} Small;

#define BAD_DESTINATION(var, word, ...) \
  static const SlDriverClass var = { \
    .kind = SL_DRIVER_DESTINATION, .name = word, .instance_size = sizeof (Small), \
    .ops.destination = &(const SlDestinationOps) { .write = scripted_write }, __VA_ARGS__ \
  }

BAD_DESTINATION (bad_default_class, "bad-default",
                 .options = (const SlOptionSpec[]) { { "port", SL_PORT (Small, port), "99999", "h" }, { NULL } });
BAD_DESTINATION (bad_override_class, "bad-override",
                 .defaults = (const gchar *const[]) { "flush-lines", "many", NULL });
BAD_DESTINATION (unknown_override_class, "unknown-override",
                 .defaults = (const gchar *const[]) { "no-such-option", "1", NULL });
BAD_DESTINATION (upside_down_class, "upside-down",
                 .options = (const SlOptionSpec[]) { { "count", SL_INT (Small, count), "5", "h", SL_RANGE (10, 1) },
                                                     { NULL } });
BAD_DESTINATION (range_on_string_class, "range-on-string",
                 .options = (const SlOptionSpec[]) { { "port", SL_STRING (Small, port), NULL, "h", SL_RANGE (1, 2) },
                                                     { NULL } });
BAD_DESTINATION (choice_without_words_class, "no-words",
                 .options = (const SlOptionSpec[]) { { "count", SL_CHOICE (Small, count), NULL, "h" }, { NULL } });
BAD_DESTINATION (required_default_class, "required-default",
                 .options = (const SlOptionSpec[]) { { "count", SL_INT (Small, count), "1", "h",
                                                       .flags = SL_OPT_REQUIRED }, { NULL } });
BAD_DESTINATION (source_capability_class, "source-capability", .capabilities = SL_CAP_CONNECTIONS);
typedef struct
{
  SlDriver super;
  gint beyond;
} Large;
static const SlDriverClass beyond_class = {
  .kind = SL_DRIVER_DESTINATION, .name = "beyond", .instance_size = sizeof (SlDriver),
  .options = (const SlOptionSpec[]) { { "beyond", SL_INT (Large, beyond), "1", "h" }, { NULL } },
  .ops.destination = &(const SlDestinationOps) { .write = scripted_write },
};
static const SlDriverClass no_size_class = {
  .kind = SL_DRIVER_DESTINATION, .name = "no-size",
  .ops.destination = &(const SlDestinationOps) { .write = scripted_write },
};

static gchar *
register_error (const SlDriverClass *klass)
{
  const SlDriverClass *drivers[] = { &fine_class, klass, NULL };
  SlModule module = { SL_ABI_VERSION, "bad", drivers };
  GError *error = NULL;
  g_assert_false (sl_plugins_register (&module, "/plugins/bad.so", &error));
  g_assert_nonnull (error);
  gchar *message = g_strdup (error->message);
  g_error_free (error);
  /* a module registers whole or not at all */
  g_assert_null (sl_plugins_lookup (SL_DRIVER_DESTINATION, "fine"));
  return message;
}

static void
test_registration_refuses_half_drivers (void)
{
  gchar *m = register_error (&no_write_class);
  g_assert_cmpstr (m, ==, "plugin /plugins/bad.so: destination driver 'no-write' has no write()");
  g_free (m);
  m = register_error (&no_ops_class);
  g_assert_cmpstr (m, ==, "plugin /plugins/bad.so: parser driver 'no-ops' has no parser operations");
  g_free (m);
  m = register_error (&odd_kind_class);
  g_assert_cmpstr (m, ==, "plugin /plugins/bad.so: driver 'odd-kind' is of kind 42, which this sluiced does not know");
  g_free (m);
  m = register_error (&twice_class);
  g_assert_nonnull (strstr (m, "destination driver 'twice' declares option 'log-fifo-size' twice"));
  g_free (m);
  m = register_error (&clash_class);
  g_assert_nonnull (strstr (m, "plugin /plugins/bad.so: destination driver 'scripted' is already registered by "));
  g_assert_nonnull (strstr (m, "test-driver-contracts.c; the plugin is not loaded"));
  g_free (m);
  g_assert_true (sl_plugins_lookup (SL_DRIVER_DESTINATION, "scripted") == &scripted_class);
  static const struct
  {
    const SlDriverClass *klass;
    const gchar *message;
  } refused[] = {
    { &bad_default_class, "plugin /plugins/bad.so: destination driver 'bad-default': the default '99999' of option "
                          "port() is wrong: option 'port' of bad-default() must be 1 to 65535, got '99999'" },
    { &bad_override_class, "plugin /plugins/bad.so: destination driver 'bad-override': the default 'many' of option "
                           "flush-lines() is wrong: option 'flush-lines' of bad-override() expects a number, got 'many'" },
    { &unknown_override_class, "plugin /plugins/bad.so: destination driver 'unknown-override': its defaults name "
                               "'no-such-option', which is not one of its options or has no value" },
    { &upside_down_class, "plugin /plugins/bad.so: destination driver 'upside-down': option count() has a range "
                          "whose least value is above its greatest" },
    { &range_on_string_class, "plugin /plugins/bad.so: destination driver 'range-on-string': option port() is a "
                              "string and cannot have a range" },
    { &choice_without_words_class, "plugin /plugins/bad.so: destination driver 'no-words': option count() is a "
                                   "choice without words" },
    { &required_default_class, "plugin /plugins/bad.so: destination driver 'required-default': option count() is "
                               "required and has a default" },
    { &source_capability_class, "plugin /plugins/bad.so: destination driver 'source-capability': it has "
                                "capabilities 0x2, which a destination driver cannot have" },
    { &beyond_class, "plugin /plugins/bad.so: destination driver 'beyond': option beyond() is stored at offset" },
    { &no_size_class, "plugin /plugins/bad.so: destination driver 'no-size': its instance_size is 0; give it the "
                      "sizeof of the driver's struct, which starts with SlDriver" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      m = register_error (refused[i].klass);
      if (!g_str_has_prefix (m, refused[i].message))
        g_error ("'%s' does not start with '%s'", m, refused[i].message);
      g_free (m);
    }
  /* the same module again is no clash */
  g_assert_true (sl_plugins_register (&test_module, __FILE__, NULL));
}

static void
test_help_shows_what_the_core_adds (void)
{
  gchar *help = sl_plugins_help (&scripted_class);
  g_assert_nonnull (strstr (help, "mode(one of: ok, drop-odd, refuse, fail, disconnect-once, away) = ok"));
  g_assert_nonnull (strstr (help, "log-fifo-size(number, at least 1) = 10000"));
  g_assert_nonnull (strstr (help, "time-reopen(duration (a bare number: seconds), at least 1ms) = 10ms"));
  g_assert_nonnull (strstr (help, "workers(number, 1 to 1024) = 1"));
  g_assert_null (strstr (help, "ts-format"));
  g_free (help);
}

static gboolean
write_nothing (SlRsCall *call, GString *driver, GError **error)
{
  g_string_append (driver, "fine()");
  return TRUE;
}

/* An rsyslog module is looked up by its name; a second plugin serving the
 * same name is refused whole, naming both files, as a driver's is. */
static void
test_rsyslog_modules_register_once (void)
{
  static const SlRsModule omfine = { "omfine", SL_RS_MODULE_OUTPUT, NULL, NULL, write_nothing };
  static const SlRsModule omfine_again = { "omfine", SL_RS_MODULE_OUTPUT, NULL, NULL, write_nothing };
  static const SlRsModule upper = { "omFine", SL_RS_MODULE_OUTPUT, NULL, NULL, write_nothing };
  const SlDriverClass *none[] = { NULL };
  const SlRsModule *first[] = { &omfine, NULL };
  const SlRsModule *second[] = { &omfine_again, NULL };
  const SlRsModule *badly_named[] = { &upper, NULL };
  SlModule one = { SL_ABI_VERSION, "one", none, first };
  SlModule two = { SL_ABI_VERSION, "two", none, second };
  SlModule three = { SL_ABI_VERSION, "three", none, badly_named };
  GError *error = NULL;

  g_assert_true (sl_plugins_register (&one, "/plugins/one.so", &error));
  g_assert_no_error (error);
  g_assert_true (sl_plugins_register (&one, "/plugins/one.so", &error));
  g_assert_true (sl_plugins_rsyslog_lookup ("omfine") == &omfine);
  g_assert_null (sl_plugins_rsyslog_lookup ("omnothing"));
  g_assert_false (sl_plugins_register (&two, "/plugins/two.so", &error));
  g_assert_cmpstr (error->message, ==, "plugin /plugins/two.so: rsyslog module 'omfine' is already served by "
                                       "/plugins/one.so; the plugin is not loaded");
  g_clear_error (&error);
  g_assert_true (sl_plugins_rsyslog_lookup ("omfine") == &omfine);
  g_assert_false (sl_plugins_register (&three, "/plugins/three.so", &error));
  g_assert_nonnull (strstr (error->message, "rsyslog module 'omFine' needs a lower-case name"));
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  instances = g_ptr_array_new ();
  g_assert_true (sl_plugins_register (&test_module, __FILE__, NULL));
  g_test_add_func ("/contracts/dropped-not-written", test_dropped_on_purpose_is_not_written);
  g_test_add_func ("/contracts/refused-and-failing", test_refused_and_failing_are_dropped);
  g_test_add_func ("/contracts/not-connected", test_not_connected_reopens);
  g_test_add_func ("/contracts/workers", test_workers_share_the_queue);
  g_test_add_func ("/contracts/reload-hands-over", test_reload_hands_a_changed_queue_over);
  g_test_add_func ("/contracts/global-options", test_global_options);
  g_test_add_func ("/contracts/deprecated-options", test_deprecated_options_load);
  g_test_add_func ("/contracts/config-dups", test_config_dups);
  g_test_add_func ("/contracts/channel-in-object", test_channel_in_object);
  g_test_add_func ("/contracts/registration", test_registration_refuses_half_drivers);
  g_test_add_func ("/contracts/rsyslog-modules", test_rsyslog_modules_register_once);
  g_test_add_func ("/contracts/help", test_help_shows_what_the_core_adds);
  int status = g_test_run ();
  g_ptr_array_unref (instances);
  return status;
}
