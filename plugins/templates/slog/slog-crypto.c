/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What each step is, as syslog-ng 4.8.1's slog module computes it (the
 * byte layouts are its files' and lines'):
 * - PRF(K, X, n): n bytes of CMAC_K(X), CMAC_K(X'), ... where X is a
 *   16-byte block whose last byte counts up from block to block;
 * - a message's encryption key is PRF(K, 16 x 0x36, 32), its MAC key
 *   PRF(K, 16 x 0x5c, 32), the next key PRF(K, 16 x 0x6a, 32);
 * - a line is the counter's 8 bytes (in the host's order) in base64, ':',
 *   and base64 of a random 12-byte IV, the 16-byte GCM tag and the
 *   ciphertext; the aggregated MAC becomes CMAC_macKey(previous MAC, IV,
 *   tag, ciphertext), without the previous MAC for message 0. */
#include "plugins/templates/slog/slog-crypto.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <string.h>
#include <unistd.h>

#define BLOCK 16
#define IV_LENGTH 12

struct _SlogCrypto
{
  EVP_MAC *cmac;
  EVP_CIPHER *gcm;
};

SlogCrypto *
slog_crypto_new (void)
{
  SlogCrypto *c = g_new0 (SlogCrypto, 1);
  c->cmac = EVP_MAC_fetch (NULL, "CMAC", NULL);
  c->gcm = EVP_CIPHER_fetch (NULL, "AES-256-GCM", NULL);
  if (!c->cmac || !c->gcm)
    {
      slog_crypto_free (c);
      return NULL;
    }
  return c;
}

void
slog_crypto_free (SlogCrypto *c)
{
  EVP_MAC_free (c->cmac);
  EVP_CIPHER_free (c->gcm);
  g_free (c);
}

/* CMAC with AES-256 under key of the pieces given (pointer, length pairs
 * ending with NULL) into out. */
static void
cmac (SlogCrypto *c, const guint8 key[SLOG_KEY_LENGTH], guint8 out[SLOG_MAC_LENGTH], ...)
{
  gchar cipher[] = "aes-256-cbc";
  OSSL_PARAM params[] = { OSSL_PARAM_utf8_string (OSSL_MAC_PARAM_CIPHER, cipher, 0), OSSL_PARAM_END };
  EVP_MAC_CTX *ctx = EVP_MAC_CTX_new (c->cmac);
  gsize written = 0;
  va_list ap;

  EVP_MAC_init (ctx, key, SLOG_KEY_LENGTH, params);
  va_start (ap, out);
  for (const guint8 *piece; (piece = va_arg (ap, const guint8 *));)
    EVP_MAC_update (ctx, piece, va_arg (ap, gsize));
  va_end (ap);
  EVP_MAC_final (ctx, out, &written, SLOG_MAC_LENGTH);
  EVP_MAC_CTX_free (ctx);
}

static void
prf (SlogCrypto *c, const guint8 key[SLOG_KEY_LENGTH], guint8 pattern, guint8 out[SLOG_KEY_LENGTH])
{
  guint8 block[BLOCK];

  memset (block, pattern, BLOCK);
  for (guint i = 0; i < SLOG_KEY_LENGTH / BLOCK; i++)
    {
      cmac (c, key, out + i * BLOCK, block, (gsize) BLOCK, NULL);
      block[BLOCK - 1]++;
    }
}

void
slog_key_evolve (SlogCrypto *c, guint8 key[SLOG_KEY_LENGTH])
{
  guint8 next[SLOG_KEY_LENGTH];
  prf (c, key, 0x6a, next);
  memcpy (key, next, SLOG_KEY_LENGTH);
}

/* AES-256-GCM of text under key with iv: the tag into tag, the ciphertext
 * (as long as text) into ciphertext. */
static gboolean
encrypt (SlogCrypto *c, const guint8 key[SLOG_KEY_LENGTH], const guint8 *iv, const gchar *text, gsize len,
         guint8 *tag, guint8 *ciphertext)
{
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new ();
  gint n = 0, last = 0;
  gboolean ok = ctx && len <= G_MAXINT && EVP_EncryptInit_ex2 (ctx, c->gcm, key, iv, NULL) == 1
                && EVP_EncryptUpdate (ctx, ciphertext, &n, (const guint8 *) text, (gint) len) == 1
                && EVP_EncryptFinal_ex (ctx, ciphertext + n, &last) == 1
                && EVP_CIPHER_CTX_ctrl (ctx, EVP_CTRL_GCM_GET_TAG, BLOCK, tag) == 1;
  EVP_CIPHER_CTX_free (ctx);
  return ok;
}

