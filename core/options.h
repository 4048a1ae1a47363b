/* Driver options declared as data: the generic parser checks a driver's
 * block against its table, and the driver reads typed values back. */
#ifndef SL_OPTIONS_H
#define SL_OPTIONS_H

#include <glib.h>
#include "core/config/tree.h"

G_BEGIN_DECLS

typedef enum
{
  SL_OPT_STRING,
  SL_OPT_INT,        /* decimal, 0x hex, 0 octal, with optional k/M/G suffix */
  SL_OPT_BOOL,       /* yes/no, on/off, true/false, 1/0 */
  SL_OPT_TEMPLATE,   /* a template string or the name of a template object */
  SL_OPT_FLAGS,      /* words from the spec's choices */
  SL_OPT_LIST,       /* any words or strings */
  SL_OPT_BLOCK,      /* nested options read by the driver itself */
} SlOptionType;

typedef struct
{
  const gchar *name;       /* canonical spelling with '-' */
  SlOptionType type;
  const gchar *def;        /* default as it would be written, or NULL */
  const gchar *help;       /* one line */
  const gchar *choices;    /* SL_OPT_FLAGS: comma-separated words */
  gboolean positional;     /* the driver's first bare argument sets it */
} SlOptionSpec;

typedef struct _SlOptions SlOptions;

/* Checks node's arguments and children against specs, with fallback to
 * globals (the "options {}" block) for options not given here. */
SlOptions    *sl_options_new       (const gchar *owner, const SlOptionSpec *specs,
                                    const SlCfgNode *node, const SlCfgNode *globals,
                                    GError **error);
void          sl_options_free      (SlOptions *o);
const SlCfgNode *sl_options_node   (const SlOptions *o);
gboolean      sl_options_is_set    (const SlOptions *o, const gchar *name);
/* True when name is in the table the options were checked against. */
gboolean      sl_options_has       (const SlOptions *o, const gchar *name);
const gchar  *sl_options_string    (const SlOptions *o, const gchar *name);
gint64        sl_options_int       (const SlOptions *o, const gchar *name);
gboolean      sl_options_bool      (const SlOptions *o, const gchar *name);
/* A bit per choice, in the order of the spec's choices. */
guint32       sl_options_flags     (const SlOptions *o, const gchar *name);
/* The values of a list option; NULL when unset. Owned by o. */
GPtrArray    *sl_options_list      (const SlOptions *o, const gchar *name);
const SlCfgNode *sl_options_block  (const SlOptions *o, const gchar *name);
SlCfgPos      sl_options_pos       (const SlOptions *o, const gchar *name);

/* The same checks for a block option's own children. */
gboolean      sl_options_check     (const gchar *owner, const SlOptionSpec *specs,
                                    const SlCfgNode *node, GError **error);

G_END_DECLS

#endif
