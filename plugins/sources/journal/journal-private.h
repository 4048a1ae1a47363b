/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The journal reader: shared by systemd-journal() and by system() on a
 * host whose /dev/log belongs to journald, which compiles these files in. */
#ifndef JOURNAL_PRIVATE_H
#define JOURNAL_PRIVATE_H

#include "core/route/source.h"

#include <systemd/sd-journal.h>

G_BEGIN_DECLS

typedef struct
{
  const gchar *prefix;          /* of the fields' names: ".journald." */
  gsize max_field_size;         /* longer values are cut to this many bytes */
  const gchar *namespace_name;  /* NULL: the default namespace; "*": all of them */
  const gchar *dir;             /* a folder of journal files instead, or NULL */
  gboolean read_old_records;    /* without a saved cursor: from the oldest entry, not only new ones */
  SlRateLimitSpec rate_limit;   /* one window for every entry, as rsyslogd's imjournal; interval 0: none */
} JournalSettings;

/* Makes messages of journal entries: the entry's fields, each cut to
 * max_field_size, are the message's raw bytes in the journal export
 * format (MESSAGE first), and every field is a slice of them under
 * prefix + its name; MESSAGE, HOST (_HOSTNAME), PID (_PID), PROGRAM
 * (SYSLOG_IDENTIFIER, else _COMM), the facility (SYSLOG_FACILITY) and the
 * level (PRIORITY) as syslog-ng fills them; the stamp is the entry's time.
 * One per reading thread: it reuses its buffers. */
typedef struct _SlJournalEntryBuilder JournalEntryBuilder;

JournalEntryBuilder *journal_entry_builder_new  (const JournalSettings *settings);
void                   journal_entry_builder_free (JournalEntryBuilder *b);
/* The message of the entry j is at. */
SlMessage             *journal_entry_message      (JournalEntryBuilder *b, SlSource *src, sd_journal *j);

/* Reads a journal on a thread of its own, within the source's
 * flow-control window, and keeps the cursor of the last entry delivered in
 * the persist file, so that a restart goes on after it. */
typedef struct _SlJournalReader JournalReader;

JournalReader *journal_reader_start (SlSource *src, const JournalSettings *settings, GError **error);
void             journal_reader_stop  (JournalReader *r);

G_END_DECLS

#endif
