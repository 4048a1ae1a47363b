/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "python-options.h"
#include <errno.h>
#include <string.h>

/* syslog-ng's number suffixes, each part optional: k, M or G (powers
 * of 1000, of 1024 with i), then b. */
static gboolean
apply_suffix (const gchar *suffix, gint64 *v)
{
  static const gchar exponents[] = "kmg";
  const gchar *e = *suffix ? strchr (exponents, g_ascii_tolower (*suffix)) : NULL;
  gint64 base = 1000;

  if (e)
    suffix++;
  if (*suffix == 'i' || *suffix == 'I')
    base = 1024, suffix++;
  if (*suffix == 'b' || *suffix == 'B')
    suffix++;
  if (*suffix)
    return FALSE;
  for (gint i = 0; e && i <= e - exponents; i++)
    {
      if (*v > G_MAXINT64 / base || *v < G_MININT64 / base)
        return FALSE;
      *v *= base;
    }
  return TRUE;
}

static gboolean
all_digits (const gchar *text, const gchar *digits)
{
  return *text && strspn (text, digits) == strlen (text);
}

/* A bare number as syslog-ng's lexer reads one: 0x hex, 0 octal, else
 * decimal with a suffix. */
static gboolean
parse_number (const gchar *text, gint64 *out)
{
  const gchar *digits = text + (*text == '-' || *text == '+');
  gchar *end;

  errno = 0;
  if (g_str_has_prefix (text, "0x") && all_digits (text + 2, "0123456789abcdefABCDEF"))
    *out = g_ascii_strtoll (text + 2, &end, 16);
  else if (text[0] == '0' && all_digits (text + 1, "01234567"))
    *out = g_ascii_strtoll (text, &end, 8);
  else if (g_ascii_isdigit (*digits))
    {
      *out = g_ascii_strtoll (text, &end, 10);
      return !errno && apply_suffix (end, out);
    }
  else
    return FALSE;
  return !errno;
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
