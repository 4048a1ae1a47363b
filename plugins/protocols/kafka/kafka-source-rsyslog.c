/* SPDX-License-Identifier: GPL-2.0-or-later */
/* imkafka as kafka(): the records parsed as syslog messages; a host name
 * in them is taken only with parseHostname="on", as rsyslog does. */
#include "plugins/protocols/kafka/kafka-source-rsyslog.h"
#include "plugins/protocols/kafka/kafka-conf.h"
#include "core/i18n.h"

static const gchar *const imkafka_params[] = { "broker", "topic", "consumergroup", "confparam", "parsehostname",
                                               NULL };

static gboolean
imkafka_write (SlRsCall *call, GString *driver, GError **error)
{
  if (!sl_rs_call_value (call, "topic"))
    return sl_rs_call_fail (call, NULL, error, _("rsyslog's imkafka input needs topic="));
  g_string_append (driver, "kafka(topics(");
  sl_rs_text_quote (driver, sl_rs_call_value (call, "topic"));
  g_string_append (driver, ") bootstrap-servers(");
  sl_rs_text_quote (driver, sl_rs_call_value (call, "broker") ? sl_rs_call_value (call, "broker") : "localhost:9092");
  g_string_append_c (driver, ')');
  if (sl_rs_call_value (call, "consumergroup"))
    sl_rs_text_option (driver, "group-id", sl_rs_call_value (call, "consumergroup"));
  if (!kafka_conf_rsyslog_pairs (call, "confparam", driver, error))
    return FALSE;
  if (!sl_rs_call_flag (call, "parsehostname", FALSE))
    g_string_append (driver, " flags(no-hostname)");
  g_string_append_c (driver, ')');
  return TRUE;
}

const SlRsModule kafka_imkafka = {
  "imkafka", SL_RS_MODULE_INPUT, imkafka_params, NULL, imkafka_write,
};
