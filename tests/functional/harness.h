/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the functional tests share: a temporary folder per test, the real
 * sluiced started from the build tree in it, clients that talk to it over
 * real sockets, and polling with deadlines so that a broken daemon fails a
 * test instead of hanging it.
 *
 * Functions that can fail mark the running test failed and return FALSE
 * or NULL; a test returns at once then, and the fixture's teardown stops
 * the daemon, shows its stderr when the test failed, and removes the
 * folder. */
#ifndef SL_TEST_HARNESS_H
#define SL_TEST_HARNESS_H

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* How long a wait may take before the test fails: long enough for a slow
 * machine (a loaded one, running a sanitizer build beside the peers, has
 * taken over 10 s where a quiet one takes 1), short enough that a hang
 * is noticed. No test waits it out on purpose. */
#define SL_TEST_DEADLINE_MS 30000

typedef struct
{
  gchar *dir;          /* the test's temporary folder */
  gchar *config;       /* DIR/sluice.conf */
  gchar *pidfile;      /* DIR/sluiced.pid */
  gchar *control;      /* DIR/sluiced.ctl */
  gchar *persist;      /* DIR/sluiced.persist: the daemon's -R */
  gchar *stderr_path;  /* DIR/sluiced.stderr: the daemon's stderr */
  GPid pid;            /* the running daemon, or 0 */
  /* the configuration's language on every start (--config-format), NULL
   * for Sluice's own: a test that restarts the daemon sets it once */
  const gchar *config_format;
} SlTestEnv;

/* Fixture functions for g_test_add (). */
void      sl_test_env_setup    (SlTestEnv *env, gconstpointer data);
void      sl_test_env_teardown (SlTestEnv *env, gconstpointer data);

/* Adds a test that runs func (SlTestEnv *env, gconstpointer data) in a
 * fresh temporary folder; teardown runs even when the test failed. */
#define SL_TEST_ADD(path, func) \
  g_test_add ((path), SlTestEnv, NULL, sl_test_env_setup, (func), sl_test_env_teardown)

/* g_test_init () for the functional tests: assertions mark the test
 * failed and return to it, so teardown always runs. */
void      sl_test_init         (gint *argc, gchar ***argv);
/* For a test whose sluiced runs Python code: in the ASan build,
 * LeakSanitizer is told that what the embedded interpreter, never
 * finalized, holds is no leak (plugins/languages/python/tests/lsan.supp). */
void      sl_test_python_leaks_suppressed (void);

/* DIR/name, newly allocated. */
gchar    *sl_test_path         (SlTestEnv *env, const gchar *name);

/* The head of a wrapper argv for sl_test_daemon_spawn_wrapped(): systemd's
 * systemd-socket-activate, which starts its program with an environment of
 * its own, told to pass on the sanitizers' options (CI's ASan stage) and
 * the tests' locale. */
#define SL_TEST_SOCKET_ACTIVATE "systemd-socket-activate", "--setenv=ASAN_OPTIONS", "--setenv=UBSAN_OPTIONS", \
  "--setenv=LSAN_OPTIONS", "--setenv=LC_ALL"

/* A port nobody has bound right now, below the kernel's range for
 * outgoing connections and never the same twice in one program; type is
 * SOCK_STREAM or SOCK_DGRAM. 0 (and the test failed) when none could be had. */
guint16   sl_test_free_port    (gint type);

/* Writes env->config from text in which @DIR@ stands for env->dir and
 * @KEY@ for the value after each KEY in the NULL-terminated list of
 * key, value pairs. */
gboolean  sl_test_write_config (SlTestEnv *env, const gchar *text, ...) G_GNUC_NULL_TERMINATED;
/* Writes the configuration as sl_test_write_config() does and checks it
 * with sluiced --syntax-only, which must refuse it (exit 1): its stderr,
 * or NULL (and the test failed). */
gchar    *sl_test_refused_config (SlTestEnv *env, const gchar *text, ...) G_GNUC_NULL_TERMINATED;

/* Starts sluiced in the foreground on env->config with its pid file,
 * control socket and stderr in env->dir, and waits until it answers on
 * its control socket (which it opens after every source started). */
gboolean  sl_test_daemon_start (SlTestEnv *env);
/* The same with stdin_fd (which the caller keeps) as the daemon's stdin;
 * sl_test_daemon_start gives it /dev/null. */
