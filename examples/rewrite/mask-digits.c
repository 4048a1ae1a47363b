/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A rewrite written against the installed kit only: mask-digits() puts
 * mask() in place of every digit of one field, so that card numbers and
 * the like do not reach the destinations.
 * doc/plugin-guide.md ("A rewrite") walks through it. */
#include <sluice/plugin.h>

#include <string.h>

typedef struct
{
  SlDriver super;
  const gchar *value;
  const gchar *mask;
  SlHandle field;
} MaskDigits;

static const SlOptionSpec mask_digits_options[] = {
  { "value", SL_STRING (MaskDigits, value), "MESSAGE", "the field to mask, such as MESSAGE or .app.card",
    .flags = SL_OPT_POSITIONAL },
  { "mask", SL_STRING (MaskDigits, mask), "#", "the character every digit becomes" },
  { NULL }
};

static gboolean
mask_digits_init (SlDriver *d, GError **error)
{
  MaskDigits *self = (MaskDigits *) d;
  if (strlen (self->mask) != 1)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "mask"),
                        _("mask-digits() needs one character in mask(), not '%s'"), self->mask);
      return FALSE;
    }
  /* the name is resolved once, aliases such as MSG included; process()
   * works with the handle */
  GError *local = NULL;
  SlTemplate *name = sl_template_compile_name (self->value, &local);
  if (!name)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "value"), "%s", local->message);
      g_error_free (local);
      return FALSE;
    }
  self->field = sl_template_single_field (name);
  sl_template_unref (name);
  if (self->field == SL_F_NONE)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "value"),
                        _("mask-digits() masks a field, and '%s' is a macro"), self->value);
      return FALSE;
    }
  return TRUE;
}

/* process() runs on the thread that read the message, several at once.
 * A message without digits is left as it is, not copied; one with digits
 * is made writable first, as other paths may hold the same message and
 * must not see the change. TRUE keeps the message on the path. */
static gboolean
mask_digits_process (SlDriver *d, SlMessage **msg)
{
  MaskDigits *self = (MaskDigits *) d;
  gsize len;
  const gchar *value = sl_message_get (*msg, self->field, &len);
  if (!value)
    return TRUE;
  gsize first = 0;
  while (first < len && !g_ascii_isdigit (value[first]))
    first++;
  if (first == len)
    return TRUE;

  gchar *masked = g_strndup (value, len);
  for (gsize i = first; i < len; i++)
    if (g_ascii_isdigit (masked[i]))
      masked[i] = self->mask[0];
  sl_message_make_writable (msg);
  sl_message_set (*msg, self->field, masked, (gssize) len);
  g_free (masked);
  return TRUE;
}

static const SlRewriteOps mask_digits_ops = { .process = mask_digits_process };

static const SlDriverClass mask_digits_class = {
  .kind = SL_DRIVER_REWRITE,
  .name = "mask-digits",
  .summary = "puts mask() in place of every digit of a field",
  .options = mask_digits_options,
  .instance_size = sizeof (MaskDigits),
  .init = mask_digits_init,
  .ops.rewrite = &mask_digits_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "example-mask-digits",
  .drivers = (const SlDriverClass *const[]) { &mask_digits_class, NULL },
};