gboolean
slog_entry (SlogCrypto *c, guint64 counter, const guint8 key[SLOG_KEY_LENGTH], const gchar *text, gsize len,
            guint8 mac[SLOG_MAC_LENGTH], GString *out)
{
  guint8 enc_key[SLOG_KEY_LENGTH], mac_key[SLOG_KEY_LENGTH];
  /* IV, tag and ciphertext, as the line and the MAC take them */
  g_autofree guint8 *sealed = g_malloc (IV_LENGTH + BLOCK + len);
  guint8 *iv = sealed, *tag = sealed + IV_LENGTH, *ciphertext = sealed + IV_LENGTH + BLOCK;

  prf (c, key, 0x36, enc_key);
  prf (c, key, 0x5c, mac_key);
  if (RAND_bytes (iv, IV_LENGTH) != 1 || !encrypt (c, enc_key, iv, text, len, tag, ciphertext))
    return FALSE;

  g_autofree gchar *number = g_base64_encode ((const guchar *) &counter, sizeof counter);
  g_autofree gchar *body = g_base64_encode (sealed, IV_LENGTH + BLOCK + len);
  g_string_append_printf (out, "%s:%s", number, body);
  guint8 previous[SLOG_MAC_LENGTH];
  memcpy (previous, mac, SLOG_MAC_LENGTH);
  if (counter > 0)
    cmac (c, mac_key, mac, previous, (gsize) SLOG_MAC_LENGTH, sealed, IV_LENGTH + BLOCK + len, NULL);
  else
    cmac (c, mac_key, mac, sealed, IV_LENGTH + BLOCK + len, NULL);
  return TRUE;
}

/* Exactly len bytes of the file at path into buf, and nothing after them
 * when exact. */
static gboolean
read_exactly (const gchar *path, guint8 *buf, gsize len)
{
  g_autofree gchar *data = NULL;
  gsize got = 0;
  if (!g_file_get_contents (path, &data, &got, NULL) || got != len)
    return FALSE;
  memcpy (buf, data, len);
  return TRUE;
}

/* The file at path made anew with data, through a new file renamed over
 * it, so that a crash leaves the old or the new one whole. */
static gboolean
write_whole (const gchar *path, const guint8 *data, gsize len, GError **error)
{
  g_autofree gchar *tmp = g_strconcat (path, ".new", NULL);
  gint fd = open (tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  gboolean ok = fd >= 0 && write (fd, data, len) == (gssize) len;
  gint saved = errno;
  if (fd >= 0 && close (fd) != 0 && ok)
    {
      ok = FALSE;
      saved = errno;
    }
  if (ok && rename (tmp, path) == 0)
    return TRUE;
  if (ok)
    saved = errno;
  unlink (tmp);
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s: %s", path, g_strerror (saved));
  return FALSE;
}

gboolean
slog_key_read (SlogCrypto *c, const gchar *path, guint8 key[SLOG_KEY_LENGTH], guint64 *counter)
{
  guint8 data[SLOG_KEY_LENGTH + SLOG_MAC_LENGTH + 8], check[SLOG_MAC_LENGTH];
  guint64 le;

  if (!read_exactly (path, data, sizeof data))
    return FALSE;
  memcpy (&le, data + SLOG_KEY_LENGTH + SLOG_MAC_LENGTH, 8);
  cmac (c, data, check, (const guint8 *) &le, (gsize) 8, NULL);
  if (memcmp (check, data + SLOG_KEY_LENGTH, SLOG_MAC_LENGTH) != 0)
    return FALSE;
  memcpy (key, data, SLOG_KEY_LENGTH);
  *counter = GUINT64_FROM_LE (le);
  return TRUE;
}

gboolean
slog_key_write (SlogCrypto *c, const gchar *path, const guint8 key[SLOG_KEY_LENGTH], guint64 counter,
                GError **error)
{
  guint8 data[SLOG_KEY_LENGTH + SLOG_MAC_LENGTH + 8];
  guint64 le = GUINT64_TO_LE (counter);

  memcpy (data, key, SLOG_KEY_LENGTH);
  cmac (c, key, data + SLOG_KEY_LENGTH, (const guint8 *) &le, (gsize) 8, NULL);
  memcpy (data + SLOG_KEY_LENGTH + SLOG_MAC_LENGTH, &le, 8);
  return write_whole (path, data, sizeof data, error);
}

/* The check of the MAC file: CMAC of a zero block under the MAC padded
 * with zeros to a key. */
static void
mac_check (SlogCrypto *c, const guint8 mac[SLOG_MAC_LENGTH], guint8 check[SLOG_MAC_LENGTH])
{
  guint8 key[SLOG_KEY_LENGTH] = { 0 }, zeros[SLOG_MAC_LENGTH] = { 0 };
  memcpy (key, mac, SLOG_MAC_LENGTH);
  cmac (c, key, check, zeros, (gsize) SLOG_MAC_LENGTH, NULL);
}

gboolean
slog_mac_read (SlogCrypto *c, const gchar *path, guint8 mac[SLOG_MAC_LENGTH])
{
  guint8 data[2 * SLOG_MAC_LENGTH], check[SLOG_MAC_LENGTH];

  if (!read_exactly (path, data, sizeof data))
    return FALSE;
  mac_check (c, data, check);
  if (memcmp (check, data + SLOG_MAC_LENGTH, SLOG_MAC_LENGTH) != 0)
    return FALSE;
  memcpy (mac, data, SLOG_MAC_LENGTH);
  return TRUE;
}

gboolean
slog_mac_write (SlogCrypto *c, const gchar *path, const guint8 mac[SLOG_MAC_LENGTH], GError **error)
{
  guint8 data[2 * SLOG_MAC_LENGTH];
  memcpy (data, mac, SLOG_MAC_LENGTH);
  mac_check (c, mac, data + SLOG_MAC_LENGTH);
  return write_whole (path, data, sizeof data, error);
}
