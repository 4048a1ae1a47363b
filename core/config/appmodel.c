/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The text app-parser() expands into is syslog-ng 3.38's, so that a
 * configuration behaves the same in both: a junction with one final
 * channel per application and a last one that matches nothing. */
#include "core/config/appmodel.h"

#include <string.h>

#include "core/config/error.h"
#include "core/i18n.h"

typedef struct
{
  gchar *name;
  gchar *topic;
  gchar *filter;
  gchar *parser;
} SlCfgApp;

struct _SlCfgAppModel
{
  GPtrArray *apps;   /* SlCfgApp, in the order of definition */
};

static void
app_free (gpointer data)
{
  SlCfgApp *app = data;

  g_free (app->name);
  g_free (app->topic);
  g_free (app->filter);
  g_free (app->parser);
  g_free (app);
}

SlCfgAppModel *
sl_cfg_app_model_new (void)
{
  SlCfgAppModel *model = g_new0 (SlCfgAppModel, 1);

  model->apps = g_ptr_array_new_with_free_func (app_free);
  return model;
}

void
sl_cfg_app_model_free (SlCfgAppModel *model)
{
  if (!model)
    return;
  g_ptr_array_unref (model->apps);
  g_free (model);
}

static const SlCfgApp *
find_app (const SlCfgAppModel *model, const gchar *name, const gchar *topic, guint *index)
{
  for (guint i = 0; i < model->apps->len; i++)
    {
      const SlCfgApp *app = g_ptr_array_index (model->apps, i);

      if (g_str_equal (app->name, name) && g_str_equal (app->topic, topic))
        {
          if (index)
            *index = i;
          return app;
        }
    }
  return NULL;
}

void
sl_cfg_app_model_add (SlCfgAppModel *model, const gchar *name, const gchar *topic,
                      const gchar *filter, const gchar *parser)
{
  SlCfgApp *app = g_new0 (SlCfgApp, 1);
  guint before;

  app->name = g_strdup (name);
  app->topic = g_strdup (topic);
  app->filter = g_strdup (filter);
  app->parser = g_strdup (parser);
  if (find_app (model, name, topic, &before))
    g_ptr_array_remove_index (model->apps, before);
  g_ptr_array_add (model->apps, app);
}

/* A value as written, without the quotes of a string. */
static gchar *
unquote (const gchar *value)
{
  gsize len = value ? strlen (value) : 0;

  if (len >= 2 && (value[0] == '"' || value[0] == '\'') && value[len - 1] == value[0])
    return g_strndup (value + 1, len - 2);
  return g_strdup (value);
}

static gboolean
parse_yesno (const gchar *value, gboolean *result)
{
  static const gchar *const yes[] = { "yes", "on", "1" };
  static const gchar *const no[] = { "no", "off", "0" };

  for (guint i = 0; i < G_N_ELEMENTS (yes); i++)
    if (g_ascii_strcasecmp (value, yes[i]) == 0)
      {
        *result = TRUE;
        return TRUE;
      }
  for (guint i = 0; i < G_N_ELEMENTS (no); i++)
    if (g_ascii_strcasecmp (value, no[i]) == 0)
      {
        *result = FALSE;
        return TRUE;
      }
  return FALSE;
}

typedef struct
{
  gchar *topic;
  gchar *include;
  gchar *exclude;
} SlAppSelection;

/* syslog-ng looks an application's name up in the include and exclude
 * lists as a substring of their text, and so does this. */
static gboolean
is_selected (const SlAppSelection *selection, const SlCfgApp *app)
{
  if (!g_str_equal (app->topic, selection->topic))
    return FALSE;
  if (selection->include && !strstr (selection->include, app->name))
    return FALSE;
  return !selection->exclude || !strstr (selection->exclude, app->name);
}

static void
append_application (const SlCfgAppModel *model, const SlCfgApp *app, GString *out)
{
  const SlCfgApp *base = find_app (model, app->name, "*", NULL);
  const gchar *filter = app->filter ? app->filter : base ? base->filter : NULL;
  const gchar *parser = app->parser ? app->parser : base ? base->parser : NULL;

  g_string_append_printf (out, "\n#Start Application %s\nchannel {\n", app->name);
  if (filter)
    g_string_append_printf (out, "    filter { %s };\n", filter);
  if (parser)
    g_string_append_printf (out, "    parser { %s };\n", parser);
  g_string_append_printf (out,
                          "    rewrite {\n"
                          "       set-tag('.app.%s');\n"
                          "       set('%s' value('.app.name'));\n"
                          "    };\n"
                          "    flags(final);\n"
                          "};\n"
                          "\n#End Application %s\n", app->name, app->name, app->name);
}

static const gchar no_application[] = "\nchannel { filter { tags('.app.doesnotexist'); }; flags(final); };";

gboolean
sl_cfg_app_model_generate (gpointer data, const SlCfgBlockArgs *args, SlCfgPos used_at,
                           GString *out, GError **error)
{
  const SlCfgAppModel *model = data;
  const gchar *auto_parse = sl_cfg_block_args_get (args, "auto-parse");
  gboolean parse = TRUE;

  if (!sl_cfg_block_args_get (args, "topic"))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, used_at, _("app-parser() requires a topic() argument"));
      return FALSE;
    }
  g_autofree gchar *auto_parse_text = unquote (auto_parse);
  if (auto_parse && !parse_yesno (auto_parse_text, &parse))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, used_at,
                        _("auto-parse() of app-parser() is yes or no, not '%s'"), auto_parse_text);
      return FALSE;
    }
  if (!parse)
    {
      g_string_append (out, no_application);
      return TRUE;
    }

  SlAppSelection selection = {
    unquote (sl_cfg_block_args_get (args, "topic")),
    unquote (sl_cfg_block_args_get (args, "auto-parse-include")),
    unquote (sl_cfg_block_args_get (args, "auto-parse-exclude")),
  };
  g_string_append (out, "\nchannel {\n    junction {\n");
  for (guint i = 0; i < model->apps->len; i++)
    {
      const SlCfgApp *app = g_ptr_array_index (model->apps, i);

      if (!g_str_equal (app->topic, "*") && is_selected (&selection, app))
        append_application (model, app, out);
    }
  g_string_append (out, no_application);
  g_string_append (out, "    };\n}");
  g_free (selection.topic);
  g_free (selection.include);
  g_free (selection.exclude);
  return TRUE;
}
