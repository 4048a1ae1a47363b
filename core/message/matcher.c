/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/message/matcher.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/plugin/registry.h"
#include "core/message/scratch.h"
#include "core/stats.h"

#include <string.h>

/* syslog-ng stores at most $0 ... $255. */
#define MAX_MATCHES 256

typedef struct
{
  gchar *name;
  SlHandle handle;
} NamedGroup;

struct _SlMatcher
{
  SlMatcherType type;
  guint32 flags;
  gchar *pattern;          /* string and glob: as compared, lowercased for ignore-case */
  gsize pattern_len;
  GRegex *regex;
  GPatternSpec *glob;
  guint groups;            /* pcre: the whole match and its groups, at most MAX_MATCHES */
  GArray *named;           /* pcre: NamedGroup */
  SlCounter *errors;
  gchar *owner_id;
  gint logged;             /* the first error was logged */
};

typedef struct
{
  gint start;              /* -1: the group took no part in the match */
  gint end;
} Span;

static SlHandle match_handles[MAX_MATCHES];

static gpointer
intern_match_handles (gpointer unused)
{
  for (guint i = 0; i < MAX_MATCHES; i++)
    {
      gchar name[4];
      g_snprintf (name, sizeof name, "%u", i);
      match_handles[i] = sl_field_handle (name);
    }
  return NULL;
}

static void
ensure_match_handles (void)
{
  static GOnce once = G_ONCE_INIT;
  g_once (&once, intern_match_handles, NULL);
}

/* Case folding and glob matching need a copy of the value; one buffer per
 * thread keeps that free of allocations. It is not the template's peek
 * buffer, so a value that lives there can be matched. */
static GPrivate scratch_key = SL_SCRATCH_INIT;

static GString *
scratch (void)
{
  return sl_scratch_get (&scratch_key);
}

static void
count_error (const SlMatcher *m, const gchar *why)
{
  sl_counter_add (m->errors, 1);
  if (g_atomic_int_compare_and_exchange ((gint *) &m->logged, 0, 1))
    sl_log (SL_LOG_WARNING, _("%s: a value could not be matched and counts as no match (%s); "
                              "its match-errors counter counts the others"), m->owner_id, why);
}

/* Compiling */

const SlOptionWord sl_matcher_type_words[] = {
  { "pcre", SL_MATCHER_PCRE }, { "string", SL_MATCHER_STRING }, { "glob", SL_MATCHER_GLOB }, { NULL }
};

const SlOptionWord sl_matcher_flag_words[] = {
  { "ignore-case", SL_MATCHER_IGNORE_CASE },
  { "prefix", SL_MATCHER_PREFIX },
  { "substring", SL_MATCHER_SUBSTRING },
  { "utf8", SL_MATCHER_UTF8 },
  { "unicode", SL_MATCHER_UNICODE },
  { "store-matches", SL_MATCHER_STORE_MATCHES },
  { "global", SL_MATCHER_GLOBAL },
  { "disable-jit", SL_MATCHER_DISABLE_JIT },
  { "dupnames", SL_MATCHER_DUPNAMES },
  { "newline", SL_MATCHER_NEWLINE },
  { NULL }
};

static void
add_named_group (SlMatcher *m, const gchar *start, const gchar *end)
{
  gchar *name = g_strndup (start, end - start);
  if (g_regex_get_string_number (m->regex, name) < 0)
    {
      g_free (name);
      return;
    }
  for (guint i = 0; i < m->named->len; i++)
    if (strcmp (g_array_index (m->named, NamedGroup, i).name, name) == 0)
      {
        g_free (name);
        return;
      }
  NamedGroup group = { name, sl_field_handle (name) };
  g_array_append_val (m->named, group);
}

/* GRegex can tell a group's number from its name but cannot list the
 * names, so they are read from the pattern: (?<name>, (?P<name> and
 * (?'name'; what GRegex does not know as a group is left out. */
static void
collect_group_names (SlMatcher *m, const gchar *pattern)
{
  for (const gchar *p = pattern; (p = strstr (p, "(?")); p += 2)
    {
      const gchar *name = NULL;
      gchar close = '>';
      if (p[2] == '<' && p[3] != '=' && p[3] != '!')
        name = p + 3;
      else if (p[2] == 'P' && p[3] == '<')
        name = p + 4;
      else if (p[2] == '\'')
        {
          name = p + 3;
          close = '\'';
        }
      const gchar *end = name ? strchr (name, close) : NULL;
      if (end && end > name)
        add_named_group (m, name, end);
    }
}

