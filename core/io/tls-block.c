/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/io/tls-block.h"
#include "core/config/error.h"
#include "core/i18n.h"

#include <string.h>

enum
{
  VERIFY_REQUIRED_TRUSTED,
  VERIFY_REQUIRED_UNTRUSTED,
  VERIFY_OPTIONAL_TRUSTED,
  VERIFY_OPTIONAL_UNTRUSTED,
};

static const SlOptionWord verify_words[] = {
  { "required-trusted", VERIFY_REQUIRED_TRUSTED },
  { "required-untrusted", VERIFY_REQUIRED_UNTRUSTED },
  { "optional-trusted", VERIFY_OPTIONAL_TRUSTED },
  { "optional-untrusted", VERIFY_OPTIONAL_UNTRUSTED },
  /* syslog-ng's older spelling, and http()'s and mqtt()'s */
  { "yes", VERIFY_REQUIRED_TRUSTED },
  { "no", VERIFY_OPTIONAL_UNTRUSTED },
  { NULL }
};

/* ssl-options(): each word refuses one version */
enum
{
  NO_SSLV2 = 1 << 0,
  NO_SSLV3 = 1 << 1,
  NO_TLSV1 = 1 << 2,
  NO_TLSV11 = 1 << 3,
  NO_TLSV12 = 1 << 4,
  NO_TLSV13 = 1 << 5,
};

static const SlOptionWord ssl_option_words[] = {
  { "no-sslv2", NO_SSLV2 },
  { "no-sslv3", NO_SSLV3 },
  { "no-tlsv1", NO_TLSV1 },
  { "no-tlsv11", NO_TLSV11 },
  { "no-tlsv12", NO_TLSV12 },
  { "no-tlsv13", NO_TLSV13 },
  { NULL }
};

/* ssl-version(): the lowest version, as http() and mqtt() spell it;
 * 0 leaves the bounds to ssl-options() */
static const SlOptionWord ssl_version_words[] = {
  { "default", 0 },
  { "tlsv1", SL_TLS_VERSION_1_0 },
  { "tlsv1_0", SL_TLS_VERSION_1_0 },
  { "tlsv1_1", SL_TLS_VERSION_1_1 },
  { "tlsv1_2", SL_TLS_VERSION_1_2 },
  { "tlsv1_3", SL_TLS_VERSION_1_3 },
  { NULL }
};

typedef struct
{
  const gchar *key_file;
  const gchar *cert_file;
  const gchar *ca_file;
  const gchar *ca_dir;
  const gchar *crl_dir;
  const gchar *key_passphrase;
  gint peer_verify;
  GPtrArray *trusted_keys;
  GPtrArray *trusted_dn;
  GPtrArray *trusted_names;
  const gchar *cipher_suite;
  guint32 ssl_options;
  gint ssl_version;
  gboolean use_system_cert_store;
  gboolean sni;
  gint64 handshake_timeout_ms;
} TlsOptions;

