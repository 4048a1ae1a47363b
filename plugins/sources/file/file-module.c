/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The file plugin: file() follows a file as it grows and rotates,
 * wildcard-file() every file of a folder that matches a glob, pipe() reads
 * a named pipe, stdin() the daemon's standard input. */
#include "plugins/sources/file/file-private.h"
#include "plugins/sources/file/file-source-rsyslog.h"

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "file-source",
  .drivers = (const SlDriverClass *const[]) { &file_source_class, &pipe_source_class,
                                              &stdin_source_class, &wildcard_file_source_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &file_imfile, NULL },
};
