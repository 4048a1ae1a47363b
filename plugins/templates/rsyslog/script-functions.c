/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RainerScript's functions and operators as rsyslogd 8.2302 evaluates
 * them, for the expressions the rsyslog front end translates. A value is
 * text; where rsyslog takes a number from a string it reads an optional
 * '-' and the digits that follow (the empty string is 0), and it counts
 * the string a number only when nothing else follows. Booleans are "1"
 * and "0". */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/plugin/plugin.h"
#include "core/message/template.h"
#include "plugins/templates/rsyslog/foreach.h"
#include "plugins/templates/rsyslog/variable-name.h"
#include "plugins/templates/rsyslog/variable-set.h"
#include "plugins/templates/rsyslog/json-c-text.h"

#include <jansson.h>
#include <regex.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static gint64
str2num (const gchar *s, gboolean *whole)
{
  guint64 n = 0;
  gboolean negative = *s == '-';
  const gchar *p = s + negative;

  for (; g_ascii_isdigit (*p); p++)
    n = n * 10 + (guint64) (*p - '0');
  if (whole)
    *whole = !*s || !*p;
  return negative ? (gint64) (0 - n) : (gint64) n;
}

static gchar *
arg (const SlTfCall *call, gint i, const SlMessage *msg, const SlTemplateEnv *env)
{
  GString *text = g_string_new (NULL);
  sl_template_append (call->arg_templates[i], msg, env, text);
  return g_string_free (text, FALSE);
}

static gint64
arg_num (const SlTfCall *call, gint i, const SlMessage *msg, const SlTemplateEnv *env, gboolean *whole)
{
  g_autofree gchar *text = arg (call, i, msg, env);
  return str2num (text, whole);
}

static void
append_num (GString *out, gint64 n)
{
  g_string_append_printf (out, "%" G_GINT64_FORMAT, n);
}

/* Arguments each function takes */
static const struct
{
  const gchar *name;
  gint min, max;
  const gchar *usage;
} arities[] = {
  { "rsyslog-num", 1, 1, N_("$(rsyslog-num VALUE)") },
  { "rsyslog-bool", 1, 1, N_("$(rsyslog-bool VALUE)") },
  { "rsyslog-calc", 3, 3, N_("$(rsyslog-calc +|-|*|/|% A B)") },
  { "rsyslog-cmp", 4, 4, N_("$(rsyslog-cmp OPERATOR ss|sn|ns|nn A B)") },
  { "rsyslog-substring", 3, 3, N_("$(rsyslog-substring TEXT START LENGTH)") },
  { "rsyslog-field", 3, 3, N_("$(rsyslog-field TEXT DELIMITER NUMBER)") },
  { "rsyslog-field-char", 3, 3, N_("$(rsyslog-field-char TEXT CODE NUMBER)") },
  { "rsyslog-re-match", 3, 3, N_("$(rsyslog-re-match case|icase REGEX TEXT)") },
  { "rsyslog-re-extract", 6, 6, N_("$(rsyslog-re-extract case|icase REGEX TEXT MATCH SUBMATCH NOMATCH)") },
  { "rsyslog-replace", 3, 3, N_("$(rsyslog-replace TEXT FIND WITH)") },
  { "rsyslog-strlen", 1, 1, N_("$(rsyslog-strlen TEXT)") },
  { "rsyslog-lower", 1, 1, N_("$(rsyslog-lower TEXT)") },
  { "rsyslog-upper", 1, 1, N_("$(rsyslog-upper TEXT)") },
  { "rsyslog-ltrim", 1, 1, N_("$(rsyslog-ltrim TEXT)") },
  { "rsyslog-rtrim", 1, 1, N_("$(rsyslog-rtrim TEXT)") },
  { "rsyslog-int2hex", 1, 1, N_("$(rsyslog-int2hex NUMBER)") },
  { "rsyslog-ipv42num", 1, 1, N_("$(rsyslog-ipv42num ADDRESS)") },
  { "rsyslog-num2ipv4", 1, 1, N_("$(rsyslog-num2ipv4 NUMBER)") },
  { "rsyslog-getenv", 1, 1, N_("$(rsyslog-getenv NAME)") },
  { "rsyslog-random", 1, 1, N_("$(rsyslog-random MAX)") },
  { "rsyslog-format-time", 2, 2, N_("$(rsyslog-format-time UNIXTIME date-rfc3164|date-rfc3339)") },
  { "rsyslog-parse-time", 1, 1, N_("$(rsyslog-parse-time TEXT)") },
  { "rsyslog-is-time", 1, 2, N_("$(rsyslog-is-time TEXT [FORMAT])") },
  { "rsyslog-exists", 1, 1, N_("$(rsyslog-exists FIELD)") },
  { "rsyslog-json-prefix", 2, 2, N_("$(rsyslog-json-prefix kind|object|text|value TEXT)") },
};

