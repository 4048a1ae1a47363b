/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libcurl's filler of the tls() block (core/io/tls-block.h), for every
 * destination that sends through libcurl. Inline in the header, so that
 * libsluice does not link libcurl: a plugin that includes it links it
 * already. SL_TLS_CAN_CURL is what libcurl does with OpenSSL; the rest of
 * the block is refused where it is written. */
#ifndef SL_TLS_BLOCK_CURL_H
#define SL_TLS_BLOCK_CURL_H

#include <curl/curl.h>
#include "core/io/tls-block.h"

G_BEGIN_DECLS

/* libcurl always sends the host name (SNI), and trusts the system's store
 * only without CAINFO and CAPATH; it has no folder of CRLs and pins keys
 * by a hash of the public key, not syslog-ng's fingerprint. */
#define SL_TLS_CAN_CURL \
  (SL_TLS_CAN_CA_DIR | SL_TLS_CAN_KEY_PASSPHRASE | SL_TLS_CAN_CIPHER_SUITE | SL_TLS_CAN_VERSIONS)

static inline void
sl_tls_block_fill_curl (const SlTlsBlock *block, CURL *easy)
{
  static const long lowest[] = { 0, CURL_SSLVERSION_TLSv1_0, CURL_SSLVERSION_TLSv1_1, CURL_SSLVERSION_TLSv1_2,
                                 CURL_SSLVERSION_TLSv1_3 };
  static const long highest[] = { 0, CURL_SSLVERSION_MAX_TLSv1_0, CURL_SSLVERSION_MAX_TLSv1_1,
                                  CURL_SSLVERSION_MAX_TLSv1_2, CURL_SSLVERSION_MAX_TLSv1_3 };
  const SlTlsSettings *s = sl_tls_block_settings (block);
  if (s->ca_file)
    curl_easy_setopt (easy, CURLOPT_CAINFO, s->ca_file);
  if (s->ca_dir)
    curl_easy_setopt (easy, CURLOPT_CAPATH, s->ca_dir);
  if (s->cert_file)
    curl_easy_setopt (easy, CURLOPT_SSLCERT, s->cert_file);
  if (s->key_file)
    curl_easy_setopt (easy, CURLOPT_SSLKEY, s->key_file);
  if (s->key_passphrase)
    curl_easy_setopt (easy, CURLOPT_KEYPASSWD, s->key_passphrase);
  if (s->cipher_suite)
    curl_easy_setopt (easy, CURLOPT_SSL_CIPHER_LIST, s->cipher_suite);
  curl_easy_setopt (easy, CURLOPT_SSLVERSION, lowest[s->min_version] | highest[s->max_version]);
  curl_easy_setopt (easy, CURLOPT_SSL_VERIFYPEER, s->verify_trusted ? 1L : 0L);
  curl_easy_setopt (easy, CURLOPT_SSL_VERIFYHOST, s->verify_trusted ? 2L : 0L);
}

G_END_DECLS

#endif
