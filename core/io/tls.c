/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/io/tls.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/io/tls-block.h"
#include "core/io/tls-names.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

struct _SlTlsContext
{
  gint ref;
  SSL_CTX *ssl;
  SlTlsRole role;
  gboolean trusted;         /* *-trusted: the certificate must verify */
  gboolean sni;
  gint64 handshake_timeout_ms;
  gchar **trusted_keys;     /* upper case, or NULL for any */
  gchar **trusted_dn;       /* patterns, or NULL for any */
  gchar **trusted_names;    /* patterns, or NULL: the host connected to */
  gchar *passphrase;
  guint8 alpn[256];         /* the ALPN protocol list (length-prefixed names), or empty */
  guint alpn_len;
};

typedef struct
{
  guint64 plain_end;        /* plaintext given to SSL_write up to here ... */
  guint64 wire_end;         /* ... went out as records up to here */
} WriteMark;

struct _SlTls
{
  SlTlsContext *ctx;
  SSL *ssl;
  gchar *failure;
  gchar *cn, *o, *ou, *fp;
  guint64 plain_written;
  guint64 plain_acked;
  GArray *marks;            /* WriteMark of writes not yet known acknowledged */
  guint first_mark;
};

static gint session_index = -1;

static gpointer
init_openssl (gpointer unused)
{
  OPENSSL_init_ssl (OPENSSL_INIT_LOAD_SSL_STRINGS | OPENSSL_INIT_LOAD_CRYPTO_STRINGS, NULL);
  session_index = SSL_get_ex_new_index (0, NULL, NULL, NULL, NULL);
  return NULL;
}

/* The reason of the last OpenSSL error on this thread, in its own words. */
static const gchar *
openssl_reason (void)
{
  unsigned long e = ERR_peek_last_error ();
  const gchar *reason = e ? ERR_reason_error_string (e) : NULL;
  return reason ? reason : _("unknown error");
}

/* "SHA1:AB:CD:..." */
static gchar *
fingerprint (X509 *cert)
{
  guchar md[EVP_MAX_MD_SIZE];
  guint n = 0;
  if (!X509_digest (cert, EVP_sha1 (), md, &n))
    return NULL;
  GString *s = g_string_new ("SHA1");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, ":%02X", md[i]);
  return g_string_free (s, FALSE);
}

/* The subject as syslog-ng shows it to trusted-dn(): most specific first,
 * "CN=client, O=Example, C=HU". */
static gchar *
subject_text (X509 *cert)
{
  BIO *bio = BIO_new (BIO_s_mem ());
  X509_NAME_print_ex (bio, X509_get_subject_name (cert), 0,
                      ASN1_STRFLGS_ESC_2253 | ASN1_STRFLGS_UTF8_CONVERT | XN_FLAG_SEP_CPLUS_SPC | XN_FLAG_DN_REV);
  gchar *data = NULL;
  glong len = BIO_get_mem_data (bio, &data);
  gchar *text = g_strndup (data, len);
  BIO_free (bio);
  return text;
}

