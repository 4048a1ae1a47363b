/* SPDX-License-Identifier: GPL-2.0-or-later */
/* omkafka as kafka(): without partitions.auto="on" omkafka writes every
 * message to partition 0 (its partitions.number is 1), which kafka()
 * cannot; with it, librdkafka's partitioner chooses, as kafka()'s does.
 * kafka()'s topic and key are templates, omkafka's plain text. */
#include "plugins/protocols/kafka/kafka-private.h"
#include "plugins/protocols/kafka/kafka-conf.h"
#include "core/i18n.h"

static const gchar *const omkafka_params[] = {
  "broker", "topic", "key", "template", "confparam", "topicconfparam", "partitions.auto", "partitions.number",
  "partitions.usefixed", "dynatopic", "dynatopic.cachesize", "errorfile", "statsfile", "statsname", "closetimeout",
  "resubmitonfailure", "keepfailedmessages", "failedmsgfile", "dynakey", NULL,
};

static gboolean
omkafka_write (SlRsCall *call, GString *driver, GError **error)
{
  const gchar *topic = sl_rs_call_value (call, "topic");

  if (!topic)
    return sl_rs_call_fail (call, NULL, error, _("rsyslog's omkafka needs topic="));
  if (!sl_rs_call_refuse (call, "partitions.number", error, _("kafka() lets librdkafka choose the partition"))
      || !sl_rs_call_refuse (call, "partitions.usefixed", error, _("kafka() lets librdkafka choose the partition"))
      || !sl_rs_call_refuse (call, "errorfile", error, _("kafka() keeps a message it could not send in its queue"))
      || !sl_rs_call_refuse (call, "statsfile", error, _("kafka()'s counters are Sluice's statistics"))
      || !sl_rs_call_refuse (call, "keepfailedmessages", error, _("use a disk-buffer() (queue.type=\"Disk\")"))
      || !sl_rs_call_refuse (call, "failedmsgfile", error, _("use a disk-buffer() (queue.type=\"Disk\")")))
    return FALSE;
  if ((sl_rs_call_flag (call, "dynatopic", FALSE)
       && !sl_rs_call_refuse (call, "dynatopic", error, _("a topic made from a template is not mapped")))
      || (sl_rs_call_flag (call, "dynakey", FALSE)
          && !sl_rs_call_refuse (call, "dynakey", error, _("a key made from a template is not mapped"))))
    return FALSE;
  if (!sl_rs_call_flag (call, "partitions.auto", FALSE))
    return sl_rs_call_fail (call, "partitions.auto", error,
                            _("rsyslog's omkafka writes every message to partition 0 unless partitions.auto=\"on\"; "
                              "Sluice's kafka() lets librdkafka choose the partition, as partitions.auto=\"on\" does"));

  g_autofree gchar *topic_text = sl_rs_text_literal (topic);
  g_autofree gchar *template = sl_rs_call_template (call, sl_rs_call_value (call, "template")
                                                            ? sl_rs_call_value (call, "template")
                                                            : "RSYSLOG_FileFormat", error);
  if (!template)
    return FALSE;
  g_string_append (driver, "kafka(");
  sl_rs_text_option (driver, "topic", topic_text);
  sl_rs_text_option (driver, "bootstrap-servers", sl_rs_call_value (call, "broker") ? sl_rs_call_value (call, "broker")
                                                                                    : "localhost:9092");
  if (sl_rs_call_value (call, "key"))
    {
      g_autofree gchar *key = sl_rs_text_literal (sl_rs_call_value (call, "key"));
      sl_rs_text_option (driver, "key", key);
    }
  g_string_append_printf (driver, " template(%s)", template);
  if (!kafka_conf_rsyslog_pairs (call, "confparam", driver, error)
      || !kafka_conf_rsyslog_pairs (call, "topicconfparam", driver, error))
    return FALSE;
  if (sl_rs_call_value (call, "closetimeout"))
    sl_rs_text_option (driver, "flush-timeout-on-shutdown", sl_rs_call_value (call, "closetimeout"));
  g_string_append_c (driver, ')');
  return TRUE;
}

const SlRsModule kafka_omkafka = {
  "omkafka", SL_RS_MODULE_OUTPUT, omkafka_params, NULL, omkafka_write,
};
