/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluice-gen verify: finds "seq=CONN:NUM" in delivered lines and tells, per
 * connection, what arrived, what is missing, what came twice and what came
 * out of order. */
#ifndef SL_GEN_VERIFY_H
#define SL_GEN_VERIFY_H

#include <glib.h>

G_BEGIN_DECLS

/* Sequence numbers above this are not tracked (the line counts as one
 * without a mark): it bounds the memory a hostile file can make us take. */
#define SL_GEN_VERIFY_MAX_SEQ (G_GUINT64_CONSTANT (1) << 32)

typedef struct _SlGenVerify SlGenVerify;

typedef struct
{
  guint64 conn;
  guint64 received;     /* lines with this connection's mark */
  guint64 distinct;     /* different sequence numbers among them */
  guint64 duplicated;   /* received - distinct */
  guint64 reordered;    /* lines whose number is below one seen before in the same file */
  guint64 highest;      /* the highest number seen, 0 when none */
  guint64 expected;     /* the numbers 1..expected should have arrived */
  guint64 missing;      /* of 1..expected */
} SlGenConnReport;

typedef struct
{
  guint64 lines;        /* every line read */
  guint64 unmarked;     /* lines without a usable mark */
  guint64 received;
  guint64 distinct;
  guint64 duplicated;
  guint64 reordered;
  guint64 expected;
  guint64 missing;
} SlGenTotals;

SlGenVerify *sl_gen_verify_new        (void);
void         sl_gen_verify_free       (SlGenVerify *v);
/* Connections first .. first + count - 1 are expected even when none of
 * their lines arrived. */
void         sl_gen_verify_expect_connections (SlGenVerify *v, guint64 first, guint64 count);
/* Each connection should have sent 1..n. */
void         sl_gen_verify_expect_each (SlGenVerify *v, guint64 n);
/* All connections together should have sent n (each 1..its own count);
 * what is not accounted for by gaps is missing at the end. */
void         sl_gen_verify_expect_total (SlGenVerify *v, guint64 n);

/* Order is judged within one file: call before the lines of each. */
void         sl_gen_verify_begin_file (SlGenVerify *v);
/* One line, without its newline; FALSE when it carries no usable mark. */
gboolean     sl_gen_verify_line       (SlGenVerify *v, const gchar *line, gsize len);
/* Every line of a buffer; the last one needs no newline. */
void         sl_gen_verify_text       (SlGenVerify *v, const gchar *text, gsize len);

/* The connections seen or expected, by id; free with g_array_unref. */
GArray      *sl_gen_verify_report     (SlGenVerify *v, SlGenTotals *totals);
/* "5-9, 100, 2000-2999 ..." : the first max_ranges ranges of missing
 * numbers of a connection, or "" when none is missing. */
gchar       *sl_gen_verify_missing_ranges (SlGenVerify *v, guint64 conn, guint max_ranges);

G_END_DECLS

#endif
