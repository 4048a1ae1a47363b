/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "python-options.h"
#include <errno.h>
#include <string.h>

/* syslog-ng's number suffixes: k, M, G (1000's powers, 1024's with i),
 * then an optional b. */
static gboolean
apply_suffix (const gchar *suffix, gint64 *v)
{
  static const gchar exponents[] = "kmg";
  const gchar *e = *suffix ? strchr (exponents, g_ascii_tolower (*suffix)) : NULL;
  gint64 base = 1000;

  if (!*suffix)
    return TRUE;
  if (!e)
    return FALSE;
  suffix++;
  if (*suffix == 'i' || *suffix == 'I')
    base = 1024, suffix++;
  if (*suffix == 'b' || *suffix == 'B')
    suffix++;
  if (*suffix)
    return FALSE;
  for (gint i = 0; i <= e - exponents; i++)
    {
      if (*v > G_MAXINT64 / base || *v < G_MININT64 / base)
        return FALSE;
      *v *= base;
    }
  return TRUE;
}

/* A bare number as syslog-ng's lexer reads one: 0x hex, 0 octal, or
 * decimal with a suffix. */
static gboolean
parse_number (const gchar *text, gint64 *out)
{
  gchar *end;
  gboolean hex = g_str_has_prefix (text, "0x");
  gboolean octal = !hex && text[0] == '0' && g_ascii_isdigit (text[1]);

  if (!hex && !octal && !g_ascii_isdigit (*text) && !((*text == '-' || *text == '+') && g_ascii_isdigit (text[1])))
    return FALSE;
  errno = 0;
  *out = g_ascii_strtoll (text, &end, hex ? 16 : octal ? 8 : 10);
  if (errno || end == text)
    return FALSE;
  return hex || octal ? *end == '\0' : apply_suffix (end, out);
}

/* (-|+)?digits.digits, as syslog-ng's LL_FLOAT. */
static gboolean
is_decimal (const gchar *text)
{
  const gchar *c = text + (*text == '-' || *text == '+');
  const gchar *dot = strchr (c, '.');

  if (!dot || dot == c || !dot[1])
    return FALSE;
  for (; *c; c++)
    if (c != dot && !g_ascii_isdigit (*c))
      return FALSE;
  return TRUE;
}

static PyObject *
typed_word (const gchar *word)
{
  static const gchar *const yes[] = { "yes", "on", "True" };
  static const gchar *const no[] = { "no", "off", "False" };
  gint64 number;

  for (guint i = 0; i < G_N_ELEMENTS (yes); i++)
    {
      if (g_str_equal (word, yes[i]))
        Py_RETURN_TRUE;
      if (g_str_equal (word, no[i]))
        Py_RETURN_FALSE;
    }
  if (is_decimal (word))
    return PyFloat_FromDouble (g_ascii_strtod (word, NULL));
  if (parse_number (word, &number))
    return PyLong_FromLongLong (number);
  return PyUnicode_FromString (word);
}

PyObject *
py_option_value (const SlCfgArg *arg, gboolean typed)
{
  if (arg->kind == SL_CFG_ARG_TEMPLATE)
    {
      PyObject *module = PyImport_ImportModule ("_syslogng");
      PyObject *value = module ? PyObject_CallMethod (module, "LogTemplate", "s", arg->value) : NULL;
      Py_XDECREF (module);
      return value;
    }
  if (typed && arg->kind == SL_CFG_ARG_WORD)
    return typed_word (arg->value);
  return PyUnicode_FromString (arg->value);
}
