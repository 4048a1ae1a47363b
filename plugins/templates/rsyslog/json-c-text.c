/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON as json-c writes it by default, which is what rsyslogd renders a
 * JSON variable as. */
#include "plugins/templates/rsyslog/json-c-text.h"

#include <string.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC (json_t, json_decref)

void
rs_json_c_append (GString *out, json_t *value)
{
  switch (json_typeof (value))
    {
    case JSON_STRING:
      g_string_append_c (out, '"');
      for (const gchar *p = json_string_value (value); *p; p++)
        {
          static const gchar named[] = { ['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't' };
          guchar c = (guchar) *p;
          if (c == '"' || c == '\\' || c == '/')
            g_string_append_printf (out, "\\%c", c);
          else if (c < sizeof named && named[c])
            g_string_append_printf (out, "\\%c", named[c]);
          else if (c < 0x20)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (gchar) c);
        }
      g_string_append_c (out, '"');
      return;
    case JSON_INTEGER:
      g_string_append_printf (out, "%" JSON_INTEGER_FORMAT, json_integer_value (value));
      return;
    case JSON_REAL:
      {
        gchar buffer[G_ASCII_DTOSTR_BUF_SIZE];
        g_ascii_formatd (buffer, sizeof buffer, "%.17g", json_real_value (value));
        g_string_append (out, buffer);
        if (!strpbrk (buffer, ".eEni"))
          g_string_append (out, ".0");
        return;
      }
    case JSON_TRUE:
      g_string_append (out, "true");
      return;
    case JSON_FALSE:
      g_string_append (out, "false");
      return;
    case JSON_NULL:
      g_string_append (out, "null");
      return;
    case JSON_ARRAY:
      {
        gsize i;
        json_t *item;
        g_string_append (out, "[ ");
        json_array_foreach (value, i, item)
          {
            if (i)
              g_string_append (out, ", ");
            rs_json_c_append (out, item);
          }
        g_string_append (out, json_array_size (value) ? " ]" : "]");
        return;
      }
    case JSON_OBJECT:
      {
        const gchar *key;
        json_t *member;
        gboolean first = TRUE;
        g_string_append (out, "{ ");
        json_object_foreach (value, key, member)
          {
            g_autoptr (json_t) name = json_string (key);
            if (!first)
              g_string_append (out, ", ");
            first = FALSE;
            rs_json_c_append (out, name);
            g_string_append (out, ": ");
            rs_json_c_append (out, member);
          }
        g_string_append (out, first ? "}" : " }");
        return;
      }
    }
}
