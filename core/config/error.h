/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Configuration errors: `file:line:col: message`, then the line and a caret. */
#ifndef SL_CFG_ERROR_H
#define SL_CFG_ERROR_H

#include <glib.h>
#include "core/config/tree.h"

G_BEGIN_DECLS

#define SL_CFG_ERROR (sl_cfg_error_quark ())
GQuark sl_cfg_error_quark (void);

typedef enum
{
  SL_CFG_ERROR_SYNTAX,
  SL_CFG_ERROR_INCLUDE,
  SL_CFG_ERROR_UNKNOWN,
  SL_CFG_ERROR_TYPE,
  SL_CFG_ERROR_REFERENCE,
  SL_CFG_ERROR_VALUE,
} SlCfgErrorCode;

/* Remembers a file's text so errors can quote the line it points at. */
void sl_cfg_source_remember (const gchar *file, const gchar *text);

/* Sets *error to a message that starts with the position and ends with the
 * quoted line and a caret under the column; when pos lies in a block's
 * text, each reference that expanded it follows ("FILE:L:C: in 'x' used
 * here", its line and caret). */
void sl_cfg_error_set (GError **error, SlCfgErrorCode code, SlCfgPos pos,
                       const gchar *format, ...) G_GNUC_PRINTF (4, 5);

/* Where the byte at offset of a string's value was written, when literal
 * is where the string starts (its quote, or a bare word): so that an error
 * inside a template points at its place in the line. The string's own
 * position when the value does not lie on that line as written. */
SlCfgPos sl_cfg_pos_in_string (SlCfgPos literal, gsize offset);

/* The nearest of candidates to word by edit distance, or NULL if none is close. */
const gchar *sl_cfg_suggest (const gchar *word, const gchar *const *candidates, guint n);

G_END_DECLS

#endif
