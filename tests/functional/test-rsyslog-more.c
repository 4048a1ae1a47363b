/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's ommail (action() and legacy), mmpstrucdata, imptcp's sessions, omhttp, omsnmp,
 * impstats' log.file, $outchannel and omfile's zipLevel: one configuration run by
 * rsyslogd 8.2302 and by sluiced --config-format rsyslog, the same
 * messages sent to both over TCP. mmpstrucdata's variables are compared
 * byte for byte in the files both write; ommail's mails, kept by a real
 * SMTP server (aiosmtpd) per daemon, by their envelope, Subject, X-Mailer,
 * recipients and body (the headers' layout is libESMTP's). imptcp serves
 * more connections at once than tcp()'s default of 10 when maxSessions is
 * not given: each of them writes a line and waits for it in the file. What the
 * front end refuses is refused with its place. */
#include "tests/functional/harness.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static const gchar config[] =
  "module(load=\"imtcp\")\n"
  /* ommail before mmpstrucdata: rsyslogd 8.2302's mmpstrucdata, loaded
   * first, takes a legacy :ommail: for its own and fails */
  "module(load=\"ommail\")\n"
  "module(load=\"mmpstrucdata\")\n"
  "module(load=\"imptcp\")\n"
  "input(type=\"imtcp\" port=\"@PORT@\" ruleset=\"r\")\n"
  "input(type=\"imptcp\" port=\"@SESSIONS@\" ruleset=\"sessions\")\n"
  "template(name=\"line\" type=\"string\" string=\"%hostname% %syslogtag%%msg%\\n\")\n"
  "ruleset(name=\"sessions\") {\n"
  "  action(type=\"omfile\" file=\"@DIR@/sessions\" template=\"line\")\n"
  "}\n"
  "input(type=\"imtcp\" port=\"@LEGACY@\")\n"
  "template(name=\"sd\" type=\"string\" string=\"%$!%|%$!rfc5424-sd!ex@1!iut%|%$!rfc5424-sd!a.b@1!x.y%|%structured-data%\\n\")\n"
  "template(name=\"kept\" type=\"string\" string=\"%$!x%|%msg%\\n\")\n"
  "template(name=\"subject\" type=\"string\" string=\"alert from %hostname%: %syslogtag%\")\n"
  "ruleset(name=\"r\") {\n"
  "  if $programname == 'sd' then {\n"
  "    action(type=\"mmpstrucdata\")\n"
  "    action(type=\"omfile\" file=\"@DIR@/sd\" template=\"sd\")\n"
  "    action(type=\"mmpstrucdata\" jsonRoot=\"$!x\" sd_name.lowercase=\"off\")\n"
  "    action(type=\"omfile\" file=\"@DIR@/kept\" template=\"kept\")\n"
  "    stop\n"
  "  }\n"
  "  action(type=\"ommail\" server=\"127.0.0.1\" port=\"@SMTP@\" mailFrom=\"rs@example.com\"\n"
  "         mailTo=[\"a@example.com\", \"b@example.com\"] subject.template=\"subject\"\n"
  "         template=\"RSYSLOG_SyslogProtocol23Format\")\n"
  "  action(type=\"ommail\" server=\"127.0.0.1\" port=\"@SMTP@\" mailFrom=\"rs@example.com\" mailTo=\"c@example.com\"\n"
  "         body.enable=\"off\")\n"
  "  action(type=\"ommail\" server=\"127.0.0.1\" port=\"@SMTP@\" mailFrom=\"rs@example.com\" mailTo=\"d@example.com\"\n"
  "         subject.text=\"plain $ subject\")\n"
  "}\n"
  /* the legacy form: the directives count for every :ommail: after them,
   * but the recipients, which the next one takes */
  "$ActionMailSMTPServer 127.0.0.1\n"
  "$ActionMailSMTPPort @SMTP@\n"
  "$ActionMailFrom rs@example.com\n"
  "$ActionMailTo e@example.com\n"
  "$ActionMailTo f@example.com\n"
  "$ActionMailSubject subject\n"
  "*.* :ommail:;RSYSLOG_SyslogProtocol23Format\n"
  "$ActionMailEnableBody off\n"
  "$ActionMailTo g@example.com\n"
  "*.* :ommail:\n";

#define SD_HEAD "<165>1 2003-10-11T22:14:15.003Z host sd 12 ID47 "

static const gchar *const sd_messages[] = {
  SD_HEAD "[Ex@1 iut=\"3\" eventSource=\"Appli\\\"cation\\\\ x\\]\" eventID=\"1011\"][Other@2 A=\"b\" A=\"c\"] body",
  SD_HEAD "- no structured data",
  "<13>Dec  6 08:00:00 host sd[1]: a legacy message",
  SD_HEAD "[ex@1 iut=\"\" q=\"\\n\"]",
  /* '@' in an SD-ID and a param name, an element without params ({ }) */
  SD_HEAD "[exampleSDID@32473 iut=\"3\" eventSource=\"Application\"][A@B x@Y=\"1\"][Empty] body",
  /* a dot and a backslash are a name's own: x after x.y is a member too */
  SD_HEAD "[a.b@1 x.y=\"1\" x=\"2\"][C\\d@2 E.f=\"3\"] dots",
};

static const gchar *const mail_messages[] = {
  "<13>Dec  6 08:00:00 myhost prog[12]: hello there",
  "<11>Dec  6 08:00:01 otherhost other: second, with $ and a 'quote'",
};

static const gchar *const recipients[] = { "b@example.com", "c@example.com", "d@example.com", "f@example.com",
                                           "g@example.com" };

/* more than tcp()'s 10 */
#define SESSIONS 24

static gchar *
filled (const gchar *dir, guint16 port, guint16 legacy, guint16 smtp, guint16 sessions)
{
  GString *out = g_string_new (config);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_autofree gchar *legacy_text = g_strdup_printf ("%u", legacy);
  g_autofree gchar *smtp_text = g_strdup_printf ("%u", smtp);
  g_autofree gchar *sessions_text = g_strdup_printf ("%u", sessions);

  g_string_replace (out, "@DIR@", dir, 0);
  g_string_replace (out, "@PORT@", port_text, 0);
  g_string_replace (out, "@LEGACY@", legacy_text, 0);
  g_string_replace (out, "@SMTP@", smtp_text, 0);
  g_string_replace (out, "@SESSIONS@", sessions_text, 0);
  return g_string_free (out, FALSE);
}