const SlOptionSpec sl_tls_options[] = {
  { "key-file", SL_STRING (TlsOptions, key_file), NULL, "the private key (PEM)" },
  { "cert-file", SL_STRING (TlsOptions, cert_file), NULL, "our certificate, and its chain after it (PEM)" },
  { "ca-file", SL_STRING (TlsOptions, ca_file), NULL, "certificates of the CAs that sign peers' certificates (PEM)" },
  { "ca-dir", SL_STRING (TlsOptions, ca_dir), NULL, "a folder of CA certificates named by hash (openssl rehash)" },
  { "crl-dir", SL_STRING (TlsOptions, crl_dir), NULL,
    "a folder of revocation lists named by hash (HASH.r0); every CA then needs its CRL" },
  { "key-passphrase", SL_STRING (TlsOptions, key_passphrase), NULL,
    "the passphrase of an encrypted key-file() (syslog-ng asks for it through syslog-ng-ctl credentials)" },
  { "peer-verify", SL_CHOICE (TlsOptions, peer_verify), "required-trusted",
    "whether the peer must show a certificate, and whether it must be valid (yes: required-trusted, "
    "no: optional-untrusted)", .words = verify_words },
  { "trusted-keys", SL_LIST (TlsOptions, trusted_keys), NULL,
    "the only peer certificates taken, by fingerprint: \"SHA1:AB:CD:...\"" },
  { "trusted-dn", SL_LIST (TlsOptions, trusted_dn), NULL,
    "the only peer subjects taken, as patterns: \"*, O=Example, C=*\"" },
  { "trusted-names", SL_LIST (TlsOptions, trusted_names), NULL,
    "the host names the peer's certificate must carry one of (a dNSName alternative name or its common name), "
    "instead of the name a destination connects to; each label of a pattern is the same, *, *end or start*, as "
    "rsyslog's permitted peers of x509/name" },
  { "cipher-suite", SL_STRING (TlsOptions, cipher_suite), NULL, "OpenSSL cipher list for TLS 1.2 and older" },
  { "ssl-options", SL_FLAGS (TlsOptions, ssl_options), "no-sslv2, no-sslv3, no-tlsv1, no-tlsv11",
    "protocol versions refused; the default takes TLS 1.2 and 1.3", .words = ssl_option_words },
  { "ssl-version", SL_CHOICE (TlsOptions, ssl_version), "default",
    "the lowest protocol version, instead of ssl-options()", .words = ssl_version_words },
  { "use-system-cert-store", SL_BOOL (TlsOptions, use_system_cert_store), "no",
    "also trust the system's CA store beside ca-file() and ca-dir() (without either it is trusted anyway)" },
  { "sni", SL_BOOL (TlsOptions, sni), "no", "destinations: name the host in the handshake (server name indication)" },
  { "handshake-timeout", SL_DURATION (TlsOptions, handshake_timeout_ms), "5s",
    "sources: a client that has not finished its handshake by then is closed; at max-connections() one that has not started it makes room for a newcomer first",
    SL_RANGE (1, G_MAXINT64) },
  { NULL }
};

/* The options a library may lack, and what it must be able to do for each. */
static const struct
{
  const gchar *name;
  SlTlsCan needs;
} optional_options[] = {
  { "ca-dir", SL_TLS_CAN_CA_DIR },
  { "crl-dir", SL_TLS_CAN_CRL_DIR },
  { "key-passphrase", SL_TLS_CAN_KEY_PASSPHRASE },
  { "trusted-keys", SL_TLS_CAN_TRUSTED_PEERS },
  { "trusted-dn", SL_TLS_CAN_TRUSTED_PEERS },
  { "trusted-names", SL_TLS_CAN_TRUSTED_PEERS },
  { "cipher-suite", SL_TLS_CAN_CIPHER_SUITE },
  { "ssl-options", SL_TLS_CAN_VERSIONS | SL_TLS_CAN_LOWEST_VERSION },
  { "ssl-version", SL_TLS_CAN_VERSIONS | SL_TLS_CAN_LOWEST_VERSION },
  { "handshake-timeout", SL_TLS_CAN_HANDSHAKE_TIMEOUT },
};

struct _SlTlsBlock
{
  SlCfgNode merged;          /* the inline options, then tls()'s children: borrowed */
  SlOptions *options;
  TlsOptions values;
  SlTlsSettings settings;
  SlCfgPos driver_pos;
};

static gboolean
inline_option (const gchar *name)
{
  static const gchar *const names[] = {
    "ca-file", "ca-dir", "cert-file", "key-file", "peer-verify", "cipher-suite", "ssl-version",
    "use-system-cert-store",
  };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (sl_cfg_name_equal (name, names[i]))
      return TRUE;
  return FALSE;
}

/* One node to check, whose children are the inline options written and
 * then tls()'s, those of the inline ones that tls() names too left out. */
