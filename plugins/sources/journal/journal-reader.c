/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/i18n.h"
#include "core/internal.h"
#include "core/store/persist.h"
#include "plugins/sources/journal/journal-private.h"

#include <errno.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

/* Entries posted at once; then the reader waits until they were delivered
 * and saves the last one's cursor. Never more than the smallest window a
 * source has (100), so a batch never waits on itself. */
#define POST_BATCH 100
/* How long stopping waits for the last entries read to be delivered; what
 * is still undelivered then is read again after a restart. */
#define STOP_GRACE_USEC (2 * G_USEC_PER_SEC)
/* Names are at most 64 bytes; a value cut to max-field-size() need not be
 * read further */
#define FIELD_NAME_ROOM 128

struct _SlJournalReader
{
  SlSource *source;
  JournalSettings settings;
  gchar *persist_key;
  sd_journal *journal;
  JournalEntryBuilder *builder;
  SlWindow *window;
  SlRateLimit *limit;       /* or NULL */
  guint dropped;            /* entries of the batch the limit dropped */
  GThread *thread;
  gint wake;                /* eventfd: stop() */
  gint stopping;
  gboolean at_undelivered;  /* the journal is at an entry not yet delivered */
  GMutex lock;
  GCond finished_cond;
  gboolean finished;
  SlMessage *batch[POST_BATCH];
};

/* The key names what is read, so that system() and a systemd-journal() of
 * the same journal go on from the same place. */
static gchar *
persist_key (const JournalSettings *s)
{
  if (s->dir)
    return g_strdup_printf ("systemd-journal(dir=%s)", s->dir);
  if (s->namespace_name)
    return g_strdup_printf ("systemd-journal(namespace=%s)", s->namespace_name);
  return g_strdup ("systemd-journal()");
}

static gint
open_journal (const JournalSettings *s, sd_journal **j)
{
  if (s->dir)
    return sd_journal_open_directory (j, s->dir, 0);
  if (s->namespace_name && g_strcmp0 (s->namespace_name, "*") == 0)
    return sd_journal_open_namespace (j, NULL, SD_JOURNAL_LOCAL_ONLY | SD_JOURNAL_ALL_NAMESPACES);
  return sd_journal_open_namespace (j, s->namespace_name, SD_JOURNAL_LOCAL_ONLY);
}

static const gchar *
journal_name (const JournalSettings *s)
{
  return s->dir ? s->dir : s->namespace_name ? s->namespace_name : _("the system journal");
}

/* After the saved cursor when there is one: at its entry (delivered), or,
 * when that entry is gone (vacuumed), at the first one after where it was
 * (not delivered). Else at the start, or at the end without
 * read-old-records(). */
static gboolean
seek_start (JournalReader *r, const gchar *id, GError **error)
{
  gchar *cursor = sl_persist_get (r->persist_key);
  gint rc;
  if (cursor && sd_journal_seek_cursor (r->journal, cursor) >= 0)
    {
      rc = sd_journal_next (r->journal);
      r->at_undelivered = rc > 0 && sd_journal_test_cursor (r->journal, cursor) <= 0;
      if (r->at_undelivered)
        sl_log (SL_LOG_NOTICE, _("%s: the entry where reading stopped is no longer in %s; going on from the next one"),
                id, journal_name (&r->settings));
      g_free (cursor);
      return TRUE;
    }
  gboolean invalid = cursor != NULL;
  g_free (cursor);
  if (invalid)
    sl_log (SL_LOG_WARNING, _("%s: the saved position in %s is not valid; reading from the start"), id,
            journal_name (&r->settings));
  if (r->settings.read_old_records || invalid)
    rc = sd_journal_seek_head (r->journal);
  else
    {
      rc = sd_journal_seek_tail (r->journal);
      /* at the last entry, so that the next one read is the first new one */
      if (rc >= 0)
        rc = MIN (sd_journal_previous (r->journal), 0);
    }
  if (rc < 0)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (-rc), _("%s: cannot seek in %s: %s"), id,
                 journal_name (&r->settings), g_strerror (-rc));
  return rc >= 0;
}

static void
save_cursor (JournalReader *r)
{
  gchar *cursor = NULL;
  if (sd_journal_get_cursor (r->journal, &cursor) >= 0)
    sl_persist_set (r->persist_key, cursor);
  free (cursor);
}

/* Whether the rate limit lets msg in: the clock's time, not the entry's,
 * as rsyslogd's imjournal counts; the first drop of a window and what a
 * window lost are told. */
static gboolean
admit (JournalReader *r, SlMessage *msg)
{
  guint64 lost;
  SlRateLimitVerdict verdict = sl_rate_limit_check (r->limit, 0, SL_PRI_SEVERITY (msg->pri), time (NULL), &lost);

  if (lost)
    sl_log (SL_LOG_INFO, _("%s: %" G_GUINT64_FORMAT " entries lost due to rate-limiting (%u allowed within %u "
                           "seconds)"), sl_source_id (r->source), lost, r->settings.rate_limit.burst,
            r->settings.rate_limit.interval);
  if (verdict == SL_RATE_LIMIT_BEGIN_DROPPING)
    sl_log (SL_LOG_INFO, _("%s: begin to drop entries due to rate-limiting"), sl_source_id (r->source));
  return verdict == SL_RATE_LIMIT_PASSED;
}

/* Up to POST_BATCH entries made messages; how many, or -1 on an error.
 * Those the rate limit drops are counted in r->dropped. */
