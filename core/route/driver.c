/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/route/driver-private.h"
#include "core/config/error.h"
#include "core/route/hook-commands.h"
#include "core/route/scheduler.h"
#include "core/i18n.h"
#include "core/message/priority.h"
#include "core/route/source-receive.h"
#include "core/stats-private.h"
#include "core/message/timeutil.h"

#include <string.h>

/* The core's share of an instance, kept after the plugin's struct in the
 * same allocation: what the options the core adds say, for the source or
 * destination that runs the driver, and the template environment. */
typedef struct
{
  SlSourceOptions source;
  SlDestinationOptions destination;
  SlTemplateEnv env;
  SlOptions *disk_buffer;   /* the values of disk-buffer(...) */
  SlHookCommands hooks;
  const gchar *persist_name;   /* persist-name(), NULL when not written */
  gboolean internal;           /* internal(): its counters at stats level 3 */
} SlDriverCore;

static const SlOptionWord source_flag_words[] = {
  { "no-parse", SL_SOURCE_FLAG_NO_PARSE },
  { "syslog-protocol", SL_SOURCE_FLAG_SYSLOG_PROTOCOL },
  { "store-raw-message", SL_SOURCE_FLAG_STORE_RAW },
  { "validate-utf8", SL_SOURCE_FLAG_VALIDATE_UTF8 },
  { "assume-utf8", SL_SOURCE_FLAG_ASSUME_UTF8 },
  { "no-multi-line", SL_SOURCE_FLAG_NO_MULTI_LINE },
  { "kernel", SL_SOURCE_FLAG_KERNEL },
  { "no-hostname", SL_SOURCE_FLAG_NO_HOSTNAME },
  { "no-rfc3164-fallback", SL_SOURCE_FLAG_NO_RFC3164_FALLBACK },
  { "detect-syslog-protocol", SL_SOURCE_FLAG_DETECT_SYSLOG_PROTOCOL },
  { "sdata-as-received", SL_SOURCE_FLAG_SDATA_AS_RECEIVED },
  { NULL }
};

static const SlOptionWord escape_words[] = {
  { "no", SL_ESCAPE_CC_NONE }, { "yes", SL_ESCAPE_CC_ALL }, { "except-tab", SL_ESCAPE_CC_BUT_TAB }, { NULL }
};

static const SlOptionWord trim_words[] = {
  { "no", SL_TRIM_SPLIT }, { "yes", SL_TRIM_DROP_REST }, { "rsyslog", SL_TRIM_SPLIT_LOSING_ONE }, { NULL }
};

static const SlOptionWord use_dns_words[] = {
  { "no", 0 }, { "yes", 1 }, { "persist-only", 2 }, { NULL }
};

#define SRC(m) SlDriverCore, source.m
static const SlOptionSpec source_options[] = {
  { "flags", SL_FLAGS (SRC (flags)), NULL, "how to take messages; syslog-protocol reads RFC 5424, detect-syslog-protocol reads a line that starts with <PRI>1 as RFC 5424 and any other as RFC 3164; sdata-as-received keeps ${SDATA} the structured data's text as it came, as rsyslog's %structured-data%, not written again from its params", .words = source_flag_words, .inherit = "flags" },
  { "format", SL_STRING (SRC (format)), "syslog", "the message format parser" },
  { "log-iw-size", SL_INT (SRC (iw_size)), "10000", "flow-control window: messages in flight before reading pauses",
    .inherit = "log-iw-size", SL_RANGE_POSITIVE },
  { "log-msg-size", SL_SIZE (SRC (msg_size)), "65536", "longest message kept; longer ones are truncated and counted",
    .inherit = "log-msg-size", SL_RANGE (64, 1 << 30) },
  { "trim-large-messages", SL_CHOICE (SRC (trim_large_messages)), "no",
    "what becomes of the rest of a line longer than log-msg-size(): no reads it as the next message, as syslog-ng "
    "does; yes drops it; rsyslog reads it as the next message less its first byte, as rsyslogd's imtcp does",
    .words = trim_words, .inherit = "trim-large-messages" },
  { "escape-control-chars", SL_CHOICE (SRC (escape_control_chars)), "no",
    "write each control character (below 0x20) of a received message as # and three octal digits before it is "
    "parsed, as rsyslogd's parser.escapeControlCharactersOnReceive does; except-tab keeps tabs",
    .words = escape_words, .inherit = "escape-control-chars" },
  { "log-fetch-limit", SL_UNBOUND (SL_OPT_INT), "100", "accepted for syslog-ng compatibility; reads are sized by bytes",
    .inherit = "log-fetch-limit" },
  { "keep-hostname", SL_BOOL (SRC (keep_hostname)), "no", "keep the host name the message carries instead of the sender's",
    .inherit = "keep-hostname" },
  { "keep-timestamp", SL_BOOL (SRC (keep_timestamp)), "yes", "keep the message's own timestamp instead of the receive time",
    .inherit = "keep-timestamp" },
  { "chain-hostnames", SL_BOOL (SRC (chain_hostnames)), "no", "HOST becomes the message's host name and the sender's, joined by /",
    .inherit = "chain-hostnames" },
  { "use-dns", SL_CHOICE (SRC (use_dns)), "no", "accepted; names are never resolved on the hot path",
    .words = use_dns_words, .inherit = "use-dns" },
  { "use-fqdn", SL_UNBOUND (SL_OPT_BOOL), "no",
    "names are never resolved, so a source's own changes nothing; options { use-fqdn(yes) } makes this host's name "
    "(HOST of local messages, $LOGHOST) the full one", .inherit = "use-fqdn" },
  { "dns-cache", SL_UNBOUND (SL_OPT_BOOL), "no", "accepted for syslog-ng compatibility", .inherit = "dns-cache" },
  { "normalize-hostnames", SL_BOOL (SRC (normalize_hostnames)), "no", "lowercase host names",
    .inherit = "normalize-hostnames" },
  { "default-facility", SL_STRING (SRC (default_facility)), "user", "facility of messages without <PRI>" },
  { "default-priority", SL_STRING (SRC (default_priority)), "notice", "level of messages without <PRI>" },
  { "default-level", SL_STRING (SRC (default_priority)), NULL, "the same as default-priority()" },
  { "host-override", SL_STRING (SRC (host_override)), NULL, "set HOST of every message" },
  { "program-override", SL_STRING (SRC (program_override)), NULL, "set PROGRAM of every message" },
  { "tags", SL_LIST (SRC (tags)), NULL, "tags added to every message" },
  { "log-prefix", SL_STRING (SRC (program_override)), NULL, "the old name of program-override()",
    .flags = SL_OPT_DEPRECATED },
  { "time-zone", SL_UNBOUND (SL_OPT_STRING), NULL, "accepted for syslog-ng compatibility; stamps without a zone are taken as local",
    .inherit = "recv-time-zone" },
  { NULL }
};

