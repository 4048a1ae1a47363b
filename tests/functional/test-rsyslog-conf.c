/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's language as sluiced reads it (--config-format rsyslog), beside
 * the real rsyslogd 8.2302 on the same configuration: Debian's stock
 * /etc/rsyslog.conf with haproxy's, postfix's and ufw's snippets, every
 * path moved into the test's folder (sockets too), the same messages to
 * both, the same lines in the same files; stamps are compared by shape.
 * imklog is left out (neither daemon may read the host's kernel log) and
 * no emerg message is sent (`*.emerg :omusrmsg:*` would write to every
 * terminal). Then a corpus of RainerScript configurations of our own,
 * each checked by what it writes, and --print-config's text must load
 * with -s and route the same. */
#include "tests/functional/harness.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static const gchar *const files[] = {
  "syslog", "auth.log", "cron.log", "kern.log", "mail.log", "user.log", "haproxy.log", "ufw.log",
};

/* rsyslog's formats and properties, each into a file of its own, for the
 * messages of the program fmt (a snippet beside the packages') */
static const gchar *const formats[] = {
  "RSYSLOG_TraditionalFileFormat", "RSYSLOG_FileFormat", "RSYSLOG_ForwardFormat",
  "RSYSLOG_TraditionalForwardFormat", "RSYSLOG_SyslogProtocol23Format", "props",
};

/* RainerScript of our own, each a snippet with its own socket and ruleset,
 * run by both daemons beside the stock file: what each writes must be what
 * rsyslogd writes. @DIR@ is the daemon's folder. */
static const struct
{
  const gchar *name;
  const gchar *snippet;
  const gchar *messages[6];
  const gchar *files[4];
  guint lines[4];   /* what rsyslogd writes into each, to wait for */
} differential[] = {
  { "c1",
    "template(name=\"c1\" type=\"string\" string=\"%syslogseverity-text%|%programname%|%msg%|%syslogfacility-text%\\n\")\n"
    "input(type=\"imuxsock\" Socket=\"@DIR@/c1\" ruleset=\"c1\")\n"
    "ruleset(name=\"c1\") {\n"
    "  if $programname == 'app' and $syslogseverity <= 4 then {\n"
    "    action(type=\"omfile\" file=\"@DIR@/log/c1-a\" template=\"c1\")\n"
    "    stop\n"
    "  } else if $syslogfacility-text == 'local0' then {\n"
    "    action(type=\"omfile\" file=\"@DIR@/log/c1-b\" template=\"c1\")\n"
    "  }\n"
    "  action(type=\"omfile\" file=\"@DIR@/log/c1-all\" template=\"c1\")\n"
    "}\n",
    { "<12>Dec  1 10:00:00 app[1]: warned", "<14>Dec  1 10:00:00 app[1]: informed",
      "<134>Dec  1 10:00:00 other: local0 info", NULL },
    { "c1-a", "c1-b", "c1-all", NULL }, { 1, 1, 2 } },
  { "c2",
    "template(name=\"c2\" type=\"list\") {\n"
    "  constant(value=\"[\") property(name=\"hostname\") constant(value=\"] \")\n"
    "  property(name=\"syslogtag\") property(name=\"msg\" caseConversion=\"upper\")\n"
    "  constant(value=\" \") property(name=\"msg\" position.from=\"2\" position.to=\"5\")\n"
    "  constant(value=\" %\\n\")\n"
    "}\n"
    "input(type=\"imuxsock\" Socket=\"@DIR@/c2\" ruleset=\"c2\")\n"
    "ruleset(name=\"c2\") {\n"
    "  if $msg contains 'keep' or $programname startswith 'x' then action(type=\"omfile\" file=\"@DIR@/log/c2\" template=\"c2\")\n"
    "}\n",
    { "<13>Dec  1 10:00:00 prog: keep me", "<13>Dec  1 10:00:00 xprog[3]: x side", "<13>Dec  1 10:00:00 prog: drop me",
      NULL },
    { "c2", NULL }, { 2 } },
  { "c3",
    "module(load=\"mmjsonparse\")\n"
    "template(name=\"c3\" type=\"string\" string=\"%$!user% %$!action% %$!seen%\\n\")\n"
    "input(type=\"imuxsock\" Socket=\"@DIR@/c3\" ruleset=\"c3\")\n"
    "ruleset(name=\"c3\") {\n"
    "  action(type=\"mmjsonparse\" cookie=\"\")\n"
    "  set $!seen = \"yes\";\n"
    "  if $!user == 'alice' and re_match($!action, '^log(in|out)$') then\n"
    "    action(type=\"omfile\" file=\"@DIR@/log/c3\" template=\"c3\")\n"
    "}\n",
    { "<13>Dec  1 10:00:00 app: {\"user\":\"alice\",\"action\":\"login\"}",
      "<13>Dec  1 10:00:00 app: {\"user\":\"bob\",\"action\":\"login\"}",
      "<13>Dec  1 10:00:00 app: {\"user\":\"alice\",\"action\":\"view\"}", NULL },
    { "c3", NULL }, { 1 } },
  { "c4",
    "$template c4,\"%pri-text% %syslogtag%%msg:::sp-if-no-1st-sp%%msg:::drop-last-lf%\\n\"\n"
    "input(type=\"imuxsock\" Socket=\"@DIR@/c4\" ruleset=\"c4\")\n"
    "ruleset(name=\"c4\") {\n"
    "  local3.=info;local3.!err @DIR@/log/c4-a;c4\n"
    "  :msg, !regex, \"^ b\" @DIR@/log/c4-b;c4\n"
    "  & stop\n"
    "  *.* @DIR@/log/c4-c;c4\n"
    "}\n",
    { "<158>Dec  1 10:00:00 svc[9]: hello", "<14>Dec  1 10:00:00 svc: bye", NULL },
    { "c4-a", "c4-b", "c4-c", NULL }, { 1, 1, 1 } },
  { "c5",
    "input(type=\"imuxsock\" Socket=\"@DIR@/c5\" ruleset=\"c5\")\n"
    "ruleset(name=\"c5\") {\n"
    "  if not ($programname == [\"a\", \"b\"]) then call c5sub\n"
    "  action(type=\"omfile\" file=\"@DIR@/log/c5-after\" template=\"RSYSLOG_TraditionalFileFormat\")\n"
    "}\n"
    "ruleset(name=\"c5sub\") {\n"
    "  if $msg contains_i 'ALERT' then {\n"
    "    action(type=\"omfile\" file=\"@DIR@/log/c5-alert\" template=\"RSYSLOG_FileFormat\")\n"
    "    stop\n"
    "  }\n"
    "  action(type=\"omfile\" file=\"@DIR@/log/c5-sub\" template=\"RSYSLOG_TraditionalFileFormat\")\n"
    "}\n"
,
    { "<13>Dec  1 10:00:00 a: plain", "<13>Dec  1 10:00:00 c: an alert here", "<13>Dec  1 10:00:00 c: plain", NULL },
    { "c5-alert", "c5-sub", "c5-after", NULL }, { 1, 1, 2 } },
  /* selectors continued over lines and comments after directives and
   * actions, as Debian's stock file had them before Debian 12 (danos/rsyslog
   * debian/rsyslog.conf, commit 67bc8e53, GPL-3.0-or-later) and Yocto's
   * (openembedded/meta-openembedded meta-oe/recipes-extended/rsyslog/rsyslog/
   * rsyslog.conf, commit 65b4b211, MIT) */
  { "c6",
    "$ModLoad imudp  # provides UDP syslog reception\n"
    "input(type=\"imuxsock\" Socket=\"@DIR@/c6\" ruleset=\"c6\") # a socket of its own\n"
    "ruleset(name=\"c6\") {\n"
    "*.=debug;\\\n"
    "\tauth,authpriv.none;\\\n"
    "\tnews.none;mail.none\t-@DIR@/log/c6-debug;RSYSLOG_TraditionalFileFormat # the catch-all\n"
    "*.=info;*.=notice;*.=warn;\\\n"
    "        auth,authpriv.none;\\\n"
    "        cron,daemon.none;\\\n"
    "        mail,news.none          -@DIR@/log/c6-messages;RSYSLOG_TraditionalFileFormat\n"
    "#daemon,mail.*;\\\n"
    "#\tnews.=crit;news.=err;news.=notice;\\\n"
    "#\t*.=notice;*.=warn\t@DIR@/log/c6-messages\n"
    "}\n",
    { "<15>Dec  1 10:00:00 dbg: debugged", "<14>Dec  1 10:00:00 inf: informed", "<38>Dec  1 10:00:00 su: auth",
      "<29>Dec  1 10:00:00 daemon: noticed", "<22>Dec  1 10:00:00 mail: mailed", NULL },
    { "c6-debug", "c6-messages", NULL }, { 1, 1 } },
  /* omrelp to imrelp, by action() with omrelp's default format and by the
   * legacy :omrelp: line: each daemon listens on its @RELP@ and sends to the
   * other's (@PEER@), so each reads what the other wrote */
  { "c7",
    "module(load=\"imrelp\")\n"
    "module(load=\"omrelp\")\n"
    "template(name=\"c7\" type=\"string\" string=\"%pri-text% %timestamp% %hostname% %syslogtag%|%msg%|\\n\")\n"
    "input(type=\"imrelp\" port=\"@RELP@\" address=\"127.0.0.1\" ruleset=\"c7in\")\n"
    "ruleset(name=\"c7in\") {\n"
    "  if $programname == 'a' then action(type=\"omfile\" file=\"@DIR@/log/c7-a\" template=\"c7\")\n"
    "  else action(type=\"omfile\" file=\"@DIR@/log/c7-b\" template=\"c7\")\n"
    "}\n"
    "input(type=\"imuxsock\" Socket=\"@DIR@/c7\" ruleset=\"c7\")\n"
    "ruleset(name=\"c7\") {\n"
    "  if $programname == 'a' then action(type=\"omrelp\" target=\"127.0.0.1\" port=\"@PEER@\" timeout=\"30\")\n"
    "  if $programname == 'b' then :omrelp:127.0.0.1:@PEER@;RSYSLOG_TraditionalForwardFormat\n"
    "}\n",
    { "<13>Dec  1 10:00:00 a[1]: by action", "<165>Dec  1 10:00:00 b: by the legacy line", NULL },
    { "c7-a", "c7-b", NULL }, { 1, 1 } },
  /* omelasticsearch, bulk and not, with its own default template and an
   * option.json one, to each daemon's Elasticsearch stand-in on @ES@
   * (es_receiver): it writes each document into log/c8-PATH */
  { "c8",
    "module(load=\"omelasticsearch\")\n"
    "template(name=\"c8\" type=\"list\" option.json=\"on\") {\n"
    "  constant(value=\"{\\\"msg\\\":\\\"\") property(name=\"msg\") constant(value=\"\\\",\\\"tag\\\":\\\"\")\n"
    "  property(name=\"syslogtag\" format=\"json\") constant(value=\"\\\"}\")\n"
    "}\n"
    "input(type=\"imuxsock\" Socket=\"@DIR@/c8\" ruleset=\"c8\")\n"
    "ruleset(name=\"c8\") {\n"
    "  if $programname == 'bulk' then action(type=\"omelasticsearch\" server=\"127.0.0.1\" serverport=\"@ES@\"\n"
    "                                        searchIndex=\"logs\" bulkmode=\"on\" template=\"c8\")\n"
    "  else action(type=\"omelasticsearch\" server=\"127.0.0.1\" serverport=\"@ES@\")\n"
    "}\n",
    { "<13>Dec  1 10:00:00 bulk: one \"quoted\" a/b", "<13>Dec  1 10:00:00 bulk: two", "<14>Dec  1 10:00:00 other: three", NULL },
    { "c8-_bulk", "c8-system-events", NULL }, { 4, 1 } },
  /* imuxsock keeps the message's own time only with both its system time
   * (the kernel's receive time) and ignoreTimestamp off: c9 writes the
   * stamps sent, c10 the receive time */
  { "c9",
    "template(name=\"c9\" type=\"string\" string=\"%timereported:::date-rfc3339% %hostname% %syslogtag%%msg%\\n\")\n"
    "input(type=\"imuxsock\" Socket=\"@DIR@/c9\" ruleset=\"c9\" ignoreTimestamp=\"off\" useSysTimeStamp=\"off\")\n"
    "ruleset(name=\"c9\") { action(type=\"omfile\" file=\"@DIR@/log/c9\" template=\"c9\") }\n",
    { "<13>Dec  1 10:00:00 app: kept", "<13>2026-11-30T09:08:07.123456+01:00 app: rfc3339", NULL },
    { "c9", NULL }, { 2 } },
  { "c10",
    "template(name=\"c10\" type=\"string\" string=\"%timereported:::date-rfc3339% %hostname% %syslogtag%%msg%\\n\")\n"
    "input(type=\"imuxsock\" Socket=\"@DIR@/c10\" ruleset=\"c10\" ignoreTimestamp=\"off\")\n"
    "ruleset(name=\"c10\") { action(type=\"omfile\" file=\"@DIR@/log/c10\" template=\"c10\") }\n",
    { "<13>Dec  1 10:00:00 app: received", NULL },
    { "c10", NULL }, { 1 } },
};