/* The text of a literal argument: its template rendered without a message */
static gchar *
literal_arg (const SlTfCall *call, gint i)
{
  SlMessage *empty = sl_message_new ("", 0);
  gchar *text = arg (call, i, empty, NULL);
  sl_message_unref (empty);
  return text;
}

static gboolean
literal_is (const SlTfCall *call, gint i, const gchar *const *words, GError **error)
{
  g_autofree gchar *text = literal_arg (call, i);
  if (g_strv_contains (words, text))
    return TRUE;
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("$(%s): '%s' is not one of its words"),
               call->klass->name, text);
  return FALSE;
}

static void
regex_free (gpointer state)
{
  regfree (state);
  g_free (state);
}

/* rsyslog compiles re_match() and re_extract() patterns as POSIX extended
 * regular expressions */
static gboolean
regex_prepare (SlTfCall *call, GError **error)
{
  static const gchar *const cases[] = { "case", "icase", NULL };
  if (!literal_is (call, 0, cases, error))
    return FALSE;
  g_autofree gchar *casing = literal_arg (call, 0);
  g_autofree gchar *pattern = literal_arg (call, 1);
  regex_t *re = g_new0 (regex_t, 1);
  gint code = regcomp (re, pattern, REG_EXTENDED | (g_str_equal (casing, "icase") ? REG_ICASE : 0));
  if (code)
    {
      gchar why[256];
      regerror (code, re, why, sizeof why);
      g_free (re);
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("cannot compile the regular expression '%s': %s"),
                   pattern, why);
      return FALSE;
    }
  call->state = re;
  return TRUE;
}

static gboolean
script_prepare (SlTfCall *call, GError **error)
{
  static const gchar *const ops[] = { "+", "-", "*", "/", "%", NULL };
  static const gchar *const comparisons[] = { "eq", "ne", "lt", "le", "gt", "ge", "contains", "contains_i",
                                              "startswith", "startswith_i", NULL };
  static const gchar *const kinds[] = { "ss", "sn", "ns", "nn", NULL };
  static const gchar *const modes[] = { "kind", "object", "text", "value", NULL };

  for (guint i = 0; i < G_N_ELEMENTS (arities); i++)
    if (g_str_equal (call->klass->name, arities[i].name))
      {
        if (call->argc < arities[i].min || call->argc > arities[i].max)
          {
            g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("$(%s) takes %s"), call->klass->name,
                         _(arities[i].usage));
            return FALSE;
          }
        break;
      }
  if (g_str_equal (call->klass->name, "rsyslog-calc"))
    return literal_is (call, 0, ops, error);
  if (g_str_equal (call->klass->name, "rsyslog-cmp"))
    return literal_is (call, 0, comparisons, error) && literal_is (call, 1, kinds, error);
  if (g_str_has_prefix (call->klass->name, "rsyslog-re-"))
    return regex_prepare (call, error);
  if (g_str_equal (call->klass->name, "rsyslog-json-prefix"))
    return literal_is (call, 0, modes, error);
  return TRUE;
}

static void
num_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  append_num (out, arg_num (call, 0, msg, env, NULL));
}

static void
bool_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_string_append (out, arg_num (call, 0, msg, env, NULL) ? "1" : "0");
}

/* Wrapping as rsyslogd's 64-bit arithmetic; a division by zero is 0 */
static void
calc_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *op = arg (call, 0, msg, env);
  guint64 a = (guint64) arg_num (call, 1, msg, env, NULL);
  guint64 b = (guint64) arg_num (call, 2, msg, env, NULL);
  gint64 result = 0;

  switch (*op)
    {
    case '+': result = (gint64) (a + b); break;
    case '-': result = (gint64) (a - b); break;
    case '*': result = (gint64) (a * b); break;
    case '/':
      if (b && !((gint64) a == G_MININT64 && (gint64) b == -1))
        result = (gint64) a / (gint64) b;
      break;
    default:
      if (b && (gint64) b != -1)
        result = (gint64) a % (gint64) b;
      break;
    }
  append_num (out, result);
}

