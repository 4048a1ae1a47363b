/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluice-gen: a syslog load generator with loggen's habits, and
 * "sluice-gen verify", which checks that what it sent was delivered. */
#include <config.h>
#include "core/i18n.h"
#include "tools/gen/format.h"
#include "tools/gen/sender.h"
#include "tools/gen/verify.h"

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_SECONDS 10
#define DEFAULT_SIZE 256
#define DEFAULT_RATE 1000
#define MAX_SIZE (1024 * 1024)
/* missing ranges shown per connection */
#define DEFAULT_RANGES 5
/* seconds a broken connection may take to come back with --reconnect */
#define DEFAULT_RECONNECT_TIMEOUT 30
/* omrelp's window */
#define DEFAULT_RELP_WINDOW 128

/* A name that must fit a syslog header field: no spaces, nothing odd. */
static gboolean
valid_field (const gchar *value)
{
  if (!value || !*value || strlen (value) > 255)
    return FALSE;
  for (const gchar *p = value; *p; p++)
    if (*p <= ' ' || *p == 127)
      return FALSE;
  return TRUE;
}

static GPtrArray *
read_replay (const gchar *path, GError **error)
{
  gchar *text;
  gsize len;
  if (!g_file_get_contents (path, &text, &len, error))
    return NULL;
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  gchar **split = g_strsplit (text, "\n", -1);
  for (gchar **line = split; *line; line++)
    {
      g_strchomp (*line);
      if (**line)
        g_ptr_array_add (lines, g_strdup (*line));
    }
  g_strfreev (split);
  g_free (text);
  if (lines->len == 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("%s has no line to send"), path);
      g_ptr_array_unref (lines);
      return NULL;
    }
  return lines;
}

/* Prints the rate once a second until every connection finished. Like the
 * summary and verify's report, these are key=value lines in loggen's form
 * that scripts read, so they are not translated. */
static void
report_progress (SlGenSender *sender, gboolean quiet)
{
  gint64 last_time = g_get_monotonic_time ();
  guint64 last_count = 0;
  while (!sl_gen_sender_done (sender))
    {
      g_usleep (20 * 1000);
      gint64 now = g_get_monotonic_time ();
      if (quiet || now - last_time < G_USEC_PER_SEC)
        continue;
      guint64 count, bytes;
      sl_gen_sender_progress (sender, &count, &bytes);
      fprintf (stderr, "count=%" G_GUINT64_FORMAT ", rate = %.2f msg/sec\n", count,
               (gdouble) (count - last_count) * G_USEC_PER_SEC / (gdouble) (now - last_time));
      last_time = now;
      last_count = count;
    }
}

static gint
generate (SlGenPlan *plan, gboolean quiet)
{
  GError *error = NULL;
  signal (SIGPIPE, SIG_IGN);
  SlGenSender *sender = sl_gen_sender_start (plan, &error);
  if (!sender)
    {
      fprintf (stderr, "sluice-gen: %s\n", error->message);
      g_error_free (error);
      return 1;
    }
  report_progress (sender, quiet);
  guint64 count, bytes;
  gdouble seconds;
  GArray *breaks;
  gboolean ok = sl_gen_sender_finish (sender, &count, &bytes, &seconds, &breaks, &error);
  if (!ok)
    {
      fprintf (stderr, "sluice-gen: %s\n", error->message);
      g_error_free (error);
    }
  SlGenConnBreaks total = { 0 };
  for (guint i = 0; plan->reconnect && i < breaks->len; i++)
    {
      const SlGenConnBreaks *b = &g_array_index (breaks, SlGenConnBreaks, i);
      fprintf (stderr,
               "connection %u: reconnects=%u possibly-lost=%" G_GUINT64_FORMAT " possibly-duplicated=%"
               G_GUINT64_FORMAT "\n", b->id, b->reconnects, b->possibly_lost, b->possibly_duplicated);
      total.reconnects += b->reconnects;
      total.possibly_lost += b->possibly_lost;
      total.possibly_duplicated += b->possibly_duplicated;
    }
  g_array_unref (breaks);
  gdouble time = MAX (seconds, 1e-6);
  fprintf (stderr,
           "average rate = %.2f msg/sec, count=%" G_GUINT64_FORMAT ", time=%.3f, (average) msg size=%"
           G_GUINT64_FORMAT ", bandwidth=%.2f kB/sec",
           (gdouble) count / time, count, seconds, count ? bytes / count : 0, (gdouble) bytes / 1024 / time);
  if (plan->reconnect)
    fprintf (stderr, ", reconnects=%u, possibly-lost=%" G_GUINT64_FORMAT ", possibly-duplicated=%" G_GUINT64_FORMAT,
             total.reconnects, total.possibly_lost, total.possibly_duplicated);
  fputc ('\n', stderr);
  if (total.reconnects)
    fprintf (stderr, _("sluice-gen: possibly-lost counts the messages of the last write before each break, which "
                       "the peer may not have read (a stream does not say); 'sluice-gen verify' counts what "
                       "arrived\n"));
  return ok ? 0 : 1;
}

