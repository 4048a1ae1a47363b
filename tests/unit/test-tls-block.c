/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/tls-block: the tls() block read once for every TLS library: the
 * defaults, the versions ssl-options() and ssl-version() leave, the
 * options written in a driver's own block, and each option a library
 * cannot do refused at its position. */
#include "core/io/tls-block.h"
#include "core/config/error.h"

#include <string.h>

static SlCfgPos
at (gint line, gint column)
{
  return (SlCfgPos) { sl_cfg_intern_file ("test.conf"), line, column, NULL };
}

/* A tls() block: pairs of option and value, NULL-terminated; option i is
 * written on line i + 2. */
static SlCfgNode *
block (const gchar *first, ...)
{
  SlCfgNode *node = sl_cfg_node_new ("tls", at (1, 1));
  va_list ap;
  va_start (ap, first);
  gint line = 2;
  for (const gchar *name = first; name; name = va_arg (ap, const gchar *), line++)
    {
      SlCfgNode *child = sl_cfg_node_new (name, at (line, 3));
      sl_cfg_node_add_arg (child, SL_CFG_ARG_STRING, va_arg (ap, const gchar *), at (line, 10));
      sl_cfg_node_add_child (node, child);
    }
  va_end (ap);
  return node;
}

static SlTlsBlock *
read_block (SlCfgNode *node, SlTlsCan can, GError **error)
{
  SlTlsBlock *b = sl_tls_block_new ("http()", node, NULL, can, "libtest", at (1, 1), error);
  return b;
}

static void
test_defaults (void)
{
  GError *error = NULL;
  SlTlsBlock *b = read_block (NULL, 0, &error);
  g_assert_no_error (error);
  const SlTlsSettings *s = sl_tls_block_settings (b);
  g_assert_true (s->verify_trusted);
  g_assert_true (s->require_cert);
  g_assert_true (s->system_store);
  g_assert_false (s->sni);
  g_assert_cmpint (s->min_version, ==, SL_TLS_VERSION_1_2);
  g_assert_cmpint (s->max_version, ==, SL_TLS_VERSION_1_3);
  g_assert_null (s->ca_file);
  g_assert_false (sl_tls_block_written (b));
  sl_tls_block_free (b);
}

static void
test_values (void)
{
  GError *error = NULL;
  SlCfgNode *node = block ("ca-file", "/ca.pem", "cert-file", "/c.pem", "key-file", "/c.key", "peer-verify", "no",
                           "cipher-suite", "HIGH", NULL);
  SlTlsBlock *b = read_block (node, SL_TLS_CAN_CIPHER_SUITE, &error);
  g_assert_no_error (error);
  const SlTlsSettings *s = sl_tls_block_settings (b);
  g_assert_cmpstr (s->ca_file, ==, "/ca.pem");
  g_assert_cmpstr (s->cert_file, ==, "/c.pem");
  g_assert_cmpstr (s->key_file, ==, "/c.key");
  g_assert_cmpstr (s->cipher_suite, ==, "HIGH");
  g_assert_false (s->verify_trusted);
  /* a CA given: the system's store only when asked for */
  g_assert_false (s->system_store);
  g_assert_true (sl_tls_block_written (b));
  sl_tls_block_free (b);
  sl_cfg_node_free (node);
}

static void
versions_of (const gchar *option, const gchar *value, SlTlsVersion min, SlTlsVersion max)
{
  GError *error = NULL;
  SlCfgNode *node = block (option, value, NULL);
  SlTlsBlock *b = read_block (node, SL_TLS_CAN_VERSIONS, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sl_tls_block_settings (b)->min_version, ==, min);
  g_assert_cmpint (sl_tls_block_settings (b)->max_version, ==, max);
  sl_tls_block_free (b);
  sl_cfg_node_free (node);
}

static void
test_versions (void)
{
  versions_of ("ssl-version", "tlsv1_1", SL_TLS_VERSION_1_1, SL_TLS_VERSION_1_3);
  versions_of ("ssl-version", "tlsv1_3", SL_TLS_VERSION_1_3, SL_TLS_VERSION_1_3);
  versions_of ("ssl-options", "no-tlsv13", SL_TLS_VERSION_1_0, SL_TLS_VERSION_1_2);
  versions_of ("ssl-options", "no-tlsv1", SL_TLS_VERSION_1_1, SL_TLS_VERSION_1_3);
  /* a gap ends the versions taken, as OpenSSL reads one */
  versions_of ("ssl-options", "no-tlsv11", SL_TLS_VERSION_1_0, SL_TLS_VERSION_1_0);
}

/* The error of node read with can, as "line:column: message". */
static gchar *
refusal (SlCfgNode *node, SlTlsCan can)
{
  GError *error = NULL;
  SlTlsBlock *b = read_block (node, can, &error);
  sl_cfg_node_free (node);
  g_assert_null (b);
  g_assert_nonnull (error);
  gchar *text = g_strdup (error->message);
  g_error_free (error);
  return text;
}

static void
assert_refused (SlCfgNode *node, SlTlsCan can, const gchar *expected)
{
  g_autofree gchar *text = refusal (node, can);
  if (!strstr (text, expected))
    g_error ("'%s' does not hold '%s'", text, expected);
}

