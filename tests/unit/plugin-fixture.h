/* SPDX-License-Identifier: GPL-2.0-or-later */
/* For the unit tests of filter, parser and rewrite plugins: a driver made
 * the way the daemon makes it, from configuration text, with its options
 * checked, its init run, and freed with its configuration. */
#ifndef SL_TEST_PLUGIN_FIXTURE_H
#define SL_TEST_PLUGIN_FIXTURE_H

#include <glib.h>
#include "core/compile/config.h"
#include "core/plugin/plugin.h"

G_BEGIN_DECLS

typedef struct
{
  SlConfig *cfg;
  SlDriver *driver;
} SlTestDriver;

/* Loads `objects` followed by `KIND t { text; };` (KIND being filter,
 * parser or rewrite as kind says) and makes the driver text writes.
 * objects may name filters and templates the driver refers to. FALSE, with
 * error set, when the configuration or the driver's init refused it; free
 * t in either case. */
gboolean sl_test_driver_new  (SlTestDriver *t, SlDriverKind kind, const gchar *objects,
                              const gchar *text, GError **error);
void     sl_test_driver_free (SlTestDriver *t);

/* The driver's counter of that name, as the stats show it. */
gint64   sl_test_driver_counter (const SlTestDriver *t, const gchar *name);

/* A message with the fields in the NULL-terminated list of name, value
 * pairs set ("PROGRAM", "sshd", ...). */
SlMessage *sl_test_message_new (const gchar *first_name, ...) G_GNUC_NULL_TERMINATED;

/* A field of msg as a new string, or NULL when unset. */
gchar   *sl_test_message_field (const SlMessage *msg, const gchar *name);

G_END_DECLS

#endif
