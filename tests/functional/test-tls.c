/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TLS with real peers: certificates made here with the openssl command;
 * Sluice to Sluice with mutual authentication, syslog-ng as a TLS client
 * and as a TLS server, openssl s_client handshakes, refused clients (no
 * certificate, another CA, expired, revoked, a fingerprint not trusted)
 * each logged with its reason while a trusted client on the same port goes
 * on, a client that never handshakes closed after the timeout, and two
 * hundred of them that cannot keep a trusted client out. */
#include "tests/functional/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define OPENSSL "/usr/bin/openssl"
#define SYSLOG_NG "/usr/sbin/syslog-ng"

typedef struct
{
  SlTestEnv local;        /* the Sluice that listens (or the only one) */
  SlTestEnv peer;         /* the other side: Sluice or syslog-ng */
  gchar *pki;             /* certificates and keys, in local's folder */
} Tls;

static const gchar ca_config[] =
  "[ ca ]\n"
  "default_ca = test_ca\n"
  "[ test_ca ]\n"
  "database = @PKI@/index.txt\n"
  "new_certs_dir = @PKI@/newcerts\n"
  "certificate = @PKI@/ca.pem\n"
  "private_key = @PKI@/ca.key\n"
  "serial = @PKI@/serial\n"
  "crlnumber = @PKI@/crlnumber\n"
  "default_md = sha256\n"
  "default_days = 30\n"
  "default_crl_days = 30\n"
  "policy = any_name\n"
  "unique_subject = no\n"
  "copy_extensions = copy\n"
  "[ any_name ]\n"
  "organizationName = optional\n"
  "organizationalUnitName = optional\n"
  "commonName = supplied\n";

