/* SPDX-License-Identifier: GPL-2.0-or-later */
/* WELF and CEF extension text, escaped byte for byte as syslog-ng 3.38's
 * format-welf (append_unsafe_utf8_as_escaped_binary) and
 * format-cef-extension escape it. */
#include "plugins/templates/json/kv-formats.h"
#include "core/message/str-repr.h"

#include <string.h>

/* syslog-ng's append_unsafe_utf8_as_escaped_binary(), '"' escaped inside quotes */
static const SlStrReprEscape welf_escape = { "\b\f\n\r\t", NULL, "\\x", 2, "\\x" };
static const SlStrReprEscape welf_quoted_escape = { "\b\f\n\r\t", "\"", "\\x", 2, "\\x" };
static const SlStrReprEscape cef_escape = { "\n\r", "=", "\\u", 4, "\\x" };

void
kv_append_welf (GString *out, const KvPair *pairs, guint n, gboolean *first)
{
  for (guint i = 0; i < n; i++)
    {
      if (!*first)
        g_string_append_c (out, ' ');
      *first = FALSE;
      g_string_append (out, pairs[i].key);
      g_string_append_c (out, '=');
      gboolean quote = memchr (pairs[i].value, ' ', pairs[i].len) != NULL;
      if (quote)
        g_string_append_c (out, '"');
      sl_str_repr_escape_append (out, pairs[i].value, pairs[i].len, quote ? &welf_quoted_escape : &welf_escape);
      if (quote)
        g_string_append_c (out, '"');
    }
}

gboolean
kv_append_cef (GString *out, const KvPair *pairs, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      const gchar *key = pairs[i].key;
      if (key[strspn (key, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")])
        return FALSE;
      if (i)
        g_string_append_c (out, ' ');
      g_string_append (out, key);
      g_string_append_c (out, '=');
      sl_str_repr_escape_append (out, pairs[i].value, pairs[i].len, &cef_escape);
    }
  return TRUE;
}
