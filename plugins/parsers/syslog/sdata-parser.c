/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sdata-parser(template() prefix() lowercase-names() empty-objects()), syslog-ng 4's: RFC 5424 structured
 * data in a template's text into fields named as the syslog parser names
 * them (.SDATA.id.param under the default prefix), with its escapes. The
 * text must start with '-' (none) or '['; what follows the last element is
 * not read. A text that does not parse is counted and does not pass, as
 * in syslog-ng; the fields read before the fault stay. */
#include "plugins/parsers/syslog/syslog-private.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/message/parser-input.h"
#include "core/stats.h"
#include "core/message/template.h"

#include <inttypes.h>

typedef struct
{
  SlDriver base;
  SlTemplate *template;
  const gchar *prefix;
  gboolean lowercase;
  gboolean empty_objects;
  gboolean escape_dots;
  SyslogSdTarget target;
  SlCounter *invalid;
} SdataParser;

static const SlOptionSpec sdata_parser_options[] = {
  { "template", SL_TEMPLATE (SdataParser, template), NULL, "the structured data to parse; ${MESSAGE} when not given" },
  { "prefix", SL_STRING (SdataParser, prefix), SYSLOG_SDATA_PREFIX,
    "put before each element's id (at most 128 bytes)" },
  { "lowercase-names", SL_BOOL (SdataParser, lowercase), "no",
    "each element's id and param names in lower case, as rsyslog's mmpstrucdata writes them by default" },
  { "empty-objects", SL_BOOL (SdataParser, empty_objects), "no",
    "an element without params is the JSON object { }, as rsyslog's mmpstrucdata writes it; no: an empty value" },
  { "escape-dots", SL_BOOL (SdataParser, escape_dots), "no",
    "an id or param name with a dot (a.b@1) is one member of rsyslog's tree, its dot escaped in the field's name "
    "(a\\.b@1), as rsyslog's mmpstrucdata keeps it; no: the dot nests" },
  { NULL }
};

static gboolean
sdata_parser_init (SlDriver *d, GError **error)
{
  SdataParser *self = (SdataParser *) d;
  gsize len = strlen (self->prefix);
  if (len > SYSLOG_SD_PREFIX_MAX)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "prefix"),
                        _("sdata-parser(): prefix() is longer than %d bytes"), SYSLOG_SD_PREFIX_MAX);
      return FALSE;
    }
  self->target = (SyslogSdTarget) { g_intern_string (self->prefix), len, FALSE, self->lowercase, FALSE, self->empty_objects,
                                    self->escape_dots };
  self->invalid = sl_stats_counter ("parser", d->id, d->klass->name, "invalid");
  return TRUE;
}

static gboolean
sdata_parser_process (SlDriver *d, SlMessage **msg)
{
  SdataParser *self = (SdataParser *) d;
  gsize len;
  const gchar *input = sl_parser_input (self->template, *msg, &len);
  Scan s = { input, input + len };
  if (scan_at (&s, '-'))
    return TRUE;
  gboolean refused = FALSE;
  if (scan_at (&s, '['))
    {
      sl_message_make_writable (msg);
      if (syslog_sd_parse_elements (*msg, &s, &self->target, &refused))
        return TRUE;
    }
  sl_counter_add (self->invalid, 1);
  if (sl_counter_get (self->invalid) % 1000 == 1)
    sl_log (SL_LOG_WARNING, _("sdata-parser(): the text is no structured data (logged the first time and then once "
                              "per 1000); offset='%" G_GSIZE_FORMAT "', invalid='%" PRId64 "', driver='%s'"),
            (gsize) (s.p - input), sl_counter_get (self->invalid), d->id);
  return FALSE;
}

static const SlParserOps sdata_parser_ops = { .process = sdata_parser_process };

const SlDriverClass syslog_sdata_parser_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "sdata-parser",
  .summary = "RFC 5424 structured data in a template into .SDATA.id.param fields, as syslog-ng 4's sdata-parser()",
  .options = sdata_parser_options,
  .instance_size = sizeof (SdataParser),
  .init = sdata_parser_init,
  .ops.parser = &sdata_parser_ops,
};
