/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kmsg(): the Linux kernel's log, /dev/kmsg, parsed as the kernel writes
 * it; format("linux-kmsg") is the parser, also for other sources. */
#include "plugins/sources/kmsg/kmsg-private.h"
#include "plugins/sources/kmsg/kmsg-rsyslog.h"
#include "core/i18n.h"
#include "core/internal.h"

typedef struct
{
  SlDriver super;
  const gchar *path;
  gboolean optional;
  gboolean kernel_only;
  KmsgReader *reader;
} KmsgSource;

static const SlOptionSpec kmsg_options[] = {
  { "path", SL_STRING (KmsgSource, path), "/dev/kmsg", "the kernel's log device, or a file or pipe in its format",
    .flags = SL_OPT_POSITIONAL },
  { "optional", SL_BOOL (KmsgSource, optional), "no", "start without this source when the device cannot be read" },
  { "kernel-only", SL_BOOL (KmsgSource, kernel_only), "no",
    "pass over the records of other facilities than kern, which programs write to /dev/kmsg, as rsyslog's imklog "
    "does unless permitNonKernelFacility" },
  { NULL }
};

static gboolean
kmsg_start (SlDriver *d, SlSource *source, GError **error)
{
  KmsgSource *self = (KmsgSource *) d;
  GError *failure = NULL;
  /* the kernel's format unless format() says otherwise, also when the
   * source it posts to parses another (system()'s, of which it is a part) */
  const SlDriverClass *format = sl_options_is_set (d->options, "format") ? NULL : &kmsg_format_class;
  self->reader = kmsg_reader_start (source, format, self->path, self->kernel_only, &failure);
  if (self->reader)
    return TRUE;
  if (self->optional)
    {
      sl_log (SL_LOG_NOTICE, _("optional source %s not started: %s"), d->id, failure->message);
      g_error_free (failure);
      return TRUE;
    }
  g_propagate_prefixed_error (error, failure, "kmsg(): ");
  return FALSE;
}

static void
kmsg_stop (SlDriver *d)
{
  KmsgSource *self = (KmsgSource *) d;
  if (self->reader)
    kmsg_reader_stop (self->reader);
  self->reader = NULL;
}

static const SlSourceOps kmsg_ops = {
  .start = kmsg_start,
  .stop = kmsg_stop,
};

static const SlDriverClass kmsg_source_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "kmsg",
  .summary = "the Linux kernel's log from /dev/kmsg: priority, boot-relative time, device properties",
  .options = kmsg_options,
  .defaults = (const gchar *const[]) { "format", "linux-kmsg", NULL },
  .capabilities = SL_CAP_PARSES,
  .instance_size = sizeof (KmsgSource),
  .ops.source = &kmsg_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "kmsg-source",
  .drivers = (const SlDriverClass *const[]) { &kmsg_source_class, &kmsg_format_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &kmsg_imkmsg, &kmsg_imklog, NULL },
};
