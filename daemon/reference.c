/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "daemon/reference.h"
#include "core/route/driver-private.h"
#include "core/compile/loader-private.h"
#include "core/plugin/registry.h"

#include <string.h>

typedef struct
{
  SlReferenceFormat format;
  GString *out;
  GPtrArray *classes[SL_DRIVER_KIND_COUNT];   /* const SlDriverClass *, in name order */
} Reference;

static const struct
{
  const gchar *title;
  const gchar *man_title;
  const gchar *text;
} kinds[SL_DRIVER_KIND_COUNT] = {
  [SL_DRIVER_SOURCE] = { "Sources", "SOURCES", "Written in `source NAME { ... };`." },
  [SL_DRIVER_DESTINATION] = { "Destinations", "DESTINATIONS", "Written in `destination NAME { ... };`." },
  [SL_DRIVER_FILTER] = { "Filter functions", "FILTER FUNCTIONS",
                         "Written in `filter NAME { ... };` or `if (...)`, combined with `and`, `or`, `not`." },
  [SL_DRIVER_PARSER] = { "Parsers", "PARSERS", "Written in `parser NAME { ... };`." },
  [SL_DRIVER_REWRITE] = { "Rewrites", "REWRITES", "Written in `rewrite NAME { ... };`." },
  [SL_DRIVER_TEMPLATE_FUNCTION] = { "Template functions", "TEMPLATE FUNCTIONS",
                                    "Called in templates as `$(NAME ARGUMENT ...)`." },
  [SL_DRIVER_FORMAT] = { "Message formats", "MESSAGE FORMATS",
                         "Named by a source's `format()`: how a received frame becomes a message." },
};

/* Markdown: what would be read as a table cell's end, emphasis or HTML. */
static void
md_text (GString *out, const gchar *text)
{
  for (const gchar *p = text; *p; p++)
    if (strchr ("\\|*_<>[]", *p))
      g_string_append_printf (out, "\\%c", *p);
    else
      g_string_append_c (out, *p);
}

static void
md_code (GString *out, const gchar *text)
{
  g_string_append_c (out, '`');
  for (const gchar *p = text; *p; p++)
    g_string_append (out, *p == '|' ? "\\|" : (gchar[]) { *p, 0 });
  g_string_append_c (out, '`');
}

/* roff: backslashes and minus signs written as such, and no line that
 * starts as a request. */
static void
man_text (GString *out, const gchar *text)
{
  if (*text == '.' || *text == '\'')
    g_string_append (out, "\\&");
  for (const gchar *p = text; *p; p++)
    if (*p == '\\')
      g_string_append (out, "\\e");
    else if (*p == '-')
      g_string_append (out, "\\-");
    else if (*p == '\n')
      g_string_append_c (out, ' ');
    else
      g_string_append_c (out, *p);
}

static void
text (Reference *r, const gchar *s)
{
  if (r->format == SL_REFERENCE_MARKDOWN)
    md_text (r->out, s);
  else
    man_text (r->out, s);
}

static void
code (Reference *r, const gchar *s)
{
  if (r->format == SL_REFERENCE_MARKDOWN)
    md_code (r->out, s);
  else
    {
      g_string_append (r->out, "\\fB");
      man_text (r->out, s);
      g_string_append (r->out, "\\fR");
    }
}

/* A sentence of the Markdown source (`code` and [links](#x)) in man:
 * code in bold, links as their text. */
static void
prose (Reference *r, const gchar *markdown)
{
  if (r->format == SL_REFERENCE_MARKDOWN)
    {
      g_string_append (r->out, markdown);
      return;
    }
  gboolean in_code = FALSE;
  GString *plain = g_string_new (NULL);
  for (const gchar *p = markdown; *p; p++)
    {
      if (*p == '`')
        {
          man_text (r->out, plain->str);
          g_string_truncate (plain, 0);
          g_string_append (r->out, in_code ? "\\fR" : "\\fB");
          in_code = !in_code;
        }
      else if (*p == ']' && p[1] == '(' && strchr (p, ')'))
        p = strchr (p, ')');
      else if (*p != '[')
        g_string_append_c (plain, *p);
    }
  man_text (r->out, plain->str);
  g_string_free (plain, TRUE);
}