/* == and != compare numbers when one side is a number (KIND n) and the
 * other a string that is one, else the texts; the orderings compare
 * numbers when both texts are numbers. Texts compare as bytes; contains
 * and startswith (_i: ASCII case ignored) look for B in A. */
static void
cmp_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *op = arg (call, 0, msg, env);
  g_autofree gchar *kind = arg (call, 1, msg, env);
  g_autofree gchar *a = arg (call, 2, msg, env);
  g_autofree gchar *b = arg (call, 3, msg, env);
  gboolean whole_a, whole_b;
  gint64 na = str2num (a, &whole_a);
  gint64 nb = str2num (b, &whole_b);
  gint order;

  if (g_str_has_prefix (op, "contains") || g_str_has_prefix (op, "startswith"))
    {
      gboolean icase = g_str_has_suffix (op, "_i");
      g_autofree gchar *text = icase ? g_ascii_strdown (a, -1) : g_strdup (a);
      g_autofree gchar *part = icase ? g_ascii_strdown (b, -1) : g_strdup (b);
      /* rsyslogd's startswith_i compares only as far as both go */
      gsize common = icase ? MIN (strlen (text), strlen (part)) : strlen (part);
      gboolean holds = op[0] == 'c' ? strstr (text, part) != NULL : strncmp (text, part, common) == 0;
      g_string_append (out, holds ? "1" : "0");
      return;
    }
  if (op[0] == 'e' || op[0] == 'n')
    {
      gboolean numeric = (kind[0] == 'n' && kind[1] == 'n') || (kind[0] == 'n' && whole_b)
                         || (kind[1] == 'n' && whole_a);
      order = numeric ? (na > nb) - (na < nb) : strcmp (a, b);
      g_string_append (out, (order == 0) == (op[0] == 'e') ? "1" : "0");
      return;
    }
  order = whole_a && whole_b ? (na > nb) - (na < nb) : strcmp (a, b);
  gboolean holds = op[0] == 'l' ? (op[1] == 't' ? order < 0 : order <= 0) : (op[1] == 't' ? order > 0 : order >= 0);
  g_string_append (out, holds ? "1" : "0");
}

/* A negative length counts from the end; a start past the end is empty */
static void
substring_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *text = arg (call, 0, msg, env);
  gint64 len = (gint64) strlen (text);
  gint64 start = MAX (arg_num (call, 1, msg, env, NULL), 0);
  gint64 count = arg_num (call, 2, msg, env, NULL);

  if (start >= len)
    return;
  if (count < 0)
    count = MAX (len + count, 0);
  count = MIN (count, len - start);
  g_string_append_len (out, text + start, (gssize) count);
}

static void
field_found (GString *out, const gchar *from, const gchar *end)
{
  if (from)
    g_string_append_len (out, from, end ? end - from : (gssize) strlen (from));
  else
    g_string_append (out, "***FIELD NOT FOUND***");
}

/* Fields counted from 1, split at each occurrence of DELIMITER */
static void
field_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *text = arg (call, 0, msg, env);
  g_autofree gchar *delim = arg (call, 1, msg, env);
  gint64 wanted = arg_num (call, 2, msg, env, NULL);
  gsize delim_len = strlen (delim);
  const gchar *at = text;
  gint64 n = 1;

  while (at && n < wanted)
    if ((at = strstr (at, delim)))
      {
        at += delim_len;
        n++;
      }
  field_found (out, n == wanted ? at : NULL, n == wanted ? strstr (at, delim) : NULL);
}

/* Split at the character of code CODE; a text that ends before the field
 * has it not */
static void
field_char_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *text = arg (call, 0, msg, env);
  gchar delim = (gchar) arg_num (call, 1, msg, env, NULL);
  gint64 wanted = arg_num (call, 2, msg, env, NULL);
  const gchar *at = text;
  gint64 n = 1;

  while (*at && n < wanted)
    {
      while (*at && *at != delim)
        at++;
      if (*at == delim)
        {
          at++;
          n++;
        }
    }
  field_found (out, n == wanted ? at : NULL, n == wanted ? strchr (at, delim) : NULL);
}

static void
re_match_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *text = arg (call, 2, msg, env);
  g_string_append (out, regexec (call->state, text, 0, NULL, 0) == 0 ? "1" : "0");
}

