/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A test file holds cases in the configuration's own language:
 *
 *   test "sshd's logins go to auth.log" {
 *     input(s_src "<38>Dec  6 10:00:00 web1 sshd[211]: Accepted publickey for ana");
 *     output(d_auth "Dec  6 10:00:00 web1 sshd[211]: Accepted publickey for ana\n");
 *     output(d_json field("${PROGRAM}" "sshd") field("${.json.user}" "ana"));
 *     none(d_messages);
 *   };
 *
 * input() feeds a source (each line one message, read as that source reads
 * it); output(DEST "BYTES") wants exactly those bytes from what DEST's
 * template writes of every message the case sent it; output(DEST field(T
 * V)...) wants one of those messages to render each template T as V;
 * none(DEST) wants nothing at DEST. Every case starts with empty queues. */
#include "daemon/test-cases.h"

#include "core/compile/config-test.h"
#include "core/config/error.h"
#include "core/config/parser.h"
#include "core/i18n.h"
#include "core/message/template.h"

#include <string.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCfgNode, sl_cfg_node_free)

typedef struct
{
  const SlCfgNode *node;
  const gchar *dest;
  const gchar *bytes;        /* output(DEST "BYTES"), or NULL */
  GPtrArray *fields;         /* SlTemplate * of field()s */
  GPtrArray *values;         /* the value each of them must render */
  gboolean none;
} Expect;

static void
expect_clear (Expect *e)
{
  if (e->fields)
    g_ptr_array_unref (e->fields);
  if (e->values)
    g_ptr_array_unref (e->values);
}

static const gchar *
arg (const SlCfgNode *node, guint i)
{
  return node->args && i < node->args->len ? ((SlCfgArg *) g_ptr_array_index (node->args, i))->value : NULL;
}

static gboolean
has_children (const SlCfgNode *node)
{
  return node->children && node->children->len;
}

static gboolean
fail_at (const SlCfgNode *node, GError **error, const gchar *what)
{
  sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, node->pos, "%s", what);
  return FALSE;
}


/* field("TEMPLATE" "VALUE") */
static gboolean
read_field (const SlCfgNode *node, Expect *e, GError **error)
{
  if (!g_str_equal (node->name, "field") || !arg (node, 1) || arg (node, 2) || has_children (node))
    return fail_at (node, error, _("output() takes field(\"TEMPLATE\" \"VALUE\") after its destination"));
  GError *inner = NULL;
  SlTemplate *t = sl_template_compile (arg (node, 0), &inner);
  if (!t)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, node->pos, _("field(): %s"), inner->message);
      g_error_free (inner);
      return FALSE;
    }
  if (!e->fields)
    {
      e->fields = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_template_unref);
      e->values = g_ptr_array_new ();
    }
  g_ptr_array_add (e->fields, t);
  g_ptr_array_add (e->values, (gpointer) arg (node, 1));
  return TRUE;
}

static gboolean
read_expect (SlConfig *cfg, const SlCfgNode *node, Expect *e, GError **error)
{
  e->node = node;
  e->dest = arg (node, 0);
  e->none = g_str_equal (node->name, "none");
  if (!e->dest || (e->none && (arg (node, 1) || has_children (node))))
    return fail_at (node, error, e->none ? _("none() takes a destination") : _("output() takes a destination first"));
  if (!sl_config_test_has_destination (cfg, e->dest))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_REFERENCE, node->pos, _("the configuration has no destination '%s'"),
                        e->dest);
      return FALSE;
    }
  if (e->none)
    return TRUE;
  e->bytes = arg (node, 1);
  if ((e->bytes && (arg (node, 2) || has_children (node))) || (!e->bytes && !has_children (node)))
    return fail_at (node, error, _("output() takes a destination and either the bytes it writes or field()s"));
  for (guint i = 0; node->children && i < node->children->len; i++)
    if (!read_field (g_ptr_array_index (node->children, i), e, error))
      return FALSE;
  return TRUE;
}

/* text's lines; a last one without its line feed says so */
static GStrv
lines_of (const gchar *text)
{
  GStrv lines = g_strsplit (text, "\n", -1);
  guint n = g_strv_length (lines);
  if (n && !*lines[n - 1])
    g_clear_pointer (&lines[n - 1], g_free);
  else if (n)
    {
      gchar *marked = g_strconcat (lines[n - 1], _("  (no line feed at the end)"), NULL);
      g_free (lines[n - 1]);
      lines[n - 1] = marked;
    }
  return lines;
}

