/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lognorm-parser(): a message normalized by liblognorm against a rulebase
 * (liblognorm's own format, from a file or given rule by rule), the
 * result's members set as fields as rsyslog's mmnormalize sets them:
 * nested objects as dotted names, and each object, array, number and
 * boolean also as the JSON text rsyslogd writes for it (libfastjson's
 * spaced form, ${tags} of a rule's tags is [ "a", "b" ]), typed as JSON,
 * a number, a boolean or null so that the rsyslog front end's $! tree
 * writes them as rsyslogd does, and the
 * whole result under prefix() with its trailing dot dropped ("n." sets n,
 * as rsyslogd's %$!n% of path="$!n" is the object). A message no
 * rule matches gets liblognorm's originalmsg and unparsed-data, counted
 * as unmatched; the parser never fails, as mmnormalize lets the message
 * go on either way. */
#include "plugins/parsers/lognorm/lognorm-rsyslog.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/message/member-name.h"
#include "core/message/parser-input.h"
#include "core/plugin/plugin.h"
#include "core/stats.h"

#include <liblognorm.h>
#include <libfastjson/json.h>
#include <string.h>

/* the longest field name set; a deeper member is skipped */
#define LOGNORM_MAX_NAME 255

typedef struct
{
  SlDriver base;
  SlTemplate *template;
  const gchar *rulebase;
  GPtrArray *rules;
  const gchar *prefix;
  gboolean allow_regex;
  gboolean escape_dots;
  ln_ctx ctx;
  SlCounter *unmatched;
} LognormParser;

static const SlOptionSpec lognorm_parser_options[] = {
  { "template", SL_TEMPLATE (LognormParser, template), NULL, "the text to normalize; ${MESSAGE} when not given" },
  { "rulebase", SL_STRING (LognormParser, rulebase), NULL,
    "the liblognorm rulebase file (version=2 or the older format); this or rules() is needed" },
  { "rules", SL_LIST (LognormParser, rules), NULL,
    "the rulebase's lines themselves, such as \"rule=:%user:word% logged in\"" },
  { "prefix", SL_STRING (LognormParser, prefix), "",
    "put before the name of every field; one ending in a dot also names the whole result (\"n.\": ${n})" },
  { "allow-regex", SL_BOOL (LognormParser, allow_regex), "no",
    "let rules use liblognorm's regex field type (as rsyslog's mmnormalize allowRegex)" },
  { "escape-dots", SL_BOOL (LognormParser, escape_dots), "no",
    "a name with a dot (event.tags) is one member of rsyslog's tree, its dot escaped in the field's name (event\\.tags), "
    "as rsyslog's mmnormalize keeps it; no: the dot nests" },
  { NULL }
};

/* liblognorm reports a rule it cannot read and goes on without it;
 * such a rulebase is refused whole, with liblognorm's words. Its 2.0.6
 * hands the error callback the debug callback's cookie, so the errors go
 * here instead: drivers are made on one thread, the loader's. */
static GString *load_errors;

static void
load_error (void *cookie, const char *text, size_t len)
{
  GString *errors = load_errors;

  if (!errors)
    {
      sl_log (SL_LOG_WARNING, _("lognorm-parser(): liblognorm reports: %.*s"), (gint) len, text);
      return;
    }
  if (errors->len)
    g_string_append (errors, "; ");
  g_string_append_len (errors, text, (gssize) len);
}

static gboolean
lognorm_parser_init (SlDriver *self, GError **error)
{
  LognormParser *parser = (LognormParser *) self;
  SlOptions *options = self->options;
  gboolean have_rules = parser->rules && parser->rules->len;

  if (!parser->rulebase == !have_rules)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, parser->rulebase ? sl_options_pos (options, "rules") : self->pos,
                        _("lognorm-parser() needs either rulebase() or rules(), and only one of them"));
      return FALSE;
    }
  if (strlen (parser->prefix) >= LOGNORM_MAX_NAME)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "prefix"),
                        _("prefix() is longer than the longest field name, %d bytes"), LOGNORM_MAX_NAME);
      return FALSE;
    }
  parser->ctx = ln_initCtx ();
  if (!parser->ctx)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, self->pos, _("liblognorm could not start"));
      return FALSE;
    }
  ln_setErrMsgCB (parser->ctx, load_error, NULL);
  if (parser->allow_regex)
    ln_setCtxOpts (parser->ctx, LN_CTXOPT_ALLOW_REGEX);

  g_autoptr (GString) errors = g_string_new (NULL);
  gint failed;
  const gchar *where;
  if (parser->rulebase)
    {
      where = "rulebase";
      if (!g_file_test (parser->rulebase, G_FILE_TEST_IS_REGULAR))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, where),
                            _("the rulebase '%s' is not a readable file"), parser->rulebase);
          return FALSE;
        }
      load_errors = errors;
      failed = ln_loadSamples (parser->ctx, parser->rulebase);
    }
  else
    {
      g_autoptr (GString) text = g_string_new (NULL);

      where = "rules";
      for (guint i = 0; i < parser->rules->len; i++)
        g_string_append_printf (text, "%s\n", (const gchar *) g_ptr_array_index (parser->rules, i));
      load_errors = errors;
      failed = ln_loadSamplesFromString (parser->ctx, text->str);
    }
  load_errors = NULL;
  if (failed || errors->len)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, where),
                        _("liblognorm refused the rulebase: %s"),
                        errors->len ? errors->str : _("it could not be read"));
      return FALSE;
    }
  parser->unmatched = sl_stats_counter ("parser", self->id, self->klass->name, "unmatched");
  return TRUE;
}

