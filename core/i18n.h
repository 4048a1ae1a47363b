/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Every user-facing sentence goes through _() so po/ can translate it. */
#ifndef SL_I18N_H
#define SL_I18N_H

#include <config.h>
#include <glib/gi18n-lib.h>

#endif