/* legacy: the port of the default ruleset, which takes the mails only */
static void
send_all (guint16 port, guint16 legacy)
{
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GString) mails = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (sd_messages); i++)
    g_string_append_printf (text, "%s\n", sd_messages[i]);
  for (guint i = 0; i < G_N_ELEMENTS (mail_messages); i++)
    g_string_append_printf (mails, "%s\n", mail_messages[i]);
  g_string_append (text, mails->str);
  g_assert_true (sl_test_tcp_send (port, text->str));
  g_assert_true (sl_test_tcp_send (legacy, mails->str));
}

/* SESSIONS connections open at once, each with its line written: the
 * lines in the file while none is closed (a connection the daemon does
 * not serve yet would wait in the listen backlog, its line unread) */
static gboolean
send_sessions (SlTestEnv *env, const gchar *dir, guint16 port)
{
  g_autofree gchar *path = g_build_filename (dir, "sessions", NULL);
  gint fds[SESSIONS];
  gboolean all = TRUE;

  for (guint i = 0; i < SESSIONS; i++)
    {
      g_autofree gchar *line = g_strdup_printf ("<13>Dec  6 08:00:00 host sessions: connection %02u\n", i);
      fds[i] = sl_test_tcp_connect (port);
      all = all && fds[i] >= 0 && sl_test_send_all (fds[i], line, strlen (line));
    }
  all = all && sl_test_wait_lines (env, path, SESSIONS);
  for (guint i = 0; i < SESSIONS; i++)
    if (fds[i] >= 0)
      close (fds[i]);
  return all;
}

/* The SMTP server of smtp()'s tests, keeping mails under dir/mail */
static GPid
smtp_start (const gchar *dir, guint16 port)
{
  g_autofree gchar *server = g_build_filename (g_getenv ("SL_TOP_SRCDIR"), "plugins/destinations/smtp/smtp-test-server",
                                               NULL);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_autofree gchar *mail = g_build_filename (dir, "mail", NULL);
  g_autofree gchar *err = g_build_filename (dir, "smtp.stderr", NULL);
  const gchar *argv[] = { server, port_text, mail, NULL };
  GPid pid = sl_test_spawn_argv (argv, err);

  g_assert_true (pid && sl_test_wait_port (port));
  return pid;
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar *const *) a, *(const gchar *const *) b);
}

/* The mails kept for a first recipient, each as what both daemons must
 * agree on: the envelope, Subject and X-Mailer as written, the addresses
 * of From and To (sorted: libESMTP writes To in its own order), the body */
static GPtrArray *
mails_of (const gchar *dir, const gchar *recipient)
{
  g_autofree gchar *folder = g_build_filename (dir, "mail", recipient, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *mails = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GRegex) address = g_regex_new ("[a-z]+@example\\.com", 0, 0, NULL);
  GDir *d = g_dir_open (folder, 0, NULL);

  for (const gchar *name; d && (name = g_dir_read_name (d));)
    if (g_str_has_suffix (name, ".eml"))
      g_ptr_array_add (names, g_build_filename (folder, name, NULL));
  if (d)
    g_dir_close (d);
  g_ptr_array_sort (names, compare_strings);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree gchar *text = sl_test_read_file (g_ptr_array_index (names, i));
      const gchar *head_end = strstr (text, "\r\n\r\n");
      g_assert_nonnull (head_end);
      g_autofree gchar *head = g_strndup (text, (gsize) (head_end - text));
      g_auto (GStrv) lines = g_strsplit (head, "\n", -1);
      g_autoptr (GPtrArray) shape = g_ptr_array_new_with_free_func (g_free);
      g_autoptr (GPtrArray) to = g_ptr_array_new_with_free_func (g_free);
      gboolean in_to = FALSE;

      for (guint l = 0; lines[l]; l++)
        {
          g_strchomp (lines[l]);
          if (g_str_has_prefix (lines[l], "MAIL FROM:") || g_str_has_prefix (lines[l], "RCPT TO:")
              || g_str_has_prefix (lines[l], "Subject:") || g_str_has_prefix (lines[l], "X-Mailer:"))
            g_ptr_array_add (shape, g_strdup (lines[l]));
          if (g_str_has_prefix (lines[l], "From:"))
            {
              g_autoptr (GMatchInfo) match = NULL;
              g_assert_true (g_regex_match (address, lines[l], 0, &match));
              g_autofree gchar *from = g_match_info_fetch (match, 0);
              g_ptr_array_add (shape, g_strconcat ("From ", from, NULL));
            }
          in_to = g_str_has_prefix (lines[l], "To:") || (in_to && g_ascii_isspace (lines[l][0]));
          g_autoptr (GMatchInfo) match = NULL;
          for (g_regex_match (address, lines[l], 0, &match); in_to && g_match_info_matches (match);
               g_match_info_next (match, NULL))
            {
              g_autofree gchar *one = g_match_info_fetch (match, 0);
              if (!g_ptr_array_find_with_equal_func (to, one, g_str_equal, NULL))
                g_ptr_array_add (to, g_steal_pointer (&one));
            }
        }
      for (guint t = 0; t < to->len; t++)
        g_ptr_array_add (shape, g_strconcat ("To ", (const gchar *) g_ptr_array_index (to, t), NULL));
      g_ptr_array_sort (shape, compare_strings);
      g_ptr_array_add (shape, g_strconcat ("body:", head_end + 4, NULL));
      g_ptr_array_add (shape, NULL);
      g_ptr_array_add (mails, g_strjoinv ("\n", (gchar **) shape->pdata));
    }
  return mails;
}

static gboolean
wait_all (SlTestEnv *env, const gchar *dir)
{
  g_autofree gchar *sd = g_build_filename (dir, "sd", NULL);
  g_autofree gchar *kept = g_build_filename (dir, "kept", NULL);

  if (!sl_test_wait_lines (env, sd, G_N_ELEMENTS (sd_messages)) || !sl_test_wait_lines (env, kept, G_N_ELEMENTS (sd_messages)))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (recipients); i++)
    for (guint tries = 0;; tries++)
      {
        g_autoptr (GPtrArray) mails = mails_of (dir, recipients[i]);
        if (mails->len >= G_N_ELEMENTS (mail_messages))
          break;
        if (tries == SL_TEST_DEADLINE_MS / 50)
          return FALSE;
        g_usleep (50000);
      }
  return TRUE;
}

