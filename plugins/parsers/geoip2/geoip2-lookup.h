/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What geoip2() and $(geoip2) share: a MaxMind DB opened as syslog-ng
 * opens it (database() or the first of the usual GeoLite2-City places),
 * and a value written as syslog-ng writes it. */
#ifndef GEOIP2_LOOKUP_H
#define GEOIP2_LOOKUP_H

#include <glib.h>
#include <maxminddb.h>

/* path NULL: the usual places; the path opened is kept in *opened. */
MMDB_s  *geoip2_open         (const gchar *path, gchar **opened, GError **error);
void     geoip2_close        (MMDB_s *db);
/* MMDB_lookup_string() without getaddrinfo()'s allocations for the plain
 * dotted and colon forms, which are nearly every address looked up. */
MMDB_lookup_result_s geoip2_lookup (MMDB_s *db, const gchar *address, int *gai_error, int *mmdb_error);
/* A scalar (string, number, boolean) as text; FALSE for anything else. */
gboolean geoip2_append_value (GString *out, const MMDB_entry_data_s *data);

#endif