static gboolean
fingerprint_trusted (const SlTlsContext *ctx, X509 *cert)
{
  if (!ctx->trusted_keys)
    return TRUE;
  g_autofree gchar *fp = fingerprint (cert);
  for (gchar **k = ctx->trusted_keys; fp && *k; k++)
    if (strcmp (*k, fp) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
dn_trusted (const SlTlsContext *ctx, X509 *cert)
{
  if (!ctx->trusted_dn)
    return TRUE;
  g_autofree gchar *dn = subject_text (cert);
  for (gchar **p = ctx->trusted_dn; *p; p++)
    if (g_pattern_match_simple (*p, dn))
      return TRUE;
  return FALSE;
}

static void
set_failure (SlTls *t, const gchar *why)
{
  if (!t->failure)
    t->failure = g_strdup (why);
}

/* OpenSSL's verdict on each certificate of the chain, then ours on the
 * peer's own: under *-untrusted anything goes; under *-trusted a listed
 * fingerprint also admits a self-signed certificate, as in syslog-ng. */
static int
verify_certificate (int ok, X509_STORE_CTX *store)
{
  SSL *ssl = X509_STORE_CTX_get_ex_data (store, SSL_get_ex_data_X509_STORE_CTX_idx ());
  SlTls *t = SSL_get_ex_data (ssl, session_index);
  if (!t->ctx->trusted)
    return 1;
  X509 *cert = X509_STORE_CTX_get_current_cert (store);
  gint depth = X509_STORE_CTX_get_error_depth (store);
  if (!ok)
    {
      gint err = X509_STORE_CTX_get_error (store);
      if (depth == 0 && err == X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT && t->ctx->trusted_keys
          && fingerprint_trusted (t->ctx, cert))
        return 1;
      set_failure (t, X509_verify_cert_error_string (err));
      return 0;
    }
  if (depth != 0)
    return 1;
  if (!fingerprint_trusted (t->ctx, cert))
    {
      set_failure (t, _("certificate fingerprint not in trusted-keys()"));
      X509_STORE_CTX_set_error (store, X509_V_ERR_CERT_REJECTED);
      return 0;
    }
  if (!dn_trusted (t->ctx, cert))
    {
      set_failure (t, _("certificate subject not in trusted-dn()"));
      X509_STORE_CTX_set_error (store, X509_V_ERR_CERT_REJECTED);
      return 0;
    }
  if (t->ctx->trusted_names && !sl_tls_cert_names_match (cert, t->ctx->trusted_names))
    {
      set_failure (t, _("certificate names not in trusted-names()"));
      X509_STORE_CTX_set_error (store, X509_V_ERR_CERT_REJECTED);
      return 0;
    }
  return 1;
}

/* Never the terminal prompt of OpenSSL's default: a daemon has none. */
static int
passphrase_cb (char *buf, int size, int rwflag, void *userdata)
{
  const gchar *pass = userdata;
  if (!pass)
    return 0;
  gint len = MIN ((gint) strlen (pass), size);
  memcpy (buf, pass, len);
  return len;
}

typedef struct
{
  const gchar *owner;
  const SlTlsBlock *block;
  SlCfgPos driver_pos;
} Loader;

static gboolean
fail_at (GError **error, Loader *l, const gchar *option, const gchar *what, const gchar *path)
{
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_tls_block_pos (l->block, option),
                    _("%s tls(): %s() '%s': %s: %s"), l->owner, option, path, what, openssl_reason ());
  ERR_clear_error ();
  return FALSE;
}

static gboolean
readable (GError **error, Loader *l, const gchar *option, const gchar *path, gboolean dir)
{
  if (g_file_test (path, dir ? G_FILE_TEST_IS_DIR : G_FILE_TEST_IS_REGULAR))
    return TRUE;
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_tls_block_pos (l->block, option), _("%s tls(): %s() '%s': %s"),
                    l->owner, option, path, dir ? _("no such folder") : _("no such file"));
  return FALSE;
}

static gboolean
load_identity (SlTlsContext *ctx, const SlTlsSettings *opt, Loader *l, GError **error)
{
  if (!opt->cert_file && !opt->key_file)
    {
      /* syslog-ng starts such a source, whose handshakes then fail: SCL
       * blocks such as default-network-drivers() have one unless given tls() */
      if (ctx->role == SL_TLS_SERVER)
        sl_log (SL_LOG_WARNING, _("%s:%d:%d: %s tls() has no key-file() and cert-file(); every handshake with it "
                                  "will fail"), l->driver_pos.file, l->driver_pos.line, l->driver_pos.column, l->owner);
      return TRUE;
    }
  if (!readable (error, l, "cert-file", opt->cert_file, FALSE) || !readable (error, l, "key-file", opt->key_file, FALSE))
    return FALSE;
  if (SSL_CTX_use_certificate_chain_file (ctx->ssl, opt->cert_file) != 1)
    return fail_at (error, l, "cert-file", _("cannot read the certificate"), opt->cert_file);
  ERR_clear_error ();
  if (SSL_CTX_use_PrivateKey_file (ctx->ssl, opt->key_file, SSL_FILETYPE_PEM) != 1)
    return fail_at (error, l, "key-file",
                    ERR_GET_REASON (ERR_peek_last_error ()) == X509_R_KEY_VALUES_MISMATCH
                    ? _("the key does not belong to cert-file()")
                    : opt->key_passphrase ? _("cannot read the key (is key-passphrase() right?)")
                                          : _("cannot read the key (an encrypted key needs key-passphrase())"),
                    opt->key_file);
  if (SSL_CTX_check_private_key (ctx->ssl) != 1)
    return fail_at (error, l, "key-file", _("the key does not belong to cert-file()"), opt->key_file);
  return TRUE;
}

