/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tags("a" "b"): whether the message carries any of the tags, which
 * sources (tags()) and rewrite rules (set-tag()) put on it. */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/plugin/plugin.h"

typedef struct
{
  SlDriver super;
  GPtrArray *names;       /* as written */
  GArray *tags;           /* SlTag, interned once */
} TagsFilter;

static const SlOptionSpec tags_options[] = {
  { "tags", SL_LIST (TagsFilter, names), NULL, "the tags; any of them passes", .flags = SL_OPT_POSITIONAL },
  { NULL }
};

static gboolean
tags_init (SlDriver *d, GError **error)
{
  TagsFilter *self = (TagsFilter *) d;
  if (!self->names || !self->names->len)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("tags() needs at least one tag, as in tags(\"audit\")"));
      return FALSE;
    }
  self->tags = sl_tag_ids (self->names);
  return TRUE;
}

static void
tags_free (SlDriver *d)
{
  TagsFilter *self = (TagsFilter *) d;
  if (self->tags)
    g_array_unref (self->tags);
}

static gboolean
tags_match (SlDriver *d, const SlMessage *msg)
{
  TagsFilter *self = (TagsFilter *) d;
  for (guint i = 0; i < self->tags->len; i++)
    if (sl_message_has_tag_id (msg, g_array_index (self->tags, SlTag, i)))
      return TRUE;
  return FALSE;
}

static const SlFilterOps tags_ops = { .match = tags_match };

static const SlDriverClass tags_class = {
  .kind = SL_DRIVER_FILTER,
  .name = "tags",
  .summary = "the message carries any of the tags: tags(\"audit\" \"security\")",
  .options = tags_options,
  .instance_size = sizeof (TagsFilter),
  .init = tags_init,
  .free = tags_free,
  .ops.filter = &tags_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "tags-filter",
  .drivers = (const SlDriverClass *const[]) { &tags_class, NULL },
};
