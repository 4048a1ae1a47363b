/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the core's units share about a configuration being built or run;
 * plugins see only core/config.h. */
#ifndef SL_CONFIG_PRIVATE_H
#define SL_CONFIG_PRIVATE_H

#include "core/config.h"
#include "core/config/tree.h"
#include "core/destination.h"

G_BEGIN_DECLS

struct _SlConfig
{
  SlCfgNode *tree;
  SlCfgNode *globals;          /* every options {} block merged */
  SlOptions *stats_options;    /* options { stats(...) }, bound to stats */
  SlStatsSettings stats;
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
  gboolean has_catchall;
  guint anonymous;
  GHashTable *id_counts;       /* id prefix -> drivers made with it so far */
  gboolean started;
  /* Reload: sources and destinations are known by what made them (kind,
   * group, place, driver text and options {}); a new configuration takes
   * over the running one's that are made the same, with their sockets,
   * connections, queues and threads, instead of making its own. */
  gchar *globals_text;
  GHashTable *reusable;        /* key -> SlSource or SlDestination made here */
  SlConfig *donor;             /* while compiling: the running configuration */
  GHashTable *borrowed;        /* SlSource, SlDestination, SlDriver taken from donor */
};

const SlCfgNode *sl_config_find_object (SlConfig *cfg, const gchar *kind, const gchar *name);
/* The name of the kind's object nearest to name, as it was written, for
 * "did you mean"; NULL when none is close. */
const gchar *sl_config_nearest_object (SlConfig *cfg, const gchar *kind, const gchar *name);
/* Sets *error to "there is no KIND named 'NAME'" at pos, with the nearest
 * object's name when one is close. */
void sl_config_set_no_object_error (SlConfig *cfg, GError **error, SlCfgPos pos, const gchar *kind,
                                    const gchar *name);
/* Makes a driver of kind from node (`tcp(port(514))`): class lookup with the
 * list of known names on failure, options checked, init called. */
SlDriver *sl_config_new_driver (SlConfig *cfg, SlDriverKind kind, const SlCfgNode *node,
                                const gchar *group, GError **error);
/* The SlSource/SlDestination objects of a named or inline group, made on
 * first use. */
GPtrArray *sl_config_source_group (SlConfig *cfg, const gchar *name, const SlCfgNode *body, GError **error);
GPtrArray *sl_config_dest_group   (SlConfig *cfg, const gchar *name, const SlCfgNode *body, GError **error);
gchar     *sl_config_anonymous_name (SlConfig *cfg, const gchar *kind);
/* The paths a source collects while its configuration is compiled: its
 * live ones, or, for a source taken over from the running configuration,
 * new ones that replace the live ones when the new configuration starts. */
GPtrArray *sl_config_source_paths (SlConfig *cfg, SlSource *src);
/* A configuration of no statements: it owns drivers made outside any
 * file, such as the filter functions of a template's $(if). */
SlConfig  *sl_config_new_empty (void);

G_END_DECLS

#endif
