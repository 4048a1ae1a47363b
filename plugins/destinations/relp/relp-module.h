/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The relp module's two driver classes. */
#ifndef RELP_MODULE_H
#define RELP_MODULE_H

#include "core/plugin.h"

extern const SlDriverClass relp_source_class;
extern const SlDriverClass relp_destination_class;

#endif
