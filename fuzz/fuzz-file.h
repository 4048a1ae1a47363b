/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the targets that read a file share: the input written to one
 * temporary file per process, removed at exit. */
#ifndef SL_FUZZ_FILE_H
#define SL_FUZZ_FILE_H

#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <unistd.h>

static gchar *sl_fuzz_path;

static inline void
sl_fuzz_remove_file (void)
{
  g_unlink (sl_fuzz_path);
}

/* The file's path with data in it, or NULL when it cannot be written. */
static inline const gchar *
sl_fuzz_write_file (const gchar *name_template, const guint8 *data, gsize size)
{
  if (!sl_fuzz_path)
    {
      gint fd = g_file_open_tmp (name_template, &sl_fuzz_path, NULL);
      if (fd < 0)
        return NULL;
      close (fd);
      atexit (sl_fuzz_remove_file);
    }
  return g_file_set_contents (sl_fuzz_path, (const gchar *) data, size, NULL) ? sl_fuzz_path : NULL;
}

#endif
