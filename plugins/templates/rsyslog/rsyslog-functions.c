/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's split of a local message into syslogtag and msg, for the
 * templates the rsyslog front end writes: $(rsyslog-tag TEXT) is TEXT up
 * to its first space, $(rsyslog-msg TEXT) the rest from that space on,
 * and $(rsyslog-msg-space TEXT) the space sp-if-no-1st-sp adds when that
 * rest does not start with one. TEXT is the tag and message as received
 * (${MSGHDR}${MESSAGE}): rsyslog's imuxsock takes its first word as the
 * tag, colon or not. $(rsyslog-json TEXT) escapes TEXT as rsyslog's json
 * property option does, $(rsyslog-json-quotes TEXT) as a template's
 * option.json does: only quotes and backslashes; $(rsyslog-sql-quotes
 * TEXT) and $(rsyslog-stdsql-quotes TEXT) as option.sql (\' and \\) and
 * option.stdsql ('') do. $(rsyslog-jsonf A B ...) is an option.jsonf
 * template: { the arguments that are not empty, joined by ", " }. */
#include "plugins/templates/rsyslog/rsyslog-classes.h"

#include "core/plugin.h"
#include "core/template.h"

#include <string.h>

/* The rendered argument and where its tag ends. */
static const gchar *
split (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *text)
{
  if (call->argc > 0)
    sl_template_append (call->arg_templates[0], msg, env, text);
  const gchar *space = strchr (text->str, ' ');
  return space ? space : text->str + text->len;
}

static void
tag_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autoptr (GString) text = g_string_new (NULL);
  const gchar *end = split (call, msg, env, text);
  g_string_append_len (out, text->str, end - text->str);
}

static void
msg_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autoptr (GString) text = g_string_new (NULL);
  g_string_append (out, split (call, msg, env, text));
}

static void
msg_space_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autoptr (GString) text = g_string_new (NULL);
  if (*split (call, msg, env, text) != ' ')
    g_string_append_c (out, ' ');
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
  .drivers = (const SlDriverClass *const[]) { &tag_class, &msg_class, &msg_space_class, &json_class,
                                              &json_quotes_class, &sql_quotes_class,
                                              &stdsql_quotes_class, &jsonf_class, &rsyslog_property_class,
                                              &rsyslog_date_class, &rsyslog_tree_class, NULL },
};