static gboolean
run_openssl (const gchar *first, ...)
{
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) OPENSSL);
  va_list ap;
  va_start (ap, first);
  for (const gchar *a = first; a; a = va_arg (ap, const gchar *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_argv ((const gchar *const *) argv->pdata, NULL, &err);
  if (status != 0)
    g_test_fail_printf ("openssl %s failed: %s", first, err ? err : "");
  g_ptr_array_unref (argv);
  return status == 0;
}

static gchar *
pki_path (Tls *t, const gchar *name)
{
  return g_build_filename (t->pki, name, NULL);
}

/* A self-signed CA: NAME.key and NAME.pem. */
static gboolean
make_ca (Tls *t, const gchar *name, const gchar *subject)
{
  g_autofree gchar *key = g_strdup_printf ("%s/%s.key", t->pki, name);
  g_autofree gchar *pem = g_strdup_printf ("%s/%s.pem", t->pki, name);
  return run_openssl ("req", "-x509", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                      "-nodes", "-keyout", key, "-out", pem, "-days", "30", "-subj", subject,
                      "-addext", "basicConstraints=critical,CA:TRUE",
                      "-addext", "keyUsage=critical,keyCertSign,cRLSign", NULL);
}

/* NAME.key and NAME.csr. */
static gboolean
make_request (Tls *t, const gchar *name, const gchar *subject, const gchar *san)
{
  g_autofree gchar *key = g_strdup_printf ("%s/%s.key", t->pki, name);
  g_autofree gchar *csr = g_strdup_printf ("%s/%s.csr", t->pki, name);
  g_autofree gchar *ext = san ? g_strdup_printf ("subjectAltName=%s", san) : NULL;
  return run_openssl ("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                      "-keyout", key, "-out", csr, "-subj", subject, ext ? "-addext" : NULL, ext, NULL);
}

/* NAME.pem signed by the test CA, valid from start to end when given. */
static gboolean
make_cert (Tls *t, const gchar *name, const gchar *subject, const gchar *san, const gchar *start, const gchar *end)
{
  g_autofree gchar *config = pki_path (t, "ca.cnf");
  g_autofree gchar *csr = g_strdup_printf ("%s/%s.csr", t->pki, name);
  g_autofree gchar *pem = g_strdup_printf ("%s/%s.pem", t->pki, name);
  if (!make_request (t, name, subject, san))
    return FALSE;
  if (start)
    return run_openssl ("ca", "-batch", "-notext", "-config", config, "-in", csr, "-out", pem,
                        "-startdate", start, "-enddate", end, NULL);
  return run_openssl ("ca", "-batch", "-notext", "-config", config, "-in", csr, "-out", pem, NULL);
}

static gboolean
write_text (const gchar *path, const gchar *text)
{
  GError *error = NULL;
  if (g_file_set_contents (path, text, -1, &error))
    return TRUE;
  g_test_fail_printf ("%s", error->message);
  g_error_free (error);
  return FALSE;
}

/* The test CA and, signed by it, the server (localhost, 127.0.0.1), two
 * clients, an expired and a revoked one (in the CRL of crl/); another CA
 * and a client of it. */
static gboolean
make_pki (Tls *t)
{
  g_autofree gchar *newcerts = pki_path (t, "newcerts");
  g_autofree gchar *crl_dir = pki_path (t, "crl");
  g_autofree gchar *index = pki_path (t, "index.txt");
  g_autofree gchar *serial = pki_path (t, "serial");
  g_autofree gchar *crlnumber = pki_path (t, "crlnumber");
  g_autofree gchar *config = pki_path (t, "ca.cnf");
  g_autofree gchar *revoked = pki_path (t, "revoked.pem");
  g_autofree gchar *crl = pki_path (t, "crl/test-ca.crl.pem");
  g_autofree gchar *stranger_csr = pki_path (t, "stranger.csr");
  g_autofree gchar *stranger = pki_path (t, "stranger.pem");
  g_autofree gchar *other_ca = pki_path (t, "other-ca.pem");
  g_autofree gchar *other_key = pki_path (t, "other-ca.key");
  g_autofree gchar *other_serial = pki_path (t, "other-ca.srl");
  GString *ca_text = g_string_new (ca_config);
  g_string_replace (ca_text, "@PKI@", t->pki, 0);
  gboolean ok = g_mkdir_with_parents (newcerts, 0700) == 0 && g_mkdir_with_parents (crl_dir, 0700) == 0
                && write_text (index, "") && write_text (serial, "1000\n") && write_text (crlnumber, "1000\n")
                && write_text (config, ca_text->str)
                && make_ca (t, "ca", "/CN=Sluice Test CA")
                && make_cert (t, "server", "/CN=localhost", "DNS:localhost,IP:127.0.0.1", NULL, NULL)
                && make_cert (t, "client", "/O=Sluice/OU=Relays/CN=client1", NULL, NULL, NULL)
                && make_cert (t, "client2", "/CN=client2", NULL, NULL, NULL)
                && make_cert (t, "expired", "/CN=expired", NULL, "20200101000000Z", "20200201000000Z")
                && make_cert (t, "revoked", "/CN=revoked", NULL, NULL, NULL)
                && run_openssl ("ca", "-config", config, "-revoke", revoked, NULL)
                && run_openssl ("ca", "-config", config, "-gencrl", "-out", crl, NULL)
                && run_openssl ("rehash", crl_dir, NULL)
                && make_ca (t, "other-ca", "/CN=Another CA")
                && make_request (t, "stranger", "/CN=stranger", NULL)
                && run_openssl ("x509", "-req", "-in", stranger_csr, "-CA", other_ca, "-CAkey", other_key,
                                "-CAserial", other_serial, "-CAcreateserial", "-out", stranger, "-days", "30", NULL);
  g_string_free (ca_text, TRUE);
  return ok;
}

static void
tls_setup (Tls *t, gconstpointer data)
{
  sl_test_env_setup (&t->local, data);
  sl_test_env_setup (&t->peer, data);
  t->pki = sl_test_path (&t->local, "pki");
}

/* The peer first: a sender stopping after the receiver would retry. */
static void
tls_teardown (Tls *t, gconstpointer data)
{
  sl_test_env_teardown (&t->peer, data);
  sl_test_env_teardown (&t->local, data);
  g_free (t->pki);
}

#define TLS_TEST_ADD(path, func) g_test_add ((path), Tls, NULL, tls_setup, (func), tls_teardown)

static gboolean
have (const gchar *program)
{
  if (g_file_test (program, G_FILE_TEST_IS_EXECUTABLE))
    return TRUE;
  g_test_skip_printf ("%s is not installed (quickstart installs it)", program);
  return FALSE;
}

static gchar *
port_text (guint16 port)
{
  return g_strdup_printf ("%u", port);
}

/* n lines "<13>Jan  1 00:00:00 host app: PREFIX N". */
static GString *
numbered_lines (const gchar *prefix, guint first, guint n)
{
  GString *s = g_string_new (NULL);
  for (guint i = first; i < first + n; i++)
    g_string_append_printf (s, "<13>Jan  1 00:00:00 host app: %s %u\n", prefix, i);
  return s;
}

/* Every "CN PREFIX N" line (or "PREFIX N" when cn is NULL) of 1..n is in
 * path once. */
static void
check_delivered (const gchar *path, const gchar *cn, const gchar *prefix, guint n)
{
  g_auto (GStrv) lines = sl_test_read_lines (path);
  g_assert_nonnull (lines);
  g_autofree guint8 *seen = g_new0 (guint8, n + 1);
  guint count = 0;
  g_autofree gchar *head = cn ? g_strdup_printf ("%s %s ", cn, prefix) : g_strdup_printf ("%s ", prefix);
  for (guint i = 0; lines[i]; i++)
    {
      if (!*lines[i] || !g_str_has_prefix (lines[i], head))
        continue;
      guint64 seq = g_ascii_strtoull (lines[i] + strlen (head), NULL, 10);
      g_assert_cmpuint (seq, >=, 1);
      g_assert_cmpuint (seq, <=, n);
      g_assert_cmpuint (seen[seq], ==, 0);
      seen[seq] = 1;
      count++;
    }
  g_assert_cmpuint (count, ==, n);
}

/* Sluice relays to Sluice over syslog(transport("tls")): both show their
 * certificate and check the other's; every message arrives with the
 * sender's common name. */
static const gchar relay_receiver[] =
  "@version: 4.0\n"
  "source s_tls { syslog(ip(\"127.0.0.1\") port(@PORT@) transport(\"tls\")\n"
  "  tls(key-file(\"@PKI@/server.key\") cert-file(\"@PKI@/server.pem\") ca-file(\"@PKI@/ca.pem\")\n"
  "      peer-verify(required-trusted) trusted-dn(\"CN=client1, *\"))); };\n"
  "destination d { file(\"@DIR@/out.log\" template(\"${.tls.x509_cn} ${MESSAGE}\\n\")); };\n"
  "log { source(s_tls); destination(d); flags(flow-control); };\n";

static const gchar relay_sender[] =
  "@version: 4.0\n"
  "source s_in { tcp(ip(\"127.0.0.1\") port(@IN@)); };\n"
  "destination d_tls { syslog(\"localhost\" port(@PORT@) transport(\"tls\") time-reopen(1)\n"
  "  tls(ca-file(\"@PKI@/ca.pem\") key-file(\"@PKI@/client.key\") cert-file(\"@PKI@/client.pem\") sni(yes))); };\n"
  "log { source(s_in); destination(d_tls); flags(flow-control); };\n";

#define RELAY_LINES 5000

static void
test_sluice_to_sluice (Tls *t, gconstpointer data)
{
  if (!have (OPENSSL) || !make_pki (t))
    return;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  guint16 in = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_s = port_text (port);
  g_autofree gchar *in_s = port_text (in);
  g_autofree gchar *out = sl_test_path (&t->local, "out.log");
  g_autoptr (GString) lines = numbered_lines ("seq", 1, RELAY_LINES);
  if (!sl_test_write_config (&t->local, relay_receiver, "PORT", port_s, "PKI", t->pki, NULL)
      || !sl_test_daemon_start (&t->local)
      || !sl_test_write_config (&t->peer, relay_sender, "PORT", port_s, "IN", in_s, "PKI", t->pki, NULL)
      || !sl_test_daemon_start (&t->peer) || !sl_test_tcp_send (in, lines->str)
      || !sl_test_wait_lines (&t->local, out, RELAY_LINES))
    return;
  check_delivered (out, "client1", "seq", RELAY_LINES);
  g_assert_cmpint (sl_test_daemon_stop (&t->peer, SIGTERM), ==, 0);
  g_assert_cmpint (sl_test_daemon_stop (&t->local, SIGTERM), ==, 0);
}

/* trusted-names(): rsyslog's x509/name with permitted peers. The server's
 * certificate names localhost; a destination connecting to 127.0.0.1
 * takes it when a pattern matches that name, and refuses it otherwise. */
static const gchar names_sender[] =
  "@version: 4.0\n"
  "source s_ok { tcp(ip(\"127.0.0.1\") port(@OK@)); };\n"
  "source s_bad { tcp(ip(\"127.0.0.1\") port(@BAD@)); };\n"
  "destination d_ok { syslog(\"127.0.0.1\" port(@PORT@) transport(\"tls\") time-reopen(1)\n"
  "  tls(ca-file(\"@PKI@/ca.pem\") key-file(\"@PKI@/client.key\") cert-file(\"@PKI@/client.pem\")\n"
  "      trusted-names(\"*.example.com\" \"local*\"))); };\n"
  "destination d_bad { syslog(\"127.0.0.1\" port(@PORT@) transport(\"tls\") time-reopen(1)\n"
  "  tls(ca-file(\"@PKI@/ca.pem\") key-file(\"@PKI@/client.key\") cert-file(\"@PKI@/client.pem\")\n"
  "      trusted-names(\"*.example.com\"))); };\n"
  "log { source(s_ok); destination(d_ok); };\n"
  "log { source(s_bad); destination(d_bad); };\n";

static void
test_trusted_names (Tls *t, gconstpointer data)
{
  if (!have (OPENSSL) || !make_pki (t))
    return;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  guint16 ok = sl_test_free_port (SOCK_STREAM);
  guint16 bad = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_s = port_text (port);
  g_autofree gchar *ok_s = port_text (ok);
  g_autofree gchar *bad_s = port_text (bad);
  g_autofree gchar *out = sl_test_path (&t->local, "out.log");
  g_autoptr (GString) good = numbered_lines ("good", 1, 10);
  g_autoptr (GString) refused = numbered_lines ("refused", 1, 10);
  if (!sl_test_write_config (&t->local, relay_receiver, "PORT", port_s, "PKI", t->pki, NULL)
      || !sl_test_daemon_start (&t->local)
      || !sl_test_write_config (&t->peer, names_sender, "PORT", port_s, "OK", ok_s, "BAD", bad_s, "PKI", t->pki,
                                NULL)
      || !sl_test_daemon_start (&t->peer) || !sl_test_tcp_send (bad, refused->str)
      || !sl_test_tcp_send (ok, good->str) || !sl_test_wait_lines (&t->local, out, 10))
    return;
  sl_test_wait_stderr (&t->peer, "certificate names not in trusted-names()");
  check_delivered (out, "client1", "good", 10);
}

static gboolean
start_syslog_ng (SlTestEnv *env)
{
  g_autofree gchar *persist = sl_test_path (env, "syslog-ng.persist");
  const gchar *argv[] = {
    SYSLOG_NG, "-F", "-f", env->config, "-R", persist, "-p", env->pidfile, "-c", env->control, "--no-caps", NULL
  };
  gint out = open (env->stderr_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  GError *error = NULL;
  gboolean spawned = out >= 0
                     && g_spawn_async_with_pipes_and_fds (env->dir, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL,
                                                          NULL, -1, out, out, NULL, NULL, 0, &env->pid, NULL,
                                                          NULL, NULL, &error);
  if (out >= 0)
    close (out);
  if (!spawned)
    {
      g_test_fail_printf ("cannot start syslog-ng: %s", error ? error->message : "no stderr file");
      g_clear_error (&error);
      env->pid = 0;
    }
  return spawned;
}

#define PEER_LINES 1000

/* syslog-ng 3.38 sends to Sluice over TLS, checking Sluice's certificate
 * and showing its own. */
static const gchar receiver_for_syslog_ng[] =
  "@version: 4.0\n"
  "source s_tls { network(ip(\"127.0.0.1\") port(@PORT@) transport(\"tls\")\n"
  "  tls(key-file(\"@PKI@/server.key\") cert-file(\"@PKI@/server.pem\") ca-file(\"@PKI@/ca.pem\"))); };\n"
  "destination d { file(\"@DIR@/out.log\" template(\"${.tls.x509_cn} ${.tls.x509_o} ${.tls.x509_ou} ${MESSAGE}\\n\")); };\n"
  "log { source(s_tls); destination(d); };\n";

static const gchar syslog_ng_client[] =
  "@version: 3.38\n"
  "options { stats-freq(0); };\n"
  "source s_in { tcp(ip(\"127.0.0.1\") port(@IN@)); };\n"
  "destination d_tls { network(\"localhost\" port(@PORT@) transport(\"tls\") ip-protocol(4) time-reopen(1)\n"
  "  tls(ca-file(\"@PKI@/ca.pem\") key-file(\"@PKI@/client.key\") cert-file(\"@PKI@/client.pem\")\n"
  "      peer-verify(required-trusted))); };\n"
  "log { source(s_in); destination(d_tls); flags(flow-control); };\n";

static void
test_syslog_ng_client (Tls *t, gconstpointer data)
{
  if (!have (OPENSSL) || !have (SYSLOG_NG) || !make_pki (t))
    return;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  guint16 in = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_s = port_text (port);
  g_autofree gchar *in_s = port_text (in);
  g_autofree gchar *out = sl_test_path (&t->local, "out.log");
  g_autoptr (GString) lines = numbered_lines ("ng", 1, PEER_LINES);
  if (!sl_test_write_config (&t->local, receiver_for_syslog_ng, "PORT", port_s, "PKI", t->pki, NULL)
      || !sl_test_daemon_start (&t->local)
      || !sl_test_write_config (&t->peer, syslog_ng_client, "PORT", port_s, "IN", in_s, "PKI", t->pki, NULL)
      || !start_syslog_ng (&t->peer) || !sl_test_wait_tcp (&t->peer, in) || !sl_test_tcp_send (in, lines->str)
      || !sl_test_wait_lines (&t->local, out, PEER_LINES))
    return;
  check_delivered (out, "client1 Sluice Relays", "ng", PEER_LINES);
  g_assert_cmpint (sl_test_daemon_stop (&t->peer, SIGTERM), ==, 0);
}

/* Sluice sends to syslog-ng 3.38 listening for RFC 5425; syslog-ng checks
 * Sluice's client certificate (peer-verify(required-trusted)) and names it
 * in its own .tls.x509_cn, which 3.38 sets only on some messages of a
 * connection (those of the first reads), so cn.log is mostly empty lines. */
static const gchar syslog_ng_server[] =
  "@version: 3.38\n"
  "options { stats-freq(0); };\n"
  "source s_tls { syslog(ip(\"127.0.0.1\") port(@PORT@) transport(\"tls\")\n"
  "  tls(key-file(\"@PKI@/server.key\") cert-file(\"@PKI@/server.pem\") ca-file(\"@PKI@/ca.pem\")\n"
  "      peer-verify(required-trusted))); };\n"
  "destination d { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "destination d_cn { file(\"@DIR@/cn.log\" template(\"${.tls.x509_cn}\\n\")); };\n"
  "log { source(s_tls); destination(d); destination(d_cn); };\n";

static const gchar sender_to_syslog_ng[] =
  "@version: 4.0\n"
  "source s_in { tcp(ip(\"127.0.0.1\") port(@IN@)); };\n"
  "destination d_tls { syslog(\"localhost\" port(@PORT@) transport(\"tls\") time-reopen(1)\n"
  "  tls(ca-file(\"@PKI@/ca.pem\") key-file(\"@PKI@/client.key\") cert-file(\"@PKI@/client.pem\"))); };\n"
  "log { source(s_in); destination(d_tls); flags(flow-control); };\n";

static void
test_syslog_ng_server (Tls *t, gconstpointer data)
{
  if (!have (OPENSSL) || !have (SYSLOG_NG) || !make_pki (t))
    return;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  guint16 in = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_s = port_text (port);
  g_autofree gchar *in_s = port_text (in);
  g_autofree gchar *out = sl_test_path (&t->peer, "out.log");
  g_autoptr (GString) lines = numbered_lines ("to-ng", 1, PEER_LINES);
  if (!sl_test_write_config (&t->peer, syslog_ng_server, "PORT", port_s, "PKI", t->pki, NULL)
      || !start_syslog_ng (&t->peer) || !sl_test_wait_tcp (&t->peer, port)
      || !sl_test_write_config (&t->local, sender_to_syslog_ng, "PORT", port_s, "IN", in_s, "PKI", t->pki, NULL)
      || !sl_test_daemon_start (&t->local) || !sl_test_tcp_send (in, lines->str)
      || !sl_test_wait_lines (&t->peer, out, PEER_LINES))
    return;
  check_delivered (out, NULL, "to-ng", PEER_LINES);
  g_autofree gchar *cn_path = sl_test_path (&t->peer, "cn.log");
  g_autofree gchar *cn = sl_test_read_file (cn_path);
  g_assert_nonnull (strstr (cn, "client1\n"));
  g_assert_cmpint (sl_test_daemon_stop (&t->local, SIGTERM), ==, 0);
  g_assert_cmpint (sl_test_daemon_stop (&t->peer, SIGTERM), ==, 0);
}

/* An openssl s_client whose stdin the test writes; its output goes to
 * DIR/s_client.NAME.log. */
typedef struct
{
  GPid pid;
  gint in;
} Client;

static gboolean
client_start (Tls *t, Client *c, guint16 port, const gchar *name, const gchar *const *extra)
{
  g_autofree gchar *connect = g_strdup_printf ("127.0.0.1:%u", port);
  g_autofree gchar *ca = pki_path (t, "ca.pem");
  g_autofree gchar *cert = name ? g_strdup_printf ("%s/%s.pem", t->pki, name) : NULL;
  g_autofree gchar *key = name ? g_strdup_printf ("%s/%s.key", t->pki, name) : NULL;
  g_autofree gchar *log_name = g_strdup_printf ("s_client.%s.log", name ? name : "anonymous");
  g_autofree gchar *log_path = sl_test_path (&t->local, log_name);
  GPtrArray *argv = g_ptr_array_new ();
  const gchar *base[] = { OPENSSL, "s_client", "-connect", connect, "-CAfile", ca, "-verify_return_error",
                          "-quiet", "-no_ign_eof" };
  for (guint i = 0; i < G_N_ELEMENTS (base); i++)
    g_ptr_array_add (argv, (gpointer) base[i]);
  if (name)
    {
      g_ptr_array_add (argv, (gpointer) "-cert");
      g_ptr_array_add (argv, cert);
      g_ptr_array_add (argv, (gpointer) "-key");
      g_ptr_array_add (argv, key);
    }
  for (guint i = 0; extra && extra[i]; i++)
    g_ptr_array_add (argv, (gpointer) extra[i]);
  g_ptr_array_add (argv, NULL);
  gint log = open (log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  GError *error = NULL;
  gboolean ok = log >= 0 && g_spawn_async_with_pipes_and_fds (NULL, (const gchar *const *) argv->pdata, NULL,
                                                               G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, -1, log, log,
                                                               NULL, NULL, 0, &c->pid, &c->in, NULL, NULL, &error);
  if (log >= 0)
    close (log);
  g_ptr_array_unref (argv);
  if (!ok)
    {
      g_test_fail_printf ("cannot start openssl s_client: %s", error ? error->message : "no log file");
      g_clear_error (&error);
    }
  return ok;
}

/* Writes text; a client the server refused may be gone already. */
static void
client_write (Client *c, const gchar *text)
{
  gsize len = strlen (text);
  while (len)
    {
      gssize n = write (c->in, text, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return;
      text += n;
      len -= n;
    }
}

/* Ends its input, so it closes the session, and waits for it: the exit
 * status. */
static gint
client_finish (Client *c)
{
  close (c->in);
  gint status = 0;
  for (gint waited = 0; waitpid (c->pid, &status, WNOHANG) == 0; waited += 10)
    {
      if (waited >= SL_TEST_DEADLINE_MS)
        {
          kill (c->pid, SIGKILL);
          waitpid (c->pid, &status, 0);
          g_test_fail_printf ("openssl s_client did not end");
          break;
        }
      g_usleep (10 * 1000);
    }
  g_spawn_close_pid (c->pid);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

static gboolean
client_send (Tls *t, guint16 port, const gchar *name, const gchar *const *extra, const gchar *text)
{
  Client c;
  if (!client_start (t, &c, port, name, extra))
    return FALSE;
  client_write (&c, text);
  return client_finish (&c) == 0;
}

static const gchar s_client_config[] =
  "@version: 4.0\n"
  "source s_tls { network(ip(\"127.0.0.1\") port(@PORT@) transport(\"tls\")\n"
  "  tls(key-file(\"@PKI@/server.key\") cert-file(\"@PKI@/server.pem\") ca-file(\"@PKI@/ca.pem\"))); };\n"
  "destination d { file(\"@DIR@/out.log\" template(\"${.tls.x509_cn} ${MESSAGE} ${.tls.x509_fp}\\n\")); };\n"
  "log { source(s_tls); destination(d); };\n";

/* openssl s_client handshakes with TLS 1.2 and 1.3, checking the server's
 * certificate against the CA; the fingerprint is the one openssl shows. */
static void
test_s_client (Tls *t, gconstpointer data)
{
  if (!have (OPENSSL) || !make_pki (t))
    return;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_s = port_text (port);
  g_autofree gchar *out = sl_test_path (&t->local, "out.log");
  g_autofree gchar *client_pem = pki_path (t, "client.pem");
  const gchar *tls12[] = { "-tls1_2", NULL };
  const gchar *tls13[] = { "-tls1_3", NULL };
  if (!sl_test_write_config (&t->local, s_client_config, "PORT", port_s, "PKI", t->pki, NULL)
      || !sl_test_daemon_start (&t->local))
    return;
  g_assert_true (client_send (t, port, "client", tls12, "<13>Jan  1 00:00:00 host app: over 1.2\n"));
  g_assert_true (client_send (t, port, "client", tls13, "<13>Jan  1 00:00:00 host app: over 1.3\n"));
  if (!sl_test_wait_lines (&t->local, out, 2))
    return;
  const gchar *argv[] = { OPENSSL, "x509", "-in", client_pem, "-noout", "-fingerprint", "-sha1", NULL };
  g_autofree gchar *fp_out = NULL;
  g_assert_cmpint (sl_test_run_argv (argv, &fp_out, NULL), ==, 0);
  const gchar *eq = strchr (fp_out, '=');
  g_assert_nonnull (eq);
  g_autofree gchar *hex = g_strstrip (g_strdup (eq + 1));
  g_autofree gchar *fp = g_strdup_printf ("SHA1:%s", hex);
  g_autofree gchar *line12 = g_strdup_printf ("client1 over 1.2 %s\n", fp);
  g_autofree gchar *line13 = g_strdup_printf ("client1 over 1.3 %s\n", fp);
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_nonnull (strstr (text, line12));
  g_assert_nonnull (strstr (text, line13));
}

/* Two ports: one takes the CA's clients unless revoked (crl-dir), one
 * only client1's fingerprint; each refusal is logged once per peer and
 * reason, and a trusted client connected meanwhile loses nothing. */
static const gchar refusal_config[] =
  "@version: 4.0\n"
  "source s_tls { network(ip(\"127.0.0.1\") port(@PORT@) transport(\"tls\")\n"
  "  tls(key-file(\"@PKI@/server.key\") cert-file(\"@PKI@/server.pem\") ca-file(\"@PKI@/ca.pem\")\n"
  "      crl-dir(\"@PKI@/crl\") peer-verify(required-trusted))); };\n"
  "source s_keys { tcp(ip(\"127.0.0.1\") port(@KPORT@)\n"
  "  tls(key-file(\"@PKI@/server.key\") cert-file(\"@PKI@/server.pem\") ca-file(\"@PKI@/ca.pem\")\n"
  "      trusted-keys(\"@FP@\"))); };\n"
  "destination d { file(\"@DIR@/out.log\" template(\"${.tls.x509_cn} ${MESSAGE}\\n\")); };\n"
  "log { source(s_tls); source(s_keys); destination(d); };\n";

static void
test_refused (Tls *t, gconstpointer data)
{
  if (!have (OPENSSL) || !make_pki (t))
    return;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  guint16 kport = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_s = port_text (port);
  g_autofree gchar *kport_s = port_text (kport);
  g_autofree gchar *out = sl_test_path (&t->local, "out.log");
  g_autofree gchar *client_pem = pki_path (t, "client.pem");
  const gchar *argv[] = { OPENSSL, "x509", "-in", client_pem, "-noout", "-fingerprint", "-sha1", NULL };
  g_autofree gchar *fp_out = NULL;
  g_assert_cmpint (sl_test_run_argv (argv, &fp_out, NULL), ==, 0);
  g_autofree gchar *hex = g_strstrip (g_strdup (strchr (fp_out, '=') + 1));
  g_autofree gchar *fp = g_strdup_printf ("SHA1:%s", hex);
  if (!sl_test_write_config (&t->local, refusal_config, "PORT", port_s, "KPORT", kport_s, "PKI", t->pki,
                             "FP", fp, NULL)
      || !sl_test_daemon_start (&t->local))
    return;

  Client trusted;
  g_autoptr (GString) first = numbered_lines ("kept", 1, 100);
  g_autoptr (GString) second = numbered_lines ("kept", 101, 100);
  if (!client_start (t, &trusted, port, "client", NULL))
    return;
  client_write (&trusted, first->str);
  if (!sl_test_wait_lines (&t->local, out, 100))
    {
      client_finish (&trusted);
      return;
    }
  static const struct
  {
    const gchar *cert;
    gboolean fingerprint_port;
    const gchar *reason;
  } refused[] = {
    { NULL, FALSE, "reason='peer did not return a certificate'" },
    { "stranger", FALSE, "reason='unable to get local issuer certificate'" },
    { "expired", FALSE, "reason='certificate has expired'" },
    { "revoked", FALSE, "reason='certificate revoked'" },
    { "client2", TRUE, "reason='certificate fingerprint not in trusted-keys()'" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      client_send (t, refused[i].fingerprint_port ? kport : port, refused[i].cert, NULL,
                   "<13>Jan  1 00:00:00 host app: must not arrive\n");
      if (!sl_test_wait_stderr (&t->local, refused[i].reason))
        {
          client_finish (&trusted);
          return;
        }
    }
  /* the same peer refused again for the same reason: counted, not logged */
  client_send (t, port, NULL, NULL, "<13>Jan  1 00:00:00 host app: must not arrive\n");
  sl_test_wait_stat (&t->local, "source", NULL, "tls_refused", G_N_ELEMENTS (refused) + 1);

  client_write (&trusted, second->str);
  g_assert_cmpint (client_finish (&trusted), ==, 0);
  g_assert_true (client_send (t, kport, "client", NULL, "<13>Jan  1 00:00:00 host app: trusted key\n"));
  if (!sl_test_wait_lines (&t->local, out, 201))
    return;
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_null (strstr (text, "must not arrive"));
  g_assert_nonnull (strstr (text, "client1 trusted key\n"));
  g_autofree gchar *err = sl_test_daemon_stderr (&t->local);
  const gchar *once = strstr (err, refused[0].reason);
  g_assert_nonnull (once);
  g_assert_null (strstr (once + 1, refused[0].reason));
  g_assert_cmpint (sl_test_daemon_stop (&t->local, SIGTERM), ==, 0);
  check_delivered (out, "client1", "kept", 200);
}

static const gchar silent_config[] =
  "@version: 4.0\n"
  "source s_tls { network(ip(\"127.0.0.1\") port(@PORT@) transport(\"tls\")\n"
  "  tls(key-file(\"@PKI@/server.key\") cert-file(\"@PKI@/server.pem\") ca-file(\"@PKI@/ca.pem\")\n"
  "      handshake-timeout(1s))); };\n"
  "destination d { file(\"@DIR@/out.log\" template(\"${.tls.x509_cn} ${MESSAGE}\\n\")); };\n"
  "log { source(s_tls); destination(d); };\n";

/* A client that connects and never says a word is closed after the
 * handshake timeout; a client on the same worker goes on meanwhile. */
static void
test_silent_client (Tls *t, gconstpointer data)
{
  if (!have (OPENSSL) || !make_pki (t))
    return;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_s = port_text (port);
  g_autofree gchar *out = sl_test_path (&t->local, "out.log");
  if (!sl_test_write_config (&t->local, silent_config, "PORT", port_s, "PKI", t->pki, NULL)
      || !sl_test_daemon_start_with_args (&t->local, "--io-threads", "1", NULL))
    return;
  gint silent = sl_test_tcp_connect (port);
  if (silent < 0)
    return;
  g_autoptr (GString) lines = numbered_lines ("talk", 1, 50);
  g_assert_true (client_send (t, port, "client", NULL, lines->str));
  if (!sl_test_wait_lines (&t->local, out, 50))
    {
      close (silent);
      return;
    }
  check_delivered (out, "client1", "talk", 50);
  /* the harness's socket times out after the deadline: a read that ends
   * with 0 is the daemon closing it */
  gchar byte;
  gssize n = recv (silent, &byte, 1, 0);
  close (silent);
  g_assert_cmpint (n, ==, 0);
  g_assert_true (sl_test_wait_stderr (&t->local, "reason='no handshake within handshake-timeout()'"));
}

static const gchar unstarted_config[] =
  "@version: 4.0\n"
  "source s_tls { network(ip(\"127.0.0.1\") port(@PORT@) transport(\"tls\")\n"
  "  tls(key-file(\"@PKI@/server.key\") cert-file(\"@PKI@/server.pem\") ca-file(\"@PKI@/ca.pem\")\n"
  "      peer-verify(required-trusted))); };\n"
  "destination d { file(\"@DIR@/out.log\" template(\"${.tls.x509_cn} ${MESSAGE}\\n\")); };\n"
  "log { source(s_tls); destination(d); };\n";

#define UNSTARTED 200

/* A connection begun without waiting for the daemon to accept it. */
static gint
connect_nowait (guint16 port)
{
  gint fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (port),
                              .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  if (fd >= 0 && (connect (fd, (struct sockaddr *) &addr, sizeof addr) == 0 || errno == EINPROGRESS))
    return fd;
  g_test_fail_printf ("cannot connect to 127.0.0.1:%u: %s", port, g_strerror (errno));
  if (fd >= 0)
    close (fd);
  return -1;
}

/* Two hundred connections that never start their handshake hold every
 * place of the default max-connections() before a trusted client comes:
 * they make room for it rather than keep it waiting for their
 * handshake-timeout(). */
static void
run_unstarted (Tls *t, guint16 port, gint *fds)
{
  g_autofree gchar *out = sl_test_path (&t->local, "out.log");
  for (guint i = 0; i < UNSTARTED; i++)
    if ((fds[i] = connect_nowait (port)) < 0)
      return;
  if (!sl_test_wait_stat_at_least (&t->local, "source", "s_tls", "connections", 10))
    return;
  gint64 start = g_get_monotonic_time ();
  g_autoptr (GString) lines = numbered_lines ("trusted", 1, 50);
  g_assert_true (client_send (t, port, "client", NULL, lines->str));
  if (!sl_test_wait_lines (&t->local, out, 50))
    return;
  g_test_message ("the trusted client got in %.1f s after %u unstarted handshakes",
                  (g_get_monotonic_time () - start) / 1e6, UNSTARTED);
  check_delivered (out, "client1", "trusted", 50);
  g_assert_cmpint (sl_test_stat (&t->local, "source", "s_tls", "evicted_no_message"), >=, 1);
}

static void
test_unstarted_handshakes (Tls *t, gconstpointer data)
{
  if (!have (OPENSSL) || !make_pki (t))
    return;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_s = port_text (port);
  if (!sl_test_write_config (&t->local, unstarted_config, "PORT", port_s, "PKI", t->pki, NULL)
      || !sl_test_daemon_start (&t->local))
    return;
  gint fds[UNSTARTED];
  for (guint i = 0; i < UNSTARTED; i++)
    fds[i] = -1;
  run_unstarted (t, port, fds);
  for (guint i = 0; i < UNSTARTED; i++)
    if (fds[i] >= 0)
      close (fds[i]);
}

/* Files that cannot be used are configuration errors with the position
 * of the option. */
static void
test_config_errors (Tls *t, gconstpointer data)
{
  if (!have (OPENSSL) || !make_pki (t))
    return;
  static const struct
  {
    const gchar *tls;
    const gchar *message;
  } cases[] = {
    { "key-file(\"@PKI@/server.key\") cert-file(\"@PKI@/missing.pem\")", "cert-file() '" },
    { "key-file(\"@PKI@/client.key\") cert-file(\"@PKI@/server.pem\")", "the key does not belong to cert-file()" },
    { "key-file(\"@PKI@/server.key\") cert-file(\"@PKI@/ca.cnf\")", "cannot read the certificate" },
    { "cert-file(\"@PKI@/server.pem\")", "key-file() and cert-file() go together" },
    { "key-file(\"@PKI@/server.key\") cert-file(\"@PKI@/server.pem\") peer-verify(maybe)",
      "'maybe' is not a value of peer-verify()" },
    { "key-file(\"@PKI@/server.key\") cert-file(\"@PKI@/server.pem\") crl-dir(\"@PKI@/none\")", "no such folder" },
    { "key-file(\"@PKI@/server.key\") cert-file(\"@PKI@/server.pem\") cipher-suite(\"NOTHING\")",
      "no cipher of the list can be used" },
    { "key-file(\"@PKI@/server.key\") cert-file(\"@PKI@/server.pem\") key-fil(\"x\")", "unknown option 'key-fil'" },
  };
  const gchar *module_path = sl_test_module_path ();
  if (!module_path)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree gchar *config = g_strdup_printf ("@version: 4.0\n"
                                                  "source s { network(port(1) transport(\"tls\")\n"
                                                  "  tls(%s)); };\n"
                                                  "destination d { file(\"/dev/null\"); };\n"
                                                  "log { source(s); destination(d); };\n", cases[i].tls);
      g_autofree gchar *err = NULL;
      if (!sl_test_write_config (&t->local, config, "PKI", t->pki, NULL))
        return;
      gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "-f", t->local.config,
                                       "--module-path", module_path, NULL);
      g_assert_cmpint (status, ==, 1);
      if (!strstr (err, "sluice.conf:3:") || !strstr (err, cases[i].message))
        g_test_fail_printf ("%s: expected sluice.conf:3: and '%s' in:\n%s", cases[i].tls, cases[i].message, err);
    }
}

gint
main (gint argc, gchar **argv)
{
  sl_test_init (&argc, &argv);
  TLS_TEST_ADD ("/tls/sluice-to-sluice", test_sluice_to_sluice);
  TLS_TEST_ADD ("/tls/trusted-names", test_trusted_names);
  TLS_TEST_ADD ("/tls/syslog-ng-client", test_syslog_ng_client);
  TLS_TEST_ADD ("/tls/syslog-ng-server", test_syslog_ng_server);
  TLS_TEST_ADD ("/tls/s_client", test_s_client);
  TLS_TEST_ADD ("/tls/refused", test_refused);
  TLS_TEST_ADD ("/tls/silent-client", test_silent_client);
  TLS_TEST_ADD ("/tls/unstarted-handshakes", test_unstarted_handshakes);
  TLS_TEST_ADD ("/tls/config-errors", test_config_errors);
  return g_test_run ();
}
