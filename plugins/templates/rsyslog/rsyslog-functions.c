/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's split of a message into syslogtag and msg, for the
 * templates the rsyslog front end writes: $(rsyslog-tag TEXT) is TEXT up
 * to its first space, $(rsyslog-msg TEXT) the rest from that space on,
 * and $(rsyslog-msg-space TEXT) the space sp-if-no-1st-sp adds when that
 * rest does not start with one; $(rsyslog-tag-msg TEXT) is the three in
 * that order. TEXT is the tag and message as received
 * (${MSGHDR}${MESSAGE}): rsyslog's imuxsock takes its first word as the
 * tag, colon or not. $(rsyslog-json TEXT) escapes TEXT as rsyslog's json
 * property option does, $(rsyslog-json-quotes TEXT) as a template's
 * option.json does: only quotes and backslashes; $(rsyslog-sql-quotes
 * TEXT) and $(rsyslog-stdsql-quotes TEXT) as option.sql (\' and \\) and
 * option.stdsql ('') do. $(rsyslog-jsonf A B ...) is an option.jsonf
 * template: { the arguments that are not empty, joined by ", " }.
 * $(rsyslog-rfc3339 reported|generated) is timereported or timegenerated
 * as rsyslog's date-rfc3339 writes it, with the fraction of a second the
 * stamp came with; $(rsyslog-rfc3164 reported|generated) as its default
 * date (RFC 3164's, no fraction); $(rsyslog-inputname ${SOURCE})
 * rsyslog's inputname, which the front end writes after the first ':' of
 * each source's name.
 * Of an RFC 5424 message, rsyslog's syslogtag is APP-NAME[PROCID] and its
 * msg the MSG part. */
#include "plugins/templates/rsyslog/rsyslog-classes.h"

#include "core/plugin/plugin.h"
#include "core/message/macros.h"
#include "core/message/template.h"
#include "core/message/text-append.h"
#include "core/message/timeutil.h"

#include <string.h>

/* the tag the rsyslog front end's imfile inputs give their messages when
 * their Tag has no colon */
#define SL_RSYSLOG_TAG_WITHOUT_COLON ".rsyslog.tag-without-colon"

/* Renders the argument at the end of out, which it returns; *space is
 * where in out the tag ends (its first space), or out's end. In place:
 * no buffer of its own per message. */
static gsize
split (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out, gsize *space)
{
  gsize start = out->len;
  if (call->argc > 0)
    sl_template_append (call->arg_templates[0], msg, env, out);
  const gchar *at = memchr (out->str + start, ' ', out->len - start);
  *space = at ? (gsize) (at - out->str) : out->len;
  return start;
}

/* An RFC 5424 message has no tag to split off: rsyslog's syslogtag is
 * APP-NAME[PROCID] ("-" without an APP-NAME, no brackets without a
 * PROCID), its msg the MSG part as it is. */
static void
rfc5424_tag (const SlMessage *msg, GString *out)
{
  gsize app_len = 0, pid_len = 0;
  const gchar *app = sl_message_get (msg, SL_F_PROGRAM, &app_len);
  const gchar *pid = sl_message_get (msg, SL_F_PID, &pid_len);
  if (app && app_len)
    g_string_append_len (out, app, app_len);
  else
    g_string_append_c (out, '-');
  if (pid && pid_len)
    {
      g_string_append_c (out, '[');
      g_string_append_len (out, pid, pid_len);
      g_string_append_c (out, ']');
    }
}

static const gchar *
rfc5424_msg (const SlMessage *msg)
{
  const gchar *text = sl_message_get (msg, SL_F_MESSAGE, NULL);
  return text ? text : "";
}

/* Whether msg is the MSG part as it came: an RFC 5424 message's, or one
 * whose tag was given rather than read from its text (imfile's Tag,
 * imjournal's identifier), which Sluice's MSGHDR writes as "TAG: " */
static gboolean
msg_is_message (const SlMessage *msg)
{
  return (msg->flags & SL_MSG_RFC5424)
         || (!(msg->flags & SL_MSG_LOCAL) && !sl_message_get (msg, SL_F_LEGACY_MSGHDR, NULL)
             && sl_message_get (msg, SL_F_PROGRAM, NULL));
}

/* imfile's syslogtag is its Tag as given: the front end tags the messages
 * of a Tag written without the colon Sluice's MSGHDR adds, so the tag
 * rendered from out's start loses that colon */
static void
drop_added_colon (const SlMessage *msg, GString *out, gsize start)
{
  /* the tag's id, interned once: no name lookup per message */
  static gsize tag;
  if (g_once_init_enter (&tag))
    g_once_init_leave (&tag, sl_tag_id (SL_RSYSLOG_TAG_WITHOUT_COLON));
  if (out->len > start && out->str[out->len - 1] == ':' && msg_is_message (msg)
      && sl_message_has_tag_id (msg, (SlTag) tag))
    g_string_truncate (out, out->len - 1);
}

static void
tag_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  if (msg->flags & SL_MSG_RFC5424)
    {
      rfc5424_tag (msg, out);
      return;
    }
  gsize space;
  gsize start = split (call, msg, env, out, &space);
  g_string_truncate (out, space);
  drop_added_colon (msg, out, start);
}

static void
msg_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  if (msg_is_message (msg))
    {
      g_string_append (out, rfc5424_msg (msg));
      return;
    }
  gsize space;
  gsize start = split (call, msg, env, out, &space);
  g_string_erase (out, start, space - start);
}