static gboolean
load_trust (SlTlsContext *ctx, const SlTlsSettings *opt, Loader *l, GError **error)
{
  if (opt->ca_file)
    {
      if (!readable (error, l, "ca-file", opt->ca_file, FALSE))
        return FALSE;
      if (SSL_CTX_load_verify_locations (ctx->ssl, opt->ca_file, NULL) != 1)
        return fail_at (error, l, "ca-file", _("cannot read the CA certificates"), opt->ca_file);
    }
  if (opt->ca_dir)
    {
      if (!readable (error, l, "ca-dir", opt->ca_dir, TRUE))
        return FALSE;
      if (SSL_CTX_load_verify_locations (ctx->ssl, NULL, opt->ca_dir) != 1)
        return fail_at (error, l, "ca-dir", _("cannot use the folder"), opt->ca_dir);
    }
  if (opt->system_store)
    SSL_CTX_set_default_verify_paths (ctx->ssl);
  if (opt->crl_dir)
    {
      if (!readable (error, l, "crl-dir", opt->crl_dir, TRUE))
        return FALSE;
      X509_STORE *store = SSL_CTX_get_cert_store (ctx->ssl);
      X509_LOOKUP *lookup = X509_STORE_add_lookup (store, X509_LOOKUP_hash_dir ());
      if (!lookup || !X509_LOOKUP_add_dir (lookup, opt->crl_dir, X509_FILETYPE_PEM))
        return fail_at (error, l, "crl-dir", _("cannot use the folder"), opt->crl_dir);
      X509_STORE_set_flags (store, X509_V_FLAG_CRL_CHECK | X509_V_FLAG_CRL_CHECK_ALL);
    }
  return TRUE;
}

