/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A field name as a path of members joined by '.', in which a member's own
 * '.' is written "\." and its own '\' "\\". rsyslog's variable paths are
 * split at '!' alone ($!a.b!c is the member "a.b" and its member "c"), so
 * the rsyslog front end and the parsers that write rsyslog's variables
 * (mmjsonparse, mmnormalize, mmpstrucdata) name them this way; syslog-ng's
 * names, split at every dot, never carry the escape. */
#ifndef SL_MEMBER_NAME_H
#define SL_MEMBER_NAME_H

#include <glib.h>

G_BEGIN_DECLS

/* Appends member[0..len) to out, its '.' and '\' escaped. */
void         sl_member_name_append   (GString *out, const gchar *member, gsize len);
/* The end of the member that starts at p: the '.' that joins the next
 * one to it, or the name's NUL. */
const gchar *sl_member_name_end      (const gchar *p);
/* The '.' before name's last member; NULL when name is one member. */
const gchar *sl_member_name_last     (const gchar *name);
/* Appends the member p[0..len) as it is named, its escapes undone. */
void         sl_member_name_unescape (GString *out, const gchar *p, gsize len);

G_END_DECLS

#endif
