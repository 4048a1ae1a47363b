/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The plugin ABI: a shared object exports one SlModule named sl_module; each
 * of its driver classes declares the configuration word it answers to, the
 * options it takes (bound to the fields of its own struct), what it can do
 * beyond its kind, and the operations of its kind. */
#ifndef SL_PLUGIN_H
#define SL_PLUGIN_H

#include <glib.h>
#include <gmodule.h>
#include "core/message.h"
#include "core/options.h"
#include "core/rsyslog-module.h"
#include "core/write-result.h"

G_BEGIN_DECLS

#define SL_ABI_VERSION 6
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
};

/* Sources: begin receiving and post messages through sl_source_post(). */
typedef struct
{
  gboolean (*start) (SlDriver *self, SlSource *source, GError **error);   /* required */
  void     (*stop)  (SlDriver *self);
} SlSourceOps;

/* Destinations: every operation runs on a writer thread of the
 * destination; with workers(N) each writer has an instance of its own. */
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
  /* the rsyslog modules the plugin implements (core/rsyslog-module.h),
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
};

/* For a source whose protocol fixes how it reads, whatever flags() says
 * (syslog() reads RFC 5424): syslog-ng's flags() add to such a driver's own
 * flags, where Sluice's replace the default. Called from init(). */
void                  sl_driver_source_add_flags (SlDriver *driver, guint32 flags);
/* persist-name() as written, or NULL: a source keeps its state under it. */
const gchar *sl_driver_persist_name_option (const SlDriver *driver);

/* The environment a destination with SL_CAP_TEMPLATES renders in, from its
 * ts-format(), frac-digits(), time-zone() and template-escape(). */
const SlTemplateEnv  *sl_driver_template_env (const SlDriver *driver);

/* For a destination's operations, which run on its writer threads: whether
 * the destination is being stopped. A driver that waits on a slow peer
 * gives up then, so that a stalled remote cannot hold the daemon's shutdown. */
gboolean              sl_destination_stopping (void);

/* What a parser with SL_CAP_EMITS uses to put a message of its own into
 * the path after it, as syslog-ng's parsers emit synthetic messages.
 *
 * sl_parser_emit(): only inside that parser's process(), on its thread:
 * msg goes on along the rest of the path (and of the paths around it)
 * right away, ahead of the message being processed and in the same
 * routing batch. msg must be the caller's alone (a new message or a
 * clone); it takes no flow-control window. Gives up the caller's
 * reference. */
void                  sl_parser_emit        (SlMessage *msg);
/* Where the message being processed goes on from the parser, kept for
 * emitting later (a timeout): only inside process(). Free with
 * sl_continuation_free(). */
typedef struct _SlContinuation SlContinuation;
SlContinuation       *sl_parser_continuation (void);
void                  sl_continuation_free  (SlContinuation *k);
/* Outside process(), on the main thread (a timer of the default main
 * context): routes msg from k, taken while self processed a message, if
 * self's configuration still runs; otherwise msg is dropped. Gives up the
 * caller's reference. */
gboolean              sl_parser_emit_later  (SlDriver *self, const SlContinuation *k, SlMessage *msg);

/* The registry (sluiced loads the plugins: core/plugin-private.h). */
/* Registers every class and rsyslog module of module, or none: a class of
 * an unknown kind, without its kind's required operations, with a table
 * that names an option twice (its own or one the core adds), or named like
 * a class another module registered is refused, naming both files; so is
 * an rsyslog module served twice. file is where module came from. */
gboolean              sl_plugins_register   (const SlModule *module, const gchar *file, GError **error);
const SlDriverClass  *sl_plugins_lookup     (SlDriverKind kind, const gchar *name);
/* Names of the drivers of a kind, sorted; free the array with g_ptr_array_unref. */
GPtrArray            *sl_plugins_names      (SlDriverKind kind);
/* Calls func for every registered class, in kind and name order. */
void                  sl_plugins_foreach    (void (*func) (const SlDriverClass *klass, gpointer user_data),
                                             gpointer user_data);
const gchar          *sl_driver_kind_name   (SlDriverKind kind);
/* The option tables of a class: its own, then those the core adds for its
 * kind and capabilities; NULL-terminated, at most SL_DRIVER_TABLES_MAX. */
#define SL_DRIVER_TABLES_MAX 10
void                  sl_driver_class_tables (const SlDriverClass *klass,
                                              const SlOptionSpec *tables[SL_DRIVER_TABLES_MAX + 1]);
gchar                *sl_plugins_help       (const SlDriverClass *klass);

G_END_DECLS

#endif
