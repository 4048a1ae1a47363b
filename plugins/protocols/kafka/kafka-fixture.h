/* SPDX-License-Identifier: GPL-2.0-or-later */
/* For the kafka() functional tests: the mock cluster (kafka-mock) started
 * and commanded, kcat as the independent client on the other side, and
 * deliveries checked with sluice-gen verify. Functions that fail mark the
 * running test failed. */
#ifndef KAFKA_FIXTURE_H
#define KAFKA_FIXTURE_H

#include "tests/functional/harness.h"

G_BEGIN_DECLS

typedef struct _SlKafkaMock KafkaMock;

/* A cluster of 3 brokers with the topics ("name:partitions") of the
 * NULL-terminated list; NULL when it did not start. */
KafkaMock *kafka_mock_start     (const gchar *const *topics);
const gchar *kafka_mock_bootstrap (KafkaMock *mock);
/* Sends one command line and returns its answer line; NULL on failure. */
gchar       *kafka_mock_command   (KafkaMock *mock, const gchar *command);
/* The messages topic received, or -1. */
gint64       kafka_mock_count     (KafkaMock *mock, const gchar *topic);
/* Waits until topic holds at least n messages (failing when the count
 * stops growing for the deadline); the count. */
gint64       kafka_mock_wait_count (KafkaMock *mock, const gchar *topic, gint64 n);
/* Ends its input and waits for it to exit. */
void         kafka_mock_stop      (KafkaMock *mock);

/* kcat: the topic's messages, one a line, into path / path's lines into topic. */
gboolean     kafka_consume        (KafkaMock *mock, const gchar *topic, const gchar *path);
/* Messages of topic whose first copy came after that of a higher number
 * in their partition (kcat reads the partitions): 0 when each partition
 * kept the order sent; -1 on failure. */
gint64       kafka_out_of_order   (KafkaMock *mock, const gchar *topic);
gboolean     kafka_produce        (KafkaMock *mock, const gchar *topic, const gchar *path);

/* sluice-gen verify --expect expected of path (one connection): what is
 * missing and, in *duplicated, what came more than once. -1 on failure.
 * report: show verify's report as a test message when something is missing. */
gint64       kafka_verify         (const gchar *path, guint64 expected, gint64 *duplicated, gboolean report);

G_END_DECLS

#endif
