/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The plugin ABI: a shared object exports one SlModule named sl_module; each
 * of its driver classes declares the configuration word it answers to, the
 * options it takes (bound to the fields of its own struct), what it can do
 * beyond its kind, and the operations of its kind. Types only: the registry
 * is core/plugin/registry.h; what drivers ask of the core is in core/route/driver.h,
 * core/route/route.h (parsers that emit) and core/destination.h. */
#ifndef SL_PLUGIN_H
#define SL_PLUGIN_H

#include <glib.h>
#include <gmodule.h>
#include "core/message/message.h"
#include "core/plugin/options.h"
#include "core/plugin/rsyslog-module.h"
#include "core/plugin/write-result.h"

G_BEGIN_DECLS

#define SL_ABI_VERSION 9
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

/* Options shared by every format parser, from the source's options. */
typedef struct
{
  gboolean keep_hostname;
  gboolean keep_timestamp;
  gboolean syslog_protocol;   /* RFC 5424 expected */
  gboolean no_rfc3164_fallback;  /* with syslog_protocol: nothing else is read */
  gboolean no_parse;
  gboolean store_raw;
  gint     default_pri;
  const gchar *host_override;
  const gchar *program_override;
  gboolean detect_syslog_protocol;   /* RFC 5424 when the line starts "<PRI>1 ", else RFC 3164 */
  gboolean no_hostname;       /* flags(no-hostname): an RFC 3164 line names no host */
  /* @version: 4.x: syslog-ng 4's tags on what the parser met (syslog.*),
   * and its error records are local ones */
  gboolean syslog_ng_4;
  /* flags(sdata-as-received): $SDATA is the structured data's text as it
   * came, as rsyslogd's %structured-data% is, not written again from its
   * params (which splits a name at its last dot, as syslog-ng does) */
  gboolean sdata_as_received;
} SlParseOptions;

/* One instance of a driver as the configuration made it. Plugins embed it
 * as the first member of their own struct (instance_size in the class);
 * the values of the class's option table are stored there before init. */
struct _SlDriver
{
  const SlDriverClass *klass;
  SlConfig *cfg;
  gchar *id;            /* for stats and messages: "s_net#0" */
  SlCfgPos pos;
  SlOptions *options;   /* what was written: sl_options_is_set(), sl_options_pos() */
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
  /* the type syslog-ng 4 gives what eval() writes, when the call is a
   * template alone; prepare() sets it, a string unless it does */
  SlValueType type;
};

/* Sources: begin receiving and post messages through sl_source_post(). */
typedef struct
{
  gboolean (*start) (SlDriver *self, SlSource *source, GError **error);   /* required */
  void     (*stop)  (SlDriver *self);
} SlSourceOps;

/* Destinations: every operation runs on a writer thread of the
 * destination; with workers(N) each writer has an instance of its own.
 * A destination whose peer answers later (SL_CAP_ANSWERS) keeps messages
 * in flight across calls of write(): see SlWriteBatch. */
typedef struct
{
  gboolean      (*open)   (SlDriver *self, GError **error);
  SlWriteResult (*write)  (SlDriver *self, SlWriteBatch *batch);   /* required */
  void          (*flush)  (SlDriver *self);
  void          (*reopen) (SlDriver *self);
  void          (*close)  (SlDriver *self);
  /* About once a second once open, busy, idle or waiting to retry a failed
   * write: for work that depends on time rather than on messages, such as
   * closing files left idle. TRUE ends a wait to retry before
   * time-reopen() (the driver can take messages again). */
  gboolean      (*tick)   (SlDriver *self);
} SlDestinationOps;

/* Filter functions: match() tells whether a message passes. A function
 * that changes the message it matches (stores matches) offers process()
 * as well, which may replace *msg through sl_message_make_writable(); the
 * core then calls that instead. One of the two is required. */
typedef struct
{
  gboolean (*match)   (SlDriver *self, const SlMessage *msg);
  gboolean (*process) (SlDriver *self, SlMessage **msg);
} SlFilterOps;

/* Parsers: FALSE when the input does not parse (the path does not match). */
typedef struct
{
  gboolean (*process) (SlDriver *self, SlMessage **msg);   /* required */
} SlParserOps;

/* Rewrites: may replace *msg through sl_message_make_writable(). */
typedef struct
{
  gboolean (*process) (SlDriver *self, SlMessage **msg);   /* required */
} SlRewriteOps;

/* Template functions have no instances: prepare() checks a call's
 * arguments once, when the template is compiled. */
typedef struct
{
  gboolean (*prepare) (SlTfCall *call, GError **error);
  void     (*eval)    (const SlTfCall *call, const SlMessage *msg,
                       const SlTemplateEnv *env, GString *out);   /* required */
  void     (*free)    (gpointer state);
} SlTemplateFunctionOps;