/* An Elasticsearch stand-in: answers every request with success and
 * writes each line of each POSTed body into DIR/log/c8-PATH (the path's
 * slashes as dashes), so that the documents two daemons send compare as
 * files whatever their batches. */
typedef struct
{
  gint fd;
  gchar *dir;
  GThread *thread;
  GMutex lock;            /* the files, and connections */
  GPtrArray *connections; /* a thread each: clients keep several open */
} EsReceiver;

typedef struct
{
  EsReceiver *es;
  gint fd;
} EsConnection;

static void
es_request (EsReceiver *es, const gchar *head, const gchar *body, gsize body_len)
{
  gchar method[8] = "", path[256] = "";

  if (sscanf (head, "%7s %255s", method, path) != 2 || strcmp (method, "POST") != 0)
    return;
  g_strdelimit (path + 1, "/", '-');
  g_autofree gchar *name = g_strdup_printf ("c8-%s", path + 1);
  g_autofree gchar *file = g_build_filename (es->dir, "log", name, NULL);
  g_mutex_lock (&es->lock);
  FILE *out = fopen (file, "a");
  if (out)
    {
      fwrite (body, 1, body_len, out);
      if (body_len && body[body_len - 1] != '\n')
        fputc ('\n', out);
      fclose (out);
    }
  g_mutex_unlock (&es->lock);
}

static gpointer
es_connection (gpointer data)
{
  EsConnection *c = data;
  g_autoptr (GString) in = g_string_new (NULL);
  gchar buf[4096];
  gssize n;

  while ((n = read (c->fd, buf, sizeof buf)) > 0)
    {
      g_string_append_len (in, buf, n);
      const gchar *end;
      while ((end = strstr (in->str, "\r\n\r\n")))
        {
          gsize head_len = (gsize) (end - in->str) + 4;
          g_autofree gchar *head = g_ascii_strdown (in->str, (gssize) head_len);
          const gchar *length = strstr (head, "content-length:");
          gsize body_len = length ? (gsize) g_ascii_strtoull (length + 15, NULL, 10) : 0;
          if (in->len < head_len + body_len)
            break;
          es_request (c->es, in->str, in->str + head_len, body_len);
          /* what Elasticsearch answers: omelasticsearch reads it */
          const gchar *answer = strstr (head, "/_bulk") ? "{\"took\":1,\"errors\":false,\"items\":[]}"
                                                        : "{\"_id\":\"1\",\"result\":\"created\"}";
          g_autofree gchar *reply = g_strdup_printf ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                                     "Content-Length: %zu\r\n\r\n%s", strlen (answer), answer);
          if (write (c->fd, reply, strlen (reply)) < 0)
            break;
          g_string_erase (in, 0, (gssize) (head_len + body_len));
        }
    }
  close (c->fd);
  g_free (c);
  return NULL;
}

static gpointer
es_serve (gpointer data)
{
  EsReceiver *es = data;
  gint fd;

  while ((fd = accept (es->fd, NULL, NULL)) >= 0)
    {
      EsConnection *c = g_new0 (EsConnection, 1);
      c->es = es;
      c->fd = fd;
      g_mutex_lock (&es->lock);
      g_ptr_array_add (es->connections, g_thread_new ("es-connection", es_connection, c));
      g_mutex_unlock (&es->lock);
    }
  return NULL;
}