static gboolean
compile_regex (SlMatcher *m, const gchar *pattern, SlCfgPos pos, GError **error)
{
  GRegexCompileFlags flags = 0;
  if (!(m->flags & (SL_MATCHER_UTF8 | SL_MATCHER_UNICODE)))
    flags |= G_REGEX_RAW;
  if (m->flags & SL_MATCHER_IGNORE_CASE)
    flags |= G_REGEX_CASELESS;
  if (!(m->flags & SL_MATCHER_DISABLE_JIT))
    flags |= G_REGEX_OPTIMIZE;
  if (m->flags & SL_MATCHER_DUPNAMES)
    flags |= G_REGEX_DUPNAMES;
  /* ^ and $ know LF only, as in syslog-ng, unless flags(newline) */
  flags |= (m->flags & SL_MATCHER_NEWLINE) ? G_REGEX_NEWLINE_ANYCRLF : G_REGEX_NEWLINE_LF;

  GError *inner = NULL;
  m->regex = g_regex_new (pattern, flags, 0, &inner);
  if (!m->regex)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("invalid regular expression: %s"), inner->message);
      g_error_free (inner);
      return FALSE;
    }
  m->groups = MIN ((guint) g_regex_get_capture_count (m->regex) + 1, MAX_MATCHES);
  collect_group_names (m, pattern);
  return TRUE;
}

SlMatcher *
sl_matcher_new (SlDriver *owner, const SlMatcherOptions *options, const gchar *pattern,
                SlCfgPos pattern_pos, GError **error)
{
  SlMatcher *m = g_new0 (SlMatcher, 1);
  m->named = g_array_new (FALSE, FALSE, sizeof (NamedGroup));
  m->flags = options->flags;
  m->type = options->type;
  m->owner_id = g_strdup_printf ("%s (%s())", owner->id, owner->klass->name);

  switch (m->type)
    {
    case SL_MATCHER_PCRE:
      if (!compile_regex (m, pattern, pattern_pos, error))
        goto fail;
      break;
    case SL_MATCHER_STRING:
    case SL_MATCHER_GLOB:
      m->pattern = (m->flags & SL_MATCHER_IGNORE_CASE) ? g_ascii_strdown (pattern, -1) : g_strdup (pattern);
      m->pattern_len = strlen (m->pattern);
      if (m->type == SL_MATCHER_GLOB)
        {
          if (!g_utf8_validate (m->pattern, -1, NULL))
            {
              sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pattern_pos, _("a glob pattern must be UTF-8 text"));
              goto fail;
            }
          m->glob = g_pattern_spec_new (m->pattern);
        }
      break;
    }
  ensure_match_handles ();
  m->errors = sl_stats_counter (sl_driver_kind_name (owner->klass->kind), owner->id,
                                owner->klass->name, "match-errors");
  return m;

fail:
  sl_matcher_free (m);
  return NULL;
}

void
sl_matcher_free (SlMatcher *m)
{
  if (!m)
    return;
  if (m->regex)
    g_regex_unref (m->regex);
  if (m->glob)
    g_pattern_spec_free (m->glob);
  for (guint i = 0; i < m->named->len; i++)
    g_free (g_array_index (m->named, NamedGroup, i).name);
  g_array_unref (m->named);
  g_free (m->pattern);
  g_free (m->owner_id);
  g_free (m);
}

SlMatcherType
sl_matcher_type (const SlMatcher *m)
{
  return m->type;
}

/* Literal strings */

static gboolean
caseless (const SlMatcher *m)
{
  return (m->flags & SL_MATCHER_IGNORE_CASE) != 0;
}

/* Where the pattern is found in value[0..len), as syslog-ng's string
 * matching has it: the whole value, its start (prefix) or anywhere in it
 * (substring). value is already lowercased under ignore-case. */
static gboolean
find_string (const SlMatcher *m, const gchar *value, gsize len, Span *found)
{
  if (m->pattern_len > len)
    return FALSE;
  gsize at = 0;
  if (m->flags & SL_MATCHER_SUBSTRING)
    {
      const gchar *hit = memmem (value, len, m->pattern, m->pattern_len);
      if (!hit)
        return FALSE;
      at = hit - value;
    }
  else if (memcmp (value, m->pattern, m->pattern_len) != 0
           || (!(m->flags & SL_MATCHER_PREFIX) && m->pattern_len != len))
    return FALSE;
  found->start = (gint) at;
  found->end = (gint) (at + m->pattern_len);
  return TRUE;
}

/* The value as the string search compares it: itself, or a lowercased
 * copy under ignore-case (offsets stay the same). */
static const gchar *
string_subject (const SlMatcher *m, const gchar *value, gsize len)
{
  if (!caseless (m))
    return value;
  GString *copy = scratch ();
  g_string_set_size (copy, len);
  for (gsize i = 0; i < len; i++)
    copy->str[i] = g_ascii_tolower (value[i]);
  return copy->str;
}

/* Globs */