/* The SUBMATCH of the MATCHth match (from 0), each search going on after
 * the last match's end; NOMATCH when there is none */
static void
re_extract_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *text = arg (call, 2, msg, env);
  gint64 wanted = (gint16) arg_num (call, 3, msg, env, NULL);
  guint64 sub = (guint64) arg_num (call, 4, msg, env, NULL);
  regmatch_t m[50];
  gsize offset = 0;

  for (gint64 tries = 0; sub < G_N_ELEMENTS (m); tries++)
    {
      if (regexec (call->state, text + offset, (gsize) sub + 1, m, 0) != 0 || m[0].rm_so == -1)
        break;
      if (tries == wanted)
        {
          if (m[sub].rm_so == -1)
            break;
          g_string_append_len (out, text + offset + m[sub].rm_so, m[sub].rm_eo - m[sub].rm_so);
          return;
        }
      if (m[0].rm_eo == 0)
        {
          if (!text[offset])
            break;
          offset++;
        }
      else
        offset += (gsize) m[0].rm_eo;
    }
  sl_template_append (call->arg_templates[5], msg, env, out);
}

/* Each occurrence from the left, not overlapping; an empty FIND makes
 * the whole text WITH */
static void
replace_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *text = arg (call, 0, msg, env);
  g_autofree gchar *find = arg (call, 1, msg, env);
  g_autofree gchar *with = arg (call, 2, msg, env);
  gsize find_len = strlen (find);

  if (!find_len)
    {
      g_string_append (out, with);
      return;
    }
  const gchar *at = text;
  for (const gchar *hit; (hit = strstr (at, find)); at = hit + find_len)
    {
      g_string_append_len (out, at, hit - at);
      g_string_append (out, with);
    }
  g_string_append (out, at);
}

static void
strlen_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *text = arg (call, 0, msg, env);
  append_num (out, (gint64) strlen (text));
}

/* rsyslog changes the case of ASCII letters only */
static void
lower_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *text = arg (call, 0, msg, env);
  g_autofree gchar *lower = g_ascii_strdown (text, -1);
  g_string_append (out, lower);
}

static void
upper_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *text = arg (call, 0, msg, env);
  g_autofree gchar *upper = g_ascii_strup (text, -1);
  g_string_append (out, upper);
}

/* Spaces only, not tabs */
static void
ltrim_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *text = arg (call, 0, msg, env);
  const gchar *p = text;
  while (*p == ' ')
    p++;
  g_string_append (out, p);
}

static void
rtrim_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *text = arg (call, 0, msg, env);
  gsize len = strlen (text);
  while (len && text[len - 1] == ' ')
    len--;
  g_string_append_len (out, text, (gssize) len);
}

/* NAN for what is not a number; a negative one in two's complement */
static void
int2hex_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gboolean whole;
  gint64 n = arg_num (call, 0, msg, env, &whole);
  if (whole)
    g_string_append_printf (out, "%" G_GINT64_MODIFIER "x", (guint64) n);
  else
    g_string_append (out, "NAN");
}

/* Four numbers and three dots, spaces allowed before and after the
 * address; -1 for anything else. Each part is taken as written, even
 * above 255. */
static void
ipv42num_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *text = arg (call, 0, msg, env);
  guint32 parts[4] = { 0 };
  gint dots = 0;
  gboolean after_dot = FALSE, leading = FALSE, trailing = FALSE;

  for (gsize i = 0; text[i]; i++)
    {
      gchar c = text[i];
      if (g_ascii_isdigit (c) && !trailing)
        {
          after_dot = leading = FALSE;
          parts[dots] = parts[dots] * 10 + (guint32) (c - '0');
        }
      else if (c == ' ')
        {
          after_dot = FALSE;
          if (i == 0 || leading)
            leading = TRUE;
          else
            trailing = TRUE;
        }
      else if (c == '.' && !trailing && !after_dot && dots < 3)
        {
          leading = FALSE;
          after_dot = TRUE;
          dots++;
        }
      else
        {
          g_string_append (out, "-1");
          return;
        }
    }
  if (dots != 3)
    {
      g_string_append (out, "-1");
      return;
    }
  append_num (out, (gint64) (guint32) (parts[0] * 16777216u + parts[1] * 65536u + parts[2] * 256u + parts[3]));
}

