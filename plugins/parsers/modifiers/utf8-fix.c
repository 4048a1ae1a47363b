/* SPDX-License-Identifier: GPL-2.0-or-later */
/* utf8-fix(): MESSAGE made valid UTF-8, or plain printable ASCII, byte
 * for byte as rsyslog 8.2302's mmutf8fix does it: a byte that starts no
 * sequence, a sequence cut short (up to the byte that breaks it, which
 * then starts anew), an overlong one, a surrogate and one past U+10FFFF
 * each have every byte replaced, so the length stays. */
#include "plugins/parsers/modifiers/modifiers.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/message.h"

#include <string.h>

enum
{
  MODE_UTF8,
  MODE_CONTROL_CHARACTERS,
};

typedef struct
{
  SlDriver base;
  gint mode;
  const gchar *replacement;
} Utf8Fix;

static const SlOptionWord mode_words[] = {
  { "utf-8", MODE_UTF8 }, { "control-characters", MODE_CONTROL_CHARACTERS }, { NULL }
};

static const SlOptionSpec utf8_fix_options[] = {
  { "mode", SL_CHOICE (Utf8Fix, mode), "utf-8",
    "utf-8: invalid sequences replaced; control-characters: every byte outside 32..126 replaced",
    .words = mode_words },
  { "replacement", SL_STRING (Utf8Fix, replacement), " ", "the one character each bad byte becomes" },
  { NULL }
};

static void
replace (gchar *text, gsize from, gsize to, gchar replacement)
{
  memset (text + from, replacement, to - from);
}

/* The length of a sequence starting with c, 0 when c starts none */
static guint
sequence_length (guchar c)
{
  if ((c & 0xe0) == 0xc0)
    return 2;
  if ((c & 0xf0) == 0xe0)
    return 3;
  if ((c & 0xf8) == 0xf0)
    return 4;
  return 0;
}

static gboolean
fix_utf8 (gchar *text, gsize len, gchar replacement)
{
  gboolean changed = FALSE;
  gsize i = 0;

  while (i < len)
    {
      guchar c = (guchar) text[i];
      if (c < 0x80)
        {
          i++;
          continue;
        }
      guint n = sequence_length (c);
      if (!n)
        {
          text[i++] = replacement;
          changed = TRUE;
          continue;
        }
      gunichar code = c & (0x7f >> n);
      guint have = 1;
      while (have < n && i + have < len && ((guchar) text[i + have] & 0xc0) == 0x80)
        code = (code << 6) | ((guchar) text[i + have++] & 0x3f);
      static const gunichar least[] = { 0, 0, 0x80, 0x800, 0x10000 };
      if (have < n || code < least[n] || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff)
        {
          replace (text, i, i + have, replacement);
          changed = TRUE;
        }
      i += have;
    }
  return changed;
}

/* The text fixed in place: TRUE when a byte was replaced */
static gboolean
fix_text (gchar *text, gsize len, gboolean control_characters, gchar replacement)
{
  gboolean changed = FALSE;

  if (!control_characters)
    return fix_utf8 (text, len, replacement);
  for (gsize i = 0; i < len; i++)
    if ((guchar) text[i] < 32 || (guchar) text[i] > 126)
      {
        text[i] = replacement;
        changed = TRUE;
      }
  return changed;
}

static gboolean
utf8_fix_init (SlDriver *self, GError **error)
{
  Utf8Fix *fix = (Utf8Fix *) self;

  if (strlen (fix->replacement) != 1)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (self->options, "replacement"),
                        _("replacement() takes one character, not '%s'"), fix->replacement);
      return FALSE;
    }
  return TRUE;
}

static gboolean
utf8_fix_process (SlDriver *self, SlMessage **msg)
{
  Utf8Fix *fix = (Utf8Fix *) self;
  gsize len;
  const gchar *value = sl_message_get (*msg, SL_F_MESSAGE, &len);

  if (!value)
    return TRUE;
  /* most text is fine: GLib's check rejects what the fix would change
   * (and NUL, which it leaves) without a copy */
  if (fix->mode == MODE_UTF8 && g_utf8_validate_len (value, len, NULL))
    return TRUE;
  g_autofree gchar *text = g_memdup2 (value, len);
  if (fix_text (text, len, fix->mode == MODE_CONTROL_CHARACTERS, fix->replacement[0]))
    {
      sl_message_make_writable (msg);
      sl_message_set (*msg, SL_F_MESSAGE, text, (gssize) len);
    }
  return TRUE;
}

static const SlParserOps utf8_fix_ops = { .process = utf8_fix_process };

const SlDriverClass utf8_fix_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "utf8-fix",
  .summary = "replaces the bytes of invalid UTF-8 (or control characters) in MESSAGE, as rsyslog's mmutf8fix",
  .options = utf8_fix_options,
  .instance_size = sizeof (Utf8Fix),
  .init = utf8_fix_init,
  .ops.parser = &utf8_fix_ops,
};