static gint
read_batch (JournalReader *r)
{
  gint n = 0;
  r->dropped = 0;
  while (n < POST_BATCH && r->dropped < POST_BATCH)
    {
      gint rc = r->at_undelivered ? 1 : sd_journal_next (r->journal);
      r->at_undelivered = FALSE;
      if (rc < 0)
        {
          sl_source_count (r->source, "read_errors", 1);
          sl_log (SL_LOG_ERROR, _("%s: cannot read %s: %s"), sl_source_id (r->source), journal_name (&r->settings),
                  g_strerror (-rc));
          return n ? n : -1;
        }
      if (rc == 0)
        break;
      SlMessage *msg = journal_entry_message (r->builder, r->source, r->journal);
      if (r->limit && !admit (r, msg))
        {
          sl_message_unref (msg);
          r->dropped++;
          continue;
        }
      sl_message_bind_window (msg, r->window);
      r->batch[n++] = msg;
    }
  return n;
}

/* Sleeps until the journal changes (new entries, new files) or stop()
 * wakes the thread. */
static void
wait_for_change (JournalReader *r)
{
  gint fd = sd_journal_get_fd (r->journal);
  gint events = sd_journal_get_events (r->journal);
  guint64 until = (guint64) -1;
  sd_journal_get_timeout (r->journal, &until);
  gint timeout = -1;
  if (until != (guint64) -1)
    {
      gint64 left = (gint64) until - g_get_monotonic_time ();
      timeout = left > 0 ? (gint) MIN ((left + 999) / 1000, G_MAXINT) : 0;
    }
  struct pollfd fds[2] = { { r->wake, POLLIN, 0 }, { fd, fd >= 0 ? events : 0, 0 } };
  if (poll (fds, fd >= 0 ? 2 : 1, fd >= 0 ? timeout : 1000) >= 0)
    sd_journal_process (r->journal);
}

static gpointer
reader_thread (gpointer data)
{
  JournalReader *r = data;
  while (!g_atomic_int_get (&r->stopping))
    {
      gint n = read_batch (r);
      if (r->dropped)
        sl_source_count (r->source, "rate_limited", r->dropped);
      if (n > 0)
        {
          sl_source_post (r->source, r->batch, n);
          if (!sl_window_wait_empty (r->window, -1))
            break;
        }
      if (n > 0 || r->dropped)
        save_cursor (r);
      if (n < POST_BATCH && r->dropped < POST_BATCH)
        wait_for_change (r);
    }
  g_mutex_lock (&r->lock);
  r->finished = TRUE;
  g_cond_signal (&r->finished_cond);
  g_mutex_unlock (&r->lock);
  return NULL;
}

static void
reader_free (JournalReader *r)
{
  if (r->journal)
    sd_journal_close (r->journal);
  if (r->builder)
    journal_entry_builder_free (r->builder);
  if (r->window)
    sl_window_unref (r->window);
  sl_rate_limit_free (r->limit);
  if (r->wake >= 0)
    close (r->wake);
  g_mutex_clear (&r->lock);
  g_cond_clear (&r->finished_cond);
  g_free (r->persist_key);
  g_free (r);
}

JournalReader *
journal_reader_start (SlSource *src, const JournalSettings *settings, GError **error)
{
  JournalReader *r = g_new0 (JournalReader, 1);
  const gchar *id = sl_source_id (src);
  r->source = src;
  r->settings = *settings;
  r->persist_key = persist_key (settings);
  r->wake = eventfd (0, EFD_CLOEXEC);
  g_mutex_init (&r->lock);
  g_cond_init (&r->finished_cond);
  gint rc = open_journal (settings, &r->journal);
  if (rc < 0)
    {
      r->journal = NULL;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (-rc), _("%s: cannot open %s: %s"), id,
                   journal_name (settings), g_strerror (-rc));
      reader_free (r);
      return NULL;
    }
  sd_journal_set_data_threshold (r->journal, settings->max_field_size + FIELD_NAME_ROOM);
  if (r->wake < 0 || !seek_start (r, id, error))
    {
      if (r->wake < 0)
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "eventfd: %s", g_strerror (errno));
      reader_free (r);
      return NULL;
    }
  r->builder = journal_entry_builder_new (&r->settings);
  r->window = sl_source_new_window (src);
  r->limit = sl_rate_limit_new (&settings->rate_limit);
  r->thread = g_thread_new ("sl-journal", reader_thread, r);
  sl_log (SL_LOG_INFO, _("%s: reading %s"), id, journal_name (settings));
  return r;
}

void
journal_reader_stop (JournalReader *r)
{
  g_atomic_int_set (&r->stopping, 1);
  eventfd_write (r->wake, 1);
  /* the destinations still run: entries read are usually delivered at once */
  gint64 deadline = g_get_monotonic_time () + STOP_GRACE_USEC;
  g_mutex_lock (&r->lock);
  while (!r->finished)
    if (!g_cond_wait_until (&r->finished_cond, &r->lock, deadline))
      break;
  gboolean finished = r->finished;
  g_mutex_unlock (&r->lock);
  if (!finished)
    {
      sl_log (SL_LOG_NOTICE, _("%s: the last entries of %s were not delivered in time; they will be read again at the next start"),
              sl_source_id (r->source), journal_name (&r->settings));
      sl_window_cancel (r->window);
    }
  g_thread_join (r->thread);
  reader_free (r);
}