gboolean  sl_test_daemon_start_with_stdin (SlTestEnv *env, gint stdin_fd);
/* The same with more command-line arguments, NULL-terminated. */
gboolean  sl_test_daemon_start_with_args (SlTestEnv *env, const gchar *first, ...) G_GNUC_NULL_TERMINATED;
/* Runs sluiced as sl_test_daemon_start does, but as the program of the
 * NULL-terminated wrapper command (from PATH, such as
 * systemd-socket-activate and its flags), and does not wait for it: a
 * wrapper may start it only later. sl_test_daemon_wait_ready() waits until
 * it answers on its control socket. */
gboolean  sl_test_daemon_spawn_wrapped (SlTestEnv *env, const gchar *const *wrapper);
gboolean  sl_test_daemon_wait_ready (SlTestEnv *env);
/* The same with wrapper (a NULL-terminated argv, such as "unshare", "-m",
 * "sh", "-c", "...; exec \"$0\" \"$@\"") run in front of sluiced's argv;
 * the wrapper must exec sluiced so that env->pid is the daemon's. */
gboolean  sl_test_daemon_start_wrapped (SlTestEnv *env, const gchar *const *wrapper);
/* Sends signum (0: none, it is already stopping) and waits for the daemon
 * to exit; SIGKILL and failure when it does not within the deadline. The
 * wait status, or -1. */
gint      sl_test_daemon_stop  (SlTestEnv *env, gint signum);
/* True while the daemon has not exited (it is not reaped here). */
gboolean  sl_test_daemon_alive (SlTestEnv *env);
/* What the daemon wrote to stderr so far. */
gchar    *sl_test_daemon_stderr (SlTestEnv *env);
/* Waits until the daemon's stderr contains needle. */
gboolean  sl_test_wait_stderr  (SlTestEnv *env, const gchar *needle);

/* For a daemon that went into the background (no child of the test; the
 * teardown kills one its pid file names): whether pid has exited, and
 * waiting until it has. */
gboolean  sl_test_process_gone (pid_t pid);
gboolean  sl_test_wait_gone    (pid_t pid);

/* Waits until a TCP port on 127.0.0.1 accepts a connection. */
gboolean  sl_test_wait_tcp     (SlTestEnv *env, guint16 port);
/* The same for a server of the test's own, which no env knows: whether
 * the port accepts before the deadline (no failure when not). */
gboolean  sl_test_wait_port    (guint16 port);

/* A server the test program starts once for all its cases (redis-server,
 * a PostgreSQL cluster, snmptrapd ...): a folder of its own,
 * /tmp/sluice-NAME-XXXXXX (NULL when it cannot be made), and at the end
 * the server stopped by its pid (SIGTERM, SIGKILL after the deadline; 0:
 * none) and the folder removed; FALSE when either did not go. */
gchar    *sl_test_peer_dir     (const gchar *name);
gboolean  sl_test_peer_stop    (GPid pid, const gchar *dir);

/* Waits until path exists and is a socket. */
gboolean  sl_test_wait_socket  (SlTestEnv *env, const gchar *path);

/* A connected socket, or -1 (and the test failed). Its reads and writes
 * time out after the deadline, so a daemon that stops reading fails the
 * test instead of hanging it. */
gint      sl_test_tcp_connect  (guint16 port);
gint      sl_test_unix_connect (const gchar *path, gint type);
/* Writes all of data; FALSE (and the test failed) on error. */
gboolean  sl_test_send_all     (gint fd, const gchar *data, gsize len);
/* Connects, writes text, closes. */
gboolean  sl_test_tcp_send     (guint16 port, const gchar *text);
gboolean  sl_test_unix_send    (const gchar *path, gint type, const gchar *text);
/* One datagram to 127.0.0.1:port. */
gboolean  sl_test_udp_send     (guint16 port, const gchar *datagram);

/* Sends data on fd from a thread of its own, for senders the daemon holds
 * back or hangs up on: an error ends the sending without failing the
 * test. Takes fd and data. */
typedef struct _SlTestSender SlTestSender;
SlTestSender *sl_test_sender_start (gint fd, GString *data);
/* Unblocks the sender (shutdown of the socket) if it still sends, waits
 * for it, closes fd. */
void      sl_test_sender_finish (SlTestSender *sender);
/* Waits until the sender has written everything (or failed), then frees it. */
void      sl_test_sender_join   (SlTestSender *sender);

