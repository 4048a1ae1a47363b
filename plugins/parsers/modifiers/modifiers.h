/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The classes of the modifiers module, each a parser that changes or adds
 * to a message as one of rsyslog's message modification modules does:
 * utf8-fix() (mmutf8fix), anonymize-ip() (mmanon, IPv4), split-fields()
 * (mmfields). */
#ifndef MODIFIERS_H
#define MODIFIERS_H

#include "core/plugin.h"

G_BEGIN_DECLS

extern const SlDriverClass utf8_fix_class;
extern const SlDriverClass anonymize_ip_class;
extern const SlDriverClass split_fields_class;

/* The text fixed in place, as mmutf8fix fixes it: each byte of an invalid
 * UTF-8 sequence (control_characters: each byte outside 32..126) replaced
 * by replacement; TRUE when something was. */
gboolean utf8_fix_text (gchar *text, gsize len, gboolean control_characters, gchar replacement);

G_END_DECLS

#endif
