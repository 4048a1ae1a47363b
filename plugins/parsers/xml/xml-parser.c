/* SPDX-License-Identifier: GPL-2.0-or-later */
/* xml(): an XML document in the message (template(), ${MESSAGE} when not
 * given) into fields, named as syslog-ng's xml() parser names them: the
 * path of elements under prefix() (".xml.a.b"), attributes as
 * ".xml.a._name", an element's own text under its path, and a name met
 * again appended as a list item (create-lists(), on by default). It reads
 * with GLib's GMarkup, as syslog-ng does, so that what is well-formed and
 * what is not agree with it; libxml2 would accept and refuse differently.
 * A document that does not parse keeps what was read before the error,
 * and passes unless drop-invalid(yes). */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/message/parser-input.h"
#include "core/plugin/plugin.h"
#include "core/stats.h"
#include "core/message/str-repr.h"

#include <inttypes.h>
#include <string.h>

typedef struct
{
  SlDriver base;
  SlTemplate *template;
  const gchar *prefix;
  gboolean drop_invalid;
  GPtrArray *exclude_tags;
  gboolean strip_whitespaces;
  gboolean create_lists;
  GPtrArray *excluded;      /* GPatternSpec * of exclude-tags() */
  gchar *key_prefix;        /* prefix() without a trailing dot */
  SlCounter *invalid;
} XmlParser;

static const SlOptionSpec xml_parser_options[] = {
  { "template", SL_TEMPLATE (XmlParser, template), NULL, "the XML text; ${MESSAGE} when not given" },
  { "prefix", SL_STRING (XmlParser, prefix), ".xml", "put before the path of every field" },
  { "drop-invalid", SL_BOOL (XmlParser, drop_invalid), "no",
    "a document that does not parse fails the parser (the path does not match)" },
  { "exclude-tags", SL_LIST (XmlParser, exclude_tags), NULL,
    "globs of element names whose whole subtree is skipped" },
  { "strip-whitespaces", SL_BOOL (XmlParser, strip_whitespaces), "no",
    "blanks around each piece of an element's text are dropped" },
  { "create-lists", SL_BOOL (XmlParser, create_lists), "yes",
    "a field met again gets the new value as a list item (a,b); no: the texts are joined" },
  { NULL }
};

/* One document's reading. */
typedef struct
{
  const XmlParser *self;
  SlMessage *msg;
  GMarkupParseContext *ctx;
  GString *key;
  GString *text;        /* the element's text so far, or NULL outside the root */
  GQueue texts;         /* the texts of enclosing elements */
  gboolean pop_skip;    /* the element ending is an excluded one */
  GString *value;
} XmlScan;

static void
push_value (XmlScan *scan, const gchar *name, const gchar *value, gssize len)
{
  SlHandle h = sl_field_handle (name);
  gsize old_len = 0;
  const gchar *old = sl_message_get (scan->msg, h, &old_len);
  if (len < 0)
    len = strlen (value);
  g_string_truncate (scan->value, 0);
  g_string_append_len (scan->value, old, old_len);
  if (scan->self->create_lists)
    {
      if (scan->value->len)
        g_string_append_c (scan->value, ',');
      sl_str_repr_encode_append (scan->value, value, len, ",");
    }
  else
    g_string_append_len (scan->value, value, len);
  sl_message_set (scan->msg, h, scan->value->str, scan->value->len);
}

static gboolean
is_excluded (const XmlParser *self, const gchar *element)
{
  for (guint i = 0; self->excluded && i < self->excluded->len; i++)
    if (g_pattern_spec_match_string (g_ptr_array_index (self->excluded, i), element))
      return TRUE;
  return FALSE;
}

static const GMarkupParser skip_subtree = { 0 };

static void
on_start (GMarkupParseContext *ctx, const gchar *element, const gchar **names, const gchar **values,
          gpointer user_data, GError **error)
{
  XmlScan *scan = user_data;
  /* syslog-ng takes an enclosing element's text back from the front of
   * this list, not from its end: the same is done, so that mixed content
   * nested twice reads as it does there */
  if (scan->text)
    g_queue_push_tail (&scan->texts, scan->text);
  scan->text = g_string_new (NULL);
  if (is_excluded (scan->self, element))
    {
      scan->pop_skip = TRUE;
      g_markup_parse_context_push (ctx, &skip_subtree, NULL);
      return;
    }
  if (scan->key->len)
    g_string_append_c (scan->key, '.');
  g_string_append (scan->key, element);
  gsize base = scan->key->len;
  for (guint i = 0; names[i]; i++)
    {
      g_string_truncate (scan->key, base);
      g_string_append (scan->key, "._");
      g_string_append (scan->key, names[i]);
      push_value (scan, scan->key->str, values[i], -1);
    }
  g_string_truncate (scan->key, base);
}