static gboolean
parse_framing (const gchar *word, gboolean rfc5424, SlGenFraming *framing)
{
  if (!word)
    *framing = rfc5424 ? SL_GEN_FRAMING_OCTET : SL_GEN_FRAMING_NEWLINE;
  else if (strcmp (word, "octet") == 0 || strcmp (word, "octet-counting") == 0)
    *framing = SL_GEN_FRAMING_OCTET;
  else if (strcmp (word, "newline") == 0)
    *framing = SL_GEN_FRAMING_NEWLINE;
  else
    return FALSE;
  return TRUE;
}

static gint
usage_error (const gchar *message)
{
  fprintf (stderr, "sluice-gen: %s\n", message);
  return 2;
}

static gint
generator_main (gint argc, gchar **argv)
{
  gint64 rate = DEFAULT_RATE, number = 0;
  gdouble interval = 0;
  gint size = DEFAULT_SIZE, connections = 1, first_conn = 1;
  gint reconnect_timeout = DEFAULT_RECONNECT_TIMEOUT;
  gboolean tcp = FALSE, udp = FALSE, rfc5424 = FALSE, quiet = FALSE, reconnect = FALSE;
  g_autofree gchar *unix_path = NULL, *sdata = NULL, *framing_word = NULL, *replay_path = NULL;
  g_autofree gchar *host = NULL, *program = NULL;
  g_autofree gchar *tls_ca = NULL, *tls_cert = NULL, *tls_key = NULL;
  gboolean tls = FALSE, relp = FALSE;
  gint relp_window = DEFAULT_RELP_WINDOW;
  GOptionEntry entries[] = {
    { "rate", 'r', 0, G_OPTION_ARG_INT64, &rate,
      N_("messages per second per connection; 0 sends as fast as possible (default 1000)"), N_("N") },
    { "interval", 'I', 0, G_OPTION_ARG_DOUBLE, &interval,
      N_("seconds to send (default 10 when -n is not given)"), N_("SECONDS") },
    { "number", 'n', 0, G_OPTION_ARG_INT64, &number, N_("messages per connection"), N_("N") },
    { "size", 's', 0, G_OPTION_ARG_INT, &size, N_("bytes per message, padded (default 256)"), N_("BYTES") },
    { "active-connections", 0, 0, G_OPTION_ARG_INT, &connections,
      N_("connections, each sent on by a thread of its own, or by one of 32 when -n is given without -r (default 1)"), N_("N") },
    { "first-connection", 0, 0, G_OPTION_ARG_INT, &first_conn,
      N_("id of the first connection, so that several senders' ids differ (default 1)"), N_("N") },
    { "stream", 'S', 0, G_OPTION_ARG_NONE, &tcp, N_("send over TCP (the default)"), NULL },
    { "dgram", 'D', 0, G_OPTION_ARG_NONE, &udp, N_("send over UDP, one message per datagram"), NULL },
    { "unix", 'x', 0, G_OPTION_ARG_FILENAME, &unix_path, N_("send to a unix stream socket"), N_("PATH") },
    { "tls", 0, 0, G_OPTION_ARG_NONE, &tls, N_("send over TLS (on TCP)"), NULL },
    { "tls-ca", 0, 0, G_OPTION_ARG_FILENAME, &tls_ca,
      N_("check the server's certificate against these CAs (unchecked without)"), N_("FILE") },
    { "tls-cert", 0, 0, G_OPTION_ARG_FILENAME, &tls_cert, N_("client certificate to show"), N_("FILE") },
    { "tls-key", 0, 0, G_OPTION_ARG_FILENAME, &tls_key, N_("the client certificate's key"), N_("FILE") },
    { "relp", 0, 0, G_OPTION_ARG_NONE, &relp,
      N_("send over RELP (on TCP or TLS): a message counts as sent once the receiver answered it, and a "
         "break (with --reconnect) sends the unanswered ones again"), NULL },
    { "relp-window", 0, 0, G_OPTION_ARG_INT, &relp_window,
      N_("RELP frames sent before their answers came (default 128)"), N_("N") },
    { "rfc5424", 0, 0, G_OPTION_ARG_NONE, &rfc5424, N_("RFC 5424 messages instead of RFC 3164"), NULL },
    { "syslog-proto", 'P', 0, G_OPTION_ARG_NONE, &rfc5424, N_("the same as --rfc5424"), NULL },
    { "sdata", 0, 0, G_OPTION_ARG_STRING, &sdata, N_("RFC 5424 structured data, such as '[x@1 a=\"b\"]'"),
      N_("SD") },
    { "framing", 0, 0, G_OPTION_ARG_STRING, &framing_word,
      N_("octet or newline (default: octet with --rfc5424, newline without)"), N_("KIND") },
    { "host", 0, 0, G_OPTION_ARG_STRING, &host, N_("the messages' host name (default localhost)"), N_("NAME") },
    { "program", 0, 0, G_OPTION_ARG_STRING, &program, N_("the messages' program name (default sluice-gen)"),
      N_("NAME") },
    { "replay", 0, 0, G_OPTION_ARG_FILENAME, &replay_path,
      N_("send the lines of FILE as they are, instead of generated messages"), N_("FILE") },
    { "quiet", 'Q', 0, G_OPTION_ARG_NONE, &quiet, N_("no rate line every second"), NULL },
    { "reconnect", 0, 0, G_OPTION_ARG_NONE, &reconnect,
      N_("connect again when a stream connection breaks, go on with the next message, and report per "
         "connection what the breaks may have lost or duplicated"), NULL },
    { "reconnect-timeout", 0, 0, G_OPTION_ARG_INT, &reconnect_timeout,
      N_("seconds a broken connection may take to come back (default 30)"), N_("SECONDS") },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (_("[TARGET PORT] - send syslog messages"));
  g_option_context_set_summary (ctx,
    _("Sends numbered syslog messages (\"seq=CONN:NUM\" at the start of the text) over TCP, TLS, RELP, UDP or a\n"
      "unix stream socket, and prints the rate. \"sluice-gen verify --help\" checks a delivery."));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return usage_error (error->message);

  SlGenPlan plan = {
    .transport = unix_path ? SL_GEN_UNIX_STREAM : udp ? SL_GEN_UDP : SL_GEN_TCP,
    .format = {
      .syntax = rfc5424 ? SL_GEN_RFC5424 : SL_GEN_RFC3164,
      .host = host ? host : "localhost",
      .program = program ? program : "sluice-gen",
      .pid = (guint) getpid (),
      .sdata = sdata,
      .size = (gsize) MAX (size, 0),
    },
    .connections = (guint) MAX (connections, 0),
    .first_conn = (guint) MAX (first_conn, 0),
    .rate = (guint64) MAX (rate, 0),
    .count = (guint64) MAX (number, 0),
    .seconds = interval,
    .reconnect = reconnect,
    .reconnect_timeout = (guint) MAX (reconnect_timeout, 0),
    .tls = tls,
    .tls_ca = tls_ca,
    .tls_cert = tls_cert,
    .tls_key = tls_key,
    .relp = relp,
    .relp_window = (guint) MAX (relp_window, 1),
  };
  if (relp && (udp || unix_path))
    return usage_error (_("--relp goes over TCP only"));
  if (tls && (udp || unix_path))
    return usage_error (_("--tls goes over TCP only"));
  if ((tls_ca || tls_cert || tls_key) && !tls)
    return usage_error (_("--tls-ca, --tls-cert and --tls-key need --tls"));
  if ((tls_cert != NULL) != (tls_key != NULL))
    return usage_error (_("--tls-cert and --tls-key go together"));
  if ((tcp + udp + (unix_path != NULL)) > 1)
    return usage_error (_("choose one of -S, -D and -x"));
  if (unix_path ? argc != 1 : argc != 3)
    return usage_error (unix_path ? _("-x takes the socket's path; give no TARGET PORT")
                                       : _("give TARGET and PORT; see --help"));
  plan.target = unix_path ? unix_path : argv[1];
  plan.port = unix_path ? NULL : argv[2];
  if (!parse_framing (framing_word, rfc5424, &plan.format.framing))
    return usage_error (_("--framing takes octet or newline"));
  if (udp || relp)
    plan.format.framing = SL_GEN_FRAMING_NONE;
  if (rate < 0 || number < 0 || interval < 0 || size < 0 || size > MAX_SIZE)
    return usage_error (_("-r, -n, -I and -s take numbers of 0 or more (-s at most 1 MiB)"));
  if (reconnect_timeout < 1)
    return usage_error (_("--reconnect-timeout takes a number of seconds of 1 or more"));
  if (connections < 1 || first_conn < 1 || first_conn + connections - 1 > SL_GEN_MAX_CONN)
    return usage_error (_("connection ids run from 1 to 9999"));
  if (!valid_field (plan.format.host) || !valid_field (plan.format.program))
    return usage_error (_("--host and --program take a name without spaces"));
  if (sdata && (!rfc5424 || sdata[0] != '[' || !g_str_has_suffix (sdata, "]") || strchr (sdata, '\n')))
    return usage_error (_("--sdata takes RFC 5424 structured data ([id name=\"value\"]) and needs --rfc5424"));
  g_autoptr (GPtrArray) replay = NULL;
  if (replay_path && !(replay = read_replay (replay_path, &error)))
    return usage_error (error->message);
  plan.replay = replay;
  if (!plan.count && plan.seconds <= 0 && !replay)
    plan.seconds = DEFAULT_SECONDS;
  return generate (&plan, quiet);
}

static gboolean
verify_file (SlGenVerify *v, const gchar *path)
{
  GError *error = NULL;
  GMappedFile *file = g_mapped_file_new (path, FALSE, &error);
  if (!file)
    {
      fprintf (stderr, "sluice-gen: %s\n", error->message);
      g_error_free (error);
      return FALSE;
    }
  sl_gen_verify_begin_file (v);
  sl_gen_verify_text (v, g_mapped_file_get_contents (file), g_mapped_file_get_length (file));
  g_mapped_file_unref (file);
  return TRUE;
}

/* Prints the report (key=value lines that scripts read, so not
 * translated); the number of messages missing. */
static guint64
print_report (SlGenVerify *v, guint ranges)
{
  SlGenTotals totals;
  GArray *conns = sl_gen_verify_report (v, &totals);
  for (guint i = 0; i < conns->len; i++)
    {
      const SlGenConnReport *r = &g_array_index (conns, SlGenConnReport, i);
      printf ("connection %" G_GUINT64_FORMAT ": received=%" G_GUINT64_FORMAT " missing=%" G_GUINT64_FORMAT
              " duplicated=%" G_GUINT64_FORMAT " reordered=%" G_GUINT64_FORMAT, r->conn, r->received,
              r->missing, r->duplicated, r->reordered);
      if (r->missing)
        {
          gchar *missing = sl_gen_verify_missing_ranges (v, r->conn, ranges);
          printf (" missing-ranges=%s", missing);
          g_free (missing);
        }
      putchar ('\n');
    }
  printf ("total: lines=%" G_GUINT64_FORMAT " received=%" G_GUINT64_FORMAT " distinct=%" G_GUINT64_FORMAT
          " expected=%" G_GUINT64_FORMAT " missing=%" G_GUINT64_FORMAT " duplicated=%" G_GUINT64_FORMAT
          " reordered=%" G_GUINT64_FORMAT " unmarked=%" G_GUINT64_FORMAT "\n",
          totals.lines, totals.received, totals.distinct, totals.expected, totals.missing, totals.duplicated,
          totals.reordered, totals.unmarked);
  g_array_unref (conns);
  return totals.missing;
}

static gint
verify_main (gint argc, gchar **argv)
{
  gint64 expect = 0, expect_total = 0;
  gint connections = 0, first_conn = 1, ranges = DEFAULT_RANGES;
  GOptionEntry entries[] = {
    { "expect", 0, 0, G_OPTION_ARG_INT64, &expect,
      N_("each connection sent 1..N: count what is missing at the end too"), N_("N") },
    { "expect-total", 0, 0, G_OPTION_ARG_INT64, &expect_total,
      N_("all connections together sent N (as the generator's count= says)"), N_("N") },
    { "connections", 0, 0, G_OPTION_ARG_INT, &connections,
      N_("connections that sent, reported even when none of their lines arrived"), N_("N") },
    { "first-connection", 0, 0, G_OPTION_ARG_INT, &first_conn, N_("id of the first of them (default 1)"),
      N_("N") },
    { "ranges", 0, 0, G_OPTION_ARG_INT, &ranges, N_("missing ranges shown per connection (default 5)"),
      N_("N") },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (_("verify FILE... - check a delivery of sluice-gen's messages"));
  g_option_context_set_summary (ctx,
    _("Finds \"seq=CONN:NUM\" in every line (any line format) and reports per connection what was\n"
      "received, missing, duplicated and reordered (within a file). Exits 0 when nothing is missing,\n"
      "1 when something is, 2 when a file cannot be read."));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return usage_error (error->message);
  if (argc < 2)
    return usage_error (_("give the files to check; see --help"));
  if (expect < 0 || expect_total < 0 || connections < 0 || first_conn < 0 || ranges < 0)
    return usage_error (_("--expect, --expect-total, --connections and --ranges take numbers of 0 or more"));

  SlGenVerify *v = sl_gen_verify_new ();
  sl_gen_verify_expect_connections (v, (guint64) first_conn, (guint64) connections);
  sl_gen_verify_expect_each (v, (guint64) expect);
  sl_gen_verify_expect_total (v, (guint64) expect_total);
  gboolean read_all = TRUE;
  for (gint i = 1; i < argc; i++)
    read_all &= verify_file (v, argv[i]);
  guint64 missing = print_report (v, (guint) ranges);
  sl_gen_verify_free (v);
  return !read_all ? 2 : missing ? 1 : 0;
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  /* the figures are read by scripts: a point before the decimals */
  setlocale (LC_NUMERIC, "C");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  textdomain (GETTEXT_PACKAGE);
  g_set_prgname ("sluice-gen");
  if (argc > 1 && strcmp (argv[1], "verify") == 0)
    return verify_main (argc - 1, argv + 1);
  return generator_main (argc, argv);
}
