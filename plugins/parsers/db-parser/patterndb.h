/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslog-ng's patterndb XML files (format v2 to v6) loaded into radix
 * trees: rulesets chosen by program, rules by message. Correlation
 * (<actions>, context-id) is refused when loading: db-parser() does not
 * run it. */
#ifndef PATTERNDB_H
#define PATTERNDB_H

#include <glib.h>
#include "core/message/message.h"
#include "core/message/template.h"
#include "plugins/parsers/db-parser/radix.h"

G_BEGIN_DECLS

typedef struct
{
  SlHandle field;
  SlTemplate *template;
} PdbValue;

typedef struct
{
  gchar *id;
  gchar *class;
  GArray *values;            /* PdbValue */
  GArray *tags;              /* SlTag: .classifier.CLASS, then the rule's <tags> */
} PdbRule;

typedef struct _SlPatternDb PatternDb;

PatternDb *pattern_db_new  (const gchar *prefix);
void         pattern_db_free (PatternDb *db);
/* Adds the rules of an XML file; errors name the file, line and column. */
gboolean     pattern_db_load (PatternDb *db, const gchar *path, GError **error);
/* The rule for program and message (each NUL-terminated), or NULL; matches
 * gets what the parsers of the program's and then of the message's
 * pattern took, offsets into program (program_matches) and message. */
const PdbRule *pattern_db_lookup (const PatternDb *db, const gchar *program, gsize program_len,
                                       GArray *program_matches, const gchar *message, gsize message_len,
                                       GArray *matches);

G_END_DECLS

#endif
