/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The corpus of rsyslog configurations written by others
 * (tests/rsyslog-corpus), run: each file that rsyslogd 8.2302 and sluiced
 * both accept (EXPECTED.tsv) is run by the real rsyslogd and by sluiced,
 * the same messages go to every input of both, and every file both wrote
 * and every stream both forwarded must hold the same lines (stamps, the
 * host's name and the daemons' own messages compared by shape). The result
 * per file must be that of DIFFERENTIAL.tsv, as EXPECTED.tsv is for
 * test-rsyslog-corpus: SL_RSYSLOG_DIFFERENTIAL_UPDATE=1 rewrites it.
 *
 * Each daemon runs a copy of its own, in which every absolute path under
 * /var, /dev, /run, /tmp and /etc/rsyslog.d lives under its folder's
 * "root" (outputs, work folders, the include folder, imfile's files,
 * sockets), imuxsock's system socket is named there, every imudp, imtcp
 * and imptcp port is a free one, every omfwd target is the test's
 * listener (UDP and TCP on one port), and what the test cannot feed or
 * must not let write is changed: imklog and imjournal are taken out (with
 * $OmitLocalLogging, and imuxsock's SysSock.Use="off" is on: the socket
 * feeds the rules the journal fed),
 * omusrmsg (legacy or action()) writes a file instead of the terminals, a pipe is a file, and
 * the account directives go (the host lacks Ubuntu's accounts; they change
 * no line). */
#include "tests/functional/harness.h"

#include <arpa/inet.h>
#include <glib/gstdio.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* files run by neither, and why: a peer the test does not run */
static const struct
{
  const gchar *name;
  const gchar *why;
} not_run[] = {
  { "debian-rsyslog-mysql-template.conf", "writes to a MySQL server" },
  { "openmandriva-rsyslog.d-01_mysql.conf", "writes to a MySQL server" },
  { "debian-rsyslog-pgsql-template.conf", "writes to a PostgreSQL server" },
  { "openmandriva-rsyslog.d-02_pgsql.conf", "writes to a PostgreSQL server" },
  { "sumologic-v7.conf", "forwards over TLS to a named peer" },
  { "sumologic-v8.conf", "forwards over TLS to a named peer" },
  { "loggly-chef-10-loggly.conf", "forwards over TLS to a named peer" },
};

/* the lines of a main file or snippet that go, by their start after
 * blanks (case ignored) */
static const gchar *const dropped_directives[] = {
  "$modload imklog", "$modload imjournal", "$imjournal", "$klog", "$omitlocallogging", "$fileowner", "$filegroup",
  "$dirowner", "$dirgroup", "$privdropto",
};

/* statements that go whole, to their closing parenthesis */
static const gchar *const dropped_statements[] = {
  "module(load=\"imklog\"", "module(load=\"imjournal\"", "input(type=\"imjournal\"", "input(type=\"imklog\"",
};

typedef struct
{
  gchar *dir;           /* the daemon's folder */
  gchar *root;          /* DIR/root: where the absolute paths are */
  guint16 forward;      /* the test's listener, UDP and TCP */
  GArray *udp;          /* guint16: the ports of its inputs */
  GArray *tcp;
  GPtrArray *sockets;   /* the unix sockets it reads */
  GPtrArray *inputs;    /* the files imfile reads */
} Daemon;

typedef struct
{
  gchar *result;        /* "same", "differs" or "not run" */
  gchar *summary;
} Outcome;

static gchar *rsyslog;          /* the unpacked rsyslog, or NULL */
static GHashTable *expected;    /* file name -> Outcome of DIFFERENTIAL.tsv */
static GHashTable *together;    /* file name -> { MAIN, SNIPPET..., NULL } */
static GHashTable *measured;    /* file name -> Outcome of this run */

static void
outcome_free (gpointer data)
{
  Outcome *o = data;
  g_free (o->result);
  g_free (o->summary);
  g_free (o);
}

static Outcome *
outcome_new (const gchar *result, const gchar *summary)
{
  Outcome *o = g_new0 (Outcome, 1);
  o->result = g_strdup (result);
  o->summary = g_strdup (summary);
  return o;
}

static gchar *
corpus_path (const gchar *name)
{
  return g_build_filename (g_getenv ("SL_TOP_SRCDIR"), "tests/rsyslog-corpus", name, NULL);
}

static GHashTable *
read_table (const gchar *name, guint columns)
{
  g_autofree gchar *path = corpus_path (name);
  return sl_test_read_tsv (path, columns);
}

static void
daemon_free (Daemon *d)
{
  g_free (d->dir);
  g_free (d->root);
  g_array_unref (d->udp);
  g_array_unref (d->tcp);
  g_ptr_array_unref (d->sockets);
  g_ptr_array_unref (d->inputs);
  g_free (d);
}

static Daemon *
daemon_new (SlTestEnv *env, const gchar *name, guint16 forward)
{
  Daemon *d = g_new0 (Daemon, 1);
  d->dir = sl_test_path (env, name);
  d->root = g_build_filename (d->dir, "root", NULL);
  d->forward = forward;
  d->udp = g_array_new (FALSE, FALSE, sizeof (guint16));
  d->tcp = g_array_new (FALSE, FALSE, sizeof (guint16));
  d->sockets = g_ptr_array_new_with_free_func (g_free);
  d->inputs = g_ptr_array_new_with_free_func (g_free);
  return d;
}

/* A port neither daemon nor the listener uses yet. */
static guint16
fresh_port (GHashTable *taken, gint type)
{
  for (guint tries = 0; tries < 50; tries++)
    {
      guint16 port = sl_test_free_port (type);
      if (port && !g_hash_table_contains (taken, GUINT_TO_POINTER (port)))
        {
          g_hash_table_add (taken, GUINT_TO_POINTER (port));
          return port;
        }
    }
  return 0;
}

