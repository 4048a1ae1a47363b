/* SPDX-License-Identifier: GPL-2.0-or-later */
/* regexp-parser(): the first of patterns() that matches the message sets a
 * field for each of its named groups ((?<name>...)), prefixed by prefix(),
 * and, as syslog-ng, $0 (the match) and $1 ... (every group, named or not);
 * a message none matches does not parse. Patterns are PCRE, compiled once. */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/parser-input.h"
#include "core/plugin/plugin.h"
#include "core/stats.h"

#include <string.h>

/* Backtracking steps one match may take. A pattern such as (a+)+$ would
 * otherwise let one hostile line hold a source thread for seconds; beyond
 * this the pattern counts as not matching. PCRE2 takes the lower of this
 * and any limit the pattern itself starts with. */
#define REGEXP_MATCH_LIMIT "(*LIMIT_MATCH=1000000)"

/* $0 to $255, as syslog-ng keeps them */
#define REGEXP_MAX_MATCHES 256

enum
{
  FLAG_IGNORE_CASE = 1 << 0,
  FLAG_UTF8        = 1 << 1,
  FLAG_DISABLE_JIT = 1 << 2,
};

static const SlOptionWord regexp_flag_words[] = {
  { "ignore-case", FLAG_IGNORE_CASE },
  { "utf8", FLAG_UTF8 },
  { "disable-jit", FLAG_DISABLE_JIT },
  { NULL }
};

typedef struct
{
  gchar *name;
  SlHandle field;
} RegexpGroup;

typedef struct
{
  GRegex *regex;
  GArray *groups;   /* RegexpGroup */
  guint matches;    /* $0 and the numbered groups, at most REGEXP_MAX_MATCHES */
} RegexpPattern;

typedef struct
{
  SlDriver base;
  SlTemplate *template;
  GPtrArray *pattern_texts;
  const gchar *prefix;
  guint32 flags;
  GPtrArray *patterns;   /* RegexpPattern */
  gboolean utf8;
  SlCounter *failed;
  SlCounter *match_limit;
  SlHandle match_fields[REGEXP_MAX_MATCHES];
} RegexpParser;

static const SlOptionSpec regexp_parser_options[] = {
  { "patterns", SL_LIST (RegexpParser, pattern_texts), NULL, "regular expressions, tried in order until one matches" },
  { "prefix", SL_STRING (RegexpParser, prefix), "", "put before the name of every group" },
  { "template", SL_TEMPLATE (RegexpParser, template), NULL, "the text to match; ${MESSAGE} when not given" },
  { "flags", SL_FLAGS (RegexpParser, flags), NULL, "ignore-case; utf8 matches characters rather than bytes; disable-jit compiles "
    "no machine code for the patterns (the same matches, slower)",
    .words = regexp_flag_words },
  { NULL }
};

static void
group_clear (gpointer p)
{
  g_free (((RegexpGroup *) p)->name);
}

static void
pattern_free (gpointer p)
{
  RegexpPattern *pattern = p;
  if (pattern->regex)
    g_regex_unref (pattern->regex);
  g_array_unref (pattern->groups);
  g_free (pattern);
}

/* The length of a group name opening at text (after "(?<", "(?P<" or
 * "(?'"), 0 when it is none. */
static gsize
group_name_len (const gchar *text, gchar close)
{
  gsize n = 0;
  while (g_ascii_isalnum (text[n]) || text[n] == '_')
    n++;
  return n && text[n] == close && !g_ascii_isdigit (text[0]) ? n : 0;
}

/* GRegex cannot list its group names, so they are read from the pattern:
 * every (?<name>, (?P<name> and (?'name' outside a class or an escape. */
static void
collect_groups (RegexpPattern *pattern, const gchar *text, const gchar *prefix)
{
  gboolean in_class = FALSE;

  for (const gchar *p = text; *p; p++)
    {
      if (*p == '\\')
        {
          if (p[1] == 'Q')
            {
              const gchar *end = strstr (p + 2, "\\E");
              if (!end)
                return;
              p = end + 1;
            }
          else if (p[1])
            p++;
          continue;
        }
      if (in_class)
        {
          in_class = *p != ']';
          continue;
        }
      if (*p == '[')
        {
          in_class = TRUE;
          if (p[1] == '^')
            p++;
          if (p[1] == ']')
            p++;
          continue;
        }
      if (*p != '(' || p[1] != '?')
        continue;

      const gchar *name = NULL;
      gsize len = 0;
      if (p[2] == '<' && (len = group_name_len (p + 3, '>')))
        name = p + 3;
      else if (p[2] == 'P' && p[3] == '<' && (len = group_name_len (p + 4, '>')))
        name = p + 4;
      else if (p[2] == '\'' && (len = group_name_len (p + 3, '\'')))
        name = p + 3;
      if (!name)
        continue;

      RegexpGroup group = { g_strndup (name, len), SL_F_NONE };
      gchar *field = g_strconcat (prefix, group.name, NULL);
      group.field = sl_field_handle (field);
      g_free (field);
      g_array_append_val (pattern->groups, group);
    }
}

