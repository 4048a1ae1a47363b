/* SPDX-License-Identifier: GPL-2.0-or-later */
/* db-parser(): classifies messages by syslog-ng's patterndb XML. The
 * ruleset is chosen by the program (program-template()), the rule by the
 * message (template()); a rule sets what its pattern's parsers took, its
 * <values> and <tags>, ${.classifier.class}, ${.classifier.rule_id} and
 * the tag .classifier.CLASS. A message no rule matches gets the class and
 * tag "unknown", and does not parse with drop-unmatched(yes). */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/parser-input.h"
#include "core/plugin/plugin.h"
#include "core/stats.h"
#include "plugins/parsers/db-parser/patterndb.h"

#include <string.h>

typedef struct
{
  SlDriver base;
  const gchar *file;
  const gchar *prefix;
  gboolean drop_unmatched;
  SlTemplate *program_template;
  SlTemplate *template;
  PatternDb *db;
  SlHandle class_field;
  SlHandle rule_id_field;
  SlTag unknown_tag;
  SlCounter *unmatched;
} DbParser;

static const SlOptionSpec db_parser_options[] = {
  { "file", SL_STRING (DbParser, file), NULL,
    "the patterndb XML file; a relative name is looked for beside the configuration file that names it",
    .flags = SL_OPT_POSITIONAL },
  { "prefix", SL_STRING (DbParser, prefix), "", "put before the name of every field the patterns set" },
  { "drop-unmatched", SL_BOOL (DbParser, drop_unmatched), "no", "a message no rule matches does not parse" },
  { "program-template", SL_TEMPLATE (DbParser, program_template), NULL,
    "what chooses the ruleset; ${PROGRAM} when not given" },
  { "template", SL_TEMPLATE (DbParser, template), NULL, "the text rules match; ${MESSAGE} when not given" },
  { NULL }
};

/* file() as written, else beside the file that names it (an SCL block's
 * own folder), else from the working folder. */
static gchar *
find_file (const DbParser *self)
{
  if (g_path_is_absolute (self->file) || !self->base.pos.file)
    return g_strdup (self->file);
  gchar *dir = g_path_get_dirname (self->base.pos.file);
  gchar *beside = g_build_filename (dir, self->file, NULL);
  g_free (dir);
  if (g_file_test (beside, G_FILE_TEST_EXISTS))
    return beside;
  g_free (beside);
  return g_strdup (self->file);
}

static gboolean
db_parser_init (SlDriver *d, GError **error)
{
  DbParser *self = (DbParser *) d;
  if (!self->file)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("db-parser() needs file(\"patterndb.xml\")"));
      return FALSE;
    }
  gchar *path = find_file (self);
  GError *inner = NULL;
  self->db = pattern_db_new (self->prefix);
  gboolean ok = pattern_db_load (self->db, path, &inner);
  g_free (path);
  if (!ok)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "file"), "%s", inner->message);
      g_error_free (inner);
      return FALSE;
    }
  self->class_field = sl_field_handle (".classifier.class");
  self->rule_id_field = sl_field_handle (".classifier.rule_id");
  self->unknown_tag = sl_tag_id (".classifier.unknown");
  self->unmatched = sl_stats_counter ("parser", d->id, d->klass->name, "unmatched");
  return TRUE;
}

static void
set_matches (SlMessage *msg, const GArray *matches, const gchar *text)
{
  for (guint i = 0; i < matches->len; i++)
    {
      const RadixMatch *m = &g_array_index (matches, RadixMatch, i);
      sl_message_set (msg, m->field, text + m->ofs, m->len);
    }
}

typedef struct
{
  GString *program;
  GArray *program_matches;
  GArray *matches;
  GString *value;
} Scratch;

static Scratch *
scratch (void)
{
  static __thread Scratch s;
  if (!s.program)
    {
      s.program = g_string_new (NULL);
      s.program_matches = g_array_new (FALSE, FALSE, sizeof (RadixMatch));
      s.matches = g_array_new (FALSE, FALSE, sizeof (RadixMatch));
      s.value = g_string_new (NULL);
    }
  return &s;
}

static gboolean
db_parser_process (SlDriver *d, SlMessage **msg)
{
  DbParser *self = (DbParser *) d;
  Scratch *s = scratch ();
  g_string_truncate (s->program, 0);
  if (self->program_template)
    sl_template_append (self->program_template, *msg, NULL, s->program);
  else
    {
      gsize len = 0;
      const gchar *program = sl_message_get (*msg, SL_F_PROGRAM, &len);
      if (program)
        g_string_append_len (s->program, program, len);
    }
  gsize len;
  const gchar *text = sl_parser_input (self->template, *msg, &len);
  const PdbRule *rule = pattern_db_lookup (self->db, s->program->str, s->program->len, s->program_matches,
                                                text, len, s->matches);
  if (!rule)
    {
      sl_counter_add (self->unmatched, 1);
      if (self->drop_unmatched)
        return FALSE;
      sl_message_make_writable (msg);
      sl_message_set (*msg, self->class_field, "unknown", -1);
      sl_message_set_tag_id (*msg, self->unknown_tag);
      return TRUE;
    }
  sl_message_make_writable (msg);
  set_matches (*msg, s->program_matches, s->program->str);
  set_matches (*msg, s->matches, text);
  sl_message_set (*msg, self->class_field, rule->class, -1);
  if (rule->id)
    sl_message_set (*msg, self->rule_id_field, rule->id, -1);
  for (guint i = 0; i < rule->values->len; i++)
    {
      const PdbValue *v = &g_array_index (rule->values, PdbValue, i);
      g_string_truncate (s->value, 0);
      sl_template_append (v->template, *msg, NULL, s->value);
      sl_message_set (*msg, v->field, s->value->str, s->value->len);
    }
  for (guint i = 0; i < rule->tags->len; i++)
    sl_message_set_tag_id (*msg, g_array_index (rule->tags, SlTag, i));
  return TRUE;
}

static void
db_parser_free (SlDriver *d)
{
  pattern_db_free (((DbParser *) d)->db);
}

static const SlParserOps db_parser_ops = { .process = db_parser_process };

static const SlDriverClass db_parser_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "db-parser",
  .summary = "classifies messages by a patterndb XML file and sets the fields its patterns take",
  .options = db_parser_options,
  .instance_size = sizeof (DbParser),
  .init = db_parser_init,
  .free = db_parser_free,
  .ops.parser = &db_parser_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "db-parser",
  .drivers = (const SlDriverClass *const[]) { &db_parser_class, NULL },
};