static const SlOptionSpec connection_options[] = {
  { "max-connections", SL_INT (SRC (max_connections)), "10", "connections served at once; a newcomer waits in the listen backlog until one closes or makes room for it: the oldest that never completed a message, else the one idle longest (5 s at least); syslog-ng closes the newcomer instead",
    .inherit = "max-connections", SL_RANGE_POSITIVE },
  { "max-connections-per-ip", SL_INT (SRC (max_connections_per_ip)), "0",
    "connections served at once from one address; more are reset and counted as rejected; 0: no limit",
    .inherit = "max-connections-per-ip", SL_RANGE_NON_NEGATIVE },
  { "idle-timeout", SL_DURATION (SRC (idle_timeout_ms)), "0",
    "close a connection that brought no complete message for this long; 0: never", .inherit = "idle-timeout" },
  { "first-message-timeout", SL_DURATION (SRC (first_message_timeout_ms)), "30",
    "close a connection that brought no complete message this long after it was accepted; 0: never (syslog-ng has no such limit)",
    .inherit = "first-message-timeout" },
  { NULL }
};
#undef SRC

/* rsyslog's severities by number as well, as queue.discardSeverity takes them */
static const SlOptionWord discard_level_words[] = {
  { "emerg", 0 }, { "alert", 1 }, { "crit", 2 }, { "err", 3 }, { "error", 3 }, { "warning", 4 }, { "warn", 4 },
  { "notice", 5 }, { "info", 6 }, { "debug", 7 }, { "none", SL_LEVEL_COUNT },
  { "0", 0 }, { "1", 1 }, { "2", 2 }, { "3", 3 }, { "4", 4 }, { "5", 5 }, { "6", 6 }, { "7", 7 },
  { "8", SL_LEVEL_COUNT },
  { NULL }
};

#define DST(m) SlDriverCore, destination.m
static const SlOptionSpec queue_options[] = {
  { "log-fifo-size", SL_INT (DST (fifo_size)), "10000", "queue length; beyond it messages without flow control are dropped and counted",
    .inherit = "log-fifo-size", SL_RANGE_POSITIVE },
  { "flush-lines", SL_INT (DST (flush_lines)), "1000", "most messages written in one batch (at most 1024; 0: 1)",
    .inherit = "flush-lines", SL_RANGE_NON_NEGATIVE },
  { "flush-timeout", SL_DURATION_MS (DST (flush_timeout_ms)), "1000", "how long a partial batch waits before it is flushed",
    .inherit = "flush-timeout" },
  { "time-reopen", SL_DURATION (DST (time_reopen_ms)), "60", "the longest wait before retrying after an error: the first retry comes after 200 ms, each next one twice as long, up to this (syslog-ng waits this long every time)",
    .inherit = "time-reopen", SL_RANGE (1, G_MAXINT64) },
  { "stall-timeout", SL_DURATION (DST (stall_timeout_ms)), "5",
    "how long a destination that writes nothing may hold back the sources of paths without flags(flow-control) "
    "(they wait while it writes, however slowly); after that their messages are dropped past log-fifo-size(), "
    "counted, until it writes again; 0: drop at a full queue at once, as syslog-ng does",
    .inherit = "stall-timeout", SL_RANGE (0, G_MAXINT64) },
  { "discard-mark", SL_INT (DST (discard_mark)), "0",
    "with this many messages queued, those of discard-level() or less important are dropped as they come, even "
    "under flow control (rsyslog's queue.discardMark); 0: never", SL_RANGE_NON_NEGATIVE },
  { "discard-level", SL_CHOICE (DST (discard_level)), "none",
    "the most important level discard-mark() drops, and every less important one (rsyslog's queue.discardSeverity)",
    .words = discard_level_words },
  { "throttle", SL_INT (DST (throttle)), "0", "most messages written a second; 0: no limit", SL_RANGE_NON_NEGATIVE },
  /* syslog-ng 3.x still reads these as flush-lines() */
  { "sync", SL_INT (DST (flush_lines)), NULL, "the old name of flush-lines()", .flags = SL_OPT_DEPRECATED,
    SL_RANGE_NON_NEGATIVE },
  { "sync-freq", SL_INT (DST (flush_lines)), NULL, "the old name of flush-lines()", .flags = SL_OPT_DEPRECATED,
    SL_RANGE_NON_NEGATIVE },
  { NULL }
};