static void
num2ipv4_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gboolean whole;
  gint64 n = arg_num (call, 0, msg, env, &whole);
  if (!whole || n < 0 || n > G_MAXUINT32)
    g_string_append (out, "-1");
  else
    g_string_append_printf (out, "%d.%d.%d.%d", (gint) (n >> 24), (gint) (n >> 16 & 255), (gint) (n >> 8 & 255),
                            (gint) (n & 255));
}

static void
getenv_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *name = arg (call, 0, msg, env);
  const gchar *value = g_getenv (name);
  if (value)
    g_string_append (out, value);
}

/* From 0 to below the size of MAX; 0 when MAX is 0 or not a number */
static void
random_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gboolean whole;
  gint64 max = arg_num (call, 0, msg, env, &whole);
  if (!whole || !max)
    {
      g_string_append_c (out, '0');
      return;
    }
  guint64 range = max < 0 ? (guint64) 0 - (guint64) max : (guint64) max;
  append_num (out, (gint64) ((guint64) g_random_int_range (0, G_MAXINT32) % range));
}

static const gchar *const month_names[] = {
  "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
};

/* In UTC; the number as it was when it is not one or the format unknown */
static void
format_time_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *text = arg (call, 0, msg, env);
  g_autofree gchar *format = arg (call, 1, msg, env);
  gboolean whole;
  time_t t = (time_t) str2num (text, &whole);
  struct tm tm;

  if (!whole || !gmtime_r (&t, &tm))
    g_string_append_len (out, text, MIN ((gssize) strlen (text), 63));
  else if (g_str_equal (format, "date-rfc3164"))
    g_string_append_printf (out, "%s %2d %.2d:%.2d:%.2d", month_names[tm.tm_mon], tm.tm_mday, tm.tm_hour, tm.tm_min,
                            tm.tm_sec);
  else if (g_str_equal (format, "date-rfc3339"))
    g_string_append_printf (out, "%d-%.2d-%.2dT%.2d:%.2d:%.2dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                            tm.tm_hour, tm.tm_min, tm.tm_sec);
  else
    g_string_append_len (out, text, MIN ((gssize) strlen (text), 63));
}

/* An RFC 3339 stamp with nothing after it, as a time */
static GDateTime *
parse_3339 (const gchar *text)
{
  g_autoptr (GRegex) shape = g_regex_new ("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?(Z|[+-]\\d\\d:\\d\\d)$",
                                          0, 0, NULL);
  if (!g_regex_match (shape, text, 0, NULL))
    return NULL;
  return g_date_time_new_from_iso8601 (text, NULL);
}

/* "Mmm dd hh:mm:ss" (the day may be one digit after one or two spaces),
 * in UTC, in the year that makes the stamp closest to now */
static gboolean
parse_3164 (const gchar *text, gint64 *unixtime)
{
  gchar month[4];
  gint day, hour, minute, second, used = 0;

  if (sscanf (text, "%3s %2d %2d:%2d:%2d%n", month, &day, &hour, &minute, &second, &used) != 5 || text[used]
      || text[3] != ' ' || used < 14)
    return FALSE;
  for (guint m = 0; m < G_N_ELEMENTS (month_names); m++)
    if (g_str_equal (month, month_names[m]))
      {
        g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
        gint current = g_date_time_get_month (now);
        gint year = g_date_time_get_year (now);
        gint incoming = (gint) m + 1 + 12;

        if (incoming - current == 1 && current == 12 && incoming == 13)
          year++;
        else if (incoming - current > 13)
          year--;
        g_autoptr (GDateTime) stamp = g_date_time_new_utc (year, (gint) m + 1, day, hour, minute, second);
        if (!stamp || day < 1 || hour > 23 || minute > 59 || second > 60)
          return FALSE;
        *unixtime = g_date_time_to_unix (stamp);
        return TRUE;
      }
  return FALSE;
}

static void
parse_time_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *text = arg (call, 0, msg, env);
  g_autoptr (GDateTime) stamp = parse_3339 (text);
  gint64 unixtime = 0;

  if (stamp)
    unixtime = g_date_time_to_unix (stamp);
  else if (!parse_3164 (text, &unixtime))
    unixtime = 0;
  append_num (out, unixtime);
}

/* Without FORMAT any of date-rfc3164, date-rfc3339 and date-unix (a
 * number) */
