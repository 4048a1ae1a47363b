/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The scratch buffers of tf-extra's functions. */
#include "plugins/templates/extra/extra-private.h"

static GPrivate scratch_key = SL_SCRATCH_INIT;

GString *
tf_extra_scratch_acquire (void)
{
  return sl_scratch_push (&scratch_key);
}

void
tf_extra_scratch_release (void)
{
  sl_scratch_pop (&scratch_key);
}