/* The file's contents, or NULL when it cannot be read (no failure). */
gchar    *sl_test_read_file    (const gchar *path);
/* The value the persist file at path holds for key, or NULL: read from the
 * file as it is (the daemon may be running or killed), by a reader of its
 * own, as a restart would find it. */
gchar    *sl_test_persist_value (const gchar *path, const gchar *key);
/* Number of '\n' in the file; 0 when it does not exist. */
guint     sl_test_count_lines  (const gchar *path);
/* Wait until the file has at least n lines (failing only when it stops
 * growing for the deadline) / contains needle. */
gboolean  sl_test_wait_lines   (SlTestEnv *env, const gchar *path, guint n);
gboolean  sl_test_wait_contains (SlTestEnv *env, const gchar *path, const gchar *needle);
/* The file's lines without their newlines; NULL when it cannot be read. */
gchar   **sl_test_read_lines   (const gchar *path);
/* The file's lines sorted and joined by newlines, "" when it cannot be read:
 * for outputs whose order is the scheduler's. */
gchar    *sl_test_read_sorted_lines (const gchar *path);
/* The rows of the TSV file at path after its header line, by their first
 * column: the other columns as a NULL-terminated array. A row of fewer than
 * columns columns is left out. Empty when the file cannot be read. */
GHashTable *sl_test_read_tsv   (const gchar *path, guint columns);

/* Sends one command over the control socket; the whole answer, or NULL
 * (and the test failed) when the daemon could not be reached. */
gchar    *sl_test_control      (SlTestEnv *env, const gchar *command);
/* A counter from the "STATS" answer (kind;id;instance;counter;value): the
 * sum over the lines of that kind, id (a source or destination name, which
 * matches the ids of its drivers, "name#0" ...; NULL for any) and counter
 * name. -1 (and the test failed) when there is none. */
gint64    sl_test_stat         (SlTestEnv *env, const gchar *kind, const gchar *id,
                                const gchar *name);

/* The same, -1 without failing when the counter does not exist yet (one
 * that is made at its first event, such as "connections"). */
gint64    sl_test_stat_if_any  (SlTestEnv *env, const gchar *kind, const gchar *id,
                                const gchar *name);

/* Waits until that counter (as sl_test_stat sums it) equals value. */
gboolean  sl_test_wait_stat    (SlTestEnv *env, const gchar *kind, const gchar *id,
                                const gchar *name, gint64 value);
/* Waits until it is value or more: for one that may go past what the
 * test waits for (a refusal counted at each reconnection). */
gboolean  sl_test_wait_stat_at_least (SlTestEnv *env, const gchar *kind, const gchar *id,
                                      const gchar *name, gint64 value);

/* Runs a program of the build tree (relative to SL_TOP_BUILDDIR, such as
 * "tools/sluicectl") with the NULL-terminated arguments, and returns its
 * exit status, or -1 when it could not run or was killed. out and err may
 * be NULL. */
gint      sl_test_run_built    (const gchar *program, gchar **out, gchar **err, ...) G_GNUC_NULL_TERMINATED;
/* Starts a program of the build tree in the background with the
 * NULL-terminated args and its stderr in err_path; its pid (reap it with
 * sl_test_child_wait), or 0 (and the test failed). */
GPid      sl_test_spawn_built  (const gchar *program, const gchar *err_path, const gchar *const *args);
/* Starts any argv (argv[0] from PATH unless a path) the same way. */
GPid      sl_test_spawn_argv   (const gchar *const *argv, const gchar *err_path);
/* Whether the child has exited (reaping it; *status its wait status). */
gboolean  sl_test_child_exited (GPid pid, gint *status);
/* Waits up to limit_usec for a child to exit; its wait status, or -1 (it
 * was killed, and the test failed) when it was still running. */
gint      sl_test_child_wait   (GPid pid, gint64 limit_usec);
/* Runs any argv (a program from PATH) the same way. */
gint      sl_test_run_argv     (const gchar *const *argv, gchar **out, gchar **err);
/* SL_MODULE_PATH: the value of --module-path for running sluiced by hand;
 * NULL (and the test failed) when it is not set. */
const gchar *sl_test_module_path (void);
/* --include-path for configurations that use syslog-ng's SCL: Sluice's
 * include folder in the source tree, then syslog-ng's installed one; NULL
 * (and the test failed) when SL_TOP_SRCDIR is not set. */
