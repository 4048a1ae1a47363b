/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What sluiced's rsyslog front end fills in to hand a plugin one call: the
 * parameters as written, and its own template lookups, which the kit's
 * calls reach through ops. Not installed: plugins see SlRsCall opaque. */
#ifndef SL_RSYSLOG_MODULE_PRIVATE_H
#define SL_RSYSLOG_MODULE_PRIVATE_H

#include "core/plugin/rsyslog-module.h"
#include "core/config/tree.h"

G_BEGIN_DECLS

typedef struct
{
  const gchar *name;   /* lower case */
  const gchar *value;
  const gchar *const *items;  /* a list's, else NULL */
  SlCfgPos pos;
} SlRsCallParam;

typedef struct
{
  /* the name of the template object of rsyslog's template name */
  gchar   *(*template_object) (gpointer front_end, const gchar *name, SlCfgPos pos, GError **error);
  gboolean (*define_template) (gpointer front_end, const gchar *name, const gchar *rsyslog_text, SlCfgPos pos,
                               GError **error);
  gboolean (*template_text)   (gpointer front_end, const gchar *rsyslog_text, SlCfgPos pos, GString *out,
                               GError **error);
  gboolean (*property)        (gpointer front_end, const gchar *property, SlCfgPos pos, GString *out, GError **error);
  gchar   *(*variable_field)  (gpointer front_end, const gchar *variable);
  gboolean (*template_value)  (gpointer front_end, const gchar *name, SlCfgPos pos, GString *out, GError **error);
  /* files: the call's own CA, certificate and key, each NULL when not given */
  gboolean (*tls)             (gpointer front_end, const gchar *driver, const gchar *mode, const gchar *auth,
                               const gchar *peers, const gchar *const files[3], gboolean server, SlCfgPos pos,
                               GString *out, GError **error);
  const gchar *(*global)      (gpointer front_end, const gchar *name);
} SlRsCallOps;

struct _SlRsCall
{
  const gchar *type;         /* as written */
  SlCfgPos pos;
  GArray *params;            /* SlRsCallParam, borrowed */
  const SlRsCallOps *ops;
  gpointer front_end;
};

G_END_DECLS

#endif
