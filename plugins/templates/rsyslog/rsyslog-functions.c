/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's split of a local message into syslogtag and msg, for the
 * templates the rsyslog front end writes: $(rsyslog-tag TEXT) is TEXT up
 * to its first space, $(rsyslog-msg TEXT) the rest from that space on,
 * and $(rsyslog-msg-space TEXT) the space sp-if-no-1st-sp adds when that
 * rest does not start with one. TEXT is the tag and message as received
 * (${MSGHDR}${MESSAGE}): rsyslog's imuxsock takes its first word as the
 * tag, colon or not. */
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

static const SlTemplateFunctionOps tag_ops = { .eval = tag_eval };
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

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "rsyslog-functions",
  .drivers = (const SlDriverClass *const[]) { &tag_class, &msg_class, &msg_space_class, NULL },
};
