/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tls(...) block, read once for every user of TLS: the core's own
 * contexts (core/io/tls.h) and a destination that hands TLS to a library
 * (libcurl, Paho, librabbitmq). The options are syslog-ng's; a user says
 * which of them its library can do, and every other one written is refused
 * with its position, so that nothing is accepted and then ignored. A
 * library's filler only copies SlTlsSettings into the library's own
 * structure (core/io/tls-block-curl.h is libcurl's). */
#ifndef SL_TLS_BLOCK_H
#define SL_TLS_BLOCK_H

#include <glib.h>
#include "core/plugin/options.h"

G_BEGIN_DECLS

/* The options of tls(...). */
extern const SlOptionSpec sl_tls_options[];

/* The names of the options a destination also takes in its own block, as
 * syslog-ng 3 does for http() and amqp(): put SL_TLS_INLINE_OPTIONS in the
 * destination's table and hand its SlOptions to sl_tls_block_new(). */
#define SL_TLS_INLINE_OPTIONS \
  { "ca-file", SL_UNBOUND (SL_OPT_STRING), NULL, "the same as tls(ca-file())" }, \
  { "ca-dir", SL_UNBOUND (SL_OPT_STRING), NULL, "the same as tls(ca-dir())" }, \
  { "cert-file", SL_UNBOUND (SL_OPT_STRING), NULL, "the same as tls(cert-file())" }, \
  { "key-file", SL_UNBOUND (SL_OPT_STRING), NULL, "the same as tls(key-file())" }, \
  { "peer-verify", SL_UNBOUND (SL_OPT_STRING), NULL, "the same as tls(peer-verify())" }, \
  { "cipher-suite", SL_UNBOUND (SL_OPT_STRING), NULL, "the same as tls(cipher-suite())" }, \
  { "ssl-version", SL_UNBOUND (SL_OPT_STRING), NULL, "the same as tls(ssl-version())" }, \
  { "use-system-cert-store", SL_UNBOUND (SL_OPT_STRING), NULL, "the same as tls(use-system-cert-store())" }

typedef enum
{
  SL_TLS_VERSION_1_0 = 1,
  SL_TLS_VERSION_1_1,
  SL_TLS_VERSION_1_2,
  SL_TLS_VERSION_1_3,
} SlTlsVersion;

/* What a library can do beyond ca-file(), cert-file(), key-file() and
 * peer-verify(), which every one can. */
typedef enum
{
  SL_TLS_CAN_CA_DIR = 1 << 0,
  SL_TLS_CAN_CRL_DIR = 1 << 1,
  SL_TLS_CAN_KEY_PASSPHRASE = 1 << 2,
  SL_TLS_CAN_TRUSTED_PEERS = 1 << 3,      /* trusted-keys(), trusted-dn(), trusted-names() */
  SL_TLS_CAN_CIPHER_SUITE = 1 << 4,
  SL_TLS_CAN_VERSIONS = 1 << 5,           /* ssl-options(), ssl-version(): the lowest and highest version */
  /* only the lowest version, TLS 1.0 to 1.2; the highest is always the newest */
  SL_TLS_CAN_LOWEST_VERSION = 1 << 9,
  SL_TLS_CAN_SYSTEM_STORE_WITH_CA = 1 << 6, /* use-system-cert-store(yes) beside ca-file() or ca-dir() */
  SL_TLS_CAN_SNI_CHOICE = 1 << 7,         /* sni(no); without it the library always names the host */
  SL_TLS_CAN_HANDSHAKE_TIMEOUT = 1 << 8,  /* a server's handshake-timeout() */
  SL_TLS_CAN_ALL = (1 << 10) - 1,
} SlTlsCan;

/* The block's values, checked and resolved. */
typedef struct
{
  const gchar *ca_file;
  const gchar *ca_dir;
  const gchar *cert_file;     /* set together with key_file, or neither */
  const gchar *key_file;
  const gchar *key_passphrase;
  const gchar *crl_dir;
  gboolean verify_trusted;    /* peer-verify(*-trusted) or yes: the certificate and, for a client, its name */
  gboolean require_cert;      /* peer-verify(required-*): a server refuses a client without one */
  const gchar *cipher_suite;
  SlTlsVersion min_version;   /* ssl-options() or ssl-version(); TLS 1.2 unless written */
  SlTlsVersion max_version;
  /* trust the system's CA store: use-system-cert-store(yes), or neither
   * ca-file() nor ca-dir() given */
  gboolean system_store;
  gboolean sni;
  gint64 handshake_timeout_ms;
  gchar **trusted_keys;       /* upper case, or NULL for any */
  gchar **trusted_dn;         /* patterns, or NULL for any */
  gchar **trusted_names;      /* patterns, or NULL: the host connected to */
} SlTlsSettings;

typedef struct _SlTlsBlock SlTlsBlock;

/* Reads node (the tls() block, or NULL for all defaults) and, when
 * driver_options is not NULL, the SL_TLS_INLINE_OPTIONS written in the
 * driver's own block (tls() wins where both name one). owner names the
 * driver in errors ("http()"), library the one that does its TLS
 * ("libcurl"); an option written that can does not cover is an error at
 * its position. */
SlTlsBlock   *sl_tls_block_new      (const gchar *owner, const SlCfgNode *node, const SlOptions *driver_options,
                                     SlTlsCan can, const gchar *library, SlCfgPos driver_pos, GError **error);
void          sl_tls_block_free     (SlTlsBlock *block);
const SlTlsSettings *sl_tls_block_settings (const SlTlsBlock *block);
/* Where the option was written, the driver's position when it was not. */
SlCfgPos      sl_tls_block_pos      (const SlTlsBlock *block, const gchar *name);
/* Whether any option of the block was written, in tls() or inline. */
gboolean      sl_tls_block_written  (const SlTlsBlock *block);
/* Whether the option was written. */
gboolean      sl_tls_block_is_set   (const SlTlsBlock *block, const gchar *name);

G_END_DECLS

#endif
