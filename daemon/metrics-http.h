/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The optional HTTP endpoint of options { stats(listen(...)) }: GET
 * /metrics gives the counters in Prometheus's text format, GET /health
 * says the main loop answers. Read-only, served by the main loop, a
 * request of at most a few KiB, loopback unless an address says otherwise. */
#ifndef SL_METRICS_HTTP_H
#define SL_METRICS_HTTP_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlMetricsHttp SlMetricsHttp;

/* Whether address is one listen() takes: "host:port", "[v6]:port", or a
 * port alone (on 127.0.0.1). */
gboolean       sl_metrics_http_check_address (const gchar *address, GError **error);
/* Listens on address; the main loop of the default context serves it. */
SlMetricsHttp *sl_metrics_http_new     (const gchar *address, GError **error);
const gchar   *sl_metrics_http_address (const SlMetricsHttp *http);
/* Stops listening and drops the connections being served. */
void           sl_metrics_http_free    (SlMetricsHttp *http);

G_END_DECLS

#endif
