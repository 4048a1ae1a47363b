/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/tls on a socketpair, with certificates made by the openssl command
 * in a temporary folder: contexts from tls() blocks and their errors, a
 * non-blocking handshake with mutual authentication, data both ways of
 * the plaintext/record mapping the resend backlog uses, the peer's
 * certificate fields on a message, and a refusal with its reason. */
#include "core/io/tls.h"
#include "core/config/error.h"

#include <glib/gstdio.h>

#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct
{
  gchar *dir;
  gint fds[2];
} Fixture;

static gboolean
openssl (const gchar *dir, const gchar *command)
{
  g_autofree gchar *line = g_strdup_printf ("openssl %s", command);
  gchar **argv = NULL;
  g_assert_true (g_shell_parse_argv (line, NULL, &argv, NULL));
  gint status = -1;
  gboolean ok = g_spawn_sync (dir, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL
                              | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL)
                && g_spawn_check_wait_status (status, NULL);
  g_strfreev (argv);
  return ok;
}

#define EC "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->dir = g_dir_make_tmp ("sluice-tls-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  g_assert_true (openssl (f->dir, "req -x509 -new " EC " -keyout ca.key -out ca.pem -days 2 -subj /CN=CA"));
  g_assert_true (openssl (f->dir, "req -new " EC " -keyout server.key -out server.csr -subj /CN=localhost"
                                  " -addext subjectAltName=DNS:localhost"));
  g_assert_true (openssl (f->dir, "x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial"
                                  " -copy_extensions copy -days 2 -out server.pem"));
  g_assert_true (openssl (f->dir, "req -new " EC " -keyout client.key -out client.csr"
                                  " -subj /O=Sluice/OU=Tests/CN=client1"));
  g_assert_true (openssl (f->dir, "x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial"
                                  " -days 2 -out client.pem"));
  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, f->fds), ==, 0);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  close (f->fds[0]);
  close (f->fds[1]);
  GDir *d = g_dir_open (f->dir, 0, NULL);
  for (const gchar *name; d && (name = g_dir_read_name (d));)
    {
      g_autofree gchar *path = g_build_filename (f->dir, name, NULL);
      g_unlink (path);
    }
  if (d)
    g_dir_close (d);
  g_rmdir (f->dir);
  g_free (f->dir);
}

/* A tls() block: pairs of option and value, NULL-terminated; @D@ in a
 * value stands for the fixture's folder. */
static SlCfgNode *
block (Fixture *f, ...)
{
  SlCfgPos pos = { sl_cfg_intern_file ("test.conf"), 1, 1, NULL };
  SlCfgNode *node = sl_cfg_node_new ("tls", pos);
  va_list ap;
  va_start (ap, f);
  for (const gchar *name; (name = va_arg (ap, const gchar *));)
    {
      GString *value = g_string_new (va_arg (ap, const gchar *));
      g_string_replace (value, "@D@", f->dir, 0);
      SlCfgNode *child = sl_cfg_node_new (name, pos);
      sl_cfg_node_add_arg (child, SL_CFG_ARG_STRING, value->str, pos);
      sl_cfg_node_add_child (node, child);
      g_string_free (value, TRUE);
    }
  va_end (ap);
  return node;
}

static SlTlsContext *
context (SlTlsRole role, SlCfgNode *node, GError **error)
{
  SlCfgPos pos = { sl_cfg_intern_file ("test.conf"), 1, 1, NULL };
  SlTlsContext *ctx = sl_tls_context_new ("network()", role, node, pos, error);
  sl_cfg_node_free (node);
  return ctx;
}

static SlTlsContext *
server_context (Fixture *f)
{
  GError *error = NULL;
  SlTlsContext *ctx = context (SL_TLS_SERVER, block (f, "key-file", "@D@/server.key", "cert-file", "@D@/server.pem",
                                                     "ca-file", "@D@/ca.pem", NULL), &error);
  g_assert_no_error (error);
  return ctx;
}

