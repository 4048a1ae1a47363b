/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the kafka() destination and source share: their librdkafka
 * configuration from bootstrap-servers() and config(), librdkafka's
 * own log lines in the daemon's log, and rsyslog's confParam. */
#ifndef KAFKA_CONF_H
#define KAFKA_CONF_H

#include "core/plugin/plugin.h"
#include "core/plugin/rsyslog-module.h"

#include <librdkafka/rdkafka.h>

G_BEGIN_DECLS

/* A configuration with bootstrap.servers, then config()'s pairs
 * (SlOptionPair, "name" => "value") in the order written, then fixed:
 * name, value, ..., NULL, the properties the driver sets itself, from its
 * options or for its delivery guarantees, which config() may not name.
 * Errors point at the option. */
rd_kafka_conf_t *kafka_conf_new (SlDriver *driver, const gchar *bootstrap_servers,
                                    const GPtrArray *pairs, const gchar *const *fixed,
                                    GError **error);

/* omkafka's and imkafka's name=value list in the parameter param, as
 * config("name" => "value") options of kafka() */
gboolean kafka_conf_rsyslog_pairs (SlRsCall *call, const gchar *param, GString *driver, GError **error);

G_END_DECLS

#endif
