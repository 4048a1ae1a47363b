/* SPDX-License-Identifier: GPL-2.0-or-later */
/* smtp() against a real SMTP server, aiosmtpd (Debian's python3-aiosmtpd,
 * run by smtp-test-server on a free loopback port, started once for the
 * program, keeping each mail as a file): the same mails from syslog-ng
 * 3.38's smtp module and from sluiced on one configuration, refused
 * recipients dropped and counted, and nothing lost under flow control
 * while the server is killed and started again. */
#include "tests/functional/harness.h"
#include "core/version.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static gchar *mail_dir;
static guint16 smtp_port;
static GPid smtp_pid;

static gboolean
smtp_start (void)
{
  g_autofree gchar *server = g_build_filename (g_getenv ("SL_TOP_SRCDIR"), "plugins/destinations/smtp/smtp-test-server",
                                               NULL);
  g_autofree gchar *port = g_strdup_printf ("%u", smtp_port);
  g_autofree gchar *err = g_build_filename (mail_dir, "server.stderr", NULL);
  const gchar *argv[] = { server, port, mail_dir, NULL };
  smtp_pid = sl_test_spawn_argv (argv, err);
  return smtp_pid && sl_test_wait_port (smtp_port);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar *const *) a, *(const gchar *const *) b);
}

static gchar *
mailbox_path (const gchar *recipient)
{
  return g_build_filename (mail_dir, recipient, NULL);
}

/* The mails the server kept for a first recipient, in the order they came. */
static GPtrArray *
mails_of (const gchar *recipient)
{
  g_autofree gchar *folder = mailbox_path (recipient);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GDir *dir = g_dir_open (folder, 0, NULL);
  for (const gchar *name; dir && (name = g_dir_read_name (dir));)
    if (g_str_has_suffix (name, ".eml"))
      g_ptr_array_add (names, g_build_filename (folder, name, NULL));
  if (dir)
    g_dir_close (dir);
  g_ptr_array_sort (names, compare_names);
  GPtrArray *mails = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < names->len; i++)
    g_ptr_array_add (mails, sl_test_read_file (g_ptr_array_index (names, i)));
  g_ptr_array_free (names, TRUE);
  return mails;
}

static guint
count_mails (const gchar *recipient)
{
  GPtrArray *mails = mails_of (recipient);
  guint n = mails->len;
  g_ptr_array_free (mails, TRUE);
  return n;
}

static gboolean
wait_mails (const gchar *recipient, guint n)
{
  for (guint i = 0; i < SL_TEST_DEADLINE_MS / 50; i++)
    {
      if (count_mails (recipient) >= n)
        return TRUE;
      g_usleep (50 * 1000);
    }
  g_test_fail_printf ("%s got %u mails, not %u", recipient, count_mails (recipient), n);
  return FALSE;
}

/* A mail with what must differ between the two daemons replaced, once
 * its shape is checked: the Date and Message-ID libESMTP writes, the
 * X-Mailer naming the program, and the test's name for the daemon in the
 * first recipient. syslog-ng also sends the mail to the reply-to()
 * address, which only names where answers go: Sluice does not, and the
 * envelope is compared without it. */
static gchar *
normalized (const gchar *mail, const gchar *name, const gchar *mailer)
{
  static const struct
  {
    const gchar *pattern;
    const gchar *replacement;
  } shapes[] = {
    { "^Date: [A-Z][a-z]{2}, [ 0-9]?[0-9] [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} [-+][0-9]{4}\r$",
      "Date: (date)\r" },
    { "^Message-Id: <[^@<> ]+@[^@<> ]+>\r$", "Message-Id: (id)\r" },
  };
  gchar *text = g_strdup (mail);
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      GRegex *re = g_regex_new (shapes[i].pattern, G_REGEX_MULTILINE | G_REGEX_CASELESS, 0, NULL);
      g_assert_true (g_regex_match (re, text, 0, NULL));
      gchar *replaced = g_regex_replace_literal (re, text, -1, 0, shapes[i].replacement, 0, NULL);
      g_regex_unref (re);
      g_free (text);
      text = replaced;
    }
  g_autofree gchar *mailer_line = g_strdup_printf ("X-Mailer: %s\r\n", mailer);
  g_assert_nonnull (strstr (text, mailer_line));
  GString *out = g_string_new (text);
  g_free (text);
  g_string_replace (out, mailer_line, "X-Mailer: (program)\r\n", 1);
  g_autofree gchar *address = g_strdup_printf ("%s@example.com", name);
  g_string_replace (out, address, "NAME@example.com", 0);
  g_string_replace (out, " noreply@example.com\n", "\n", 1);
  return g_string_free (out, FALSE);
}

