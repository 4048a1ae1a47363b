/* SPDX-License-Identifier: GPL-2.0-or-later */
/* xml() in syslog-ng 3.38 (Debian's syslog-ng-mod-xml-parser) and in
 * sluiced, one configuration, the same documents: the files each writes
 * must be the same, and hold the fields syslog-ng's naming gives. */
#include "tests/functional/harness.h"

#include <string.h>

static const gchar config[] =
  "@version: 3.38\n"
  "options { keep-hostname(yes); };\n"
  "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "template t { template(\"$(format-flat-json --key .xml.* --key .x.*)\\n\"); };\n"
  "log { source(s); parser { xml(); };\n"
  "  destination { file(\"@OUT@/default.log\" template(t)); }; };\n"
  "log { source(s); parser { xml(prefix(\".x.\") create-lists(no) strip-whitespaces(yes)\n"
  "                                 exclude-tags(\"secret*\" \"hidden\")); };\n"
  "  destination { file(\"@OUT@/options.log\" template(t)); }; };\n"
  "log { source(s); parser { xml(drop-invalid(yes)); };\n"
  "  destination { file(\"@OUT@/valid.log\" template(t)); }; };\n";

/* each the MESSAGE of one line, the last two not well-formed */
static const gchar *const documents[] = {
  "<a><b>x</b><b>y</b><b>1,2</b></a>",
  "<event id=\"5\" type='login'><user>alice</user><user name=\"b\"/></event>",
  "<a>t1<b>t2<c>t3</c>t4</b>t5</a>",
  "<a><secret1><x>1</x></secret1><hidden k=\"v\">h</hidden><y>  padded  </y></a>",
  "<doc><e>&lt;tag&gt; &amp; &#65;</e><e></e><e>quote \"q\"</e></doc>",
  "<a><b>x</a>",
  "plain text",
};

static const gchar *const outputs[] = { "default.log", "options.log", NULL };

static gchar *
read_output (const gchar *out, const gchar *name)
{
  g_autofree gchar *path = g_build_filename (out, name, NULL);
  return sl_test_read_file (path);
}

static void
test_same_as_syslog_ng (SlTestEnv *env, gconstpointer data)
{
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (documents); i++)
    g_string_append_printf (text, "<13>Dec  1 10:00:00 host app: %s\n", documents[i]);
  g_autofree gchar *sl_out = NULL, *ng_out = NULL;
  gboolean ran = sl_test_side_by_side (env, config, text->str, outputs, G_N_ELEMENTS (documents), &sl_out, &ng_out, NULL);
  g_string_free (text, TRUE);
  if (!ran)
    return;
  for (guint i = 0; outputs[i]; i++)
    {
      g_autofree gchar *ng_text = read_output (ng_out, outputs[i]);
      g_autofree gchar *sl_text = read_output (sl_out, outputs[i]);
      g_test_message ("%s:\n%s", outputs[i], sl_text);
      g_assert_cmpstr (sl_text, ==, ng_text);
    }
  /* drop-invalid(yes): only the well-formed documents went on */
  g_autofree gchar *valid_path = g_build_filename (sl_out, "valid.log", NULL);
  g_assert_cmpuint (sl_test_count_lines (valid_path), ==, G_N_ELEMENTS (documents) - 2);
  g_autofree gchar *ng_valid_path = g_build_filename (ng_out, "valid.log", NULL);
  g_assert_cmpuint (sl_test_count_lines (ng_valid_path), ==, G_N_ELEMENTS (documents) - 2);
  /* format-flat-json writes a leading dot as _, as syslog-ng's does */
  g_autofree gchar *fields = read_output (sl_out, "default.log");
  g_assert_nonnull (strstr (fields, "\"_xml.a.b\":\"x,y,\\\"1,2\\\"\""));
  g_assert_nonnull (strstr (fields, "\"_xml.event._id\":\"5\""));
  g_autofree gchar *options = read_output (sl_out, "options.log");
  g_assert_nonnull (strstr (options, "\"_x.a.y\":\"padded\""));
  g_assert_null (strstr (options, "secret"));
  /* three parsers, each met the two documents that do not parse */
  g_assert_true (sl_test_wait_stat (env, "parser", NULL, "invalid", 6));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  g_setenv ("TZ", "UTC", TRUE);
  SL_TEST_ADD ("/xml/same-as-syslog-ng", test_same_as_syslog_ng);
  return g_test_run ();
}