static const SlOptionGroup *
group_named (const gchar *anchor)
{
  for (const SlOptionGroup *g = sl_driver_option_groups (); g->options; g++)
    if (strcmp (g->anchor, anchor) == 0)
      return g;
  return NULL;
}

static void
option_notes (Reference *r, const SlOptionSpec *o)
{
  GString *md = g_string_new (NULL);
  if (o->flags & SL_OPT_REQUIRED)
    g_string_append (md, " Required.");
  if (o->flags & SL_OPT_POSITIONAL)
    g_string_append (md, " Positional: the driver's first bare argument sets it.");
  if (o->inherit)
    g_string_append_printf (md, " Inherits `options { %s(); }`.", o->inherit);
  if (o->flags & SL_OPT_DEPRECATED)
    g_string_append (md, " Deprecated: accepted with a notice.");
  const SlOptionGroup *block = o->type == SL_OPT_BLOCK ? group_named (o->name) : NULL;
  if (block)
    g_string_append_printf (md, " See [%s](#%s).", block->title, block->anchor);
  prose (r, md->str);
  g_string_free (md, TRUE);
}

static void
option_row (Reference *r, const SlDriverClass *klass, const SlOptionSpec *o)
{
  const gchar *def = klass ? sl_driver_class_default (klass, o) : o->def;
  gchar *type = sl_option_value_text (o);
  gchar *shown = def ? (*def ? sl_option_default_text (def) : g_strdup ("\"\"")) : NULL;
  gchar *name = g_strdup_printf ("%s()", o->name);
  if (r->format == SL_REFERENCE_MARKDOWN)
    {
      g_string_append (r->out, "| ");
      code (r, name);
      g_string_append (r->out, " | ");
      text (r, type);
      g_string_append (r->out, " | ");
      if (def)
        code (r, shown);
      g_string_append (r->out, " | ");
      text (r, o->help ? o->help : "");
      g_string_append_c (r->out, '.');
      option_notes (r, o);
      g_string_append (r->out, " |\n");
    }
  else
    {
      g_string_append (r->out, ".TP\n\\fB");
      man_text (r->out, o->name);
      g_string_append (r->out, "\\fR(\\fI");
      man_text (r->out, type);
      g_string_append (r->out, "\\fR)\n");
      if (def)
        {
          g_string_append (r->out, "Default: ");
          code (r, shown);
          g_string_append (r->out, ".\n");
        }
      text (r, o->help ? o->help : "");
      g_string_append (r->out, ".");
      option_notes (r, o);
      g_string_append_c (r->out, '\n');
    }
  g_free (name);
  g_free (type);
  g_free (shown);
}

static void
option_table (Reference *r, const SlDriverClass *klass, const SlOptionSpec *table)
{
  if (r->format == SL_REFERENCE_MARKDOWN)
    g_string_append (r->out, "| option | type | default | meaning |\n|---|---|---|---|\n");
  for (const SlOptionSpec *o = table; o->name; o++)
    option_row (r, klass, o);
  if (r->format == SL_REFERENCE_MARKDOWN)
    g_string_append_c (r->out, '\n');
}

static void
heading (Reference *r, gint level, const gchar *anchor, const gchar *title, gboolean as_code)
{
  if (r->format == SL_REFERENCE_MARKDOWN)
    {
      if (anchor)
        g_string_append_printf (r->out, "<a id=\"%s\"></a>\n", anchor);
      g_string_append_printf (r->out, "%.*s ", level, "####");
      if (as_code)
        code (r, title);
      else
        g_string_append (r->out, title);
      g_string_append (r->out, "\n\n");
      return;
    }
  g_string_append (r->out, level <= 2 ? ".SH \"" : ".SS \"");
  man_text (r->out, title);
  g_string_append (r->out, "\"\n");
}

static void
paragraph (Reference *r, const gchar *markdown)
{
  if (r->format == SL_REFERENCE_MANPAGE)
    g_string_append (r->out, ".PP\n");
  prose (r, markdown);
  g_string_append (r->out, r->format == SL_REFERENCE_MARKDOWN ? "\n\n" : "\n");
}

static gchar *
class_title (const SlDriverClass *klass)
{
  if (klass->kind == SL_DRIVER_TEMPLATE_FUNCTION)
    return g_strdup_printf ("$(%s)", klass->name);
  if (klass->kind == SL_DRIVER_FORMAT)
    return g_strdup_printf ("format(\"%s\")", klass->name);
  return g_strdup_printf ("%s()", klass->name);
}