/* GPatternSpec reads NUL-terminated UTF-8; a value's invalid bytes and
 * NULs become U+FFFD in the copy so it can never read past the end. */
static gboolean
glob_match (const SlMatcher *m, const gchar *value, gsize len)
{
  GString *copy = scratch ();
  const gchar *p = value;
  const gchar *stop = value + len;
  while (p < stop)
    {
      const gchar *valid_end;
      g_utf8_validate_len (p, stop - p, &valid_end);
      gsize from = copy->len;
      g_string_append_len (copy, p, valid_end - p);
      if (caseless (m))
        for (gsize i = from; i < copy->len; i++)
          copy->str[i] = g_ascii_tolower (copy->str[i]);
      p = valid_end;
      if (p < stop)
        {
          g_string_append (copy, "\xef\xbf\xbd");
          p++;
        }
    }
  return g_pattern_spec_match (m->glob, copy->len, copy->str, NULL);
}

/* Regular expressions */

/* Runs the regex from offset 0; *info is set whenever info is given. */
static gboolean
regex_match (const SlMatcher *m, const gchar *value, gsize len, GMatchInfo **info)
{
  /* PCRE's JIT takes the subject's UTF-8 on trust: checked here, once */
  if ((m->flags & (SL_MATCHER_UTF8 | SL_MATCHER_UNICODE)) && !g_utf8_validate_len (value, len, NULL))
    {
      count_error (m, _("the value is not valid UTF-8"));
      return FALSE;
    }
  GError *err = NULL;
  gboolean found = g_regex_match_full (m->regex, value, (gssize) len, 0, 0, info, &err);
  if (err)
    {
      count_error (m, err->message);
      g_error_free (err);
      return FALSE;
    }
  return found;
}

static guint
regex_spans (const SlMatcher *m, const GMatchInfo *info, Span *spans)
{
  for (guint i = 0; i < m->groups; i++)
    if (!g_match_info_fetch_pos (info, (gint) i, &spans[i].start, &spans[i].end))
      spans[i].start = spans[i].end = -1;
  return m->groups;
}

/* Stored matches */

static gboolean
overlaps (const gchar *a, gsize a_len, const gchar *b, gsize b_len)
{
  return a && b && a < b + b_len && b < a + a_len;
}

/* Storing a match replaces fields; a value that is one of them must be
 * copied first, or storing would free what is being read. */
static gboolean
value_in_match_fields (const SlMatcher *m, const SlMessage *msg, const gchar *value, gsize len)
{
  /* handles at or above the limit are not set: skipping them keeps the 256
   * match fields cheap on a message with few fields */
  SlHandle limit = sl_message_handle_limit (msg);
  for (guint i = 0; i < MAX_MATCHES; i++)
    {
      if (match_handles[i] >= limit)
        continue;
      gsize field_len;
      const gchar *field = sl_message_get (msg, match_handles[i], &field_len);
      if (overlaps (field, field_len, value, len))
        return TRUE;
    }
  for (guint i = 0; i < m->named->len; i++)
    {
      gsize field_len;
      const gchar *field = sl_message_get (msg, g_array_index (m->named, NamedGroup, i).handle, &field_len);
      if (overlaps (field, field_len, value, len))
        return TRUE;
    }
  return FALSE;
}

/* $0 ... $n from spans, named groups from info; numbered matches a
 * previous pattern left above n are unset, as in syslog-ng. */
static void
store_spans (const SlMatcher *m, SlMessage *msg, const gchar *value, const Span *spans, guint n,
             const GMatchInfo *info)
{
  for (guint i = 0; i < n; i++)
    {
      if (spans[i].start >= 0)
        sl_message_set (msg, match_handles[i], value + spans[i].start, spans[i].end - spans[i].start);
      else
        sl_message_unset (msg, match_handles[i]);
    }
  SlHandle limit = sl_message_handle_limit (msg);
  for (guint i = n; i < MAX_MATCHES; i++)
    if (match_handles[i] < limit)
      sl_message_unset (msg, match_handles[i]);
  for (guint i = 0; info && i < m->named->len; i++)
    {
      const NamedGroup *group = &g_array_index (m->named, NamedGroup, i);
      gint start, end;
      if (g_match_info_fetch_named_pos (info, group->name, &start, &end) && start >= 0)
        sl_message_set (msg, group->handle, value + start, end - start);
      else
        sl_message_unset (msg, group->handle);
    }
}

/* Matching */

