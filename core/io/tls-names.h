/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A peer certificate's host names against trusted-names(): rsyslog's
 * permitted peers of its x509/name mode. */
#ifndef SL_TLS_NAMES_H
#define SL_TLS_NAMES_H

#include <glib.h>
#include <openssl/x509.h>

G_BEGIN_DECLS

/* Whether name matches pattern label by label, as rsyslog matches a
 * permitted peer: the same number of labels, each the same, or "*" (any
 * label), "*end" (a label ending so), "start*" (one starting so); a
 * pattern without '*' is the name itself. */
gboolean sl_tls_name_matches (const gchar *pattern, const gchar *name);

/* Whether one of cert's dNSName alternative names or its common name
 * matches one of patterns (NULL-terminated). */
gboolean sl_tls_cert_names_match (X509 *cert, gchar **patterns);

G_END_DECLS

#endif