static gboolean
dropped_line (const gchar *line)
{
  g_autofree gchar *copy = g_strdup (line);
  g_autofree gchar *lower = g_ascii_strdown (g_strchug (copy), -1);
  for (guint i = 0; i < G_N_ELEMENTS (dropped_directives); i++)
    if (g_str_has_prefix (lower, dropped_directives[i]))
      return TRUE;
  return FALSE;
}

/* The text without the lines and statements the test cannot feed. */
static gchar *
without_unfed (const gchar *text)
{
  GString *out = g_string_new (NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  gboolean in_statement = FALSE;

  for (guint i = 0; lines[i]; i++)
    {
      g_autofree gchar *squeezed = g_strdup (lines[i]);
      g_strdelimit (squeezed, " \t", ' ');
      g_autoptr (GString) compact = g_string_new (squeezed);
      g_string_replace (compact, " ", "", 0);
      for (guint s = 0; s < G_N_ELEMENTS (dropped_statements) && !in_statement; s++)
        if (g_str_has_prefix (compact->str, dropped_statements[s]))
          in_statement = TRUE;
      if (in_statement)
        {
          if (strchr (lines[i], ')'))
            in_statement = FALSE;
          continue;
        }
      if (!dropped_line (lines[i]))
        g_string_append_printf (out, "%s\n", lines[i]);
    }
  return g_string_free (out, FALSE);
}

typedef struct
{
  Daemon *d;
  GHashTable *taken;
} Rewrite;

/* an imudp, imtcp or imptcp input's port: a free one, remembered */
static gboolean
input_port (const GMatchInfo *match, GString *out, gpointer data)
{
  Rewrite *r = data;
  g_autofree gchar *head = g_match_info_fetch (match, 1);
  g_autofree gchar *type = g_match_info_fetch (match, 2);
  g_autofree gchar *tail = g_match_info_fetch (match, 4);
  gboolean udp = g_ascii_strcasecmp (type, "imudp") == 0 || g_ascii_strncasecmp (type, "$UDP", 4) == 0;
  guint16 port = fresh_port (r->taken, udp ? SOCK_DGRAM : SOCK_STREAM);

  g_array_append_val (udp ? r->d->udp : r->d->tcp, port);
  g_string_append_printf (out, "%s%u%s", head, port, tail);
  return FALSE;
}

/* omfwd's target and port: the test's listener */
static gboolean
omfwd_target (const GMatchInfo *match, GString *out, gpointer data)
{
  Rewrite *r = data;
  g_autofree gchar *action = g_match_info_fetch (match, 0);
  g_autoptr (GRegex) target = g_regex_new ("\\btarget\\s*=\\s*\"[^\"]*\"", G_REGEX_CASELESS, 0, NULL);
  g_autoptr (GRegex) port = g_regex_new ("\\bport\\s*=\\s*\"[^\"]*\"", G_REGEX_CASELESS, 0, NULL);
  g_autofree gchar *to = g_regex_replace_literal (target, action, -1, 0, "target=\"127.0.0.1\"", 0, NULL);
  g_autofree gchar *listener = g_strdup_printf ("port=\"%u\"", r->d->forward);

  if (g_regex_match (port, to, 0, NULL))
    {
      g_autofree gchar *both = g_regex_replace_literal (port, to, -1, 0, listener, 0, NULL);
      g_string_append (out, both);
    }
  else
    g_string_append_printf (out, "%.*s %s)", (gint) strlen (to) - 1, to, listener);
  return FALSE;
}

/* A legacy forwarding action, @host[:port] or @@(options)host[:port]: the
 * test's listener */
static gboolean
legacy_forward (const GMatchInfo *match, GString *out, gpointer data)
{
  Rewrite *r = data;
  g_autofree gchar *head = g_match_info_fetch (match, 1);
  g_string_append_printf (out, "%s127.0.0.1:%u", head, r->d->forward);
  return FALSE;
}

/* Every place of the regex in text through eval. */
static gchar *
replaced (const gchar *text, const gchar *pattern, GRegexCompileFlags flags, GRegexEvalCallback eval, Rewrite *r)
{
  g_autoptr (GRegex) regex = g_regex_new (pattern, flags | G_REGEX_MULTILINE, 0, NULL);
  g_assert_nonnull (regex);
  return g_regex_replace_eval (regex, text, -1, 0, 0, eval, r, NULL);
}

/* with may name the match's groups (\0, \1) */
static gchar *
replaced_by (const gchar *text, const gchar *pattern, const gchar *with)
{
  g_autoptr (GRegex) regex = g_regex_new (pattern, G_REGEX_CASELESS | G_REGEX_MULTILINE, 0, NULL);
  g_assert_nonnull (regex);
  return g_regex_replace (regex, text, -1, 0, with, 0, NULL);
}

/* The paths of text's matches of pattern's first group, added to list. */
static void
collect (const gchar *text, const gchar *pattern, GPtrArray *list)
{
  g_autoptr (GRegex) regex = g_regex_new (pattern, G_REGEX_CASELESS | G_REGEX_MULTILINE, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;

  g_assert_nonnull (regex);
  for (g_regex_match (regex, text, 0, &match); g_match_info_matches (match); g_match_info_next (match, NULL))
    {
      g_autofree gchar *path = g_match_info_fetch (match, 1);
      if (!g_ptr_array_find_with_equal_func (list, path, g_str_equal, NULL))
        g_ptr_array_add (list, g_steal_pointer (&path));
    }
}

/* A corpus file as daemon d runs it (see the top of this file). */
static gchar *
rewritten (const gchar *text, Daemon *d, GHashTable *taken)
{
  Rewrite r = { d, taken };
  g_autofree gchar *fed = without_unfed (text);
  g_autofree gchar *root_ref = g_strdup_printf ("%s\\0", d->root);
  g_autofree gchar *moved = replaced_by (fed, "(?<![\\w.~/$%])/(var|dev|run|tmp|etc/rsyslog\\.d)(?=/)", root_ref);
  g_autofree gchar *users_file = g_strdup_printf ("%s/terminals", d->root);
  g_autofree gchar *legacy_users = replaced_by (moved, ":omusrmsg:[^\\s;]*", users_file);
  g_autofree gchar *users_action = g_strdup_printf ("type=\"omfile\" file=\"%s\"", users_file);
  g_autofree gchar *typed = replaced_by (legacy_users, "type\\s*=\\s*\"omusrmsg\"", users_action);
  g_autofree gchar *users = replaced_by (typed, "(?i)\\busers\\s*=\\s*\"[^\"]*\"", "");
  g_autofree gchar *all_users_ref = g_strdup_printf ("\\1%s", users_file);
  g_autofree gchar *wall = replaced_by (users, "^([^#$\\s]\\S*[ \\t]+)\\*[ \\t]*$", all_users_ref);
  g_autofree gchar *escaped_root = g_regex_escape_string (d->root, -1);
  g_autofree gchar *pipe_pattern = g_strdup_printf ("\\|(%s)", escaped_root);
  g_autofree gchar *piped = replaced_by (wall, pipe_pattern, "\\1");
  g_autofree gchar *syssock_ref = g_strdup_printf ("\\0 SysSock.Name=\"%s/dev/log\"", d->root);
  g_autofree gchar *socket_on = replaced_by (piped, "SysSock\\.Use\\s*=\\s*\"off\"", "SysSock.Use=\"on\"");
  g_autofree gchar *syssock = replaced_by (socket_on, "module\\(\\s*load\\s*=\\s*\"imuxsock\"", syssock_ref);
  g_autofree gchar *legacy_ref = g_strdup_printf ("\\0\n$SystemLogSocketName %s/dev/log", d->root);
  g_autofree gchar *legacy = replaced_by (syssock, "^\\s*\\$ModLoad\\s+imuxsock(\\.so)?\\b.*$", legacy_ref);
  g_autofree gchar *inputs = replaced (legacy,
                                       "^([^#\\n]*?input\\(\\s*type\\s*=\\s*\"(imudp|imtcp|imptcp)\"[^)]*?\\bport\\s*=\\s*\")"
                                       "(\\d+)(\")", G_REGEX_CASELESS, input_port, &r);
  g_autofree gchar *runs = replaced (inputs, "^(\\s*(\\$UDPServerRun|\\$InputTCPServerRun|\\$InputPTCPServerRun)\\s+)"
                                     "(\\d+)()", G_REGEX_CASELESS, input_port, &r);
  g_autofree gchar *omfwd = replaced (runs, "action\\(\\s*type\\s*=\\s*\"omfwd\"[^)]*\\)", G_REGEX_CASELESS,
                                      omfwd_target, &r);
  gchar *forwarded = replaced (omfwd, "^(?!\\s*[#$])([^#\\n]*\\s@@?(\\([^)]*\\))?)(\\[[^\\]]*\\]|[A-Za-z0-9][\\w.-]*)(:\\d+)?",
                               0, legacy_forward, &r);

  g_autofree gchar *sys = g_strdup_printf ("%s/dev/log", d->root);
  if (strstr (forwarded, sys) && !g_ptr_array_find_with_equal_func (d->sockets, sys, g_str_equal, NULL))
    g_ptr_array_add (d->sockets, g_steal_pointer (&sys));
  collect (forwarded, "^\\s*\\$AddUnixListenSocket\\s+(\\S+)", d->sockets);
  collect (forwarded, "^[^#\\n]*?input\\(\\s*type\\s*=\\s*\"imuxsock\"[^)]*?\\bsocket\\s*=\\s*\"([^\"]+)\"", d->sockets);
  collect (forwarded, "^[^#\\n]*?input\\(\\s*type\\s*=\\s*\"imfile\"[^)]*?\\bfile\\s*=\\s*\"([^\"]+)\"", d->inputs);
  collect (forwarded, "^\\s*\\$InputFileName\\s+(\\S+)", d->inputs);
  return forwarded;
}

/* Whether a line of the copy that is not a comment still names a path of
 * the host's or omusrmsg: the daemons must never write there. */
static gboolean
names_host_path (const gchar *text, Daemon *d)
{
  g_autoptr (GString) rest = g_string_new (text);
  g_autoptr (GRegex) host = g_regex_new ("^[^#\\n]*(?<![\\w.])/(var|dev|run|tmp)/", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;

  g_autoptr (GRegex) users = g_regex_new ("^[^#\\n]*omusrmsg", G_REGEX_MULTILINE | G_REGEX_CASELESS, 0, NULL);
  g_string_replace (rest, d->root, "ROOT", 0);
  if (!g_regex_match (host, rest->str, 0, &match))
    {
      /* a failed match still hands back its match info */
      g_clear_pointer (&match, g_match_info_free);
      if (!g_regex_match (users, rest->str, 0, &match))
        return FALSE;
    }
  g_autofree gchar *line = g_match_info_fetch (match, 0);
  g_test_fail_printf ("the copy still writes outside the test: %s", line);
  return TRUE;
}

/* Every folder the copy names under root made, as a package would have
 * made it (sockets' folders, work folders), and the file openSUSE's
 * service writes. */
static void
make_folders (const gchar *text, Daemon *d)
{
  g_autofree gchar *root = g_regex_escape_string (d->root, -1);
  g_autofree gchar *pattern = g_strdup_printf ("%s(/[^\\s\"';]*)", root);
  g_autoptr (GRegex) regex = g_regex_new (pattern, 0, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;

  for (g_regex_match (regex, text, 0, &match); g_match_info_matches (match); g_match_info_next (match, NULL))
    {
      g_autofree gchar *path = g_match_info_fetch (match, 0);
      g_autofree gchar *parent = g_path_get_dirname (path);
      g_mkdir_with_parents (parent, 0755);
    }
  g_autofree gchar *dev = g_build_filename (d->root, "dev", NULL);
  g_autofree gchar *conf = g_build_filename (d->root, "etc/rsyslog.d", NULL);
  g_autofree gchar *spool = g_build_filename (d->root, "var/spool/rsyslog", NULL);
  g_autofree gchar *lib = g_build_filename (d->root, "var/lib/rsyslog", NULL);
  g_autofree gchar *sockets = g_build_filename (d->root, "run/rsyslog/additional-log-sockets.conf", NULL);
  g_mkdir_with_parents (dev, 0755);
  g_mkdir_with_parents (conf, 0755);
  g_mkdir_with_parents (spool, 0755);
  g_mkdir_with_parents (lib, 0755);
  g_autofree gchar *run = g_path_get_dirname (sockets);
  g_mkdir_with_parents (run, 0755);
  g_file_set_contents (sockets, "", 0, NULL);
}

/* The corpus file (or main file and snippets, TOGETHER.tsv) written as d
 * runs it; the main file's path, or NULL. */
static gchar *
prepare (const gchar *name, Daemon *d, GHashTable *taken, const gchar *main_path)
{
  const gchar *alone[] = { name, NULL };
  const gchar *const *row = g_hash_table_lookup (together, name);
  const gchar *const *files = row ? row : alone;
  gboolean ok = TRUE;

  for (guint i = 0; files[i] && ok; i++)
    {
      g_autofree gchar *source = corpus_path (files[i]);
      g_autofree gchar *text = NULL;
      ok = g_file_get_contents (source, &text, NULL, NULL);
      if (!ok)
        break;
      g_autofree gchar *copy = rewritten (text, d, taken);
      if (names_host_path (copy, d))
        return NULL;
      g_autofree gchar *target = i == 0 ? g_strdup (main_path)
                                        : g_build_filename (d->root, "etc/rsyslog.d", files[i], NULL);
      g_mkdir_with_parents (d->root, 0755);
      make_folders (copy, d);
      ok = g_file_set_contents (target, copy, -1, NULL);
    }
  return ok ? g_strdup (main_path) : NULL;
}

/* The test's stand-in for every forwarding target: what arrives over UDP
 * and over TCP on one port, each into a file of the daemon's folder. */
typedef struct
{
  gint udp;
  gint tcp;
  gint stop[2];
  gchar *udp_file;
  gchar *tcp_file;
  GThread *thread;
} Listener;

static void
append (const gchar *path, const gchar *data, gssize len)
{
  FILE *out = fopen (path, "a");
  if (!out)
    return;
  fwrite (data, 1, (gsize) len, out);
  fclose (out);
}

static gpointer
listener_run (gpointer data)
{
  Listener *l = data;
  g_autoptr (GArray) fds = g_array_new (FALSE, FALSE, sizeof (struct pollfd));
  gchar buf[65536];

  struct pollfd first[] = { { l->stop[0], POLLIN, 0 }, { l->udp, POLLIN, 0 }, { l->tcp, POLLIN, 0 } };
  g_array_append_vals (fds, first, G_N_ELEMENTS (first));
  for (;;)
    {
      if (poll ((struct pollfd *) fds->data, fds->len, -1) < 0)
        continue;
      struct pollfd *p = (struct pollfd *) fds->data;
      if (p[0].revents)
        break;
      if (p[1].revents)
        {
          gssize n = recv (l->udp, buf, sizeof buf, 0);
          if (n > 0)
            {
              append (l->udp_file, buf, n);
              if (buf[n - 1] != '\n')
                append (l->udp_file, "\n", 1);
            }
        }
      if (p[2].revents)
        {
          gint fd = accept (l->tcp, NULL, NULL);
          struct pollfd c = { fd, POLLIN, 0 };
          if (fd >= 0)
            g_array_append_val (fds, c);
        }
      for (guint i = 3; i < fds->len; i++)
        {
          struct pollfd *c = &g_array_index (fds, struct pollfd, i);
          if (!c->revents)
            continue;
          gssize n = read (c->fd, buf, sizeof buf);
          if (n > 0)
            {
              append (l->tcp_file, buf, n);
              continue;
            }
          close (c->fd);
          g_array_remove_index (fds, i--);
        }
    }
  for (guint i = 3; i < fds->len; i++)
    close (g_array_index (fds, struct pollfd, i).fd);
  return NULL;
}

static gint
bound (gint type, guint16 port)
{
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (port), .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  gint one = 1;
  gint fd = socket (AF_INET, type | SOCK_CLOEXEC, 0);

  setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (fd < 0 || bind (fd, (struct sockaddr *) &addr, sizeof addr) != 0 || (type == SOCK_STREAM && listen (fd, 16) != 0))
    {
      if (fd >= 0)
        close (fd);
      return -1;
    }
  return fd;
}

/* A listener on a port free for both UDP and TCP, or NULL. */
static Listener *
listener_new (const gchar *dir, GHashTable *taken)
{
  Listener *l = g_new0 (Listener, 1);

  for (guint tries = 0; tries < 20; tries++)
    {
      guint16 port = fresh_port (taken, SOCK_STREAM);
      l->tcp = bound (SOCK_STREAM, port);
      l->udp = l->tcp >= 0 ? bound (SOCK_DGRAM, port) : -1;
      if (l->udp >= 0)
        {
          g_mkdir_with_parents (dir, 0755);
          l->udp_file = g_build_filename (dir, "forwarded-udp", NULL);
          l->tcp_file = g_build_filename (dir, "forwarded-tcp", NULL);
          g_assert_cmpint (pipe (l->stop), ==, 0);
          l->thread = g_thread_new ("listener", listener_run, l);
          return l;
        }
      if (l->tcp >= 0)
        close (l->tcp);
    }
  g_free (l);
  return NULL;
}

static guint16
listener_port (Listener *l)
{
  struct sockaddr_in addr;
  socklen_t len = sizeof addr;
  getsockname (l->tcp, (struct sockaddr *) &addr, &len);
  return ntohs (addr.sin_port);
}

static void
listener_free (Listener *l)
{
  if (!l)
    return;
  g_assert_cmpint (write (l->stop[1], "x", 1), ==, 1);
  g_thread_join (l->thread);
  close (l->stop[0]);
  close (l->stop[1]);
  close (l->udp);
  close (l->tcp);
  g_free (l->udp_file);
  g_free (l->tcp_file);
  g_free (l);
}

/* facilities and severities the selectors of the corpus route apart */
static const struct
{
  const gchar *name;
  gint code;
} facilities[] = {
  { "kern", 0 }, { "user", 1 }, { "mail", 2 }, { "daemon", 3 }, { "auth", 4 }, { "lpr", 6 }, { "news", 7 },
  { "cron", 9 }, { "authpriv", 10 }, { "local0", 16 }, { "local1", 17 }, { "local2", 18 }, { "local3", 19 },
  { "local4", 20 }, { "local5", 21 }, { "local6", 22 }, { "local7", 23 },
};

/* What every input is sent: as glibc's syslog() writes to the unix
 * socket (no host name), with a host name over the network, RFC 5424
 * with structured data, a tab, a 9 KB line. */
static GPtrArray *
messages (gboolean network)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  const gchar *host = network ? "db02.example.com " : "";

  for (guint f = 0; f < G_N_ELEMENTS (facilities); f++)
    for (gint s = 0; s < 8; s++)
      g_ptr_array_add (out, g_strdup_printf ("<%d>Dec  1 10:00:%02d %sapp%u[%d]: %s.%d says hello", facilities[f].code * 8
                                             + s, s, host, f, 100 + s, facilities[f].name, s));
  g_ptr_array_add (out, g_strdup_printf ("<14>Dec  1 10:00:00 %stabs[7]: a\tb\tc", host));
  g_ptr_array_add (out, g_strdup_printf ("<13>Dec  1 10:00:00 %snopid: without a pid", host));
  g_ptr_array_add (out, g_strdup_printf ("<86>Dec  1 10:00:00 %ssshd[22]: Accepted publickey for alice", host));
  g_ptr_array_add (out, g_strdup_printf ("<4>Dec  1 10:00:00 %skernel: [UFW BLOCK] IN=eth0 OUT= SRC=10.0.0.1", host));
  g_ptr_array_add (out, g_strdup_printf ("<134>Dec  1 10:00:00 %shaproxy[42]: 127.0.0.1:5000 fe be/srv 200", host));
  if (network)
    {
      g_ptr_array_add (out, g_strdup ("<165>1 2026-12-01T10:00:00.123Z db02.example.com app 1234 ID47 "
                                      "[exampleSDID@32473 iut=\"3\" eventSource=\"Application\"] RFC 5424 with data"));
      g_ptr_array_add (out, g_strdup ("<11>1 2026-12-01T10:00:00+01:00 db02.example.com app - - - RFC 5424 without"));
    }
  GString *longer = g_string_new (NULL);
  g_string_append_printf (longer, "<13>Dec  1 10:00:00 %slong[9]: ", host);
  for (guint i = 0; longer->len < 9 * 1024; i++)
    g_string_append_printf (longer, "%05u ", i);
  g_ptr_array_add (out, g_string_free (longer, FALSE));
  return out;
}

static void
feed (Daemon *d)
{
  g_autoptr (GPtrArray) local = messages (FALSE);
  g_autoptr (GPtrArray) remote = messages (TRUE);

  for (guint i = 0; i < d->sockets->len; i++)
    for (guint m = 0; m < local->len; m++)
      sl_test_unix_send (g_ptr_array_index (d->sockets, i), SOCK_DGRAM, g_ptr_array_index (local, m));
  for (guint i = 0; i < d->udp->len; i++)
    for (guint m = 0; m < remote->len; m++)
      sl_test_udp_send (g_array_index (d->udp, guint16, i), g_ptr_array_index (remote, m));
  GString *stream = g_string_new (NULL);
  for (guint m = 0; m < remote->len; m++)
    g_string_append_printf (stream, "%s\n", (const gchar *) g_ptr_array_index (remote, m));
  for (guint i = 0; i < d->tcp->len; i++)
    sl_test_tcp_send (g_array_index (d->tcp, guint16, i), stream->str);
  g_string_free (stream, TRUE);
}

/* The lines imfile reads, written before the daemons start. */
static void
write_inputs (Daemon *d)
{
  for (guint i = 0; i < d->inputs->len; i++)
    {
      const gchar *path = g_ptr_array_index (d->inputs, i);
      g_autofree gchar *parent = g_path_get_dirname (path);
      g_mkdir_with_parents (parent, 0755);
      g_file_set_contents (path, "a line for imfile\nanother\twith a tab\n", -1, NULL);
    }
}

/* The regular files under dir (relative names) with their sizes summed
 * into *size; work folders and the files the test wrote left out. */
static void
walk (const gchar *top, const gchar *rel, Daemon *d, GPtrArray *names, goffset *size)
{
  g_autofree gchar *dir = g_build_filename (top, rel, NULL);
  GDir *handle = g_dir_open (dir, 0, NULL);
  const gchar *entry;

  while (handle && (entry = g_dir_read_name (handle)))
    {
      g_autofree gchar *name = *rel ? g_build_filename (rel, entry, NULL) : g_strdup (entry);
      g_autofree gchar *path = g_build_filename (top, name, NULL);
      GStatBuf st;
      if (g_lstat (path, &st) != 0)
        continue;
      if (S_ISDIR (st.st_mode))
        {
          if (!g_str_equal (name, "var/spool/rsyslog") && !g_str_equal (name, "var/lib/rsyslog")
              && !g_str_equal (name, "etc/rsyslog.d"))
            walk (top, name, d, names, size);
          continue;
        }
      if (!S_ISREG (st.st_mode) || g_str_equal (name, "run/rsyslog/additional-log-sockets.conf")
          || g_ptr_array_find_with_equal_func (d->inputs, path, g_str_equal, NULL))
        continue;
      *size += st.st_size;
      if (names)
        g_ptr_array_add (names, g_steal_pointer (&name));
    }
  if (handle)
    g_dir_close (handle);
}

static GPtrArray *
written (Daemon *d, goffset *size)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  *size = 0;
  walk (d->root, "", d, names, size);
  for (guint i = 0; i < 2; i++)
    {
      const gchar *stream = i ? "forwarded-tcp" : "forwarded-udp";
      g_autofree gchar *path = g_build_filename (d->dir, stream, NULL);
      GStatBuf st;
      if (g_stat (path, &st) == 0)
        {
          *size += st.st_size;
          g_ptr_array_add (names, g_strconcat ("../", stream, NULL));
        }
    }
  return names;
}

/* Until what both write has not grown for a second (at most 10 s). */
static void
settle (Daemon *a, Daemon *b)
{
  goffset last = -1;
  guint still = 0;

  for (guint i = 0; i < 50 && still < 5; i++)
    {
      goffset sa, sb;
      g_ptr_array_unref (written (a, &sa));
      g_ptr_array_unref (written (b, &sb));
      still = sa + sb == last ? still + 1 : 0;
      last = sa + sb;
      g_usleep (200 * 1000);
    }
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar *const *) a, *(const gchar *const *) b);
}

