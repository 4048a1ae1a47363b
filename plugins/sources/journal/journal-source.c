/* SPDX-License-Identifier: GPL-2.0-or-later */
/* systemd-journal(): the journal, read with libsystemd's sd-journal as
 * syslog-ng reads it: every field of an entry under prefix() (".journald."
 * by default, so ${.journald._SYSTEMD_UNIT}), PROGRAM, PID, HOST, MESSAGE,
 * facility and level from the entry, and the cursor of the last entry
 * delivered kept in the persist file: a restart neither loses nor repeats
 * entries. The journal of the local host's default namespace, another
 * namespace(), all of them ("*"), or the files of a journal-dir(). */
#include "core/config/error.h"
#include "core/i18n.h"
#include "plugins/sources/journal/journal-private.h"
#include "plugins/sources/journal/journal-rsyslog.h"

typedef struct
{
  SlDriver super;
  const gchar *prefix;
  gint64 max_field_size;
  const gchar *namespace_name;
  const gchar *dir;
  gboolean read_old_records;
  gint rate_limit_interval;
  gint rate_limit_burst;
  JournalReader *reader;
} JournalSource;

static const SlOptionSpec journal_options[] = {
  { "prefix", SL_STRING (JournalSource, prefix), ".journald.", "put before each journal field's name" },
  { "max-field-size", SL_SIZE (JournalSource, max_field_size), "65536",
    "longer field values are cut to this many bytes", SL_RANGE (1, G_MAXINT32) },
  { "namespace", SL_STRING (JournalSource, namespace_name), NULL,
    "the journal namespace to read; \"*\" reads every namespace; none: the default one" },
  { "journal-dir", SL_STRING (JournalSource, dir), NULL,
    "read the journal files of this folder instead of the local journal" },
  { "read-old-records", SL_BOOL (JournalSource, read_old_records), "yes",
    "without a saved position, start from the oldest entry; no: only new entries" },
  { "rate-limit-interval", SL_INT (JournalSource, rate_limit_interval), "0",
    "seconds of the rate-limit window of every entry read, as rsyslog's imjournal; 0: no limit",
    SL_RANGE (0, G_MAXINT) },
  { "rate-limit-burst", SL_INT (JournalSource, rate_limit_burst), "20000",
    "entries taken in a window; the rest are dropped", SL_RANGE (1, G_MAXINT) },
  { NULL }
};

static gboolean
journal_init (SlDriver *d, GError **error)
{
  JournalSource *self = (JournalSource *) d;
  if (self->dir && self->namespace_name)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "journal-dir"),
                        _("systemd-journal() reads either a journal-dir() or a namespace(), not both"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
journal_start (SlDriver *d, SlSource *source, GError **error)
{
  JournalSource *self = (JournalSource *) d;
  JournalSettings settings = {
    .prefix = self->prefix,
    .max_field_size = (gsize) self->max_field_size,
    .namespace_name = self->namespace_name,
    .dir = self->dir,
    .read_old_records = self->read_old_records,
    .rate_limit = { (guint) self->rate_limit_interval, (guint) self->rate_limit_burst, 0 },
  };
  sl_source_set_transport (source, "local+journal");
  self->reader = journal_reader_start (source, &settings, error);
  return self->reader != NULL;
}

static void
journal_stop (SlDriver *d)
{
  JournalSource *self = (JournalSource *) d;
  if (self->reader)
    journal_reader_stop (self->reader);
  self->reader = NULL;
}

static const SlSourceOps journal_ops = {
  .start = journal_start,
  .stop = journal_stop,
};

/* local0.notice for entries without SYSLOG_FACILITY or PRIORITY, as
 * syslog-ng gives them */
static const SlDriverClass journal_source_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "systemd-journal",
  .summary = "the systemd journal: its entries' fields, resuming after the last entry delivered",
  .options = journal_options,
  .defaults = (const gchar *const[]) { "default-facility", "local0", NULL },
  .capabilities = SL_CAP_PARSES,
  .instance_size = sizeof (JournalSource),
  .init = journal_init,
  .ops.source = &journal_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "journal-source",
  .drivers = (const SlDriverClass *const[]) { &journal_source_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &journal_imjournal, NULL },
};