static const gchar config[] =
  "@version: 3.38\n"
  "options { keep-hostname(yes); };\n"
  "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d { smtp(host(\"127.0.0.1\") port(@SMTP@)\n"
  "    from(\"Log Router\" \"syslog@example.com\")\n"
  "    to(\"@NAME@@example.com\") to(\"Admins\" \"admins@example.com\")\n"
  "    cc(\"On Call\" \"oncall-${PROGRAM}@example.com\") bcc(\"audit@example.com\")\n"
  "    reply-to(\"noreply@example.com\")\n"
  "    subject(\"[${HOST}] ${PROGRAM}: ${LEVEL}\")\n"
  "    body(\"${MSG}\\nhost: ${HOST}\\n.\\n. a line that starts with a dot\\n\")\n"
  "    header(\"X-Program\" \"${PROGRAM}\") header(\"X-Facility\" \"${FACILITY}\")); };\n"
  "log { source(s); destination(d); flags(flow-control); };\n";

static void
test_same_as_syslog_ng (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = g_strdup_printf ("%u", smtp_port);
  GString *conf = g_string_new (config);
  g_string_replace (conf, "@SMTP@", port, 0);
  GString *text = g_string_new (NULL);
  const guint n = 8;
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "<%u>Dec  1 10:00:00 host%u app%u: message %u with \"quotes\", ümlauts and spaces\n",
                            8 + i % 8, i % 3, i % 2, i);
  g_autofree gchar *sl_out = NULL, *ng_out = NULL;
  GPid ng = 0;
  gboolean ran = sl_test_side_by_side (env, conf->str, text->str, NULL, 0, &sl_out, &ng_out, &ng);
  g_string_free (conf, TRUE);
  g_string_free (text, TRUE);
  if (!ran)
    return;
  gboolean delivered = wait_mails ("sl@example.com", n) && wait_mails ("ng@example.com", n);
  sl_test_syslog_ng_stop (env, ng);
  if (!delivered)
    return;
  GPtrArray *sl_mails = mails_of ("sl@example.com");
  GPtrArray *ng_mails = mails_of ("ng@example.com");
  g_assert_cmpuint (sl_mails->len, ==, n);
  g_assert_cmpuint (ng_mails->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree gchar *sl = normalized (g_ptr_array_index (sl_mails, i), "sl", "sluice " SL_VERSION);
      g_autofree gchar *ng_mail = normalized (g_ptr_array_index (ng_mails, i), "ng", "syslog-ng 3.38.1");
      g_assert_cmpstr (sl, ==, ng_mail);
      g_autofree gchar *subject = g_strdup_printf ("\r\nSubject: [host%u] app%u: ", i % 3, i % 2);
      g_assert_nonnull (strstr (sl, subject));
      g_autofree gchar *body = g_strdup_printf ("\r\n\r\nmessage %u with \"quotes\", ümlauts and spaces\nhost: host%u\n", i, i % 3);
      g_assert_nonnull (strstr (sl, body));
    }
  g_ptr_array_free (sl_mails, TRUE);
  g_ptr_array_free (ng_mails, TRUE);
}

/* A recipient refused with 550 is counted; a mail none of whose
 * recipients is taken is dropped and counted, and the next one goes. */