static EsReceiver *
es_receiver_new (const gchar *dir, guint16 port)
{
  EsReceiver *es = g_new0 (EsReceiver, 1);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (port), .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  gint one = 1;

  es->dir = g_strdup (dir);
  g_autofree gchar *log = g_build_filename (dir, "log", NULL);
  g_mkdir_with_parents (log, 0755);
  g_mutex_init (&es->lock);
  es->connections = g_ptr_array_new ();
  es->fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  setsockopt (es->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  g_assert_cmpint (bind (es->fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (es->fd, 16), ==, 0);
  es->thread = g_thread_new ("es-receiver", es_serve, es);
  return es;
}

/* Once both daemons stopped: their connections are closed. */
static void
es_receiver_free (EsReceiver *es)
{
  shutdown (es->fd, SHUT_RDWR);
  close (es->fd);
  g_thread_join (es->thread);
  for (guint i = 0; i < es->connections->len; i++)
    g_thread_join (g_ptr_array_index (es->connections, i));
  g_ptr_array_unref (es->connections);
  g_mutex_clear (&es->lock);
  g_free (es->dir);
  g_free (es);
}

#define PROPS_TEMPLATE \
  "$template props,\"%programname%|%syslogtag%|%msg%|%msg:::drop-last-lf%|%pri%|%pri-text%|" \
  "%syslogfacility-text%|%syslogseverity-text%|%syslogseverity%|%syslogfacility%|%HOSTNAME%|%msg:2:6%|" \
  "%msg:::uppercase%|%timestamp:::date-rfc3339%|%timestamp%|%$now%|%$year%|%procid%|%app-name%|%msgid%|" \
  "%structured-data%|%timestamp:::date-year%\\n\"\n"

/* Debian's file with its paths in dir: the system socket named, imklog
 * out, /var/log and the include folder moved. */
static gchar *
stock_config (const gchar *root, const gchar *dir)
{
  g_autofree gchar *path = g_build_filename (root, "etc/rsyslog.conf", NULL);
  g_autofree gchar *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  GString *out = g_string_new (NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_autofree gchar *line = g_strdup (lines[i]);
      if (strstr (line, "imklog"))
        continue;
      if (g_str_has_prefix (line, "module(load=\"imuxsock\")"))
        {
          g_string_append_printf (out, "module(load=\"imuxsock\" SysSock.Name=\"%s/dev-log\")\n", dir);
          continue;
        }
      GString *moved = g_string_new (line);
      g_autofree gchar *logdir = g_strdup_printf ("%s/log", dir);
      g_autofree gchar *confdir = g_strdup_printf ("%s/rsyslog.d", dir);
      g_autofree gchar *spool = g_strdup_printf ("%s/spool", dir);
      g_string_replace (moved, "/var/log", logdir, 0);
      g_string_replace (moved, "/etc/rsyslog.d", confdir, 0);
      g_string_replace (moved, "/var/spool/rsyslog", spool, 0);
      g_string_append_printf (out, "%s\n", moved->str);
      g_string_free (moved, TRUE);
    }
  return g_string_free (out, FALSE);
}

static gboolean
write_file (const gchar *dir, const gchar *name, const gchar *text)
{
  g_autofree gchar *path = g_build_filename (dir, name, NULL);
  g_autofree gchar *parent = g_path_get_dirname (path);
  g_mkdir_with_parents (parent, 0755);
  return g_file_set_contents (path, text, -1, NULL);
}

/* rsyslogd's rsyslog.conf in its folder: config with @DIR@ that folder */
static gboolean
write_rsyslog_conf (const gchar *rs_dir, const gchar *config)
{
  g_autoptr (GString) text = g_string_new (config);
  g_string_replace (text, "@DIR@", rs_dir, 0);
  return write_file (rs_dir, "rsyslog.conf", text->str);
}

/* One daemon's folder: the stock file and the packages' snippets. */
static gchar *
prepare (const gchar *root, const gchar *dir, guint16 relp_port, guint16 peer_port, guint16 es_port)
{
  g_autofree gchar *relp = g_strdup_printf ("%u", relp_port);
  g_autofree gchar *peer = g_strdup_printf ("%u", peer_port);
  g_autofree gchar *es = g_strdup_printf ("%u", es_port);
  g_autofree gchar *conf = stock_config (root, dir);
  g_autofree gchar *haproxy = g_strdup_printf ("$AddUnixListenSocket %s/haproxy-dev-log\n\n"
                                               ":programname, startswith, \"haproxy\" {\n"
                                               "  %s/log/haproxy.log\n  stop\n}\n", dir, dir);
  g_autofree gchar *postfix = g_strdup_printf ("$AddUnixListenSocket %s/postfix-dev-log\n", dir);
  g_autofree gchar *ufw = g_strdup_printf (":msg,contains,\"[UFW \" %s/log/ufw.log\n"
                                           "& stop\n", dir);
  g_autofree gchar *spool = g_build_filename (dir, "spool", NULL);
  GString *formatted = g_string_new (PROPS_TEMPLATE "if $programname == 'fmt' then {\n");

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    g_string_append_printf (formatted, "  action(type=\"omfile\" file=\"%s/log/fmt-%s\" template=\"%s\")\n", dir,
                            formats[i], formats[i]);
  g_string_append (formatted, "}\n");
  gboolean formats_ok = write_file (dir, "rsyslog.d/90-formats.conf", formatted->str);
  g_string_free (formatted, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (differential) && formats_ok; i++)
    {
      GString *text = g_string_new (differential[i].snippet);
      g_autofree gchar *name = g_strdup_printf ("rsyslog.d/95-%s.conf", differential[i].name);
      g_string_replace (text, "@DIR@", dir, 0);
      g_string_replace (text, "@RELP@", relp, 0);
      g_string_replace (text, "@PEER@", peer, 0);
      g_string_replace (text, "@ES@", es, 0);
      formats_ok = write_file (dir, name, text->str);
      g_string_free (text, TRUE);
    }
  g_mkdir_with_parents (spool, 0755);
  if (!formats_ok)
    return NULL;
  if (!conf || !write_file (dir, "rsyslog.conf", conf) || !write_file (dir, "rsyslog.d/49-haproxy.conf", haproxy)
      || !write_file (dir, "rsyslog.d/postfix.conf", postfix) || !write_file (dir, "rsyslog.d/20-ufw.conf", ufw))
    return NULL;
  return g_build_filename (dir, "rsyslog.conf", NULL);
}

static void
send_all (const gchar *dir)
{
  g_autofree gchar *dev_log = g_build_filename (dir, "dev-log", NULL);
  g_autofree gchar *haproxy = g_build_filename (dir, "haproxy-dev-log", NULL);
  g_autofree gchar *postfix = g_build_filename (dir, "postfix-dev-log", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (differential); i++)
    {
      g_autofree gchar *socket = g_build_filename (dir, differential[i].name, NULL);
      for (guint m = 0; differential[i].messages[m]; m++)
        sl_test_unix_send (socket, SOCK_DGRAM, differential[i].messages[m]);
    }
  for (gint f = 0; f < 24; f++)
    for (gint l = 1; l < 8; l++)
      {
        g_autofree gchar *text = g_strdup_printf ("<%d>Dec  1 10:00:00 rstest%d[%d]: facility %d level %d", f * 8 + l, f,
                                                  100 + l, f, l);
        sl_test_unix_send (dev_log, SOCK_DGRAM, text);
      }
  sl_test_unix_send (haproxy, SOCK_DGRAM,
                     "<134>Dec  1 10:00:00 haproxy[42]: 127.0.0.1:5000 [01/Dec/2026:10:00:00.000] fe be/srv 0/0/1/2/3 200 "
                     "123 - - ---- 1/1/0/0/0 0/0 \"GET / HTTP/1.1\"");
  sl_test_unix_send (postfix, SOCK_DGRAM, "<22>Dec  1 10:00:00 postfix/smtpd[77]: connect from localhost[127.0.0.1]");
  sl_test_unix_send (dev_log, SOCK_DGRAM, "<4>Dec  1 10:00:00 kernel: [UFW BLOCK] IN=eth0 OUT= SRC=10.0.0.1 DST=10.0.0.2");
  sl_test_unix_send (dev_log, SOCK_DGRAM, "<13>Dec  1 10:00:00 tag:  two spaces");
  sl_test_unix_send (dev_log, SOCK_DGRAM, "<13>Dec  1 10:00:00 tag:nospace");
  sl_test_unix_send (dev_log, SOCK_DGRAM, "<13>Dec  1 10:00:00 tag:");
  sl_test_unix_send (dev_log, SOCK_DGRAM, "<14>Dec  1 10:00:00 fmt[5]: hello world");
  sl_test_unix_send (dev_log, SOCK_DGRAM, "<165>Dec  1 10:00:00 fmt: without a pid");
  sl_test_unix_send (dev_log, SOCK_DGRAM, "<14>Dec  1 10:00:00 fmt:tight");
  sl_test_unix_send (dev_log, SOCK_DGRAM, "<14>Dec  1 10:00:00 rstest: the last one");
}

/* A line with its stamp and host as shapes: rsyslog writes the receive
 * time with microseconds */
static gchar *
shape (const gchar *line)
{
  g_autoptr (GRegex) stamp = g_regex_new ("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}[+-]\\d\\d:\\d\\d [^ ]+ ",
                                          0, 0, NULL);
  return g_regex_replace_literal (stamp, line, -1, 0, "STAMP HOST ", 0, NULL);
}

static gint
compare_lines (const gchar *const *a, const gchar *const *b)
{
  return g_strcmp0 (*a, *b);
}

/* The file's lines shaped, in sorted order: the order of messages that
 * came over different sockets is not defined */
static gchar *
shaped_file (const gchar *path)
{
  g_auto (GStrv) lines = sl_test_read_lines (path);
  g_autoptr (GPtrArray) shaped = g_ptr_array_new_with_free_func (g_free);
  GString *out = g_string_new (NULL);

  for (guint i = 0; lines && lines[i]; i++)
    if (*lines[i] && !strstr (lines[i], "rsyslogd:") && !strstr (lines[i], "sluiced"))
      g_ptr_array_add (shaped, shape (lines[i]));
  g_ptr_array_sort (shaped, (GCompareFunc) compare_lines);
  for (guint i = 0; i < shaped->len; i++)
    g_string_append_printf (out, "%s\n", (const gchar *) g_ptr_array_index (shaped, i));
  return g_string_free (out, FALSE);
}

/* A whole file with every stamp as its shape: the forwarding formats
 * end no line */
static gchar *
shaped_stamps (const gchar *path)
{
  g_autofree gchar *text = sl_test_read_file (path);
  g_autoptr (GRegex) rfc3339 = g_regex_new ("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}[+-]\\d\\d:\\d\\d", 0, 0, NULL);
  g_autoptr (GRegex) rfc3164 = g_regex_new ("[A-Z][a-z][a-z] [ 1-3]\\d \\d\\d:\\d\\d:\\d\\d", 0, 0, NULL);
  g_autoptr (GRegex) day = g_regex_new ("\\d{4}-\\d\\d-\\d\\d", 0, 0, NULL);

  if (!text)
    return NULL;
  g_autofree gchar *a = g_regex_replace_literal (rfc3339, text, -1, 0, "RFC3339", 0, NULL);
  g_autofree gchar *b = g_regex_replace_literal (rfc3164, a, -1, 0, "RFC3164", 0, NULL);
  return g_regex_replace_literal (day, b, -1, 0, "DAY", 0, NULL);
}

static gboolean
wait_last (SlTestEnv *env, const gchar *dir)
{
  g_autofree gchar *syslog = g_build_filename (dir, "log/syslog", NULL);
  return sl_test_wait_contains (env, syslog, "the last one");
}

static void
test_debian_stock (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  g_autofree gchar *sl_dir = sl_test_path (env, "sluiced");
  guint16 rs_relp = sl_test_free_port (SOCK_STREAM);
  guint16 sl_relp = sl_test_free_port (SOCK_STREAM);
  while (sl_relp == rs_relp)
    sl_relp = sl_test_free_port (SOCK_STREAM);
  guint16 rs_es = sl_test_free_port (SOCK_STREAM);
  guint16 sl_es = sl_test_free_port (SOCK_STREAM);
  while (sl_es == rs_es || sl_es == rs_relp || sl_es == sl_relp)
    sl_es = sl_test_free_port (SOCK_STREAM);
  while (rs_es == rs_relp || rs_es == sl_relp)
    rs_es = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *rs_conf = prepare (root, rs_dir, rs_relp, sl_relp, rs_es);
  g_autofree gchar *sl_conf = prepare (root, sl_dir, sl_relp, rs_relp, sl_es);
  EsReceiver *rs_receiver = es_receiver_new (rs_dir, rs_es);
  EsReceiver *sl_receiver = es_receiver_new (sl_dir, sl_es);
  g_assert_nonnull (rs_conf);
  g_assert_nonnull (sl_conf);

  g_autofree gchar *rs_err = g_build_filename (rs_dir, "rsyslogd.stderr", NULL);
  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);

  g_autofree gchar *text = NULL;
  g_assert_true (g_file_get_contents (sl_conf, &text, NULL, NULL));
  g_assert_true (g_file_set_contents (env->config, text, -1, NULL));
  g_autofree gchar *include = g_build_filename (sl_dir, "rsyslog.d", NULL);
  g_autofree gchar *rs_include = g_build_filename (env->dir, "rsyslog.d", NULL);
  g_assert_cmpint (symlink (include, rs_include), ==, 0);
  gboolean ok = sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL);

  g_autofree gchar *rs_sock = g_build_filename (rs_dir, "postfix-dev-log", NULL);
  g_autofree gchar *sl_sock = g_build_filename (sl_dir, "postfix-dev-log", NULL);
  if (ok && sl_test_wait_socket (env, rs_sock) && sl_test_wait_socket (env, sl_sock))
    {
      send_all (rs_dir);
      send_all (sl_dir);
      if (wait_last (env, rs_dir) && wait_last (env, sl_dir))
        for (guint i = 0; i < G_N_ELEMENTS (files); i++)
          {
  g_autofree gchar *rs_path = g_build_filename (rs_dir, "log", files[i], NULL);
            g_autofree gchar *sl_path = g_build_filename (sl_dir, "log", files[i], NULL);
            g_autofree gchar *expected = NULL;
            g_autofree gchar *got = NULL;

            /* the other files are written by other threads: wait until
             * sluiced's has as many lines as rsyslogd's */
            sl_test_wait_lines (env, rs_path, 1);
            sl_test_wait_lines (env, sl_path, sl_test_count_lines (rs_path));
            expected = shaped_file (rs_path);
            got = shaped_file (sl_path);
            g_test_message ("%s: %u lines", files[i], sl_test_count_lines (rs_path));
            g_assert_cmpstr (got, ==, expected);
          }
      for (guint i = 0; i < G_N_ELEMENTS (differential); i++)
        for (guint f = 0; differential[i].files[f]; f++)
          {
  g_autofree gchar *rs_path = g_build_filename (rs_dir, "log", differential[i].files[f], NULL);
            g_autofree gchar *sl_path = g_build_filename (sl_dir, "log", differential[i].files[f], NULL);

            sl_test_wait_lines (env, rs_path, differential[i].lines[f]);
            sl_test_wait_lines (env, sl_path, differential[i].lines[f]);
            g_autofree gchar *expected = shaped_stamps (rs_path);
            g_autofree gchar *got = shaped_stamps (sl_path);
            g_test_message ("%s: %s", differential[i].files[f], expected);
            g_assert_cmpstr (got, ==, expected);
          }
      for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
        {
          g_autofree gchar *name = g_strdup_printf ("fmt-%s", formats[i]);
  g_autofree gchar *rs_path = g_build_filename (rs_dir, "log", name, NULL);
          g_autofree gchar *sl_path = g_build_filename (sl_dir, "log", name, NULL);

          /* three messages: lines, or the forwarding formats' run of them */
          gboolean arrived = strstr (formats[i], "Forward")
                             ? sl_test_wait_contains (env, rs_path, "tight") && sl_test_wait_contains (env, sl_path, "tight")
                             : sl_test_wait_lines (env, rs_path, 3) && sl_test_wait_lines (env, sl_path, 3);
          g_assert_true (arrived);
          g_autofree gchar *expected = shaped_stamps (rs_path);
          g_autofree gchar *got = shaped_stamps (sl_path);
          g_test_message ("%s: %s", formats[i], expected);
          g_assert_cmpstr (got, ==, expected);
        }
    }
  kill (rs, SIGTERM);
  sl_test_child_wait (rs, 10 * G_USEC_PER_SEC);
  if (env->pid)
    sl_test_daemon_stop (env, SIGTERM);
  es_receiver_free (rs_receiver);
  es_receiver_free (sl_receiver);
  unlink (rs_include);
}

