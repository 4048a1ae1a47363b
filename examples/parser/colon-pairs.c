/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A parser written against the installed kit only: colon-pairs() reads
 * words such as "user:alice action:login" and sets a field for each,
 * ${.colon.user} and ${.colon.action} with the default prefix().
 * doc/plugin-guide.md ("A parser") walks through it.
 *
 * Its sentences are translated by a catalogue of its own (de.po, which
 * the Makefile compiles), not by Sluice's: the kit's _() looks in
 * SL_TEXT_DOMAIN, defined before the kit is included. */
#define SL_TEXT_DOMAIN "example-colon-pairs"
#include <sluice/plugin.h>

#include <string.h>

/* Field names are interned for the life of the process; the core caps
 * how many there are, a parser how long they get: keys that would make a
 * longer name are left out. */
#define COLON_PAIRS_NAME_MAX 64

typedef struct
{
  SlDriver super;
  SlTemplate *template;
  const gchar *prefix;
  gsize prefix_len;
} ColonPairs;

static const SlOptionSpec colon_pairs_options[] = {
  { "template", SL_TEMPLATE (ColonPairs, template), NULL, "the text to parse; ${MESSAGE} when not given" },
  { "prefix", SL_STRING (ColonPairs, prefix), ".colon.", "put before the name of every field" },
  { NULL }
};

static gboolean
colon_pairs_init (SlDriver *d, GError **error)
{
  ColonPairs *self = (ColonPairs *) d;
  /* once, before the first sentence of this plugin is looked up; the
   * Makefile says where its catalogues are installed */
  static gsize bound;
  if (g_once_init_enter (&bound))
    {
      bindtextdomain (SL_TEXT_DOMAIN, COLON_PAIRS_LOCALEDIR);
      bind_textdomain_codeset (SL_TEXT_DOMAIN, "UTF-8");
      g_once_init_leave (&bound, 1);
    }
  self->prefix_len = strlen (self->prefix);
  if (self->prefix_len >= COLON_PAIRS_NAME_MAX)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "prefix"),
                        _("colon-pairs() needs a prefix() shorter than %d bytes"), COLON_PAIRS_NAME_MAX);
      return FALSE;
    }
  return TRUE;
}

/* The pair in word[0..len), set on *msg; FALSE when it is none. The
 * first pair of a message makes it writable. */
static gboolean
colon_pairs_set (ColonPairs *self, SlMessage **msg, gboolean first, const gchar *word, gsize len)
{
  const gchar *colon = memchr (word, ':', len);
  if (!colon || colon == word || colon == word + len - 1)
    return FALSE;
  gsize key_len = (gsize) (colon - word);
  if (self->prefix_len + key_len >= COLON_PAIRS_NAME_MAX)
    return FALSE;
  gchar name[COLON_PAIRS_NAME_MAX];
  memcpy (name, self->prefix, self->prefix_len);
  memcpy (name + self->prefix_len, word, key_len);
  name[self->prefix_len + key_len] = '\0';
  if (first)
    sl_message_make_writable (msg);
  sl_message_set (*msg, sl_field_handle (name), colon + 1, (gssize) (len - key_len - 1));
  return TRUE;
}

/* process() runs on the thread that read the message, several at once:
 * it keeps nothing of its own between calls. *msg may be shared with the
 * other paths that took it, so it is made writable (copied if shared)
 * before the first change. FALSE, when no pair was found, takes the
 * message off this path, as a filter that does not match would. */
static gboolean
colon_pairs_process (SlDriver *d, SlMessage **msg)
{
  ColonPairs *self = (ColonPairs *) d;
  gsize len;
  /* a copy in this thread's buffer: it stays valid while *msg changes */
  const gchar *input = sl_parser_input (self->template, *msg, &len);
  const gchar *end = input + len;
  gboolean found = FALSE;

  for (const gchar *p = input; p < end;)
    {
      while (p < end && g_ascii_isspace (*p))
        p++;
      const gchar *word = p;
      while (p < end && !g_ascii_isspace (*p))
        p++;
      if (p == word)
        break;
      if (colon_pairs_set (self, msg, !found, word, (gsize) (p - word)))
        found = TRUE;
    }
  return found;
}

static const SlParserOps colon_pairs_ops = { .process = colon_pairs_process };

static const SlDriverClass colon_pairs_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "colon-pairs",
  .summary = "sets a field for each key:value word",
  .options = colon_pairs_options,
  .instance_size = sizeof (ColonPairs),
  .init = colon_pairs_init,
  .ops.parser = &colon_pairs_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "example-colon-pairs",
  .drivers = (const SlDriverClass *const[]) { &colon_pairs_class, NULL },
};
