/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kafka() destination: what its options make of the producer's
 * configuration, and the errors they give. */
#include "plugins/protocols/kafka/kafka-private.h"
#include "tests/unit/plugin-fixture.h"
#include "core/compile/loader.h"

#include <string.h>

extern const SlModule sl_module;

/* The value librdkafka holds for name after the options were applied. */
static gchar *
conf_value (const gchar *text, const gchar *name)
{
  SlTestDriver t;
  GError *error = NULL;
  g_assert_true (sl_test_driver_new (&t, SL_DRIVER_DESTINATION, NULL, text, &error));
  g_assert_no_error (error);
  gchar value[512];
  size_t size = sizeof value;
  g_assert_cmpint (rd_kafka_conf_get (kafka_destination_conf ((KafkaDestination *) t.driver), name, value, &size),
                   ==, RD_KAFKA_CONF_OK);
  sl_test_driver_free (&t);
  return g_strdup (value);
}

static void
assert_refused (const gchar *text, const gchar *expected)
{
  SlTestDriver t;
  GError *error = NULL;
  g_assert_false (sl_test_driver_new (&t, SL_DRIVER_DESTINATION, NULL, text, &error));
  g_assert_nonnull (error);
  if (!strstr (error->message, expected))
    g_error ("'%s' not in: %s", expected, error->message);
  g_error_free (error);
  sl_test_driver_free (&t);
}

static void
test_config_pairs (void)
{
  const gchar *text = "kafka(bootstrap-servers(\"127.0.0.1:9092\") topic(\"logs\") "
                      "config(\"acks\" => \"all\" \"compression.type\" => \"lz4\" \"linger.ms\" => 2))";
  g_autofree gchar *acks = conf_value (text, "acks");
  g_autofree gchar *compression = conf_value (text, "compression.type");
  g_autofree gchar *linger = conf_value (text, "linger.ms");
  g_autofree gchar *servers = conf_value (text, "bootstrap.servers");
  /* librdkafka stores acks=all as -1 */
  g_assert_cmpstr (acks, ==, "-1");
  g_assert_cmpstr (compression, ==, "lz4");
  g_assert_cmpstr (linger, ==, "2");
  g_assert_cmpstr (servers, ==, "127.0.0.1:9092");
  g_autofree gchar *syslog_ng_name = conf_value ("kafka-c(bootstrap-servers(\"b:1\") topic(\"t\") "
                                                 "config(\"acks\" => 1))", "acks");
  g_assert_cmpstr (syslog_ng_name, ==, "1");
}

static void
test_errors (void)
{
  assert_refused ("kafka(topic(\"logs\"))", "kafka() needs bootstrap-servers(");
  assert_refused ("kafka(bootstrap-servers(\"b:1\"))", "kafka() needs topic()");
  assert_refused ("kafka(bootstrap-servers(\"b:1\") topic(\"no spaces\"))",
                  "'no spaces' is not a valid topic name");
  assert_refused ("kafka(bootstrap-servers(\"b:1\") topic(\"logs-$HOST\"))",
                  "topic() is a template, so fallback-topic() is needed");
  assert_refused ("kafka(bootstrap-servers(\"b:1\") topic(\"logs-$HOST\") fallback-topic(\"..\"))",
                  "'..' is not a valid topic name");
  assert_refused ("kafka(bootstrap-servers(\"b:1\") topic(\"t\") config(\"acks\" \"all\"))",
                  "takes \"key\" => value pairs");
  assert_refused ("kafka(bootstrap-servers(\"b:1\") topic(\"t\") config(\"acks\" => \"maybe\"))",
                  "test.conf:1:");
  assert_refused ("kafka(bootstrap-servers(\"b:1\") topic(\"t\") config(\"no.such.property\" => 1))",
                  "no.such.property");
  assert_refused ("kafka(bootstrap-servers(\"b:1\") topic(\"t\") config(\"bootstrap.servers\" => \"c:2\"))",
                  "config() may not set 'bootstrap.servers': use bootstrap-servers()");
}

static void
test_template_topic (void)
{
  SlTestDriver t;
  GError *error = NULL;
  g_assert_true (sl_test_driver_new (&t, SL_DRIVER_DESTINATION, NULL,
                                     "kafka(bootstrap-servers(\"b:1\") topic(\"logs-$PROGRAM\") "
                                     "fallback-topic(\"logs-other\"))", &error));
  g_assert_no_error (error);
  sl_test_driver_free (&t);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/kafka-destination/config-pairs", test_config_pairs);
  g_test_add_func ("/kafka-destination/errors", test_errors);
  g_test_add_func ("/kafka-destination/template-topic", test_template_topic);
  return g_test_run ();
}
