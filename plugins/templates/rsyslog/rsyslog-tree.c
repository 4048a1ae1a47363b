/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(rsyslog-tree MODE PREFIX): one of rsyslog's variable trees whole, as
 * rsyslogd 8.2302 writes it through json-c: the fields whose names start
 * with PREFIX in any case (the rsyslog front end names $!a!b "!a.b"), nested at dots
 * (not at a member's own dot, escaped: "!a\.b" of $!a.b, member-name.h),
 * in the order they were set in the message (json-c keeps its objects'
 * members in the order they were added), every value with its type as
 * mmjsonparse kept it (json-parser's types(rsyslog)): a number, a
 * boolean and JSON as they are, null as null, the rest a string. MODE
 * "tree" is %$!% (json-c's spaced text, nothing when no field is set),
 * "all-json" %$!all-json% (the same, "{}" when empty) and
 * "all-json-plain" %$!all-json-plain% (json-c's plain text). */
#include "plugins/templates/rsyslog/rsyslog-classes.h"
#include "plugins/templates/rsyslog/variable-name.h"

#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/member-name.h"
#include "core/message/template.h"

#include <string.h>

enum { MODE_TREE, MODE_ALL_JSON, MODE_ALL_JSON_PLAIN };

typedef struct
{
  gchar *name;        /* as the field names it, escaped */
  gchar *value;       /* NULL: an object */
  SlValueType type;   /* of value */
  GPtrArray *members; /* of TreeNode, in the order set */
} TreeNode;

static void
node_free (gpointer data)
{
  TreeNode *node = data;

  g_free (node->name);
  g_free (node->value);
  if (node->members)
    g_ptr_array_unref (node->members);
  g_free (node);
}

static TreeNode *
node_member (TreeNode *parent, const gchar *name, gsize len)
{
  if (!parent->members)
    parent->members = g_ptr_array_new_with_free_func (node_free);
  for (guint i = 0; i < parent->members->len; i++)
    {
      TreeNode *member = g_ptr_array_index (parent->members, i);
      if (strlen (member->name) == len && strncmp (member->name, name, len) == 0)
        return member;
    }
  TreeNode *member = g_new0 (TreeNode, 1);
  member->name = g_strndup (name, len);
  g_ptr_array_add (parent->members, member);
  return member;
}

typedef struct
{
  const gchar *prefix;
  TreeNode *root;
  gboolean any;
} Collect;

static gboolean
collect (SlHandle h, const gchar *value, gsize len, SlValueType type, gpointer user_data)
{
  Collect *c = user_data;
  const gchar *name = sl_field_name (h);

  /* syslog-ng's structured data fields are none of rsyslog's $. */
  if (!rs_variable_has_prefix (name, c->prefix) || !name[strlen (c->prefix)] || g_str_has_prefix (name, ".SDATA."))
    return TRUE;
  TreeNode *node = c->root;
  for (const gchar *p = name + strlen (c->prefix);;)
    {
      const gchar *dot = sl_member_name_end (p);
      node = node_member (node, p, (gsize) (dot - p));
      if (!*dot)
        break;
      /* a value that becomes an object, as json-c replaces it */
      g_clear_pointer (&node->value, g_free);
      p = dot + 1;
    }
  if (!node->members)
    {
      g_free (node->value);
      node->value = g_strndup (value, len);
      node->type = type;
    }
  c->any = TRUE;
  return TRUE;
}

/* json-c's json_escape_str() */
static void
json_string (GString *out, const gchar *text)
{
  static const gchar named[] = { ['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't' };

  g_string_append_c (out, '"');
  for (const guchar *p = (const guchar *) text; *p; p++)
    if (*p == '"' || *p == '\\' || *p == '/')
      g_string_append_printf (out, "\\%c", *p);
    else if (*p < 0x20 && *p < sizeof named && named[*p])
      g_string_append_printf (out, "\\%c", named[*p]);
    else if (*p < 0x20)
      g_string_append_printf (out, "\\u%04x", *p);
    else
      g_string_append_c (out, (gchar) *p);
  g_string_append_c (out, '"');
}

/* JSON kept in libfastjson's spaced text (mmjsonparse's arrays) as its
 * plain text: without the spaces outside strings */
static void
json_plain (GString *out, const gchar *text)
{
  gboolean in_string = FALSE;
  for (const gchar *p = text; *p; p++)
    {
      if (in_string && *p == '\\' && p[1])
        g_string_append_c (out, *p++);
      else if (*p == '"')
        in_string = !in_string;
      else if (!in_string && *p == ' ')
        continue;
      g_string_append_c (out, *p);
    }
}

static void
render (const TreeNode *node, gboolean spaced, GString *out)
{
  switch (node->value ? node->type : SL_VALUE_STRING)
    {
    case SL_VALUE_JSON:
      if (!spaced)
        {
          json_plain (out, node->value);
          return;
        }
      /* fall through */
    case SL_VALUE_INT32:
    case SL_VALUE_INT64:
    case SL_VALUE_DOUBLE:
    case SL_VALUE_BOOLEAN:
      g_string_append (out, node->value);
      return;
    case SL_VALUE_NULL:
      g_string_append (out, "null");
      return;
    case SL_VALUE_STRING:
    case SL_VALUE_LIST:
    case SL_VALUE_DATETIME:
      if (node->value)
        {
          json_string (out, node->value);
          return;
        }
      break;
    }
  g_string_append_c (out, '{');
  for (guint i = 0; node->members && i < node->members->len; i++)
    {
      const TreeNode *member = g_ptr_array_index (node->members, i);
      if (i)
        g_string_append_c (out, ',');
      if (spaced)
        g_string_append_c (out, ' ');
      /* a name escapes a member's own dot or backslash, and is otherwise the member's */
      if (strchr (member->name, '\\'))
        {
          g_autoptr (GString) text = g_string_new (NULL);
          sl_member_name_unescape (text, member->name, strlen (member->name));
          json_string (out, text->str);
        }
      else
        json_string (out, member->name);
      g_string_append (out, spaced ? ": " : ":");
      render (member, spaced, out);
    }
  g_string_append (out, spaced ? " }" : "}");
}

static const gchar *const modes[] = { "tree", "all-json", "all-json-plain" };

static gboolean
tree_prepare (SlTfCall *call, GError **error)
{
  for (guint i = 0; call->argc == 2 && i < G_N_ELEMENTS (modes); i++)
    if (g_str_equal (call->args[0], modes[i]))
      {
        call->state = GUINT_TO_POINTER (i);
        return TRUE;
      }
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
               _("$(rsyslog-tree) takes tree, all-json or all-json-plain and a prefix of names"));
  return FALSE;
}

static gint
compare_order (gconstpointer a, gconstpointer b)
{
  const SlValue *x = *(const SlValue *const *) a, *y = *(const SlValue *const *) b;
  return (gint) x->order - (gint) y->order;
}

static void
tree_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  (void) env;
  guint mode = GPOINTER_TO_UINT (call->state);
  TreeNode root = { 0 };
  Collect c = { call->args[1], &root, FALSE };
  g_autoptr (GPtrArray) fields = g_ptr_array_sized_new (msg->n_fields);

  /* the dynamic fields in the order they were added, as json-c's */
  for (guint32 i = 0; i < msg->n_fields; i++)
    g_ptr_array_add (fields, &msg->fields[i]);
  g_ptr_array_sort (fields, compare_order);
  for (guint i = 0; i < fields->len; i++)
    {
      const SlValue *v = g_ptr_array_index (fields, i);
      collect (v->handle, v->ptr, v->len, v->type, &c);
    }
  if (!c.any)
    g_string_append (out, mode == MODE_TREE ? "" : "{}");
  else
    render (&root, mode != MODE_ALL_JSON_PLAIN, out);
  if (root.members)
    g_ptr_array_unref (root.members);
}

static const SlTemplateFunctionOps tree_ops = { .prepare = tree_prepare, .eval = tree_eval };

const SlDriverClass rsyslog_tree_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-tree",
  .summary = "one of rsyslog's variable trees as JSON: $(rsyslog-tree tree|all-json|all-json-plain PREFIX)",
  .ops.template_function = &tree_ops,
};
