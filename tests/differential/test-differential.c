/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The differential test: the bytes of every case of corpus.txt go into
 * syslog-ng (Debian's syslog-ng-core) and into the built sluiced, both
 * running differential.conf, and the records they write are compared field
 * by field. It reports how many cases match and every difference, and fails
 * on a difference that deliberate.txt does not list as one of those
 * doc/compatibility.md explains.
 *
 * Cases are sent one at a time, each on a connection of its own followed by
 * a marker message, and the next case goes only once both daemons wrote the
 * marker: so each case's records are told apart even when a case makes no
 * record or several. */
#include "tests/functional/harness.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define FIELD_SEP '\x1f'
#define REC_START "<<REC>>"
#define REC_END "<<END>>\n"
#define MARK_PREFIX "@@MARK "
/* A stamp this close to the test's clock is the receive time. */
#define NOW_SLACK_SEC 600

typedef enum
{
  VIA_TCP,
  VIA_UDP,
  VIA_PROTO,
  VIA_NET,
} Via;

typedef struct
{
  gchar *name;
  Via via;
  GString *bytes;
} Case;

/* A daemon under test: where it listens and writes, and what it wrote so far. */
typedef struct
{
  const gchar *label;
  guint16 tcp;                /* tcp() and udp() */
  guint16 proto;
  guint16 net;
  gchar *out;
  gsize read_offset;
  GString *pending;           /* read but not yet given to a case */
  GPid pid;
} Daemon;

typedef struct
{
  gchar *name;
  gchar *value;
} Field;

static void
case_free (Case *c)
{
  g_free (c->name);
  g_string_free (c->bytes, TRUE);
  g_free (c);
}

static gchar *
source_file (const gchar *relative)
{
  const gchar *top = g_getenv ("SL_TOP_SRCDIR");
  return g_build_filename (top ? top : ".", relative, NULL);
}

/* \\ \t \r \n \0 \xHH, and \{N}c for N times c. */
static gboolean
unescape (const gchar *text, GString *out)
{
  for (const gchar *p = text; *p; p++)
    {
      if (*p != '\\')
        {
          g_string_append_c (out, *p);
          continue;
        }
      p++;
      switch (*p)
        {
        case '\\': g_string_append_c (out, '\\'); break;
        case 't': g_string_append_c (out, '\t'); break;
        case 'r': g_string_append_c (out, '\r'); break;
        case 'n': g_string_append_c (out, '\n'); break;
        case '0': g_string_append_c (out, '\0'); break;
        case 'x':
          if (!g_ascii_isxdigit (p[1]) || !g_ascii_isxdigit (p[2]))
            return FALSE;
          g_string_append_c (out, (gchar) (g_ascii_xdigit_value (p[1]) * 16 + g_ascii_xdigit_value (p[2])));
          p += 2;
          break;
        case '{':
          {
            gchar *end;
            guint64 n = g_ascii_strtoull (p + 1, &end, 10);
            if (*end != '}' || !end[1] || n > 100000)
              return FALSE;
            for (guint64 i = 0; i < n; i++)
              g_string_append_c (out, end[1]);
            p = end + 1;
            break;
          }
        default:
          return FALSE;
        }
    }
  return TRUE;
}

static GPtrArray *
read_corpus (void)
{
  g_autofree gchar *path = source_file ("tests/differential/corpus.txt");
  g_autofree gchar *text = sl_test_read_file (path);
  if (!text)
    {
      g_test_fail_printf ("cannot read %s", path);
      return NULL;
    }
  static const gchar *const vias[] = { "tcp", "udp", "proto", "net" };
  GPtrArray *cases = g_ptr_array_new_with_free_func ((GDestroyNotify) case_free);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GHashTable *names = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; lines[i]; i++)
    {
      if (!lines[i][0] || lines[i][0] == '#')
        continue;
      g_auto (GStrv) parts = g_strsplit (lines[i], "\t", 3);
      Case *c = g_new0 (Case, 1);
      c->bytes = g_string_new (NULL);
      c->via = G_N_ELEMENTS (vias);
      for (guint v = 0; g_strv_length (parts) == 3 && v < G_N_ELEMENTS (vias); v++)
        if (strcmp (parts[1], vias[v]) == 0)
          c->via = v;
      c->name = g_strdup (parts[0]);
      g_ptr_array_add (cases, c);
      if (c->via == G_N_ELEMENTS (vias) || !unescape (parts[2], c->bytes)
          || !g_hash_table_add (names, c->name))
        {
          g_test_fail_printf ("corpus.txt:%u: not NAME<TAB>tcp|udp|proto|net<TAB>BYTES with a new name", i + 1);
          break;
        }
    }
  g_hash_table_unref (names);
  return cases;
}

