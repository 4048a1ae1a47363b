/* SPDX-License-Identifier: GPL-2.0-or-later */
/* group-lines(): syslog-ng 4's grouping parser that puts the lines of a
 * stream back together, when they arrive as messages of their own (a
 * container's log lines, a multi-line stack trace sent line by line): the
 * messages of each key() (within scope()) are judged by multi-line-mode()
 * as a file's lines are, and each group becomes one message, the last
 * message of the group with its text the group's lines joined by
 * line-separator(). A group still open is sent when its key had no
 * message for timeout(). Only the groups go on (syslog-ng's
 * inject-mode(aggregate-only)). The lines are $MESSAGE, or template(). */
#include "plugins/parsers/grouping-by/correlation.h"
#include "plugins/parsers/grouping-by/grouping-private.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/io/multi-line.h"
#include "core/message/scratch.h"
#include "core/message/template.h"

typedef struct
{
  CorrContext base;
  SlMultiLineState state;
  GString *lines;            /* the group so far, joined */
  SlMessage *last;           /* its last message, or NULL: no group open */
} LinesContext;

typedef struct
{
  SlDriver base;
  SlTemplate *key;
  gint scope;
  gint64 timeout;
  SlMultiLineOptions multi_line;
  const gchar *separator;
  SlTemplate *template;

  SlMultiLine *ml;
  Correlation correlation;
} GroupLines;

static const SlOptionSpec group_lines_options[] = {
  { "key", SL_TEMPLATE (GroupLines, key), NULL, "the template whose value says which messages are one stream",
    .flags = SL_OPT_REQUIRED },
  { "scope", SL_CHOICE (GroupLines, scope), "global",
    "what else a stream shares: process (host, program, pid), program (host, program), host, or global",
    .words = correlation_scope_words },
  { "timeout", SL_DURATION (GroupLines, timeout), NULL,
    "a group no message came to for this long is sent as it is", .flags = SL_OPT_REQUIRED,
    SL_RANGE (1000, G_MAXINT64) },
  SL_MULTI_LINE_OPTIONS (GroupLines, multi_line),
  { "line-separator", SL_STRING (GroupLines, separator), "\n", "what joins the lines of a group" },
  { "template", SL_TEMPLATE (GroupLines, template), NULL, "the line each message gives; $MESSAGE when not set" },
  { NULL }
};

static GPrivate line_key = SL_SCRATCH_INIT;

static void
context_clear (CorrContext *c)
{
  LinesContext *lc = (LinesContext *) c;
  if (lc->lines)
    g_string_free (lc->lines, TRUE);
  g_clear_pointer (&lc->last, sl_message_unref);
}

/* The open group of c as one message, or NULL when none is open; c is
 * then empty, its multi-line state kept for what comes next. */
static SlMessage *
close_group (LinesContext *c)
{
  if (!c->last)
    return NULL;
  SlMessage *msg = sl_message_clone (c->last);
  sl_message_set (msg, SL_F_MESSAGE, c->lines->str, c->lines->len);
  g_string_truncate (c->lines, 0);
  g_clear_pointer (&c->last, sl_message_unref);
  return msg;
}

static SlMessage *
close_expired (SlDriver *owner, CorrContext *c)
{
  return close_group ((LinesContext *) c);
}

static const CorrClass group_lines_contexts = { sizeof (LinesContext), context_clear, close_expired };

static gboolean
group_lines_init (SlDriver *d, GError **error)
{
  GroupLines *self = (GroupLines *) d;
  g_autoptr (GError) local = NULL;

  self->ml = sl_multi_line_new (d, &self->multi_line, &local);
  if (local)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (!self->ml)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos,
                        _("group-lines() needs multi-line-mode(): indented, regexp, prefix-garbage, prefix-suffix or "
                          "smart"));
      return FALSE;
    }
  correlation_init (&self->correlation, d, &group_lines_contexts, self->scope, self->timeout);
  return TRUE;
}

static void
add_line (GroupLines *self, LinesContext *c, SlMessage *msg, const gchar *line, gsize len)
{
  if (!c->lines)
    c->lines = g_string_new (NULL);
  if (c->last)
    g_string_append (c->lines, self->separator);
  g_string_append_len (c->lines, line, len);
  g_clear_pointer (&c->last, sl_message_unref);
  c->last = sl_message_ref (msg);
}

static gboolean
group_lines_process (SlDriver *d, SlMessage **msg)
{
  GroupLines *self = (GroupLines *) d;
  GString *text = sl_scratch_push (&line_key);
  const gchar *line;
  gsize len;

  if (self->template)
    {
      sl_template_append (self->template, *msg, NULL, text);
      line = text->str;
      len = text->len;
    }
  else
    line = sl_message_get (*msg, SL_F_MESSAGE, &len);
  if (!line)
    line = "";
  gsize session_len;
  const gchar *session = sl_template_peek (self->key, *msg, &session_len);

  g_autoptr (GPtrArray) due = NULL;
  SlMessage *groups[2] = { NULL, NULL };
  guint n_groups = 0;
  LinesContext *c = (LinesContext *) correlation_enter (&self->correlation, *msg, session, session_len, &due);
  for (gboolean again = TRUE; again;)
    {
      gsize keep = len;
      again = FALSE;
      switch (sl_multi_line_add (self->ml, &c->state, c->last ? c->lines->len + 1 : 0, line, len, &keep))
        {
        case SL_MULTI_LINE_WAIT:
          add_line (self, c, *msg, line, len);
          break;
        case SL_MULTI_LINE_END:
          add_line (self, c, *msg, line, keep);
          groups[n_groups++] = close_group (c);
          break;
        case SL_MULTI_LINE_BEFORE:
          groups[n_groups++] = close_group (c);
          /* the line is judged again as the first of the next group */
          again = TRUE;
          break;
        }
    }
  correlation_leave (&self->correlation);
  sl_scratch_pop (&line_key);

  /* what this message's time expired goes first, as in syslog-ng */
  correlation_emit (&self->correlation, due);
  for (guint i = 0; i < n_groups; i++)
    if (groups[i])
      sl_parser_emit (groups[i]);
  return FALSE;
}

static void
group_lines_free (SlDriver *d)
{
  GroupLines *self = (GroupLines *) d;
  if (self->correlation.contexts)
    correlation_clear (&self->correlation);
  if (self->ml)
    sl_multi_line_free (self->ml);
}

static const SlParserOps group_lines_ops = { .process = group_lines_process };

const SlDriverClass group_lines_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "group-lines",
  .summary = "puts the lines of a stream, sent as messages of their own, back together by multi-line-mode()",
  .options = group_lines_options,
  .capabilities = SL_CAP_EMITS,
  .instance_size = sizeof (GroupLines),
  .init = group_lines_init,
  .free = group_lines_free,
  .ops.parser = &group_lines_ops,
};