static void
msg_space_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  if (msg_is_message (msg))
    {
      if (*rfc5424_msg (msg) != ' ')
        g_string_append_c (out, ' ');
      return;
    }
  gsize space;
  gsize start = split (call, msg, env, out, &space);
  gboolean none = space == out->len;
  g_string_truncate (out, start);
  if (none)
    g_string_append_c (out, ' ');
}

/* The argument the rsyslog front end writes, marked once: its two parts
 * are then read from the message instead of through a template per
 * message */
#define TAG_AND_TEXT "${MSGHDR}${MESSAGE}"

static gboolean
tag_msg_prepare (SlTfCall *call, GError **error)
{
  (void) error;
  if (call->argc == 1 && g_str_equal (call->args[0], TAG_AND_TEXT))
    call->state = GINT_TO_POINTER (TRUE);
  return TRUE;
}

/* What the argument renders to when a parser found the tag (the legacy
 * MSGHDR is set): that tag, then MESSAGE, both appended as they are
 * (nothing escaped, no file name, one message); FALSE for any other
 * message, which the template renders */
static gboolean
append_tag_and_text (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  if (!call->state || (msg->flags & SL_MSG_RFC5424) || (env && (env->escape || env->file_name || env->context)))
    return FALSE;
  gsize tag_len, text_len;
  const gchar *tag = sl_message_get (msg, SL_F_LEGACY_MSGHDR, &tag_len);
  if (!tag || !tag_len)
    return FALSE;
  const gchar *text = sl_message_get (msg, SL_F_MESSAGE, &text_len);
  sl_text_append (out, tag, tag_len);
  if (text)
    sl_text_append (out, text, text_len);
  if (!memchr (tag, ' ', tag_len) && !(text && memchr (text, ' ', text_len)))
    g_string_append_c (out, ' ');
  return TRUE;
}

/* The three above in a row, as RSYSLOG_TraditionalFileFormat and
 * RSYSLOG_FileFormat write them (%syslogtag%%msg:::sp-if-no-1st-sp%%msg%),
 * from one rendering of the argument: the tag and text as they came, a
 * space after them when they have none. */
static void
tag_msg_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  if (append_tag_and_text (call, msg, env, out))
    return;
  if (!msg_is_message (msg))
    {
      gsize space;
      split (call, msg, env, out, &space);
      if (space == out->len)
        g_string_append_c (out, ' ');
      return;
    }
  tag_eval (call, msg, env, out);
  msg_space_eval (call, msg, env, out);
  msg_eval (call, msg, env, out);
}

/* rsyslog 8.2302's escaping, checked against its output: the json
 * property option writes \/ and escapes control characters (\u001F in
 * capitals), a template's option.json only " and \, option.sql ' and \
 * with a backslash, option.stdsql ' as '' */
typedef enum { ESCAPE_JSON, ESCAPE_JSON_QUOTES, ESCAPE_SQL, ESCAPE_STDSQL } EscapeMode;

static void
escape (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out, EscapeMode mode)
{
  static const gchar named[] = { ['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't' };
  g_autoptr (GString) text = g_string_new (NULL);
  gboolean whole = mode == ESCAPE_JSON;

  if (call->argc > 0)
    sl_template_append (call->arg_templates[0], msg, env, text);
  for (gsize i = 0; i < text->len; i++)
    {
      guchar c = (guchar) text->str[i];

      if (mode == ESCAPE_SQL && (c == '\'' || c == '\\'))
        g_string_append_printf (out, "\\%c", c);
      else if (mode == ESCAPE_STDSQL && c == '\'')
        g_string_append (out, "''");
      else if (mode >= ESCAPE_SQL)
        g_string_append_c (out, (gchar) c);
      else if (c == '"' || c == '\\' || (whole && c == '/'))
        g_string_append_printf (out, "\\%c", c);
      else if (whole && c < 0x20 && c < sizeof named && named[c])
        g_string_append_printf (out, "\\%c", named[c]);
      else if (whole && c < 0x20)
        g_string_append_printf (out, "\\u%04X", c);
      else
        g_string_append_c (out, (gchar) c);
    }
}

static void
json_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  escape (call, msg, env, out, ESCAPE_JSON);
}

static void
json_quotes_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  escape (call, msg, env, out, ESCAPE_JSON_QUOTES);
}