/* Our own RainerScript: each configuration, the message sent to its
 * socket, and what its file must hold after. */
static const struct
{
  const gchar *name;
  const gchar *config;
  const gchar *message;
  const gchar *file;
  const gchar *expected;
} corpus[] = {
  { "if-then-else",
    "module(load=\"imuxsock\" SysSock.Use=\"off\")\n"
    "input(type=\"imuxsock\" Socket=\"@DIR@/in\")\n"
    "if $programname == 'app' and $syslogseverity <= 4 then {\n"
    "  action(type=\"omfile\" file=\"@DIR@/out\" template=\"short\")\n"
    "  stop\n"
    "} else {\n"
    "  action(type=\"omfile\" file=\"@DIR@/other\" template=\"short\")\n"
    "}\n"
    "action(type=\"omfile\" file=\"@DIR@/out\" template=\"short\")\n"
    "template(name=\"short\" type=\"string\" string=\"%syslogseverity-text%|%programname%|%msg%\\n\")\n",
    "<12>Dec  1 10:00:00 app[1]: warned", "out", "warning|app| warned\n" },
  { "list-template",
    "template(name=\"t\" type=\"list\") {\n"
    "  constant(value=\"[\") property(name=\"hostname\") constant(value=\"] \")\n"
    "  property(name=\"syslogtag\") property(name=\"msg\" caseConversion=\"upper\" droplastlf=\"on\")\n"
    "  constant(value=\"\\n\")\n"
    "}\n"
    "input(type=\"imuxsock\" Socket=\"@DIR@/in\" ruleset=\"r\")\n"
    "ruleset(name=\"r\") {\n"
    "  if $msg contains 'keep' then action(type=\"omfile\" file=\"@DIR@/out\" template=\"t\")\n"
    "}\n",
    "<13>Dec  1 10:00:00 prog: keep me", "out", "[@HOST@] prog: KEEP ME\n" },
  { "json-fields",
    "input(type=\"imuxsock\" Socket=\"@DIR@/in\")\n"
    "module(load=\"mmjsonparse\")\n"
    "action(type=\"mmjsonparse\" cookie=\"\")\n"
    "set $!seen = \"yes\";\n"
    "if $!user == 'alice' and re_match($!action, '^log(in|out)$') then\n"
    "  action(type=\"omfile\" file=\"@DIR@/out\" template=\"j\")\n"
    "$template j,\"%$!user% %$!action% %$!seen%\\n\"\n",
    "<13>Dec  1 10:00:00 app: {\"user\":\"alice\",\"action\":\"login\"}", "out", "alice login yes\n" },
  { "legacy-filters",
    "input(type=\"imuxsock\" Socket=\"@DIR@/in\")\n"
    "$template plain,\"%pri-text% %syslogtag%%msg:::sp-if-no-1st-sp%%msg:::drop-last-lf%\\n\"\n"
    "local3.=info;local3.!err\t-@DIR@/out;plain\n"
    ":hostname, !isequal, \"nohost\"\n@DIR@/other\n"
    "& stop\n",
    "<158>Dec  1 10:00:00 svc[9]: hello", "out", "local3.info svc[9]: hello\n" },
};

static void
test_corpus (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *host = g_strdup (g_get_host_name ());
  if (strchr (host, '.'))
    *strchr (host, '.') = '\0';

  for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
    {
      g_test_message ("%s", corpus[i].name);
      g_autofree gchar *in = sl_test_path (env, "in");
      g_autofree gchar *out = sl_test_path (env, corpus[i].file);
      g_autofree gchar *printed = sl_test_path (env, "printed.conf");
      unlink (out);
      g_assert_true (sl_test_write_config (env, corpus[i].config, "HOST", host, NULL));

      /* --print-config's text checks with -s and runs the same */
      g_autofree gchar *text = NULL;
      g_assert_cmpint (sl_test_run_built ("daemon/sluiced", &text, NULL, "--config-format", "rsyslog", "-f", env->config,
                                          "--print-config", NULL), ==, 0);
      g_assert_true (g_file_set_contents (printed, text, -1, NULL));
      g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, NULL, "-s", "-f", printed, NULL), ==, 0);
      g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, NULL, "-s", "--config-format", "rsyslog", "-f",
                                          env->config, NULL), ==, 0);
      for (guint round = 0; round < 2; round++)
        {
          unlink (out);
          if (round == 1)
            g_assert_true (g_file_set_contents (env->config, text, -1, NULL));
          g_assert_true (round == 1 ? sl_test_daemon_start (env)
                                    : sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL));
          g_assert_true (sl_test_unix_send (in, SOCK_DGRAM, corpus[i].message));
          g_assert_true (sl_test_wait_lines (env, out, 1));
          g_autofree gchar *got = sl_test_read_file (out);
          GString *expected = g_string_new (corpus[i].expected);
          g_string_replace (expected, "@HOST@", host, 0);
          g_assert_cmpstr (got, ==, expected->str);
          g_string_free (expected, TRUE);
          sl_test_daemon_stop (env, SIGTERM);
        }
    }
}