/* deliberate.txt: CASE FIELD[,FIELD...]: the fields in which that case may
 * differ on purpose (RECORDS: how many records; MARKER: whether the
 * connection survives to carry the marker). Each case must be named in doc/compatibility.md, which
 * says why. */
static GHashTable *
read_deliberate (GPtrArray *cases, const gchar *name)
{
  g_autofree gchar *relative = g_build_filename ("tests/differential", name, NULL);
  g_autofree gchar *path = source_file (relative);
  g_autofree gchar *doc_path = source_file ("doc/compatibility.md");
  g_autofree gchar *text = sl_test_read_file (path);
  g_autofree gchar *doc = sl_test_read_file (doc_path);
  GHashTable *deliberate = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_strfreev);
  if (!text || !doc)
    {
      g_test_fail_printf ("cannot read %s or %s", path, doc_path);
      return deliberate;
    }
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      if (!lines[i][0] || lines[i][0] == '#')
        continue;
      g_auto (GStrv) parts = g_strsplit_set (lines[i], " \t", 2);
      gboolean known = FALSE;
      for (guint k = 0; k < cases->len && !known; k++)
        known = strcmp (((Case *) cases->pdata[k])->name, parts[0]) == 0;
      g_autofree gchar *quoted = g_strdup_printf ("`%s`", parts[0]);
      if (g_strv_length (parts) != 2 || !known)
        g_test_fail_printf ("%s:%u: not a case of the corpus and its fields", name, i + 1);
      else if (!strstr (doc, quoted))
        g_test_fail_printf ("%s:%u: %s is not explained in doc/compatibility.md", name, i + 1, quoted);
      else
        g_hash_table_insert (deliberate, g_strdup (parts[0]), g_strsplit (g_strstrip (parts[1]), ",", -1));
    }
  return deliberate;
}

static gboolean
send_stream (guint16 port, const GString *data)
{
  gint fd = sl_test_tcp_connect (port);
  if (fd < 0)
    return FALSE;
  gboolean ok = sl_test_send_all (fd, data->str, data->len);
  close (fd);
  return ok;
}

static gboolean
send_datagram (guint16 port, const GString *data)
{
  GString *copy = g_string_new_len (data->str, data->len);
  /* sl_test_udp_send() takes a string: a datagram with a NUL goes by hand */
  gint fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (port),
                              .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  gboolean ok = fd >= 0 && sendto (fd, copy->str, copy->len, 0, (struct sockaddr *) &addr, sizeof addr)
                           == (gssize) copy->len;
  if (!ok)
    g_test_fail_printf ("cannot send a datagram to port %u", port);
  if (fd >= 0)
    close (fd);
  g_string_free (copy, TRUE);
  return ok;
}

