/* The plugin ABI: a shared object exports one SlModule named sl_module; each
 * of its driver classes declares the configuration word it answers to, the
 * options it takes, and its operations. */
#ifndef SL_PLUGIN_H
#define SL_PLUGIN_H

#include <glib.h>
#include <gmodule.h>
#include "core/message.h"
#include "core/options.h"

G_BEGIN_DECLS

#define SL_ABI_VERSION 1
#define SL_MODULE_SYMBOL "sl_module"

typedef enum
{
  SL_DRIVER_SOURCE,
  SL_DRIVER_DESTINATION,
  SL_DRIVER_FILTER,
  SL_DRIVER_PARSER,
  SL_DRIVER_REWRITE,
  SL_DRIVER_TEMPLATE_FUNCTION,
  SL_DRIVER_FORMAT,
  SL_DRIVER_KIND_COUNT
} SlDriverKind;

typedef struct _SlDriver SlDriver;
typedef struct _SlDriverClass SlDriverClass;
typedef struct _SlConfig SlConfig;
typedef struct _SlSource SlSource;
typedef struct _SlTemplate SlTemplate;
typedef struct _SlTemplateEnv SlTemplateEnv;
typedef struct _SlTfCall SlTfCall;

/* Options shared by every format parser, read from the source's options. */
typedef struct
{
  gboolean keep_hostname;
  gboolean keep_timestamp;
  gboolean syslog_protocol;   /* RFC 5424 expected */
  gboolean no_parse;
  gboolean store_raw;
  gint     default_pri;
  const gchar *host_override;
  const gchar *program_override;
} SlParseOptions;

/* One instance of a driver as the configuration made it. Plugins embed it
 * as the first member of their own struct (instance_size in the class). */
struct _SlDriver
{
  const SlDriverClass *klass;
  SlConfig *cfg;
  gchar *id;            /* for stats and messages: "s_net#0" */
  SlCfgPos pos;
};

/* A template function call: `$(name arg ...)`. args are the arguments as
 * written; arg_templates the same compiled as templates. */
struct _SlTfCall
{
  const SlDriverClass *klass;
  gint argc;
  gchar **args;
  SlTemplate **arg_templates;
  gpointer state;
};

struct _SlDriverClass
{
  SlDriverKind kind;
  const gchar *name;
  const gchar *summary;
  const SlOptionSpec *options;   /* terminated by an entry with name NULL */
  gsize instance_size;

  /* every instance kind: read options, check them; no side effects yet */
  gboolean (*init)   (SlDriver *self, SlOptions *options, GError **error);
  void     (*free)   (SlDriver *self);

  /* sources: begin receiving and post messages through sl_source_post() */
  gboolean (*start)  (SlDriver *self, SlSource *source, GError **error);
  void     (*stop)   (SlDriver *self);

  /* destinations: run on the destination's own thread */
  gboolean (*open)   (SlDriver *self, GError **error);
  /* Writes msgs[0..n); returns how many were written. Fewer than n means
   * the rest stays queued and is retried after time-reopen(). */
  guint    (*write)  (SlDriver *self, SlMessage **msgs, guint n);
  void     (*flush)  (SlDriver *self);
  void     (*reopen) (SlDriver *self);
  void     (*close)  (SlDriver *self);
  /* About once a second once open, busy, idle or waiting to retry a failed
   * write: for work that depends on time rather than on messages, such as
   * closing files left idle. TRUE ends a wait to retry before
   * time-reopen() (the driver can take messages again). */
  gboolean (*tick)   (SlDriver *self);

  /* filter functions */
  gboolean (*match)  (SlDriver *self, const SlMessage *msg);

  /* parsers and rewrites: may replace *msg through sl_message_make_writable().
   * A filter function that changes the message it matches (stores matches)
   * offers this too; the core then calls it instead of match(). */
  gboolean (*process) (SlDriver *self, SlMessage **msg);

  /* template functions */
  gboolean (*tf_prepare) (SlTfCall *call, GError **error);
  void     (*tf_eval)    (const SlTfCall *call, const SlMessage *msg,
                          const SlTemplateEnv *env, GString *out);
  void     (*tf_free)    (gpointer state);

  /* message formats (format("syslog") of a source): parse msg->raw in place */
  gboolean (*parse_format) (SlMessage *msg, const SlParseOptions *options);
};

typedef struct
{
  guint32 abi_version;
  const gchar *name;
  const SlDriverClass *const *drivers;  /* NULL-terminated */
} SlModule;

/* The words of a source's flags(), in the order of their bits. A table
 * that lists its own "flags" before SL_SOURCE_COMMON_OPTIONS (for another
 * default) uses these choices: the first entry of a name wins. */
