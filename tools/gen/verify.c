/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verifier keeps one bit per sequence number and connection: ten
 * million messages of a connection take little more than a megabyte. */
#include "tools/gen/verify.h"
#include "tools/gen/format.h"

#include <string.h>

typedef struct
{
  guint64 id;
  guint64 *seen;          /* bit n: number n arrived */
  gsize words;
  guint64 received;
  guint64 distinct;
  guint64 reordered;
  guint64 highest;
  guint64 highest_in_file;
  guint file;             /* the file highest_in_file belongs to */
} Conn;

struct _SlGenVerify
{
  GHashTable *conns;      /* &Conn.id -> Conn */
  Conn *last;             /* lines of one connection tend to come together */
  guint file;
  guint64 lines;
  guint64 unmarked;
  guint64 expect_each;
  guint64 expect_total;
};

static void
conn_free (gpointer p)
{
  Conn *c = p;
  g_free (c->seen);
  g_free (c);
}

SlGenVerify *
sl_gen_verify_new (void)
{
  SlGenVerify *v = g_new0 (SlGenVerify, 1);
  v->conns = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, conn_free);
  return v;
}

void
sl_gen_verify_free (SlGenVerify *v)
{
  if (!v)
    return;
  g_hash_table_destroy (v->conns);
  g_free (v);
}

static Conn *
conn_get (SlGenVerify *v, guint64 id)
{
  if (v->last && v->last->id == id)
    return v->last;
  Conn *c = g_hash_table_lookup (v->conns, &id);
  if (!c)
    {
      c = g_new0 (Conn, 1);
      c->id = id;
      g_hash_table_insert (v->conns, &c->id, c);
    }
  v->last = c;
  return c;
}

void
sl_gen_verify_expect_connections (SlGenVerify *v, guint64 first, guint64 count)
{
  for (guint64 i = 0; i < count; i++)
    conn_get (v, first + i);
}

void
sl_gen_verify_expect_each (SlGenVerify *v, guint64 n)
{
  v->expect_each = n;
}

void
sl_gen_verify_expect_total (SlGenVerify *v, guint64 n)
{
  v->expect_total = n;
}

void
sl_gen_verify_begin_file (SlGenVerify *v)
{
  v->file++;
}

static gboolean
test_bit (const Conn *c, guint64 n)
{
  return n / 64 < c->words && (c->seen[n / 64] >> (n % 64) & 1);
}

static void
set_bit (Conn *c, guint64 n)
{
  gsize word = n / 64;
  if (word >= c->words)
    {
      gsize words = MAX (c->words * 2, 1024);
      while (words <= word)
        words *= 2;
      c->seen = g_renew (guint64, c->seen, words);
      memset (c->seen + c->words, 0, (words - c->words) * sizeof *c->seen);
      c->words = words;
    }
  c->seen[word] |= G_GUINT64_CONSTANT (1) << (n % 64);
}

/* Reads digits at *p (before end) into *value; FALSE when there are none
 * or too many to be a number we track. */
static gboolean
scan_number (const gchar **p, const gchar *end, guint64 *value)
{
  const gchar *s = *p;
  guint64 n = 0;
  while (s < end && g_ascii_isdigit (*s) && s - *p < 20)
    {
      n = n * 10 + (guint64) (*s - '0');
      s++;
      if (n > SL_GEN_VERIFY_MAX_SEQ * 10)
        return FALSE;
    }
  if (s == *p)
    return FALSE;
  *p = s;
  *value = n;
  return TRUE;
}

/* The first "seq=CONN:NUM" of the line with NUM in 1..MAX_SEQ. */
static gboolean
find_mark (const gchar *line, gsize len, guint64 *conn, guint64 *seq)
{
  const gchar *end = line + len;
  const gchar *p = line;
  const gsize mark_len = strlen (SL_GEN_SEQ_MARK);

  while ((p = memmem (p, end - p, SL_GEN_SEQ_MARK, mark_len)))
    {
      const gchar *s = p + mark_len;
      if (scan_number (&s, end, conn) && s < end && *s++ == ':' && scan_number (&s, end, seq)
          && *seq >= 1 && *seq <= SL_GEN_VERIFY_MAX_SEQ)
        return TRUE;
      p += mark_len;
    }
  return FALSE;
}

