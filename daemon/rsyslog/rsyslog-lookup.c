/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's lookup tables: lookup_table(name= file= reloadOnHUP=) and
 * lookup("name", key) as $(lookup-table) of plugins/templates/lookup, which
 * reads the file when the configuration is loaded. rsyslog's HUP re-reads
 * a table with reloadOnHUP="on" (its default): Sluice's reload (SIGHUP,
 * sluicectl reload) loads the configuration again, and with it the
 * table; "off" is --keep, the table read once in the process's life. */
#include "daemon/rsyslog/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"

#include <string.h>

gboolean
sl_rs_lookup_table (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  const SlRsParam *name = sl_rs_param_find (params, "name");
  const SlRsParam *file = sl_rs_param_find (params, "file");
  const SlRsParam *reload = sl_rs_param_find (params, "reloadonhup");

  for (guint i = 0; i < params->len; i++)
    {
      const SlRsParam *p = g_ptr_array_index (params, i);
      if (p != name && p != file && p != reload)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, p->pos,
                            _("the parameter '%s' of rsyslog's lookup_table() is not supported"), p->name);
          return FALSE;
        }
    }
  if (!name || !file)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, "%s", _("an rsyslog lookup_table() needs name= and file="));
      return FALSE;
    }
  if (g_hash_table_contains (c->lookup_tables, name->value))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, name->pos, _("the rsyslog lookup table '%s' is defined twice"),
                        name->value);
      return FALSE;
    }
  GString *call = g_string_new ("$(lookup-table ");
  if (reload && !sl_rs_is_true (reload->value))
    g_string_append (call, "--keep ");
  g_string_append_c (call, '"');
  for (const gchar *p = file->value; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (call, '\\');
      g_string_append_c (call, *p);
    }
  g_string_append (call, "\" ");
  g_hash_table_insert (c->lookup_tables, g_strdup (name->value), g_string_free (call, FALSE));
  return TRUE;
}

gboolean
sl_rs_lookup_call (SlRsConf *c, const gchar *table, const gchar *key, SlCfgPos pos, GString *out, GError **error)
{
  const gchar *call = g_hash_table_lookup (c->lookup_tables, table);

  if (!call)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_REFERENCE, pos,
                        _("there is no rsyslog lookup_table() named '%s' before this line"), table);
      return FALSE;
    }
  /* the key in quotes: one argument whatever spaces its template has */
  g_string_append_printf (out, "%s\"", call);
  for (const gchar *p = key; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
  g_string_append (out, "\")");
  return TRUE;
}
