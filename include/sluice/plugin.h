/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The plugin kit: what a Sluice plugin may use, in one include.
 *   #include <sluice/plugin.h>
 * built with `pkg-config --cflags --libs sluice`. Everything declared here
 * is libsluice's public API (version node SLUICE_4); nothing else is. */
#ifndef SLUICE_PLUGIN_H
#define SLUICE_PLUGIN_H

#include "core/plugin.h"
#include "core/registry.h"
#include "core/loader.h"
#include "core/driver.h"
#include "core/route.h"
#include "core/destination.h"
#include "core/rsyslog-module.h"
#include "core/options.h"
#include "core/message.h"
#include "core/config.h"
#include "core/config/error.h"
#include "core/template.h"
#include "core/macros.h"
#include "core/timeutil.h"
#include "core/priority.h"
#include "core/source.h"
#include "core/activation.h"
#include "core/admission.h"
#include "core/net-connect.h"
#include "core/socket-reader.h"
#include "core/stream.h"
#include "core/dgram.h"
#include "core/stream-writer.h"
#include "core/resend-buffer.h"
#include "core/parser-input.h"
#include "core/scratch.h"
#include "core/list-text.h"
#include "core/filter-expr.h"
#include "core/filter-expr-compile.h"
#include "core/text-filter.h"
#include "core/matcher.h"
#include "core/persist.h"
#include "core/stats.h"
#include "core/internal.h"
#include "core/mark.h"
#include "core/i18n.h"
#include "core/tls.h"
#include "core/listener.h"
#include "core/window.h"
#include "core/str-repr.h"
#include "core/text-append.h"
#include "core/version.h"

#endif
