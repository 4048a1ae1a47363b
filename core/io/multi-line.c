/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The rules are syslog-ng's (lib/multi-line/): in indented mode a line
 * beginning with a space or a tab continues the message. In the prefix
 * modes the first line always starts a message, whatever it is; a later
 * line where the prefix matches starts the next; a line where the suffix
 * (or garbage) matches ends the message there, the rest of that line
 * dropped. The patterns match anywhere in the line unless anchored. */
#include "core/io/multi-line.h"
#include "core/io/smart-multi-line.h"

#include "core/config/error.h"
#include "core/i18n.h"

const SlOptionWord sl_multi_line_mode_words[] = {
  { "none", SL_MULTI_LINE_NONE },
  { "indented", SL_MULTI_LINE_INDENTED },
  { "regexp", SL_MULTI_LINE_PREFIX_GARBAGE },
  { "prefix-garbage", SL_MULTI_LINE_PREFIX_GARBAGE },
  { "prefix-suffix", SL_MULTI_LINE_PREFIX_SUFFIX },
  { "smart", SL_MULTI_LINE_SMART },
  { NULL }
};

struct _SlMultiLine
{
  SlMultiLineMode mode;
  GRegex *prefix;
  GRegex *suffix;
};

static gboolean
compile (SlDriver *owner, const gchar *pattern, const gchar *option, GRegex **re, GError **error)
{
  if (!pattern)
    return TRUE;
  g_autoptr (GError) local = NULL;
  /* files hold any bytes, not only UTF-8 */
  *re = g_regex_new (pattern, G_REGEX_RAW, 0, &local);
  if (*re)
    return TRUE;
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, owner->pos, _("%s(): invalid pattern: %s"), option,
                    local->message);
  return FALSE;
}

SlMultiLine *
sl_multi_line_new (SlDriver *owner, const SlMultiLineOptions *options, GError **error)
{
  gboolean regexp = options->mode == SL_MULTI_LINE_PREFIX_GARBAGE || options->mode == SL_MULTI_LINE_PREFIX_SUFFIX;
  if (!regexp && (options->prefix || options->suffix))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, owner->pos,
                        _("multi-line-prefix() and multi-line-suffix() need multi-line-mode(regexp), "
                          "(prefix-garbage) or (prefix-suffix)"));
      return NULL;
    }
  if (options->mode == SL_MULTI_LINE_NONE)
    return NULL;
  g_autoptr (GError) rules_error = NULL;
  if (options->mode == SL_MULTI_LINE_SMART && !sl_smart_multi_line_init (&rules_error))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, owner->pos, _("multi-line-mode(smart): its rules do not compile: %s"),
                        rules_error->message);
      return NULL;
    }
  SlMultiLine *self = g_new0 (SlMultiLine, 1);
  self->mode = options->mode;
  if (!compile (owner, options->prefix, "multi-line-prefix", &self->prefix, error)
      || !compile (owner, options->suffix, "multi-line-suffix", &self->suffix, error))
    {
      sl_multi_line_free (self);
      return NULL;
    }
  return self;
}

void
sl_multi_line_free (SlMultiLine *self)
{
  if (self->prefix)
    g_regex_unref (self->prefix);
  if (self->suffix)
    g_regex_unref (self->suffix);
  g_free (self);
}

/* Where the message ends in line when the suffix matches there: before
 * the match (garbage) or after it; -1 when it does not match. */
static gssize
suffix_end (const SlMultiLine *self, const gchar *line, gsize len)
{
  g_autoptr (GMatchInfo) info = NULL;
  gint start, end;
  if (!self->suffix || !g_regex_match_full (self->suffix, line, len, 0, 0, &info, NULL)
      || !g_match_info_fetch_pos (info, 0, &start, &end))
    return -1;
  return self->mode == SL_MULTI_LINE_PREFIX_GARBAGE ? start : end;
}

SlMultiLineVerdict
sl_multi_line_add (const SlMultiLine *self, SlMultiLineState *state, gsize held_len, const gchar *line, gsize len,
                   gsize *keep)
{
  if (self->mode == SL_MULTI_LINE_SMART)
    {
      *keep = len;
      return sl_smart_multi_line_add (state, held_len, line, len);
    }
  if (self->mode == SL_MULTI_LINE_INDENTED)
    {
      if (held_len && len && line[0] != ' ' && line[0] != '\t')
        return SL_MULTI_LINE_BEFORE;
      return SL_MULTI_LINE_WAIT;
    }
  gssize end = suffix_end (self, line, len);
  if (end >= 0)
    {
      *keep = end;
      return SL_MULTI_LINE_END;
    }
  if (held_len && self->prefix && g_regex_match_full (self->prefix, line, len, 0, 0, NULL, NULL))
    return SL_MULTI_LINE_BEFORE;
  return SL_MULTI_LINE_WAIT;
}