/* What is not supported is refused with its place, and a file in the
 * other language gets one sentence saying which to choose. */
static void
test_refused (SlTestEnv *env, gconstpointer data)
{
  static const struct
  {
    const gchar *config;
    const gchar *needle;
  } cases[] = {
    { "*.* @@(z9)loghost:514\n", "sluice.conf:1:5: the rsyslog forwarding options '(z9)'" },
    { "\n$ActionExecOnlyWhenPreviousIsSuspended on\n", "sluice.conf:2:1: the rsyslog directive '$ActionExecOnlyWhenPreviousIsSuspended' is not supported" },
    { "module(load=\"imdocker\")\n", "sluice.conf:1:8: the rsyslog module 'imdocker' is not supported" },
    { "if $msg == 'x' then\n  action(type=\"omjournal\")\n", "sluice.conf:2:3: rsyslog's action type 'omjournal' is not supported" },
    { "module(load=\"omkafka\")\naction(type=\"omkafka\" topic=\"syslog\")\n", "sluice.conf:2:1: rsyslog's omkafka writes every message to partition 0 unless partitions.auto=\"on\"" },
    { "module(load=\"omrelp\")\naction(type=\"omrelp\" target=\"h\" tls=\"on\")\n", "sluice.conf:2:33: the parameter 'tls' of rsyslog's omrelp is not supported" },
    { "action(type=\"ommysql\" server=\"h\")\n", "sluice.conf:1:1: rsyslog's action type 'ommysql' needs its module loaded first" },
    { "foreach ($.i in $!list) do { stop }\n", "sluice.conf:1:30: a stop inside foreach is not supported" },
    { "module(load=\"imuxsock\")\n$SystemLogUseSysTimeStamp off\n", "sluice.conf:2:1: $SystemLogUseSysTimeStamp after module(load=\"imuxsock\") is refused by rsyslogd" },
    { "$ModLoad imuxsock\n$InputUnixListenSocketHostName h\n$AddUnixListenSocket /tmp/x\n", "sluice.conf:2:1: the parameter 'hostname' of rsyslog's $AddUnixListenSocket is not supported" },
    { "module(load=\"imtcp\" notifyOnConnectionClose=\"on\")\ninput(type=\"imtcp\" port=\"10514\")\n", "sluice.conf:1:21: rsyslog's imtcp notifyonconnectionclose=\"on\" is not supported" },
    { "module(load=\"imklog\" keepKernelTimestamp=\"on\")\n", "sluice.conf:1:22: rsyslog's imklog keepkerneltimestamp=\"on\" is not supported" },
    { "module(load=\"imfile\")\ninput(type=\"imfile\" file=\"/tmp/x\" tag=\"x\" deleteStateOnFileDelete=\"off\")\n",
      "sluice.conf:2:43: rsyslog's imfile deletestateonfiledelete=\"off\" is not supported (only on, the default): Sluice "
      "reads a file deleted and made again from its start" },
    { "source s { system(); };\nlog { source(s); };\n", "this is Sluice's (syslog-ng's) configuration language, not rsyslog's" },
  };
  (void) data;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree gchar *err = NULL;
      g_assert_true (sl_test_write_config (env, cases[i].config, NULL));
      /* the modules plugins serve are those of the build */
      g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "--config-format", "rsyslog", "-f",
                                          env->config, "--module-path", sl_test_module_path (), NULL), !=, 0);
      g_test_message ("%s", err);
      g_assert_nonnull (strstr (err, cases[i].needle));
    }
  g_autofree gchar *err = NULL;
  g_assert_true (sl_test_write_config (env, "$ModLoad imuxsock\n*.* /var/log/all\n", NULL));
  g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "-f", env->config, NULL), !=, 0);
  g_assert_nonnull (strstr (err, "this is rsyslog's configuration language, not Sluice's"));
}

/* @include-rsyslog in Sluice's own language, as the Debian package's
 * configuration reads /etc/rsyslog.d: a snippet's socket exists, its rules
 * see every source and its stop keeps the message from the paths after;
 * a snippet with an error refuses the whole configuration with its place. */
static void
test_include (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *snippets = sl_test_path (env, "rsyslog.d");
  g_autofree gchar *haproxy = g_strdup_printf ("$AddUnixListenSocket %s/haproxy-dev-log\n"
                                               ":programname, startswith, \"haproxy\" {\n"
                                               "  %s/haproxy.log\n  stop\n}\n", env->dir, env->dir);
  g_autofree gchar *ufw = g_strdup_printf (":msg,contains,\"[UFW \" %s/ufw.log\n", env->dir);
  g_assert_true (write_file (snippets, "49-haproxy.conf", haproxy));
  g_assert_true (write_file (snippets, "20-ufw.conf", ufw));
  g_assert_true (sl_test_write_config (env,
                                       "@version: 4.0\n"
                                       "source s_sys { unix-dgram(\"@DIR@/dev-log\"); };\n"
                                       "@include-rsyslog \"rsyslog.d/*.conf\"\n"
                                       "destination d_syslog { file(\"@DIR@/syslog\"); };\n"
                                       "log { source(s_sys); destination(d_syslog); };\n", NULL));
  g_assert_true (sl_test_daemon_start (env));
  g_autofree gchar *dev_log = sl_test_path (env, "dev-log");
  g_autofree gchar *chroot_log = sl_test_path (env, "haproxy-dev-log");
  g_autofree gchar *haproxy_log = sl_test_path (env, "haproxy.log");
  g_autofree gchar *ufw_log = sl_test_path (env, "ufw.log");
  g_autofree gchar *syslog = sl_test_path (env, "syslog");
  g_assert_true (sl_test_unix_send (chroot_log, SOCK_DGRAM, "<134>Dec  1 10:00:00 haproxy[1]: from the chroot"));
  g_assert_true (sl_test_unix_send (dev_log, SOCK_DGRAM, "<134>Dec  1 10:00:00 haproxy[1]: from dev-log"));
  g_assert_true (sl_test_unix_send (dev_log, SOCK_DGRAM, "<4>Dec  1 10:00:00 kernel: [UFW BLOCK] IN=eth0"));
  g_assert_true (sl_test_wait_lines (env, haproxy_log, 2));
  g_assert_true (sl_test_wait_lines (env, ufw_log, 1));
  g_assert_true (sl_test_wait_lines (env, syslog, 1));
  g_autofree gchar *text = sl_test_read_file (syslog);
  g_assert_null (strstr (text, "haproxy"));
  g_assert_nonnull (strstr (text, "[UFW BLOCK]"));
  sl_test_daemon_stop (env, SIGTERM);

  g_autofree gchar *err = NULL;
  g_assert_true (write_file (snippets, "60-broken.conf", "\n:programname, startswith \"x\" /var/log/x.log\n"));
  g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "-f", env->config, NULL), !=, 0);
  g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, "rsyslog.d/60-broken.conf:2:"));
}

/* The first number of a "Name:\t..." line of /proc/PID/status, or -1. */
static gint64
proc_id (GPid pid, const gchar *name)
{
  g_autofree gchar *path = g_strdup_printf ("/proc/%d/status", (gint) pid);
  g_autofree gchar *text = NULL;
  g_autofree gchar *key = g_strdup_printf ("\n%s:\t", name);

  if (!g_file_get_contents (path, &text, NULL, NULL) || !strstr (text, key))
    return -1;
  return g_ascii_strtoll (strstr (text, key) + strlen (key), NULL, 10);
}

/* $PrivDropToUser and $PrivDropToGroup as Ubuntu's stock /etc/rsyslog.conf
 * has them ($PrivDropToUser syslog, $PrivDropToGroup syslog; here nobody
 * and nogroup): sluiced runs as them once the configuration is loaded and
 * the file it writes is theirs, as rsyslogd's is; a reload that changes
 * them is refused. Changing the user needs root. */
