/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The relp module's two driver classes, and the rsyslog modules they
 * implement (relp-rsyslog.c). */
#ifndef RELP_MODULE_H
#define RELP_MODULE_H

#include "core/plugin/plugin.h"
#include "core/plugin/rsyslog-module.h"

extern const SlDriverClass relp_source_class;
extern const SlDriverClass relp_destination_class;
extern const SlRsModule relp_omrelp;
extern const SlRsModule relp_imrelp;

#endif