static void
test_side_by_side (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  if (!g_file_test ("/usr/lib/python3/dist-packages/aiosmtpd", G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("python3-aiosmtpd is not installed (quickstart installs it)");
      return;
    }
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  g_assert_cmpint (g_mkdir_with_parents (rs_dir, 0700), ==, 0);
  guint16 ports[8];
  for (guint i = 0; i < G_N_ELEMENTS (ports); i++)
    for (gboolean again = TRUE; again;)
      {
        ports[i] = sl_test_free_port (SOCK_STREAM);
        again = FALSE;
        for (guint k = 0; k < i; k++)
          again = again || ports[k] == ports[i];
      }
  GPid rs_smtp = smtp_start (rs_dir, ports[2]);
  GPid sl_smtp = smtp_start (env->dir, ports[3]);
  g_autofree gchar *rs_text = filled (rs_dir, ports[0], ports[4], ports[2], ports[6]);
  g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  g_assert_true (g_file_set_contents (rs_conf, rs_text, -1, NULL));
  g_autofree gchar *sl_text = filled (env->dir, ports[1], ports[5], ports[3], ports[7]);
  g_assert_true (sl_test_write_config (env, sl_text, NULL));

  g_autofree gchar *rs_err = g_build_filename (rs_dir, "rsyslogd.stderr", NULL);
  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);
  g_assert_true (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL));
  g_assert_true (sl_test_wait_port (ports[0]) && sl_test_wait_port (ports[4]) && sl_test_wait_port (ports[6]));
  send_all (ports[0], ports[4]);
  send_all (ports[1], ports[5]);
  gboolean rs_sessions = send_sessions (env, rs_dir, ports[6]);
  gboolean sl_sessions = send_sessions (env, env->dir, ports[7]);
  gboolean rs_done = wait_all (env, rs_dir);
  gboolean sl_done = wait_all (env, env->dir);
  sl_test_daemon_stop (env, SIGTERM);
  kill (rs, SIGTERM);
  sl_test_child_wait (rs, 10 * G_USEC_PER_SEC);
  g_assert_true (sl_test_peer_stop (rs_smtp, NULL));
  g_assert_true (sl_test_peer_stop (sl_smtp, NULL));
  g_autofree gchar *rs_stderr = sl_test_read_file (rs_err);
  g_test_message ("rsyslogd: %s", rs_stderr ? rs_stderr : "");
  g_assert_true (rs_done);
  g_assert_true (sl_done);
  g_assert_true (rs_sessions);
  g_assert_true (sl_sessions);

  static const gchar *const files[] = { "sd", "kept", "sessions" };
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree gchar *rs_path = g_build_filename (rs_dir, files[i], NULL);
      g_autofree gchar *sl_path = g_build_filename (env->dir, files[i], NULL);
      /* the sessions' lines in the order the scheduler wrote them */
      gboolean sorted = g_str_equal (files[i], "sessions");
      g_autofree gchar *rs_got = sorted ? sl_test_read_sorted_lines (rs_path) : sl_test_read_file (rs_path);
      g_autofree gchar *sl_got = sorted ? sl_test_read_sorted_lines (sl_path) : sl_test_read_file (sl_path);
      g_test_message ("%s", files[i]);
      g_assert_cmpstr (sl_got, ==, rs_got);
    }
  for (guint i = 0; i < G_N_ELEMENTS (recipients); i++)
    {
      g_autoptr (GPtrArray) rs_mails = mails_of (rs_dir, recipients[i]);
      g_autoptr (GPtrArray) sl_mails = mails_of (env->dir, recipients[i]);
      g_assert_cmpuint (sl_mails->len, ==, rs_mails->len);
      for (guint m = 0; m < rs_mails->len; m++)
        {
          g_test_message ("%s", (const gchar *) g_ptr_array_index (rs_mails, m));
          g_assert_cmpstr (g_ptr_array_index (sl_mails, m), ==, g_ptr_array_index (rs_mails, m));
        }
    }
}

/* omhttp, which Debian does not build: what 8.2302's source sends, checked
 * at http() tests' receiver (each request's head and body kept): a POST
 * per message to the rest path with JSON's Content-Type and the extra
 * header; with batch="on" the messages of StdJSONFmt joined by newlines,
 * at most batch.maxSize a request, as text/plain. */
static const gchar http_config[] =
  "module(load=\"imtcp\")\n"
  "module(load=\"omhttp\")\n"
  "input(type=\"imtcp\" port=\"@PORT@\")\n"
  "template(name=\"t\" type=\"string\" string=\"%hostname% %msg%\")\n"
  "action(type=\"omhttp\" server=\"127.0.0.1\" serverport=\"@ONE@\" useHttps=\"off\" restPath=\"api/log\"\n"
  "       template=\"t\" httpHeaderKey=\"X-Key\" httpHeaderValue=\"v\")\n"
  "action(type=\"omhttp\" server=[\"http://127.0.0.1:@TWO@\"] batch=\"on\" batch.maxSize=\"2\")\n";

static const gchar *const http_messages[] = {
  "<13>1 2026-12-06T08:00:00+00:00 myhost app - - - first",
  "<11>1 2026-12-06T08:00:01+00:00 myhost app - - - second \"quoted\"",
  "<14>1 2026-12-06T08:00:02+00:00 other app - - - third",
};

/* what each receiver is sent, in sorted order */
static const gchar *const http_one[] = { "myhost first", "myhost second \"quoted\"", "other third" };

static const gchar *const http_two[] = {
  "{\"message\":\"first\",\"fromhost\":\"myhost\",\"facility\":\"user\",\"priority\":\"notice\","
  "\"timereported\":\"2026-12-06T08:00:00+00:00\",\"timegenerated\":\"T\"}",
  "{\"message\":\"second \\\"quoted\\\"\",\"fromhost\":\"myhost\",\"facility\":\"user\",\"priority\":\"err\","
  "\"timereported\":\"2026-12-06T08:00:01+00:00\",\"timegenerated\":\"T\"}",
  "{\"message\":\"third\",\"fromhost\":\"other\",\"facility\":\"user\",\"priority\":\"info\","
  "\"timereported\":\"2026-12-06T08:00:02+00:00\",\"timegenerated\":\"T\"}",
};

static GPid
receiver_start (const gchar *dir, guint16 port)
{
  g_autofree gchar *program = g_build_filename (g_getenv ("SL_TOP_BUILDDIR"), "plugins", "destinations", "http",
                                                "http-receiver", NULL);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_autofree gchar *err = g_strconcat (dir, ".stderr", NULL);
  const gchar *argv[] = { program, "--port", port_text, "--dir", dir, NULL };

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  GPid pid = sl_test_spawn_argv (argv, err);
  g_assert_true (pid && sl_test_wait_port (port));
  return pid;
}