/* An RFC 3339 stamp as its shape: its date and time go, the number of
 * digits of its fraction and its zone as written stay (rsyslogd keeps
 * both as the stamp came; both daemons run in the same zone). */
static gboolean
rfc3339_shape (const GMatchInfo *match, GString *out, gpointer data)
{
  g_autofree gchar *fraction = g_match_info_fetch (match, 1);
  g_autofree gchar *zone = g_match_info_fetch (match, 2);

  g_string_append (out, "RFC3339");
  for (guint i = 0; fraction[i]; i++)
    g_string_append_c (out, i ? '9' : '.');
  g_string_append (out, zone);
  return FALSE;
}

/* A file's lines with stamps and the host's name as their shapes, the
 * daemons' own messages left out, sorted (messages of different inputs
 * arrive in no defined order). */
static GPtrArray *
shaped_lines (const gchar *path)
{
  static const gchar *const shapes[][2] = {
    { "[A-Z][a-z][a-z] [ 1-3]\\d \\d\\d:\\d\\d:\\d\\d", "RFC3164" },
  };
  g_autofree gchar *text = sl_test_read_file (path);
  g_auto (GStrv) lines = g_strsplit (text ? text : "", "\n", -1);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  g_autofree gchar *host = g_regex_escape_string (g_get_host_name (), -1);
  g_autofree gchar *host_pattern = g_strdup_printf ("\\b%s\\b", host);

  for (guint i = 0; lines[i]; i++)
    {
      if (!*lines[i] || strstr (lines[i], "rsyslogd") || strstr (lines[i], "sluiced"))
        continue;
      gchar *line = replaced (lines[i], "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?(Z|[+-]\\d\\d:\\d\\d)", 0,
                              rfc3339_shape, NULL);
      for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
        {
          gchar *next = replaced_by (line, shapes[s][0], shapes[s][1]);
          g_free (line);
          line = next;
        }
      gchar *hostless = replaced_by (line, host_pattern, "HOST");
      g_free (line);
      g_ptr_array_add (out, hostless);
    }
  g_ptr_array_sort (out, compare_strings);
  return out;
}