static gboolean
match_spans (const SlMatcher *m, const gchar *value, gsize len, Span *spans, guint *n, GMatchInfo **info)
{
  switch (m->type)
    {
    case SL_MATCHER_PCRE:
      if (!regex_match (m, value, len, info))
        return FALSE;
      if (spans)
        *n = regex_spans (m, *info, spans);
      return TRUE;
    case SL_MATCHER_STRING:
      {
        Span found;
        if (!find_string (m, string_subject (m, value, len), len, &found))
          return FALSE;
        if (spans)
          {
            spans[0] = found;
            *n = 1;
          }
        return TRUE;
      }
    case SL_MATCHER_GLOB:
      if (!glob_match (m, value, len))
        return FALSE;
      if (spans)
        {
          spans[0] = (Span) { 0, (gint) len };
          *n = 1;
        }
      return TRUE;
    }
  return FALSE;
}

gboolean
sl_matcher_match (const SlMatcher *m, const gchar *value, gsize len)
{
  if (!value)
    value = "";
  if (m->type == SL_MATCHER_PCRE)
    return regex_match (m, value, len, NULL);
  return match_spans (m, value, len, NULL, NULL, NULL);
}

gboolean
sl_matcher_match_store (const SlMatcher *m, SlMessage **msg, const gchar *value, gsize len)
{
  if (!(m->flags & SL_MATCHER_STORE_MATCHES))
    return sl_matcher_match (m, value, len);
  if (!value)
    value = "";

  Span spans[MAX_MATCHES];
  guint n = 0;
  GMatchInfo *info = NULL;
  gboolean found = match_spans (m, value, len, spans, &n, &info);
  if (found)
    {
      /* the original stays alive while the caller routes it, so value
       * still points at live bytes after a copy is made */
      sl_message_make_writable (msg);
      gchar *copy = value_in_match_fields (m, *msg, value, len) ? g_strndup (value, len) : NULL;
      store_spans (m, *msg, copy ? copy : value, spans, n, info);
      g_free (copy);
    }
  g_match_info_free (info);
  return found;
}

/* Replacing */

static void
append_replacement (const SlMatcher *m, SlMessage *msg, const gchar *value, const Span *spans, guint n,
                    const GMatchInfo *info, const SlTemplate *replacement, GString *out)
{
  if (sl_template_is_literal (replacement))
    {
      gsize len;
      const gchar *text = sl_template_peek (replacement, msg, &len);
      g_string_append_len (out, text, len);
      return;
    }
  store_spans (m, msg, value, spans, n, info);
  sl_template_append (replacement, msg, NULL, out);
}

static gboolean
replace_regex (const SlMatcher *m, SlMessage *msg, const gchar *value, gsize len,
               const SlTemplate *replacement, GString *out)
{
  GMatchInfo *info = NULL;
  Span spans[MAX_MATCHES];
  gsize done = 0;
  gboolean any = FALSE;
  GError *err = NULL;

  if (regex_match (m, value, len, &info))
    {
      do
        {
          guint n = regex_spans (m, info, spans);
          g_string_append_len (out, value + done, spans[0].start - done);
          append_replacement (m, msg, value, spans, n, info, replacement, out);
          done = spans[0].end;
          any = TRUE;
        }
      while ((m->flags & SL_MATCHER_GLOBAL) && g_match_info_next (info, &err));
    }
  g_match_info_free (info);
  if (err)
    {
      count_error (m, err->message);
      g_error_free (err);
      return FALSE;
    }
  if (any)
    g_string_append_len (out, value + done, len - done);
  return any;
}

static gboolean
replace_string (const SlMatcher *m, SlMessage *msg, const gchar *value, gsize len,
                const SlTemplate *replacement, GString *out)
{
  const gchar *subject = string_subject (m, value, len);
  gsize done = 0;
  gboolean any = FALSE;
  Span found;

  /* an empty pattern matches without moving on: once is enough */
  while (find_string (m, subject + done, len - done, &found))
    {
      Span whole = { (gint) done + found.start, (gint) done + found.end };
      g_string_append_len (out, value + done, whole.start - done);
      append_replacement (m, msg, value, &whole, 1, NULL, replacement, out);
      done = whole.end;
      any = TRUE;
      if (!(m->flags & SL_MATCHER_GLOBAL) || found.end == 0)
        break;
    }
  if (any)
    g_string_append_len (out, value + done, len - done);
  return any;
}

gboolean
sl_matcher_replace (const SlMatcher *m, SlMessage *msg, const gchar *value, gsize len,
                    const SlTemplate *replacement, GString *out)
{
  if (!value)
    value = "";
  gsize start = out->len;
  gchar *copy = NULL;
  if (!sl_template_is_literal (replacement) && value_in_match_fields (m, msg, value, len))
    value = copy = g_strndup (value, len);

  gboolean any = FALSE;
  if (m->type == SL_MATCHER_PCRE)
    any = replace_regex (m, msg, value, len, replacement, out);
  else if (m->type == SL_MATCHER_STRING)
    any = replace_string (m, msg, value, len, replacement, out);
  if (!any)
    g_string_truncate (out, start);
  g_free (copy);
  return any;
}
