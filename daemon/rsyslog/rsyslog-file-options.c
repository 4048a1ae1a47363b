/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What rsyslog's modules ask of a file or of the statistics: $outchannel
 * as omfile's file= and rotation.sizeLimit (which the file plugin maps
 * onto file(max-size())), impstats' log.file as stats(file()). Checked
 * against rsyslogd 8.2302 (tests/functional/test-rsyslog-more). */
#include "daemon/rsyslog/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"

#include <string.h>

static const gchar *
param_value (GPtrArray *params, const gchar *name)
{
  const SlRsParam *param = sl_rs_param_find (params, name);
  return param ? param->value : NULL;
}

static gboolean
refuse (GPtrArray *params, const gchar *name, const gchar *type, const gchar *why, GError **error)
{
  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, sl_rs_param_find (params, name)->pos,
                    _("the parameter '%s' of rsyslog's %s is not supported: %s"), name, type, why);
  return FALSE;
}

/* An $outchannel: its file, its size limit (0: none) and the command run
 * when the file reaches it */
typedef struct
{
  gchar *file;
  gchar *size;
  gchar *command;
} Outchannel;

static void
outchannel_free (gpointer data)
{
  Outchannel *o = data;
  g_free (o->file);
  g_free (o->size);
  g_free (o->command);
  g_free (o);
}

/* "$outchannel name,file,max-size,command" read as rsyslogd reads it:
 * blanks around the commas skipped, the file up to a blank or comma, the
 * size its digits, the command the rest of the line */
gboolean
sl_rs_outchannel_directive (SlRsConf *c, const gchar *value, SlCfgPos pos, GError **error)
{
  const gchar *p = value;
  g_autofree gchar *name = NULL;
  Outchannel *o = g_new0 (Outchannel, 1);
  gsize n;

  n = strcspn (p, ",");
  name = g_strstrip (g_strndup (p, n));
  p += n;
  for (guint field = 0; field < 3; field++)
    {
      while (g_ascii_isspace (*p))
        p++;
      if (*p == ',')
        p++;
      while (g_ascii_isspace (*p))
        p++;
      n = field == 0 ? strcspn (p, " ,") : field == 1 ? strspn (p, "0123456789") : strlen (p);
      gchar *text = g_strndup (p, n);
      p += n;
      if (field == 0)
        o->file = text;
      else if (field == 1)
        o->size = text;
      else
        o->command = g_strchomp (text);
    }
  if (!*name || !*o->file)
    {
      outchannel_free (o);
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, _("rsyslog's $outchannel needs a name and a file: "
                                                          "$outchannel name,file,max-size,command"));
      return FALSE;
    }
  if (!c->outchannels)
    c->outchannels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, outchannel_free);
  g_hash_table_replace (c->outchannels, g_steal_pointer (&name), o);
  return TRUE;
}

gboolean
sl_rs_outchannel (SlRsConf *c, const gchar *name, SlCfgPos pos, GPtrArray *params, GError **error)
{
  g_autofree gchar *word = g_strndup (name, strcspn (name, " "));
  const Outchannel *o = c->outchannels ? g_hash_table_lookup (c->outchannels, word) : NULL;

  if (!o)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("rsyslog's outchannel '%s' is not defined before the action"),
                        word);
      return FALSE;
    }
  sl_rs_params_add (params, "file", o->file, pos);
  /* a size of 0 or none is no limit, and its command never runs */
  if (g_ascii_strtoll (o->size, NULL, 10) > 0)
    {
      sl_rs_params_add (params, "rotation.sizelimit", o->size, pos);
      sl_rs_params_add (params, "rotation.sizelimitcommand", *o->command ? o->command : NULL, pos);
    }
  return TRUE;
}

/* impstats' log.file: the counters appended to the file every interval,
 * in its format (legacy, json, cee, json-elasticsearch) */
gboolean
sl_rs_impstats_file (GPtrArray *params, glong seconds, GString *stats, GError **error)
{
  static const gchar *const formats[] = { "legacy", "json", "cee", "json-elasticsearch" };
  const gchar *file = params ? param_value (params, "log.file") : NULL;
  const gchar *format = params && param_value (params, "format") ? param_value (params, "format") : "legacy";
  gboolean known = FALSE;

  if (!file)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (formats) && !known; i++)
    known = g_ascii_strcasecmp (format, formats[i]) == 0;
  if (!known)
    return refuse (params, "format", "impstats", _("it is legacy, json, cee or json-elasticsearch"), error);
  g_autofree gchar *lower = g_ascii_strdown (format, -1);
  sl_rs_append_option (stats, "file", file);
  g_string_append_printf (stats, " file-freq(%ld) file-format(%s)", MAX (seconds, 1L), lower);
  return TRUE;
}