static void
sql_quotes_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  escape (call, msg, env, out, ESCAPE_SQL);
}

static void
stdsql_quotes_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  escape (call, msg, env, out, ESCAPE_STDSQL);
}

/* rsyslog's tplToString() for option.jsonf: "}\n" ends it even when the
 * last entry is empty */
static void
jsonf_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gboolean comma = FALSE;

  g_string_append_c (out, '{');
  for (gint i = 0; i < call->argc; i++)
    {
      gsize before = out->len;

      if (comma)
        g_string_append (out, ", ");
      gsize start = out->len;
      sl_template_append (call->arg_templates[i], msg, env, out);
      if (out->len == start)
        g_string_truncate (out, before);
      else
        comma = TRUE;
    }
  if (call->argc > 0)
    g_string_append (out, "}\n");
}

static const SlTemplateFunctionOps tag_ops = { .eval = tag_eval };
static const SlTemplateFunctionOps json_ops = { .eval = json_eval };
static const SlTemplateFunctionOps json_quotes_ops = { .eval = json_quotes_eval };
static const SlTemplateFunctionOps sql_quotes_ops = { .eval = sql_quotes_eval };
static const SlTemplateFunctionOps stdsql_quotes_ops = { .eval = stdsql_quotes_eval };
static const SlTemplateFunctionOps jsonf_ops = { .eval = jsonf_eval };
static const SlTemplateFunctionOps msg_ops = { .eval = msg_eval };
static const SlTemplateFunctionOps msg_space_ops = { .eval = msg_space_eval };
static const SlTemplateFunctionOps tag_msg_ops = { .prepare = tag_msg_prepare, .eval = tag_msg_eval };

static gboolean
rfc3339_prepare (SlTfCall *call, GError **error)
{
  if (call->argc == 1 && (g_str_equal (call->args[0], "reported") || g_str_equal (call->args[0], "generated")))
    return TRUE;
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "$(%s) takes one argument: reported or generated",
               call->klass->name);
  return FALSE;
}

/* rsyslog keeps the precision a stamp had: microseconds for the time it
 * received a message (taken as the message's own time from the local
 * socket), none for an RFC 3164 stamp, the digits an RFC 5424 one gave
 * (read back from the fraction, so a given .120 shows as .12). */
static gint
fraction_digits (const SlMessage *msg, gboolean generated)
{
  if (generated || msg->stamp.usec == msg->recvd.usec)
    return 6;
  gint64 frac = msg->stamp.usec % G_USEC_PER_SEC;
  if (frac < 0)
    frac += G_USEC_PER_SEC;
  gint digits = 6;
  while (frac && frac % 10 == 0)
    {
      frac /= 10;
      digits--;
    }
  return frac ? digits : 0;
}

static void
rfc3339_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gboolean generated = call->args[0][0] == 'g';
  const SlTime *t = generated ? &msg->recvd : &msg->stamp;
  GTimeZone *zone = env ? env->zone : NULL;
  sl_time_append (out, t, SL_TS_ISO, fraction_digits (msg, generated), zone);
  /* rsyslog keeps the offset mode of a stamp it parsed: UTC sent as Z is
   * written back as Z */
  if (!generated && (msg->flags & SL_MSG_STAMP_Z) && !zone && t->gmtoff == 0 && g_str_has_suffix (out->str, "+00:00"))
    {
      g_string_truncate (out, out->len - strlen ("+00:00"));
      g_string_append_c (out, 'Z');
    }
}

static const SlTemplateFunctionOps rfc3339_ops = { .prepare = rfc3339_prepare, .eval = rfc3339_eval };

static const SlDriverClass rfc3339_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-rfc3339",
  .summary = "timereported or timegenerated as rsyslog's date-rfc3339, with the stamp's own fraction of a second: "
             "$(rsyslog-rfc3339 reported|generated)",
  .ops.template_function = &rfc3339_ops,
};

/* rsyslog's default date: the stamp as RFC 3164 writes it, never with a
 * fraction. What $(substr ${S_DATE} 0 15) writes, without a template and
 * a macro per message. */
static void
rfc3164_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  const SlTime *t = call->args[0][0] == 'g' ? &msg->recvd : &msg->stamp;
  sl_time_append (out, t, SL_TS_RFC3164, 0, env ? env->zone : NULL);
}

static const SlTemplateFunctionOps rfc3164_ops = { .prepare = rfc3339_prepare, .eval = rfc3164_eval };