static void set_members (SlMessage *msg, GString *name, struct fjson_object *object, gboolean nested,
                         gboolean escape_dots);

/* a string as it is; anything else as rsyslogd writes a non-string
 * member, its JSON text, with its type; null as an empty null, which
 * rsyslogd writes "" alone and null in its tree */
static void
set_member (SlMessage *msg, GString *name, struct fjson_object *value, gboolean escape_dots)
{
  SlValueType type = SL_VALUE_JSON;

  switch (fjson_object_get_type (value))
    {
    case fjson_type_null:
      sl_message_set_typed (msg, sl_field_handle (name->str), "", 0, SL_VALUE_NULL);
      return;
    case fjson_type_string:
      sl_message_set (msg, sl_field_handle (name->str), fjson_object_get_string (value),
                      fjson_object_get_string_len (value));
      return;
    case fjson_type_object:
      set_members (msg, name, value, TRUE, escape_dots);
      break;
    case fjson_type_int:
      type = SL_VALUE_INT64;
      break;
    case fjson_type_double:
      type = SL_VALUE_DOUBLE;
      break;
    case fjson_type_boolean:
      type = SL_VALUE_BOOLEAN;
      break;
    case fjson_type_array:
      break;
    }
  sl_message_set_typed (msg, sl_field_handle (name->str),
                        fjson_object_to_json_string_ext (value, FJSON_TO_STRING_SPACED), -1, type);
}

static void
set_members (SlMessage *msg, GString *name, struct fjson_object *object, gboolean nested, gboolean escape_dots)
{
  gsize base = name->len;
  struct fjson_object_iterator it = fjson_object_iter_begin (object);
  struct fjson_object_iterator end = fjson_object_iter_end (object);

  for (; !fjson_object_iter_equal (&it, &end); fjson_object_iter_next (&it))
    {
      const gchar *key = fjson_object_iter_peek_name (&it);

      if (nested)
        g_string_append_c (name, '.');
      if (escape_dots)
        sl_member_name_append (name, key, strlen (key));
      else
        g_string_append (name, key);
      if (name->len <= LOGNORM_MAX_NAME)
        set_member (msg, name, fjson_object_iter_peek_value (&it), escape_dots);
      g_string_truncate (name, base);
    }
}

static gboolean
lognorm_parser_process (SlDriver *self, SlMessage **msg)
{
  LognormParser *parser = (LognormParser *) self;
  gsize len;
  const gchar *input = sl_parser_input (parser->template, *msg, &len);
  struct fjson_object *result = NULL;

  if (ln_normalize (parser->ctx, input, len, &result) != 0)
    sl_counter_add (parser->unmatched, 1);
  if (result)
    {
      g_autoptr (GString) name = g_string_new (parser->prefix);

      sl_message_make_writable (msg);
      set_members (*msg, name, result, FALSE, parser->escape_dots);
      if (name->len > 1 && name->str[name->len - 1] == '.')
        {
          g_string_truncate (name, name->len - 1);
          sl_message_set_typed (*msg, sl_field_handle (name->str),
                                fjson_object_to_json_string_ext (result, FJSON_TO_STRING_SPACED), -1, SL_VALUE_JSON);
        }
      fjson_object_put (result);
    }
  return TRUE;
}

static void
lognorm_parser_free (SlDriver *self)
{
  LognormParser *parser = (LognormParser *) self;

  if (parser->ctx)
    ln_exitCtx (parser->ctx);
}

static const SlParserOps lognorm_parser_ops = { .process = lognorm_parser_process };

static const SlDriverClass lognorm_parser_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "lognorm-parser",
  .summary = "normalizes a message with a liblognorm rulebase, as rsyslog's mmnormalize",
  .options = lognorm_parser_options,
  .instance_size = sizeof (LognormParser),
  .init = lognorm_parser_init,
  .free = lognorm_parser_free,
  .ops.parser = &lognorm_parser_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "lognorm-parser",
  .drivers = (const SlDriverClass *const[]) { &lognorm_parser_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &lognorm_mmnormalize, NULL },
};