#define SL_SOURCE_FLAG_CHOICES \
  "no-parse,syslog-protocol,store-raw-message,validate-utf8,assume-utf8,no-multi-line,kernel,no-hostname"

/* Options every source takes; the core reads them, a source's table lists
 * them after its own. */
#define SL_SOURCE_COMMON_OPTIONS \
  { "flags", SL_OPT_FLAGS, NULL, "how to take messages", SL_SOURCE_FLAG_CHOICES }, \
  { "format", SL_OPT_STRING, "syslog", "the message format parser" }, \
  { "log-iw-size", SL_OPT_INT, "10000", "flow-control window: messages in flight before reading pauses" }, \
  { "log-msg-size", SL_OPT_INT, "65536", "longest message kept; longer ones are truncated and counted" }, \
  { "log-fetch-limit", SL_OPT_INT, "100", "accepted for syslog-ng compatibility; reads are sized by bytes" }, \
  { "keep-hostname", SL_OPT_BOOL, "no", "keep the host name the message carries instead of the sender's" }, \
  { "keep-timestamp", SL_OPT_BOOL, "yes", "keep the message's own timestamp instead of the receive time" }, \
  { "chain-hostnames", SL_OPT_BOOL, "no", "HOST becomes the message's host name and the sender's, joined by /" }, \
  { "use-dns", SL_OPT_STRING, "no", "accepted; names are never resolved on the hot path" }, \
  { "use-fqdn", SL_OPT_BOOL, "no", "accepted for syslog-ng compatibility" }, \
  { "dns-cache", SL_OPT_BOOL, "no", "accepted for syslog-ng compatibility" }, \
  { "normalize-hostnames", SL_OPT_BOOL, "no", "lowercase host names" }, \
  { "default-facility", SL_OPT_STRING, "user", "facility of messages without <PRI>" }, \
  { "default-priority", SL_OPT_STRING, "notice", "level of messages without <PRI>" }, \
  { "default-level", SL_OPT_STRING, NULL, "the same as default-priority()" }, \
  { "host-override", SL_OPT_STRING, NULL, "set HOST of every message" }, \
  { "program-override", SL_OPT_STRING, NULL, "set PROGRAM of every message" }, \
  { "tags", SL_OPT_LIST, NULL, "tags added to every message" }, \
  { "time-zone", SL_OPT_STRING, NULL, "zone of timestamps that carry none" }

/* Options every destination takes, read by the core. */
#define SL_DESTINATION_COMMON_OPTIONS \
  { "log-fifo-size", SL_OPT_INT, "10000", "queue length; beyond it messages without flow control are dropped and counted" }, \
  { "flush-lines", SL_OPT_INT, "1000", "most messages written in one batch" }, \
  { "flush-timeout", SL_OPT_INT, "1000", "milliseconds before a partial batch is flushed" }, \
  { "time-reopen", SL_OPT_INT, "60", "seconds to wait before retrying after an error" }, \
  { "throttle", SL_OPT_INT, "0", "most messages written a second; 0: no limit" }, \
  { "template-escape", SL_OPT_BOOL, "no", "escape quotes and backslashes in values" }, \
  { "ts-format", SL_OPT_STRING, "rfc3164", "timestamp form of $STAMP: rfc3164, iso, full or unix" }, \
  { "frac-digits", SL_OPT_INT, "0", "digits of the second in ISO timestamps" }, \
  { "time-zone", SL_OPT_STRING, NULL, "convert timestamps to this zone" }, \
  { "send-time-zone", SL_OPT_STRING, NULL, "the same as time-zone()" }, \
  { "local-time-zone", SL_OPT_STRING, NULL, "accepted for syslog-ng compatibility" }

/* For a destination driver's write() and flush(), which run on the
 * destination's own thread: whether the destination is being stopped. A
 * driver that waits on a slow peer gives up then, so that a stalled remote
 * cannot hold the daemon's shutdown. */
gboolean              sl_destination_stopping (void);

/* The loader and registry. */
gboolean              sl_plugins_load       (const gchar *search_path, GError **error);
const SlDriverClass  *sl_plugins_lookup     (SlDriverKind kind, const gchar *name);
const SlDriverClass  *sl_plugins_lookup_any (const gchar *name);
/* Names of the drivers of a kind, sorted; free the array with g_ptr_array_unref. */
GPtrArray            *sl_plugins_names      (SlDriverKind kind);
const gchar          *sl_driver_kind_name   (SlDriverKind kind);
void                  sl_plugins_register   (const SlModule *module);
gchar                *sl_plugins_help       (const SlDriverClass *klass);

G_END_DECLS

#endif
