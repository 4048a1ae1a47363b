/* tags("a" "b"): whether the message carries any of the tags, which
 * sources (tags()) and rewrite rules (set-tag()) put on it. */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/plugin.h"

typedef struct
{
  SlDriver super;
  GPtrArray *tags;        /* owned by the driver's options */
} TagsFilter;

static const SlOptionSpec tags_options[] = {
  { "tags", SL_LIST (TagsFilter, tags), NULL, "the tags; any of them passes", .flags = SL_OPT_POSITIONAL },
  { NULL }
};

static gboolean
tags_init (SlDriver *d, GError **error)
{
  TagsFilter *self = (TagsFilter *) d;
  if (!self->tags || !self->tags->len)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("tags() needs at least one tag, as in tags(\"audit\")"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
tags_match (SlDriver *d, const SlMessage *msg)
{
  TagsFilter *self = (TagsFilter *) d;
  if (!msg->tags)
    return FALSE;
  for (guint i = 0; i < self->tags->len; i++)
    if (sl_message_has_tag (msg, g_ptr_array_index (self->tags, i)))
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
  .ops.filter = &tags_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "tags-filter",
  .drivers = (const SlDriverClass *const[]) { &tags_class, NULL },
};
