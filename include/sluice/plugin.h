/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The plugin kit: what a Sluice plugin may use, in one include.
 *   #include <sluice/plugin.h>
 * built with `pkg-config --cflags --libs sluice`. Everything declared here
 * is libsluice's public API (version node SLUICE_4); nothing else is. */
#ifndef SLUICE_PLUGIN_H
#define SLUICE_PLUGIN_H

#include "core/plugin/plugin.h"
#include "core/plugin/registry.h"
#include "core/compile/loader.h"
#include "core/route/driver.h"
#include "core/route/route.h"
#include "core/route/destination.h"
#include "core/plugin/rsyslog-module.h"
#include "core/plugin/options.h"
#include "core/message/message.h"
#include "core/compile/config.h"
#include "core/config/error.h"
#include "core/message/template.h"
#include "core/message/macros.h"
#include "core/message/timeutil.h"
#include "core/message/priority.h"
#include "core/route/source.h"
#include "core/io/activation.h"
#include "core/io/admission.h"
#include "core/io/net-connect.h"
#include "core/io/socket-reader.h"
#include "core/io/stream.h"
#include "core/io/dgram.h"
#include "core/io/stream-writer.h"
#include "core/io/resend-buffer.h"
#include "core/message/parser-input.h"
#include "core/message/scratch.h"
#include "core/message/list-text.h"
#include "core/route/filter-expr.h"
#include "core/compile/filter-expr-compile.h"
#include "core/compile/text-filter.h"
#include "core/message/matcher.h"
#include "core/store/persist.h"
#include "core/stats.h"
#include "core/internal.h"
#include "core/message/mark.h"
#include "core/i18n.h"
#include "core/io/tls.h"
#include "core/io/listener.h"
#include "core/message/window.h"
#include "core/message/str-repr.h"
#include "core/message/text-append.h"
#include "core/version.h"

#endif
