/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tags-parser(): its input, a list as syslog-ng writes $TAGS ("a,b" with
 * items quoted when they must be), sets a tag of each item. The ewmm SCL
 * blocks send the tags along this way. As syslog-ng's, it never fails. */
#include "core/message/message.h"
#include "core/message/parser-input.h"
#include "core/plugin/plugin.h"
#include "core/message/str-repr.h"

typedef struct
{
  SlDriver base;
  SlTemplate *template;
} TagsParser;

static const SlOptionSpec tags_parser_options[] = {
  { "template", SL_TEMPLATE (TagsParser, template), NULL, "the list of tags; ${MESSAGE} when not given" },
  { NULL }
};

static void
item_free (gpointer item)
{
  g_string_free (item, TRUE);
}

static GPrivate item_key = G_PRIVATE_INIT (item_free);

static GString *
item_buffer (void)
{
  GString *item = g_private_get (&item_key);
  if (!item)
    {
      item = g_string_sized_new (64);
      g_private_set (&item_key, item);
    }
  return item;
}

static gboolean
tags_parser_process (SlDriver *self, SlMessage **msg)
{
  TagsParser *parser = (TagsParser *) self;
  gsize len;
  const gchar *cur = sl_parser_input (parser->template, *msg, &len);
  GString *item = item_buffer ();
  static const SlStrReprDecode options = { ",", NULL, NULL };
  gboolean writable = FALSE;

  while (*cur)
    {
      /* empty items between commas are no tags */
      if (*cur == ',')
        {
          cur++;
          continue;
        }
      /* a broken item is kept as written rather than lost */
      sl_str_repr_decode (item, cur, &cur, &options);
      if (!item->len)
        continue;
      if (!writable)
        {
          sl_message_make_writable (msg);
          writable = TRUE;
        }
      sl_message_set_tag (*msg, item->str);
    }
  return TRUE;
}

static const SlParserOps tags_parser_ops = { .process = tags_parser_process };

static const SlDriverClass tags_parser_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "tags-parser",
  .summary = "sets a tag of each item of a list such as $TAGS",
  .options = tags_parser_options,
  .instance_size = sizeof (TagsParser),
  .ops.parser = &tags_parser_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "tags-parser",
  .drivers = (const SlDriverClass *const[]) { &tags_parser_class, NULL },
};
