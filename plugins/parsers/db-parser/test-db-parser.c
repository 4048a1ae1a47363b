/* SPDX-License-Identifier: GPL-2.0-or-later */
/* db-parser() on the real daemon: Debian's windows-eventlog-parser() SCL
 * block, used as a user would (@include "scl.conf"), classifies the
 * example events of its own patterndb file, sent over TCP, into the lines
 * syslog-ng 3.38 writes for the same configuration and input. */
#include "tests/functional/harness.h"

#include <string.h>
#include <sys/socket.h>

static const gchar scl_xml[] = "/usr/share/syslog-ng/include/scl/windowseventlog/windowseventlog.xml";

static const gchar config[] =
  "@version: 3.38\n"
  "@include \"scl.conf\"\n"
  "source s { syslog(ip(\"127.0.0.1\") port(@PORT@) transport(\"tcp\")); };\n"
  "log { source(s); parser { windows-eventlog-parser(); };\n"
  "  destination { file(\"@DIR@/out\" template(\"${.classifier.class} ${.classifier.rule_id} ev=${.win.EventID}"
  " user=${.win.TargetUserName} dom=${.win.TargetDomainName} lt=${.win.LogonType}"
  " ip=${.win.IpAddress}:${.win.IpPort} guid=${.win.LogonGuid} proc=${.win.ProcessName}"
  " np=${.win.NewProcessName} pp=${.win.ParentProcessId} lpn=[${.win.LogonProcessName}]\\n\")); }; };\n";

/* What syslog-ng 3.38 writes (run where it finds the file: it looks for
 * file("windowseventlog.xml") in its working folder, Sluice beside the
 * SCL file that names it). */
static const gchar *const expected[] = {
  "logon logon ev=4624 user=Administrator dom=BSP-WIN2K8R2-EN lt=10 ip=10.20.30.40:56789"
  " guid={00000000-0000-0000-0000-000000000000} proc=C:\\Windows\\System32\\winlogon.exe np= pp= lpn=[User32 ]",
  "logoff logoff ev=4634 user=Administrator dom=BSP-WIN2K8R2-EN lt=10 ip=: guid= proc= np= pp= lpn=[]",
  "processcreation processcreation ev=4688 user=BSP-WIN2K8R2-EN$ dom= lt= ip=: guid= proc="
  " np=C:\\Windows\\System32\\smss.exe pp=0xe8 lpn=[]",
  NULL
};

/* The file's <test_message>s, unescaped. */
static GPtrArray *
example_messages (void)
{
  g_autofree gchar *xml = NULL;
  if (!g_file_get_contents (scl_xml, &xml, NULL, NULL))
    return NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  for (const gchar *p = xml; (p = strstr (p, "<test_message"));)
    {
      const gchar *start = strchr (p, '>') + 1;
      const gchar *end = strstr (start, "</test_message>");
      GString *m = g_string_new_len (start, end - start);
      g_string_replace (m, "&lt;", "<", 0);
      g_string_replace (m, "&gt;", ">", 0);
      g_string_replace (m, "&apos;", "'", 0);
      g_string_replace (m, "&quot;", "\"", 0);
      g_string_replace (m, "&amp;", "&", 0);
      g_ptr_array_add (out, g_string_free (m, FALSE));
      p = end;
    }
  return out;
}

/* RFC 5424 with octet counting: the events span lines. */
static void
append_frame (GString *out, const gchar *text)
{
  g_autofree gchar *msg = g_strdup_printf ("<13>1 2017-08-23T10:00:00+00:00 winhost "
                                           "Microsoft_Windows_security_auditing. - - - %s", text);
  g_string_append_printf (out, "%zu %s", strlen (msg), msg);
}

static void
test_windows_eventlog_parser (SlTestEnv *env, gconstpointer data)
{
  const gchar *srcdir = g_getenv ("SL_TOP_SRCDIR");
  g_autoptr (GPtrArray) examples = example_messages ();
  if (!examples)
    {
      g_test_skip ("Debian's syslog-ng-scl is not installed");
      return;
    }
  g_assert_nonnull (srcdir);
  g_assert_cmpuint (examples->len, ==, 3);
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  g_autofree gchar *include = g_strdup_printf ("%s/config/include:/usr/share/syslog-ng/include", srcdir);
  if (!port || !sl_test_write_config (env, config, "PORT", port_str, NULL)
      || !sl_test_daemon_start_with_args (env, "--include-path", include, NULL) || !sl_test_wait_tcp (env, port))
    return;

  g_autoptr (GString) frames = g_string_new (NULL);
  for (guint i = 0; i < examples->len; i++)
    append_frame (frames, g_ptr_array_index (examples, i));
  /* drop-unmatched(yes): an event of no rule is not written */
  append_frame (frames, "BSP\\x: Security Microsoft Windows security auditing.: something else");
  if (!sl_test_tcp_send (port, frames->str))
    return;
  g_autofree gchar *out = sl_test_path (env, "out");
  if (!sl_test_wait_lines (env, out, 3))
    return;
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_auto (GStrv) lines = sl_test_read_lines (out);
  g_assert_cmpstrv (lines, expected);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/db-parser/windows-eventlog-parser", test_windows_eventlog_parser);
  return g_test_run ();
}