/* Drives both handshakes until neither wants more; each side's status. */
static void
handshake (SlTls *server, SlTls *client, SlTlsStatus *s, SlTlsStatus *c)
{
  *s = *c = SL_TLS_WANT_READ;
  for (guint turns = 0; turns < 100; turns++)
    {
      if (*c != SL_TLS_DONE && *c != SL_TLS_FAILED)
        *c = sl_tls_handshake (client);
      if (*s != SL_TLS_DONE && *s != SL_TLS_FAILED)
        *s = sl_tls_handshake (server);
      if ((*s == SL_TLS_DONE || *s == SL_TLS_FAILED) && (*c == SL_TLS_DONE || *c == SL_TLS_FAILED))
        return;
    }
}

static void
test_errors (Fixture *f, gconstpointer data)
{
  static const struct
  {
    const gchar *option, *value, *message;
  } cases[] = {
    { "cert-file", "@D@/none.pem", "cert-file() '" },
    { "ca-file", "@D@/none.pem", "no such file" },
    { "ssl-options", "no-tlsv4", "unknown flag 'no-tlsv4' in ssl-options()" },
    { "peer-verify", "sometimes", "'sometimes' is not a value of peer-verify()" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GError *error = NULL;
      SlCfgNode *node = strcmp (cases[i].option, "cert-file") == 0
                        ? block (f, "key-file", "@D@/server.key", cases[i].option, cases[i].value, NULL)
                        : block (f, "key-file", "@D@/server.key", "cert-file", "@D@/server.pem",
                                 cases[i].option, cases[i].value, NULL);
      g_assert_null (context (SL_TLS_SERVER, node, &error));
      g_assert_nonnull (error);
      if (!strstr (error->message, cases[i].message) || !strstr (error->message, "test.conf:1:1"))
        g_test_fail_printf ("%s(%s): '%s' not in %s", cases[i].option, cases[i].value, cases[i].message,
                            error->message);
      g_error_free (error);
    }
}

/* Both sides authenticate; data goes through; the acknowledged plaintext
 * follows the record bytes the kernel still holds. */
static void
test_mutual (Fixture *f, gconstpointer data)
{
  GError *error = NULL;
  SlTlsContext *sctx = server_context (f);
  SlTlsContext *cctx = context (SL_TLS_CLIENT, block (f, "ca-file", "@D@/ca.pem", "key-file", "@D@/client.key",
                                                      "cert-file", "@D@/client.pem", "sni", "yes", NULL), &error);
  g_assert_no_error (error);
  SlTls *server = sl_tls_new (sctx, f->fds[0], NULL);
  SlTls *client = sl_tls_new (cctx, f->fds[1], "localhost");
  SlTlsStatus s, c;
  handshake (server, client, &s, &c);
  g_assert_cmpint (c, ==, SL_TLS_DONE);
  g_assert_cmpint (s, ==, SL_TLS_DONE);
  g_assert_cmpstr (sl_tls_peer_cn (server), ==, "client1");
  g_assert_cmpstr (sl_tls_peer_cn (client), ==, "localhost");

  SlTlsStatus status;
  gsize total = 0;
  for (guint i = 0; i < 3; i++)
    total += sl_tls_write (client, "hello, relay\n", 13, &status);
  g_assert_cmpuint (total, ==, 39);
  g_assert_cmpuint (sl_tls_unacked (client, 1), ==, 13);
  g_assert_cmpuint (sl_tls_unacked (client, 0), ==, 0);

  gchar buf[256];
  gsize n = sl_tls_read (server, buf, sizeof buf, &status);
  g_assert_cmpuint (n, ==, 39);
  g_assert_cmpint (status, ==, SL_TLS_WANT_READ);
  g_assert_false (sl_tls_pending (server));
  g_assert_cmpint (memcmp (buf, "hello, relay\nhello, relay\n", 26), ==, 0);

  SlMessage *msg = sl_message_new ("x", 1);
  sl_tls_set_fields (server, msg);
  static const struct { const gchar *field, *value; } fields[] = {
    { ".tls.x509_cn", "client1" }, { ".tls.x509_o", "Sluice" }, { ".tls.x509_ou", "Tests" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      gsize len;
      const gchar *v = sl_message_get (msg, sl_field_handle (fields[i].field), &len);
      g_assert_cmpmem (v, len, fields[i].value, strlen (fields[i].value));
    }
  gsize len;
  const gchar *fp = sl_message_get (msg, sl_field_handle (".tls.x509_fp"), &len);
  /* "SHA1", then ":XX" for each of the 20 bytes */
  g_assert_cmpuint (len, ==, 4 + 20 * 3);
  g_assert_true (g_str_has_prefix (fp, "SHA1:"));
  sl_message_unref (msg);

  sl_tls_close_notify (client);
  n = sl_tls_read (server, buf, sizeof buf, &status);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpint (status, ==, SL_TLS_CLOSED);
  sl_tls_free (server);
  sl_tls_free (client);
  sl_tls_context_unref (sctx);
  sl_tls_context_unref (cctx);
}

/* A client without a certificate is refused under required-trusted, and
 * the server says why; a client that expects another name refuses the
 * server. */
static void
test_refusals (Fixture *f, gconstpointer data)
{
  GError *error = NULL;
  SlTlsContext *sctx = server_context (f);
  SlTlsContext *cctx = context (SL_TLS_CLIENT, block (f, "ca-file", "@D@/ca.pem", NULL), &error);
  g_assert_no_error (error);
  SlTls *server = sl_tls_new (sctx, f->fds[0], NULL);
  SlTls *client = sl_tls_new (cctx, f->fds[1], "localhost");
  SlTlsStatus s, c;
  handshake (server, client, &s, &c);
  g_assert_cmpint (s, ==, SL_TLS_FAILED);
  g_assert_cmpstr (sl_tls_failure (server), ==, "peer did not return a certificate");
  sl_tls_free (server);
  sl_tls_free (client);

  gint fds[2];
  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds), ==, 0);
  server = sl_tls_new (sctx, fds[0], NULL);
  client = sl_tls_new (cctx, fds[1], "logs.example.org");
  handshake (server, client, &s, &c);
  g_assert_cmpint (c, ==, SL_TLS_FAILED);
  g_assert_cmpstr (sl_tls_failure (client), ==, "hostname mismatch");
  sl_tls_free (server);
  sl_tls_free (client);
  close (fds[0]);
  close (fds[1]);
  sl_tls_context_unref (sctx);
  sl_tls_context_unref (cctx);
}

