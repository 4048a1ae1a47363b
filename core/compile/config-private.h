/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the core's units share about a configuration being built or run,
 * and the building of it (core/compile/config.c): its objects, ids, drivers and
 * templates. Compiling its log paths (core/compile/path-compile.c) and running it
 * (core/compile/config-run.c) are above; plugins see only core/config.h. */
#ifndef SL_CONFIG_PRIVATE_H
#define SL_CONFIG_PRIVATE_H

#include "core/compile/config.h"
#include "core/config/tree.h"
#include "core/route/driver-private.h"
#include "core/plugin/options.h"
#include "core/stats.h"

G_BEGIN_DECLS

struct _SlConfig
{
  SlCfgNode *tree;
  SlCfgNode *globals;          /* every options {} block merged */
  SlOptions *stats_options;    /* options { stats(...) }, bound to stats */
  SlStatsSettings stats;
  SlOptions *daemon_options;   /* the daemon's own settings of options {}, bound to daemon */
  SlDaemonSettings daemon;
  GHashTable *objects;         /* "kind/normalized-name" -> SlCfgNode */
  GHashTable *templates;       /* normalized name -> SlTemplate */
  GHashTable *template_functions;  /* template-function name -> SlTemplateUserFunction */
  GPtrArray *drivers;          /* every SlDriver made, freed with the config */
  GHashTable *source_groups;   /* group name -> GPtrArray of SlSource */
  GHashTable *dest_groups;     /* group name -> GPtrArray of SlDestination */
  GPtrArray *sources;          /* SlSource, in creation order */
  GPtrArray *destinations;     /* SlDestination, in creation order */
  GPtrArray *paths;            /* top-level SlPath, in configuration order */
  GPtrArray *channels;         /* SlPath of channels inside objects, and what joins them to paths */
  GHashTable *source_entries;  /* SlSource -> the channel of a source object it comes through */
  GHashTable *dest_channels;   /* destination group -> GPtrArray of its channels' SlPath */
  GPtrArray *schedulers;       /* SlScheduler of every parallelize(), owned by their steps */
  gboolean has_catchall;
  guint anonymous;
  GHashTable *id_counts;       /* id prefix -> drivers made with it so far */
  GHashTable *tap_points;      /* "kind/normalized-name" -> its SlTapPoint, of the objects paths use */
  gboolean started;
  /* Reload: sources and destinations are known by what made them (kind,
   * group, place, driver text and options {}); a new configuration takes
   * over the running one's that are made the same, with their sockets,
   * connections, queues and threads, instead of making its own. */
  gchar *globals_text;
  GHashTable *reusable;        /* key -> SlSource or SlDestination made here */
  SlConfig *donor;             /* while compiling: the running configuration */
  GHashTable *borrowed;        /* SlSource, SlDestination, SlDriver taken from donor */
  SlOptionsCompiler compiler;  /* what drivers' template and filter options are made with */
};

/* Everything of cfg->tree but its log paths: objects collected, options {}
 * checked, stats() bound, templates and template functions compiled, the
 * objects no path uses checked. */
gboolean sl_config_build (SlConfig *cfg, GError **error);
/* A template written with a type hint (int("$PID"), a bare 42): the text
 * is a template, never a template object's name, as in syslog-ng; an
 * unknown type is an error at pos. */
SlTemplate *sl_config_compile_hinted_template (const gchar *text, const gchar *hint, SlCfgPos pos,
                                               GError **error);
const SlCfgNode *sl_config_find_object (SlConfig *cfg, const gchar *kind, const gchar *name);
/* The name of the kind's object nearest to name, as it was written, for
 * "did you mean"; NULL when none is close. */
const gchar *sl_config_nearest_object (SlConfig *cfg, const gchar *kind, const gchar *name);
/* Sets *error to "there is no KIND named 'NAME'" at pos, with the nearest
 * object's name when one is close. */
void sl_config_set_no_object_error (SlConfig *cfg, GError **error, SlCfgPos pos, const gchar *kind,
                                    const gchar *name);
/* Makes a driver of kind from node (`tcp(port(514))`): class lookup with the
 * list of known names on failure, options checked, init called. group
 * names it in ids ("s_net#0"). */
SlDriver *sl_config_new_driver (SlConfig *cfg, SlDriverKind kind, const SlCfgNode *node,
                                const gchar *group, GError **error);
/* The same of klass under id (another worker of the same destination). */
SlDriver *sl_config_new_driver_with_id (SlConfig *cfg, const SlDriverClass *klass, const SlCfgNode *node,
                                        const gchar *id, GError **error);
/* Counts an id of group as taken, for a driver borrowed from the running
 * configuration, so the ones made after it are numbered as before. */
void       sl_config_skip_id (SlConfig *cfg, SlDriverKind kind, const gchar *group);
gchar     *sl_config_anonymous_name (SlConfig *cfg, const gchar *kind);
/* Reload: what a source or destination is known by across reloads (kind,
 * group, place, driver text and options {}); the running configuration's
 * object of that key, marked as taken by cfg, or NULL; and offering one of
 * cfg's to the next configuration (not one with hook-commands(), which
 * restarts at a reload so that its teardown() and setup() run). */
gchar     *sl_config_reuse_key (SlConfig *cfg, const gchar *kind, const gchar *group, guint index,
                                const SlCfgNode *node);
gpointer   sl_config_borrow (SlConfig *cfg, const gchar *key);
void       sl_config_keep_reusable (SlConfig *cfg, gchar *key, gpointer object, const SlDriver *driver);

G_END_DECLS

#endif