/* The case, then the marker, as the case's source frames them. */
static gboolean
send_case (const Daemon *d, const Case *c, guint index)
{
  g_autofree gchar *mark = g_strdup_printf ("%s%u@@", MARK_PREFIX, index);
  GString *data = g_string_new (NULL);
  gboolean ok;
  switch (c->via)
    {
    case VIA_UDP:
      ok = send_datagram (d->tcp, c->bytes);
      g_string_printf (data, "<13>Jan  1 00:00:00 marker mark: %s", mark);
      ok = ok && send_datagram (d->tcp, data);
      break;
    case VIA_PROTO:
      {
        g_autofree gchar *marker = g_strdup_printf ("<13>1 2026-01-01T00:00:00Z marker mark - - - %s", mark);
        g_string_printf (data, "%" G_GSIZE_FORMAT " ", c->bytes->len);
        g_string_append_len (data, c->bytes->str, c->bytes->len);
        g_string_append_printf (data, "%" G_GSIZE_FORMAT " %s", strlen (marker), marker);
        ok = send_stream (d->proto, data);
        break;
      }
    default:
      g_string_append_len (data, c->bytes->str, c->bytes->len);
      g_string_append_printf (data, "\n<13>Jan  1 00:00:00 marker mark: %s\n", mark);
      ok = send_stream (c->via == VIA_NET ? d->net : d->tcp, data);
      break;
    }
  g_string_free (data, TRUE);
  return ok;
}

/* Reads what the daemon wrote since the last call into d->pending. */
static void
read_more (Daemon *d)
{
  g_autofree gchar *text = NULL;
  gsize len = 0;
  if (!g_file_get_contents (d->out, &text, &len, NULL) || len <= d->read_offset)
    return;
  /* a NUL a daemon wrote is shown, so that the records stay strings */
  for (gsize i = d->read_offset; i < len; i++)
    if (text[i])
      g_string_append_c (d->pending, text[i]);
    else
      g_string_append (d->pending, "<NUL>");
  d->read_offset = len;
}

/* Waits for the marker of case index and returns the records before it
 * (without the marker's), or NULL when it did not come in time. */
static GPtrArray *
take_records (Daemon *d, guint index)
{
  g_autofree gchar *mark = g_strdup_printf ("%s%u@@", MARK_PREFIX, index);
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  const gchar *at, *end = NULL;
  while (!(at = strstr (d->pending->str, mark)) || !(end = strstr (at, REC_END)))
    {
      if (g_get_monotonic_time () > deadline)
        return NULL;
      g_usleep (5000);
      read_more (d);
    }
  gsize upto = end + strlen (REC_END) - d->pending->str;
  GPtrArray *records = g_ptr_array_new_with_free_func (g_free);
  g_autofree gchar *text = g_strndup (d->pending->str, upto);
  g_string_erase (d->pending, 0, upto);
  g_auto (GStrv) parts = g_strsplit (text, REC_START, -1);
  for (guint i = 1; parts[i]; i++)
    {
      gsize len = strlen (parts[i]);
      if (len >= strlen (REC_END) && g_str_has_suffix (parts[i], REC_END))
        parts[i][len - strlen (REC_END)] = '\0';
      if (!strstr (parts[i], MARK_PREFIX))
        g_ptr_array_add (records, g_strdup (parts[i]));
    }
  return records;
}

static gchar *
field_value (gchar **fields, const gchar *name)
{
  gsize n = strlen (name);
  for (guint i = 0; fields[i]; i++)
    if (strncmp (fields[i], name, n) == 0 && fields[i][n] == '=')
      return fields[i] + n + 1;
  return NULL;
}

/* What legitimately differs between the two runs becomes a placeholder: a
 * stamp that is the receive time (the two daemons receive a case at
 * slightly different times), and the pid of the daemon in its own error
 * records. */