/* The requests a receiver kept (numbered from 1): heads and bodies, in order */
static guint
requests_of (const gchar *dir, GPtrArray *heads, GPtrArray *bodies)
{
  guint n = 0;
  for (;; n++)
    {
      g_autofree gchar *head = g_strdup_printf ("%s/%06u.head", dir, n + 1);
      g_autofree gchar *body = g_strdup_printf ("%s/%06u.body", dir, n + 1);
      if (!g_file_test (head, G_FILE_TEST_EXISTS) || !g_file_test (body, G_FILE_TEST_EXISTS))
        break;
      if (heads)
        g_ptr_array_add (heads, sl_test_read_file (head));
      if (bodies)
        g_ptr_array_add (bodies, sl_test_read_file (body));
    }
  return n;
}

static gchar *
joined_bodies (GPtrArray *bodies)
{
  g_autoptr (GRegex) generated = g_regex_new ("\"timegenerated\":\"[^\"]+\"", 0, 0, NULL);
  g_autoptr (GString) all = g_string_new (NULL);
  for (guint i = 0; i < bodies->len; i++)
    g_string_append_printf (all, "%s%s", i ? "\n" : "", (const gchar *) g_ptr_array_index (bodies, i));
  return g_regex_replace_literal (generated, all->str, -1, 0, "\"timegenerated\":\"T\"", 0, NULL);
}

static void
test_omhttp (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  guint16 ports[3];
  for (guint i = 0; i < G_N_ELEMENTS (ports); i++)
    for (gboolean again = TRUE; again;)
      {
        ports[i] = sl_test_free_port (SOCK_STREAM);
        again = FALSE;
        for (guint k = 0; k < i; k++)
          again = again || ports[k] == ports[i];
      }
  g_autofree gchar *one = sl_test_path (env, "one");
  g_autofree gchar *two = sl_test_path (env, "two");
  GPid one_pid = receiver_start (one, ports[1]);
  GPid two_pid = receiver_start (two, ports[2]);
  g_autofree gchar *port_text = g_strdup_printf ("%u", ports[0]);
  g_autofree gchar *one_text = g_strdup_printf ("%u", ports[1]);
  g_autofree gchar *two_text = g_strdup_printf ("%u", ports[2]);
  g_assert_true (sl_test_write_config (env, http_config, "PORT", port_text, "ONE", one_text, "TWO", two_text, NULL));
  g_assert_true (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL));
  g_autoptr (GString) text = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (http_messages); i++)
    g_string_append_printf (text, "%s\n", http_messages[i]);
  g_assert_true (sl_test_tcp_send (ports[0], text->str));

  g_autoptr (GPtrArray) heads = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) bodies = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) batch_heads = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) batch_bodies = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < SL_TEST_DEADLINE_MS / 50; i++)
    {
      g_autoptr (GPtrArray) b = g_ptr_array_new_with_free_func (g_free);
      requests_of (two, NULL, b);
      g_autofree gchar *all = joined_bodies (b);
      if (requests_of (one, NULL, NULL) >= G_N_ELEMENTS (http_one) && b->len && strlen (all) >= 3 * strlen (http_two[2]))
        break;
      g_usleep (50000);
    }
  sl_test_daemon_stop (env, SIGTERM);
  g_assert_true (sl_test_peer_stop (one_pid, NULL));
  g_assert_true (sl_test_peer_stop (two_pid, NULL));

  /* http() sends on several connections at once: the order of the
   * requests is the receiver's */
  g_assert_cmpuint (requests_of (one, heads, bodies), ==, G_N_ELEMENTS (http_one));
  g_ptr_array_sort (bodies, compare_strings);
  for (guint i = 0; i < G_N_ELEMENTS (http_one); i++)
    {
      const gchar *head = g_ptr_array_index (heads, i);
      g_test_message ("%s", head);
      g_assert_nonnull (strstr (head, "POST /api/log HTTP/1.1\n"));
      g_assert_nonnull (strstr (head, "\nContent-Type: application/json; charset=utf-8\n"));
      g_assert_nonnull (strstr (head, "\nX-Key: v\n"));
      g_assert_cmpstr (g_ptr_array_index (bodies, i), ==, http_one[i]);
    }
  guint n = requests_of (two, batch_heads, batch_bodies);
  g_assert_cmpuint (n, >=, 2);
  for (guint i = 0; i < n; i++)
    {
      const gchar *head = g_ptr_array_index (batch_heads, i);
      g_assert_nonnull (strstr (head, "POST / HTTP/1.1\n"));
      g_assert_nonnull (strstr (head, "\nContent-Type: text/plain\n"));
      g_assert_false (g_str_has_suffix (g_ptr_array_index (batch_bodies, i), "\n"));
    }
  g_autofree gchar *all = joined_bodies (batch_bodies);
  g_auto (GStrv) lines = g_strsplit (all, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, G_N_ELEMENTS (http_two));
  qsort (lines, G_N_ELEMENTS (http_two), sizeof (gchar *), compare_strings);
  for (guint i = 0; i < G_N_ELEMENTS (http_two); i++)
    g_assert_cmpstr (lines[i], ==, http_two[i]);
}

/* impstats' log.file: every interval a line per counted thing, after
 * ctime()'s text, by both daemons; the counters are Sluice's, a
 * source's messages its "submitted" (doc/rsyslog.md) */
static const gchar stats_config[] =
  "module(load=\"impstats\" interval=\"1\" log.file=\"@DIR@/stats\" log.syslog=\"off\" format=\"@FORMAT@\")\n"
  "module(load=\"imtcp\")\n"
  "input(type=\"imtcp\" port=\"@PORT@\" name=\"in1\")\n"
  "action(type=\"omfile\" file=\"@DIR@/out\")\n";

/* The lines of the last writing that has the resource-usage line, the
 * value of in1's submitted in it */