gchar       *sl_test_scl_include_path (void);

/* rsyslogd, the peer: the folder Debian's rsyslog and its module packages
 * are unpacked into (tests/peers/rsyslog-root, which unpacks them the
 * first time), or NULL when they cannot be had. Run it as
 * ROOT/usr/sbin/rsyslogd -M ROOT/usr/lib/x86_64-linux-gnu/rsyslog. */
gchar       *sl_test_rsyslog_root    (void);
/* The same, the test skipped when it is NULL */
gchar       *sl_test_rsyslog_root_or_skip (void);
/* rsyslogd of that root on conf in the foreground, its pid file and
 * stderr in dir (rsyslogd.pid, rsyslogd.stderr); 0 when it cannot start */
GPid         sl_test_rsyslogd_start  (const gchar *root, const gchar *conf, const gchar *dir);
/* The Debian 13 root of the second peers, rsyslogd 8.2504 and syslog-ng
 * 4.8 (tests/peers/trixie-root, which makes it once per machine, in
 * $SL_TRIXIE_CACHE or /var/cache/sluice/trixie), or NULL when it cannot
 * be made. Run them as chroot ROOT /usr/sbin/rsyslogd ..., with what they
 * read inside ROOT. */
gchar       *sl_test_trixie_root     (void);
/* syslog-ng 4.8 of that root on config, in which @DIR@ stands for a
 * folder made for it inside the root, where input is its in.log: what it
 * wrote into out.log there once that holds until, or NULL (the test
 * failed). It is stopped and the folder removed before it returns. */
gchar       *sl_test_syslog_ng_48_output (SlTestEnv *env, const gchar *root, const gchar *config,
                                          const gchar *input, const gchar *until);
/* syslog-ng 4.8 of that root running on config, in which @DIR@ stands
 * for a folder made for it inside the root (*dir: that folder seen from
 * outside), with input (unless NULL) as its in.log; 0 when it cannot
 * start. _stop() stops it by its pid and removes the folder. */
GPid         sl_test_syslog_ng_48_start (SlTestEnv *env, const gchar *root, const gchar *config,
                                         const gchar *input, gchar **dir);
void         sl_test_syslog_ng_48_stop  (GPid pid, gchar *dir);

/* syslog-ng, the peer: its program (NULL when it is not installed), and
 * syslog-ng -F on config with its persist, pid and control files and its
 * stderr (syslog-ng.stderr) in the test's folder; stopped by pid, its
 * stderr shown when it did not stop or the test failed. */
gchar       *sl_test_syslog_ng_path  (void);
GPid         sl_test_syslog_ng_start (SlTestEnv *env, const gchar *config);
void         sl_test_syslog_ng_stop  (SlTestEnv *env, GPid pid);
/* The same configuration run by sluiced and by syslog-ng: config's
 * @PORT@ is a TCP source's port, @OUT@ the folder each daemon writes
 * its files into (the test's "sl" and "ng", given back in sl_out and
 * ng_out) and @NAME@ that short name itself (for a database's name). text is sent to both; TRUE once every one of outputs (names
 * in those folders; NULL: none, the caller waits for its peer) has
 * n_lines lines in both. syslog-ng is stopped before it returns, unless
 * ng_pid takes its pid (when it returns TRUE; the caller stops it); sluiced
 * runs on. Skips the test (and returns FALSE)
 * when syslog-ng is not installed. */
gboolean     sl_test_side_by_side    (SlTestEnv *env, const gchar *config, const gchar *text,
                                      const gchar *const *outputs, guint n_lines,
                                      gchar **sl_out, gchar **ng_out, GPid *ng_pid);
/* The same with syslog-ng 4.8 of root (sl_test_trixie_root()) as the
 * peer: ng_out is its folder inside the root, seen from outside. When it
 * returns TRUE the caller stops it with sl_test_syslog_ng_48_stop
 * (*ng_pid, *ng_out), which frees ng_out; else it is stopped already. */
gboolean     sl_test_side_by_side_48 (SlTestEnv *env, const gchar *root, const gchar *config, const gchar *text,
                                      const gchar *const *outputs, guint n_lines,
                                      gchar **sl_out, gchar **ng_out, GPid *ng_pid);

G_END_DECLS

#endif
