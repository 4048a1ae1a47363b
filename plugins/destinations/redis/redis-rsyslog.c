/* SPDX-License-Identifier: GPL-2.0-or-later */
/* omhiredis as redis(): queue mode LPUSHes each message onto key (RPUSH
 * with userPush), publish PUBLISHes it, set SETs key (SETEX with an
 * expiration), in RSYSLOG_ForwardFormat unless told otherwise; a key made
 * by a template (dynaKey) is that template. Its template mode, a whole
 * command line that hiredis splits at blanks, has no equal in redis(),
 * whose command() is a list of templates. */
#include "plugins/destinations/redis/redis-rsyslog.h"
#include "core/i18n.h"

static const gchar *const omhiredis_params[] = { "server", "serverport", "serverpassword", "mode", "key", "dynakey",
                                                 "userpush", "expiration", NULL };

static gboolean
omhiredis_write (SlRsCall *call, GString *driver, GError **error)
{
  const gchar *mode = sl_rs_call_value (call, "mode") ? sl_rs_call_value (call, "mode") : "template";
  const gchar *key = sl_rs_call_value (call, "key");
  const gchar *expiration = sl_rs_call_value (call, "expiration");
  gboolean set = g_ascii_strcasecmp (mode, "set") == 0;
  const gchar *command = NULL;

  if (g_ascii_strcasecmp (mode, "queue") == 0)
    command = sl_rs_call_flag (call, "userpush", FALSE) ? "RPUSH" : "LPUSH";
  else if (g_ascii_strcasecmp (mode, "publish") == 0)
    command = "PUBLISH";
  else if (set)
    command = expiration && g_ascii_strtoll (expiration, NULL, 10) > 0 ? "SETEX" : "SET";
  if (!command)
    return sl_rs_call_fail (call, "mode", error,
                            _("rsyslog's omhiredis mode=\"%s\" is not supported: redis() takes the queue, publish and "
                              "set modes (a template that writes the whole command has no equal in its command())"),
                            mode);
  if (!key)
    return sl_rs_call_fail (call, NULL, error, _("rsyslog's omhiredis needs key= in mode %s"), mode);
  g_autofree gchar *key_text = NULL;
  if (sl_rs_call_flag (call, "dynakey", FALSE))
    {
      g_autofree gchar *object = sl_rs_call_template (call, key, error);
      if (!object)
        return FALSE;
      key_text = g_strdup_printf ("$(template %s)", object);
    }
  else
    key_text = sl_rs_text_literal (key);
  g_autofree gchar *object = sl_rs_call_template (call, sl_rs_call_value (call, "template")
                                                          ? sl_rs_call_value (call, "template")
                                                          : "RSYSLOG_ForwardFormat", error);
  if (!object)
    return FALSE;
  g_autofree gchar *value = g_strdup_printf ("$(template %s)", object);
  g_string_append (driver, "redis(");
  sl_rs_text_option (driver, "host", sl_rs_call_value (call, "server") ? sl_rs_call_value (call, "server")
                                                                       : "127.0.0.1");
  sl_rs_text_option (driver, "port", sl_rs_call_value (call, "serverport") ? sl_rs_call_value (call, "serverport")
                                                                           : "6379");
  if (sl_rs_call_value (call, "serverpassword"))
    sl_rs_text_option (driver, "auth", sl_rs_call_value (call, "serverpassword"));
  g_string_append (driver, " command(");
  sl_rs_text_quote (driver, command);
  g_string_append_c (driver, ' ');
  sl_rs_text_quote (driver, key_text);
  if (set && g_str_equal (command, "SETEX"))
    {
      g_string_append_c (driver, ' ');
      sl_rs_text_quote (driver, expiration);
    }
  g_string_append_c (driver, ' ');
  sl_rs_text_quote (driver, value);
  g_string_append (driver, "))");
  return TRUE;
}

const SlRsModule redis_omhiredis = {
  "omhiredis", SL_RS_MODULE_OUTPUT, omhiredis_params, NULL, omhiredis_write,
};