static const SlOptionSpec template_options[] = {
  { "template-escape", SL_BOOL (DST (template_escape)), "no", "escape quotes and backslashes in values",
    .inherit = "template-escape" },
  { "on-error", SL_CHOICE (DST (on_error)), "drop-message",
    "a typed value that does not cast, in $(format-json) and its kin: the function writes nothing (drop-message), "
    "leaves the value out (drop-property) or writes it as a string (fallback-to-string); silently-... logs nothing",
    .words = sl_on_error_words, .inherit = "on-error" },
  { "ts-format", SL_CHOICE (DST (ts_format)), "rfc3164", "timestamp form of $STAMP",
    .words = sl_ts_format_words, .inherit = "ts-format" },
  { "frac-digits", SL_INT (DST (frac_digits)), "0", "digits of the second in ISO timestamps", .inherit = "frac-digits",
    SL_RANGE (0, 9) },
  { "time-zone", SL_STRING (DST (time_zone)), NULL, "convert timestamps to this zone", .inherit = "send-time-zone" },
  { "send-time-zone", SL_STRING (DST (time_zone)), NULL, "the same as time-zone()" },
  { "local-time-zone", SL_UNBOUND (SL_OPT_STRING), NULL, "accepted for syslog-ng compatibility", .inherit = "local-time-zone" },
  { NULL }
};

static const SlOptionSpec disk_buffer_option[] = {
  { "disk-buffer", SL_BLOCK (DST (disk_buffer.node)), NULL,
    "keep the queue on disk: reliable(), disk-buf-size(), mem-buf-size(), mem-buf-length(), qout-size(), dir()" },
  { NULL }
};

#define DB(m) SlDiskBufferOptions, m
/* syslog-ng 3.38's disk-buffer() options */
static const SlOptionSpec disk_buffer_options[] = {
  { "reliable", SL_BOOL (DB (reliable)), "no", "acknowledge a message only once it is on disk (fdatasync)" },
  { "disk-buf-size", SL_SIZE (DB (disk_buf_size)), NULL, "most bytes the buffer keeps on disk",
    .flags = SL_OPT_REQUIRED, SL_RANGE (1, G_MAXINT64) },
  { "mem-buf-size", SL_SIZE (DB (mem_buf_size)), "163840000", "reliable(yes): bytes of messages kept in memory as well, so writers need not read them back" },
  { "mem-buf-length", SL_INT (DB (mem_buf_length)), "10000", "reliable(no): messages kept in memory before the disk is used",
    SL_RANGE_NON_NEGATIVE },
  { "qout-size", SL_INT (DB (qout_size)), "64", "reliable(no): messages kept in memory in front of the disk, besides mem-buf-length()",
    SL_RANGE_NON_NEGATIVE },
  { "dir", SL_STRING (DB (dir)), NULL, "folder of the buffer's files; default: the persist file's" },
  { "prealloc", SL_BOOL (DB (prealloc)), "no", "allocate each segment file whole when it is made" },
  { "truncate-size-ratio", SL_UNBOUND (SL_OPT_STRING), NULL, "accepted for syslog-ng compatibility; segments are deleted whole" },
  { NULL }
};
#undef DB

static const SlOptionSpec worker_options[] = {
  { "workers", SL_INT (DST (workers)), "1", "writer threads sharing the queue, each with its own connection; order is kept only with 1",
    SL_RANGE (1, 1024) },
  { NULL }
};

#define MARK_MODE_WORDS \
  { "internal", SL_MARK_INTERNAL }, \
  { "dst-idle", SL_MARK_DST_IDLE }, \
  { "host-idle", SL_MARK_HOST_IDLE }, \
  { "periodical", SL_MARK_PERIODICAL }, \
  { "none", SL_MARK_NONE }
/* options { mark-mode() } takes every mode but global */
static const SlOptionWord mark_mode_words[] = { MARK_MODE_WORDS, { "global", SL_MARK_GLOBAL }, { NULL, 0 } };
static const SlOptionWord global_mark_mode_words[] = { MARK_MODE_WORDS, { NULL, 0 } };
#undef MARK_MODE_WORDS

static const SlOptionSpec mark_options[] = {
  { "mark-mode", SL_CHOICE (DST (mark_mode)), "global",
    "MARK messages: internal writes internal()'s (the others drop them), dst-idle makes one after mark-freq() "
    "without a message, host-idle after mark-freq() without a message from a source (not the daemon's own), "
    "periodical every mark-freq(), none, global as options { mark-mode() }",
    .words = mark_mode_words },
  { "mark-freq", SL_INT (DST (mark_freq)), "1200", "seconds for mark-mode(); 0: no MARK of its own",
    .inherit = "mark-freq", SL_RANGE_NON_NEGATIVE },
  { "mark", SL_INT (DST (mark_freq)), NULL, "the old name of mark-freq()", .flags = SL_OPT_DEPRECATED,
    .inherit = "mark", SL_RANGE_NON_NEGATIVE },
  { NULL }
};

