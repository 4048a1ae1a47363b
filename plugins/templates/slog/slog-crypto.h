/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cryptography of syslog-ng's secure logging (its slog module), so that
 * what $(slog) writes is read by syslog-ng's slogverify: every key is used
 * for one message and then evolved, the encryption and MAC keys of a
 * message derived from it; the MAC aggregated over all messages is kept
 * beside. All of it on OpenSSL (AES-256-GCM, AES-256-CMAC). */
#ifndef SLOG_CRYPTO_H
#define SLOG_CRYPTO_H

#include <glib.h>

G_BEGIN_DECLS

#define SLOG_KEY_LENGTH 32
#define SLOG_MAC_LENGTH 16

typedef struct _SlogCrypto SlogCrypto;

SlogCrypto *slog_crypto_new  (void);
void        slog_crypto_free (SlogCrypto *c);

/* The host key file: the key, the CMAC of the counter under it, the
 * counter (little endian). FALSE when it cannot be read or its CMAC is
 * wrong. */
gboolean    slog_key_read    (SlogCrypto *c, const gchar *path, guint8 key[SLOG_KEY_LENGTH], guint64 *counter);
gboolean    slog_key_write   (SlogCrypto *c, const gchar *path, const guint8 key[SLOG_KEY_LENGTH], guint64 counter,
                              GError **error);
/* The MAC file: the aggregated MAC and a CMAC of zeros under it. */
gboolean    slog_mac_read    (SlogCrypto *c, const gchar *path, guint8 mac[SLOG_MAC_LENGTH]);
gboolean    slog_mac_write   (SlogCrypto *c, const gchar *path, const guint8 mac[SLOG_MAC_LENGTH], GError **error);

/* Appends message number counter encrypted under key to out, as
 * "COUNTER:BASE64(IV TAG CIPHERTEXT)", and moves mac on by it; FALSE
 * (nothing appended) when no random IV could be had. */
gboolean    slog_entry       (SlogCrypto *c, guint64 counter, const guint8 key[SLOG_KEY_LENGTH], const gchar *text,
                              gsize len, guint8 mac[SLOG_MAC_LENGTH], GString *out);
/* The key of the next message. */
void        slog_key_evolve  (SlogCrypto *c, guint8 key[SLOG_KEY_LENGTH]);

G_END_DECLS

#endif