static void
test_privileges (SlTestEnv *env, gconstpointer data)
{
  static const gchar *const config = "module(load=\"imuxsock\" SysSock.Use=\"off\")\n"
                                     "input(type=\"imuxsock\" Socket=\"@DIR@/in\")\n"
                                     "$PrivDropToUser nobody\n"
                                     "$PrivDropToGroup nogroup\n"
                                     "*.* @DIR@/out;RSYSLOG_TraditionalFileFormat\n";
  (void) data;
  if (getuid () != 0)
    {
      g_test_skip ("changing the user needs root");
      return;
    }
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  g_assert_cmpint (g_mkdir_with_parents (rs_dir, 0755), ==, 0);
  g_assert_cmpint (chown (env->dir, 65534, 65534), ==, 0);
  g_assert_cmpint (chown (rs_dir, 65534, 65534), ==, 0);
  g_assert_true (write_rsyslog_conf (rs_dir, config));

  g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  g_autofree gchar *rs_err = g_build_filename (rs_dir, "rsyslogd.stderr", NULL);
  g_autofree gchar *rs_in = g_build_filename (rs_dir, "in", NULL);
  g_autofree gchar *rs_out = g_build_filename (rs_dir, "out", NULL);
  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);

  g_autofree gchar *sl_in = sl_test_path (env, "in");
  g_autofree gchar *sl_out = sl_test_path (env, "out");
  g_assert_true (sl_test_write_config (env, config, NULL));
  if (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL) && sl_test_wait_socket (env, rs_in)
      && sl_test_wait_socket (env, sl_in))
    {
      sl_test_unix_send (rs_in, SOCK_DGRAM, "<13>Dec  1 10:00:00 app: dropped");
      sl_test_unix_send (sl_in, SOCK_DGRAM, "<13>Dec  1 10:00:00 app: dropped");
      g_assert_true (sl_test_wait_lines (env, rs_out, 1));
      g_assert_true (sl_test_wait_lines (env, sl_out, 1));
      g_assert_cmpint (proc_id (env->pid, "Uid"), ==, 65534);
      g_assert_cmpint (proc_id (env->pid, "Gid"), ==, 65534);
      g_assert_cmpint (proc_id (rs, "Uid"), ==, 65534);
      struct stat rs_st, sl_st;
      g_assert_cmpint (stat (rs_out, &rs_st), ==, 0);
      g_assert_cmpint (stat (sl_out, &sl_st), ==, 0);
      g_assert_cmpint (sl_st.st_uid, ==, rs_st.st_uid);
      g_assert_cmpint (sl_st.st_gid, ==, rs_st.st_gid);

      GString *changed = g_string_new (config);
      g_string_replace (changed, "nobody", "daemon", 0);
      g_assert_true (sl_test_write_config (env, changed->str, NULL));
      g_string_free (changed, TRUE);
      g_autofree gchar *answer = sl_test_control (env, "RELOAD");
      g_test_message ("%s", answer);
      g_assert_nonnull (strstr (answer, "restart sluiced"));
      g_assert_cmpint (proc_id (env->pid, "Uid"), ==, 65534);
    }
  kill (rs, SIGTERM);
  sl_test_child_wait (rs, 10 * G_USEC_PER_SEC);
}

/* The stream driver settings of rsyslog's TLS tutorial ($DefaultNetstream-
 * Driver*, $ActionSendStreamDriver gtls, mode 1, x509/name; rsyslog/rsyslog
 * doc, Apache-2.0) and their global() and imtcp StreamDriver.* spelling:
 * each daemon listens with TLS and sends its socket's messages to the
 * other over TLS, so each reads what the other sent. */
static const gchar tls_config[] =
  "global(defaultNetstreamDriver=\"gtls\" defaultNetstreamDriverCAFile=\"@PKI@/ca.pem\"\n"
  "       defaultNetstreamDriverCertFile=\"@PKI@/srv.pem\" defaultNetstreamDriverKeyFile=\"@PKI@/srv.key\")\n"
  "module(load=\"imuxsock\" SysSock.Use=\"off\")\n"
  "module(load=\"imtcp\" StreamDriver.Name=\"gtls\" StreamDriver.Mode=\"1\" StreamDriver.Authmode=\"anon\")\n"
  "input(type=\"imtcp\" port=\"@LISTEN@\" ruleset=\"in\")\n"
  "ruleset(name=\"in\") { action(type=\"omfile\" file=\"@DIR@/got\" template=\"RSYSLOG_TraditionalFileFormat\") }\n"
  "input(type=\"imuxsock\" Socket=\"@DIR@/out\" ruleset=\"out\")\n"
  "$ActionSendStreamDriver gtls\n"
  "$ActionSendStreamDriverMode 1 # run driver in TLS-only mode\n"
  "$ActionSendStreamDriverAuthMode x509/name\n"
  "ruleset(name=\"out\") {\n  *.* @@localhost:@PEER@\n}\n";

/* the same with the server's certificate and key named by its imtcp
 * input() (as a container image's collector names them), the default
 * driver's being the CA only */
static const gchar tls_input_files_config[] =
  "global(defaultNetstreamDriver=\"gtls\" defaultNetstreamDriverCAFile=\"@PKI@/ca.pem\")\n"
  "module(load=\"imuxsock\" SysSock.Use=\"off\")\n"
  "module(load=\"imtcp\")\n"
  "input(type=\"imtcp\" port=\"@LISTEN@\" ruleset=\"in\" streamDriver.Name=\"gtls\" streamDriver.Mode=\"1\"\n"
  "      streamDriver.AuthMode=\"anon\" streamDriver.certFile=\"@PKI@/srv.pem\" streamDriver.keyFile=\"@PKI@/srv.key\")\n"
  "ruleset(name=\"in\") { action(type=\"omfile\" file=\"@DIR@/got\" template=\"RSYSLOG_TraditionalFileFormat\") }\n"
  "input(type=\"imuxsock\" Socket=\"@DIR@/out\" ruleset=\"out\")\n"
  "$ActionSendStreamDriver gtls\n"
  "$ActionSendStreamDriverMode 1\n"
  "$ActionSendStreamDriverAuthMode x509/name\n"
  "ruleset(name=\"out\") {\n  *.* @@localhost:@PEER@\n}\n";

static gboolean
openssl (const gchar *dir, const gchar *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  gint status = -1;

  g_ptr_array_add (argv, (gpointer) "openssl");
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  return g_spawn_sync (dir, (gchar **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL
                       | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL)
         && g_spawn_check_wait_status (status, NULL);
}

static gchar *
tls_daemon_config (const gchar *config, const gchar *pki, const gchar *dir, guint16 listen_port, guint16 peer_port)
{
  GString *text = g_string_new (config);
  g_autofree gchar *listen_text = g_strdup_printf ("%u", listen_port);
  g_autofree gchar *peer_text = g_strdup_printf ("%u", peer_port);

  g_string_replace (text, "@PKI@", pki, 0);
  g_string_replace (text, "@DIR@", dir, 0);
  g_string_replace (text, "@LISTEN@", listen_text, 0);
  g_string_replace (text, "@PEER@", peer_text, 0);
  return g_string_free (text, FALSE);
}

static void
test_tls (SlTestEnv *env, gconstpointer data)
{
  static const gchar *const ca[] = { "req", "-x509", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key",
                                     "-out", "ca.pem", "-days", "30", "-subj", "/CN=test CA", "-addext",
                                     "basicConstraints=critical,CA:TRUE", "-addext",
                                     "keyUsage=critical,keyCertSign,cRLSign", NULL };
  static const gchar *const request[] = { "req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", "srv.key",
                                          "-out", "srv.csr", "-subj", "/CN=localhost", "-addext",
                                          "subjectAltName=DNS:localhost,IP:127.0.0.1", NULL };
  static const gchar *const sign[] = { "x509", "-req", "-in", "srv.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                                       "-CAcreateserial", "-copy_extensions", "copy", "-days", "30", "-out",
                                       "srv.pem", NULL };
  const gchar *config = data;
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  g_autofree gchar *pki = sl_test_path (env, "pki");
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  g_assert_cmpint (g_mkdir_with_parents (pki, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (rs_dir, 0755), ==, 0);
  g_assert_true (openssl (pki, ca) && openssl (pki, request) && openssl (pki, sign));

  guint16 rs_port = sl_test_free_port (SOCK_STREAM);
  guint16 sl_port = sl_test_free_port (SOCK_STREAM);
  while (sl_port == rs_port)
    sl_port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *rs_text = tls_daemon_config (config, pki, rs_dir, rs_port, sl_port);
  g_autofree gchar *sl_text = tls_daemon_config (config, pki, env->dir, sl_port, rs_port);
  g_assert_true (write_file (rs_dir, "rsyslog.conf", rs_text));
  g_assert_true (g_file_set_contents (env->config, sl_text, -1, NULL));

  g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  g_autofree gchar *rs_err = g_build_filename (rs_dir, "rsyslogd.stderr", NULL);
  g_autofree gchar *rs_out = g_build_filename (rs_dir, "out", NULL);
  g_autofree gchar *rs_got = g_build_filename (rs_dir, "got", NULL);
  g_autofree gchar *sl_out = sl_test_path (env, "out");
  g_autofree gchar *sl_got = sl_test_path (env, "got");
  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);

  if (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL) && sl_test_wait_socket (env, rs_out)
      && sl_test_wait_socket (env, sl_out))
    {
      sl_test_unix_send (rs_out, SOCK_DGRAM, "<13>Dec  1 10:00:00 app: over tls");
      sl_test_unix_send (sl_out, SOCK_DGRAM, "<13>Dec  1 10:00:00 app: over tls");
      g_assert_true (sl_test_wait_lines (env, rs_got, 1));
      g_assert_true (sl_test_wait_lines (env, sl_got, 1));
      g_autofree gchar *expected = shaped_stamps (rs_got);
      g_autofree gchar *got = shaped_stamps (sl_got);
      g_test_message ("%s", expected);
      g_assert_nonnull (strstr (expected, "app: over tls"));
      g_assert_cmpstr (got, ==, expected);
    }
  kill (rs, SIGTERM);
  sl_test_child_wait (rs, 10 * G_USEC_PER_SEC);
}