static const SlOptionSpec batch_options[] = {
  { "batch-timeout", SL_DURATION_MS (DST (batch_timeout_ms)), "0",
    "how long a writer waits for flush-lines() messages before it writes fewer; 0: it never waits" },
  { NULL }
};

static const SlOptionSpec answer_options[] = {
  { "max-in-flight", SL_INT (DST (max_in_flight)), "4096",
    "messages a writer has sent and its peer has not answered yet; once there are as many, it waits for answers "
    "before it sends more (each still holds its place in its source's window and in disk-buffer())",
    SL_RANGE (1, 1048576) },
  { NULL }
};

/* syslog-ng's LogWriter options (SL_CAP_SUPPRESS); core/suppress.h. */
static const SlOptionSpec suppress_options[] = {
  { "suppress", SL_INT (DST (suppress)), "0",
    "hold back a message with the MESSAGE, HOST, PROGRAM and PID of the last one written when it was received "
    "within this many seconds of it, and write \"Last message '...' repeated N times, suppressed by syslog-ng "
    "on HOST\" before the next different message or once the seconds have passed since the first repeat, as "
    "syslog-ng does; 0: off",
    .inherit = "suppress", SL_RANGE_NON_NEGATIVE },
  { "reduce-repeats", SL_BOOL (DST (reduce_repeats)), "no",
    "rsyslog's $RepeatedMsgReduction (Sluice's own name): hold back a message with the MESSAGE, HOST, PROGRAM "
    "and PID of the last one written, however late, and before the next different message (or at a stop) "
    "write the last repeat itself, or after two or more a copy of it whose text is \"message repeated N "
    "times: [...]\"; not with suppress()", .inherit = "reduce-repeats" },
  { NULL }
};
#undef DST

/* The daemon's own settings in options {}: syslog-ng's global options that
 * no driver inherits, accepted so that its configurations load. */
#define INTERNAL_OPTION \
  { "internal", SL_BOOL (SlDriverCore, internal), "no", \
    "count as one of the configuration library's own: the \"Log statistics\" message names its counters only " \
    "from stats(level(3)), as syslog-ng 4 registers them" }

/* Every source and destination: syslog-ng's persist-name() and internal(). */
static const SlOptionSpec persist_name_option[] = {
  { "persist-name", SL_STRING (SlDriverCore, persist_name), NULL,
    "the name the driver's state is kept under (file positions, its disk buffer) instead of one made "
    "from its options, so that the state survives changing them" },
  INTERNAL_OPTION,
  { NULL }
};

/* Every parser and rewrite: syslog-ng 4's internal(), which its SCL's
 * parsers set. */
static const SlOptionSpec internal_option[] = {
  INTERNAL_OPTION,
  { NULL }
};

