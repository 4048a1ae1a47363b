/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/plugin/write-result.h"

#include <stdio.h>

SlWriteResult
sl_write_batch_fail (SlWriteBatch *batch, SlWriteResult result, gint err, const gchar *format, ...)
{
  va_list args;
  va_start (args, format);
  gint len = vsnprintf (batch->reason, sizeof batch->reason, format, args);
  va_end (args);
  gsize used = len < 0 ? 0 : MIN ((gsize) len, sizeof batch->reason - 1);
  if (err)
    snprintf (batch->reason + used, sizeof batch->reason - used, "%s%s", used ? ": " : "", g_strerror (err));
  batch->error = err;
  return result;
}