/* imfile's legacy directives, from Logz.io's Apache snippet
 * (logzio-apache.conf of the rsyslog corpus: logzio/logzio-shipping,
 * Apache-2.0; $InputFilePollInterval 1 here for a shorter test), and a
 * wildcard in input(type="imfile"): rsyslogd and sluiced read the same
 * lines, before and after they start and in a file made later, with the
 * same tag (syslogtag the Tag as given, colon or not) and priority, and
 * msg the line. $InputRunFileMonitor puts the facility back to local0.
 * The $! tree of each line: an input() adds $!metadata!filename and
 * $!metadata!fileoffset unless addMetadata="off", a legacy input none. */
static void
test_imfile (SlTestEnv *env, gconstpointer data)
{
  static const gchar *const config =
    "$ModLoad imfile\n"
    "$InputFilePollInterval 1\n"
    "$WorkDirectory @DIR@\n"
    "$InputFileName @DIR@/access.log\n"
    "$InputFileTag apache_access:\n"
    "$InputFileStateFile stat-apache-access\n"
    "$InputFileSeverity info\n"
    "$InputFileFacility local6\n"
    "$InputFilePersistStateInterval 25000\n"
    "$InputRunFileMonitor\n"
    "$InputFileName @DIR@/error.log\n"
    "$InputFileTag apache_error: \n"
    "$InputFileStateFile stat-apache-error\n"
    "$InputRunFileMonitor\n"
    "input(type=\"imfile\" file=\"@DIR@/logs/*.log\" tag=\"wild\" severity=\"warning\")\n"
    "input(type=\"imfile\" file=\"@DIR@/plain.log\" tag=\"plain\" addMetadata=\"off\")\n"
    "$template t,\"%syslogtag%|%programname%|%app-name%|%pri-text%|%msg%\\n\"\n"
    "$template m,\"%syslogtag%|%$!%|%$!metadata!fileoffset%\\n\"\n"
    "*.* @DIR@/out;t\n"
    "*.* @DIR@/meta;m\n";
  static const gchar *const expected = "apache_access:|apache_access|apache_access|local6.info|after the start\n"
                                       "apache_access:|apache_access|apache_access|local6.info|before the start\n"
                                       "apache_error:|apache_error|apache_error|local0.notice|an error\n"
                                       "plain|plain|plain|local0.notice|p\n"
                                       "wild|wild|wild|local0.warning|one\n"
                                       "wild|wild|wild|local0.warning|three\n"
                                       "wild|wild|wild|local0.warning|two\n";
  static const gchar *const expected_meta =
    "apache_access:||\n"
    "apache_access:||\n"
    "apache_error:||\n"
    "plain||\n"
    "wild|{ \"metadata\": { \"filename\": \"@DIR@\\/logs\\/a.log\", \"fileoffset\": \"0\" } }|0\n"
    "wild|{ \"metadata\": { \"filename\": \"@DIR@\\/logs\\/a.log\", \"fileoffset\": \"4\" } }|4\n"
    "wild|{ \"metadata\": { \"filename\": \"@DIR@\\/logs\\/b.log\", \"fileoffset\": \"0\" } }|0\n";
  (void) data;
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  const gchar *dirs[] = { rs_dir, env->dir };
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_assert_true (write_file (dirs[i], "access.log", "before the start\n"));
      g_assert_true (write_file (dirs[i], "error.log", "an error\n"));
      g_assert_true (write_file (dirs[i], "logs/a.log", "one\n"));
      g_assert_true (write_file (dirs[i], "plain.log", "p\n"));
    }
  g_assert_true (write_rsyslog_conf (rs_dir, config));

  g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  g_autofree gchar *rs_err = g_build_filename (rs_dir, "rsyslogd.stderr", NULL);
  g_autofree gchar *rs_out = g_build_filename (rs_dir, "out", NULL);
  g_autofree gchar *sl_out = sl_test_path (env, "out");
  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);
  g_assert_true (sl_test_write_config (env, config, NULL));
  g_assert_true (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL));
  g_assert_true (sl_test_wait_lines (env, rs_out, 4));
  g_assert_true (sl_test_wait_lines (env, sl_out, 4));
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree gchar *access = g_build_filename (dirs[i], "access.log", NULL);
      FILE *f = fopen (access, "a");
      g_assert_nonnull (f);
      fputs ("after the start\n", f);
      fclose (f);
      g_autofree gchar *wild = g_build_filename (dirs[i], "logs", "a.log", NULL);
      f = fopen (wild, "a");
      g_assert_nonnull (f);
      fputs ("three\n", f);
      fclose (f);
      g_assert_true (write_file (dirs[i], "logs/b.log", "two\n"));
    }
  g_assert_true (sl_test_wait_lines (env, rs_out, 7));
  g_assert_true (sl_test_wait_lines (env, sl_out, 7));
  g_autofree gchar *rs_got = shaped_file (rs_out);
  g_autofree gchar *sl_got = shaped_file (sl_out);
  g_assert_cmpstr (rs_got, ==, expected);
  g_assert_cmpstr (sl_got, ==, expected);
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree gchar *meta = g_build_filename (dirs[i], "meta", NULL);
      g_autofree gchar *shaped = shaped_file (meta);
      g_autoptr (GString) got = g_string_new (shaped);
      g_autoptr (GString) dir = g_string_new (dirs[i]);
      /* the folder as json-c writes it, its slashes escaped */
      g_string_replace (dir, "/", "\\/", 0);
      g_string_replace (got, dir->str, "@DIR@", 0);
      g_assert_cmpstr (got->str, ==, expected_meta);
    }
  sl_test_daemon_stop (env, SIGTERM);
  kill (rs, SIGTERM);
  sl_test_child_wait (rs, 10 * G_USEC_PER_SEC);
}

/* Writes text into the file dir/name, the same file (not one renamed
 * over it): mode "w" truncates it first, "a" appends */
static void
put_file (const gchar *dir, const gchar *name, const gchar *mode, const gchar *text)
{
  g_autofree gchar *path = g_build_filename (dir, name, NULL);
  FILE *f = fopen (path, mode);
  g_assert_nonnull (f);
  fputs (text, f);
  fclose (f);
}

/* imfile's reopenOnTruncate: two files read, then each truncated and
 * given a shorter line, then a line that takes it past where reading
 * was. Off (the default), rsyslogd 8.2302 reads on from that place, in
 * the middle of the line; on, it reads the file from its start again.
 * sluiced writes the same. */
static void
test_imfile_truncate (SlTestEnv *env, gconstpointer data)
{
  static const gchar *const config =
    "module(load=\"imfile\")\n"
    "global(workDirectory=\"@DIR@\")\n"
    "input(type=\"imfile\" file=\"@DIR@/off.log\" tag=\"off\" addMetadata=\"off\")\n"
    "input(type=\"imfile\" file=\"@DIR@/on.log\" tag=\"on\" addMetadata=\"off\" reopenOnTruncate=\"on\")\n"
    "template(name=\"t\" type=\"string\" string=\"%syslogtag%|%msg%\\n\")\n"
    "action(type=\"omfile\" file=\"@DIR@/out\" template=\"t\")\n";
  static const gchar *const expected = "off|a1\n"
                                       "off|a2 read up to here!\n"
                                       "off|the middle of the line\n"
                                       "on|a1\n"
                                       "on|a2 read up to here!\n"
                                       "on|b1\n"
                                       "on|b2 past the old end the middle of the line\n";
  static const gchar *const names[] = { "off.log", "on.log" };
  (void) data;
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  const gchar *dirs[] = { rs_dir, env->dir };
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    for (guint n = 0; n < G_N_ELEMENTS (names); n++)
      g_assert_true (write_file (dirs[i], names[n], "a1\na2 read up to here!\n"));
  g_assert_true (write_rsyslog_conf (rs_dir, config));

  g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  g_autofree gchar *rs_out = g_build_filename (rs_dir, "out", NULL);
  g_autofree gchar *sl_out = sl_test_path (env, "out");
  const gchar *outs[] = { rs_out, sl_out };
  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);
  g_assert_true (sl_test_write_config (env, config, NULL));
  g_assert_true (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL));
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_assert_true (sl_test_wait_lines (env, outs[i], 4));
      /* the same file, shorter */
      for (guint n = 0; n < G_N_ELEMENTS (names); n++)
        put_file (dirs[i], names[n], "w", "b1\n");
      /* reopenOnTruncate="on" saw it: it read the new line */
      g_assert_true (sl_test_wait_lines (env, outs[i], 5));
      for (guint n = 0; n < G_N_ELEMENTS (names); n++)
        put_file (dirs[i], names[n], "a", "b2 past the old end the middle of the line\n");
      g_assert_true (sl_test_wait_lines (env, outs[i], 7));
    }
  sl_test_daemon_stop (env, SIGTERM);
  kill (rs, SIGTERM);
  sl_test_child_wait (rs, 10 * G_USEC_PER_SEC);
  for (guint i = 0; i < G_N_ELEMENTS (outs); i++)
    {
      g_autofree gchar *got = shaped_file (outs[i]);
      g_assert_cmpstr (got, ==, expected);
    }
}

/* A Unix datagram socket bound at path, read with a limit of 10 s */
static gint
bind_dgram (const gchar *path)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  gint fd = socket (AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

  g_strlcpy (addr.sun_path, path, sizeof addr.sun_path);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  return fd;
}