static gboolean
configure (SlTlsContext *ctx, const SlTlsSettings *opt, Loader *l, GError **error)
{
  ctx->trusted = opt->verify_trusted;
  ctx->sni = opt->sni;
  ctx->handshake_timeout_ms = opt->handshake_timeout_ms;
  ctx->trusted_keys = g_strdupv (opt->trusted_keys);
  ctx->trusted_dn = g_strdupv (opt->trusted_dn);
  ctx->trusted_names = g_strdupv (opt->trusted_names);
  ctx->passphrase = g_strdup (opt->key_passphrase);

  static const long versions[] = { 0, TLS1_VERSION, TLS1_1_VERSION, TLS1_2_VERSION, TLS1_3_VERSION };
  SSL_CTX_set_min_proto_version (ctx->ssl, versions[opt->min_version]);
  SSL_CTX_set_max_proto_version (ctx->ssl, versions[opt->max_version]);
  SSL_CTX_set_options (ctx->ssl, SSL_OP_NO_COMPRESSION | SSL_OP_IGNORE_UNEXPECTED_EOF);
  /* partial writes and a moving buffer: the destination's backlog grows
   * between a write that would block and the one that goes on from there */
  SSL_CTX_set_mode (ctx->ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  /* a reader takes many records per read(): fewer system calls */
  SSL_CTX_set_read_ahead (ctx->ssl, 1);
  SSL_CTX_set_default_read_buffer_len (ctx->ssl, 64 * 1024);
  SSL_CTX_set_default_passwd_cb (ctx->ssl, passphrase_cb);
  SSL_CTX_set_default_passwd_cb_userdata (ctx->ssl, ctx->passphrase);
  if (ctx->role == SL_TLS_SERVER)
    {
      /* syslog clients do not resume sessions: tickets would only be
       * bytes the client never reads */
      SSL_CTX_set_num_tickets (ctx->ssl, 0);
      SSL_CTX_set_session_cache_mode (ctx->ssl, SSL_SESS_CACHE_OFF);
    }
  gint mode = SSL_VERIFY_PEER;
  if (ctx->role == SL_TLS_SERVER && opt->require_cert)
    mode |= SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
  SSL_CTX_set_verify (ctx->ssl, mode, verify_certificate);

  if (opt->cipher_suite && SSL_CTX_set_cipher_list (ctx->ssl, opt->cipher_suite) != 1)
    return fail_at (error, l, "cipher-suite", _("no cipher of the list can be used"), opt->cipher_suite);
  return load_identity (ctx, opt, l, error) && load_trust (ctx, opt, l, error);
}

SlTlsContext *
sl_tls_context_new (const gchar *owner, SlTlsRole role, const SlCfgNode *node, SlCfgPos driver_pos, GError **error)
{
  static GOnce once = G_ONCE_INIT;
  g_once (&once, init_openssl, NULL);
  SlTlsBlock *block = sl_tls_block_new (owner, node, NULL, SL_TLS_CAN_ALL, "OpenSSL", driver_pos, error);
  if (!block)
    return NULL;
  SlTlsContext *ctx = g_new0 (SlTlsContext, 1);
  ctx->ref = 1;
  ctx->role = role;
  ctx->ssl = SSL_CTX_new (role == SL_TLS_SERVER ? TLS_server_method () : TLS_client_method ());
  Loader loader = { owner, block, driver_pos };
  ERR_clear_error ();
  if (!ctx->ssl)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, driver_pos, _("%s tls(): %s"), owner, openssl_reason ());
      g_clear_pointer (&ctx, sl_tls_context_unref);
    }
  else if (!configure (ctx, sl_tls_block_settings (block), &loader, error))
    g_clear_pointer (&ctx, sl_tls_context_unref);
  sl_tls_block_free (block);
  return ctx;
}

SlTlsContext *
sl_tls_context_ref (SlTlsContext *ctx)
{
  g_atomic_int_inc (&ctx->ref);
  return ctx;
}

void
sl_tls_context_unref (SlTlsContext *ctx)
{
  if (!ctx || !g_atomic_int_dec_and_test (&ctx->ref))
    return;
  if (ctx->ssl)
    SSL_CTX_free (ctx->ssl);
  g_strfreev (ctx->trusted_keys);
  g_strfreev (ctx->trusted_dn);
  g_strfreev (ctx->trusted_names);
  if (ctx->passphrase)
    memset (ctx->passphrase, 0, strlen (ctx->passphrase));
  g_free (ctx->passphrase);
  g_free (ctx);
}

static int
select_alpn (SSL *ssl, const unsigned char **out, unsigned char *outlen, const unsigned char *in,
             unsigned int inlen, void *data)
{
  SlTlsContext *ctx = data;
  unsigned char *selected = NULL;
  if (SSL_select_next_proto (&selected, outlen, ctx->alpn, ctx->alpn_len, in, inlen) != OPENSSL_NPN_NEGOTIATED)
    return SSL_TLSEXT_ERR_NOACK;
  *out = selected;
  return SSL_TLSEXT_ERR_OK;
}

void
sl_tls_context_set_alpn (SlTlsContext *ctx, const gchar *protocol)
{
  gsize len = strlen (protocol);
  g_return_if_fail (len > 0 && len < sizeof ctx->alpn - 1);
  ctx->alpn[0] = (guint8) len;
  memcpy (ctx->alpn + 1, protocol, len);
  ctx->alpn_len = (guint) len + 1;
  if (ctx->role == SL_TLS_SERVER)
    SSL_CTX_set_alpn_select_cb (ctx->ssl, select_alpn, ctx);
  else
    SSL_CTX_set_alpn_protos (ctx->ssl, ctx->alpn, ctx->alpn_len);
}

