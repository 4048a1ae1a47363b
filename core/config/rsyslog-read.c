/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What every part of rsyslog's front end reads with, above its lexer: an
 * error at a position, an expected character, a plain value. */
#include "core/config/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"

#include <stdarg.h>

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

gboolean
sl_rs_read_plain_value (SlRsReader *r, gchar **value)
{
  gchar q = sl_rs_lexer_peek (&r->lx, 0);

  if (q == '"' || q == '\'')
    return sl_rs_lexer_read_string (&r->lx, value, r->error);
  *value = sl_rs_lexer_read_until_blank (&r->lx, "()[],;{}=");
  if (!*value)
    return sl_rs_fail (r, sl_rs_lexer_pos (&r->lx), _("%s was expected here"), _("a value"));
  return TRUE;
}
