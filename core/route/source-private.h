/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlSource as the core runs it: one source driver, the paths that take
 * its messages, its parse options and counters. */
#ifndef SL_SOURCE_PRIVATE_H
#define SL_SOURCE_PRIVATE_H

#include "core/route/source.h"
#include "core/stats.h"
#include "core/route/tap.h"

G_BEGIN_DECLS

struct _SlSource
{
  SlDriver *driver;
  SlConfig *cfg;
  gchar *group;
  SlTag source_tag;          /* .source.GROUP, set on every message as syslog-ng does */
  GPtrArray *paths;                 /* SlPath that take this source, in order */
  GPtrArray *compiled;              /* the paths of a configuration being compiled, not yet live */
  GRWLock route_lock;               /* routing reads paths; a reload swaps them */
  const SlDriverClass *format;
  const gchar *transport;           /* sl_source_set_transport(), or NULL */
  gsize transport_len;
  SlParseOptions parse;
  gsize max_msg_size;
  SlTrimLargeMessages trim_large_messages;
  SlEscapeControlChars escape_control_chars;
  guint iw_size;
  guint max_connections;
  guint max_connections_per_ip;     /* 0: no limit */
  gint64 idle_timeout_ms;           /* 0: never */
  gint64 first_message_timeout_ms;  /* 0: never */
  gboolean chain_hostnames;
  gboolean normalize_hostnames;
  gboolean validate_utf8;
  gboolean sender_pid;              /* sl_source_set_sender_pid() */
  gboolean tag_pid;                 /* sl_source_set_tag_pid() */
  gboolean ignore_own;              /* sl_source_set_ignore_own() */
  SlAnnotate annotate;              /* sl_source_set_annotate() */
  SlRateLimitSpec rate_limit;       /* sl_source_set_rate_limit() */
  GArray *tags;                     /* SlTag of tags(), interned once */
  gboolean started;
  SlCounter *received;
  SlCounter *truncated;
  SlCounter *parse_errors;
  SlCounter *invalid_utf8;
  SlTapPoint *tap;                  /* of its source object: what it posts */
};

SlSource *sl_source_new   (SlConfig *cfg, SlDriver *driver, const gchar *group, GError **error);
/* The compiled paths become the live ones; what routes next uses them. */
void      sl_source_use_compiled_paths (SlSource *src);
gboolean  sl_source_start (SlSource *src, GError **error);
void      sl_source_stop  (SlSource *src);
void      sl_source_free  (SlSource *src);

G_END_DECLS

#endif