/* A piece of a line for a TSV cell: from 20 bytes before at, at most 80
 * bytes, control characters escaped. */
static gchar *
cell (const gchar *line, gsize at)
{
  if (!line)
    return g_strdup ("(no line)");
  gsize from = MIN (at > 20 ? at - 20 : 0, strlen (line));
  g_autofree gchar *piece = g_strndup (line + from, 80);
  g_autofree gchar *escaped = g_strescape (piece, NULL);
  return g_strdup_printf ("%s%s%s", from ? "..." : "", escaped, strlen (line + from) > 80 ? "..." : "");
}

/* The test's log gets the first lines of one daemon's file that the other's
 * lacks, for finding every cause where the table keeps the first. */
static void
log_unmatched (const gchar *name, const gchar *daemon, GPtrArray *lines, GPtrArray *others)
{
  g_autoptr (GHashTable) left = g_hash_table_new (g_str_hash, g_str_equal);
  guint logged = 0;

  for (guint i = 0; i < others->len; i++)
    {
      gpointer seen = g_hash_table_lookup (left, g_ptr_array_index (others, i));
      g_hash_table_insert (left, g_ptr_array_index (others, i), GUINT_TO_POINTER (GPOINTER_TO_UINT (seen) + 1));
    }
  for (guint i = 0; i < lines->len && logged < 8; i++)
    {
      const gchar *line = g_ptr_array_index (lines, i);
      guint seen = GPOINTER_TO_UINT (g_hash_table_lookup (left, line));
      if (seen)
        {
          g_hash_table_insert (left, (gpointer) line, GUINT_TO_POINTER (seen - 1));
          continue;
        }
      g_autofree gchar *piece = cell (line, 0);
      g_test_message ("%s: only %s: %s", name, daemon, piece);
      logged++;
    }
}