static gchar **
normalise (const gchar *record, GPid pid)
{
  gchar sep[2] = { FIELD_SEP, 0 };
  gchar **fields = g_strsplit (record, sep, -1);
  gchar *iso = field_value (fields, "ISODATE");
  g_autoptr (GDateTime) stamp = iso ? g_date_time_new_from_iso8601 (iso, NULL) : NULL;
  g_autofree gchar *bsd = NULL;
  if (stamp && ABS (g_date_time_to_unix (stamp) - g_get_real_time () / G_USEC_PER_SEC) < NOW_SLACK_SEC)
    {
      g_autoptr (GDateTime) utc = g_date_time_to_utc (stamp);
      bsd = g_date_time_format (utc, "%b %e %H:%M:%S");
    }
  g_autofree gchar *pid_text = g_strdup_printf ("%d", (int) pid);
  g_autofree gchar *pid_tag = g_strdup_printf ("syslog-ng[%d]", (int) pid);
  for (guint i = 0; fields[i]; i++)
    {
      GString *f = g_string_new (fields[i]);
      g_string_replace (f, pid_tag, "syslog-ng[<daemon>]", 0);
      if (bsd && g_str_has_prefix (f->str, "ISODATE="))
        g_string_assign (f, "ISODATE=<received>");
      if (bsd && g_str_has_prefix (f->str, "JSON="))
        g_string_replace (f, bsd, "<received>", 0);
      if (g_str_has_prefix (f->str, "PID=") && strcmp (f->str + 4, pid_text) == 0)
        g_string_assign (f, "PID=<daemon>");
      if (g_str_has_prefix (f->str, "JSON="))
        {
          g_autofree gchar *quoted = g_strdup_printf ("\"PID\":\"%s\"", pid_text);
          g_string_replace (f, quoted, "\"PID\":\"<daemon>\"", 0);
        }
      g_free (fields[i]);
      fields[i] = g_string_free (f, FALSE);
    }
  return fields;
}

/* Control characters and bytes that are not ASCII as \xHH, and long
 * values cut, so that a difference can be seen. */
static gchar *
shown (const gchar *value)
{
  GString *out = g_string_new (NULL);
  gsize len = strlen (value);
  for (gsize i = 0; i < len && out->len < 400; i++)
    {
      guchar c = value[i];
      if (c < 0x20 || c >= 0x7f)
        g_string_append_printf (out, "\\x%02X", c);
      else
        g_string_append_c (out, c);
    }
  if (out->len >= 400)
    g_string_append (out, "...");
  return g_string_free (out, FALSE);
}

static gboolean
listed (gchar **fields, const gchar *name)
{
  return fields && g_strv_contains ((const gchar *const *) fields, name);
}

/* Which fields differ, as NAME: syslog-ng <TAB> sluiced lines. The JSON field
 * is $(format-json), a template function: its differences are reported but
 * counted apart. */
static void
compare_case (const Case *c, GPtrArray *ng, GPid ng_pid, GPtrArray *sl, GPid sl_pid,
              gchar **allowed, GString *report, gboolean *core_differs, gboolean *json_differs,
              gboolean *unexpected)
{
  if (ng->len != sl->len)
    {
      *core_differs = TRUE;
      if (!listed (allowed, "RECORDS"))
        *unexpected = TRUE;
      g_string_append_printf (report, "  RECORDS: syslog-ng wrote %u, sluiced %u\n", ng->len, sl->len);
      for (guint i = 0; i < ng->len + sl->len; i++)
        {
          g_autofree gchar *text = shown (i < ng->len ? ng->pdata[i] : sl->pdata[i - ng->len]);
          g_string_append_printf (report, "    %s #%u: %s\n", i < ng->len ? "syslog-ng" : "sluiced",
                                  i < ng->len ? i : i - ng->len, text);
        }
      return;
    }
  for (guint r = 0; r < ng->len; r++)
    {
      g_auto (GStrv) a = normalise (ng->pdata[r], ng_pid);
      g_auto (GStrv) b = normalise (sl->pdata[r], sl_pid);
      for (guint i = 0; a[i]; i++)
        {
          const gchar *eq = strchr (a[i], '=');
          if (!eq)
            continue;
          g_autofree gchar *name = g_strndup (a[i], eq - a[i]);
          const gchar *other = field_value (b, name);
          if (other && strcmp (eq + 1, other) == 0)
            continue;
          gboolean json = strcmp (name, "JSON") == 0;
          gboolean ok = listed (allowed, name);
          if (json)
            *json_differs = TRUE;
          else
            *core_differs = TRUE;
          if (!json && !ok)
            *unexpected = TRUE;
          g_autofree gchar *ng_text = shown (eq + 1);
          g_autofree gchar *sl_text = shown (other ? other : "(missing)");
          g_string_append_printf (report, "  %s%s%s\n    syslog-ng: %s\n    sluiced:   %s\n", name,
                                  ok ? " (deliberate)" : "", json ? " (template function)" : "",
                                  ng_text, sl_text);
        }
    }
}