/* Which of the core's tables the class takes, linked, and the defaults
 * it gives them. */
static void
class_core_tables (Reference *r, const SlDriverClass *klass, const SlOptionSpec *const *tables)
{
  GString *md = g_string_new (NULL);
  for (guint i = 0; tables[i]; i++)
    for (const SlOptionGroup *g = sl_driver_option_groups (); g->options; g++)
      if (g->options == tables[i])
        g_string_append_printf (md, "%s[%s](#%s)", md->len ? ", " : "Also takes the ", g->title, g->anchor);
  if (md->len)
    g_string_append_c (md, '.');
  for (const gchar *const *d = klass->defaults; d && d[0]; d += 2)
    g_string_append_printf (md, "%s`%s(%s)`", d == klass->defaults ? " Its own defaults of those: " : ", ", d[0], d[1]);
  if (klass->defaults && klass->defaults[0])
    g_string_append_c (md, '.');
  if (md->len)
    paragraph (r, md->str);
  g_string_free (md, TRUE);
}

static void
class_section (Reference *r, const SlDriverClass *klass)
{
  gchar *title = class_title (klass);
  gchar *anchor = g_strdup_printf ("%s-%s", sl_driver_kind_name (klass->kind), klass->name);
  for (gchar *p = anchor; *p; p++)
    if (*p == ' ')
      *p = '-';
  heading (r, 3, anchor, title, TRUE);
  if (r->format == SL_REFERENCE_MANPAGE)
    g_string_append (r->out, ".PP\n");
  gchar *summary = g_strdup (klass->summary ? klass->summary : "");
  summary[0] = g_ascii_toupper (summary[0]);
  text (r, summary);
  g_free (summary);
  g_string_append (r->out, r->format == SL_REFERENCE_MARKDOWN ? ".\n\n" : ".\n");
  const SlOptionSpec *tables[SL_DRIVER_TABLES_MAX + 1];
  sl_driver_class_tables (klass, tables);
  guint first_core = 0;
  if (klass->options && klass->options->name)
    {
      option_table (r, klass, klass->options);
      first_core = 1;
    }
  else if (klass->options)
    first_core = 1;
  class_core_tables (r, klass, tables + first_core);
  g_free (anchor);
  g_free (title);
}

static void
collect_class (const SlDriverClass *klass, gpointer data)
{
  Reference *r = data;
  g_ptr_array_add (r->classes[klass->kind], (gpointer) klass);
}

/* options {} entries that drivers inherit, and who inherits each. */
static void
add_inheritors (GTree *inherited, const SlOptionSpec *table, const gchar *who)
{
  for (const SlOptionSpec *o = table; o->name; o++)
    {
      if (!o->inherit)
        continue;
      GPtrArray *list = g_tree_lookup (inherited, o->inherit);
      if (!list)
        {
          list = g_ptr_array_new_with_free_func (g_free);
          g_tree_insert (inherited, (gpointer) o->inherit, list);
        }
      gchar *entry = g_strdup_printf ("%s: `%s()`", who, o->name);
      gboolean seen = FALSE;
      for (guint i = 0; i < list->len && !seen; i++)
        seen = strcmp (g_ptr_array_index (list, i), entry) == 0;
      if (seen)
        g_free (entry);
      else
        g_ptr_array_add (list, entry);
    }
}

static gboolean
inherited_row (gpointer key, gpointer value, gpointer data)
{
  Reference *r = data;
  GPtrArray *list = value;
  gchar *name = g_strdup_printf ("%s()", (const gchar *) key);
  GString *md = g_string_new (NULL);
  for (guint i = 0; i < list->len; i++)
    g_string_append_printf (md, "%s%s", i ? "; " : "", (const gchar *) g_ptr_array_index (list, i));
  if (r->format == SL_REFERENCE_MARKDOWN)
    {
      g_string_append (r->out, "| ");
      code (r, name);
      g_string_append_printf (r->out, " | %s |\n", md->str);
    }
  else
    {
      g_string_append (r->out, ".TP\n");
      code (r, name);
      g_string_append_c (r->out, '\n');
      prose (r, md->str);
      g_string_append (r->out, ".\n");
    }
  g_string_free (md, TRUE);
  g_free (name);
  return FALSE;
}