gboolean
sl_gen_verify_line (SlGenVerify *v, const gchar *line, gsize len)
{
  guint64 id, seq;

  v->lines++;
  if (!find_mark (line, len, &id, &seq))
    {
      v->unmarked++;
      return FALSE;
    }
  Conn *c = conn_get (v, id);
  c->received++;
  if (c->file != v->file)
    {
      c->file = v->file;
      c->highest_in_file = 0;
    }
  if (test_bit (c, seq))
    return TRUE;
  set_bit (c, seq);
  c->distinct++;
  if (seq < c->highest_in_file)
    c->reordered++;
  c->highest_in_file = MAX (c->highest_in_file, seq);
  c->highest = MAX (c->highest, seq);
  return TRUE;
}

void
sl_gen_verify_text (SlGenVerify *v, const gchar *text, gsize len)
{
  const gchar *end = text + len;
  while (text < end)
    {
      const gchar *nl = memchr (text, '\n', end - text);
      const gchar *stop = nl ? nl : end;
      sl_gen_verify_line (v, text, stop - text);
      text = nl ? nl + 1 : end;
    }
}

static guint64
expected_of (const SlGenVerify *v, const Conn *c)
{
  return MAX (v->expect_each, c->highest);
}

static gint
compare_conn (gconstpointer a, gconstpointer b)
{
  const SlGenConnReport *x = a, *y = b;
  return x->conn < y->conn ? -1 : x->conn > y->conn;
}

GArray *
sl_gen_verify_report (SlGenVerify *v, SlGenTotals *totals)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (SlGenConnReport));
  GHashTableIter iter;
  Conn *c;

  memset (totals, 0, sizeof *totals);
  totals->lines = v->lines;
  totals->unmarked = v->unmarked;
  g_hash_table_iter_init (&iter, v->conns);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &c))
    {
      SlGenConnReport r = {
        .conn = c->id,
        .received = c->received,
        .distinct = c->distinct,
        .duplicated = c->received - c->distinct,
        .reordered = c->reordered,
        .highest = c->highest,
        .expected = expected_of (v, c),
      };
      r.missing = r.expected - r.distinct;
      g_array_append_val (out, r);
      totals->received += r.received;
      totals->distinct += r.distinct;
      totals->duplicated += r.duplicated;
      totals->reordered += r.reordered;
      totals->expected += r.expected;
    }
  g_array_sort (out, compare_conn);
  /* numbers a connection sent after the last one that arrived are only
   * known through the total the sender reported */
  if (v->expect_total > totals->expected)
    totals->expected = v->expect_total;
  totals->missing = totals->expected - totals->distinct;
  return out;
}

/* The first number from n on, up to last, that did not arrive; 0 when
 * none. Whole words of arrived numbers are skipped at once. */
static guint64
next_missing (const Conn *c, guint64 n, guint64 last)
{
  while (n <= last)
    {
      if (n % 64 == 0 && n / 64 < c->words && c->seen[n / 64] == G_MAXUINT64)
        n += 64;
      else if (test_bit (c, n))
        n++;
      else
        return n;
    }
  return 0;
}

gchar *
sl_gen_verify_missing_ranges (SlGenVerify *v, guint64 conn, guint max_ranges)
{
  GString *out = g_string_new (NULL);
  Conn *c = g_hash_table_lookup (v->conns, &conn);
  if (!c)
    return g_string_free (out, FALSE);
  guint64 expected = expected_of (v, c);
  guint64 first = next_missing (c, 1, expected);
  for (guint ranges = 0; first; ranges++)
    {
      if (ranges == max_ranges)
        {
          g_string_append (out, ", ...");
          break;
        }
      guint64 n = first;
      while (n < expected && !test_bit (c, n + 1))
        n++;
      if (ranges)
        g_string_append (out, ", ");
      if (n == first)
        g_string_append_printf (out, "%" G_GUINT64_FORMAT, first);
      else
        g_string_append_printf (out, "%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT, first, n);
      first = n < expected ? next_missing (c, n + 1, expected) : 0;
    }
  return g_string_free (out, FALSE);
}
