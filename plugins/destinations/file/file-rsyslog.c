/* SPDX-License-Identifier: GPL-2.0-or-later */
/* omfile as file(): file= or the path dynaFile='s template makes, written
 * in RSYSLOG_FileFormat unless template= names another (rsyslog 8.2302's
 * default), created with its owners and modes, cut at
 * rotation.sizeLimit with its command run (max-size(), size-command()),
 * compressed at zipLevel (gzip-level()), synced with sync (fsync()).
 * Legacy /path, ?dynafile, :omfile:path and :omfile:$outchannel reach it
 * as the same parameters; $FileOwner and the like are the defaults of
 * those not written. */
#include "plugins/destinations/file/file-rsyslog.h"
#include "core/i18n.h"

#include <string.h>

/* what rsyslogd's omfile takes; those that change when lines are written
 * or how files are kept open, not what is written (buffers, flushing with
 * flushOnTXEnd on, the dynaFile cache, closeTimeout), are taken with
 * nothing to do; veryRobustZip: see append_zip() */
static const gchar *const omfile_params[] = {
  "file", "dynafile", "fileowner", "filegroup", "filecreatemode", "dircreatemode", "dirowner", "dirgroup",
  "createdirs", "flushontxend", "iobuffersize", "asyncwriting", "flushinterval", "dynafilecachesize",
  "closetimeout", "veryrobustzip", "ziplevel", "failonchownfailure", "sync", "fileownernum", "filegroupnum",
  "rotation.sizelimit", "rotation.sizelimitcommand", NULL,
};

static gboolean
append_size_limit (SlRsCall *call, GString *driver, GError **error)
{
  const gchar *size = sl_rs_call_value (call, "rotation.sizelimit");
  const gchar *command = sl_rs_call_value (call, "rotation.sizelimitcommand");

  if (size && (!*size || size[strspn (size, "0123456789")]))
    return sl_rs_call_refuse (call, "rotation.sizelimit", error, _("only a number of bytes is mapped"));
  if (!size || g_ascii_strtoll (size, NULL, 10) <= 0)
    return TRUE;
  sl_rs_text_option (driver, "max-size", size);
  if (command && *command)
    sl_rs_text_option (driver, "size-command", command);
  return TRUE;
}

/* zipLevel: gzip-level(), a gzip member per batch as veryRobustZip="on"
 * writes them; off, rsyslogd writes one gzip stream that it ends when it
 * closes the file, and zcat reads the same text from either */
static gboolean
append_zip (SlRsCall *call, GString *driver, GError **error)
{
  const gchar *level = sl_rs_call_value (call, "ziplevel");

  if (!level)
    return TRUE;
  if (!*level || level[strspn (level, "0123456789")] || g_ascii_strtoll (level, NULL, 10) > 9)
    return sl_rs_call_refuse (call, "ziplevel", error, _("zlib's levels are 0 to 9"));
  if (g_ascii_strtoll (level, NULL, 10) > 0)
    g_string_append_printf (driver, " gzip-level(%d)", (gint) g_ascii_strtoll (level, NULL, 10));
  return TRUE;
}

static gboolean
omfile_write (SlRsCall *call, GString *driver, GError **error)
{
  const gchar *queue = sl_rs_call_value (call, "queue.type");
  const gchar *dyna = sl_rs_call_value (call, "dynafile");
  g_autofree gchar *path = NULL;

  if ((queue && g_ascii_strcasecmp (queue, "disk") == 0) || sl_rs_call_value (call, "queue.filename"))
    return sl_rs_call_fail (call, NULL, error, _("a disk queue on rsyslog's omfile is not supported"));
  if (!sl_rs_call_value (call, "file") && !dyna)
    return sl_rs_call_fail (call, NULL, error, _("rsyslog's omfile needs file= or dynaFile="));
  path = dyna ? sl_rs_call_template_value (call, dyna, error) : g_strdup (sl_rs_call_value (call, "file"));
  if (!path)
    return FALSE;
  g_autofree gchar *template = sl_rs_call_template (call, sl_rs_call_value (call, "template")
                                                            ? sl_rs_call_value (call, "template")
                                                            : "RSYSLOG_FileFormat", error);
  if (!template)
    return FALSE;
  g_string_append (driver, "file(");
  sl_rs_text_quote (driver, path);
  g_string_append_printf (driver, " template(%s)", template);

  const struct
  {
    const gchar *param, *option;
  } owners[] = {
    { "fileowner", "owner" }, { "filegroup", "group" }, { "dirowner", "dir-owner" }, { "dirgroup", "dir-group" },
    { "fileownernum", "owner" }, { "filegroupnum", "group" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (owners); i++)
    if (sl_rs_call_value (call, owners[i].param))
      sl_rs_text_option (driver, owners[i].option, sl_rs_call_value (call, owners[i].param));
  /* rsyslogd's modes and its directories made as needed */
  g_string_append_printf (driver, " perm(%s) dir-perm(%s) create-dirs(%s)",
                          sl_rs_call_value (call, "filecreatemode") ? sl_rs_call_value (call, "filecreatemode") : "0644",
                          sl_rs_call_value (call, "dircreatemode") ? sl_rs_call_value (call, "dircreatemode") : "0700",
                          sl_rs_call_flag (call, "createdirs", TRUE) ? "yes" : "no");
  if (!append_size_limit (call, driver, error) || !append_zip (call, driver, error))
    return FALSE;
  /* sync: fsync() after each batch written, as rsyslog's stream does */
  if (sl_rs_call_flag (call, "sync", FALSE))
    g_string_append (driver, " fsync(yes)");
  g_string_append_c (driver, ')');
  return TRUE;
}

const SlRsModule file_omfile = {
  "omfile", SL_RS_MODULE_OUTPUT, omfile_params, NULL, omfile_write, SL_RS_MODULE_BUILTIN,
};