/* The first difference of one file, or NULL when both hold the same. */
static gchar *
file_difference (const gchar *name, Daemon *rs, Daemon *sl, gboolean in_rs, gboolean in_sl)
{
  if (!in_sl || !in_rs)
    {
      Daemon *writer = in_rs ? rs : sl;
      g_autofree gchar *path = g_build_filename (writer->root, name, NULL);
      g_autoptr (GPtrArray) lines = shaped_lines (path);
      g_autofree gchar *first = lines->len ? cell (g_ptr_array_index (lines, 0), 0) : g_strdup ("");
      g_test_message ("%s: only %s writes it, first: %s", name, in_rs ? "rsyslogd" : "sluiced", first);
      return g_strdup_printf ("%s: only %s writes it", name, in_rs ? "rsyslogd" : "sluiced");
    }
  g_autofree gchar *rs_path = g_build_filename (rs->root, name, NULL);
  g_autofree gchar *sl_path = g_build_filename (sl->root, name, NULL);
  g_autoptr (GPtrArray) want = shaped_lines (rs_path);
  g_autoptr (GPtrArray) got = shaped_lines (sl_path);
  log_unmatched (name, "rsyslogd", want, got);
  log_unmatched (name, "sluiced", got, want);
  for (guint i = 0; i < MAX (want->len, got->len); i++)
    {
      const gchar *w = i < want->len ? g_ptr_array_index (want, i) : NULL;
      const gchar *g = i < got->len ? g_ptr_array_index (got, i) : NULL;
      if (g_strcmp0 (w, g) == 0)
        continue;
      gsize at = 0;
      while (w && g && w[at] && w[at] == g[at])
        at++;
      g_autofree gchar *wc = cell (w, at);
      g_autofree gchar *gc = cell (g, at);
      return g_strdup_printf ("%s (%u/%u lines), byte %" G_GSIZE_FORMAT ": rsyslogd \"%s\", sluiced \"%s\"", name,
                              want->len, got->len, at, wc, gc);
    }
  return NULL;
}

