/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(getent DB KEY [FIELD]) as syslog-ng has it: passwd and group (a name
 * gives its id, an id its name, or the field named), services and
 * protocols (a name gives its number, a number its name). The lookups go
 * through NSS on the writing thread, so they cost what the system's
 * databases cost: use it with local files, not a slow directory. */
#include "plugins/templates/extra/extra-private.h"
#include "core/config/error.h"
#include "core/i18n.h"

#include <grp.h>
#include <netdb.h>
#include <pwd.h>
#include <string.h>

static gboolean
is_number (const gchar *s, glong *value)
{
  gchar *end;
  *value = strtol (s, &end, 10);
  return *s && !*end;
}

static void
passwd_lookup (const gchar *key, const gchar *field, GString *out)
{
  struct passwd pw, *found = NULL;
  gchar buf[4096];
  glong id;
  if (is_number (key, &id))
    getpwuid_r ((uid_t) id, &pw, buf, sizeof buf, &found);
  else
    getpwnam_r (key, &pw, buf, sizeof buf, &found);
  if (!found)
    return;
  if (!field)
    field = is_number (key, &id) ? "name" : "uid";
  if (g_str_equal (field, "name"))
    g_string_append (out, pw.pw_name);
  else if (g_str_equal (field, "passwd"))
    g_string_append (out, pw.pw_passwd);
  else if (g_str_equal (field, "uid"))
    g_string_append_printf (out, "%u", (guint) pw.pw_uid);
  else if (g_str_equal (field, "gid"))
    g_string_append_printf (out, "%u", (guint) pw.pw_gid);
  else if (g_str_equal (field, "gecos"))
    g_string_append (out, pw.pw_gecos);
  else if (g_str_equal (field, "dir"))
    g_string_append (out, pw.pw_dir);
  else if (g_str_equal (field, "shell"))
    g_string_append (out, pw.pw_shell);
}

static void
group_lookup (const gchar *key, const gchar *field, GString *out)
{
  struct group gr, *found = NULL;
  gchar buf[8192];
  glong id;
  if (is_number (key, &id))
    getgrgid_r ((gid_t) id, &gr, buf, sizeof buf, &found);
  else
    getgrnam_r (key, &gr, buf, sizeof buf, &found);
  if (!found)
    return;
  if (!field)
    field = is_number (key, &id) ? "name" : "gid";
  if (g_str_equal (field, "name"))
    g_string_append (out, gr.gr_name);
  else if (g_str_equal (field, "passwd"))
    g_string_append (out, gr.gr_passwd);
  else if (g_str_equal (field, "gid"))
    g_string_append_printf (out, "%u", (guint) gr.gr_gid);
  else if (g_str_equal (field, "members"))
    for (gchar **m = gr.gr_mem; m && *m; m++)
      {
        if (m != gr.gr_mem)
          g_string_append_c (out, ',');
        g_string_append (out, *m);
      }
}

static void
services_lookup (const gchar *key, GString *out)
{
  struct servent se, *found = NULL;
  gchar buf[4096];
  glong port;
  if (is_number (key, &port))
    getservbyport_r (htons ((uint16_t) port), NULL, &se, buf, sizeof buf, &found);
  else
    getservbyname_r (key, NULL, &se, buf, sizeof buf, &found);
  if (!found)
    return;
  if (is_number (key, &port))
    g_string_append (out, se.s_name);
  else
    g_string_append_printf (out, "%u", (guint) ntohs ((uint16_t) se.s_port));
}

static void
protocols_lookup (const gchar *key, GString *out)
{
  struct protoent pe, *found = NULL;
  gchar buf[4096];
  glong number;
  if (is_number (key, &number))
    getprotobynumber_r ((gint) number, &pe, buf, sizeof buf, &found);
  else
    getprotobyname_r (key, &pe, buf, sizeof buf, &found);
  if (!found)
    return;
  if (is_number (key, &number))
    g_string_append (out, pe.p_name);
  else
    g_string_append_printf (out, "%d", pe.p_proto);
}

static const gchar *const databases[] = { "passwd", "group", "services", "protocols" };

static gboolean
getent_prepare (SlTfCall *call, GError **error)
{
  if (call->argc < 2 || call->argc > 3)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("$(getent) takes a database, a key and an optional field"));
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (databases); i++)
    if (g_str_equal (call->args[0], databases[i]))
      {
        call->state = GUINT_TO_POINTER (i + 1);
        return TRUE;
      }
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
               _("$(getent) knows the databases passwd, group, services and protocols, not '%s'"), call->args[0]);
  return FALSE;
}

static void
getent_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  GString *key = tf_extra_scratch_acquire ();
  GString *field = tf_extra_scratch_acquire ();
  sl_template_append (call->arg_templates[1], msg, env, key);
  if (call->argc == 3)
    sl_template_append (call->arg_templates[2], msg, env, field);
  const gchar *f = call->argc == 3 ? field->str : NULL;
  switch (GPOINTER_TO_UINT (call->state))
    {
    case 1: passwd_lookup (key->str, f, out); break;
    case 2: group_lookup (key->str, f, out); break;
    case 3: services_lookup (key->str, out); break;
    case 4: protocols_lookup (key->str, out); break;
    }
  tf_extra_scratch_release ();
  tf_extra_scratch_release ();
}

const SlDriverClass tf_getent_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "getent",
  .summary = "an entry of a system database: $(getent passwd NAME), group, services, protocols",
  .ops.template_function = &(const SlTemplateFunctionOps) { .prepare = getent_prepare, .eval = getent_eval },
};
