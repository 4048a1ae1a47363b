/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluicectl top: every source and destination of the running daemon,
 * redrawn each second from its counters, until q. */
#include <config.h>
#include "tools/ctl-conn.h"
#include "tools/ctl-verbs.h"

#include <glib/gi18n.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#define TOP_PATIENCE_SECONDS 5

/* One source or destination driver: its counters of one sample. */
typedef struct
{
  gchar *kind;
  gchar *id;
  gchar *driver;
  guint order;               /* its place in the daemon's list */
  GHashTable *counters;      /* name -> gint64 */
} Row;

static void
row_free (gpointer data)
{
  Row *r = data;
  g_free (r->kind);
  g_free (r->id);
  g_free (r->driver);
  g_hash_table_unref (r->counters);
  g_free (r);
}

/* -1 when the row has no such counter. */
static gint64
counter (const Row *r, const gchar *name)
{
  gpointer value;
  if (!r || !g_hash_table_lookup_extended (r->counters, name, NULL, &value))
    return -1;
  return *(gint64 *) value;
}

/* The rows of `stats` text (kind;id;instance;counter;value), sources
 * first, in the daemon's order; "global" counters go to globals. */
static GPtrArray *
parse_stats (const gchar *text, GHashTable *globals)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func (row_free);
  GHashTable *by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gchar **lines = g_strsplit (text, "\n", -1);
  for (guint i = 1; lines[i]; i++)
    {
      gchar **f = g_strsplit (lines[i], ";", 5);
      if (g_strv_length (f) == 5)
        {
          gint64 *value = g_new (gint64, 1);
          *value = g_ascii_strtoll (f[4], NULL, 10);
          if (strcmp (f[0], "global") == 0)
            {
              g_hash_table_insert (globals, g_strjoin (".", f[1], f[2], f[3], NULL), value);
              value = NULL;
            }
          else if (strcmp (f[0], "source") == 0 || strcmp (f[0], "destination") == 0)
            {
              gchar *key = g_strjoin (";", f[0], f[1], f[2], NULL);
              Row *r = g_hash_table_lookup (by_key, key);
              if (!r)
                {
                  r = g_new0 (Row, 1);
                  r->kind = g_strdup (f[0]);
                  r->id = g_strdup (f[1]);
                  r->driver = g_strdup (f[2]);
                  r->order = rows->len;
                  r->counters = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
                  g_hash_table_insert (by_key, key, r);
                  g_ptr_array_add (rows, r);
                }
              else
                g_free (key);
              g_hash_table_insert (r->counters, g_strdup (f[3]), value);
              value = NULL;
            }
          g_free (value);
        }
      g_strfreev (f);
    }
  g_strfreev (lines);
  g_hash_table_unref (by_key);
  return rows;
}

static gint
by_kind (gconstpointer a, gconstpointer b)
{
  const Row *x = *(const Row **) a, *y = *(const Row **) b;
  /* sources above destinations, each in the daemon's order */
  gint kind = strcmp (y->kind, x->kind);
  return kind ? kind : (gint) x->order - (gint) y->order;
}

static const Row *
row_in (GPtrArray *rows, const Row *like)
{
  for (guint i = 0; rows && i < rows->len; i++)
    {
      const Row *r = g_ptr_array_index (rows, i);
      if (strcmp (r->kind, like->kind) == 0 && strcmp (r->id, like->id) == 0 && strcmp (r->driver, like->driver) == 0)
        return r;
    }
  return NULL;
}

static void
append_number (GString *out, gint64 n, gint width)
{
  if (n < 0)
    g_string_append_printf (out, " %*s", width, "-");
  else
    g_string_append_printf (out, " %*" G_GINT64_FORMAT, width, n);
}

/* Per second since the last sample, or -1 without one. */
static gint64
rate (const Row *now, const Row *before, const gchar *name, gdouble seconds)
{
  gint64 a = counter (now, name), b = counter (before, name);
  /* a < b: the daemon restarted and counts from 0 again */
  if (a < 0 || b < 0 || a < b || seconds <= 0)
    return -1;
  return (gint64) ((a - b) / seconds + 0.5);
}