static void
is_time_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *text = arg (call, 0, msg, env);
  g_autofree gchar *format = call->argc > 1 ? arg (call, 1, msg, env) : NULL;
  g_autoptr (GDateTime) stamp = parse_3339 (text);
  gint64 unixtime;
  gboolean whole;

  str2num (text, &whole);
  gboolean rfc3164 = (!format || g_str_equal (format, "date-rfc3164")) && parse_3164 (text, &unixtime);
  gboolean rfc3339 = (!format || g_str_equal (format, "date-rfc3339")) && stamp;
  gboolean unix_time = (!format || g_str_equal (format, "date-unix")) && whole;
  g_string_append (out, rfc3164 || rfc3339 || unix_time ? "1" : "0");
}

typedef struct
{
  const gchar *prefix;   /* "FIELD." */
  gsize len;
  gboolean found;
} Members;

static gboolean
find_member (SlHandle h, const gchar *value, gsize len, gpointer user_data)
{
  Members *members = user_data;
  (void) value;
  (void) len;
  members->found = rs_variable_has_prefix (sl_field_name (h), members->prefix);
  return !members->found;
}

/* A variable exists when its field is set, even empty, or a member of it
 * (rsyslog's $!a exists when $!a!b does), its name in any case */
static void
exists_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *name = arg (call, 0, msg, env);
  g_autofree gchar *prefix = g_strconcat (name, ".", NULL);
  Members members = { prefix, strlen (prefix), FALSE };

  if (!rs_variable_find (msg, name, sl_field_lookup (name)))
    sl_message_foreach_dynamic (msg, find_member, &members);
  else
    members.found = TRUE;
  g_string_append (out, members.found ? "1" : "0");
}

/* The JSON value that json-c, which rsyslogd 8.2302's parse_json() reads
 * with, takes from the start of text: what follows a complete value is
 * left, a number or true/false running to the end is incomplete, null is
 * none */
static json_t *
json_c_prefix (const gchar *text, gsize *end)
{
  json_error_t error;
  json_t *value = json_loads (text, JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY, &error);
  const gchar *p = text + strspn (text, " \t\r\n");

  *end = value ? (gsize) error.position : 0;

  if ((json_is_number (value) || json_is_boolean (value)) && !p[strspn (p, "+-0123456789.eEtruefals")])
    g_clear_pointer (&value, json_decref);
  if (json_is_null (value))
    g_clear_pointer (&value, json_decref);
  return value;
}

/* kind: "object", "empty" (an object without members), "value"
 * (anything else) or nothing for none; object: the object's JSON text as
 * it was written (a real keeps its digits), text: as rsyslog renders it;
 * value: the other value as rsyslog renders it, a string as JSON text, a
 * number as it was written */
static void
json_prefix_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autofree gchar *mode = arg (call, 0, msg, env);
  g_autofree gchar *text = arg (call, 1, msg, env);
  gsize end;
  json_t *value = json_c_prefix (text, &end);
  const gchar *start = text + strspn (text, " \t\r\n");

  if (!value)
    return;
  if (g_str_equal (mode, "kind"))
    g_string_append (out, !json_is_object (value) ? "value" : json_object_size (value) ? "object" : "empty");
  else if (g_str_equal (mode, "object") && json_is_object (value))
    g_string_append_len (out, start, (gssize) (text + end - start));
  else if (g_str_equal (mode, "text") && json_is_object (value))
    rs_json_c_append (out, value);
  else if (g_str_equal (mode, "value") && json_is_number (value))
    g_string_append_len (out, start, (gssize) (text + end - start));
  else if (g_str_equal (mode, "value") && !json_is_object (value))
    rs_json_c_append (out, value);
  json_decref (value);
}

#define SCRIPT_FUNCTION(id, fname, text)                                                                               \
  static const SlTemplateFunctionOps id##_ops = { .prepare = script_prepare, .eval = id##_eval };                     \
  static const SlDriverClass id##_class = {                                                                            \
    .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = fname, .summary = text, .ops.template_function = &id##_ops,            \
  }

static const SlTemplateFunctionOps re_match_ops = { .prepare = script_prepare, .eval = re_match_eval,
                                                    .free = regex_free };
static const SlTemplateFunctionOps re_extract_ops = { .prepare = script_prepare, .eval = re_extract_eval,
                                                      .free = regex_free };
