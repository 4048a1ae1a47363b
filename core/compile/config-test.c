/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/compile/config-test.h"

#include "core/compile/config-private.h"
#include "core/config/tree.h"
#include "core/route/destination-private.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/message/in-flight.h"
#include "core/message/macros.h"
#include "core/plugin/options.h"
#include "core/route/queue.h"
#include "core/route/source-private.h"
#include "core/route/source.h"

#include <string.h>

void
sl_config_test_prepare (SlConfig *cfg)
{
  sl_in_flight_set_max (cfg->daemon.in_flight_bytes_max);
  sl_macro_set_loghost (cfg->daemon.local_hostname, cfg->daemon.use_fqdn);
  for (guint i = 0; i < cfg->sources->len; i++)
    sl_source_use_compiled_paths (g_ptr_array_index (cfg->sources, i));
}

/* An object's name as a test names it: whole, or the part after the ':'
 * the rsyslog front end puts before an input's own name. */
static gboolean
named (const gchar *object, const gchar *name)
{
  const gchar *colon = object ? strchr (object, ':') : NULL;
  return object && (sl_cfg_name_equal (object, name) || (colon && sl_cfg_name_equal (colon + 1, name)));
}

/* A source's driver by its id ("s_local#1"), or the first of the source
 * that reads from outside: internal() carries the daemon's own messages,
 * which no test writes. */
static SlSource *
find_source (SlConfig *cfg, const gchar *name)
{
  SlSource *internal = NULL;
  for (guint i = 0; i < cfg->sources->len; i++)
    {
      SlSource *src = g_ptr_array_index (cfg->sources, i);
      if (g_str_equal (src->driver->id, name))
        return src;
      if (!named (src->group, name))
        continue;
      if (!g_str_equal (src->driver->klass->name, "internal"))
        return src;
      internal = internal ? internal : src;
    }
  return internal;
}

const gchar *
sl_config_test_source (SlConfig *cfg, const gchar *name)
{
  SlSource *src = find_source (cfg, name);
  return src ? src->driver->id : NULL;
}

gboolean
sl_config_test_input (SlConfig *cfg, const gchar *source, const gchar *data, GError **error)
{
  SlSource *src = find_source (cfg, source);
  if (!src)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("the configuration has no source '%s'"),
                   source);
      return FALSE;
    }
  for (const gchar *line = data; *line;)
    {
      const gchar *end = strchr (line, '\n');
      gsize len = end ? (gsize) (end - line) : strlen (line);
      SlMessage *msg = sl_source_parse (src, line, len, NULL);
      if (msg)
        sl_source_post (src, &msg, 1);
      line += len + (end ? 1 : 0);
    }
  return TRUE;
}

static GPtrArray *
destinations (SlConfig *cfg, const gchar *name)
{
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, cfg->dest_groups);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (named (key, name))
      return value;
  return NULL;
}

gboolean
sl_config_test_has_destination (SlConfig *cfg, const gchar *name)
{
  return destinations (cfg, name) != NULL;
}

static void
take (SlMessage *msg, gpointer user_data)
{
  if (user_data)
    g_ptr_array_add (user_data, sl_message_ref (msg));
}

/* The template a destination's driver writes with: its template()
 * option, bound like every option to a field of the driver's struct. */
static const SlTemplate *
driver_template (const SlDriver *driver)
{
  for (const SlOptionSpec *spec = driver->klass->options; spec && spec->name; spec++)
    if (g_str_equal (spec->name, "template") && spec->type == SL_OPT_TEMPLATE && spec->offset >= 0)
      return *(SlTemplate *const *) ((const gchar *) driver + spec->offset);
  return NULL;
}

GPtrArray *
sl_config_test_output (SlConfig *cfg, const gchar *name, const SlTemplate **format, const SlTemplateEnv **env)
{
  GPtrArray *msgs = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_message_unref);
  GPtrArray *group = destinations (cfg, name);
  *format = NULL;
  *env = NULL;
  for (guint i = 0; group && i < group->len; i++)
    {
      SlDestination *d = g_ptr_array_index (group, i);
      const SlDriver *driver = g_ptr_array_index (sl_destination_drivers (d), 0);
      if (!*format)
        {
          *format = driver_template (driver);
          *env = sl_driver_template_env (driver);
        }
      sl_destination_take_queued (d, take, msgs);
    }
  return msgs;
}

void
sl_config_test_discard (SlConfig *cfg)
{
  for (guint i = 0; i < cfg->destinations->len; i++)
    sl_destination_take_queued (g_ptr_array_index (cfg->destinations, i), take, NULL);
}