static void
test_refused (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = g_strdup_printf ("%u", smtp_port);
  guint16 tcp = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *tcp_text = g_strdup_printf ("%u", tcp);
  g_assert_true (sl_test_write_config (env,
                                       "@version: 4.0\n"
                                       "source s { tcp(ip(\"127.0.0.1\") port(@TCP@)); };\n"
                                       "destination d { smtp(port(@SMTP@) from(\"syslog@example.com\")\n"
                                       "    to(\"${PROGRAM}@example.com\") cc(\"refused@example.com\")\n"
                                       "    subject(\"${PROGRAM}\") body(\"${MSG}\")); };\n"
                                       "log { source(s); destination(d); flags(flow-control); };\n",
                                       "TCP", tcp_text, "SMTP", port, NULL));
  if (!sl_test_daemon_start (env) || !sl_test_wait_tcp (env, tcp))
    return;
  g_assert_true (sl_test_tcp_send (tcp, "<13>Dec  1 10:00:00 h taken: one\n"
                                        "<13>Dec  1 10:00:00 h refused: two\n"
                                        "<13>Dec  1 10:00:00 h taken: three\n"));
  if (!wait_mails ("taken@example.com", 2))
    return;
  g_assert_true (sl_test_wait_stat (env, "destination", "d", "refused_mails", 1));
  g_assert_true (sl_test_wait_stat (env, "destination", "d", "dropped", 1));
  g_assert_true (sl_test_wait_stat (env, "destination", "d", "refused_recipients", 4));
  GPtrArray *mails = mails_of ("taken@example.com");
  g_assert_cmpuint (mails->len, ==, 2);
  g_assert_true (g_str_has_suffix (g_ptr_array_index (mails, 0), "\r\n\r\none\r\n"));
  g_assert_true (g_str_has_suffix (g_ptr_array_index (mails, 1), "\r\n\r\nthree\r\n"));
  g_ptr_array_free (mails, TRUE);
}

/* kill -9 of the server while 300 messages flow: each is a mail (at
 * least once) after it is back. */
static void
test_server_killed (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = g_strdup_printf ("%u", smtp_port);
  guint16 tcp = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *tcp_text = g_strdup_printf ("%u", tcp);
  g_assert_true (sl_test_write_config (env,
                                       "@version: 4.0\n"
                                       "source s { tcp(ip(\"127.0.0.1\") port(@TCP@) log-iw-size(100)); };\n"
                                       "destination d { smtp(port(@SMTP@) from(\"syslog@example.com\")\n"
                                       "    to(\"flow@example.com\") subject(\"flow\") body(\"${MSG}\")\n"
                                       "    time-reopen(1) log-fifo-size(100)); };\n"
                                       "log { source(s); destination(d); flags(flow-control); };\n",
                                       "TCP", tcp_text, "SMTP", port, NULL));
  if (!sl_test_daemon_start (env) || !sl_test_wait_tcp (env, tcp))
    return;
  const guint n = 300;
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "<13>Dec  1 10:00:00 h app: %u\n", i);
  SlTestSender *sender = sl_test_sender_start (sl_test_tcp_connect (tcp), text);
  if (!wait_mails ("flow@example.com", n / 10))
    {
      sl_test_sender_finish (sender);
      return;
    }
  kill (smtp_pid, SIGKILL);
  sl_test_child_wait (smtp_pid, SL_TEST_DEADLINE_MS * 1000);
  g_assert_true (sl_test_wait_stderr (env, "reason='the SMTP session with "));
  g_assert_true (smtp_start ());
  sl_test_sender_join (sender);
  if (!wait_mails ("flow@example.com", n))
    return;
  g_assert_true (sl_test_wait_stderr (env, "destination writes again; driver='d#0'"));
  GPtrArray *mails = mails_of ("flow@example.com");
  g_autofree gboolean *seen = g_new0 (gboolean, n);
  guint distinct = 0;
  for (guint i = 0; i < mails->len; i++)
    {
      const gchar *body = strstr (g_ptr_array_index (mails, i), "\r\n\r\n");
      guint64 v = body ? g_ascii_strtoull (body + 4, NULL, 10) : n;
      if (v < n && !seen[v])
        {
          seen[v] = TRUE;
          distinct++;
        }
    }
  g_test_message ("%u mails for %u messages", mails->len, n);
  g_ptr_array_free (mails, TRUE);
  g_assert_cmpuint (distinct, ==, n);
}