#define IN_FLIGHT_RANGE SL_RANGE (1 << 20, G_MAXINT64 / 2)
static const SlOptionSpec daemon_globals[] = {
  { "local-hostname", SL_UNBOUND (SL_OPT_STRING), NULL,
    "the name of this host in the messages it makes and takes from local sources, and $LOGHOST (Sluice's own, as "
    "rsyslog's localHostName); not set: the system's host name, up to its first dot unless use-fqdn(yes)" },
  { "in-flight-bytes-max", SL_UNBOUND (SL_OPT_SIZE), NULL,
    "the most bytes of messages the daemon holds at once, over every source and queue (Sluice's own): past it "
    "flow-controlled sources stop reading, as when their window is full, and paths without flow control drop "
    "and count; not set: no bound beyond each source's window and queue",
    IN_FLIGHT_RANGE },
  { "recv-time-zone", SL_UNBOUND (SL_OPT_STRING), NULL, "accepted for syslog-ng compatibility; stamps without a zone are taken as local" },
  { "time-zone", SL_UNBOUND (SL_OPT_STRING), NULL,
    "the same as send-time-zone() (syslog-ng 3.38 reads it so in options {}; recv-time-zone() is left as it is)" },
  { "check-hostname", SL_UNBOUND (SL_OPT_BOOL), NULL, "accepted for syslog-ng compatibility; host names are not checked" },
  { "bad-hostname", SL_UNBOUND (SL_OPT_STRING), NULL, "accepted for syslog-ng compatibility; no host name is refused" },
  { "dns-cache-size", SL_UNBOUND (SL_OPT_INT), NULL, "accepted for syslog-ng compatibility; names are never resolved" },
  { "dns-cache-expire", SL_UNBOUND (SL_OPT_INT), NULL, "accepted for syslog-ng compatibility; names are never resolved" },
  { "dns-cache-expire-failed", SL_UNBOUND (SL_OPT_INT), NULL, "accepted for syslog-ng compatibility; names are never resolved" },
  { "dns-cache-hosts", SL_UNBOUND (SL_OPT_STRING), NULL, "accepted for syslog-ng compatibility; names are never resolved" },
  { "user", SL_UNBOUND (SL_OPT_STRING), NULL,
    "the user sluiced runs as once the configuration is loaded, as --user (which wins) says; read at the start, "
    "a reload must not change it (Sluice's own; rsyslog's $PrivDropToUser)" },
  { "group", SL_UNBOUND (SL_OPT_STRING), NULL,
    "the group sluiced runs as once the configuration is loaded, as --group (which wins) says (Sluice's own; "
    "rsyslog's $PrivDropToGroup)" },
  { "mark-freq", SL_UNBOUND (SL_OPT_INT), NULL,
    "seconds without a message after which internal() writes a MARK, and destinations' mark-freq(); 0: none",
    SL_RANGE_NON_NEGATIVE },
  { "mark-mode", SL_UNBOUND (SL_OPT_CHOICE), NULL,
    "what destinations' mark-mode(global) stands for (their default but for file(), pipe(), stdout(), unix-stream() "
    "and unix-dgram(), whose default is none); default host-idle, as in syslog-ng",
    .words = global_mark_mode_words },
  { "stats", SL_UNBOUND (SL_OPT_BLOCK), NULL, "statistics: listen() serves them over HTTP, freq() and level() write them into internal()" },
  { "stats-freq", SL_UNBOUND (SL_OPT_INT), NULL, "syslog-ng 3's spelling of stats(freq())" },
  { "stats-level", SL_UNBOUND (SL_OPT_INT), NULL, "syslog-ng 3's spelling of stats(level())" },
  { "stats-lifetime", SL_UNBOUND (SL_OPT_INT), NULL, "accepted for syslog-ng compatibility; every counter is always kept" },
  { "stats-max-dynamics", SL_UNBOUND (SL_OPT_INT), NULL, "accepted for syslog-ng compatibility; every counter is always kept" },
  { "threaded", SL_UNBOUND (SL_OPT_BOOL), NULL, "accepted for syslog-ng compatibility; sources and destinations always run on threads of their own" },
  { "use-uniqid", SL_UNBOUND (SL_OPT_BOOL), NULL, "accepted for syslog-ng compatibility; messages get no unique id" },
  { "on-error", SL_UNBOUND (SL_OPT_CHOICE), NULL, "destinations' on-error()", .words = sl_on_error_words },
  { "log-level", SL_UNBOUND (SL_OPT_STRING), NULL, "accepted for syslog-ng compatibility; sluiced -v and -d set how much it says" },
  { "custom-domain", SL_UNBOUND (SL_OPT_STRING), NULL, "accepted for syslog-ng compatibility; host names are not completed" },
  { "file-template", SL_UNBOUND (SL_OPT_STRING), NULL, "accepted for syslog-ng compatibility; give each destination its template()" },
  { "proto-template", SL_UNBOUND (SL_OPT_STRING), NULL, "accepted for syslog-ng compatibility; give each destination its template()" },
  { "time-sleep", SL_UNBOUND (SL_OPT_INT), NULL, "accepted for syslog-ng compatibility; ignored" },
  { "keep-alive", SL_UNBOUND (SL_OPT_BOOL), NULL, "accepted for syslog-ng compatibility; what a reload keeps open is decided per driver" },
  { "pass-unix-credentials", SL_UNBOUND (SL_OPT_BOOL), NULL, "accepted for syslog-ng compatibility; peer credentials are not read" },
  /* obsolete in syslog-ng 3.x, which still loads them with a warning */
  { "sync", SL_UNBOUND (SL_OPT_INT), NULL, "the old name of flush-lines()", .flags = SL_OPT_DEPRECATED },
  { "sync-freq", SL_UNBOUND (SL_OPT_INT), NULL, "the old name of flush-lines()", .flags = SL_OPT_DEPRECATED },
  { "long-hostnames", SL_UNBOUND (SL_OPT_BOOL), NULL, "the old name of chain-hostnames()", .flags = SL_OPT_DEPRECATED },
  { "pad-size", SL_UNBOUND (SL_OPT_INT), NULL, "obsolete in syslog-ng; accepted and ignored", .flags = SL_OPT_DEPRECATED },
  { "use-time-recvd", SL_UNBOUND (SL_OPT_BOOL), NULL, "obsolete in syslog-ng; use the R_ macros, such as $R_ISODATE, for the receive time", .flags = SL_OPT_DEPRECATED },
  { "use-rcptid", SL_UNBOUND (SL_OPT_BOOL), NULL, "the old name of use-uniqid()", .flags = SL_OPT_DEPRECATED },
  { "log-prefix", SL_UNBOUND (SL_OPT_STRING), NULL, "the old name of program-override()", .flags = SL_OPT_DEPRECATED },
  { NULL }
};

/* The settings of daemon_globals that something reads, taken from
 * options {} (checked there already, as daemon_globals declares them). */
#define DS(m) SlDaemonSettings, m
static const SlOptionSpec daemon_settings[] = {
  { "in-flight-bytes-max", SL_SIZE (DS (in_flight_bytes_max)), NULL, "see daemon_globals",
    .inherit = "in-flight-bytes-max", IN_FLIGHT_RANGE },
  { "mark-mode", SL_CHOICE (DS (mark_mode)), "host-idle", "see daemon_globals", .words = global_mark_mode_words,
    .inherit = "mark-mode" },
  { "user", SL_STRING (DS (user)), NULL, "see daemon_globals", .inherit = "user" },
  { "group", SL_STRING (DS (group)), NULL, "see daemon_globals", .inherit = "group" },
  { "local-hostname", SL_STRING (DS (local_hostname)), NULL, "see daemon_globals", .inherit = "local-hostname" },
  { "use-fqdn", SL_BOOL (DS (use_fqdn)), "no", "see daemon_globals", .inherit = "use-fqdn" },
  { NULL }
};
#undef DS
#undef IN_FLIGHT_RANGE

