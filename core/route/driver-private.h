/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Making a driver instance: its class's option tables (its own and the
 * ones the core adds for its kind and capabilities) checked and bound, the
 * core's share of the values kept beside the instance, then the class's
 * init. Core units only; plugins see core/driver.h. */
#ifndef SL_DRIVER_PRIVATE_H
#define SL_DRIVER_PRIVATE_H

#include <glib.h>
#include "core/route/hook-commands.h"
#include "core/route/driver.h"
#include "core/stats.h"
#include "core/message/template.h"

G_BEGIN_DECLS

/* What a source's common options say (SL_CAP_PARSES, SL_CAP_CONNECTIONS). */
typedef struct
{
  guint32 flags;
  const gchar *format;
  gint iw_size;
  gint64 msg_size;
  gboolean keep_hostname;
  gboolean keep_timestamp;
  gboolean chain_hostnames;
  gboolean normalize_hostnames;
  gint use_dns;
  const gchar *default_facility;
  const gchar *default_priority;
  const gchar *host_override;
  const gchar *program_override;
  GPtrArray *tags;
  gint max_connections;
  gint max_connections_per_ip;
  gint64 idle_timeout_ms;
  gint64 first_message_timeout_ms;
  gint escape_control_chars;   /* SlEscapeControlChars */
  gint trim_large_messages;    /* SlTrimLargeMessages */
} SlSourceOptions;

/* A destination's mark-mode() (SL_CAP_MARKS), as syslog-ng names them. */
typedef enum
{
  SL_MARK_GLOBAL,       /* options { mark-mode() } decides */
  SL_MARK_INTERNAL,     /* writes internal()'s MARKs, makes none */
  SL_MARK_DST_IDLE,     /* makes one after mark-freq() without a message */
  SL_MARK_HOST_IDLE,    /* ... without a message the daemon did not make */
  SL_MARK_PERIODICAL,   /* makes one every mark-freq() */
  SL_MARK_NONE,
} SlMarkMode;

/* What a destination's disk-buffer() says (SL_CAP_DISK_BUFFER). */
typedef struct
{
  const SlCfgNode *node;   /* the disk-buffer(...) block, or NULL: no disk buffer */
  gboolean reliable;
  gint64 disk_buf_size;
  gint64 mem_buf_size;
  gint mem_buf_length;
  gint qout_size;
  const gchar *dir;        /* NULL: the folder of the persist file */
  gboolean prealloc;
} SlDiskBufferOptions;

/* What a destination's common options say. */
typedef struct
{
  gint fifo_size;
  gint flush_lines;
  gint64 flush_timeout_ms;
  gint64 time_reopen_ms;
  gint64 stall_timeout_ms;   /* how long it may hold back sources while writing nothing; 0: never */
  gint discard_mark;         /* queued messages past which the less important are dropped; 0: never */
  gint discard_level;        /* those of this level and below are (SL_LEVEL_COUNT: none) */
  gint throttle;
  gint workers;
  gint64 batch_timeout_ms;   /* SL_CAP_BATCHES: how long a partial batch waits for more */
  gint max_in_flight;        /* SL_CAP_ANSWERS: messages a writer sent that are not answered yet */
  gint suppress;             /* SL_CAP_SUPPRESS: syslog-ng's suppress() seconds; 0: off */
  gboolean reduce_repeats;   /* SL_CAP_SUPPRESS: rsyslog's $RepeatedMsgReduction */
  gboolean template_escape;
  gint on_error;             /* an SlOnError */
  gint ts_format;
  gint frac_digits;
  const gchar *time_zone;
  SlDiskBufferOptions disk_buffer;
  gint mark_mode;            /* SL_CAP_MARKS: an SlMarkMode, SL_MARK_GLOBAL for the daemon's */
  gint mark_freq;            /* seconds; 0: no MARK of its own */
} SlDestinationOptions;

/* Makes an instance of klass from node: options checked against its tables
 * and stored (template and filter options made by compiler), then init.
 * id names it in stats and messages ("s_net#0"). */
SlDriver   *sl_driver_new     (SlConfig *cfg, const SlDriverClass *klass, const SlCfgNode *node,
                               const SlCfgNode *globals, const gchar *id,
                               const SlOptionsCompiler *compiler, GError **error);
void        sl_driver_free    (SlDriver *driver);
const SlSourceOptions      *sl_driver_source_options      (const SlDriver *driver);
const SlDestinationOptions *sl_driver_destination_options (const SlDriver *driver);
/* What its hook-commands() says (sources and destinations), and whether
 * they were set up. */
SlHookCommands *sl_driver_hook_commands (const SlDriver *driver);
/* What a destination's disk-buffer files are called: its persist-name()
 * when written, else its id and a hash of its own options (not the core's,
 * such as disk-buffer() itself), so that a changed destination does not
 * replay another one's messages. */
gchar      *sl_driver_persist_name (const SlDriver *driver);
/* The entry of the core's tables that name in options {} stands for (an
 * option drivers inherit, or one of the daemon's own settings), or NULL;
 * every name it could have been is added to candidates. */
const SlOptionSpec *sl_driver_core_global (const gchar *name, GPtrArray *candidates);
/* Stores what the last stats(...) of globals says in settings (an option
 * not written takes its default), its children checked with positions.
 * The options returned own the strings; NULL on error. */
SlOptions  *sl_driver_bind_stats    (const SlCfgNode *globals, SlStatsSettings *settings, GError **error);

/* The daemon's own settings in options {} that something reads. */
typedef struct
{
  gint64 in_flight_bytes_max;   /* 0: no bound */
  gint mark_mode;               /* an SlMarkMode: what mark-mode(global) stands for */
  const gchar *user;            /* whom to run as after the start; NULL: as started */
  const gchar *group;
  const gchar *local_hostname;  /* NULL: the system's */
  gboolean use_fqdn;
} SlDaemonSettings;
/* Stores what globals says of them in settings; NULL on error. */
SlOptions  *sl_driver_bind_daemon   (const SlCfgNode *globals, SlDaemonSettings *settings, GError **error);

/* The tables of the core's own, for the reference: those it adds to
 * drivers (sl_driver_class_tables() returns the same pointers), the
 * daemon's global settings and the sub-options of its blocks. */
typedef struct
{
  const gchar *anchor;         /* a name for links: "source-options" */
  const gchar *title;
  const gchar *text;           /* who takes them, one sentence of Markdown */
  const SlOptionSpec *options;
} SlOptionGroup;
/* Terminated by an entry whose options are NULL. */
const SlOptionGroup *sl_driver_option_groups (void);

G_END_DECLS

#endif
