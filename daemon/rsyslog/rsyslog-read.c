/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What every part of rsyslog's front end reads with, above its lexer: an
 * error at a position, an expected character, a plain value, a backtick
 * value. */
#include "daemon/rsyslog/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

gboolean
sl_rs_fail (SlRsReader *r, SlCfgPos pos, const gchar *format, ...)
{
  va_list args;

  va_start (args, format);
  g_autofree gchar *message = g_strdup_vprintf (format, args);
  va_end (args);
  sl_cfg_error_set (r->error, SL_CFG_ERROR_SYNTAX, pos, "%s", message);
  return FALSE;
}

gboolean
sl_rs_expect_char (SlRsReader *r, gchar want, const gchar *what)
{
  sl_rs_lexer_skip_blanks (&r->lx, TRUE);
  if (sl_rs_lexer_peek (&r->lx, 0) != want)
    return sl_rs_fail (r, sl_rs_lexer_pos (&r->lx), _("%s was expected here"), what);
  sl_rs_lexer_advance (&r->lx, 1);
  return TRUE;
}

/* rsyslog 8.2302's `echo TEXT`, its escapes resolved: TEXT as it is,
 * each $NAME (up to the next white space, whatever it holds: $A-b and
 * ${A} name A-b and {A}) replaced by that environment variable's value,
 * or nothing when it is not set */
static gchar *
backtick_echo (const gchar *text)
{
  GString *out = g_string_new (NULL);

  for (const gchar *p = text; *p;)
    {
      if (*p != '$')
        {
          g_string_append_c (out, *p++);
          continue;
        }
      gsize n = strcspn (++p, " \t\n\r\f\v");
      g_autofree gchar *name = g_strndup (p, n);
      const gchar *value = g_getenv (name);
      if (value)
        g_string_append (out, value);
      p += n;
    }
  return g_string_free (out, FALSE);
}

/* A `...` value, which rsyslogd evaluates as it loads: `echo TEXT` and
 * `cat FILE` (the file's whole text) only, never a shell; it reports any
 * other command, and a file it cannot read, as an error. */
gboolean
sl_rs_read_backtick (SlRsReader *r, gchar **value)
{
  SlCfgPos pos = sl_rs_lexer_pos (&r->lx);
  g_autofree gchar *command = NULL;

  if (!sl_rs_lexer_read_string (&r->lx, &command, r->error))
    return FALSE;
  if (g_str_has_prefix (command, "echo "))
    {
      *value = backtick_echo (command + strlen ("echo "));
      return TRUE;
    }
  if (g_str_has_prefix (command, "cat "))
    {
      g_autoptr (GError) local = NULL;
      if (g_file_get_contents (command + strlen ("cat "), value, NULL, &local))
        return TRUE;
      return sl_rs_fail (r, pos, _("`%s`: %s"), command, local->message);
    }
  return sl_rs_fail (r, pos, _("`%s`: rsyslog runs only `echo TEXT` and `cat FILE` between backticks"), command);
}

gboolean
sl_rs_read_plain_value (SlRsReader *r, gchar **value)
{
  gchar q = sl_rs_lexer_peek (&r->lx, 0);

  if (q == '"' || q == '\'')
    return sl_rs_lexer_read_string (&r->lx, value, r->error);
  if (q == '`')
    return sl_rs_read_backtick (r, value);
  *value = sl_rs_lexer_read_until_blank (&r->lx, "()[],;{}=");
  if (!*value)
    return sl_rs_fail (r, sl_rs_lexer_pos (&r->lx), _("%s was expected here"), _("a value"));
  return TRUE;
}