SlOptions *
sl_driver_bind_daemon (const SlCfgNode *globals, SlDaemonSettings *settings, GError **error)
{
  static const SlCfgNode none = { .name = (gchar *) "options" };
  const SlOptionSpec *tables[] = { daemon_settings, NULL };
  SlOptions *options = sl_options_new ("options", tables, NULL, &none, globals, error);
  if (options && !sl_options_bind (options, daemon_settings, settings, NULL, error))
    g_clear_pointer (&options, sl_options_free);
  return options;
}

static const SlOptionWord stats_file_words[] = {
  { "legacy", SL_STATS_FILE_LEGACY },
  { "json", SL_STATS_FILE_JSON },
  { "cee", SL_STATS_FILE_CEE },
  { "json-elasticsearch", SL_STATS_FILE_JSON_ES },
  { NULL }
};

#define ST(m) SlStatsSettings, m
/* options { stats(...) }: syslog-ng 4's sub-options, and Sluice's own
 * listen() and file() */
static const SlOptionSpec stats_options[] = {
  { "listen", SL_STRING (ST (listen)), NULL,
    "serve /metrics (Prometheus) and /health over HTTP at host:port, [v6]:port, or port (on 127.0.0.1)" },
  { "freq", SL_INT (ST (freq)), "600",
    "seconds between the \"Log statistics\" messages written through internal(), as syslog-ng writes them; 0: none",
    .inherit = "stats-freq" },
  { "level", SL_INT (ST (level)), "0",
    "what those messages hold: 0 the totals and internal()'s counters, as syslog-ng 3.38's level 0; 1 or more every "
    "counter but those of drivers given internal(yes), which 3 adds (all are always kept)",
    .inherit = "stats-level" },
  { "file", SL_STRING (ST (file)), NULL,
    "append every counter to this file every file-freq() seconds, a line per component, as rsyslog's impstats log.file= writes them (doc/rsyslog.md)" },
  { "file-freq", SL_INT (ST (file_freq)), "300", "seconds between two writings of file()", SL_RANGE_POSITIVE },
  { "file-format", SL_CHOICE (ST (file_format)), "legacy",
    "the lines of file(), as impstats' format=: legacy (name: origin=... counter=value), json, cee (@cee: and the JSON), json-elasticsearch (dots in names as !)",
    .words = stats_file_words },
  { "lifetime", SL_UNBOUND (SL_OPT_INT), NULL, "accepted for syslog-ng compatibility; counters live as long as the daemon" },
  { "max-dynamics", SL_UNBOUND (SL_OPT_INT), NULL, "accepted for syslog-ng compatibility; there are no dynamic counters" },
  { "syslog-stats", SL_UNBOUND (SL_OPT_STRING), NULL, "accepted for syslog-ng compatibility; there are no per-host counters" },
  { "healthcheck-freq", SL_UNBOUND (SL_OPT_INT), NULL, "accepted for syslog-ng compatibility; /health answers when asked" },
  { NULL }
};
#undef ST

SlOptions *
sl_driver_bind_stats (const SlCfgNode *globals, SlStatsSettings *settings, GError **error)
{
  static const SlCfgNode none = { .name = (gchar *) "stats" };
  const SlCfgNode *node = &none;
  for (guint i = 0; globals->children && i < globals->children->len; i++)
    {
      const SlCfgNode *child = g_ptr_array_index (globals->children, i);
      if (sl_cfg_name_equal (child->name, "stats"))
        node = child;
    }
  const SlOptionSpec *tables[] = { stats_options, NULL };
  SlOptions *options = sl_options_new ("stats()", tables, NULL, node, globals, error);
  if (options && !sl_options_bind (options, stats_options, settings, NULL, error))
    g_clear_pointer (&options, sl_options_free);
  return options;
}

static const SlOptionGroup option_groups[] = {
  { "global-options", "Global options", "The daemon's own settings in `options {}`; each option a driver inherits may be "
    "written there too (see below).", daemon_globals },
  { "stats", "stats()", "The sub-options of `options { stats(...); };`.", stats_options },
  { "parallelize", "parallelize()", "Written in a log path, `parallelize(partitions(N) partition-key(TEMPLATE));`: "
    "what follows it in the path runs on N threads, as in syslog-ng 4.8.", sl_scheduler_options },
  { "source-options", "Common source options", "Every source that parses what it receives takes these.",
    source_options },
  { "connection-options", "Connection options", "Every source that accepts connections takes these.",
    connection_options },
  { "queue-options", "Destination queue options", "Every destination takes these.", queue_options },
  { "template-options", "Template options", "Every destination that renders templates takes these.",
    template_options },
  { "suppress-options", "Repeat options", "Every destination that is a LogWriter in syslog-ng (file(), pipe(), "
    "program(), network(), tcp(), udp(), syslog(), unix-stream(), unix-dgram()) takes these.", suppress_options },
  { "mark-options", "MARK options", "Every destination that writes MARK messages as syslog-ng's writers do takes "
    "these: file(), pipe(), stdout(), program(), tcp(), udp(), network(), syslog(), unix-stream(), unix-dgram().",
    mark_options },
  { "worker-options", "Worker options", "Every destination whose messages may be written out of order takes these.",
    worker_options },
  { "answer-options", "Answer options", "Every destination whose peer answers what it sent takes these: relp(), amqp(), mqtt().",
    answer_options },
  { "disk-buffer-option", "disk-buffer()", "Every destination that can queue on disk takes this.",
    disk_buffer_option },
  { "disk-buffer", "disk-buffer() sub-options", "The options inside `disk-buffer(...)`.", disk_buffer_options },
  { "hook-commands-option", "hook-commands()", "Every source and destination takes this.", sl_hook_commands_option },
  { "hook-commands", "hook-commands() sub-options", "The commands inside `hook-commands(...)`.",
    sl_hook_commands_options },
  { NULL }
};