/* A server without key-file() and cert-file() is made, as syslog-ng makes
 * one, and every handshake with it fails. */
static void
test_server_without_identity (Fixture *f, gconstpointer data)
{
  GError *error = NULL;
  SlTlsContext *sctx = context (SL_TLS_SERVER, block (f, "ca-file", "@D@/ca.pem", NULL), &error);
  g_assert_no_error (error);
  SlTlsContext *cctx = context (SL_TLS_CLIENT, block (f, "ca-file", "@D@/ca.pem", NULL), &error);
  g_assert_no_error (error);
  SlTls *server = sl_tls_new (sctx, f->fds[0], NULL);
  SlTls *client = sl_tls_new (cctx, f->fds[1], "localhost");
  SlTlsStatus s, c;
  handshake (server, client, &s, &c);
  g_assert_cmpint (s, ==, SL_TLS_FAILED);
  g_assert_cmpint (c, ==, SL_TLS_FAILED);
  sl_tls_free (server);
  sl_tls_free (client);
  sl_tls_context_unref (sctx);
  sl_tls_context_unref (cctx);
}

gint
main (gint argc, gchar **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/tls/errors", Fixture, NULL, fixture_setup, test_errors, fixture_teardown);
  g_test_add ("/tls/mutual", Fixture, NULL, fixture_setup, test_mutual, fixture_teardown);
  g_test_add ("/tls/refusals", Fixture, NULL, fixture_setup, test_refusals, fixture_teardown);
  g_test_add ("/tls/server-without-identity", Fixture, NULL, fixture_setup, test_server_without_identity,
              fixture_teardown);
  return g_test_run ();
}
