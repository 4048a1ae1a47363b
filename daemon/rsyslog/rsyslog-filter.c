/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's selectors (facility.level lists) and property comparisons as
 * filter expressions of Sluice's language. A selector is evaluated as
 * rsyslog does: left to right into a facility x level table, each part
 * setting or clearing the levels of its facilities. */
#include "daemon/rsyslog/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/priority.h"

#include <string.h>

#define ALL_LEVELS 0xffu

static gint
rs_facility (const gchar *word)
{
  /* rsyslog's names that Sluice spells otherwise */
  if (g_ascii_strcasecmp (word, "security") == 0)
    return 4;
  if (g_ascii_strcasecmp (word, "mark") == 0)
    return -2;
  return sl_facility_lookup (word);
}

static gboolean
apply_part (guint masks[SL_FACILITY_COUNT], const gchar *part, SlCfgPos pos, GError **error)
{
  const gchar *dot = strrchr (part, '.');

  if (!dot)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos,
                        _("the rsyslog selector '%s' needs facility.level"), part);
      return FALSE;
    }
  g_autofree gchar *facilities = g_strndup (part, (gsize) (dot - part));
  const gchar *level = dot + 1;
  gboolean negate = FALSE, single = FALSE;
  guint bits;

  if (*level == '!')
    {
      negate = TRUE;
      level++;
    }
  if (*level == '=')
    {
      single = TRUE;
      level++;
    }
  if (g_ascii_strcasecmp (level, "none") == 0)
    bits = 0;
  else if (strcmp (level, "*") == 0)
    bits = ALL_LEVELS;
  else
    {
      gint n = sl_level_lookup (level);

      if (n < 0)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("unknown level '%s' in the rsyslog selector '%s'"),
                            level, part);
          return FALSE;
        }
      bits = single ? 1u << n : (2u << n) - 1;
    }

  g_auto (GStrv) names = g_strsplit (facilities, ",", -1);
  for (guint i = 0; names[i]; i++)
    {
      gint from = 0, to = SL_FACILITY_COUNT - 1;

      if (strcmp (names[i], "*") != 0)
        {
          gint f = rs_facility (names[i]);

          if (f == -2)
            continue;
          if (f < 0)
            {
              sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos,
                                _("unknown facility '%s' in the rsyslog selector '%s'"), names[i], part);
              return FALSE;
            }
          from = to = f;
        }
      for (gint f = from; f <= to; f++)
        {
          if (bits == 0)
            masks[f] = negate ? masks[f] : 0;
          else if (negate)
            masks[f] &= ~bits;
          else if (bits == ALL_LEVELS)
            masks[f] = ALL_LEVELS;
          else
            masks[f] |= bits;
        }
    }
  return TRUE;
}

static void
append_levels (GString *out, guint bits)
{
  gboolean first = TRUE;

  g_string_append (out, "level(");
  for (gint l = 0; l < SL_LEVEL_COUNT; l++)
    if (bits & (1u << l))
      {
        g_string_append_printf (out, "%s%s", first ? "" : ",", sl_level_names[l]);
        first = FALSE;
      }
  g_string_append_c (out, ')');
}

gboolean
sl_rs_selector_filter (const gchar *selector, SlCfgPos pos, GString *out, GError **error)
{
  guint masks[SL_FACILITY_COUNT] = { 0 };
  g_auto (GStrv) parts = g_strsplit (selector, ";", -1);

  for (guint i = 0; parts[i]; i++)
    if (*g_strstrip (parts[i]) && !apply_part (masks, parts[i], pos, error))
      return FALSE;

  gboolean done[SL_FACILITY_COUNT] = { FALSE };
  gboolean all_same = TRUE;
  guint n_terms = 0;
  for (gint f = 1; f < SL_FACILITY_COUNT; f++)
    all_same = all_same && masks[f] == masks[0];
  if (all_same)
    {
      /* every message: no filter at all */
      if (masks[0] == ALL_LEVELS)
        return TRUE;
      if (masks[0] == 0)
        g_string_append (out, "not level(emerg..debug)");
      else
        append_levels (out, masks[0]);
      return TRUE;
    }
  /* whole facilities taken out of all: say which are not */
  guint n_none = 0, n_all = 0;
  for (gint f = 0; f < SL_FACILITY_COUNT; f++)
    {
      n_none += masks[f] == 0;
      n_all += masks[f] == ALL_LEVELS;
    }
  if (n_none + n_all == SL_FACILITY_COUNT && n_none < n_all)
    {
      g_string_append (out, "not facility(");
      for (gint f = 0, first = 1; f < SL_FACILITY_COUNT; f++)
        if (masks[f] == 0)
          {
            g_string_append_printf (out, "%s%s", first ? "" : ",", sl_facility_names[f]);
            first = 0;
          }
      g_string_append_c (out, ')');
      return TRUE;
    }
  g_string_append_c (out, '(');
  for (gint f = 0; f < SL_FACILITY_COUNT; f++)
    {
      if (done[f] || masks[f] == 0)
        continue;
      g_string_append_printf (out, "%s(facility(", n_terms++ ? " or " : "");
      for (gint g = f, first = 1; g < SL_FACILITY_COUNT; g++)
        if (masks[g] == masks[f])
          {
            g_string_append_printf (out, "%s%s", first ? "" : ",", sl_facility_names[g]);
            done[g] = TRUE;
            first = 0;
          }
      g_string_append (out, ")");
      if (masks[f] != ALL_LEVELS)
        {
          g_string_append (out, " and ");
          append_levels (out, masks[f]);
        }
      g_string_append_c (out, ')');
    }
  if (!n_terms)
    g_string_append (out, "not level(emerg..debug)");
  g_string_append_c (out, ')');
  return TRUE;
}

static void
append_match (GString *out, const gchar *value_template, const gchar *pattern, const gchar *type,
              const gchar *flags)
{
  g_string_append (out, "match(");
  sl_rs_quote (out, pattern);
  g_string_append (out, " template(");
  sl_rs_quote (out, value_template);
  g_string_append_printf (out, ") type(%s)", type);
  if (flags)
    g_string_append_printf (out, " flags(%s)", flags);
  g_string_append_c (out, ')');
}

gboolean
sl_rs_compare_filter (const gchar *value_template, const gchar *op, gboolean negate, const gchar *operand,
                      SlCfgPos pos, GString *out, GError **error)
{
  gboolean ignore_case = g_str_has_suffix (op, "_i");
  g_autofree gchar *base = g_strndup (op, strlen (op) - (ignore_case ? 2 : 0));
  const gchar *icase = ignore_case ? "ignore-case" : NULL;

  if (negate)
    g_string_append (out, "not ");
  if (g_ascii_strcasecmp (base, "contains") == 0)
    append_match (out, value_template, operand, "string", ignore_case ? "substring,ignore-case" : "substring");
  else if (g_ascii_strcasecmp (base, "startswith") == 0)
    append_match (out, value_template, operand, "string", ignore_case ? "prefix,ignore-case" : "prefix");
  else if (g_ascii_strcasecmp (base, "isequal") == 0)
    append_match (out, value_template, operand, "string", icase);
  else if (g_ascii_strcasecmp (base, "regex") == 0 || g_ascii_strcasecmp (base, "ereregex") == 0)
    append_match (out, value_template, operand, "pcre", icase);
  else if (g_ascii_strcasecmp (base, "isempty") == 0)
    {
      sl_rs_quote (out, value_template);
      g_string_append (out, " eq \"\"");
    }
  else
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("the rsyslog compare operation '%s' is not supported"), op);
      return FALSE;
    }
  return TRUE;
}