const SlOptionGroup *
sl_driver_option_groups (void)
{
  return option_groups;
}

void
sl_driver_class_tables (const SlDriverClass *klass, const SlOptionSpec *tables[SL_DRIVER_TABLES_MAX + 1])
{
  guint n = 0;
  if (klass->options)
    tables[n++] = klass->options;
  if (klass->kind == SL_DRIVER_SOURCE && (klass->capabilities & SL_CAP_PARSES))
    tables[n++] = source_options;
  if (klass->kind == SL_DRIVER_SOURCE && (klass->capabilities & SL_CAP_CONNECTIONS))
    tables[n++] = connection_options;
  if (klass->kind == SL_DRIVER_DESTINATION)
    tables[n++] = queue_options;
  if (klass->kind == SL_DRIVER_DESTINATION && (klass->capabilities & SL_CAP_TEMPLATES))
    tables[n++] = template_options;
  if (klass->kind == SL_DRIVER_DESTINATION && (klass->capabilities & SL_CAP_SUPPRESS))
    tables[n++] = suppress_options;
  if (klass->kind == SL_DRIVER_DESTINATION && (klass->capabilities & SL_CAP_WORKERS))
    tables[n++] = worker_options;
  if (klass->kind == SL_DRIVER_DESTINATION && (klass->capabilities & SL_CAP_BATCHES))
    tables[n++] = batch_options;
  if (klass->kind == SL_DRIVER_DESTINATION && (klass->capabilities & SL_CAP_MARKS))
    tables[n++] = mark_options;
  if (klass->kind == SL_DRIVER_DESTINATION && (klass->capabilities & SL_CAP_ANSWERS))
    tables[n++] = answer_options;
  if (klass->kind == SL_DRIVER_DESTINATION && (klass->capabilities & SL_CAP_DISK_BUFFER))
    tables[n++] = disk_buffer_option;
  if (klass->kind == SL_DRIVER_SOURCE || klass->kind == SL_DRIVER_DESTINATION)
    {
      tables[n++] = sl_hook_commands_option;
      tables[n++] = persist_name_option;
    }
  if (klass->kind == SL_DRIVER_PARSER || klass->kind == SL_DRIVER_REWRITE)
    tables[n++] = internal_option;
  tables[n] = NULL;
}

static gsize
core_offset (const SlDriverClass *klass)
{
  gsize size = MAX (klass->instance_size, sizeof (SlDriver));
  return (size + 15) & ~(gsize) 15;
}

static SlDriverCore *
driver_core (const SlDriver *driver)
{
  return (SlDriverCore *) ((guint8 *) driver + core_offset (driver->klass));
}

const SlSourceOptions *
sl_driver_source_options (const SlDriver *driver)
{
  return &driver_core (driver)->source;
}

void
sl_driver_source_add_flags (SlDriver *driver, guint32 flags)
{
  driver_core (driver)->source.flags |= flags;
}

const SlDestinationOptions *
sl_driver_destination_options (const SlDriver *driver)
{
  return &driver_core (driver)->destination;
}

SlHookCommands *
sl_driver_hook_commands (const SlDriver *driver)
{
  return &driver_core (driver)->hooks;
}

const SlTemplateEnv *
sl_driver_template_env (const SlDriver *driver)
{
  return &driver_core (driver)->env;
}

static gboolean
make_template_env (SlDriver *driver, GError **error)
{
  SlDriverCore *core = driver_core (driver);
  const SlDestinationOptions *o = &core->destination;
  core->env = sl_template_env_default;
  core->env.ts_format = o->ts_format;
  core->env.frac_digits = CLAMP (o->frac_digits, 0, 6);
  core->env.escape = o->template_escape;
  core->env.on_error = o->on_error;
  if (!o->time_zone)
    return TRUE;
  core->env.zone = g_time_zone_new_identifier (o->time_zone);
  if (!core->env.zone)
    {
      const gchar *option = sl_options_is_set (driver->options, "send-time-zone") ? "send-time-zone" : "time-zone";
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (driver->options, option),
                        _("unknown time zone '%s'"), o->time_zone);
      return FALSE;
    }
  return TRUE;
}

/* disk-buffer(...): its children checked against their own table, with
 * positions in errors, and stored beside the destination's options. */
static gboolean
bind_disk_buffer (SlDriverCore *core, GError **error)
{
  SlDiskBufferOptions *o = &core->destination.disk_buffer;
  if (!o->node)
    return TRUE;
  const SlOptionSpec *tables[] = { disk_buffer_options, NULL };
  core->disk_buffer = sl_options_new ("disk-buffer()", tables, NULL, o->node, NULL, error);
  return core->disk_buffer && sl_options_bind (core->disk_buffer, disk_buffer_options, o, NULL, error);
}