static const SlDriverClass re_match_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-re-match",
  .summary = "1 when TEXT matches the POSIX extended REGEX, else 0, as rsyslog's re_match() and re_match_i()",
  .ops.template_function = &re_match_ops,
};
static const SlDriverClass re_extract_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-re-extract",
  .summary = "a submatch of the nth match of a POSIX extended regex, as rsyslog's re_extract()",
  .ops.template_function = &re_extract_ops,
};

SCRIPT_FUNCTION (num, "rsyslog-num", "VALUE as a number, as rsyslog's cnum(): the leading -digits, else 0");
SCRIPT_FUNCTION (bool, "rsyslog-bool", "1 when VALUE's number is not 0, else 0: a RainerScript condition's truth");
SCRIPT_FUNCTION (calc, "rsyslog-calc", "RainerScript's + - * / % of two numbers (a division by zero is 0)");
SCRIPT_FUNCTION (cmp, "rsyslog-cmp", "1 or 0 as a RainerScript comparison of numbers or strings holds");
SCRIPT_FUNCTION (substring, "rsyslog-substring", "rsyslog's substring(TEXT, START, LENGTH)");
SCRIPT_FUNCTION (field, "rsyslog-field", "rsyslog's field() with a string delimiter");
SCRIPT_FUNCTION (field_char, "rsyslog-field-char", "rsyslog's field() with a delimiter given by its character code");
SCRIPT_FUNCTION (replace, "rsyslog-replace", "rsyslog's replace(TEXT, FIND, WITH)");
SCRIPT_FUNCTION (strlen, "rsyslog-strlen", "the length of TEXT in bytes, as rsyslog's strlen()");
SCRIPT_FUNCTION (lower, "rsyslog-lower", "TEXT with ASCII letters in lower case, as rsyslog's tolower()");
SCRIPT_FUNCTION (upper, "rsyslog-upper", "TEXT with ASCII letters in upper case, as rsyslog's toupper()");
SCRIPT_FUNCTION (ltrim, "rsyslog-ltrim", "TEXT without its leading spaces, as rsyslog's ltrim()");
SCRIPT_FUNCTION (rtrim, "rsyslog-rtrim", "TEXT without its trailing spaces, as rsyslog's rtrim()");
SCRIPT_FUNCTION (int2hex, "rsyslog-int2hex", "a number in lower-case hexadecimal, as rsyslog's int2hex()");
SCRIPT_FUNCTION (ipv42num, "rsyslog-ipv42num", "a dotted IPv4 address as a number, -1 if it is none (ipv42num())");
SCRIPT_FUNCTION (num2ipv4, "rsyslog-num2ipv4", "a number as a dotted IPv4 address, -1 if it is none (num2ipv4())");
SCRIPT_FUNCTION (getenv, "rsyslog-getenv", "the value of an environment variable of sluiced, as rsyslog's getenv()");
SCRIPT_FUNCTION (random, "rsyslog-random", "a random number from 0 below MAX, as rsyslog's random()");
SCRIPT_FUNCTION (format_time, "rsyslog-format-time", "a unix time as date-rfc3164 or date-rfc3339 in UTC (format_time())");
SCRIPT_FUNCTION (parse_time, "rsyslog-parse-time", "an RFC 3339 or RFC 3164 stamp as a unix time, else 0 (parse_time())");
SCRIPT_FUNCTION (json_prefix, "rsyslog-json-prefix", "the JSON value rsyslog's parse_json() takes from the start of TEXT");
SCRIPT_FUNCTION (exists, "rsyslog-exists", "1 when the field FIELD or a member FIELD.NAME is set, even empty (exists())");
SCRIPT_FUNCTION (is_time, "rsyslog-is-time", "1 when TEXT is a time in the format given or any, as rsyslog's is_time()");

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "rsyslog-script-functions",
  .drivers = (const SlDriverClass *const[]) {
    &num_class, &bool_class, &calc_class, &cmp_class, &substring_class, &field_class, &field_char_class,
    &re_match_class, &re_extract_class, &replace_class, &strlen_class, &lower_class, &upper_class, &ltrim_class,
    &rtrim_class, &int2hex_class, &ipv42num_class, &num2ipv4_class, &getenv_class, &random_class,
    &format_time_class, &parse_time_class, &is_time_class, &exists_class,
    &json_prefix_class, &rsyslog_foreach_class, &rsyslog_set_class, &rsyslog_unset_class, NULL },
};
