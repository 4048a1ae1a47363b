/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux-audit-parser(): kv-parser() for the records of the kernel's audit
 * subsystem, which writes a value in hex when it holds a space, a quote or
 * a control character. As syslog-ng does, an unquoted even-length hex value
 * of a field that may be so encoded (a0, a1 ..., name, proctitle, path,
 * ...) is decoded when the kernel would have had to encode what it gives
 * and it gives UTF-8; a NUL becomes a tab (proctitle separates arguments
 * so). */
#include "plugins/parsers/kv/kv-parser.h"

#include <string.h>

static const gchar *const hex_encoded_fields[] = {
  "name", "proctitle", "path", "dir", "comm", "ocomm", "data", "old", "new", NULL
};

static gboolean
may_be_hex_encoded (const gchar *key, gsize len)
{
  if (len >= 2 && key[0] == 'a' && g_ascii_isdigit (key[1]))
    return TRUE;
  for (guint i = 0; hex_encoded_fields[i]; i++)
    if (strlen (hex_encoded_fields[i]) == len && memcmp (hex_encoded_fields[i], key, len) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
decode_hex (const KvScanner *scanner, GString *out)
{
  const GString *value = scanner->value;

  if (scanner->value_was_quoted || value->len % 2 || !g_ascii_isxdigit (value->str[0])
      || !may_be_hex_encoded (scanner->key, scanner->key_len))
    return FALSE;

  gboolean kernel_would_encode = FALSE;
  for (gsize i = 0; i < value->len; i += 2)
    {
      gint high = g_ascii_xdigit_value (value->str[i]);
      gint low = g_ascii_xdigit_value (value->str[i + 1]);
      if (high < 0 || low < 0)
        return FALSE;
      gint c = high << 4 | low;
      if (c < 0x21 || c > 0x7e || c == '"')
        kernel_would_encode = TRUE;
      g_string_append_c (out, c ? (gchar) c : '\t');
    }
  return kernel_would_encode && g_utf8_validate_len (out->str, out->len, NULL);
}

static gboolean
linux_audit_parser_process (SlDriver *self, SlMessage **msg)
{
  return kv_parser_scan ((KvParser *) self, msg, decode_hex);
}

static const SlParserOps linux_audit_parser_ops = { .process = linux_audit_parser_process };

const SlDriverClass linux_audit_parser_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "linux-audit-parser",
  .summary = "sets fields from a Linux audit record's key=value pairs, hex-encoded values decoded",
  .options = kv_parser_options,
  .instance_size = sizeof (KvParser),
  .init = kv_parser_init,
  .ops.parser = &linux_audit_parser_ops,
};