static gboolean
compile_pattern (RegexpParser *parser, const gchar *text, GRegexCompileFlags flags, const gchar *prefix,
                 SlCfgPos pos, GError **error)
{
  GError *inner = NULL;

  /* compiled once as written, so that an error quotes the user's text */
  GRegex *plain = g_regex_new (text, flags, 0, &inner);
  if (!plain)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, "%s", inner->message);
      g_error_free (inner);
      return FALSE;
    }
  g_regex_unref (plain);

  gchar *limited = g_strconcat (REGEXP_MATCH_LIMIT, text, NULL);
  RegexpPattern *pattern = g_new0 (RegexpPattern, 1);
  pattern->groups = g_array_new (FALSE, TRUE, sizeof (RegexpGroup));
  g_array_set_clear_func (pattern->groups, group_clear);
  pattern->regex = g_regex_new (limited, flags, 0, &inner);
  g_free (limited);
  g_ptr_array_add (parser->patterns, pattern);
  if (!pattern->regex)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, "%s", inner->message);
      g_error_free (inner);
      return FALSE;
    }
  collect_groups (pattern, text, prefix);
  pattern->matches = MIN ((guint) g_regex_get_capture_count (pattern->regex) + 1, REGEXP_MAX_MATCHES);
  return TRUE;
}

static gboolean
regexp_parser_init (SlDriver *self, GError **error)
{
  RegexpParser *parser = (RegexpParser *) self;
  SlOptions *options = self->options;

  parser->patterns = g_ptr_array_new_with_free_func (pattern_free);
  GPtrArray *patterns = parser->pattern_texts;
  if (!patterns || !patterns->len)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "patterns"),
                        _("regexp-parser() needs patterns(\"regexp\" ...)"));
      return FALSE;
    }

  guint32 flags = parser->flags;
  parser->utf8 = (flags & FLAG_UTF8) != 0;
  GRegexCompileFlags compile = parser->utf8 ? 0 : G_REGEX_RAW;
  if (flags & FLAG_IGNORE_CASE)
    compile |= G_REGEX_CASELESS;
  if (!(flags & FLAG_DISABLE_JIT))
    compile |= G_REGEX_OPTIMIZE;
  const gchar *prefix = parser->prefix;
  for (guint i = 0; i < patterns->len; i++)
    if (!compile_pattern (parser, g_ptr_array_index (patterns, i), compile, prefix,
                          sl_options_pos (options, "patterns"), error))
      return FALSE;

  for (guint i = 0; i < REGEXP_MAX_MATCHES; i++)
    {
      gchar name[8];
      g_snprintf (name, sizeof name, "%u", i);
      parser->match_fields[i] = sl_field_handle (name);
    }
  parser->failed = sl_stats_counter ("parser", self->id, self->klass->name, "failed");
  parser->match_limit = sl_stats_counter ("parser", self->id, self->klass->name, "match-limit");
  return TRUE;
}

/* As syslog-ng: a group that took no part in the match leaves its $N as it
 * was, and the numbered matches above the pattern's groups are unset. */
static void
set_groups (const RegexpParser *parser, const RegexpPattern *pattern, const GMatchInfo *info,
            const gchar *input, SlMessage *msg)
{
  for (guint i = 0; i < pattern->matches; i++)
    {
      gint start, end;
      if (g_match_info_fetch_pos (info, (gint) i, &start, &end) && start >= 0)
        sl_message_set (msg, parser->match_fields[i], input + start, end - start);
    }
  SlHandle limit = sl_message_handle_limit (msg);
  for (guint i = pattern->matches; i < REGEXP_MAX_MATCHES; i++)
    if (parser->match_fields[i] < limit)
      sl_message_unset (msg, parser->match_fields[i]);
  for (guint i = 0; i < pattern->groups->len; i++)
    {
      const RegexpGroup *group = &g_array_index (pattern->groups, RegexpGroup, i);
      gint start, end;
      if (g_match_info_fetch_named_pos (info, group->name, &start, &end) && start >= 0)
        sl_message_set (msg, group->field, input + start, end - start);
    }
}

static gboolean
regexp_parser_process (SlDriver *self, SlMessage **msg)
{
  RegexpParser *parser = (RegexpParser *) self;
  gsize len;
  const gchar *input = sl_parser_input (parser->template, *msg, &len);

  /* GRegex leaves checking UTF-8 to its caller: PCRE2 must not see
   * invalid sequences in a pattern compiled for characters */
  for (guint i = 0; (!parser->utf8 || g_utf8_validate_len (input, len, NULL)) && i < parser->patterns->len; i++)
    {
      const RegexpPattern *pattern = g_ptr_array_index (parser->patterns, i);
      GMatchInfo *info = NULL;
      GError *error = NULL;
      gboolean matched = g_regex_match_full (pattern->regex, input, len, 0, 0, &info, &error);
      if (error)
        {
          sl_counter_add (parser->match_limit, 1);
          g_error_free (error);
        }
      if (matched)
        {
          sl_message_make_writable (msg);
          set_groups (parser, pattern, info, input, *msg);
        }
      g_match_info_free (info);
      if (matched)
        return TRUE;
    }
  sl_counter_add (parser->failed, 1);
  return FALSE;
}

static void
regexp_parser_free (SlDriver *self)
{
  RegexpParser *parser = (RegexpParser *) self;

  if (parser->patterns)
    g_ptr_array_unref (parser->patterns);
}

static const SlParserOps regexp_parser_ops = { .process = regexp_parser_process };

static const SlDriverClass regexp_parser_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "regexp-parser",
  .summary = "sets fields from the named groups of the first regular expression that matches",
  .options = regexp_parser_options,
  .instance_size = sizeof (RegexpParser),
  .init = regexp_parser_init,
  .free = regexp_parser_free,
  .ops.parser = &regexp_parser_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "regexp-parser",
  .drivers = (const SlDriverClass *const[]) { &regexp_parser_class, NULL },
};
