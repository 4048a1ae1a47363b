/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two daemons for the network destination tests: a sending sluiced whose
 * network destination forwards to a receiving one (or to a peer daemon
 * such as syslog-ng), each in a temporary folder of its own, both stopped
 * and removed by the teardown whatever the test did. */
#ifndef RELAY_FIXTURE_H
#define RELAY_FIXTURE_H

#include "tests/functional/harness.h"

G_BEGIN_DECLS

typedef struct
{
  SlTestEnv sender;
  SlTestEnv receiver;
  SlTestEnv peer;         /* a second receiver, when a test needs one */
} Relay;

void relay_setup    (Relay *relay, gconstpointer data);
void relay_teardown (Relay *relay, gconstpointer data);

#define RELAY_TEST_ADD(path, func) \
  g_test_add ((path), Relay, NULL, relay_setup, (func), relay_teardown)

/* "%u", newly allocated. */
gchar   *relay_port_text (guint16 port);

/* count lines "<13>Nov 29 20:25:57 relayhost app: seq NNNNNN\n" from first. */
GString *relay_numbered_lines (guint first, guint count);

/* Reads "seq N" lines (a MESSAGE template) and counts the numbers of
 * 1..expected that are missing, and the lines that repeat a number seen
 * before; FALSE (and the test failed) on a line that is no "seq N". */
gboolean relay_count_sequence (const gchar *path, guint expected, guint *missing, guint *duplicates);

/* Waits until path holds every number of 1..expected, failing only when
 * that stops improving for the deadline; what is missing in the end. */
guint    relay_wait_sequence (SlTestEnv *env, const gchar *path, guint expected, guint *duplicates);

G_END_DECLS

#endif