SlDriver *
sl_driver_new (SlConfig *cfg, const SlDriverClass *klass, const SlCfgNode *node,
               const SlCfgNode *globals, const gchar *id, const SlOptionsCompiler *compiler,
               GError **error)
{
  const SlOptionSpec *tables[SL_DRIVER_TABLES_MAX + 1];
  sl_driver_class_tables (klass, tables);
  gchar *owner = g_strdup_printf ("%s()", node->name);
  SlOptions *options = sl_options_new (owner, tables, klass->defaults, node, globals, error);
  g_free (owner);
  if (!options)
    return NULL;
  SlDriver *driver = g_malloc0 (core_offset (klass) + sizeof (SlDriverCore));
  driver->klass = klass;
  driver->cfg = cfg;
  driver->pos = node->pos;
  driver->id = g_strdup (id);
  driver->options = options;
  gboolean ok = TRUE;
  SlDriverCore *core = driver_core (driver);
  for (guint i = 0; ok && tables[i]; i++)
    {
      gpointer target = tables[i] == klass->options ? (gpointer) driver
                        : tables[i] == sl_hook_commands_option ? (gpointer) &core->hooks : (gpointer) core;
      ok = sl_options_bind (options, tables[i], target, compiler, error);
    }
  if (ok)
    ok = sl_hook_commands_bind (&core->hooks, error);
  if (ok && driver->id)
    sl_stats_set_internal (driver->id, core->internal);
  if (ok && klass->kind == SL_DRIVER_DESTINATION && (klass->capabilities & SL_CAP_TEMPLATES))
    ok = make_template_env (driver, error);
  if (ok && klass->kind == SL_DRIVER_DESTINATION)
    ok = bind_disk_buffer (driver_core (driver), error);
  if (ok && core->destination.suppress > 0 && core->destination.reduce_repeats)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (driver->options, "reduce-repeats"),
                        _("reduce-repeats() and suppress() exclude each other: each is a way of its own to "
                          "sum up repeated messages"));
      ok = FALSE;
    }
  if (!ok)
    {
      sl_driver_free (driver);
      return NULL;
    }
  return driver;
}

void
sl_driver_free (SlDriver *driver)
{
  if (!driver)
    return;
  SlDriverCore *core = driver_core (driver);
  if (core->env.zone)
    g_time_zone_unref (core->env.zone);
  if (core->disk_buffer)
    sl_options_free (core->disk_buffer);
  sl_hook_commands_clear (&core->hooks);
  sl_options_free (driver->options);
  g_free (driver->id);
  g_free (driver);
}

const gchar *
sl_driver_persist_name_option (const SlDriver *driver)
{
  return driver_core (driver)->persist_name;
}

gchar *
sl_driver_persist_name (const SlDriver *driver)
{
  const gchar *chosen = driver_core (driver)->persist_name;
  if (chosen)
    {
      gchar *name = g_strdup (chosen);
      for (gchar *p = name; *p; p++)
        if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_')
          *p = '_';
      return name;
    }
  const SlCfgNode *node = sl_options_node (driver->options);
  GString *text = g_string_new (driver->klass->name);
  for (guint i = 0; node->args && i < node->args->len; i++)
    g_string_append_printf (text, " %s", ((SlCfgArg *) g_ptr_array_index (node->args, i))->value);
  for (guint i = 0; node->children && i < node->children->len; i++)
    {
      const SlCfgNode *child = g_ptr_array_index (node->children, i);
      const SlOptionSpec *own[] = { driver->klass->options, NULL };
      if (driver->klass->options && sl_options_find (own, child->name))
        {
          gchar *option = sl_cfg_node_to_string (child);
          g_string_append_printf (text, " %s", option);
          g_free (option);
        }
    }
  gchar *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, text->str, text->len);
  GString *name = g_string_new (NULL);
  for (const gchar *p = driver->id; *p; p++)
    g_string_append_c (name, g_ascii_isalnum (*p) || *p == '-' || *p == '_' ? *p : '_');
  g_string_append_printf (name, "-%.8s", hash);
  g_free (hash);
  g_string_free (text, TRUE);
  return g_string_free (name, FALSE);
}

static const SlOptionSpec *const core_tables[] = {
  daemon_globals, source_options, connection_options, queue_options, template_options, suppress_options,
  mark_options, NULL
};

typedef struct
{
  const gchar *name;
  const SlOptionSpec *found;
  GPtrArray *candidates;
} InheritSearch;

static void
search_table (InheritSearch *s, const SlOptionSpec *table, gboolean any)
{
  for (const SlOptionSpec *o = table; o->name && !s->found; o++)
    {
      const gchar *global = any ? o->name : o->inherit;
      if (!global)
        continue;
      if (sl_cfg_name_equal (global, s->name))
        s->found = o;
      g_ptr_array_add (s->candidates, (gpointer) global);
    }
}

/* The entry of one of the core's tables that a global option stands
 * for: a driver table's inherited name or one of the daemon's own. */
const SlOptionSpec *
sl_driver_core_global (const gchar *name, GPtrArray *candidates)
{
  InheritSearch s = { name, NULL, candidates };
  for (guint i = 0; core_tables[i] && !s.found; i++)
    search_table (&s, core_tables[i], core_tables[i] == daemon_globals);
  return s.found;
}