gint64
sl_tls_context_handshake_timeout_ms (const SlTlsContext *ctx)
{
  return ctx->handshake_timeout_ms;
}

SlTls *
sl_tls_new (SlTlsContext *ctx, gint fd, const gchar *host)
{
  SlTls *t = g_new0 (SlTls, 1);
  t->ctx = sl_tls_context_ref (ctx);
  t->ssl = SSL_new (ctx->ssl);
  t->marks = g_array_new (FALSE, FALSE, sizeof (WriteMark));
  SSL_set_ex_data (t->ssl, session_index, t);
  SSL_set_fd (t->ssl, fd);
  if (ctx->role == SL_TLS_SERVER)
    SSL_set_accept_state (t->ssl);
  else
    {
      SSL_set_connect_state (t->ssl);
      if (host && ctx->trusted && !ctx->trusted_names)
        {
          X509_VERIFY_PARAM *param = SSL_get0_param (t->ssl);
          if (g_hostname_is_ip_address (host))
            X509_VERIFY_PARAM_set1_ip_asc (param, host);
          else
            X509_VERIFY_PARAM_set1_host (param, host, 0);
        }
      if (host && ctx->sni && !g_hostname_is_ip_address (host))
        SSL_set_tlsext_host_name (t->ssl, host);
    }
  return t;
}

void
sl_tls_free (SlTls *t)
{
  if (!t)
    return;
  SSL_free (t->ssl);
  sl_tls_context_unref (t->ctx);
  g_array_unref (t->marks);
  g_free (t->failure);
  g_free (t->cn);
  g_free (t->o);
  g_free (t->ou);
  g_free (t->fp);
  g_free (t);
}

static gchar *
name_entry (X509_NAME *name, gint nid)
{
  gint i = X509_NAME_get_index_by_NID (name, nid, -1);
  if (i < 0)
    return NULL;
  guchar *utf8 = NULL;
  gint len = ASN1_STRING_to_UTF8 (&utf8, X509_NAME_ENTRY_get_data (X509_NAME_get_entry (name, i)));
  if (len < 0)
    return NULL;
  gchar *text = g_strndup ((const gchar *) utf8, len);
  OPENSSL_free (utf8);
  return text;
}

static void
read_peer (SlTls *t)
{
  X509 *cert = SSL_get1_peer_certificate (t->ssl);
  if (!cert)
    return;
  X509_NAME *subject = X509_get_subject_name (cert);
  t->cn = name_entry (subject, NID_commonName);
  t->o = name_entry (subject, NID_organizationName);
  t->ou = name_entry (subject, NID_organizationalUnitName);
  t->fp = fingerprint (cert);
  X509_free (cert);
}

/* What an SSL_* call that returned rc means. */
static SlTlsStatus
status_of (SlTls *t, gint rc)
{
  gint err = errno;
  switch (SSL_get_error (t->ssl, rc))
    {
    case SSL_ERROR_WANT_READ:
      return SL_TLS_WANT_READ;
    case SSL_ERROR_WANT_WRITE:
      return SL_TLS_WANT_WRITE;
    case SSL_ERROR_ZERO_RETURN:
      return SL_TLS_CLOSED;
    case SSL_ERROR_SYSCALL:
      /* the system's reason when OpenSSL has none of its own */
      if (ERR_peek_error ())
        set_failure (t, openssl_reason ());
      else
        set_failure (t, err ? g_strerror (err) : _("the peer closed the connection"));
      return SL_TLS_FAILED;
    default:
      set_failure (t, openssl_reason ());
      return SL_TLS_FAILED;
    }
}

SlTlsStatus
sl_tls_handshake (SlTls *t)
{
  ERR_clear_error ();
  errno = 0;
  gint rc = SSL_do_handshake (t->ssl);
  if (rc == 1)
    {
      read_peer (t);
      return SL_TLS_DONE;
    }
  SlTlsStatus status = status_of (t, rc);
  return status == SL_TLS_CLOSED ? SL_TLS_FAILED : status;
}

