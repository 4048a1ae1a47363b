/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Least privilege: --chroot, --user, --group and --caps, as syslog-ng
 * spells them. The names are looked up and the capability text checked
 * first (sl_privileges_new), so a mistake stops the start before anything
 * is opened; the root folder changes before the configuration is read;
 * the user changes before the configuration starts, keeping a small set
 * of capabilities so that what the first start opens a reload can open
 * again. */
#ifndef SL_PRIVILEGES_H
#define SL_PRIVILEGES_H

#include <glib.h>

G_BEGIN_DECLS

/* Kept by default after the drop: binding ports below 1024 (at reload
 * too), reading the kernel's log, reading any file a file() source names,
 * and giving new files and folders the owner() and group() configured. */
#define SL_PRIVILEGES_DEFAULT_CAPS "cap_net_bind_service,cap_syslog,cap_dac_read_search,cap_chown,cap_fowner=p"

typedef struct _SlPrivileges SlPrivileges;

/* user, group, root and caps may be NULL (not asked for); caps is in
 * cap_from_text(3) syntax and says the permitted set, which also becomes
 * the effective one; no_caps drops every capability with the user. NULL
 * and *error when a name is unknown or caps does not parse. */
SlPrivileges *sl_privileges_new    (const gchar *user, const gchar *group, const gchar *root,
                                    const gchar *caps, gboolean no_caps, GError **error);
/* Changes the root folder (--chroot) and goes into it; TRUE when none
 * was asked for. */
gboolean      sl_privileges_chroot (SlPrivileges *p, GError **error);
/* Changes group and user and keeps the capabilities; with --caps but no
 * user, only the capabilities shrink. Call while the process has one
 * thread: capabilities are per thread, and every thread made afterwards
 * inherits them. */
gboolean      sl_privileges_drop   (SlPrivileges *p, GError **error);
void          sl_privileges_free   (SlPrivileges *p);

G_END_DECLS

#endif
