/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stdout(): writes messages to the daemon's standard output, for sluiced
 * run in the foreground or in a container whose runtime collects stdout.
 * The descriptor is shared with whoever started the daemon, so its mode
 * is left alone; a reader that stops reading holds only this destination. */
#include "plugins/destinations/stdout/stdout-rsyslog.h"
#include "core/i18n.h"
#include "core/route/driver.h"
#include "core/internal.h"
#include "core/plugin/plugin.h"
#include "core/io/stream-writer.h"
#include "core/message/template.h"

#include <unistd.h>

#define DEFAULT_TEMPLATE "${DATE} ${HOST} ${MSGHDR}${MESSAGE}\n"
#define WAIT_MS 1000

typedef struct
{
  SlDriver super;
  SlTemplate *template;
  const SlTemplateEnv *env;
  SlStreamWriter *writer;
} StdoutDestination;

static const SlOptionSpec stdout_options[] = {
  { "template", SL_TEMPLATE (StdoutDestination, template), DEFAULT_TEMPLATE,
    "how each message is written (a template or a template's name)" },
  { NULL }
};

static gboolean
stdout_init (SlDriver *d, GError **error)
{
  StdoutDestination *self = (StdoutDestination *) d;
  self->writer = sl_stream_writer_new (FALSE);
  self->env = sl_driver_template_env (d);
  return TRUE;
}

/* A reader that does not keep up holds the rest until time-reopen(). */
static SlWriteResult
stdout_write (SlDriver *d, SlWriteBatch *batch)
{
  StdoutDestination *self = (StdoutDestination *) d;
  guint n = batch->n;
  gint err = 0;
  guint done = sl_stream_writer_write (self->writer, STDOUT_FILENO, self->template, self->env,
                                       batch->msgs, n, WAIT_MS, &err);
  batch->done = done;
  if (done == n)
    return SL_WRITE_OK;
  return sl_write_batch_fail (batch, SL_WRITE_RETRY, err, _("cannot write to stdout"));
}

/* Finishes a message a full pipe cut once the reader made room. */
static gboolean
stdout_tick (SlDriver *d)
{
  StdoutDestination *self = (StdoutDestination *) d;
  gint err = 0;
  if (sl_stream_writer_pending (self->writer))
    sl_stream_writer_flush (self->writer, STDOUT_FILENO, 0, &err);
  return FALSE;
}

static void
stdout_free (SlDriver *d)
{
  StdoutDestination *self = (StdoutDestination *) d;
  sl_stream_writer_free (self->writer);
}

static const SlDestinationOps stdout_ops = {
  .write = stdout_write,
  .tick = stdout_tick,
};

static const SlDriverClass stdout_destination_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "stdout",
  .summary = "write messages to the daemon's standard output",
  .options = stdout_options,
  .defaults = (const gchar *const[]) { "mark-mode", "none", NULL },
  .capabilities = SL_CAP_TEMPLATES | SL_CAP_MARKS,
  .instance_size = sizeof (StdoutDestination),
  .init = stdout_init,
  .free = stdout_free,
  .ops.destination = &stdout_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "stdout-destination",
  .drivers = (const SlDriverClass *const[]) { &stdout_destination_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &stdout_omstdout, NULL },
};
