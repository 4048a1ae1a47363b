/* SPDX-License-Identifier: GPL-2.0-or-later */
/* imfile as file(), or wildcard-file() for a wildcard in the file's name
 * (which, as imfile, also follows the files that match later, with no
 * bound on their number; imfile's wildcards in folders and glob()'s []
 * and {} have no equal there): each line a message, not parsed, with the
 * tag and priority given (names, local0.notice unless given). Legacy
 * $InputFileName, $InputFileTag, $InputFileFacility, $InputFileSeverity
 * and $InputFileBindRuleset before $InputRunFileMonitor reach it as
 * file=, tag=, facility=, severity= and ruleset= (and addMetadata="off").
 * addMetadata is on unless given: rsyslogd 8.2302's and 8.2504's imfile
 * leave it at -1, which counts as on, for every input() (not only those
 * with a wildcard, as its documentation says). reopenOnTruncate is off
 * unless given, as in rsyslogd: a file truncated is read on from where
 * reading was (rsyslog-reopen-on-truncate(no)). deleteStateOnFileDelete="off"
 * is refused: file() forgets a deleted file's position, and rsyslogd 8.2302
 * would go on from it in a new file that got the deleted one's inode. */
#include "plugins/sources/file/file-source-rsyslog.h"
#include "core/i18n.h"

#include <string.h>

/* what the front end took for imfile's inputs before the mapping moved
 * here; the state file and its interval are Sluice's persist file's */
static const gchar *const imfile_params[] = { "file", "tag", "facility", "severity", "statefile",
                                              "persiststateinterval", "readmode", "freshstarttail",
                                              "reopenontruncate", "addmetadata", "deletestateonfiledelete", NULL };

static gboolean
append_file (SlRsCall *call, const gchar *file, GString *driver, GError **error)
{
  const gchar *slash = strrchr (file, '/');

  if (strpbrk (file, "[]{}"))
    return sl_rs_call_fail (call, "file", error, _("rsyslog's imfile file '%s': only * and ? are supported as wildcards"),
                            file);
  if (!strpbrk (file, "*?"))
    {
      g_string_append (driver, "file(");
      sl_rs_text_quote (driver, file);
      return TRUE;
    }
  g_autofree gchar *dir = slash ? g_strndup (file, (gsize) MAX (slash - file, 1)) : NULL;
  if (!dir || strpbrk (dir, "*?"))
    return sl_rs_call_fail (call, "file", error,
                            _("rsyslog's imfile file '%s': a wildcard in a folder's name is not supported, in the "
                              "file's name it is"), file);
  g_string_append (driver, "wildcard-file(base-dir(");
  sl_rs_text_quote (driver, dir);
  g_string_append (driver, ") filename-pattern(");
  sl_rs_text_quote (driver, slash + 1);
  g_string_append_printf (driver, ") max-files(%d)", G_MAXINT);
  return TRUE;
}

static gboolean
imfile_write (SlRsCall *call, GString *driver, GError **error)
{
  const gchar *file = sl_rs_call_value (call, "file");
  const gchar *tag = sl_rs_call_value (call, "tag");
  const gchar *mode = sl_rs_call_value (call, "readmode");
  const gchar *facility = sl_rs_call_value (call, "facility");
  const gchar *severity = sl_rs_call_value (call, "severity");
  const gchar *facility_name = sl_rs_syslog_name (facility ? facility : "local0", TRUE);
  const gchar *severity_name = sl_rs_syslog_name (severity ? severity : "notice", FALSE);

  /* the front end takes name= of every input; rsyslogd's imfile has none */
  if (!sl_rs_call_refuse (call, "name", error, _("imfile's inputs have no name, as in rsyslogd")))
    return FALSE;
  if (!file || !tag)
    return sl_rs_call_fail (call, NULL, error, _("rsyslog's imfile input needs file= and tag="));
  /* a file seen for the first time is read from its end, or lines are
   * joined into messages: file() has neither */
  if (sl_rs_call_flag (call, "freshstarttail", FALSE))
    return sl_rs_call_fail (call, "freshstarttail", error, _("rsyslog's imfile %s=\"%s\" is not supported"),
                            "freshstarttail", sl_rs_call_value (call, "freshstarttail"));
  if (mode && !g_str_equal (mode, "0"))
    return sl_rs_call_fail (call, "readmode", error, _("rsyslog's imfile %s=\"%s\" is not supported"), "readmode",
                            mode);
  if (!facility_name)
    return sl_rs_call_fail (call, NULL, error,
                            _("'%s' is no syslog facility rsyslog takes here: give its name, such as local0"),
                            facility);
  if (!severity_name)
    return sl_rs_call_fail (call, NULL, error,
                            _("'%s' is no syslog severity rsyslog takes here: give its name, such as info"),
                            severity);
  if (!sl_rs_call_refuse_unless (call, "deletestateonfiledelete", "on", error,
                                 _("Sluice reads a file deleted and made again from its start, also when it gets the "
                                   "deleted file's inode, from which rsyslogd would go on")))
    return FALSE;
  if (!append_file (call, file, driver, error))
    return FALSE;
  /* imfile's lines are not parsed, so rsyslogd does not escape them */
  g_string_append (driver, " flags(no-parse) escape-control-chars(no)");
  g_autofree gchar *bare = g_strdup (tag);
  if (g_str_has_suffix (bare, ":"))
    bare[strlen (bare) - 1] = '\0';
  else
    /* rsyslog's syslogtag is the Tag as given: $(rsyslog-tag) leaves out
     * the colon of Sluice's MSGHDR for these messages */
    g_string_append (driver, " tags(\".rsyslog.tag-without-colon\")");
  sl_rs_text_option (driver, "program-override", bare);
  if (sl_rs_call_flag (call, "addmetadata", TRUE))
    g_string_append (driver, " rsyslog-metadata(yes)");
  if (!sl_rs_call_flag (call, "reopenontruncate", FALSE))
    g_string_append (driver, " rsyslog-reopen-on-truncate(no)");
  g_string_append_printf (driver, " default-facility(%s) default-priority(%s))", facility_name, severity_name);
  return TRUE;
}

const SlRsModule file_imfile = {
  "imfile", SL_RS_MODULE_INPUT, imfile_params, NULL, imfile_write, 0,
};