/* Every file either wrote compared; the first difference, or NULL. */
static gchar *
compare_outputs (Daemon *rs, Daemon *sl, guint *files)
{
  goffset size;
  g_autoptr (GPtrArray) rs_names = written (rs, &size);
  g_autoptr (GPtrArray) sl_names = written (sl, &size);
  g_autoptr (GPtrArray) all = g_ptr_array_new ();
  gchar *first = NULL;

  for (guint i = 0; i < rs_names->len; i++)
    g_ptr_array_add (all, g_ptr_array_index (rs_names, i));
  for (guint i = 0; i < sl_names->len; i++)
    if (!g_ptr_array_find_with_equal_func (rs_names, g_ptr_array_index (sl_names, i), g_str_equal, NULL))
      g_ptr_array_add (all, g_ptr_array_index (sl_names, i));
  g_ptr_array_sort (all, compare_strings);
  *files = all->len;
  for (guint i = 0; i < all->len; i++)
    {
      const gchar *name = g_ptr_array_index (all, i);
      gboolean in_rs = g_ptr_array_find_with_equal_func (rs_names, name, g_str_equal, NULL);
      gboolean in_sl = g_ptr_array_find_with_equal_func (sl_names, name, g_str_equal, NULL);
      g_autofree gchar *difference = file_difference (name, rs, sl, in_rs, in_sl);
      g_test_message ("%s: %s", name, difference ? difference : "same");
      if (difference && !first)
        first = g_steal_pointer (&difference);
    }
  return first;
}