static gboolean
write_config (SlTestEnv *env, const gchar *text, Daemon *d)
{
  g_autofree gchar *tcp = g_strdup_printf ("%u", d->tcp);
  g_autofree gchar *proto = g_strdup_printf ("%u", d->proto);
  g_autofree gchar *net = g_strdup_printf ("%u", d->net);
  return sl_test_write_config (env, text, "OUT", d->out, "TCP", tcp, "PROTO", proto, "NET", net, NULL);
}

static void
daemon_init (SlTestEnv *env, Daemon *d, const gchar *label)
{
  d->label = label;
  g_autofree gchar *name = g_strdup_printf ("%s.out", label);
  d->out = sl_test_path (env, name);
  d->pending = g_string_new (NULL);
  d->tcp = sl_test_free_port (SOCK_STREAM);
  d->proto = sl_test_free_port (SOCK_STREAM);
  d->net = sl_test_free_port (SOCK_STREAM);
}

static void
daemon_clear (Daemon *d)
{
  g_free (d->out);
  g_string_free (d->pending, TRUE);
}

static void
run_cases (SlTestEnv *env, GPtrArray *cases, GHashTable *deliberate, Daemon *ng, Daemon *sl)
{
  guint core_match = 0, full_match = 0, unexpected_cases = 0;
  GString *report = g_string_new (NULL);
  for (guint i = 0; i < cases->len; i++)
    {
      const Case *c = cases->pdata[i];
      if (!send_case (ng, c, i) || !send_case (sl, c, i))
        break;
      g_autoptr (GPtrArray) a = take_records (ng, i);
      g_autoptr (GPtrArray) b = take_records (sl, i);
      gboolean core_differs = FALSE, json_differs = FALSE, unexpected = FALSE;
      GString *lines = g_string_new (NULL);
      if (a && b)
        compare_case (c, a, ng->pid, b, env->pid, g_hash_table_lookup (deliberate, c->name), lines,
                      &core_differs, &json_differs, &unexpected);
      else
        {
          /* the case ate the marker: the daemon framed it otherwise */
          core_differs = TRUE;
          unexpected = !listed (g_hash_table_lookup (deliberate, c->name), "MARKER");
          g_string_append_printf (lines, "  MARKER: %s did not write the marker after it in time\n",
                                  a ? "sluiced" : "syslog-ng");
        }
      core_match += !core_differs;
      full_match += !core_differs && !json_differs;
      unexpected_cases += unexpected;
      if (lines->len)
        g_string_append_printf (report, "%s%s:\n%s", c->name, unexpected ? " (UNEXPECTED)" : "", lines->str);
      g_string_free (lines, TRUE);
    }
  g_test_message ("differences:\n%s", report->str);
  g_test_message ("%u of %u cases match field by field ($(format-json) aside); "
                  "%u of %u with $(format-json); %u differ unexpectedly",
                  core_match, cases->len, full_match, cases->len, unexpected_cases);
  if (unexpected_cases)
    g_test_fail_printf ("%u cases differ from syslog-ng and are not deliberate differences", unexpected_cases);
  g_string_free (report, TRUE);
}

/* The corpus, its deliberate differences from the peer (file name) and
 * the configuration under the peer's @version; NULL (the test failed)
 * when one cannot be read */
static gchar *
read_inputs (const gchar *deliberate_name, const gchar *version, GPtrArray **cases, GHashTable **deliberate)
{
  *cases = read_corpus ();
  if (!*cases || g_test_failed ())
    return NULL;
  *deliberate = read_deliberate (*cases, deliberate_name);
  g_autofree gchar *conf_path = source_file ("tests/differential/differential.conf");
  g_autofree gchar *conf = sl_test_read_file (conf_path);
  if (!conf || !g_str_has_prefix (conf, "@version: 3.38\n"))
    {
      g_test_fail_printf ("cannot read %s, or it does not start with @version: 3.38", conf_path);
      return NULL;
    }
  return g_strconcat ("@version: ", version, conf + strlen ("@version: 3.38"), NULL);
}

