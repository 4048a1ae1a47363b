/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/io/tls-names.h"

#include <openssl/x509v3.h>
#include <string.h>

static gboolean
label_matches (const gchar *pattern, gsize plen, const gchar *label, gsize llen)
{
  if (plen == 1 && pattern[0] == '*')
    return TRUE;
  if (plen && pattern[0] == '*')
    return plen - 1 <= llen && memcmp (pattern + 1, label + llen - (plen - 1), plen - 1) == 0;
  if (plen && pattern[plen - 1] == '*')
    return plen - 1 <= llen && memcmp (pattern, label, plen - 1) == 0;
  return plen == llen && memcmp (pattern, label, plen) == 0;
}

gboolean
sl_tls_name_matches (const gchar *pattern, const gchar *name)
{
  if (!strchr (pattern, '*'))
    return strcmp (pattern, name) == 0;
  g_auto (GStrv) want = g_strsplit (pattern, ".", -1);
  g_auto (GStrv) have = g_strsplit (name, ".", -1);
  if (g_strv_length (want) != g_strv_length (have))
    return FALSE;
  for (guint i = 0; want[i]; i++)
    if (!label_matches (want[i], strlen (want[i]), have[i], strlen (have[i])))
      return FALSE;
  return TRUE;
}

static gboolean
any_matches (gchar **patterns, const gchar *name, gsize len)
{
  if (!name || strlen (name) != len)
    return FALSE;   /* an embedded NUL: no name of a host */
  for (gchar **p = patterns; *p; p++)
    if (sl_tls_name_matches (*p, name))
      return TRUE;
  return FALSE;
}

gboolean
sl_tls_cert_names_match (X509 *cert, gchar **patterns)
{
  gboolean found = FALSE;
  GENERAL_NAMES *names = X509_get_ext_d2i (cert, NID_subject_alt_name, NULL, NULL);
  for (int i = 0; names && !found && i < sk_GENERAL_NAME_num (names); i++)
    {
      const GENERAL_NAME *n = sk_GENERAL_NAME_value (names, i);
      if (n->type == GEN_DNS)
        found = any_matches (patterns, (const gchar *) ASN1_STRING_get0_data (n->d.dNSName),
                             (gsize) ASN1_STRING_length (n->d.dNSName));
    }
  GENERAL_NAMES_free (names);
  if (found)
    return TRUE;
  gchar cn[256];
  gint len = X509_NAME_get_text_by_NID (X509_get_subject_name (cert), NID_commonName, cn, sizeof cn);
  return len > 0 && any_matches (patterns, cn, (gsize) len);
}