static gboolean
wait_inputs (SlTestEnv *env, Daemon *d)
{
  for (guint i = 0; i < d->sockets->len; i++)
    if (!sl_test_wait_socket (env, g_ptr_array_index (d->sockets, i)))
      return FALSE;
  for (guint i = 0; i < d->tcp->len; i++)
    if (!sl_test_wait_tcp (env, g_array_index (d->tcp, guint16, i)))
      return FALSE;
  return TRUE;
}

/* Both daemons on name; the outcome. */
static Outcome *
run_file (SlTestEnv *env, const gchar *name)
{
  g_autoptr (GHashTable) taken = g_hash_table_new (NULL, NULL);
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  g_autofree gchar *sl_dir = sl_test_path (env, "sluiced");
  Listener *rs_listener = listener_new (rs_dir, taken);
  Listener *sl_listener = listener_new (sl_dir, taken);
  g_assert_nonnull (rs_listener);
  g_assert_nonnull (sl_listener);
  Daemon *rs = daemon_new (env, "rsyslogd", listener_port (rs_listener));
  Daemon *sl = daemon_new (env, "sluiced", listener_port (sl_listener));
  g_autofree gchar *rs_main = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  g_autofree gchar *rs_conf = prepare (name, rs, taken, rs_main);
  g_autofree gchar *sl_conf = prepare (name, sl, taken, env->config);
  Outcome *outcome = NULL;

  /* a copy that could not be made, or that would write outside the test
   * (the test failed then), is run by neither */
  if (!rs_conf || !sl_conf)
    outcome = outcome_new ("not run", "the copies could not be made");
  else if (!rs->sockets->len && !rs->udp->len && !rs->tcp->len && !rs->inputs->len)
    outcome = outcome_new ("not run", "no input the test can feed");
  write_inputs (rs);
  write_inputs (sl);

  g_autofree gchar *rsyslogd = g_build_filename (rsyslog, "usr/sbin/rsyslogd", NULL);
  g_autofree gchar *modules = g_build_filename (rsyslog, "usr/lib/x86_64-linux-gnu/rsyslog", NULL);
  g_autofree gchar *rs_pid = g_build_filename (rs_dir, "rsyslogd.pid", NULL);
  g_autofree gchar *rs_err = g_build_filename (rs_dir, "rsyslogd.stderr", NULL);
  const gchar *argv[] = { rsyslogd, "-n", "-f", rs_conf, "-i", rs_pid, "-M", modules, NULL };
  GPid pid = outcome ? 0 : sl_test_spawn_argv (argv, rs_err);
  if (!outcome && !sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL))
    {
      g_autofree gchar *err = sl_test_daemon_stderr (env);
      g_autofree gchar *first = cell (err, 0);
      outcome = outcome_new ("differs", first);
    }
  if (!outcome && wait_inputs (env, rs) && wait_inputs (env, sl))
    {
      feed (rs);
      feed (sl);
      settle (rs, sl);
      kill (pid, SIGTERM);
      sl_test_child_wait (pid, 10 * G_USEC_PER_SEC);
      pid = 0;
      sl_test_daemon_stop (env, SIGTERM);
      guint files = 0;
      g_autofree gchar *difference = compare_outputs (rs, sl, &files);
      g_test_message ("%s: %u files compared", name, files);
      outcome = difference ? outcome_new ("differs", difference)
                           : files ? outcome_new ("same", "") : outcome_new ("same", "neither wrote a file");
    }
  if (pid)
    {
      kill (pid, SIGTERM);
      sl_test_child_wait (pid, 10 * G_USEC_PER_SEC);
    }
  g_autofree gchar *rs_stderr = sl_test_read_file (rs_err);
  if (rs_stderr && *rs_stderr)
    g_test_message ("rsyslogd's stderr:\n%s", rs_stderr);
  listener_free (rs_listener);
  listener_free (sl_listener);
  daemon_free (rs);
  daemon_free (sl);
  return outcome ? outcome : outcome_new ("differs", "an input did not open");
}

