/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/templates/rsyslog/variable-name.h"

#include "core/message/member-name.h"

#include <string.h>

gboolean
rs_variable_has_prefix (const gchar *field, const gchar *prefix)
{
  return field && g_ascii_strncasecmp (field, prefix, strlen (prefix)) == 0;
}

/* The dynamic field added first among those whose name, up to len bytes
 * and then ending or going on with a dot, is name's in any case; NULL if
 * none. syslog-ng's structured data fields are none of rsyslog's $. */
static const gchar *
first_spelling (const SlMessage *msg, const gchar *name, gsize len)
{
  const gchar *best = NULL;
  guint32 best_order = G_MAXUINT32;

  for (guint32 i = 0; i < msg->n_fields; i++)
    {
      const gchar *field = sl_field_name (msg->fields[i].handle);
      if (field && !g_str_has_prefix (field, ".SDATA.") && msg->fields[i].order < best_order && g_ascii_strncasecmp (field, name, len) == 0
          && (field[len] == '\0' || field[len] == '.'))
        {
          best = field;
          best_order = msg->fields[i].order;
        }
    }
  return best;
}

SlHandle
rs_variable_find (const SlMessage *msg, const gchar *name, SlHandle exact)
{
  if (exact && sl_message_has (msg, exact))
    return exact;
  gsize len = strlen (name);
  const gchar *field = first_spelling (msg, name, len);
  return field && field[len] == '\0' ? sl_field_lookup (field) : SL_F_NONE;
}

gboolean
rs_variable_is_object (const SlValue *value)
{
  return value->type == SL_VALUE_JSON && value->len && value->ptr[0] == '{';
}

/* Whether the first len bytes of name, in any case, hold a value that is
 * no object: a field of that name, no member of it set and its value no
 * JSON object (an mmnormalize or parse_json() container's); a string is
 * one whatever its text, "{x" too, as in rsyslogd */
static gboolean
holds_scalar (const SlMessage *msg, const gchar *name, gsize len)
{
  gboolean scalar = FALSE;

  for (guint32 i = 0; i < msg->n_fields; i++)
    {
      const gchar *field = sl_field_name (msg->fields[i].handle);
      if (!field || g_str_has_prefix (field, ".SDATA.") || g_ascii_strncasecmp (field, name, len) != 0)
        continue;
      if (field[len] == '.')
        return FALSE;
      if (field[len] == '\0')
        scalar = !rs_variable_is_object (&msg->fields[i]);
    }
  return scalar;
}

gboolean
rs_variable_under_scalar (const SlMessage *msg, const gchar *name)
{
  for (const gchar *dot = sl_member_name_end (name + 1); *dot; dot = sl_member_name_end (dot + 1))
    if (holds_scalar (msg, name, (gsize) (dot - name)))
      return TRUE;
  return FALSE;
}

gchar *
rs_variable_spelling (const SlMessage *msg, const gchar *name)
{
  gchar *spelt = NULL;

  /* each part in turn, the sigil and first name, then every ".member";
   * a copy is made only once a part is spelt otherwise */
  for (gsize end = 1; name[end];)
    {
      end = (gsize) (sl_member_name_end (name + end + (end > 1)) - name);
      const gchar *so_far = spelt ? spelt : name;
      const gchar *field = first_spelling (msg, so_far, end);
      if (!field)
        break;
      if (memcmp (field, so_far, end) != 0)
        {
          if (!spelt)
            spelt = g_strdup (name);
          memcpy (spelt, field, end);
        }
    }
  return spelt;
}
