/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the OTLP tests need of node: the npm packages of package.json
 * (the OpenTelemetry JavaScript SDK, grpc-js, protobufjs) installed into
 * the build tree once, and NODE_PATH pointing at them. */
#ifndef OTEL_TEST_NODE_H
#define OTEL_TEST_NODE_H

#include <glib.h>

/* Installs the packages unless the build tree has them (a package.json
 * there equal to ours says so) and sets NODE_PATH; FALSE (and the test
 * failed) when npm failed. */
gboolean otel_test_node_ready  (void);
/* SL_TOP_SRCDIR/relative, newly allocated */
gchar   *otel_test_source_path (const gchar *relative);

#endif
