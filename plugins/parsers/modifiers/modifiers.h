/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The classes of the modifiers module, each a parser that changes or adds
 * to a message as one of rsyslog's message modification modules does:
 * utf8-fix() (mmutf8fix), anonymize-ip() (mmanon), split-fields()
 * (mmfields). */
#ifndef MODIFIERS_H
#define MODIFIERS_H

#include "core/plugin/plugin.h"
#include "core/plugin/rsyslog-module.h"

G_BEGIN_DECLS

extern const SlDriverClass utf8_fix_class;
extern const SlDriverClass anonymize_ip_class;
extern const SlDriverClass split_fields_class;
/* the rsyslog modules they implement (modifiers-rsyslog.c) */
extern const SlRsModule modifiers_mmutf8fix;
extern const SlRsModule modifiers_mmanon;
extern const SlRsModule modifiers_mmfields;

/* anon-scan.c: the address at p, as mmanon finds one; its length, 0 when
 * none starts there. An IPv4 address's octets start at starts[]; an IPv6
 * one (embedded: six groups and an IPv4 address, in group[6] and [7]) is
 * its eight groups. */
gsize anon_ipv4_at     (const gchar *p, const gchar *end, guint32 *address, gsize starts[4]);
gsize anon_ipv6_at     (const gchar *p, const gchar *end, gboolean embedded, guint16 group[8]);
/* As mmanon writes it: every group, in lower-case hex without leading zeros */
void  anon_ipv6_append (GString *out, const guint16 group[8], gboolean embedded);

G_END_DECLS

#endif