static void
test_file (SlTestEnv *env, gconstpointer data)
{
  const gchar *name = data;
  Outcome *now = NULL;

  if (!rsyslog)
    {
      g_test_skip ("rsyslog could not be unpacked (tests/peers/rsyslog-root)");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (not_run); i++)
    if (g_str_equal (not_run[i].name, name))
      now = outcome_new ("not run", not_run[i].why);
  if (!now)
    now = run_file (env, name);
  g_hash_table_replace (measured, g_strdup (name), now);
  g_test_message ("%s: %s %s", name, now->result, now->summary);
  if (g_getenv ("SL_RSYSLOG_DIFFERENTIAL_UPDATE"))
    return;
  Outcome *was = g_hash_table_lookup (expected, name);
  if (!was)
    g_test_fail_printf ("%s has no row in tests/rsyslog-corpus/DIFFERENTIAL.tsv (%s: %s)", name, now->result,
                        now->summary);
  else if (!g_str_equal (was->result, now->result))
    g_test_fail_printf ("%s: %s (%s), where DIFFERENTIAL.tsv has %s (%s)", name, now->result, now->summary,
                        was->result, was->summary);
  else if (!g_str_equal (was->summary, now->summary))
    g_test_message ("the first difference was: %s", was->summary);
}

/* Counts, and with SL_RSYSLOG_DIFFERENTIAL_UPDATE the new table. */
static void
summarize (GPtrArray *names)
{
  guint run = 0, same = 0;
  GString *table = g_string_new ("file\tresult\tfirst difference\n");

  for (guint i = 0; i < names->len; i++)
    {
      Outcome *o = g_hash_table_lookup (measured, g_ptr_array_index (names, i));
      if (!o)
        continue;
      run += !g_str_equal (o->result, "not run");
      same += g_str_equal (o->result, "same");
      g_string_append_printf (table, "%s\t%s\t%s\n", (const gchar *) g_ptr_array_index (names, i), o->result,
                              o->summary);
    }
  if (run)
    g_print ("# rsyslog differential: %u files run by both daemons, %u write the same\n", run, same);
  if (run && g_getenv ("SL_RSYSLOG_DIFFERENTIAL_UPDATE"))
    {
      g_autofree gchar *path = corpus_path ("DIFFERENTIAL.tsv");
      if (!g_file_set_contents (path, table->str, -1, NULL))
        g_printerr ("cannot write %s\n", path);
    }
  g_string_free (table, TRUE);
}

/* DIFFERENTIAL.tsv's rows as outcomes. */
static GHashTable *
read_expected (void)
{
  g_autoptr (GHashTable) rows = read_table ("DIFFERENTIAL.tsv", 3);
  GHashTable *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, outcome_free);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, rows);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gchar **cols = value;
      g_hash_table_replace (table, g_strdup (key), outcome_new (cols[0], cols[1]));
    }
  return table;
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  rsyslog = sl_test_rsyslog_root ();
  expected = read_expected ();
  together = read_table ("TOGETHER.tsv", 3);
  measured = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, outcome_free);

  /* the files both daemons accept */
  g_autoptr (GHashTable) verdicts = read_table ("EXPECTED.tsv", 3);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key, value;
  g_hash_table_iter_init (&iter, verdicts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (g_str_equal (((gchar **) value)[0], "accepts") && g_str_equal (((gchar **) value)[1], "accepts"))
      g_ptr_array_add (names, g_strdup (key));
  g_ptr_array_sort (names, compare_strings);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree gchar *path = g_strconcat ("/rsyslog-differential/", (const gchar *) g_ptr_array_index (names, i),
                                            NULL);
      g_test_add (path, SlTestEnv, g_ptr_array_index (names, i), sl_test_env_setup, test_file, sl_test_env_teardown);
    }
  gint result = g_test_run ();
  summarize (names);

  g_ptr_array_unref (names);
  g_hash_table_unref (measured);
  g_hash_table_unref (together);
  g_hash_table_unref (expected);
  g_free (rsyslog);
  return result;
}
