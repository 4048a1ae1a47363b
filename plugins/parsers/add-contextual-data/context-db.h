/* SPDX-License-Identifier: GPL-2.0-or-later */
/* add-contextual-data()'s database: a CSV file of (selector, name, value)
 * lines, as syslog-ng reads it, kept as the records of each selector. */
#ifndef CONTEXT_DB_H
#define CONTEXT_DB_H

#include "core/message/message.h"
#include "core/message/template.h"

typedef struct
{
  SlHandle field;        /* prefix() and the name column */
  SlTemplate *value;     /* the value column, a template */
} ContextRecord;

typedef struct _ContextDb ContextDb;

/* Reads path; an error names the file and line. Selectors are compared
 * byte for byte, or ASCII case aside with ignore_case. */
ContextDb       *context_db_load      (const gchar *path, const gchar *prefix, gboolean ignore_case,
                                       GError **error);
void             context_db_free      (ContextDb *db);
/* The records of selector in the order of the file, or NULL. */
const GPtrArray *context_db_lookup    (const ContextDb *db, const gchar *selector);
/* Every selector, in the order of its first line: glob() and filters()
 * take the first that matches. */
const GPtrArray *context_db_selectors (const ContextDb *db);

#endif