/* The lines of a and b as a diff: "    " both, "  - " only a (what was
 * expected), "  + " only b (what came out), by their longest common
 * subsequence. */
static void
append_diff (GString *out, const gchar *a, const gchar *b)
{
  g_auto (GStrv) x = lines_of (a);
  g_auto (GStrv) y = lines_of (b);
  guint n = g_strv_length (x), m = g_strv_length (y);
  guint *lcs = g_new0 (guint, (n + 1) * (m + 1));
  for (guint i = n; i-- > 0;)
    for (guint j = m; j-- > 0;)
      lcs[i * (m + 1) + j] = g_str_equal (x[i], y[j]) ? lcs[(i + 1) * (m + 1) + j + 1] + 1
                                                       : MAX (lcs[(i + 1) * (m + 1) + j], lcs[i * (m + 1) + j + 1]);
  guint i = 0, j = 0;
  while (i < n || j < m)
    if (i < n && j < m && g_str_equal (x[i], y[j]))
      {
        g_string_append_printf (out, "    %s\n", x[i]);
        i++, j++;
      }
    else if (i < n && (j == m || lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1]))
      g_string_append_printf (out, "  - %s\n", x[i++]);
    else
      g_string_append_printf (out, "  + %s\n", y[j++]);
  g_free (lcs);
}

static gboolean
fields_match (const Expect *e, const SlMessage *msg, const SlTemplateEnv *env)
{
  for (guint i = 0; i < e->fields->len; i++)
    {
      g_autoptr (GString) value = g_string_new (NULL);
      sl_template_append (g_ptr_array_index (e->fields, i), msg, env, value);
      if (!g_str_equal (value->str, g_ptr_array_index (e->values, i)))
        return FALSE;
    }
  return TRUE;
}

/* What a destination got in a case, taken once for all its expectations */
typedef struct
{
  GPtrArray *msgs;
  const SlTemplate *format;
  const SlTemplateEnv *env;
  GString *written;
} Output;

static void
output_free (gpointer data)
{
  Output *o = data;
  g_ptr_array_unref (o->msgs);
  g_string_free (o->written, TRUE);
  g_free (o);
}

static const Output *
output_of (SlConfig *cfg, GHashTable *outputs, const gchar *dest)
{
  Output *o = g_hash_table_lookup (outputs, dest);
  if (o)
    return o;
  o = g_new0 (Output, 1);
  o->msgs = sl_config_test_output (cfg, dest, &o->format, &o->env);
  o->written = g_string_new (NULL);
  for (guint i = 0; o->format && i < o->msgs->len; i++)
    sl_template_append (o->format, g_ptr_array_index (o->msgs, i), o->env, o->written);
  g_hash_table_insert (outputs, (gpointer) dest, o);
  return o;
}

/* Checks e against what its destination got; a failure's account in why. */
static gboolean
check (const Output *o, const Expect *e, GString *why)
{
  GPtrArray *msgs = o->msgs;
  const SlTemplate *format = o->format;
  const SlTemplateEnv *env = o->env;
  GString *written = o->written;

  if (e->none)
    {
      if (!msgs->len)
        return TRUE;
      g_string_append_printf (why, _("  %s: expected nothing, %u messages came out:\n"), e->dest, msgs->len);
      append_diff (why, "", written->str);
      return FALSE;
    }
  if (e->bytes)
    {
      if (!format)
        {
          g_string_append_printf (why, _("  %s writes no template of its own: test it with field()\n"), e->dest);
          return FALSE;
        }
      if (g_str_equal (written->str, e->bytes))
        return TRUE;
      g_string_append_printf (why, _("  %s: expected (-), came out (+):\n"), e->dest);
      append_diff (why, e->bytes, written->str);
      return FALSE;
    }
  for (guint i = 0; i < msgs->len; i++)
    if (fields_match (e, g_ptr_array_index (msgs, i), env))
      return TRUE;
  g_string_append_printf (why, _("  %s: no message with"), e->dest);
  for (guint i = 0; i < e->fields->len; i++)
    g_string_append_printf (why, " %s=\"%s\"", sl_template_text (g_ptr_array_index (e->fields, i)),
                            (const gchar *) g_ptr_array_index (e->values, i));
  g_string_append_printf (why, _("; %u came out:\n"), msgs->len);
  for (guint i = 0; i < msgs->len; i++)
    {
      g_string_append (why, "  +");
      for (guint k = 0; k < e->fields->len; k++)
        {
          g_autoptr (GString) value = g_string_new (NULL);
          sl_template_append (g_ptr_array_index (e->fields, k), g_ptr_array_index (msgs, i), env, value);
          g_string_append_printf (why, " %s=\"%s\"", sl_template_text (g_ptr_array_index (e->fields, k)),
                                  value->str);
        }
      g_string_append_c (why, '\n');
    }
  return FALSE;
}