static gboolean
stats_written (const gchar *path, const gchar *format, gint64 *submitted, gchar **usage_names)
{
  g_autofree gchar *text = sl_test_read_file (path);
  /* a line being written is left for the next look */
  gchar *end = text ? strrchr (text, '\n') : NULL;
  if (end)
    end[1] = '\0';
  g_auto (GStrv) lines = end ? g_strsplit (text, "\n", -1) : NULL;
  g_autoptr (GRegex) stamp = g_regex_new ("^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2} "
                                          "[0-9]{4}: (.*)$", 0, 0, NULL);
  g_autoptr (GRegex) legacy = g_regex_new ("^(.+): origin=[^ ]+ (([^ =]+=-?[0-9]+ )*)$", 0, 0, NULL);
  g_autoptr (GRegex) submitted_re = g_regex_new ("^in1(\\([0-9]+\\))?: .*submitted=([0-9]+) ", 0, 0, NULL);
  gboolean usage = FALSE;

  for (guint i = 0; lines && lines[i] && *lines[i]; i++)
    {
      g_autoptr (GMatchInfo) match = NULL;
      g_assert_true (g_regex_match (stamp, lines[i], 0, &match));
      g_autofree gchar *line = g_match_info_fetch (match, 1);
      if (g_str_equal (format, "legacy"))
        {
          g_autoptr (GMatchInfo) counters = NULL;
          gboolean counted = g_regex_match (legacy, line, 0, &counters);
          if (!counted)
            g_test_message ("%s: %s", path, line);
          g_assert_true (counted);
          g_autoptr (GMatchInfo) in = NULL;
          if (g_regex_match (submitted_re, line, 0, &in))
            {
              g_autofree gchar *n = g_match_info_fetch (in, 2);
              *submitted = g_ascii_strtoll (n, NULL, 10);
            }
          if (g_str_has_prefix (line, "resource-usage: origin=impstats "))
            {
              g_autoptr (GRegex) values = g_regex_new ("=[0-9]+", 0, 0, NULL);
              g_free (*usage_names);
              *usage_names = g_regex_replace_literal (values, line, -1, 0, "", 0, NULL);
              usage = TRUE;
            }
          continue;
        }
      /* json: an object of name, origin and numbers, as json-c spaces it */
      const gchar *json = g_str_equal (format, "cee") ? line + strlen ("@cee: ") : line;
      g_assert_true (!g_str_equal (format, "cee") || g_str_has_prefix (line, "@cee: { \"name\": "));
      g_assert_true (g_str_has_prefix (json, "{ \"name\": \"") && g_str_has_suffix (json, " }"));
      g_assert_nonnull (strstr (json, "\", \"origin\": \""));
      if (strstr (json, "\"name\": \"resource-usage\""))
        usage = TRUE;
    }
  return usage;
}

static void
test_impstats_file (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  static const gchar *const formats[] = { "legacy", "cee" };
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autofree gchar *rs_dir = g_strdup_printf ("%s/rsyslogd-%s", env->dir, formats[f]);
      g_autofree gchar *sl_dir = g_strdup_printf ("%s/sluiced-%s", env->dir, formats[f]);
      g_assert_cmpint (g_mkdir_with_parents (rs_dir, 0700), ==, 0);
      g_assert_cmpint (g_mkdir_with_parents (sl_dir, 0700), ==, 0);
      guint16 rs_port = sl_test_free_port (SOCK_STREAM);
      guint16 sl_port;
      while ((sl_port = sl_test_free_port (SOCK_STREAM)) == rs_port)
        ;
      const gchar *dirs[] = { rs_dir, sl_dir };
      const guint16 ports[] = { rs_port, sl_port };
      gchar *texts[2];
      for (guint i = 0; i < 2; i++)
        {
          GString *text = g_string_new (stats_config);
          g_autofree gchar *port = g_strdup_printf ("%u", ports[i]);
          g_string_replace (text, "@DIR@", dirs[i], 0);
          g_string_replace (text, "@PORT@", port, 0);
          g_string_replace (text, "@FORMAT@", formats[f], 0);
          texts[i] = g_string_free (text, FALSE);
        }
      g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
      g_assert_true (g_file_set_contents (rs_conf, texts[0], -1, NULL));
      g_assert_true (sl_test_write_config (env, texts[1], NULL));
      g_free (texts[0]);
      g_free (texts[1]);
      GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
      g_assert_cmpint (rs, >, 0);
      g_assert_true (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL));
      g_assert_true (sl_test_wait_port (rs_port));
      for (guint i = 0; i < 2; i++)
        g_assert_true (sl_test_tcp_send (ports[i], "<13>Dec  6 08:00:00 h p: one\n<13>Dec  6 08:00:00 h p: two\n"));
      gint64 submitted[2] = { -1, -1 };
      gchar *usage[2] = { NULL, NULL };
      gboolean done = FALSE;
      for (guint tries = 0; !done && tries < SL_TEST_DEADLINE_MS / 100; tries++)
        {
          g_usleep (100000);
          done = TRUE;
          for (guint i = 0; i < 2; i++)
            {
              g_autofree gchar *path = g_build_filename (dirs[i], "stats", NULL);
              done = stats_written (path, formats[f], &submitted[i], &usage[i]) && done
                     && (!g_str_equal (formats[f], "legacy") || submitted[i] == 2);
            }
        }
      sl_test_daemon_stop (env, SIGTERM);
      kill (rs, SIGTERM);
      sl_test_child_wait (rs, 10 * G_USEC_PER_SEC);
      g_assert_true (done);
      g_assert_cmpstr (usage[1], ==, usage[0]);
      g_free (usage[0]);
      g_free (usage[1]);
    }
}

/* $outchannel and omfile's rotation.sizeLimit: the message written to a
 * file that had reached the size is its last; the command (a program
 * and one argument, here moving the file aside) runs, and the file is
 * made anew; when it is still too large after it, nothing more goes in.
 * Each message is sent alone, as rsyslogd checks the size it flushed. */
static const gchar outchannel_config[] =
  "module(load=\"imtcp\")\n"
  "input(type=\"imtcp\" port=\"@PORT@\")\n"
  "$outchannel cap, @DIR@/capped.log, 100, @DIR@/move-aside @DIR@/capped.log\n"
  "$outchannel stuck,@DIR@/stuck.log,100,/bin/true\n"
  "*.* :omfile:$cap;RSYSLOG_TraditionalFileFormat\n"
  "*.* :omfile:$stuck\n"
  "action(type=\"omfile\" file=\"@DIR@/other.log\" template=\"RSYSLOG_TraditionalFileFormat\"\n"
  "       rotation.sizeLimit=\"150\" rotation.sizeLimitCommand=\"@DIR@/move-aside @DIR@/other.log\")\n";

static const gchar *const outchannel_files[] = {
  "capped.log", "capped.log.0", "capped.log.1", "other.log", "other.log.0", "stuck.log",
};

