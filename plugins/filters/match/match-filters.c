/* SPDX-License-Identifier: GPL-2.0-or-later */
/* program(), host(), message() and match(): a pattern against a field, as
 * syslog-ng has them. The pattern is a PCRE regular expression unless
 * type(string) or type(glob) says otherwise; flags() tunes it, and
 * flags(store-matches) keeps what it found as $0, $1 ... and named groups.
 * match() reads value("FIELD"), template("..."), or else syslog-ng's
 * default, the header and the text: ${MSGHDR}${MESSAGE}. */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/matcher.h"
#include "core/plugin/plugin.h"


typedef struct
{
  SlDriver super;
  SlMatcher *matcher;
  SlTemplate *subject;    /* what is matched; a single field is read without a copy */
  const gchar *pattern;
  const gchar *value;
  SlTemplate *template;
  SlMatcherOptions matcher_options;
} MatchFilter;

static const SlOptionSpec field_filter_options[] = {
  { "pattern", SL_STRING (MatchFilter, pattern), NULL, "what to look for", .flags = SL_OPT_POSITIONAL },
  SL_MATCHER_OPTIONS (MatchFilter, matcher_options),
  { NULL }
};

static const SlOptionSpec match_options[] = {
  { "pattern", SL_STRING (MatchFilter, pattern), NULL, "what to look for", .flags = SL_OPT_POSITIONAL },
  { "value", SL_STRING (MatchFilter, value), NULL, "the field or macro to match, such as PROGRAM or .SDATA.origin.ip" },
  { "template", SL_TEMPLATE (MatchFilter, template), "${MSGHDR}${MESSAGE}",
    "a template whose value is matched, instead of value()" },
  SL_MATCHER_OPTIONS (MatchFilter, matcher_options),
  { NULL }
};


static SlTemplate *
compile_field (const gchar *name, SlCfgPos pos, GError **error)
{
  GError *inner = NULL;
  SlTemplate *t = sl_template_compile_name (name, &inner);
  if (!t)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, "%s", inner->message);
      g_error_free (inner);
    }
  return t;
}

static SlTemplate *
match_subject (MatchFilter *self, GError **error)
{
  SlDriver *d = &self->super;
  /* the field each class reads (its data); match() reads what its options say */
  if (d->klass->data)
    return sl_template_compile_name (d->klass->data, NULL);

  if (self->value && sl_options_is_set (d->options, "template"))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "template"),
                        _("match() takes value() or template(), not both"));
      return NULL;
    }
  if (self->value)
    return compile_field (self->value, sl_options_pos (d->options, "value"), error);
  return sl_template_ref (self->template);
}

static gboolean
match_filter_init (SlDriver *d, GError **error)
{
  MatchFilter *self = (MatchFilter *) d;
  const gchar *pattern = self->pattern;
  if (!pattern)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("%s() needs a pattern, as in %s(\"sshd\")"),
                        d->klass->name, d->klass->name);
      return FALSE;
    }
  if (!(self->subject = match_subject (self, error)))
    return FALSE;
  self->matcher = sl_matcher_new (d, &self->matcher_options, pattern, sl_options_pos (d->options, "pattern"), error);
  return self->matcher != NULL;
}

static void
match_filter_free (SlDriver *d)
{
  MatchFilter *self = (MatchFilter *) d;
  sl_matcher_free (self->matcher);
  if (self->subject)
    sl_template_unref (self->subject);
}

static gboolean
match_filter_match (SlDriver *d, const SlMessage *msg)
{
  MatchFilter *self = (MatchFilter *) d;
  gsize len;
  const gchar *value = sl_template_peek (self->subject, msg, &len);
  return sl_matcher_match (self->matcher, value, len);
}

/* The core calls this one, so that flags(store-matches) can keep what was
 * found; without that flag the message is only read. */
static gboolean
match_filter_process (SlDriver *d, SlMessage **msg)
{
  MatchFilter *self = (MatchFilter *) d;
  gsize len;
  const gchar *value = sl_template_peek (self->subject, *msg, &len);
  return sl_matcher_match_store (self->matcher, msg, value, len);
}

static const SlFilterOps match_filter_ops = {
  .match = match_filter_match,
  .process = match_filter_process,
};

#define MATCH_FILTER_CLASS(var, word, subject, table, text) \
  static const SlDriverClass var = { \
    .kind = SL_DRIVER_FILTER, \
    .name = word, \
    .summary = text, \
    .options = table, \
    .instance_size = sizeof (MatchFilter), \
    .data = subject, \
    .init = match_filter_init, \
    .free = match_filter_free, \
    .ops.filter = &match_filter_ops, \
  }

MATCH_FILTER_CLASS (program_class, "program", "PROGRAM", field_filter_options,
                    "match PROGRAM against a pattern: program(\"^sshd$\")");
MATCH_FILTER_CLASS (host_class, "host", "HOST", field_filter_options,
                    "match HOST against a pattern: host(\"^web[0-9]+$\")");
MATCH_FILTER_CLASS (message_class, "message", "MESSAGE", field_filter_options,
                    "match MESSAGE against a pattern: message(\"failed\" flags(ignore-case))");
MATCH_FILTER_CLASS (match_class, "match", NULL, match_options,
                    "match a field, a template, or the header and text: match(\"^10\\\\.\" value(\"SOURCEIP\"))");

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "match-filters",
  .drivers = (const SlDriverClass *const[]) { &program_class, &host_class, &message_class, &match_class, NULL },
};