static gchar *
receive_dgram (gint fd)
{
  struct pollfd p = { .fd = fd, .events = POLLIN };
  gchar buf[4096];

  if (poll (&p, 1, 10000) != 1)
    return NULL;
  gssize n = recv (fd, buf, sizeof buf, 0);
  return n < 0 ? NULL : g_strndup (buf, (gsize) n);
}

/* :omuxsock: as Azure Monitor Agent's snippets write it
 * (azure-ama-05-loadomuxsock.conf, azure-ama-10-omuxsock.conf of the
 * rsyslog corpus: MicrosoftDocs/azure-monitor-docs, CC-BY-4.0): each
 * message one datagram in its template, the same from both daemons; the
 * second :omuxsock: without a socket of its own is refused, as rsyslogd
 * refuses it. */
static void
test_omuxsock (SlTestEnv *env, gconstpointer data)
{
  static const gchar *const config =
    "module(load=\"imuxsock\" SysSock.Use=\"off\")\n"
    "input(type=\"imuxsock\" Socket=\"@DIR@/in\")\n"
    "$ModLoad omuxsock\n"
    "$OMUxSockSocket @DIR@/ama.socket\n"
    "template(name=\"AMA_RSYSLOG_TraditionalForwardFormat\" type=\"string\" string=\"<%PRI%>%TIMESTAMP% %HOSTNAME% "
    "%syslogtag%%msg:::sp-if-no-1st-sp%%msg%\")\n"
    "$OMUxSockDefaultTemplate AMA_RSYSLOG_TraditionalForwardFormat\n"
    "*.* :omuxsock: \n";
  (void) data;
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  g_assert_cmpint (g_mkdir_with_parents (rs_dir, 0755), ==, 0);
  g_assert_true (write_rsyslog_conf (rs_dir, config));
  g_autofree gchar *rs_sock = g_build_filename (rs_dir, "ama.socket", NULL);
  g_autofree gchar *sl_sock = sl_test_path (env, "ama.socket");
  gint rs_fd = bind_dgram (rs_sock);
  gint sl_fd = bind_dgram (sl_sock);

  g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  g_autofree gchar *rs_err = g_build_filename (rs_dir, "rsyslogd.stderr", NULL);
  g_autofree gchar *rs_in = g_build_filename (rs_dir, "in", NULL);
  g_autofree gchar *sl_in = sl_test_path (env, "in");
  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);
  g_assert_true (sl_test_write_config (env, config, NULL));
  g_assert_true (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL));
  g_assert_true (sl_test_wait_socket (env, rs_in));
  g_assert_true (sl_test_wait_socket (env, sl_in));
  g_autoptr (GRegex) stamp = g_regex_new ("[A-Z][a-z][a-z] [ 1-3]\\d \\d\\d:\\d\\d:\\d\\d", 0, 0, NULL);
  g_autofree gchar *host = g_strdup (g_get_host_name ());
  if (strchr (host, '.'))
    *strchr (host, '.') = '\0';
  g_autofree gchar *expected = g_strdup_printf ("<86>STAMP %s sshd[12]: Accepted publickey", host);
  const gchar *ins[] = { rs_in, sl_in };
  gint fds[] = { rs_fd, sl_fd };
  for (guint i = 0; i < G_N_ELEMENTS (ins); i++)
    {
      g_assert_true (sl_test_unix_send (ins[i], SOCK_DGRAM, "<86>Dec  1 10:00:00 sshd[12]: Accepted publickey"));
      g_autofree gchar *got = receive_dgram (fds[i]);
      g_assert_nonnull (got);
      g_autofree gchar *shaped = g_regex_replace_literal (stamp, got, -1, 0, "STAMP", 0, NULL);
      g_assert_cmpstr (shaped, ==, expected);
    }
  sl_test_daemon_stop (env, SIGTERM);
  kill (rs, SIGTERM);
  sl_test_child_wait (rs, 10 * G_USEC_PER_SEC);
  close (rs_fd);
  close (sl_fd);
  unlink (rs_sock);
  unlink (sl_sock);

  g_autofree gchar *err = NULL;
  g_assert_true (sl_test_write_config (env, "$ModLoad omuxsock\n$OMUxSockSocket /run/a.socket\n*.* :omuxsock:\nmail.* :omuxsock:\n", NULL));
  g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "--config-format", "rsyslog", "-f",
                                      env->config, NULL), !=, 0);
  g_assert_nonnull (strstr (err, "sluice.conf:4:8: rsyslog's :omuxsock: needs $OMUxSockSocket before it"));
}

/* Backtick values as rsyslog's containers write them (docker-*.conf of
 * the rsyslog corpus: rsyslog/rsyslog-docker, Apache-2.0): `echo` with
 * environment variables (a name runs to the next white space: $A] is
 * "A]"), `cat FILE`, config.enabled from `echo`, in an if too; both
 * daemons get the same environment and write the same. */
static void
test_backticks (SlTestEnv *env, gconstpointer data)
{
  static const gchar *const config =
    "module(load=\"imuxsock\" SysSock.Use=\"off\")\n"
    "input(type=\"imuxsock\" Socket=\"@DIR@/in\")\n"
    "template(name=\"echo\" type=\"string\" string=`echo [$SL_BT_A] foo$SL_BT_A-bar\t$SL_BT_B  x$SL_BT_UNSET\\n`)\n"
    "template(name=\"cat\" type=\"string\" string=`cat @DIR@/text`)\n"
    "if `echo $SL_BT_A` == \"a1\" then action(type=\"omfile\" file=`echo @DIR@/$SL_BT_OUT` template=\"echo\")\n"
    "action(type=\"omfile\" file=\"@DIR@/cat\" template=\"cat\" config.enabled=`echo $SL_BT_ON`)\n"
    "action(type=\"omfile\" file=\"@DIR@/off\" template=\"cat\" config.enabled=`echo $SL_BT_A`)\n";
  (void) data;
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  g_setenv ("SL_BT_A", "a1", TRUE);
  g_setenv ("SL_BT_B", "b 2", TRUE);
  g_setenv ("SL_BT_OUT", "out", TRUE);
  g_setenv ("SL_BT_ON", "on", TRUE);
  g_unsetenv ("SL_BT_UNSET");
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  const gchar *dirs[] = { rs_dir, env->dir };
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    g_assert_true (write_file (dirs[i], "text", "line one\nline two\n"));
  g_assert_true (write_rsyslog_conf (rs_dir, config));

  g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  g_autofree gchar *rs_in = g_build_filename (rs_dir, "in", NULL);
  g_autofree gchar *sl_in = sl_test_path (env, "in");
  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);
  g_assert_true (sl_test_write_config (env, config, NULL));
  g_assert_true (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL));
  g_assert_true (sl_test_wait_socket (env, rs_in));
  g_assert_true (sl_test_wait_socket (env, sl_in));
  const gchar *ins[] = { rs_in, sl_in };
  for (guint i = 0; i < G_N_ELEMENTS (ins); i++)
    {
      g_autofree gchar *out = g_build_filename (dirs[i], "out", NULL);
      g_autofree gchar *cat = g_build_filename (dirs[i], "cat", NULL);
      g_autofree gchar *off = g_build_filename (dirs[i], "off", NULL);
      g_assert_true (sl_test_unix_send (ins[i], SOCK_DGRAM, "<13>Dec  1 10:00:00 app: hello"));
      g_assert_true (sl_test_wait_lines (env, out, 1));
      g_assert_true (sl_test_wait_lines (env, cat, 2));
      g_autofree gchar *out_text = sl_test_read_file (out);
      g_autofree gchar *cat_text = sl_test_read_file (cat);
      g_assert_cmpstr (out_text, ==, "[ foo\tb 2  x\n");
      g_assert_cmpstr (cat_text, ==, "line one\nline two\n");
      g_assert_false (g_file_test (off, G_FILE_TEST_EXISTS));
    }
  sl_test_daemon_stop (env, SIGTERM);
  kill (rs, SIGTERM);
  sl_test_child_wait (rs, 10 * G_USEC_PER_SEC);

  g_autofree gchar *err = NULL;
  g_assert_true (sl_test_write_config (env, "\ntemplate(name=\"t\" type=\"string\" string=`ls /`)\n", NULL));
  g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "--config-format", "rsyslog", "-f",
                                      env->config, NULL), !=, 0);
  g_assert_nonnull (strstr (err, "sluice.conf:2:40: `ls /`: rsyslog runs only `echo TEXT` and `cat FILE`"));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/rsyslog-conf/debian-stock", test_debian_stock);
  SL_TEST_ADD ("/rsyslog-conf/corpus", test_corpus);
  SL_TEST_ADD ("/rsyslog-conf/refused", test_refused);
  SL_TEST_ADD ("/rsyslog-conf/include", test_include);
  SL_TEST_ADD ("/rsyslog-conf/privileges", test_privileges);
  g_test_add ("/rsyslog-conf/tls", SlTestEnv, tls_config, sl_test_env_setup, test_tls, sl_test_env_teardown);
  g_test_add ("/rsyslog-conf/tls-input-files", SlTestEnv, tls_input_files_config, sl_test_env_setup, test_tls,
              sl_test_env_teardown);
  SL_TEST_ADD ("/rsyslog-conf/imfile", test_imfile);
  SL_TEST_ADD ("/rsyslog-conf/imfile-truncate", test_imfile_truncate);
  SL_TEST_ADD ("/rsyslog-conf/omuxsock", test_omuxsock);
  SL_TEST_ADD ("/rsyslog-conf/backticks", test_backticks);
  return g_test_run ();
}