static void
test_outchannel (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  g_autofree gchar *sl_dir = sl_test_path (env, "sluiced");
  guint16 rs_port = sl_test_free_port (SOCK_STREAM);
  guint16 sl_port;
  while ((sl_port = sl_test_free_port (SOCK_STREAM)) == rs_port)
    ;
  const gchar *dirs[] = { rs_dir, sl_dir };
  const guint16 ports[] = { rs_port, sl_port };
  g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_cmpint (g_mkdir_with_parents (dirs[i], 0700), ==, 0);
      g_autofree gchar *script = g_build_filename (dirs[i], "move-aside", NULL);
      g_assert_true (g_file_set_contents (script, "#!/bin/sh\nn=0\nwhile [ -e \"$1.$n\" ]; do n=$((n+1)); done\n"
                                                  "mv \"$1\" \"$1.$n\"\n", -1, NULL));
      g_assert_cmpint (chmod (script, 0700), ==, 0);
      g_autoptr (GString) text = g_string_new (outchannel_config);
      g_autofree gchar *port = g_strdup_printf ("%u", ports[i]);
      g_string_replace (text, "@DIR@", dirs[i], 0);
      g_string_replace (text, "@PORT@", port, 0);
      if (i == 0)
        g_assert_true (g_file_set_contents (rs_conf, text->str, -1, NULL));
      else
        g_assert_true (sl_test_write_config (env, text->str, NULL));
    }
  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);
  g_assert_true (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL));
  g_assert_true (sl_test_wait_port (rs_port));
  for (guint m = 1; m <= 7; m++)
    {
      g_autofree gchar *line = g_strdup_printf ("<13>Dec  6 08:00:0%u myhost prog[1]: message number %u here\n", m, m);
      for (guint i = 0; i < 2; i++)
        {
          g_assert_true (sl_test_tcp_send (ports[i], line));
          g_autofree gchar *other = g_build_filename (dirs[i], "other.log", NULL);
          g_autofree gchar *other_old = g_build_filename (dirs[i], "other.log.0", NULL);
          g_autofree gchar *want = g_strdup_printf ("message number %u ", m);
          /* other.log's fourth message is the last of its first file */
          g_assert_true (sl_test_wait_contains (env, m == 4 ? other_old : other, want));
        }
    }
  g_usleep (G_USEC_PER_SEC / 2);
  sl_test_daemon_stop (env, SIGTERM);
  kill (rs, SIGTERM);
  sl_test_child_wait (rs, 10 * G_USEC_PER_SEC);
  for (guint f = 0; f < G_N_ELEMENTS (outchannel_files); f++)
    {
      g_autofree gchar *rs_path = g_build_filename (rs_dir, outchannel_files[f], NULL);
      g_autofree gchar *sl_path = g_build_filename (sl_dir, outchannel_files[f], NULL);
      g_autofree gchar *rs_got = sl_test_read_file (rs_path);
      g_autofree gchar *sl_got = sl_test_read_file (sl_path);
      g_test_message ("%s", outchannel_files[f]);
      g_assert_nonnull (rs_got);
      g_assert_cmpstr (sl_got, ==, rs_got);
    }
  g_autofree gchar *beyond = g_build_filename (sl_dir, "capped.log.2", NULL);
  g_assert_false (g_file_test (beyond, G_FILE_TEST_EXISTS));
}

/* omfile's zipLevel: gzip files, one member per batch with veryRobustZip
 * on, one stream ended when rsyslogd closes the file with it off; what
 * zcat reads of each, once both daemons stopped, is the same */
static const gchar zip_config[] =
  "module(load=\"imtcp\")\n"
  "input(type=\"imtcp\" port=\"@PORT@\")\n"
  "action(type=\"omfile\" file=\"@DIR@/robust.gz\" zipLevel=\"6\" veryRobustZip=\"on\"\n"
  "       template=\"RSYSLOG_TraditionalFileFormat\")\n"
  "action(type=\"omfile\" file=\"@DIR@/stream.gz\" zipLevel=\"9\" veryRobustZip=\"off\")\n";

static const gchar *const zip_files[] = { "robust.gz", "stream.gz" };

static gchar *
gunzipped (const gchar *path)
{
  const gchar *argv[] = { "gzip", "-dc", path, NULL };
  gchar *out = NULL;
  gint status = -1;

  g_assert_true (g_spawn_sync (NULL, (gchar **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                               NULL, &out, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

static void
test_zip_level (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  g_autofree gchar *sl_dir = sl_test_path (env, "sluiced");
  guint16 rs_port = sl_test_free_port (SOCK_STREAM);
  guint16 sl_port;
  while ((sl_port = sl_test_free_port (SOCK_STREAM)) == rs_port)
    ;
  const gchar *dirs[] = { rs_dir, sl_dir };
  const guint16 ports[] = { rs_port, sl_port };
  g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_cmpint (g_mkdir_with_parents (dirs[i], 0700), ==, 0);
      g_autoptr (GString) text = g_string_new (zip_config);
      g_autofree gchar *port = g_strdup_printf ("%u", ports[i]);
      g_string_replace (text, "@DIR@", dirs[i], 0);
      g_string_replace (text, "@PORT@", port, 0);
      if (i == 0)
        g_assert_true (g_file_set_contents (rs_conf, text->str, -1, NULL));
      else
        g_assert_true (sl_test_write_config (env, text->str, NULL));
    }
  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);
  g_assert_true (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL));
  g_assert_true (sl_test_wait_port (rs_port));
  /* two batches: the robust file gets a member for each */
  for (guint batch = 0; batch < 2; batch++)
    {
      g_autoptr (GString) lines = g_string_new (NULL);
      for (guint m = 1; m <= 20; m++)
        g_string_append_printf (lines, "<13>Dec  6 08:00:%02u myhost prog[1]: batch %u message %u %s\n", m, batch, m,
                                m % 2 ? "with a tab\there" : "plain");
      for (guint i = 0; i < 2; i++)
        g_assert_true (sl_test_tcp_send (ports[i], lines->str));
      g_usleep (G_USEC_PER_SEC / 2);
    }
  sl_test_daemon_stop (env, SIGTERM);
  kill (rs, SIGTERM);
  sl_test_child_wait (rs, 10 * G_USEC_PER_SEC);
  for (guint f = 0; f < G_N_ELEMENTS (zip_files); f++)
    {
      g_autofree gchar *rs_path = g_build_filename (rs_dir, zip_files[f], NULL);
      g_autofree gchar *sl_path = g_build_filename (sl_dir, zip_files[f], NULL);
      g_autofree gchar *rs_got = gunzipped (rs_path);
      g_autofree gchar *sl_got = gunzipped (sl_path);
      g_test_message ("%s", zip_files[f]);
      g_assert_nonnull (strstr (rs_got, "batch 1 message 20 plain"));
      g_assert_cmpstr (sl_got, ==, rs_got);
    }
}

/* omsnmp with version="1", and :omsnmp:: the traps snmptrapd decodes (community,
 * variables; the uptime by its shape) from both daemons */
static const gchar snmp_config[] =
  "module(load=\"imtcp\")\n"
  "module(load=\"omsnmp\")\n"
  "input(type=\"imtcp\" port=\"@PORT@\")\n"
  "action(type=\"omsnmp\" version=\"1\" server=\"127.0.0.1\" port=\"@TRAPD@\" trapOID=\"1.3.6.1.4.1.19406.1.2.7\"\n"
  "       template=\"RSYSLOG_TraditionalFileFormat\")\n"
  "action(type=\"omsnmp\" version=\"1\" server=\"127.0.0.1\" port=\"@TRAPD@\" messageOID=\"1.3.6.1.4.1.19406.1.1.2.9\"\n"
  "       community=\"other\" transport=\"udp\")\n"
  /* the legacy form: SNMPv2c unless $ActionSNMPVersion 0, in
   * RSYSLOG_TraditionalForwardFormat */
  "$ActionSNMPTarget 127.0.0.1\n"
  "$ActionSNMPTargetPort @TRAPD@\n"
  "$ActionSNMPCommunity legacy\n"
  "$ActionSNMPSyslogMessageOID 1.3.6.1.4.1.19406.1.1.2.8\n"
  "*.* :omsnmp:\n";

/* The traps logged that hold needle, sorted, each with its uptime and
 * the sender's port taken out */
static GPtrArray *
logged_traps (const gchar *log, const gchar *needle)
{
  g_autofree gchar *text = sl_test_read_file (log);
  g_auto (GStrv) traps = g_strsplit (text ? text : "", "TRAP ", -1);
  g_autoptr (GRegex) varying = g_regex_new ("Timeticks: \\([0-9]+\\) [0-9:.]+|:[0-9]+->", 0, 0, NULL);
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; traps[i]; i++)
    if (strstr (traps[i], needle))
      g_ptr_array_add (found, g_regex_replace_literal (varying, traps[i], -1, 0, "(varies)", 0, NULL));
  g_ptr_array_sort (found, compare_strings);
  return found;
}