static void
merge (SlTlsBlock *b, const SlCfgNode *node, const SlOptions *driver_options)
{
  b->merged.name = "tls";
  b->merged.pos = node ? node->pos : b->driver_pos;
  b->merged.args = g_ptr_array_new ();
  b->merged.children = g_ptr_array_new ();
  if (node)
    for (guint i = 0; i < node->args->len; i++)
      g_ptr_array_add (b->merged.args, g_ptr_array_index (node->args, i));
  const SlCfgNode *driver = driver_options ? sl_options_node (driver_options) : NULL;
  for (guint i = 0; driver && driver->children && i < driver->children->len; i++)
    {
      SlCfgNode *child = g_ptr_array_index (driver->children, i);
      if (inline_option (child->name) && !(node && sl_cfg_node_child (node, child->name)))
        g_ptr_array_add (b->merged.children, child);
    }
  for (guint i = 0; node && node->children && i < node->children->len; i++)
    g_ptr_array_add (b->merged.children, g_ptr_array_index (node->children, i));
}

static gchar **
list_copy (GPtrArray *list, gboolean upper)
{
  if (!list || !list->len)
    return NULL;
  gchar **copy = g_new0 (gchar *, list->len + 1);
  for (guint i = 0; i < list->len; i++)
    copy[i] = upper ? g_ascii_strup (g_ptr_array_index (list, i), -1) : g_strdup (g_ptr_array_index (list, i));
  return copy;
}

static gboolean
fail (const SlTlsBlock *b, const gchar *option, const gchar *owner, GError **error, const gchar *why)
{
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_tls_block_pos (b, option), _("%s tls(): %s() %s"), owner, option,
                    why);
  return FALSE;
}

/* The versions ssl-options() leaves, from the lowest up to the first it
 * refuses above that, as OpenSSL reads a gap; or from ssl-version() up. */
static gboolean
resolve_versions (SlTlsBlock *b, const gchar *owner, GError **error)
{
  const TlsOptions *v = &b->values;
  SlTlsSettings *s = &b->settings;
  if (sl_tls_block_is_set (b, "ssl-version") && sl_tls_block_is_set (b, "ssl-options"))
    return fail (b, "ssl-version", owner, error, _("and ssl-options() both bound the versions: write one of them"));
  if (v->ssl_version)
    {
      s->min_version = (SlTlsVersion) v->ssl_version;
      s->max_version = SL_TLS_VERSION_1_3;
      return TRUE;
    }
  static const guint32 refused[] = { 0, NO_TLSV1, NO_TLSV11, NO_TLSV12, NO_TLSV13 };
  s->min_version = s->max_version = 0;
  for (gint version = SL_TLS_VERSION_1_0; version <= SL_TLS_VERSION_1_3; version++)
    {
      gboolean taken = !(v->ssl_options & refused[version]);
      if (taken && !s->min_version)
        s->min_version = s->max_version = version;
      else if (taken && (gint) s->max_version == version - 1)
        s->max_version = version;
    }
  if (!s->min_version)
    return fail (b, "ssl-options", owner, error, _("refuses every TLS version"));
  return TRUE;
}

static gboolean
refuse_unsupported (const SlTlsBlock *b, SlTlsCan can, const gchar *owner, const gchar *library, GError **error)
{
  g_autofree gchar *why = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (optional_options); i++)
    if (!(can & optional_options[i].needs) && sl_tls_block_is_set (b, optional_options[i].name))
      {
        why = g_strdup_printf (_("cannot be used here: %s does not offer it"), library);
        return fail (b, optional_options[i].name, owner, error, why);
      }
  const TlsOptions *v = &b->values;
  const SlTlsSettings *s = &b->settings;
  if (!(can & SL_TLS_CAN_VERSIONS) && (s->min_version > SL_TLS_VERSION_1_2 || s->max_version < SL_TLS_VERSION_1_3))
    {
      why = g_strdup_printf (_("cannot be used so here: %s takes a lowest version from TLS 1.0 to 1.2 and no "
                               "highest"), library);
      return fail (b, sl_tls_block_is_set (b, "ssl-version") ? "ssl-version" : "ssl-options", owner, error, why);
    }
  if (!(can & SL_TLS_CAN_SYSTEM_STORE_WITH_CA) && v->use_system_cert_store && (v->ca_file || v->ca_dir))
    {
      why = g_strdup_printf (_("cannot be used with ca-file() or ca-dir() here: %s trusts the system's store only "
                               "without them"), library);
      return fail (b, "use-system-cert-store", owner, error, why);
    }
  if (!(can & SL_TLS_CAN_SNI_CHOICE) && sl_tls_block_is_set (b, "sni") && !v->sni)
    {
      why = g_strdup_printf (_("cannot be no here: %s always names the host"), library);
      return fail (b, "sni", owner, error, why);
    }
  return TRUE;
}

