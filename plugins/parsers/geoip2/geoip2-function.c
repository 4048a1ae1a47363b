/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(geoip2 [--database FILE] [--field PATH] ADDRESS): one value of what a
 * MaxMind DB holds of ADDRESS, country.iso_code unless --field names
 * another path (location.latitude), as syslog-ng's $(geoip2) writes it;
 * empty when the address is not in the database. */
#include "plugins/parsers/geoip2/geoip2-lookup.h"
#include "core/i18n.h"
#include "core/plugin/plugin.h"
#include "core/message/template.h"

#include <string.h>

typedef struct
{
  MMDB_s *db;
  gchar *path;
  gchar **field;
  gint address;     /* the argument that is the address */
} Geoip2Call;

static void
geoip2_call_free (gpointer state)
{
  Geoip2Call *c = state;
  geoip2_close (c->db);
  g_free (c->path);
  g_strfreev (c->field);
  g_free (c);
}

/* --name VALUE, --name=VALUE, or -n VALUE; the index of the next argument */
static gint
option_value (const SlTfCall *call, gint i, const gchar *name, gchar letter, const gchar **value)
{
  const gchar *arg = call->args[i];
  gsize n = strlen (name);
  if (arg[0] == '-' && arg[1] == '-' && strncmp (arg + 2, name, n) == 0 && arg[2 + n] == '=')
    {
      *value = arg + 3 + n;
      return i + 1;
    }
  gboolean long_form = arg[0] == '-' && arg[1] == '-' && strcmp (arg + 2, name) == 0;
  gboolean short_form = arg[0] == '-' && arg[1] == letter && !arg[2];
  if ((long_form || short_form) && i + 1 < call->argc)
    {
      *value = call->args[i + 1];
      return i + 2;
    }
  return i;
}

static gboolean
geoip2_prepare (SlTfCall *call, GError **error)
{
  const gchar *database = NULL, *field = "country.iso_code";
  gint i = 0;
  while (i < call->argc && call->args[i][0] == '-')
    {
      gint next = option_value (call, i, "database", 'd', &database);
      if (next == i)
        next = option_value (call, i, "field", 'f', &field);
      if (next == i)
        break;
      i = next;
    }
  if (i >= call->argc || call->args[i][0] == '-')
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("$(geoip2) takes $(geoip2 [--database FILE.mmdb] [--field path.child] ADDRESS)"));
      return FALSE;
    }
  Geoip2Call *c = g_new0 (Geoip2Call, 1);
  c->address = i;
  c->field = g_strsplit (field, ".", -1);
  c->db = geoip2_open (database, &c->path, error);
  if (!c->db)
    {
      geoip2_call_free (c);
      return FALSE;
    }
  call->state = c;
  return TRUE;
}

static void
address_free (gpointer buffer)
{
  g_string_free (buffer, TRUE);
}

static GPrivate address_key = G_PRIVATE_INIT (address_free);

/* Called on whatever thread renders the template: lookups in a mapped
 * database only read it. */
static void
geoip2_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  const Geoip2Call *c = call->state;
  GString *address = g_private_get (&address_key);
  if (!address)
    {
      address = g_string_sized_new (64);
      g_private_set (&address_key, address);
    }
  g_string_truncate (address, 0);
  sl_template_append (call->arg_templates[c->address], msg, env, address);
  int gai_error = 0, mmdb_error = MMDB_SUCCESS;
  MMDB_lookup_result_s result = geoip2_lookup (c->db, address->str, &gai_error, &mmdb_error);
  if (!result.found_entry)
    return;
  MMDB_entry_data_s data;
  if (MMDB_aget_value (&result.entry, &data, (const char *const *) c->field) == MMDB_SUCCESS && data.has_data)
    geoip2_append_value (out, &data);
}

static const SlTemplateFunctionOps geoip2_function_ops = {
  .prepare = geoip2_prepare,
  .eval = geoip2_eval,
  .free = geoip2_call_free,
};

const SlDriverClass geoip2_function_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION,
  .name = "geoip2",
  .summary = "one value a MaxMind DB holds of an address: $(geoip2 [--database FILE] [--field PATH] ADDRESS)",
  .ops.template_function = &geoip2_function_ops,
};
