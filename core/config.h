/* A configuration as compiled: its tree, its objects, its drivers and the
 * log paths between them. Loaded whole, started whole, stopped whole. */
#ifndef SL_CONFIG_H
#define SL_CONFIG_H

#include <glib.h>
#include "core/plugin.h"
#include "core/template.h"

G_BEGIN_DECLS

SlConfig   *sl_config_load       (const gchar *path, GError **error);
SlConfig   *sl_config_load_string (const gchar *text, const gchar *name, GError **error);
gboolean    sl_config_start      (SlConfig *cfg, GError **error);
/* Stops sources, drains destination queues, and joins every thread. */
void        sl_config_stop       (SlConfig *cfg);
void        sl_config_free       (SlConfig *cfg);
/* Asks every destination to reopen its files (SIGHUP, sluicectl reopen). */
void        sl_config_reopen     (SlConfig *cfg);

/* The template that a template option of a driver names: a template
 * object's name or template text. fallback is used when the option is unset. */
SlTemplate *sl_config_template   (SlConfig *cfg, const SlOptions *options,
                                  const gchar *name, const gchar *fallback,
                                  GError **error);
/* The environment a destination renders templates in, from its ts-format(),
 * frac-digits(), time-zone() and template-escape() options. */
gboolean    sl_config_template_env (SlConfig *cfg, const SlOptions *options,
                                    SlTemplateEnv *env, GError **error);
const SlCfgNode *sl_config_globals (SlConfig *cfg);

G_END_DECLS

#endif