static void
on_end (GMarkupParseContext *ctx, const gchar *element, gpointer user_data, GError **error)
{
  XmlScan *scan = user_data;
  if (scan->text && scan->text->len)
    push_value (scan, scan->key->str, scan->text->str, scan->text->len);
  if (scan->pop_skip)
    {
      g_markup_parse_context_pop (ctx);
      scan->pop_skip = FALSE;
    }
  else
    {
      const gchar *dot = strrchr (scan->key->str, '.');
      g_string_truncate (scan->key, dot ? (gsize) (dot - scan->key->str) : 0);
    }
  if (scan->text)
    g_string_free (scan->text, TRUE);
  scan->text = g_queue_pop_head (&scan->texts);
}

static void
on_text (GMarkupParseContext *ctx, const gchar *text, gsize len, gpointer user_data, GError **error)
{
  XmlScan *scan = user_data;
  if (!scan->text || !len)
    return;
  if (!scan->self->strip_whitespaces)
    {
      g_string_append_len (scan->text, text, len);
      return;
    }
  while (len && g_ascii_isspace (*text))
    text++, len--;
  while (len && g_ascii_isspace (text[len - 1]))
    len--;
  g_string_append_len (scan->text, text, len);
}

static void
text_free (gpointer text)
{
  g_string_free (text, TRUE);
}

static const GMarkupParser scan_callbacks = { .start_element = on_start, .end_element = on_end, .text = on_text };

static gboolean
xml_parser_process (SlDriver *d, SlMessage **msg)
{
  XmlParser *self = (XmlParser *) d;
  gsize len;
  const gchar *input = sl_parser_input (self->template, *msg, &len);
  sl_message_make_writable (msg);
  XmlScan scan = { .self = self, .msg = *msg };
  scan.key = g_string_new (self->key_prefix);
  scan.value = g_string_new (NULL);
  g_queue_init (&scan.texts);
  scan.ctx = g_markup_parse_context_new (&scan_callbacks, 0, &scan, NULL);
  GError *error = NULL;
  gboolean parsed = g_markup_parse_context_parse (scan.ctx, input, len, &error)
                    && g_markup_parse_context_end_parse (scan.ctx, &error);
  g_markup_parse_context_free (scan.ctx);
  if (scan.text)
    g_string_free (scan.text, TRUE);
  g_queue_clear_full (&scan.texts, text_free);
  g_string_free (scan.key, TRUE);
  g_string_free (scan.value, TRUE);
  if (parsed)
    return TRUE;
  sl_counter_add (self->invalid, 1);
  if (sl_counter_get (self->invalid) % 1000 == 1)
    sl_log (SL_LOG_WARNING, _("xml(): a document does not parse (logged the first time and then once per 1000); "
                              "error='%s', invalid='%" PRId64 "', driver='%s'"),
            error->message, sl_counter_get (self->invalid), d->id);
  g_error_free (error);
  return !self->drop_invalid;
}

static gboolean
xml_parser_init (SlDriver *d, GError **error)
{
  XmlParser *self = (XmlParser *) d;
  self->key_prefix = g_strdup (self->prefix);
  gsize n = strlen (self->key_prefix);
  if (n && self->key_prefix[n - 1] == '.')
    self->key_prefix[n - 1] = '\0';
  if (self->exclude_tags && self->exclude_tags->len)
    {
      self->excluded = g_ptr_array_new_with_free_func ((GDestroyNotify) g_pattern_spec_free);
      for (guint i = 0; i < self->exclude_tags->len; i++)
        g_ptr_array_add (self->excluded, g_pattern_spec_new (g_ptr_array_index (self->exclude_tags, i)));
    }
  self->invalid = sl_stats_counter ("parser", d->id, d->klass->name, "invalid");
  return TRUE;
}

static void
xml_parser_free (SlDriver *d)
{
  XmlParser *self = (XmlParser *) d;
  if (self->excluded)
    g_ptr_array_free (self->excluded, TRUE);
  g_free (self->key_prefix);
}

static const SlParserOps xml_parser_ops = { .process = xml_parser_process };

static const SlDriverClass xml_parser_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "xml",
  .summary = "an XML document into fields named by its element paths, as syslog-ng's xml() parser",
  .options = xml_parser_options,
  .instance_size = sizeof (XmlParser),
  .init = xml_parser_init,
  .free = xml_parser_free,
  .ops.parser = &xml_parser_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "xml",
  .drivers = (const SlDriverClass *const[]) { &xml_parser_class, NULL },
};
