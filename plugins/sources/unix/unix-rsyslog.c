/* SPDX-License-Identifier: GPL-2.0-or-later */
/* imuxsock as unix-dgram(): the socket socket= names, the host name not
 * read from the message and the time it was received rather than the
 * message's, as imuxsock does. Legacy $AddUnixListenSocket and the
 * system socket (/dev/log, or SysSock.Name or $SystemLogSocketName, when
 * the module is loaded and SysSock.Use is on) reach it as socket=; the
 * system socket's settings are the front end's, which makes it once
 * everything is read. */
#include "plugins/sources/unix/unix-rsyslog.h"
#include "core/i18n.h"

/* what the front end took for imuxsock's inputs before the mapping moved
 * here, as it took them */
static const gchar *const imuxsock_params[] = { "socket", "createpath", "ignoretimestamp", "hostname",
                                                "usesystimestamp", "annotate", "parsetrusted", "usepidfromsystem",
                                                "ignoreownmessages", "unlink", NULL };

static gboolean
imuxsock_write (SlRsCall *call, GString *driver, GError **error)
{
  /* the front end takes name= of every input; rsyslogd's imuxsock has none */
  if (!sl_rs_call_refuse (call, "name", error, _("imuxsock's inputs have no name, as in rsyslogd")))
    return FALSE;
  if (!sl_rs_call_value (call, "socket"))
    return sl_rs_call_fail (call, NULL, error, _("rsyslog's %s input needs socket="), sl_rs_call_type (call));
  g_string_append (driver, "unix-dgram(");
  sl_rs_text_quote (driver, sl_rs_call_value (call, "socket"));
  g_string_append (driver, " flags(no-hostname) keep-timestamp(no))");
  return TRUE;
}

const SlRsModule unix_imuxsock = {
  "imuxsock", SL_RS_MODULE_INPUT, imuxsock_params, NULL, imuxsock_write, 0,
};
