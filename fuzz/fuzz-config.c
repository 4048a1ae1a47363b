/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as configuration text through the lexer and
 * parser; errors are expected, crashes and leaks are not. */
#include "core/config/parser.h"

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  gchar *text = g_strndup ((const gchar *) data, size);
  GError *error = NULL;
  SlCfgNode *root = sl_cfg_parse_string (text, "fuzz.conf", &error);
  if (root)
    sl_cfg_node_free (root);
  g_clear_error (&error);
  g_free (text);
  return 0;
}
