/* kmsg(): the Linux kernel's log, /dev/kmsg, parsed as the kernel writes
 * it; format("linux-kmsg") is the parser, also for other sources. */
#include "plugins/sources/kmsg/kmsg-private.h"
#include "core/i18n.h"
#include "core/internal.h"

typedef struct
{
  SlDriver super;
  gchar *path;
  gboolean optional;
  SlKmsgReader *reader;
} KmsgSource;

/* its own format() default comes first and wins over the common one */
static const SlOptionSpec kmsg_options[] = {
  { "path", SL_OPT_STRING, "/dev/kmsg", "the kernel's log device, or a file or pipe in its format", NULL, TRUE },
  { "format", SL_OPT_STRING, "linux-kmsg", "the message format parser" },
  { "optional", SL_OPT_BOOL, "no", "start without this source when the device cannot be read" },
  SL_SOURCE_COMMON_OPTIONS,
  { NULL }
};

static gboolean
kmsg_init (SlDriver *d, SlOptions *o, GError **error)
{
  KmsgSource *self = (KmsgSource *) d;
  self->path = g_strdup (sl_options_string (o, "path"));
  self->optional = sl_options_bool (o, "optional");
  return TRUE;
}

static gboolean
kmsg_start (SlDriver *d, SlSource *source, GError **error)
{
  KmsgSource *self = (KmsgSource *) d;
  GError *failure = NULL;
  self->reader = sl_kmsg_reader_start (source, NULL, self->path, &failure);
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
    sl_kmsg_reader_stop (self->reader);
  self->reader = NULL;
}

static void
kmsg_free (SlDriver *d)
{
  g_free (((KmsgSource *) d)->path);
}

static const SlDriverClass kmsg_source_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "kmsg",
  .summary = "the Linux kernel's log from /dev/kmsg: priority, boot-relative time, device properties",
  .options = kmsg_options,
  .instance_size = sizeof (KmsgSource),
  .init = kmsg_init,
  .free = kmsg_free,
  .start = kmsg_start,
  .stop = kmsg_stop,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "kmsg-source",
  .drivers = (const SlDriverClass *const[]) { &kmsg_source_class, &sl_kmsg_format_class, NULL },
};