static void
test_refused (void)
{
  assert_refused (block ("ca-file", "/ca.pem", "crl-dir", "/crl", NULL), SL_TLS_CAN_ALL & ~SL_TLS_CAN_CRL_DIR,
                  "test.conf:3:3: http() tls(): crl-dir() cannot be used here: libtest does not offer it");
  assert_refused (block ("trusted-keys", "SHA1:00", NULL), SL_TLS_CAN_CA_DIR,
                  "test.conf:2:3: http() tls(): trusted-keys() cannot be used here");
  assert_refused (block ("ca-file", "/ca.pem", "use-system-cert-store", "yes", NULL), 0,
                  "test.conf:3:3: http() tls(): use-system-cert-store() cannot be used with ca-file()");
  assert_refused (block ("sni", "no", NULL), 0, "test.conf:2:3: http() tls(): sni() cannot be no here");
  assert_refused (block ("ssl-options", "no-tlsv13", NULL), SL_TLS_CAN_LOWEST_VERSION,
                  "test.conf:2:3: http() tls(): ssl-options() cannot be used so here");
  assert_refused (block ("ssl-version", "tlsv1_2", NULL), 0,
                  "test.conf:2:3: http() tls(): ssl-version() cannot be used here");
  assert_refused (block ("ssl-version", "tlsv1_2", "ssl-options", "no-sslv3", NULL), SL_TLS_CAN_ALL,
                  "test.conf:2:3: http() tls(): ssl-version() and ssl-options() both bound the versions");
  assert_refused (block ("cert-file", "/c.pem", NULL), SL_TLS_CAN_ALL,
                  "test.conf:2:3: http() tls(): key-file() and cert-file() go together");
  assert_refused (block ("peer-verify", "maybe", NULL), SL_TLS_CAN_ALL, "test.conf:2:");
}

static void
test_accepted_where_the_library_can (void)
{
  GError *error = NULL;
  SlCfgNode *node = block ("ssl-version", "tlsv1_1", "sni", "yes", "use-system-cert-store", "yes", NULL);
  SlTlsBlock *b = read_block (node, SL_TLS_CAN_LOWEST_VERSION, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sl_tls_block_settings (b)->min_version, ==, SL_TLS_VERSION_1_1);
  g_assert_true (sl_tls_block_settings (b)->sni);
  sl_tls_block_free (b);
  sl_cfg_node_free (node);
}

/* ca-file() written in the driver's own block, as syslog-ng 3's http()
 * takes it; the one in tls() wins. */
static void
test_inline (void)
{
  static const SlOptionSpec driver_options[] = { SL_TLS_INLINE_OPTIONS, { NULL } };
  const SlOptionSpec *const tables[] = { driver_options, NULL };
  SlCfgNode *driver = sl_cfg_node_new ("http", at (1, 1));
  SlCfgNode *child = sl_cfg_node_new ("ca-file", at (2, 3));
  sl_cfg_node_add_arg (child, SL_CFG_ARG_STRING, "/inline.pem", at (2, 11));
  sl_cfg_node_add_child (driver, child);
  child = sl_cfg_node_new ("cert-file", at (3, 3));
  sl_cfg_node_add_arg (child, SL_CFG_ARG_STRING, "/inline-cert.pem", at (3, 13));
  sl_cfg_node_add_child (driver, child);
  GError *error = NULL;
  SlOptions *o = sl_options_new ("http()", tables, NULL, driver, NULL, &error);
  g_assert_no_error (error);

  SlCfgNode *node = block ("key-file", "/c.key", "ca-file", "/tls.pem", NULL);
  SlTlsBlock *b = sl_tls_block_new ("http()", node, o, 0, "libtest", at (1, 1), &error);
  g_assert_no_error (error);
  const SlTlsSettings *s = sl_tls_block_settings (b);
  g_assert_cmpstr (s->ca_file, ==, "/tls.pem");
  g_assert_cmpstr (s->cert_file, ==, "/inline-cert.pem");
  g_assert_cmpint (sl_tls_block_pos (b, "cert-file").line, ==, 3);
  sl_tls_block_free (b);
  sl_cfg_node_free (node);

  /* inline alone, and refused at its own position */
  child = sl_cfg_node_new ("cipher-suite", at (4, 3));
  sl_cfg_node_add_arg (child, SL_CFG_ARG_STRING, "HIGH", at (4, 16));
  sl_cfg_node_add_child (driver, child);
  sl_options_free (o);
  o = sl_options_new ("http()", tables, NULL, driver, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (sl_tls_block_new ("http()", NULL, o, 0, "libtest", at (1, 1), &error));
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, "test.conf:4:3: http() tls(): cipher-suite() cannot be used"));
  g_clear_error (&error);
  sl_options_free (o);
  sl_cfg_node_free (driver);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tls-block/defaults", test_defaults);
  g_test_add_func ("/tls-block/values", test_values);
  g_test_add_func ("/tls-block/versions", test_versions);
  g_test_add_func ("/tls-block/refused", test_refused);
  g_test_add_func ("/tls-block/accepted-where-the-library-can", test_accepted_where_the_library_can);
  g_test_add_func ("/tls-block/inline", test_inline);
  return g_test_run ();
}
