/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "daemon/tap.h"
#include "core/compile/config-run.h"
#include "core/i18n.h"
#include "core/route/tap.h"
#include "core/message/template.h"
#include "core/compile/text-filter.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* What a session holds for a reader slower than the pipeline before it
 * drops: enough for a burst, not for a reader that sleeps. */
#define TAP_BUFFER_BYTES (4 * 1024 * 1024)
/* How often a waiting writer looks whether its client left or the daemon
 * ends. */
#define TAP_LOOK_MS 200

typedef struct
{
  SlTapPoint *point;
  SlTextFilter *filter;      /* or NULL */
  SlTemplate *json;
  gint fd;
  guint64 limit;             /* 0: none */
  GMutex lock;
  GCond wake;
  GQueue lines;              /* GString, each a JSON object and its newline */
  gsize queued_bytes;        /* atomic: the lines' bytes not written yet, queued or being written */
  guint64 taken;             /* messages queued, ever: the limit counts them */
  guint64 dropped;           /* atomic */
  gboolean ending;
  gint done;                 /* the thread detached and closed: it may be joined */
  GThread *thread;
} Session;

struct _SlTapSessions
{
  GPtrArray *running;        /* Session */
};

/* On the thread that passes the message: never waits for the client. */
static void
offer (const SlMessage *msg, gpointer data)
{
  Session *s = data;
  if (s->filter && !sl_text_filter_eval (s->filter, msg))
    return;
  /* while the reader sleeps, each message costs a count, not the lock */
  if (__atomic_load_n (&s->queued_bytes, __ATOMIC_RELAXED) >= TAP_BUFFER_BYTES)
    {
      __atomic_add_fetch (&s->dropped, 1, __ATOMIC_RELAXED);
      return;
    }
  g_mutex_lock (&s->lock);
  gboolean take = !s->limit || s->taken < s->limit;
  if (take)
    s->taken++;
  g_mutex_unlock (&s->lock);
  if (!take)
    return;
  GString *line = g_string_sized_new (1024);
  sl_template_append (s->json, msg, &sl_template_env_default, line);
  g_string_append_c (line, '\n');
  g_mutex_lock (&s->lock);
  g_queue_push_tail (&s->lines, line);
  __atomic_add_fetch (&s->queued_bytes, line->len, __ATOMIC_RELAXED);
  g_cond_signal (&s->wake);
  g_mutex_unlock (&s->lock);
}

/* Whether the client hung up (sluicectl ended by Ctrl-C). */
static gboolean
client_gone (gint fd)
{
  struct pollfd p = { fd, POLLIN | POLLRDHUP, 0 };
  if (poll (&p, 1, 0) <= 0)
    return FALSE;
  if (p.revents & (POLLHUP | POLLRDHUP | POLLERR))
    return TRUE;
  gchar ignored[256];
  return read (fd, ignored, sizeof ignored) == 0;
}

static gboolean
ending (Session *s)
{
  g_mutex_lock (&s->lock);
  gboolean end = s->ending;
  g_mutex_unlock (&s->lock);
  return end;
}

/* Writes all of data unless the client goes or the daemon ends. */
static gboolean
write_out (Session *s, const gchar *data, gsize len)
{
  while (len)
    {
      gssize n = write (s->fd, data, len);
      if (n > 0)
        {
          data += n;
          len -= n;
          continue;
        }
      if (n < 0 && errno != EAGAIN && errno != EINTR)
        return FALSE;
      struct pollfd p = { s->fd, POLLOUT, 0 };
      if (poll (&p, 1, TAP_LOOK_MS) < 0 && errno != EINTR)
        return FALSE;
      if (ending (s) || client_gone (s->fd))
        return FALSE;
    }
  return TRUE;
}

static gboolean
report_drops (Session *s, guint64 dropped, guint64 *reported)
{
  if (dropped == *reported)
    return TRUE;
  *reported = dropped;
  gchar line[64];
  gint n = g_snprintf (line, sizeof line, "DROPPED %" G_GUINT64_FORMAT "\n", dropped);
  return write_out (s, line, n);
}

static gpointer
run_session (gpointer data)
{
  Session *s = data;
  guint64 sent = 0, reported = 0;
  gboolean go_on = TRUE;
  while (go_on)
    {
      g_mutex_lock (&s->lock);
      if (g_queue_is_empty (&s->lines) && !s->ending)
        g_cond_wait_until (&s->wake, &s->lock, g_get_monotonic_time () + TAP_LOOK_MS * G_TIME_SPAN_MILLISECOND);
      GQueue lines = s->lines;
      g_queue_init (&s->lines);
      guint64 dropped = __atomic_load_n (&s->dropped, __ATOMIC_RELAXED);
      go_on = !s->ending;
      g_mutex_unlock (&s->lock);
      GString *line;
      while ((line = g_queue_pop_head (&lines)))
        {
          go_on = go_on && write_out (s, line->str, line->len);
          sent += go_on;
          __atomic_sub_fetch (&s->queued_bytes, line->len, __ATOMIC_RELAXED);
          g_string_free (line, TRUE);
        }
      go_on = go_on && report_drops (s, dropped, &reported) && !(s->limit && sent >= s->limit)
              && !client_gone (s->fd);
    }
  sl_tap_detach (s->point);
  /* what was dropped after the last report */
  report_drops (s, __atomic_load_n (&s->dropped, __ATOMIC_RELAXED), &reported);
  close (s->fd);
  g_atomic_int_set (&s->done, 1);
  return NULL;
}