/* A server that takes the connection and never greets: timeout() ends
 * the session, and the message is kept, not dropped. */
static void
test_silent_server (SlTestEnv *env, gconstpointer data)
{
  guint16 silent = sl_test_free_port (SOCK_STREAM);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (silent),
                              .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  gint listener = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  g_assert_cmpint (bind (listener, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (listener, 16), ==, 0);
  g_autofree gchar *silent_text = g_strdup_printf ("%u", silent);
  guint16 tcp = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *tcp_text = g_strdup_printf ("%u", tcp);
  g_assert_true (sl_test_write_config (env,
                                       "@version: 4.0\n"
                                       "source s { tcp(ip(\"127.0.0.1\") port(@TCP@)); };\n"
                                       "destination d { smtp(port(@SMTP@) from(\"syslog@example.com\")\n"
                                       "    to(\"silent@example.com\") subject(\"s\") body(\"${MSG}\")\n"
                                       "    timeout(1) time-reopen(1)); };\n"
                                       "log { source(s); destination(d); flags(flow-control); };\n",
                                       "TCP", tcp_text, "SMTP", silent_text, NULL));
  if (sl_test_daemon_start (env) && sl_test_wait_tcp (env, tcp)
      && sl_test_tcp_send (tcp, "<13>Dec  1 10:00:00 h app: kept\n"))
    {
      g_assert_true (sl_test_wait_stderr (env, "reason='the SMTP session with "));
      g_assert_cmpint (sl_test_stat (env, "destination", "d", "dropped"), ==, 0);
      g_assert_cmpint (sl_test_stat (env, "destination", "d", "written"), ==, 0);
      g_assert_cmpint (sl_test_stat (env, "destination", "d", "queued"), ==, 1);
    }
  close (listener);
}

/* What a mail needs is checked where it was written. */
static void
test_config_errors (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *no_to = sl_test_refused_config (env,
    "@version: 3.38\n"
    "destination d {\n"
    "  smtp(from(\"a@example.com\") subject(\"s\") body(\"b\") reply-to(\"r@example.com\")); };\n"
    "log { destination(d); };\n", NULL);
  g_assert_nonnull (strstr (no_to, "sluice.conf:3:3:"));
  g_assert_nonnull (strstr (no_to, "smtp() needs to(), cc() or bcc()"));
  g_autofree gchar *three = sl_test_refused_config (env,
    "@version: 3.38\n"
    "destination d { smtp(from(\"a@example.com\") to(\"A\" \"a@example.com\" \"x\")\n"
    "  subject(\"s\") body(\"b\")); };\n"
    "log { destination(d); };\n", NULL);
  g_assert_nonnull (strstr (three, "sluice.conf:2:"));
  g_assert_nonnull (strstr (three, "to() of smtp() takes an address, or a name and an address"));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  g_setenv ("TZ", "UTC", TRUE);
  if (!g_file_test ("/usr/lib/python3/dist-packages/aiosmtpd", G_FILE_TEST_IS_DIR))
    {
      g_print ("1..0 # SKIP python3-aiosmtpd is not installed (quickstart installs it)\n");
      return 0;
    }
  mail_dir = sl_test_peer_dir ("smtp");
  smtp_port = sl_test_free_port (SOCK_STREAM);
  if (!mail_dir || !smtp_start ())
    {
      g_printerr ("the SMTP server did not start\n");
      return 1;
    }
  SL_TEST_ADD ("/smtp/same-as-syslog-ng", test_same_as_syslog_ng);
  SL_TEST_ADD ("/smtp/refused", test_refused);
  SL_TEST_ADD ("/smtp/server-killed", test_server_killed);
  SL_TEST_ADD ("/smtp/silent-server", test_silent_server);
  SL_TEST_ADD ("/smtp/config-errors", test_config_errors);
  gint status = g_test_run ();
  if (!sl_test_peer_stop (smtp_pid, mail_dir))
    status = 1;
  g_free (mail_dir);
  return status;
}