static void
test_omsnmp (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *root = sl_test_rsyslog_root ();
  g_autofree gchar *trapd = g_find_program_in_path ("snmptrapd");
  if (!root || !trapd)
    {
      g_test_skip ("rsyslog could not be unpacked, or snmptrapd is not installed");
      return;
    }
  g_autofree gchar *dir = sl_test_path (env, "trapd");
  g_autofree gchar *persist = g_build_filename (dir, "persist", NULL);
  g_autofree gchar *conf = g_build_filename (dir, "trapd.conf", NULL);
  g_autofree gchar *log = g_build_filename (dir, "log", NULL);
  g_autofree gchar *err = g_build_filename (dir, "stderr", NULL);
  g_assert_cmpint (g_mkdir_with_parents (persist, 0700), ==, 0);
  g_assert_true (g_file_set_contents (conf, "disableAuthorization yes\nformat2 TRAP %P %v\\n\n", -1, NULL));
  guint16 trapd_port = sl_test_free_port (SOCK_DGRAM);
  guint16 rs_port = sl_test_free_port (SOCK_STREAM);
  guint16 sl_port;
  while ((sl_port = sl_test_free_port (SOCK_STREAM)) == rs_port)
    ;
  g_autofree gchar *listen = g_strdup_printf ("udp:127.0.0.1:%u", trapd_port);
  const gchar *argv[] = { trapd, "-f", "-C", "-c", conf, "-Lf", log, "-m", "", "-On", listen, NULL };
  g_setenv ("SNMP_PERSISTENT_DIR", persist, TRUE);
  GPid trapd_pid = sl_test_spawn_argv (argv, err);
  g_unsetenv ("SNMP_PERSISTENT_DIR");
  g_assert_true (trapd_pid && sl_test_wait_contains (env, log, "NET-SNMP version"));

  g_autofree gchar *trapd_text = g_strdup_printf ("%u", trapd_port);
  g_autofree gchar *rs_text = g_strdup_printf ("%u", rs_port);
  g_autofree gchar *sl_text = g_strdup_printf ("%u", sl_port);
  g_autoptr (GString) rs_config = g_string_new (snmp_config);
  g_string_replace (rs_config, "@PORT@", rs_text, 0);
  g_string_replace (rs_config, "@TRAPD@", trapd_text, 0);
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  g_assert_cmpint (g_mkdir_with_parents (rs_dir, 0700), ==, 0);
  g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  g_assert_true (g_file_set_contents (rs_conf, rs_config->str, -1, NULL));
  g_assert_true (sl_test_write_config (env, snmp_config, "PORT", sl_text, "TRAPD", trapd_text, NULL));
  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);
  g_assert_true (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", NULL));
  g_assert_true (sl_test_wait_port (rs_port));
  g_assert_true (sl_test_tcp_send (rs_port, "<13>Dec  6 08:00:01 myhost prog[1]: hello from-rs\n"));
  g_assert_true (sl_test_tcp_send (sl_port, "<13>Dec  6 08:00:01 myhost prog[1]: hello from-sl\n"));
  /* read while snmptrapd runs: it ends its log with a line of its own */
  gboolean done = FALSE;
  g_autoptr (GPtrArray) rs_traps = NULL;
  g_autoptr (GPtrArray) sl_traps = NULL;
  for (guint i = 0; !done && i < SL_TEST_DEADLINE_MS / 50; i++)
    {
      g_usleep (50000);
      g_clear_pointer (&rs_traps, g_ptr_array_unref);
      g_clear_pointer (&sl_traps, g_ptr_array_unref);
      rs_traps = logged_traps (log, "from-rs");
      sl_traps = logged_traps (log, "from-sl");
      done = rs_traps->len == 3 && sl_traps->len == 3;
    }
  sl_test_daemon_stop (env, SIGTERM);
  kill (rs, SIGTERM);
  sl_test_child_wait (rs, 10 * G_USEC_PER_SEC);
  g_assert_true (sl_test_peer_stop (trapd_pid, NULL));
  g_assert_true (done);
  for (guint i = 0; i < rs_traps->len; i++)
    {
      g_autoptr (GString) sl_trap = g_string_new (g_ptr_array_index (sl_traps, i));
      g_string_replace (sl_trap, "from-sl", "from-rs", 0);
      g_test_message ("%s", (const gchar *) g_ptr_array_index (rs_traps, i));
      g_assert_cmpstr (sl_trap->str, ==, g_ptr_array_index (rs_traps, i));
    }
}

