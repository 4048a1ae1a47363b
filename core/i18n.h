/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Every user-facing sentence goes through _() so po/ can translate it.
 * Part of the kit and needs no config.h: a plugin with a catalogue of its
 * own defines SL_TEXT_DOMAIN to its domain before including the kit, and
 * binds it (bindtextdomain()) in its first init; without one, its
 * sentences are looked up in Sluice's catalogue. */
#ifndef SL_I18N_H
#define SL_I18N_H

#include <glib/gi18n.h>

#ifndef SL_TEXT_DOMAIN
#define SL_TEXT_DOMAIN "sluice"
#endif

/* gi18n.h's _() looks in the program's default domain, gi18n-lib.h's in
 * GETTEXT_PACKAGE, which only a build's config.h defines: the kit's _()
 * names its domain itself */
#undef _
#define _(text) ((char *) g_dgettext (SL_TEXT_DOMAIN, text))

#endif