/* One case: its inputs fed, then every expectation checked. FALSE with
 * an error when the case itself is wrong. */
static gboolean
run_case (SlConfig *cfg, const SlCfgNode *test, gboolean *passed, GString *why, GError **error)
{
  g_autoptr (GArray) expects = g_array_new (FALSE, TRUE, sizeof (Expect));
  g_array_set_clear_func (expects, (GDestroyNotify) expect_clear);
  g_autoptr (GString) inputs = g_string_new (NULL);

  sl_config_test_discard (cfg);
  for (guint i = 0; test->children && i < test->children->len; i++)
    {
      const SlCfgNode *item = g_ptr_array_index (test->children, i);
      if (g_str_equal (item->name, "input"))
        {
          if (!arg (item, 1) || arg (item, 2) || has_children (item))
            return fail_at (item, error, _("input() takes a source and the text it reads"));
          if (!sl_config_test_source (cfg, arg (item, 0)))
            {
              sl_cfg_error_set (error, SL_CFG_ERROR_REFERENCE, item->pos, _("the configuration has no source '%s'"),
                                arg (item, 0));
              return FALSE;
            }
          sl_config_test_input (cfg, arg (item, 0), arg (item, 1), NULL);
          g_string_append_printf (inputs, _("  input at %s:\n"), arg (item, 0));
          g_auto (GStrv) lines = g_strsplit (arg (item, 1), "\n", -1);
          for (guint k = 0; lines[k]; k++)
            if (*lines[k] || lines[k + 1])
              g_string_append_printf (inputs, "    %s\n", lines[k]);
        }
      else if (g_str_equal (item->name, "output") || g_str_equal (item->name, "none"))
        {
          g_array_set_size (expects, expects->len + 1);
          if (!read_expect (cfg, item, &g_array_index (expects, Expect, expects->len - 1), error))
            return FALSE;
        }
      else
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, item->pos,
                            _("unknown item '%s' of a test: input(), output() or none()"), item->name);
          return FALSE;
        }
    }
  if (!expects->len)
    return fail_at (test, error, _("a test wants at least one output() or none()"));
  g_autoptr (GString) failures = g_string_new (NULL);
  g_autoptr (GHashTable) outputs = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, output_free);
  for (guint i = 0; i < expects->len; i++)
    {
      const Expect *e = &g_array_index (expects, Expect, i);
      check (output_of (cfg, outputs, e->dest), e, failures);
    }
  *passed = failures->len == 0;
  if (!*passed)
    {
      g_string_append (why, inputs->str);
      g_string_append (why, failures->str);
    }
  return TRUE;
}

gint
sl_test_cases_run (SlConfig *cfg, const gchar *path, FILE *out, FILE *err)
{
  GError *error = NULL;
  g_autoptr (SlCfgNode) root = NULL;
  root = sl_cfg_parse_tests (path, &error);
  if (!root)
    {
      fprintf (err, "%s\n", error->message);
      g_error_free (error);
      return 1;
    }
  sl_config_test_prepare (cfg);
  guint n = 0, failed = 0;
  for (guint i = 0; root->children && i < root->children->len; i++)
    {
      const SlCfgNode *test = g_ptr_array_index (root->children, i);
      g_autoptr (GString) why = g_string_new (NULL);
      gboolean passed = FALSE;
      if (!run_case (cfg, test, &passed, why, &error))
        {
          fprintf (err, "%s\n", error->message);
          g_error_free (error);
          return 1;
        }
      n++;
      failed += !passed;
      fprintf (out, "%s %u - %s\n%s", passed ? "ok" : "not ok", n, arg (test, 0), why->str);
    }
  if (!n)
    {
      fprintf (err, _("%s: no test in the file\n"), path);
      return 1;
    }
  fprintf (out, _("%u of %u tests passed\n"), n - failed, n);
  return failed ? 1 : 0;
}