static gint
compare_names (gconstpointer a, gconstpointer b, gpointer data)
{
  return strcmp (a, b);
}

static void
inherited_section (Reference *r)
{
  GTree *inherited = g_tree_new_full (compare_names, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
  for (const SlOptionGroup *g = sl_driver_option_groups (); g->options; g++)
    {
      gchar *who = g_strdup_printf ("[%s](#%s)", g->title, g->anchor);
      add_inheritors (inherited, g->options, who);
      g_free (who);
    }
  for (SlDriverKind k = 0; k < SL_DRIVER_KIND_COUNT; k++)
    for (guint i = 0; i < r->classes[k]->len; i++)
      {
        const SlDriverClass *klass = g_ptr_array_index (r->classes[k], i);
        if (!klass->options)
          continue;
        gchar *who = g_strdup_printf ("[`%s()` %s](#%s-%s)", klass->name, sl_driver_kind_name (klass->kind),
                                      sl_driver_kind_name (klass->kind), klass->name);
        add_inheritors (inherited, klass->options, who);
        g_free (who);
      }
  heading (r, 3, "inherited", "Inherited options", FALSE);
  paragraph (r, "An option a driver inherits, written in `options {}`, is the value of that option in every driver "
                "that does not write it.");
  if (r->format == SL_REFERENCE_MARKDOWN)
    g_string_append (r->out, "| in `options {}` | is the default of |\n|---|---|\n");
  g_tree_foreach (inherited, inherited_row, r);
  if (r->format == SL_REFERENCE_MARKDOWN)
    g_string_append_c (r->out, '\n');
  g_tree_unref (inherited);
}

static void
group_section (Reference *r, const SlOptionGroup *g)
{
  heading (r, 3, g->anchor, g->title, FALSE);
  paragraph (r, g->text);
  option_table (r, NULL, g->options);
}

gchar *
sl_reference_render (SlReferenceFormat format)
{
  Reference r = { .format = format, .out = g_string_new (NULL) };
  for (SlDriverKind k = 0; k < SL_DRIVER_KIND_COUNT; k++)
    r.classes[k] = g_ptr_array_new ();
  sl_plugins_foreach (collect_class, &r);
  const SlOptionGroup *groups = sl_driver_option_groups ();
  if (format == SL_REFERENCE_MARKDOWN)
    g_string_append (r.out, "# Sluice configuration reference\n\n"
                            "<!-- Generated by `sluiced --dump-reference markdown` from the option tables of the "
                            "plugins of the build; `make reference` writes it again. Do not edit. -->\n\n"
                            "Every driver and option as the code declares them. An option is written `name(value)`; "
                            "`-` and `_` are the same in names. Sizes take `k`, `M`, `G` (powers of 1024), durations "
                            "`ms`, `s`, `m`, `h`. See [sluice.conf(5)](man/sluice.conf.5.in) for the language.\n\n");
  heading (&r, 2, groups[0].anchor, format == SL_REFERENCE_MARKDOWN ? groups[0].title : "GLOBAL OPTIONS", FALSE);
  paragraph (&r, groups[0].text);
  option_table (&r, NULL, groups[0].options);
  inherited_section (&r);
  group_section (&r, &groups[1]);
  group_section (&r, &groups[2]);
  for (SlDriverKind k = 0; k < SL_DRIVER_KIND_COUNT; k++)
    {
      if (!r.classes[k]->len)
        continue;
      heading (&r, 2, NULL, format == SL_REFERENCE_MARKDOWN ? kinds[k].title : kinds[k].man_title, FALSE);
      paragraph (&r, kinds[k].text);
      for (guint i = 0; i < r.classes[k]->len; i++)
        class_section (&r, g_ptr_array_index (r.classes[k], i));
    }
  heading (&r, 2, NULL, format == SL_REFERENCE_MARKDOWN ? "Options the core adds" : "OPTIONS THE CORE ADDS", FALSE);
  paragraph (&r, "Drivers take these besides their own, by what they do; each driver above says which.");
  for (const SlOptionGroup *g = groups + 3; g->options; g++)
    group_section (&r, g);
  for (SlDriverKind k = 0; k < SL_DRIVER_KIND_COUNT; k++)
    g_ptr_array_unref (r.classes[k]);
  return g_string_free (r.out, FALSE);
}