static gboolean
settle (SlTlsBlock *b, SlTlsCan can, const gchar *owner, const gchar *library, GError **error)
{
  const TlsOptions *v = &b->values;
  SlTlsSettings *s = &b->settings;
  if (!resolve_versions (b, owner, error) || !refuse_unsupported (b, can, owner, library, error))
    return FALSE;
  if ((v->cert_file != NULL) != (v->key_file != NULL))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_tls_block_pos (b, v->cert_file ? "cert-file" : "key-file"),
                        _("%s tls(): key-file() and cert-file() go together"), owner);
      return FALSE;
    }
  s->ca_file = v->ca_file;
  s->ca_dir = v->ca_dir;
  s->cert_file = v->cert_file;
  s->key_file = v->key_file;
  s->key_passphrase = v->key_passphrase;
  s->crl_dir = v->crl_dir;
  s->verify_trusted = v->peer_verify == VERIFY_REQUIRED_TRUSTED || v->peer_verify == VERIFY_OPTIONAL_TRUSTED;
  s->require_cert = v->peer_verify == VERIFY_REQUIRED_TRUSTED || v->peer_verify == VERIFY_REQUIRED_UNTRUSTED;
  s->cipher_suite = v->cipher_suite;
  s->system_store = v->use_system_cert_store || (!v->ca_file && !v->ca_dir);
  s->sni = v->sni;
  s->handshake_timeout_ms = MAX (v->handshake_timeout_ms, 1);
  s->trusted_keys = list_copy (v->trusted_keys, TRUE);
  s->trusted_dn = list_copy (v->trusted_dn, FALSE);
  s->trusted_names = list_copy (v->trusted_names, FALSE);
  return TRUE;
}

SlTlsBlock *
sl_tls_block_new (const gchar *owner, const SlCfgNode *node, const SlOptions *driver_options, SlTlsCan can,
                  const gchar *library, SlCfgPos driver_pos, GError **error)
{
  SlTlsBlock *b = g_new0 (SlTlsBlock, 1);
  b->driver_pos = driver_pos;
  merge (b, node, driver_options);
  g_autofree gchar *block_owner = g_strdup_printf ("%s tls()", owner);
  const SlOptionSpec *const tables[] = { sl_tls_options, NULL };
  b->options = sl_options_new (block_owner, tables, NULL, &b->merged, NULL, error);
  if (!b->options || !sl_options_bind (b->options, sl_tls_options, &b->values, NULL, error)
      || !settle (b, can, owner, library, error))
    g_clear_pointer (&b, sl_tls_block_free);
  return b;
}

void
sl_tls_block_free (SlTlsBlock *b)
{
  if (!b)
    return;
  if (b->options)
    sl_options_free (b->options);
  g_ptr_array_unref (b->merged.args);
  g_ptr_array_unref (b->merged.children);
  g_strfreev (b->settings.trusted_keys);
  g_strfreev (b->settings.trusted_dn);
  g_strfreev (b->settings.trusted_names);
  g_free (b);
}

const SlTlsSettings *
sl_tls_block_settings (const SlTlsBlock *b)
{
  return &b->settings;
}

SlCfgPos
sl_tls_block_pos (const SlTlsBlock *b, const gchar *name)
{
  return b->options ? sl_options_pos (b->options, name) : b->driver_pos;
}

gboolean
sl_tls_block_is_set (const SlTlsBlock *b, const gchar *name)
{
  return b->options && sl_options_is_set (b->options, name);
}

gboolean
sl_tls_block_written (const SlTlsBlock *b)
{
  return b->merged.children->len > 0;
}