static void
draw (const SlCtl *ctl, GPtrArray *rows, GPtrArray *before, GHashTable *globals, gdouble seconds, const gchar *trouble)
{
  GString *out = g_string_new ("\033[H\033[2J");
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree gchar *clock = g_date_time_format (now, "%H:%M:%S");
  g_string_append_printf (out, _("sluicectl top: sluiced at %s, %s; q quits\n"), ctl->control, clock);
  gint64 *in_flight = globals ? g_hash_table_lookup (globals, "messages.memory.bytes_in_flight") : NULL;
  if (in_flight)
    g_string_append_printf (out, _("message bytes held: %" G_GINT64_FORMAT " KiB\n"), *in_flight / 1024);
  if (trouble)
    g_string_append_printf (out, "%s\n", trouble);
  g_string_append_printf (out, "\n%-11s %-24s %-10s %9s %9s %9s %12s %9s %6s\n", _("KIND"), _("ID"), _("DRIVER"),
                          _("IN/s"), _("OUT/s"), _("QUEUED"), _("QUEUE KiB"), _("DROPPED"), _("CONNS"));
  for (guint i = 0; rows && i < rows->len; i++)
    {
      const Row *r = g_ptr_array_index (rows, i);
      const Row *b = row_in (before, r);
      gboolean source = strcmp (r->kind, "source") == 0;
      g_string_append_printf (out, "%-11s %-24.24s %-10.10s", r->kind, r->id, r->driver);
      /* a destination takes in what routing pushed to it (processed) and
       * gives out what its writers wrote */
      append_number (out, rate (r, b, source ? "received" : "processed", seconds), 9);
      append_number (out, source ? -1 : rate (r, b, "written", seconds), 9);
      gint64 queued = counter (r, "queued"), disk = counter (r, "disk_queue_length");
      append_number (out, queued < 0 ? -1 : queued + MAX (disk, 0), 9);
      gint64 bytes = counter (r, "disk_queue_bytes");
      append_number (out, bytes < 0 ? -1 : bytes / 1024, 12);
      append_number (out, counter (r, "dropped"), 9);
      append_number (out, counter (r, "connections"), 6);
      g_string_append_c (out, '\n');
    }
  fputs (out->str, stdout);
  fflush (stdout);
  g_string_free (out, TRUE);
}

static volatile sig_atomic_t stop_asked;

static void
on_stop (int signum)
{
  stop_asked = 1;
}

/* TRUE when q came within ms (or the input ended, or a signal asked). */
static gboolean
wait_for_quit (gint ms)
{
  gint64 until = g_get_monotonic_time () + ms * G_TIME_SPAN_MILLISECOND;
  while (!stop_asked)
    {
      gint left = (gint) ((until - g_get_monotonic_time ()) / G_TIME_SPAN_MILLISECOND);
      if (left <= 0)
        return FALSE;
      struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
      gint n = poll (&p, 1, left);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      gchar key;
      if (read (STDIN_FILENO, &key, 1) != 1 || key == 'q' || key == 'Q')
        return TRUE;
    }
  return TRUE;
}

gint
sl_ctl_top (const SlCtl *ctl, const gchar *wire, gchar **args)
{
  GError *error = NULL;
  gchar *text = sl_ctl_request (ctl->control, "STATS", TOP_PATIENCE_SECONDS, &error);
  if (!text || !g_str_has_prefix (text, "OK\n"))
    {
      fprintf (stderr, "sluicectl: %s\n", text ? text : error->message);
      g_clear_error (&error);
      g_free (text);
      return 2;
    }
  gboolean tty = isatty (STDIN_FILENO);
  struct termios saved;
  if (tty && tcgetattr (STDIN_FILENO, &saved) == 0)
    {
      struct termios raw = saved;
      raw.c_lflag &= ~(ICANON | ECHO);
      raw.c_cc[VMIN] = 1;
      raw.c_cc[VTIME] = 0;
      tcsetattr (STDIN_FILENO, TCSANOW, &raw);
    }
  struct sigaction stop = { .sa_handler = on_stop };
  sigaction (SIGINT, &stop, NULL);
  sigaction (SIGTERM, &stop, NULL);
  /* the terminal's other screen, and back to what it showed at the end */
  fputs ("\033[?1049h\033[?25l", stdout);
  GPtrArray *before = NULL;
  gint64 before_at = 0;
  do
    {
      GHashTable *globals = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      GPtrArray *rows = NULL;
      g_autofree gchar *trouble = NULL;
      gint64 at = g_get_monotonic_time ();
      if (text && g_str_has_prefix (text, "OK\n"))
        {
          rows = parse_stats (text + 3, globals);
          g_ptr_array_sort (rows, by_kind);
        }
      else
        trouble = g_strdup_printf (_("cannot read the counters: %s"), text ? g_strchomp (text) : error->message);
      g_clear_error (&error);
      draw (ctl, rows, before, globals, before ? (at - before_at) / 1e6 : 0, trouble);
      g_hash_table_unref (globals);
      if (rows)
        {
          if (before)
            g_ptr_array_unref (before);
          before = rows;
          before_at = at;
        }
      g_free (text);
      text = NULL;
      if (wait_for_quit (1000))
        break;
      text = sl_ctl_request (ctl->control, "STATS", TOP_PATIENCE_SECONDS, &error);
    }
  while (TRUE);
  g_free (text);
  g_clear_error (&error);
  if (before)
    g_ptr_array_unref (before);
  fputs ("\033[?25h\033[?1049l", stdout);
  fflush (stdout);
  if (tty)
    tcsetattr (STDIN_FILENO, TCSANOW, &saved);
  return 0;
}