static void
test_corpus (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *syslog_ng = sl_test_syslog_ng_path ();
  if (!syslog_ng)
    {
      g_test_skip ("syslog-ng is not installed (quickstart installs Debian's syslog-ng-core)");
      return;
    }
  g_autoptr (GPtrArray) cases = NULL;
  g_autoptr (GHashTable) deliberate = NULL;
  g_autofree gchar *conf = read_inputs ("deliberate.txt", "3.38", &cases, &deliberate);
  if (!conf)
    return;
  Daemon ng = { 0 }, sl = { 0 };
  daemon_init (env, &ng, "syslog-ng");
  daemon_init (env, &sl, "sluiced");
  g_autofree gchar *ng_config = sl_test_path (env, "syslog-ng.conf");
  /* sluiced first: sl_test_wait_tcp() waits only while it runs */
  if (write_config (env, conf, &ng) && rename (env->config, ng_config) == 0
      && write_config (env, conf, &sl) && sl_test_daemon_start (env)
      && (ng.pid = sl_test_syslog_ng_start (env, ng_config)) && sl_test_wait_tcp (env, ng.tcp)
      && sl_test_wait_tcp (env, ng.proto) && sl_test_wait_tcp (env, ng.net))
    {
      sl.pid = env->pid;
      run_cases (env, cases, deliberate, &ng, &sl);
    }
  sl_test_syslog_ng_stop (env, ng.pid);
  daemon_clear (&ng);
  daemon_clear (&sl);
}

/* The same corpus against syslog-ng 4.8 (Debian 13), both daemons under
 * @version: 4.8, the differences Sluice keeps on purpose in
 * deliberate-4.8.txt */
static void
test_corpus_48 (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *root = sl_test_trixie_root ();
  if (!root)
    {
      g_test_skip ("the Debian 13 root of syslog-ng 4.8 could not be made (tests/peers/trixie-root)");
      return;
    }
  g_autoptr (GPtrArray) cases = NULL;
  g_autoptr (GHashTable) deliberate = NULL;
  g_autofree gchar *conf = read_inputs ("deliberate-4.8.txt", "4.8", &cases, &deliberate);
  if (!conf)
    return;
  Daemon ng = { 0 }, sl = { 0 };
  daemon_init (env, &ng, "syslog-ng-4.8");
  daemon_init (env, &sl, "sluiced");
  /* syslog-ng 4.8 writes inside its root: @DIR@ is its folder there */
  g_free (ng.out);
  ng.out = g_strdup ("@DIR@/syslog-ng-4.8.out");
  g_autofree gchar *ng_text = write_config (env, conf, &ng) ? sl_test_read_file (env->config) : NULL;
  gchar *ng_dir = NULL;
  if (ng_text && write_config (env, conf, &sl) && sl_test_daemon_start (env)
      && (ng.pid = sl_test_syslog_ng_48_start (env, root, ng_text, NULL, &ng_dir)) && sl_test_wait_tcp (env, ng.tcp)
      && sl_test_wait_tcp (env, ng.proto) && sl_test_wait_tcp (env, ng.net))
    {
      g_free (ng.out);
      ng.out = g_build_filename (ng_dir, "syslog-ng-4.8.out", NULL);
      sl.pid = env->pid;
      run_cases (env, cases, deliberate, &ng, &sl);
    }
  sl_test_syslog_ng_48_stop (ng.pid, ng_dir);
  daemon_clear (&ng);
  daemon_clear (&sl);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  /* the daemons' local time is UTC, so that stamps without a zone read alike */
  g_setenv ("TZ", "UTC", TRUE);
  SL_TEST_ADD ("/differential/corpus", test_corpus);
  SL_TEST_ADD ("/differential/corpus-4.8", test_corpus_48);
  return g_test_run ();
}
