/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kafka() destination, for its unit test. */
#ifndef KAFKA_PRIVATE_H
#define KAFKA_PRIVATE_H

#include "plugins/protocols/kafka/kafka-conf.h"

G_BEGIN_DECLS

typedef struct _KafkaDestination KafkaDestination;

/* The producer's configuration as init() made it from the options. */
const rd_kafka_conf_t *kafka_destination_conf (const KafkaDestination *self);

/* rsyslog's omkafka (kafka-rsyslog.c) */
extern const SlRsModule kafka_omkafka;

G_END_DECLS

#endif