static const SlDriverClass rfc3164_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-rfc3164",
  .summary = "timereported or timegenerated as rsyslog's default date (rfc3164), without a fraction of a second: "
             "$(rsyslog-rfc3164 reported|generated)",
  .ops.template_function = &rfc3164_ops,
};

/* rsyslog's subseconds: the fraction in the digits the stamp has, "0"
 * for a stamp without one */
static void
subseconds_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  (void) env;
  gboolean generated = call->args[0][0] == 'g';
  gint64 frac = (generated ? msg->recvd.usec : msg->stamp.usec) % G_USEC_PER_SEC;
  gint digits = fraction_digits (msg, generated);

  if (frac < 0)
    frac += G_USEC_PER_SEC;
  if (!digits)
    {
      g_string_append_c (out, '0');
      return;
    }
  for (gint i = digits; i < 6; i++)
    frac /= 10;
  g_string_append_printf (out, "%0*" G_GINT64_FORMAT, digits, frac);
}

static const SlTemplateFunctionOps subseconds_ops = { .prepare = rfc3339_prepare, .eval = subseconds_eval };

static const SlDriverClass subseconds_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-subseconds",
  .summary = "timereported's or timegenerated's fraction of a second as rsyslog's date-subseconds writes it, in "
             "the stamp's own digits: $(rsyslog-subseconds reported|generated)",
  .ops.template_function = &subseconds_ops,
};

/* rendered in place and the part up to the colon taken out again: no
 * buffer of its own per message */
static void
inputname_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gsize start = out->len;
  if (call->argc > 0)
    sl_template_append (call->arg_templates[0], msg, env, out);
  const gchar *colon = memchr (out->str + start, ':', out->len - start);
  if (colon)
    g_string_erase (out, start, colon + 1 - (out->str + start));
}

static const SlTemplateFunctionOps inputname_ops = { .eval = inputname_eval };

static const SlDriverClass inputname_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-inputname",
  .summary = "rsyslog's inputname of a source the rsyslog front end named: $(rsyslog-inputname ${SOURCE})",
  .ops.template_function = &inputname_ops,
};

static const SlDriverClass tag_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-tag",
  .summary = "the syslogtag rsyslog takes from a tag and text: up to its first space, $(rsyslog-tag ${MSGHDR}${MESSAGE})",
  .ops.template_function = &tag_ops,
};

static const SlDriverClass msg_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-msg",
  .summary = "the msg rsyslog takes from a tag and text: from its first space on, $(rsyslog-msg ${MSGHDR}${MESSAGE})",
  .ops.template_function = &msg_ops,
};

static const SlDriverClass msg_space_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-msg-space",
  .summary = "a space when that msg does not start with one, as rsyslog's sp-if-no-1st-sp",
  .ops.template_function = &msg_space_ops,
};

static const SlDriverClass tag_msg_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-tag-msg",
  .summary = "$(rsyslog-tag TEXT)$(rsyslog-msg-space TEXT)$(rsyslog-msg TEXT) from one rendering of TEXT",
  .ops.template_function = &tag_msg_ops,
};

static const SlDriverClass json_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-json",
  .summary = "its argument escaped as rsyslog's json property option does: quotes, backslashes, slashes, control characters",
  .ops.template_function = &json_ops,
};

static const SlDriverClass json_quotes_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-json-quotes",
  .summary = "its argument with quotes and backslashes escaped, as a property in rsyslog's option.json templates",
  .ops.template_function = &json_quotes_ops,
};

static const SlDriverClass sql_quotes_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-sql-quotes",
  .summary = "its argument with ' and backslashes escaped by a backslash, as a property in rsyslog's option.sql templates",
  .ops.template_function = &sql_quotes_ops,
};

static const SlDriverClass stdsql_quotes_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-stdsql-quotes",
  .summary = "its argument with ' doubled, as a property in rsyslog's option.stdsql templates",
  .ops.template_function = &stdsql_quotes_ops,
};

static const SlDriverClass jsonf_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-jsonf",
  .summary = "rsyslog's option.jsonf template of its arguments: { the non-empty ones joined by \", \" }",
  .ops.template_function = &jsonf_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "rsyslog-functions",
  .drivers = (const SlDriverClass *const[]) { &tag_class, &msg_class, &msg_space_class, &tag_msg_class, &json_class,
                                              &json_quotes_class, &sql_quotes_class,
                                              &stdsql_quotes_class, &jsonf_class, &rsyslog_property_class,
                                              &rsyslog_date_class, &rsyslog_tree_class, &rsyslog_var_class, &rfc3339_class,
                                              &rfc3164_class,
                                              &subseconds_class, &inputname_class, NULL },
};
