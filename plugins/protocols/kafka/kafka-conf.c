/* SPDX-License-Identifier: GPL-2.0-or-later */
/* librdkafka configuration of kafka() drivers: bootstrap-servers() and
 * config("acks" => "all" "linger.ms" => 5), syslog-ng's pairs. */
#include "plugins/protocols/kafka/kafka-conf.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <string.h>

/* librdkafka logs from its own threads; sl_log() may be called from any. */
static void
log_line (const rd_kafka_t *rk, int level, const char *facility, const char *text)
{
  SlLogLevel sl_level = level <= 3 ? SL_LOG_ERROR : level == 4 ? SL_LOG_WARNING
                        : level <= 6 ? SL_LOG_INFO : SL_LOG_DEBUG;
  sl_log (sl_level, "kafka %s: %s: %s", rd_kafka_name (rk), facility, text);
}

static gboolean
conf_set (rd_kafka_conf_t *conf, SlDriver *driver, const gchar *option, const gchar *name,
          const gchar *value, GError **error)
{
  gchar why[512];
  if (rd_kafka_conf_set (conf, name, value, why, sizeof why) == RD_KAFKA_CONF_OK)
    return TRUE;
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (driver->options, option),
                    _("%s(): %s"), driver->klass->name, why);
  return FALSE;
}

static gboolean
is_fixed (const gchar *const *fixed, const gchar *name)
{
  for (guint i = 0; fixed && fixed[i]; i += 2)
    if (strcmp (fixed[i], name) == 0)
      return TRUE;
  return FALSE;
}

rd_kafka_conf_t *
kafka_conf_new (SlDriver *driver, const gchar *bootstrap_servers, const GPtrArray *pairs,
                   const gchar *const *fixed, GError **error)
{
  const gchar *kind = driver->klass->name;
  SlCfgPos config_pos = sl_options_pos (driver->options, "config");
  if (!bootstrap_servers || !*bootstrap_servers)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, driver->pos,
                        _("%s() needs bootstrap-servers(\"host:port,...\")"), kind);
      return NULL;
    }
  rd_kafka_conf_t *conf = rd_kafka_conf_new ();
  rd_kafka_conf_set_log_cb (conf, log_line);
  if (!conf_set (conf, driver, "bootstrap-servers", "bootstrap.servers", bootstrap_servers, error))
    goto fail;
  for (guint i = 0; pairs && i < pairs->len; i++)
    {
      const SlOptionPair *pair = g_ptr_array_index (pairs, i);
      const gchar *name = pair->key;
      if (strcmp (name, "bootstrap.servers") == 0 || strcmp (name, "metadata.broker.list") == 0
          || is_fixed (fixed, name))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, config_pos,
                            _("%s(): config() may not set '%s': %s"), kind, name,
                            is_fixed (fixed, name) ? _("the driver sets it itself (from its options, or for its delivery guarantees)")
                                                   : _("use bootstrap-servers()"));
          goto fail;
        }
      if (!conf_set (conf, driver, "config", name, pair->value, error))
        goto fail;
    }
  for (guint i = 0; fixed && fixed[i]; i += 2)
    if (!conf_set (conf, driver, "config", fixed[i], fixed[i + 1], error))
      goto fail;
  return conf;

fail:
  rd_kafka_conf_destroy (conf);
  return NULL;
}

gboolean
kafka_conf_rsyslog_pairs (SlRsCall *call, const gchar *param, GString *driver, GError **error)
{
  const gchar *list = sl_rs_call_value (call, param);
  g_auto (GStrv) items = list ? g_strsplit (list, ",", -1) : NULL;

  for (guint i = 0; items && items[i]; i++)
    {
      const gchar *eq = strchr (items[i], '=');
      if (!eq)
        return sl_rs_call_fail (call, param, error, _("rsyslog's %s takes name=value, not '%s'"), param, items[i]);
      g_autofree gchar *key = g_strstrip (g_strndup (items[i], (gsize) (eq - items[i])));
      g_autofree gchar *value = g_strstrip (g_strdup (eq + 1));
      g_string_append (driver, " config(");
      sl_rs_text_quote (driver, key);
      g_string_append (driver, " => ");
      sl_rs_text_quote (driver, value);
      g_string_append_c (driver, ')');
    }
  return TRUE;
}