/* What the front end cannot do is refused at its place, with why; an
 * input and an action after a modifier put it on a path, where its parser
 * is made. */
#define OUT "action(type=\"omfile\" file=\"@DIR@/out\")\ninput(type=\"imuxsock\" Socket=\"@DIR@/in\")\n"
#define MAIL "action(type=\"ommail\" server=\"h\" port=\"25\" mailfrom=\"f@x\" mailto=\"t@x\" "

static void
test_refused (SlTestEnv *env, gconstpointer data)
{
  static const struct
  {
    const gchar *config;
    const gchar *needle;
  } cases[] = {
    { "module(load=\"ommail\")\n" MAIL "subject.text=\"a\" subject.template=\"b\")\n",
      "sluice.conf:2:71: the parameter 'subject.text' of rsyslog's ommail is not supported: it and subject.template" },
    { "module(load=\"ommail\")\naction(type=\"ommail\" server=\"h\" mailfrom=\"f@x\" mailto=\"t@x\")\n",
      "sluice.conf:2:1: rsyslog's ommail needs port=" },
    { "module(load=\"ommail\")\n" MAIL "nosuch=\"x\")\n",
      "sluice.conf:2:71: the parameter 'nosuch' of rsyslog's ommail is not supported" },
    { MAIL ")\n", "sluice.conf:1:1: rsyslog's action type 'ommail' needs its module loaded first" },
    { "$ActionMailFrom f@x\n" OUT, "sluice.conf:1:1: $ActionMailFrom needs $ModLoad ommail before it" },
    { "$ModLoad ommail\n$ActionMailFrom f@x\n$ActionMailTo t@x\n*.* :ommail:\n*.* :ommail:\n" OUT,
      "sluice.conf:5:5: rsyslog's :ommail: needs $ActionMailTo before it" },
    { "$ModLoad ommail\n$ActionMailTo t@x\n*.* :ommail:\n" OUT,
      "sluice.conf:3:5: rsyslog's :ommail: needs $ActionMailFrom before it" },
    { "$ModLoad ommail\n$ActionMailEnableBody maybe\n" OUT,
      "sluice.conf:2:1: $ActionMailEnableBody takes on or off, not 'maybe'" },
    { "module(load=\"omhttp\")\naction(type=\"omhttp\" batch=\"on\" batch.format=\"jsonarray\")\n",
      "sluice.conf:2:33: the parameter 'batch.format' of rsyslog's omhttp is not supported: only newline" },
    { "module(load=\"omhttp\")\naction(type=\"omhttp\" checkPath=\"health\")\n",
      "sluice.conf:2:22: the parameter 'checkpath' of rsyslog's omhttp is not supported: http() sends no health" },
    { "module(load=\"omhttp\")\naction(type=\"omhttp\" dynRestPath=\"on\" restPath=\"t\")\n",
      "sluice.conf:2:22: the parameter 'dynrestpath' of rsyslog's omhttp is not supported: a path made by a template" },
    { "module(load=\"omhttp\")\naction(type=\"omhttp\" httpIgnorableCodes=[\"400\"])\n",
      "sluice.conf:2:22: the parameter 'httpignorablecodes' of rsyslog's omhttp is not supported" },
    { "module(load=\"impstats\" log.file=\"/x\" log.syslog=\"off\" format=\"prometheus\")\n",
      "sluice.conf:1:55: the parameter 'format' of rsyslog's impstats is not supported: it is legacy, json, cee" },
    { "module(load=\"impstats\" log.file=\"/x\" format=\"json\")\n",
      "sluice.conf:1:38: rsyslog's impstats format=\"json\" is not supported: Sluice's statistics messages" },
    { "module(load=\"omsnmp\")\naction(type=\"omsnmp\" server=\"h\")\n",
      "sluice.conf:2:1: rsyslog's omsnmp sends SNMPv1 traps unless version=\"1\"" },
    { "$ModLoad omsnmp\n*.* :omsnmp:\n" OUT, "sluice.conf:2:5: rsyslog's :omsnmp: needs $ActionSNMPTarget before it" },
    { "$ModLoad omsnmp\n$ActionSNMPTarget h\n$ActionSNMPVersion 0\n*.* :omsnmp:\n" OUT,
      "sluice.conf:3:1: rsyslog's omsnmp sends SNMPv1 traps unless version=\"1\"" },
    { "$ModLoad omsnmp\n$ActionSNMPTargetPort x\n" OUT, "sluice.conf:2:1: $ActionSNMPTargetPort takes a number" },
    { "*.* :omfile:$nosuch\n" OUT, "sluice.conf:1:5: rsyslog's outchannel 'nosuch' is not defined before the action" },
    { "action(type=\"omfile\" file=\"/x\" rotation.sizeLimit=\"1m\")\n" OUT,
      "sluice.conf:1:32: the parameter 'rotation.sizelimit' of rsyslog's omfile is not supported: only a number" },
    { "module(load=\"mmpstrucdata\")\naction(type=\"mmpstrucdata\" jsonRoot=\"x\")\n" OUT,
      "sluice.conf:2:28: the parameter 'jsonroot' of rsyslog's mmpstrucdata is not supported: it takes a variable" },
    { "module(load=\"mmpstrucdata\")\naction(type=\"mmpstrucdata\" queue.type=\"LinkedList\")\n" OUT,
      "sluice.conf:2:28: the parameter 'queue.type' of rsyslog's mmpstrucdata is not supported: a queue of its own" },
  };
  (void) data;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree gchar *err = NULL;
      g_assert_true (sl_test_write_config (env, cases[i].config, NULL));
      g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "--config-format", "rsyslog", "-f",
                                          env->config, NULL), !=, 0);
      g_test_message ("%s", err);
      g_assert_nonnull (strstr (err, cases[i].needle));
    }
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  g_setenv ("TZ", "UTC", TRUE);
  SL_TEST_ADD ("/rsyslog-more/side-by-side", test_side_by_side);
  SL_TEST_ADD ("/rsyslog-more/omhttp", test_omhttp);
  SL_TEST_ADD ("/rsyslog-more/impstats-file", test_impstats_file);
  SL_TEST_ADD ("/rsyslog-more/outchannel", test_outchannel);
  SL_TEST_ADD ("/rsyslog-more/zip-level", test_zip_level);
  SL_TEST_ADD ("/rsyslog-more/omsnmp", test_omsnmp);
  SL_TEST_ADD ("/rsyslog-more/refused", test_refused);
  return g_test_run ();
}