/* Message formats (format("syslog") of a source): parse msg->raw in place. */
typedef struct
{
  gboolean (*parse) (SlMessage *msg, const SlParseOptions *options);   /* required */
  /* 0: a source that reads a stream cuts it into lines; else the format
   * reads binary records of this many bytes, which a file() source hands
   * it whole (syslog-ng's format("pacct")) */
  gsize record_size;
} SlFormatOps;

/* What a driver does beyond what its kind implies; the core adds the
 * options that go with each (sl_driver_class_tables()). */
enum
{
  /* sources: frames are parsed by a format(), with the common source options */
  SL_CAP_PARSES = 1 << 0,
  /* sources: accepts connections; max-connections() divides log-iw-size() */
  SL_CAP_CONNECTIONS = 1 << 1,
  /* destinations: renders templates; ts-format(), time-zone(), ... */
  SL_CAP_TEMPLATES = 1 << 2,
  /* destinations: order may be given up, so that workers(N) writers share the queue */
  SL_CAP_WORKERS = 1 << 3,
  /* destinations: can queue, so disk-buffer() may keep their messages on disk */
  SL_CAP_DISK_BUFFER = 1 << 4,
  /* destinations: a request per batch is costly, so a writer may wait
   * batch-timeout() for a full batch of flush-lines() messages */
  SL_CAP_BATCHES = 1 << 5,
  /* parsers: puts messages of its own making into the path after it
   * (grouping-by()'s aggregates), see sl_parser_emit() */
  SL_CAP_EMITS = 1 << 6,
  /* destinations: syslog-ng's LogWriter ones, which take suppress() (and
   * reduce-repeats(), rsyslog's $RepeatedMsgReduction) */
  SL_CAP_SUPPRESS = 1 << 7,
  /* destinations: syslog-ng's mark-mode() and mark-freq(): which MARKs
   * of internal() it writes, and when it makes its own */
  SL_CAP_MARKS = 1 << 8,
  /* destinations: the peer answers after write() returned (RELP rsp, AMQP
   * confirms, MQTT PUBACK): messages stay in flight across calls of
   * write(), up to max-in-flight() of them, and are settled as the driver
   * reports their answers (SlWriteBatch's answered) */
  SL_CAP_ANSWERS = 1 << 9,
};

struct _SlDriverClass
{
  SlDriverKind kind;
  const gchar *name;
  const gchar *summary;
  const SlOptionSpec *options;   /* its own, terminated by an entry with name NULL */
  /* other defaults for options the core adds: name, value, ..., NULL */
  const gchar *const *defaults;
  guint32 capabilities;          /* SL_CAP_* */
  gsize instance_size;
  /* the plugin's own, for classes that share their code and differ in
   * what it does (tcp() and syslog() listen on other ports by default) */
  gconstpointer data;

  /* instances: the options are already stored; check them, no side effects yet */
  gboolean (*init) (SlDriver *self, GError **error);
  void     (*free) (SlDriver *self);

  /* the operations of the class's kind; a class whose kind's operations
   * are missing or lack a required one is refused when it registers */
  union
  {
    const SlSourceOps *source;
    const SlDestinationOps *destination;
    const SlFilterOps *filter;
    const SlParserOps *parser;
    const SlRewriteOps *rewrite;
    const SlTemplateFunctionOps *template_function;
    const SlFormatOps *format;
  } ops;
};

typedef struct
{
  guint32 abi_version;
  const gchar *name;
  const SlDriverClass *const *drivers;  /* NULL-terminated */
  /* the rsyslog modules the plugin implements (core/plugin/rsyslog-module.h),
   * NULL-terminated; NULL for none */
  const SlRsModule *const *rsyslog_modules;
} SlModule;

/* The bits of a source's flags() */
enum
{
  SL_SOURCE_FLAG_NO_PARSE = 1 << 0,
  SL_SOURCE_FLAG_SYSLOG_PROTOCOL = 1 << 1,
  SL_SOURCE_FLAG_STORE_RAW = 1 << 2,
  SL_SOURCE_FLAG_VALIDATE_UTF8 = 1 << 3,
  SL_SOURCE_FLAG_ASSUME_UTF8 = 1 << 4,
  SL_SOURCE_FLAG_NO_MULTI_LINE = 1 << 5,
  SL_SOURCE_FLAG_KERNEL = 1 << 6,
  SL_SOURCE_FLAG_NO_HOSTNAME = 1 << 7,
  SL_SOURCE_FLAG_NO_RFC3164_FALLBACK = 1 << 8,
  SL_SOURCE_FLAG_DETECT_SYSLOG_PROTOCOL = 1 << 9,
  SL_SOURCE_FLAG_SDATA_AS_RECEIVED = 1 << 10,
};

G_END_DECLS

#endif