static void
line_free (gpointer line)
{
  g_string_free (line, TRUE);
}

static void
session_free (Session *s)
{
  g_mutex_lock (&s->lock);
  s->ending = TRUE;
  g_cond_signal (&s->wake);
  g_mutex_unlock (&s->lock);
  if (s->thread)
    g_thread_join (s->thread);
  g_queue_clear_full (&s->lines, line_free);
  if (s->filter)
    sl_text_filter_free (s->filter);
  if (s->json)
    sl_template_unref (s->json);
  g_mutex_clear (&s->lock);
  g_cond_clear (&s->wake);
  g_free (s);
}

SlTapSessions *
sl_tap_sessions_new (void)
{
  SlTapSessions *sessions = g_new0 (SlTapSessions, 1);
  sessions->running = g_ptr_array_new_with_free_func ((GDestroyNotify) session_free);
  return sessions;
}

void
sl_tap_sessions_free (SlTapSessions *sessions)
{
  if (!sessions)
    return;
  g_ptr_array_unref (sessions->running);
  g_free (sessions);
}

/* Sessions whose client went: joined, so that threads do not pile up. */
static void
reap (SlTapSessions *sessions)
{
  for (guint i = sessions->running->len; i-- > 0;)
    {
      Session *s = g_ptr_array_index (sessions->running, i);
      if (g_atomic_int_get (&s->done))
        g_ptr_array_remove_index_fast (sessions->running, i);
    }
}

/* "ID [LIMIT N] [FILTER EXPR]" read into s; FALSE and *error when wrong. */
static gboolean
parse_request (Session *s, SlConfig *cfg, const gchar *request, GError **error)
{
  gchar **words = g_strsplit (request, " ", 2);
  gboolean ok = words[0] && *words[0] && (s->point = sl_config_tap_point (cfg, words[0], error));
  const gchar *rest = ok && words[1] ? g_strchug (words[1]) : "";
  if (ok && g_ascii_strncasecmp (rest, "LIMIT ", 6) == 0)
    {
      gchar *end;
      s->limit = g_ascii_strtoull (rest + 6, &end, 10);
      ok = end != rest + 6 && s->limit > 0 && (*end == '\0' || *end == ' ');
      if (!ok)
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("LIMIT takes a number of messages above 0"));
      rest = g_strchug (end);
    }
  if (ok && g_ascii_strncasecmp (rest, "FILTER ", 7) == 0)
    ok = (s->filter = sl_text_filter_compile (rest + 7, "--filter", error)) != NULL;
  else if (ok && *rest)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("unexpected '%s'; TAP ID [LIMIT N] [FILTER EXPR]"), rest);
      ok = FALSE;
    }
  if (!words[0] || !*words[0])
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("TAP needs the name of a source, parser, rewrite or destination"));
  g_strfreev (words);
  return ok;
}

/* The first line of the answer; a client that went already is seen by
 * the session's thread, or needs no answer. */
static void
tell (gint client, const gchar *line)
{
  gssize written = write (client, line, strlen (line));
  (void) written;
}

void
sl_tap_sessions_start (SlTapSessions *sessions, SlConfig *cfg, const gchar *command, gint client)
{
  reap (sessions);
  Session *s = g_new0 (Session, 1);
  g_mutex_init (&s->lock);
  g_cond_init (&s->wake);
  g_queue_init (&s->lines);
  s->fd = client;
  GError *error = NULL;
  /* every field and macro, the macros as syslog-ng computes them */
  s->json = sl_template_compile ("$(format-json --scope everything)", &error);
  if (!s->json || !parse_request (s, cfg, command + strlen ("TAP "), &error)
      || !sl_tap_attach (s->point, offer, s))
    {
      if (!error)
        g_set_error (&error, G_FILE_ERROR, G_FILE_ERROR_EXIST, _("%s/%s is tapped already"), s->point->kind,
                     s->point->name);
      gchar *answer = g_strdup_printf ("ERROR %s\n", error->message);
      tell (client, answer);
      g_free (answer);
      g_error_free (error);
      close (client);
      session_free (s);
      return;
    }
  fcntl (client, F_SETFL, fcntl (client, F_GETFL) | O_NONBLOCK);
  gchar *answer = g_strdup_printf ("OK tapping %s/%s\n", s->point->kind, s->point->name);
  tell (client, answer);
  g_free (answer);
  s->thread = g_thread_new ("tap", run_session, s);
  g_ptr_array_add (sessions->running, s);
}