const gchar *
sl_tls_failure (const SlTls *t)
{
  return t->failure ? t->failure : _("the peer closed the connection");
}

gsize
sl_tls_read (SlTls *t, gchar *buf, gsize len, SlTlsStatus *status)
{
  gsize got = 0;
  *status = SL_TLS_DONE;
  while (got < len)
    {
      size_t n = 0;
      ERR_clear_error ();
      errno = 0;
      gint rc = SSL_read_ex (t->ssl, buf + got, len - got, &n);
      if (rc != 1)
        {
          *status = status_of (t, rc);
          break;
        }
      got += n;
    }
  return got;
}

gboolean
sl_tls_pending (const SlTls *t)
{
  return SSL_has_pending (t->ssl);
}

gsize
sl_tls_write (SlTls *t, const gchar *buf, gsize len, SlTlsStatus *status)
{
  size_t n = 0;
  ERR_clear_error ();
  errno = 0;
  gint rc = SSL_write_ex (t->ssl, buf, len, &n);
  if (rc != 1)
    {
      *status = status_of (t, rc);
      return 0;
    }
  *status = SL_TLS_DONE;
  t->plain_written += n;
  WriteMark mark = { t->plain_written, BIO_number_written (SSL_get_wbio (t->ssl)) };
  g_array_append_val (t->marks, mark);
  return n;
}

gsize
sl_tls_unacked (SlTls *t, gsize wire_unacked)
{
  guint64 wire = BIO_number_written (SSL_get_wbio (t->ssl));
  guint64 acked = wire > wire_unacked ? wire - wire_unacked : 0;
  while (t->first_mark < t->marks->len)
    {
      WriteMark *m = &g_array_index (t->marks, WriteMark, t->first_mark);
      if (m->wire_end > acked)
        break;
      t->plain_acked = m->plain_end;
      t->first_mark++;
    }
  if (t->first_mark > 64 && t->first_mark * 2 > t->marks->len)
    {
      g_array_remove_range (t->marks, 0, t->first_mark);
      t->first_mark = 0;
    }
  return t->plain_written - t->plain_acked;
}

void
sl_tls_close_notify (SlTls *t)
{
  ERR_clear_error ();
  SSL_shutdown (t->ssl);
  ERR_clear_error ();
}

static gpointer
intern_fields (gpointer unused)
{
  static SlHandle handles[4];
  handles[0] = sl_field_handle (".tls.x509_cn");
  handles[1] = sl_field_handle (".tls.x509_o");
  handles[2] = sl_field_handle (".tls.x509_ou");
  handles[3] = sl_field_handle (".tls.x509_fp");
  return handles;
}

void
sl_tls_set_fields (const SlTls *t, SlMessage *msg)
{
  static GOnce once = G_ONCE_INIT;
  const SlHandle *h = g_once (&once, intern_fields, NULL);
  const gchar *values[4] = { t->cn, t->o, t->ou, t->fp };
  for (guint i = 0; i < 4; i++)
    if (values[i])
      sl_message_set (msg, h[i], values[i], -1);
}

void
sl_tls_append_fields (const SlTls *t, GString *tail)
{
  const gchar *values[4] = { t->cn, t->o, t->ou, t->fp };
  for (guint i = 0; i < 4; i++)
    g_string_append_len (tail, values[i] ? values[i] : "", (values[i] ? strlen (values[i]) : 0) + 1);
}

void
sl_tls_set_field_slices (SlMessage *msg, const gchar *values)
{
  static GOnce once = G_ONCE_INIT;
  const SlHandle *h = g_once (&once, intern_fields, NULL);
  for (guint i = 0; i < 4; i++)
    {
      gsize len = strlen (values);
      if (len)
        sl_message_set_slice (msg, h[i], values, len);
      values += len + 1;
    }
}

const gchar *
sl_tls_peer_cn (const SlTls *t)
{
  return t->cn;
}
