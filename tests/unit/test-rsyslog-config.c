/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The rsyslog front end's tree, printed in Sluice's language: what each
 * rsyslog construct becomes, and where a refused one is reported. */
#include "core/config/parser.h"
#include "core/compile/loader-private.h"
#include "daemon/rsyslog/rsyslog.h"
#include "core/config/tree.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

static gchar *
translate (const gchar *text, GError **error)
{
  g_autofree gchar *path = NULL;
  gint fd = g_file_open_tmp ("rsyslog-XXXXXX.conf", &path, NULL);

  g_assert_cmpint (fd, >=, 0);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  close (fd);
  SlCfgNode *root = sl_cfg_rsyslog_parse_file (path, error);
  g_unlink (path);
  if (!root)
    return NULL;
  gchar *printed = sl_cfg_node_to_string (root);
  sl_cfg_node_free (root);
  return printed;
}

static void
assert_translates (const gchar *text, const gchar *expected)
{
  GError *error = NULL;
  g_autofree gchar *printed = translate (text, &error);

  g_assert_no_error (error);
  if (!strstr (printed, expected))
    g_test_message ("%s\nbecame\n%s", text, printed);
  g_assert_nonnull (strstr (printed, expected));
}

static void
assert_refused (const gchar *text, const gchar *where, const gchar *what)
{
  GError *error = NULL;
  g_autofree gchar *printed = translate (text, &error);

  g_assert_null (printed);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, where));
  g_assert_nonnull (strstr (error->message, what));
  g_error_free (error);
}

static void
test_selectors (void)
{
  /* left to right into the facility x level table, as rsyslog */
  assert_translates ("input(type=\"imudp\" port=\"5514\")\nmail.=info;mail.!err /a\n",
                     "filter { facility(mail) and level(info); }");
  assert_translates ("input(type=\"imudp\" port=\"5514\")\nlocal0,local1.warn /a\n",
                     "filter { facility(local0 local1) and level(emerg alert crit err warning); }");
  assert_translates ("input(type=\"imudp\" port=\"5514\")\n*.*;auth,authpriv.none /a\n",
                     "filter { not facility(auth authpriv); }");
  assert_translates ("input(type=\"imudp\" port=\"5514\")\n*.* /a\n", "log { destination(rs0_d");
  assert_translates ("input(type=\"imudp\" port=\"5514\")\nkern.* /a\n& ~\n",
                     "log { filter { facility(kern); }; flags(final); }");
  assert_refused ("*.bogus /a\n", ":1:1:", "unknown level 'bogus'");
}

static void
test_global (void)
{
  assert_translates ("global(maxMessageSize=\"64k\" net.enableDNS=\"off\")\n", "options { use-dns(no); };");
  assert_translates ("global(net.enableDNS=\"on\")\n", "options { use-dns(yes); };");
  assert_refused ("global(net.noSuchThing=\"on\")\n", ":1:8:", "'net.nosuchthing' of rsyslog's global()");
}

static void
test_property_filters (void)
{
  assert_translates ("input(type=\"imudp\" port=\"5514\")\n:programname, !startswith, \"ha\" /a\n",
                     "not match(\"ha\" template(\"${PROGRAM}\") type(string) flags(prefix))");
  assert_translates ("input(type=\"imudp\" port=\"5514\")\n:msg, contains_i, \"x\" /a\n",
                     "match(\"x\" template(\"$(rsyslog-msg ${MSGHDR}${MESSAGE})\") type(string) flags(substring ignore-case))");
  assert_refused ("input(type=\"imudp\" port=\"5514\")\n:msg, startswith_end, \"x\" /a\n", ":2:7:",
                  "compare operation 'startswith_end'");
}

static void
test_rainerscript (void)
{
  assert_translates ("input(type=\"imudp\" port=\"5514\")\n"
                     "if $syslogseverity <= 3 and not ($hostname == [\"a\", \"b\"]) then /a\n",
                     "\"$(rsyslog-cmp le sn ${LEVEL_NUM} 3)\" eq \"1\" and not (\"${HOST}\" eq \"a\" or \"${HOST}\" eq \"b\")");
  assert_translates ("input(type=\"imudp\" port=\"5514\")\nif $msg contains 'x' then stop\n/a\n",
                     "flags(final); }; log { destination(");
  /* what follows a change sees it: it is nested in the change's path */
  assert_translates ("input(type=\"imudp\" port=\"5514\")\nset $!a = $programname & \"!\";\n/a\n",
                     "log { parser { rsyslog-set(template(\"${PROGRAM}!\") variable(\"!a\")); }; log { destination(");
  /* rsyslog's precedence: not binds tightest, and and or group from the left */
  assert_translates ("input(type=\"imudp\" port=\"5514\")\nif not $msg == 'x' or 1 and strlen($msg) > 3 then /a\n",
                     "filter { (\"$(rsyslog-cmp eq ns $(if (not (\\\"$(rsyslog-bool $(rsyslog-msg ${MSGHDR}${MESSAGE}))\\\" "
                     "eq \\\"1\\\")) \\\"1\\\" \\\"0\\\") x)\" eq \"1\" or \"$(rsyslog-bool 1)\" eq \"1\") and "
                     "\"$(rsyslog-cmp gt nn $(rsyslog-strlen $(rsyslog-msg ${MSGHDR}${MESSAGE})) 3)\" eq \"1\";");
}

static void
test_templates (void)
{
  assert_translates ("template(name=\"t\" type=\"string\" string=\"%timestamp:::date-rfc3339% %HOSTNAME%\\n\")\n",
                     "template rs0_t_t { template(\"$(rsyslog-rfc3339 reported) ${HOST}\\n\"); };");
  assert_translates ("$template t,\"%syslogtag:1:32%%msg:::sp-if-no-1st-sp%%$now% 100%%\"\n",
                     "$(substr $(rsyslog-tag ${MSGHDR}${MESSAGE}) 0 32)$(rsyslog-msg-space ${MSGHDR}${MESSAGE})"
                     "${R_YEAR}-${R_MONTH}-${R_DAY} 100%");
  /* a file action's default is RSYSLOG_FileFormat, with each stamp's own fraction of a second */
  assert_translates ("input(type=\"imudp\" port=\"5514\")\n*.* /a\n", "template(rs0_t_rsyslog_fileformat) perm(0644) dir-perm(0700) create-dirs(yes))");
  assert_translates ("input(type=\"imudp\" port=\"5514\")\n*.* /a\n", "$(rsyslog-rfc3339 reported) ${HOST}");
  /* the tag, the space and the msg in a row: one split of the tag and text, in a list template too */
  assert_translates ("*.* /a;RSYSLOG_TraditionalFileFormat\n",
                     "template(\"$(rsyslog-rfc3164 reported) ${HOST} $(rsyslog-tag-msg ${MSGHDR}${MESSAGE})\\n\")");
  assert_translates ("template(name=\"t\" type=\"list\") { property(name=\"syslogtag\") "
                     "property(name=\"msg\" spifno1stsp=\"on\") property(name=\"msg\") }\n",
                     "template(\"$(rsyslog-tag-msg ${MSGHDR}${MESSAGE})\")");
  /* the variable trees whole, as json-c writes them */
  assert_translates ("*.* /a;RSYSLOG_DebugFormat\n", "$$!:$(rsyslog-tree tree !)\\n$$.:$(rsyslog-tree tree .)");
  assert_translates ("template(name=\"t\" type=\"string\" string=\"%$!all-json% %$!A!b%\")\n",
                     "template(\"$(rsyslog-tree all-json !) $(if (\\\"$(rsyslog-var !A.b)\\\" ne \\\"\\\") "
                     "\\\"$(rsyslog-var !A.b)\\\" "
                     "\\\"$(rsyslog-tree tree !A.b.)\\\")\")");
  /* option.casesensitive keeps the case of a variable's jsonf name */
  assert_translates ("template(name=\"t\" type=\"string\" string=\"%$!A:::jsonf%\")\n",
                     "$(rsyslog-property \\\"format=jsonf\\\" \\\"a\\\" \\\"\\\" $(if");
  assert_translates ("template(name=\"t\" type=\"string\" string=\"%$!A:::jsonf%\" option.casesensitive=\"on\")\n",
                     "$(rsyslog-property \\\"format=jsonf\\\" \\\"A\\\" \\\"\\\" $(if");
  /* property options, in rsyslog's words for $(rsyslog-property) */
  assert_translates ("template(name=\"t\" type=\"list\") { property(name=\"msg\" regex.expression=\"a$\" "
                     "regex.type=\"ERE\" regex.submatch=\"1\" caseconversion=\"upper\") }\n",
                     "$(rsyslog-property \\\"ere,submatch=1,case=u\\\" \\\"\\\" \\\"a$$\\\" $(rsyslog-msg");
  assert_translates ("$template t,\"%msg:R,ERE,1,ZERO:x:y--end%%hostname:2:3:lowercase%\"\n",
                     "$(rsyslog-property \\\"ere,submatch=1,nomatch=ZERO\\\" \\\"\\\" \\\"x:y\\\"");
  assert_refused ("template(name=\"t\" type=\"list\") { property(name=\"msg\" position.from=\"5\" "
                  "position.to=\"2\") }\n", ":1:34:", "position.to=2 is lower than position.from=5");
  assert_refused ("template(name=\"t\" type=\"list\") { property(name=\"msg\" format=\"xml\") }\n", ":1:54:",
                  "'xml' is not a value of rsyslog's property format=");
  assert_refused ("template(name=\"t\" type=\"list\") { constant(value=\"x\" format=\"jsonf\") }\n", ":1:34:",
                  "needs outname=");
  assert_refused ("$template t,\"%timestamp:::date-utc%\"\n", ":1:1:", "'date-utc' is not supported");
  assert_refused ("$template t,\"%msg:::bogus%\"\n", ":1:1:", "option 'bogus' is not supported");
  assert_refused ("$template t,\"%msg:::json,csv%\"\n", ":1:1:", "option 'csv' is a second format");
  assert_translates ("$template t,\"%msg%\",stdsql\n", "template(\"$(rsyslog-stdsql-quotes $(rsyslog-msg");
  assert_refused ("template(name=\"t\" type=\"subtree\" subtree=\"$!\")\n", ":1:19:",
                  "rsyslogd 8.2302 writes nothing with them");
  assert_refused ("$template t,\"%msg%\",xml\n", ":1:1:", "json, jsonf, sql, stdsql and casesensitive are");
  /* json escaping, as a property's option and as a template's */
  assert_translates ("$template t,\"{\\\"m\\\":\\\"%msg:::json%\\\"}\"\n",
                     "template(\"{\\\"m\\\":\\\"$(rsyslog-json $(rsyslog-msg ${MSGHDR}${MESSAGE}))\\\"}\")");
  assert_translates ("template(name=\"t\" type=\"list\" option.json=\"on\") { property(name=\"hostname\") "
                     "property(name=\"msg\" format=\"json\") }\n",
                     "template(\"$(rsyslog-json-quotes ${HOST})$(rsyslog-json-quotes $(rsyslog-json $(rsyslog-msg");
  assert_translates ("template(name=\"t\" type=\"string\" string=\"%msg%\" option.sql=\"on\")\n",
                     "template(\"$(rsyslog-sql-quotes $(rsyslog-msg ${MSGHDR}${MESSAGE}))\")");
}

/* lookup tables: the file is the plugin's to read, at every load */
/* rsyslogd splits a variable's path at '!' alone: a '.' (or '/') after
 * the tree's sigil is a member name's own, escaped in the field's name
 * (core/message/member-name.h), and a name that needs it is quoted */
static void
test_member_names (void)
{
  assert_translates ("input(type=\"imudp\" port=\"5514\")\nset $!a.b!c = \"1\";\n/a\n",
                     "rsyslog-set(template(\"1\") variable(\"!a\\\\.b.c\"))");
  assert_translates ("input(type=\"imudp\" port=\"5514\")\nunset $.l.m;\n/a\n",
                     "rsyslog-unset(variable(\".l\\\\.m\"))");
  /* the sigil alone is the whole tree */
  assert_translates ("input(type=\"imudp\" port=\"5514\")\nunset $!;\n/a\n", "rsyslog-unset(variable(\"!\"))");
  assert_refused ("input(type=\"imudp\" port=\"5514\")\nset $! = 1;\n/a\n", ":2:5:", "a variable such as $!name");
  assert_translates ("input(type=\"imudp\" port=\"5514\")\nif exists($!a.b) then /a\n",
                     "$(rsyslog-exists \\\"!a\\\\\\\\.b\\\")");
  assert_translates ("template(name=\"t\" type=\"string\" string=\"%$!a.b!c%\")\n",
                     "$(if (\\\"$(rsyslog-var \\\\\\\"!a\\\\\\\\\\\\\\\\.b.c\\\\\\\")\\\" ne \\\"\\\") ");
  assert_translates ("template(name=\"t\" type=\"string\" string=\"%$!a/b%\")\n",
                     "$(if (\\\"$(rsyslog-var !a/b)\\\" ne \\\"\\\") \\\"$(rsyslog-var !a/b)\\\" "
                     "\\\"$(rsyslog-tree tree !a/b.)\\\")");
  assert_translates ("module(load=\"mmpstrucdata\")\ninput(type=\"imudp\" port=\"5514\")\n"
                     "action(type=\"mmpstrucdata\" jsonRoot=\"$!x.y\")\n/a\n",
                     "prefix(\"!x\\\\.y.rfc5424-sd.\") lowercase-names(yes) empty-objects(yes) escape-dots(yes)");
  assert_translates ("module(load=\"mmnormalize\")\ninput(type=\"imudp\" port=\"5514\")\n"
                     "action(type=\"mmnormalize\" rule=[\"rule=:%x:word%\"] path=\"$!n.o\")\n/a\n",
                     "prefix(\"!n\\\\.o.\") escape-dots(yes)");
}

static void
test_lookup_tables (void)
{
  assert_translates ("input(type=\"imudp\" port=\"5514\")\nlookup_table(name=\"t\" file=\"/etc/t.json\")\n"
                     "set $.v = lookup(\"t\", $hostname);\n",
                     "rsyslog-set(template(\"$(lookup-table \\\"/etc/t.json\\\" \\\"${HOST}\\\")\") variable(\".v\"))");
  assert_translates ("input(type=\"imudp\" port=\"5514\")\n"
                     "lookup_table(name=\"t\" file=\"/etc/t.json\" reloadOnHUP=\"off\")\n"
                     "if lookup(\"t\", $msg) == \"x\" then /a\n",
                     "$(lookup-table --keep \\\"/etc/t.json\\\" \\\"$(rsyslog-msg");
  assert_refused ("set $.v = lookup(\"nosuch\", $hostname);\n", ":1:11:", "no rsyslog lookup_table() named 'nosuch'");
  assert_refused ("lookup_table(name=\"t\" file=\"/etc/t.json\" reload=\"on\")\n", ":1:42:",
                  "'reload' of rsyslog's lookup_table()");
  assert_refused ("lookup_table(name=\"t\" file=\"/etc/t.json\")\nreload_lookup_table(\"t\")\n", ":2:1:",
                  "Sluice reads lookup tables again when it reloads");
}

/* Comments after directives and actions, as the stock files have them:
 * openembedded/meta-openembedded meta-oe/recipes-extended/rsyslog/rsyslog/
 * rsyslog.conf (commit 65b4b211, MIT) and void-linux/void-packages
 * srcpkgs/rsyslog/files/rsyslog.conf (commit 07e536b1, BSD-2-Clause) */
static void
test_comments (void)
{
  assert_translates ("$ModLoad imuxsock # provides support for local system logging (e.g. via logger command)\n"
                     "$ActionQueueMaxDiskSpace 10m   # 1gb space limit (use as much as possible)\n"
                     "$FileCreateMode 0640 # not world readable\n"
                     "*.* -/var/log/syslog # everything\n",
                     "file(\"/var/log/syslog\" template(rs0_t_rsyslog_fileformat) perm(0640)");
  /* a '#' inside a word is the word's, as rsyslog reads it */
  assert_refused ("$ModLoad imuxsock#x\n", ":1:1:", "module 'imuxsock#x'");
  /* a template's text may hold a '#' */
  assert_translates ("$template t,\"# %msg%\" # the comment\n", "template rs0_t_t { template(\"# $(rsyslog-msg");
  assert_translates ("module(load=\"imudp\") # UDP\ninput(type=\"imudp\" # the port:\n port=\"5514\")\n*.* /a # all\n",
                     "udp(port(\"5514\") keep-hostname(yes) flags(detect-syslog-protocol sdata-as-received))");
}

/* A selector continued over lines, as Debian's stock file had it before
 * Debian 12: danos/rsyslog debian/rsyslog.conf (commit 67bc8e53, GPL-3) */
static void
test_continued_lines (void)
{
  assert_translates ("input(type=\"imudp\" port=\"5514\")\n"
                     "*.=debug;\\\n"
                     "\tauth,authpriv.none;\\\n"
                     "\tnews.none;mail.none\t-/var/log/debug\n",
                     "filter { facility(kern user daemon syslog lpr uucp cron ftp ntp security console solaris-cron "
                     "local0 local1 local2 local3 local4 local5 local6 local7) and level(debug); }");
  /* a comment line ending in a backslash takes the next line into it */
  assert_translates ("input(type=\"imudp\" port=\"5514\")\n#daemon,mail.*;\\\n\tnews.=crit /b\n*.* /a\n",
                     "log { destination(rs0_d");
  /* positions after continued lines are the file's */
  assert_refused ("input(type=\"imudp\" port=\"5514\")\nmail.*;\\\n  news.none;\\\n  *.bogus /a\n*.bogus /b\n",
                  ":2:1:", "unknown level 'bogus'");
  assert_refused ("input(type=\"imudp\" port=\"5514\")\nmail.*;\\\n  news.none /a\n*.bogus /b\n", ":4:1:",
                  "unknown level 'bogus'");
  assert_refused ("input(type=\"imudp\" port=\"5514\")\nmail.* \\\n   /a;\\\n   Nope\n", ":3:4:",
                  "Nope");
}

/* $IncludeConfig of a folder reads every file in it, in name order, as
 * Void's stock file has it (void-linux/void-packages
 * srcpkgs/rsyslog/files/rsyslog.conf, commit 07e536b1, BSD-2-Clause) */
static void
test_include_folder (void)
{
  g_autofree gchar *dir = g_dir_make_tmp ("rsyslog-d-XXXXXX", NULL);
  g_autofree gchar *a = g_build_filename (dir, "a.conf", NULL);
  g_autofree gchar *b = g_build_filename (dir, "b.rules", NULL);
  g_autofree gchar *text = g_strdup_printf ("input(type=\"imudp\" port=\"5514\")\n"
                                            "$IncludeConfig %s/ # config file snippets\n", dir);

  g_assert_true (g_file_set_contents (a, "mail.* /a\n", -1, NULL));
  g_assert_true (g_file_set_contents (b, "cron.* /b\n", -1, NULL));
  assert_translates (text, "log { filter { facility(mail); }; destination(rs0_d2); }; "
                           "log { filter { facility(cron); }; destination(rs0_d3); };");
  g_unlink (a);
  g_unlink (b);
  g_rmdir (dir);
}

/* The output and input modules Sluice has drivers for; the omkafka
 * action is the one of rsyslog's omkafka documentation
 * (rsyslog/rsyslog source/configuration/modules/omkafka.rst, commit
 * 010107f9, Apache-2.0) with partitions.auto */
static void
test_modules (void)
{
  assert_translates ("module(load=\"omrelp\")\n*.* action(type=\"omrelp\" target=\"centralserv\" rebindInterval=\"10000\")\n",
                     "relp(\"centralserv\" port(\"514\") template(rs0_t_rsyslog_forwardformat) rebind-interval(\"10000\")");
  assert_translates ("*.* :omrelp:192.168.0.1:2514;RSYSLOG_ForwardFormat\n",
                     "relp(\"192.168.0.1\" port(\"2514\") template(rs0_t_rsyslog_forwardformat)");
  assert_translates ("module(load=\"imrelp\")\ninput(type=\"imrelp\" port=\"2514\" keepAlive=\"on\")\n*.* /a\n",
                     "relp(port(\"2514\") so-keepalive(yes) keep-hostname(yes) flags(detect-syslog-protocol sdata-as-received))");
  assert_translates ("module(load=\"omkafka\")\naction(type=\"omkafka\" topic=\"mytopic\" partitions.auto=\"on\"\n"
                     "       confParam=[\"compression.codec=snappy\",\n"
                     "                  \"socket.timeout.ms=5\",\n"
                     "                  \"socket.keepalive.enable=true\"]\n"
                     "      )\n",
                     "kafka(topic(\"mytopic\") bootstrap-servers(\"localhost:9092\") template(rs0_t_rsyslog_fileformat) "
                     "config(\"compression.codec\" => \"snappy\") config(\"socket.timeout.ms\" => \"5\") "
                     "config(\"socket.keepalive.enable\" => \"true\")");
  assert_translates ("input(type=\"imkafka\" topic=\"logs\" broker=[\"k1:9092\",\"k2:9092\"] consumergroup=\"rs\")\n*.* /a\n",
                     "kafka(topics(\"logs\") bootstrap-servers(\"k1:9092,k2:9092\") group-id(\"rs\") flags(no-hostname))");
  assert_refused ("module(load=\"impstats\" interval=\"600\" severity=\"7\")\n", ":1:39:", "impstats severity=\"7\"");
  assert_translates ("module(load=\"impstats\" interval=\"60\" ruleset=\"stats\")\n"
                     "ruleset(name=\"stats\") { action(type=\"omfile\" file=\"/s\") }\n",
                     "options { stats(freq(60) level(1)); };\nsource \"rs0_s1:impstats\" { internal(); };");
  assert_refused ("module(load=\"omkafka\")\naction(type=\"omkafka\" topic=\"t\" partitions.auto=\"on\" dynaTopic=\"on\")\n", ":2:54:",
                  "'dynatopic' of rsyslog's omkafka is not supported");
  assert_refused ("module(load=\"omkafka\")\naction(type=\"omkafka\" topic=\"t\")\n", ":2:1:", "partition 0 unless partitions.auto");
  assert_refused ("action(type=\"omkafka\" topic=\"t\")\n", ":1:1:", "needs its module loaded first");
  assert_translates ("module(load=\"impstats\" log.file=\"/var/log/stats\" log.syslog=\"off\" format=\"JSON\")\n",
                     "options { stats(freq(0) level(1) file(\"/var/log/stats\") file-freq(300) file-format(json)); };");
  assert_refused ("module(load=\"mmkubernetes\")\n", ":1:8:", "module 'mmkubernetes' is not supported");
  assert_translates ("module(load=\"omelasticsearch\")\n*.* action(type=\"omelasticsearch\" server=[\"es1\", \"https://es2:9201\"] bulkmode=\"on\" "
                     "searchIndex=\"logs\" uid=\"u\" pwd=\"p\")\n",
                     "http(url(\"http://es1:9200/_bulk\" \"https://es2:9201/_bulk\") method(\"POST\") headers(\"Content-Type: "
                     "application/json; charset=utf-8\") template(rs0_t_omelasticsearch_stdjsonfmt) body-prefix(\"{\\\"index\\\":"
                     "{\\\"_index\\\": \\\"logs\\\",\\\"_type\\\":\\\"events\\\"}}\\n\")");
  assert_refused ("module(load=\"omelasticsearch\")\n*.* action(type=\"omelasticsearch\" dynSearchIndex=\"on\")\n", ":2:35:",
                  "'dynsearchindex'");
  /* the line of rsyslog's MySQL tutorial (rsyslog/rsyslog doc, Apache-2.0), LogAnalyzer's schema */
  assert_translates ("$ModLoad ommysql\n*.* :ommysql:localhost,Syslog,rsyslog,secret\n",
                     "sql(type(mysql) host(\"localhost\") username(\"rsyslog\") password(\"secret\") database(\"Syslog\") "
                     "table(\"SystemEvents\") columns(\"Message\" \"Facility\" \"FromHost\" \"Priority\" \"DeviceReportedTime\" "
                     "\"ReceivedAt\" \"InfoUnitID\" \"SysLogTag\") values(\"$(rsyslog-msg ${MSGHDR}${MESSAGE})\" \"${FACILITY_NUM}\" "
                     "\"${HOST}\" \"${LEVEL_NUM}\" \"${S_YEAR}${S_MONTH}${S_DAY}${S_HOUR}${S_MIN}${S_SEC}\"");
  assert_translates ("module(load=\"ompgsql\")\n*.* action(type=\"ompgsql\" server=\"db\" db=\"Syslog\" user=\"u\" pass=\"p\")\n",
                     "\"${S_YEAR}-${S_MONTH}-${S_DAY} ${S_HOUR}:${S_MIN}:${S_SEC}\"");
  assert_refused ("*.* :ommysql:localhost,Syslog,rsyslog,secret;mine\n", ":1:5:",
                  "'template' of rsyslog's :ommysql: is not supported: only the module's own statement");
  /* Logz.io's nginx snippet (logzio-nginx.conf): a blank before ;template */
  assert_translates ("$template t,\"%msg%\\n\"\nif $programname == 'nginx' then @@127.0.0.1:5000 ;t\n",
                     "transport(tcp) template(\"$(rsyslog-msg ${MSGHDR}${MESSAGE})\\n\") truncate-size(\"8096\") "
                     "add-newline(yes));");
  /* Gentoo's stock file: omfile's module parameters are every file's defaults */
  assert_translates ("module(load=\"builtin:omfile\" Template=\"RSYSLOG_FileFormat\" FileCreateMode=\"0640\" "
                     "FileOwner=\"root\")\n*.* /var/log/all\n",
                     "file(\"/var/log/all\" template(rs0_t_rsyslog_fileformat) owner(\"root\") perm(0640)");
  /* rsyslogd's maxMessageSize is 8096 bytes unless the file says otherwise, and its parser escapes control characters */
  assert_translates ("*.* /var/log/all\n", "options { log-msg-size(8096); escape-control-chars(yes); };");
  assert_translates ("$MaxMessageSize 2k\n*.* @@h:514\n", "truncate-size(\"2k\") add-newline(yes)");
  assert_translates ("global(parser.escapeControlCharacterTab=\"off\")\n*.* /a\n",
                     "options { escape-control-chars(except-tab); };");
  /* $inputname is what rsyslogd names each input, or its name= */
  assert_translates ("module(load=\"imtcp\")\nmodule(load=\"imptcp\")\ninput(type=\"imtcp\" port=\"1\")\n"
                     "input(type=\"imptcp\" port=\"2\")\ninput(type=\"imtcp\" port=\"3\" name=\"edge\")\n"
                     "if $inputname == \"imptcp\" then /a\n",
                     "log { source(\"rs0_s1:imtcp\"); source(\"rs0_s2:imptcp\"); source(\"rs0_s3:edge\"); log { filter { "
                     "\"$(rsyslog-inputname ${SOURCE})\" eq \"imptcp\"; };");
  /* octet-counted framing, legacy and action() */
  assert_translates ("*.* @@(o)central:10514\n", "transport(tcp) template(\"<${PRI}>$(rsyslog-rfc3164 reported)");
  assert_translates ("*.* @@(o)central:10514\n", "truncate-size(\"8096\") octet-count(yes)");
  assert_translates ("*.* action(type=\"omfwd\" target=\"c\" protocol=\"tcp\" TCP_Framing=\"octet-counted\")\n",
                     "octet-count(yes)");
  assert_refused ("*.* @@(z9)central\n", ":1:5:", "'(z9)' (compression) are not supported");
  /* a dynamic file without sync after each line, as Debian's and RHEL's central servers write it */
  assert_translates ("$template DynFile,\"/var/log/remote/%HOSTNAME%.log\"\n*.* -?DynFile\n",
                     "file(\"/var/log/remote/${HOST}.log\"");
  /* omprog writes RSYSLOG_FileFormat unless told otherwise, as omprog.c:
   * $ActionFileDefaultTemplate is omfile's */
  assert_translates ("$ActionFileDefaultTemplate RSYSLOG_TraditionalFileFormat\nmodule(load=\"omprog\")\n"
                     "*.* action(type=\"omprog\" binary=\"/bin/cat\")\n",
                     "program(\"/bin/cat\" template(rs0_t_rsyslog_fileformat)");
  /* omhiredis: its queue, publish and set modes; a whole command line has no equal */
  assert_translates ("module(load=\"omhiredis\")\n*.* action(type=\"omhiredis\" mode=\"queue\" key=\"logs\" "
                     "serverpassword=\"pw\")\n",
                     "redis(host(\"127.0.0.1\") port(\"6379\") auth(\"pw\") command(\"LPUSH\" \"logs\" "
                     "\"$(template rs0_t_rsyslog_forwardformat)\"))");
  assert_refused ("module(load=\"omhiredis\")\n*.* action(type=\"omhiredis\" key=\"k\")\n", ":2:5:",
                  "omhiredis mode=\"template\" is not supported");
  assert_refused ("*.* action(type=\"omhiredis\" mode=\"queue\" key=\"k\")\n", ":1:5:",
                  "needs its module loaded first");
  /* the name of this host in local messages */
  assert_translates ("global(localHostName=\"relay7\" preserveFQDN=\"on\")\n*.* /a\n",
                     "options { local-hostname(\"relay7\"); };\noptions { use-fqdn(yes); };");
  assert_translates ("$PreserveFQDN on\n$LocalHostName relay7\n*.* /a\n",
                     "options { use-fqdn(yes); };\noptions { local-hostname(\"relay7\"); };");
  /* rsyslog's minimal container image */
  assert_translates ("global(processInternalMessages=\"on\")\n*.* /var/log/all\n", "{ internal(); };");
  /* openSUSE's stock file sets the kernel's console level */
  assert_translates ("$ModLoad imklog.so\n$klogConsoleLogLevel    1\n", "kmsg(optional(yes) kernel-only(yes))");
  /* imkmsg takes what programs write to /dev/kmsg too */
  assert_translates ("module(load=\"imkmsg\")\n*.* /a\n", ":imkmsg\" { kmsg(optional(yes)); };");
  assert_refused ("module(load=\"imkmsg\" permitNonKernelFacility=\"on\")\n", ":1:22:",
                  "the parameter 'permitnonkernelfacility' of rsyslog's module imkmsg is not supported");
  /* what programs write to /dev/kmsg only with permitNonKernelFacility, as rsyslogd's imklog */
  assert_translates ("module(load=\"imklog\" permitnonkernelfacility=\"on\")\n", "kmsg(optional(yes)); };");
  assert_translates ("$ModLoad imklog\n$KLogPermitNonKernelFacility on\n", "kmsg(optional(yes)); };");
  /* rhel-adiscon-rsyslog-v7.conf, which rsyslogd 8.2302 refuses */
  assert_refused ("module(load=\"imuxsock\")\n$OmitLocalLogging on\n", ":2:1:", "SysSock.Use");
  /* the trusted properties as $! fields, on the system socket too */
  assert_translates ("module(load=\"imuxsock\" SysSock.Annotate=\"on\" SysSock.ParseTrusted=\"on\")\n*.* /a\n",
                     "annotate(yes) parse-trusted(yes)");
  assert_translates ("input(type=\"imuxsock\" Socket=\"/run/x\" ParseTrusted=\"on\")\n*.* /a\n",
                     "unix-dgram(\"/run/x\" flags(no-hostname) keep-timestamp(no))");
}

/* imfile's legacy directives (Logz.io's Apache snippet, logzio-apache.conf
 * of the rsyslog corpus), its wildcards; imjournal's parameters
 * (chef-rsyslog-rhel.conf: sous-chefs/rsyslog, Apache-2.0) */
static void
test_imfile_imjournal (void)
{
  assert_translates ("$ModLoad imfile\n$InputFilePollInterval 10\n"
                     "$InputFileName /var/log/apache2/access.log\n$InputFileTag apache_access:\n"
                     "$InputFileStateFile stat-apache-access\n$InputFileSeverity info\n"
                     "$InputFilePersistStateInterval 25000\n$InputRunFileMonitor\n"
                     "$InputFileName /var/log/apache2/error.log\n$InputFileTag apache_error: \n$InputRunFileMonitor\n",
                     "file(\"/var/log/apache2/access.log\" flags(no-parse) escape-control-chars(no) program-override(\"apache_access\") "
                     "rsyslog-reopen-on-truncate(no) default-facility(local0) default-priority(info)); };\n"
                     "source \"rs0_s2:imfile\" { "
                     "file(\"/var/log/apache2/error.log\" flags(no-parse) escape-control-chars(no) program-override(\"apache_error\") "
                     "rsyslog-reopen-on-truncate(no) default-facility(local0) default-priority(notice))");
  assert_refused ("$ModLoad imfile\n$InputFileName /a\n$InputRunFileMonitor\n", ":3:1:", "needs $InputFileName and $InputFileTag");
  assert_refused ("$ModLoad imfile\n$InputFileReadMode 2\n", ":2:1:", "'$InputFileReadMode'");
  assert_refused ("$InputFileName /a\n", ":1:1:", "$InputFileName needs $ModLoad imfile before it");
  /* the ruleset stays for the next file; name, tag and priority do not */
  assert_translates ("$ModLoad imfile\n$InputFileBindRuleset files\n$InputFileName /a\n$InputFileTag a\n$InputRunFileMonitor\n"
                     "$InputFileName /b\n$InputFileTag b\n$InputRunFileMonitor\n"
                     "ruleset(name=\"files\") { action(type=\"omfile\" file=\"/f\") }\n",
                     "log { source(\"rs0_s1:imfile\"); source(\"rs0_s2:imfile\"); log { destination(rs0_d3); }; };");
  assert_translates ("input(type=\"imfile\" file=\"/var/log/app/*.log\" tag=\"app\")\n*.* /a\n",
                     "wildcard-file(base-dir(\"/var/log/app\") filename-pattern(\"*.log\") max-files(2147483647) "
                     "flags(no-parse) escape-control-chars(no) tags(\".rsyslog.tag-without-colon\") program-override(\"app\")");
  /* reopenOnTruncate is off unless on, as in rsyslogd */
  assert_translates ("input(type=\"imfile\" file=\"/a\" tag=\"a\" addMetadata=\"off\" reopenOnTruncate=\"on\")\n*.* /a\n",
                     "program-override(\"a\") default-facility(local0)");
  assert_refused ("input(type=\"imfile\" file=\"/a\" tag=\"a\" deleteStateOnFileDelete=\"no\")\n", ":1:39:",
                  "imfile deletestateonfiledelete=\"no\" is not supported");
  assert_refused ("input(type=\"imfile\" file=\"/var/log/*/x.log\" tag=\"app\")\n", ":1:21:", "a wildcard in a folder");
  assert_refused ("input(type=\"imfile\" file=\"/var/log/x.log\")\n", ":1:1:", "imfile input needs file= and tag=");
  assert_refused ("input(type=\"imfile\" file=\"/x\" tag=\"t\" freshStartTail=\"on\")\n", ":1:39:",
                  "imfile freshstarttail=\"on\" is not supported");
  assert_translates ("$ModLoad imfile\n$InputFileName /a\n$InputFileTag t\n$InputFileFacility LOCAL7\n$InputFileSeverity warn\n"
                     "$InputRunFileMonitor\n", "default-facility(local7) default-priority(warning))");
  /* rsyslogd 8.2302 ORs a number into the priority (mail.debug here) */
  assert_refused ("$ModLoad imfile\n$InputFileName /a\n$InputFileTag t\n$InputFileFacility 23\n$InputRunFileMonitor\n", ":5:1:",
                  "'23' is no syslog facility rsyslog takes here");
  assert_refused ("input(type=\"imfile\" file=\"/var/log/[ab].log\" tag=\"app\")\n", ":1:21:", "only * and ?");
  assert_translates ("module(load=\"imjournal\" UsePid=\"system\" StateFile=\"imjournal.state\")\n*.* /a\n",
                     "systemd-journal(default-facility(user) default-priority(notice) read-old-records(yes) "
                     "rate-limit-interval(600) rate-limit-burst(20000))");
  assert_translates ("module(load=\"imjournal\" IgnorePreviousMessages=\"on\" DefaultFacility=\"local3\" "
                     "DefaultSeverity=\"Info\" Ratelimit.Interval=\"0\")\n*.* /a\n",
                     "systemd-journal(default-facility(local3) default-priority(info) read-old-records(no))");
  assert_translates ("$ModLoad imjournal\n$IMJournalRatelimitInterval 30\n$imjournalRatelimitBurst 7\n*.* /a\n",
                     "rate-limit-interval(30) rate-limit-burst(7))");
  assert_refused ("module(load=\"imjournal\" Ratelimit.Burst=\"0\")\n", ":1:25:", "needs a burst from 1");
  assert_refused ("module(load=\"imjournal\")\ninput(type=\"imjournal\")\n", ":2:1:", "imjournal takes no input()");
  assert_translates ("$ModLoad imjournal\n$IMJournalStateFile imjournal.state\n$imjournalIgnorePreviousMessages on\n",
                     "read-old-records(no)");
  assert_refused ("module(load=\"imjournal\" UsePid=\"syslog\")\n", ":1:25:", "UsePid=\"syslog\" is not supported");
  assert_refused ("$IMJournalIgnorePreviousMessages on\n", ":1:1:", "needs $ModLoad imjournal before it");
  assert_refused ("module(load=\"imjournal\" DefaultFacility=\"nosuch\")\n", ":1:25:", "'nosuch' is no syslog facility");
}

/* :omuxsock:, omsnmp's loading alone (OpenMandriva's 06_snmp.conf of the
 * rsyslog corpus), a module named with .so, $AllowedSender
 * (rsyslog-doc-example.conf: rsyslog/rsyslog's doc, Apache-2.0) */
static void
test_other_modules (void)
{
  assert_translates ("$ModLoad omuxsock.so\n$OMUxSockSocket /run/ama.socket\n*.* :omuxsock:;RSYSLOG_FileFormat\n",
                     "unix-dgram(\"/run/ama.socket\" template(rs0_t_rsyslog_fileformat)");
  assert_translates ("$ModLoad omsnmp.so\n", "");
  assert_refused ("$OMUxSockSocket /run/ama.socket\n", ":1:1:", "$OMUxSockSocket needs $ModLoad omuxsock before it");
  assert_refused ("module(load=\"omsnmp\")\n*.* action(type=\"omsnmp\" server=\"h\")\n", ":2:5:",
                  "omsnmp sends SNMPv1 traps unless version=\"1\"");
  assert_translates ("module(load=\"omsnmp\")\n*.* action(type=\"omsnmp\" server=\"h\" version=\"1\")\n",
                     "snmp(host(\"h\") port(\"162\") transport(\"UDP\") version(\"v2c\") sys-uptime(yes)");
  assert_translates ("$ModLoad immark.so\n*.* /var/log/messages\n", "mark(freq(1200) program(\"rsyslogd\"))");
  assert_refused ("$AllowedSender UDP, 127.0.0.1, 192.0.2.0/24, [::1]/128, *.example.net\n", ":1:1:",
                  "$AllowedSender is not supported");
}

/* The message modification modules as the parsers that do what they do */
static void
test_modifiers (void)
{
  assert_translates ("module(load=\"mmnormalize\")\naction(type=\"mmnormalize\" ruleBase=\"/etc/r.rb\" "
                     "path=\"$!n!m\")\n",
                     "lognorm-parser(rulebase(\"/etc/r.rb\") template(\"$(rsyslog-msg ${MSGHDR}${MESSAGE})\") "
                     "prefix(\"!n.m.\") escape-dots(yes))");
  assert_translates ("module(load=\"mmnormalize\")\naction(type=\"mmnormalize\" variable=\"$!text\" "
                     "rule=[\"rule=a,b:%x:word%\", \"rule=:%y:rest%\"])\n",
                     "lognorm-parser(rules(\"rule=a,b:%x:word%\" \"rule=:%y:rest%\") template(\"$(rsyslog-var !text)\") "
                     "prefix(\"!\") escape-dots(yes))");
  assert_translates ("module(load=\"mmutf8fix\")\naction(type=\"mmutf8fix\" mode=\"ControlCharacters\" "
                     "replacementChar=\"?!\")\n",
                     "utf8-fix(mode(control-characters) replacement(\"?\"))");
  assert_translates ("module(load=\"mmanon\")\naction(type=\"mmanon\" ipv4.mode=\"Random-Consistent\" "
                     "ipv6.enable=\"off\" embeddedIpv4.bits=\"64\")\n",
                     "anonymize-ip(ipv6(no) embedded-ipv4-bits(\"64\") mode(random-consistent))");
  assert_translates ("module(load=\"mmfields\")\naction(type=\"mmfields\" separator=\";\" jsonRoot=\"!csv\")\n",
                     "split-fields(template(\"$(rsyslog-msg ${MSGHDR}${MESSAGE})\") separator(\";\") "
                     "json-field(\"!csv\") prefix(\"!csv.f\"))");
  assert_refused ("module(load=\"mmanon\")\naction(type=\"mmanon\" ipv6.anonmode=\"simple\")\n", ":2:22:",
                  "it is zero, random or random-consistent");
  assert_refused ("module(load=\"mmnormalize\")\naction(type=\"mmnormalize\")\n", ":2:1:",
                  "needs ruleBase= or rule=");
  assert_translates ("$ModLoad mmnormalize\n$mmnormalizeUseRawMsg on\n$mmnormalizeRuleBase /r.rb\n*.* :mmnormalize:\n",
                     "lognorm-parser(rulebase(\"/r.rb\") template(\"<${PRI}>");
  assert_refused ("$ModLoad mmnormalize\n$mmnormalizeRuleBase /r.rb\n*.* :mmnormalize:\n*.* :mmnormalize:\n", ":4:5:",
                  ":mmnormalize: needs $mmnormalizeRuleBase before it");
}

/* `echo` and `cat` between backticks, config.enabled (rsyslog's
 * containers: docker-collector-10.conf of the rsyslog corpus,
 * rsyslog/rsyslog-docker, Apache-2.0) */
static void
test_backticks (void)
{
  g_setenv ("SL_UNIT_PORT", "10514", TRUE);
  g_setenv ("SL_UNIT_ON", "on", TRUE);
  g_unsetenv ("SL_UNIT_UNSET");
  assert_translates ("module(load=\"imudp\" config.enabled=`echo $SL_UNIT_ON`)\n"
                     "input(config.enabled=`echo $SL_UNIT_ON` type=\"imudp\" port=`echo $SL_UNIT_PORT`)\n*.* /a\n",
                     "udp(port(\"10514\") keep-hostname(yes) flags(detect-syslog-protocol sdata-as-received))");
  assert_translates ("input(type=\"imudp\" port=\"1\" config.enabled=`echo $SL_UNIT_UNSET`)\n"
                     "input(type=\"imudp\" port=\"2\" config.enabled=\"ON\")\n*.* /a\n", "destination rs0_d1 {");
  assert_translates ("*.* action(type=\"omfile\" file=`echo /var/log/$SL_UNIT_PORT-x.log`)\n",
                     "file(\"/var/log/\" template");
  assert_translates ("input(type=\"imudp\" port=\"1\")\nif `echo $SL_UNIT_ON` == \"on\" then /a\n", "filter { \"on\" eq \"on\"; }");
  assert_refused ("template(name=\"t\" type=\"string\" string=`sh -c id`)\n", ":1:40:", "only `echo TEXT` and `cat FILE`");
  assert_refused ("template(name=\"t\" type=\"string\" string=`cat /nonexistent/file`)\n", ":1:40:", "`cat /nonexistent/file`");
  assert_refused ("ruleset(name=\"r\" config.enabled=\"off\") { stop }\n", ":1:18:", "config.enabled=\"off\" of rsyslog's ruleset()");
}

/* $PrivDropToUser and $PrivDropToGroup, as Ubuntu's stock
 * /etc/rsyslog.conf has them, and global(privDrop.*) */
static void
test_privileges (void)
{
  assert_translates ("$PrivDropToUser syslog\n$PrivDropToGroup syslog\n", "options { user(\"syslog\"); group(\"syslog\"); };");
  /* a user alone keeps root's group, as rsyslogd does */
  assert_translates ("global(privDrop.user.id=\"104\")\n", "options { user(\"104\"); group(\"0\"); };");
  assert_translates ("$PrivDropToGroupID 4 # adm\n", "options { group(\"4\"); };");
  assert_refused ("global(privDrop.group.keepSupplemental=\"on\")\n", ":1:8:", "keepSupplemental");
}

/* TLS as rsyslog's TLS tutorial configures a client (rsyslog/rsyslog doc,
 * Apache-2.0) and an imtcp server */
static void
test_tls (void)
{
  assert_translates ("$DefaultNetstreamDriverCAFile /etc/ca.pem\n$DefaultNetstreamDriver gtls\n"
                     "$ActionSendStreamDriverMode 1 # run driver in TLS-only mode\n"
                     "$ActionSendStreamDriverAuthMode x509/name\n*.* @@central.example.net:10514\n",
                     "network(\"central.example.net\" port(\"10514\") transport(tls) tls(ca-file(\"/etc/ca.pem\") "
                     "peer-verify(required-trusted))");
  assert_translates ("global(defaultNetstreamDriver=\"gtls\" defaultNetstreamDriverCAFile=\"/c\"\n"
                     "  defaultNetstreamDriverCertFile=\"/cert\" defaultNetstreamDriverKeyFile=\"/key\")\n"
                     "module(load=\"imtcp\" StreamDriver.Name=\"gtls\" StreamDriver.Mode=\"1\" "
                     "StreamDriver.Authmode=\"x509/certvalid\")\ninput(type=\"imtcp\" port=\"6514\")\n*.* /a\n",
                     "tcp(port(\"6514\") keep-hostname(yes) max-connections(200) tls(ca-file(\"/c\") cert-file(\"/cert\") "
                     "key-file(\"/key\") peer-verify(required-trusted)) flags(detect-syslog-protocol sdata-as-received) "
                     "trim-large-messages(rsyslog))");
  /* imtcp serves 200 sessions at once unless its module() or input says otherwise */
  assert_translates ("module(load=\"imtcp\" maxSessions=\"500\")\ninput(type=\"imtcp\" port=\"1\")\n*.* /a\n",
                     "tcp(port(\"1\") keep-hostname(yes) max-connections(500)");
  assert_refused ("module(load=\"imtcp\" flowControl=\"off\")\ninput(type=\"imtcp\" port=\"1\")\n*.* /a\n", ":1:21:",
                  "rsyslog's imtcp flowcontrol=\"off\" is not supported");
  /* mode 0 is plain TCP; an action() does not take the legacy settings */
  assert_translates ("$DefaultNetstreamDriver gtls\n$ActionSendStreamDriverMode 1\n"
                     "*.* action(type=\"omfwd\" target=\"h\" protocol=\"tcp\")\n", "transport(tcp)");
  assert_refused ("$ActionSendStreamDriverMode 1\n*.* @@h\n", ":2:5:", "needs the gtls or ossl driver, not 'ptcp'");
  /* Loggly's Chef cookbook: the server's names, not the host connected to */
  assert_translates ("$DefaultNetstreamDriver gtls\n$ActionSendStreamDriverMode 1\n$ActionSendStreamDriverAuthMode x509/name\n"
                     "$ActionSendStreamDriverPermittedPeer *.loggly.com\n*.* @@h\n",
                     "tls(peer-verify(required-trusted) trusted-names(\"*.loggly.com\"))");
  /* an imtcp input's own files stand for the default driver's (a
   * container image's collector) */
  assert_translates ("global(defaultNetstreamDriverCAFile=\"/c\" defaultNetstreamDriverCertFile=\"/cert\")\n"
                     "module(load=\"imtcp\")\ninput(type=\"imtcp\" port=\"6514\" streamDriver.Name=\"ossl\" "
                     "streamDriver.Mode=\"1\" streamDriver.caFile=\"/in-ca\" streamDriver.keyFile=\"/in-key\")\n*.* /a\n",
                     "tls(ca-file(\"/in-ca\") cert-file(\"/cert\") key-file(\"/in-key\") peer-verify(optional-untrusted))");
}

/* rsyslogd's default writes each batch out, as file() does; off keeps
 * lines in omfile's buffer (OpenMandriva's stock file says on) */
static void
test_flush_on_tx_end (void)
{
  assert_translates ("$OMFileFlushOnTXEnd on\n*.* /var/log/messages\n", "file(\"/var/log/messages\"");
  assert_refused ("$OMFileFlushOnTXEnd off\n*.* /a\n", ":1:1:", "$OMFileFlushOnTXEnd off is not supported");
  assert_refused ("*.* action(type=\"omfile\" file=\"/a\" flushOnTXEnd=\"off\")\n", ":1:36:", "flushontxend");
}

static void
test_languages (void)
{
  g_assert_true (sl_cfg_rsyslog_looks_like ("$ModLoad imuxsock\n"));
  g_assert_true (sl_cfg_rsyslog_looks_like ("# x\nmail.* -/var/log/mail.log\n"));
  g_assert_false (sl_cfg_rsyslog_looks_like ("source s { system(); };\n"));
  g_assert_true (sl_cfg_syslog_ng_looks_like ("@version: 4.0\n"));
  g_assert_true (sl_cfg_syslog_ng_looks_like ("log { source(s); };\n"));
  assert_refused ("@version: 4.0\nsource s { system(); };\n", "", "Sluice's (syslog-ng's) configuration language");
}

/* immark as a mark() source, of either form; Yocto's and Void's stock
 * files load it with a trailing comment:
 * "$ModLoad immark   # provides --MARK-- message capability" */
static void
test_immark (void)
{
  assert_translates ("module(load=\"immark\" interval=\"600\")\n*.* /var/log/messages\n",
                     "mark(freq(600) program(\"rsyslogd\"))");
  assert_translates ("module(load=\"immark\" markMessageText=\"-- ALIVE --\")\n*.* /var/log/messages\n",
                     "mark(freq(1200) program(\"rsyslogd\") text(\"-- ALIVE --\"))");
  assert_translates ("$ModLoad immark   # provides --MARK-- message capability\n$MarkMessagePeriod 30\n"
                     "$MarkMessagePeriod 60\n*.* /var/log/messages\n",
                     "mark(freq(60) program(\"rsyslogd\"))");
  assert_refused ("$MarkMessagePeriod 60\n", ":1:1:", "needs $ModLoad immark");
  assert_refused ("module(load=\"immark\" interval=\"0\")\n", ":1:22:", "above 0");
  assert_refused ("*.* action(type=\"omfile\" file=\"/a\" action.writeAllMarkMessages=\"off\")\n", ":1:36:",
                  "writeallmarkmessages");
}

/* Ubuntu's and openSUSE's stock files: "$RepeatedMsgReduction on" */
static void
test_repeated_messages (void)
{
  assert_translates ("$RepeatedMsgReduction on\n*.* /var/log/syslog\n", "reduce-repeats(yes)");
  g_autofree gchar *off = translate ("$RepeatedMsgReduction off\n*.* /var/log/syslog\n", NULL);
  g_assert_null (strstr (off, "reduce-repeats"));
}

/* rsyslogd blocks a ruleset whose action retries forever, and otherwise
 * discards what a suspended action cannot take; queue.discardMark drops
 * the less important. */
static void
test_flow_and_discards (void)
{
  g_autofree gchar *plain = translate ("input(type=\"imtcp\" port=\"5514\")\n"
                                       "*.* action(type=\"omfwd\" target=\"127.0.0.1\" port=\"5515\" protocol=\"tcp\")\n",
                                       NULL);
  g_assert_null (strstr (plain, "flow-control"));
  assert_translates ("input(type=\"imtcp\" port=\"5514\")\n"
                     "*.* action(type=\"omfwd\" target=\"127.0.0.1\" port=\"5515\" protocol=\"tcp\" "
                     "action.resumeRetryCount=\"-1\")\n",
                     "flow-control");
  assert_translates ("input(type=\"imtcp\" port=\"5514\")\n$ActionResumeRetryCount -1\n*.* @@127.0.0.1:5515\n",
                     "flow-control");
  assert_translates ("input(type=\"imtcp\" port=\"5514\")\n"
                     "*.* action(type=\"omfwd\" target=\"127.0.0.1\" port=\"5515\" protocol=\"tcp\" "
                     "queue.type=\"LinkedList\" queue.size=\"1000\" queue.discardMark=\"900\" queue.discardSeverity=\"5\")\n",
                     "discard-mark(900) discard-level(\"5\")");
  assert_refused ("*.* action(type=\"omfwd\" target=\"h\" action.execOnlyWhenPreviousIsSuspended=\"on\")\n", ":1:",
                  "failover");
}

/* queue.* and $ActionQueue*, one mapping (runtime/queue.c and action.c of
 * rsyslog 8.2302): sizes with rsyslog's units, discarding only from a
 * queue that is not direct, at 98 in 100 of its size unless a mark is
 * given; the legacy settings are the next action's only. */
static void
test_queue_params (void)
{
  assert_translates ("$ActionQueueType LinkedList\n$ActionQueueFileName fwd\n$ActionQueueMaxDiskSpace 10m\n"
                     "$ActionQueueSaveOnShutdown on\n*.* @@127.0.0.1:5515\n",
                     "disk-buffer(reliable(no) disk-buf-size(10485760))");
  g_autofree gchar *once = translate ("$ActionQueueFileName fwd\n*.* @@127.0.0.1:5515\n*.* @@127.0.0.1:5516\n", NULL);
  g_assert_nonnull (strstr (once, "disk-buf-size(1073741824)"));
  g_assert_null (strstr (strstr (once, "disk-buf-size(1073741824)") + 1, "disk-buffer"));
  assert_translates ("*.* action(type=\"omfwd\" target=\"h\" queue.type=\"Disk\" queue.maxDiskSpace=\"2G\")\n",
                     "disk-buffer(reliable(yes) disk-buf-size(2000000000))");
  assert_translates ("*.* action(type=\"omfwd\" target=\"h\" queue.type=\"LinkedList\" queue.size=\"10k\" "
                     "queue.discardSeverity=\"5\")\n",
                     "log-fifo-size(10240) discard-mark(9996) discard-level(\"5\")");
  g_autofree gchar *direct = translate ("*.* action(type=\"omfwd\" target=\"h\" queue.discardMark=\"9\" "
                                        "queue.discardSeverity=\"0\")\n", NULL);
  g_assert_null (strstr (direct, "discard-mark"));
  g_autofree gchar *no_severity = translate ("*.* action(type=\"omfwd\" target=\"h\" queue.type=\"LinkedList\" "
                                             "queue.discardMark=\"9\")\n", NULL);
  g_assert_null (strstr (no_severity, "discard-mark"));
  assert_translates ("*.* action(type=\"omfwd\" target=\"h\" queue.type=\"LinkedList\" queue.timeoutEnqueue=\"0\" "
                     "queue.workerThreads=\"4\" queue.dequeueBatchSize=\"2048\")\n", "network(");
  assert_refused ("*.* action(type=\"omfwd\" target=\"h\" queue.type=\"LinkedList\" queue.timeoutEnqueue=\"500\")\n",
                  ":1:", "waits so many milliseconds");
  assert_refused ("$ActionQueueType LinkedList\n$ActionQueueTimeoutEnqueue 100\n*.* @@h\n", ":2:1:",
                  "waits so many milliseconds");
  assert_refused ("*.* action(type=\"omfwd\" target=\"h\" queue.filename=\"q\" queue.saveOnShutdown=\"off\")\n", ":1:",
                  "loses it");
  assert_refused ("*.* action(type=\"omfwd\" target=\"h\" queue.size=\"lots\")\n", ":1:", "a number with k");
  assert_refused ("$ActionQueueNoSuchThing 1\n", ":1:1:", "'$ActionQueueNoSuchThing' is not supported");
  assert_refused ("*.* action(type=\"omfwd\" target=\"h\" action.errorFile=\"/tmp/e\")\n", ":1:", "errorFile");
  assert_translates ("$MainMsgQueueType LinkedList\n$MainMsgQueueSize 100000\n$MainMsgQueueDiscardMark 9000\n"
                     "$RepeatedMsgContainsOriginalMsg off\n*.* /a\n", "file(\"/a\"");
  assert_refused ("$MainMsgQueueType Disk\n", ":1:1:", "no main queue");
  assert_translates ("main_queue(queue.type=\"LinkedList\" queue.size=\"100000\" queue.fileName=\"mainq\" "
                     "queue.discardMark=\"90000\" queue.discardSeverity=\"8\")\n*.* /a\n", "file(\"/a\"");
  assert_refused ("main_queue(queue.type=\"Disk\")\n", ":1:12:", "no main queue");
  assert_refused ("main_queue(queue.discardSeverity=\"4\")\n", ":1:12:", "no main queue to discard from");
  assert_refused ("main_queue(queue.fileName=\"q\" queue.saveOnShutdown=\"on\")\n", ":1:", "across a stop");
}

/* omfile's zipLevel as gzip-level() (compared with rsyslogd by
 * tests/functional/test-rsyslog-more), and the parameters of omfile and
 * omfwd that map onto options */
static void
test_output_params (void)
{
  assert_translates ("*.* action(type=\"omfile\" file=\"/a\" zipLevel=\"0\" veryRobustZip=\"on\" fileOwnerNum=\"0\" "
                     "fileGroupNum=\"4\")\n",
                     "owner(\"0\") group(\"4\")");
  assert_translates ("*.* action(type=\"omfile\" file=\"/a\" zipLevel=\"6\" veryRobustZip=\"off\")\n", "gzip-level(6)");
  g_autofree gchar *level0 = translate ("*.* action(type=\"omfile\" file=\"/a\" zipLevel=\"0\")\n", NULL);
  g_assert_null (strstr (level0, "gzip-level"));
  assert_refused ("*.* action(type=\"omfile\" file=\"/a\" zipLevel=\"12\")\n", ":1:", "0 to 9");
  assert_translates ("*.* action(type=\"omfile\" file=\"/a\" sync=\"on\")\n", "fsync(yes)");
  g_autofree gchar *synced = translate ("$ActionFileEnableSync on\n*.* /a\n*.* -/b\n", NULL);
  g_assert_nonnull (strstr (synced, "file(\"/a\""));
  g_assert_nonnull (strstr (strstr (synced, "file(\"/a\""), "fsync(yes)"));
  g_assert_null (strstr (strstr (synced, "file(\"/b\""), "fsync(yes)"));
  g_autofree gchar *unsynced = translate ("*.* /a\n", NULL);
  g_assert_null (strstr (unsynced, "fsync"));
  assert_translates ("*.* action(type=\"omfwd\" target=\"h\" address=\"127.0.0.1\" keepAlive=\"on\" "
                     "rebindInterval=\"100\")\n",
                     "ip(\"127.0.0.1\")");
  assert_refused ("*.* action(type=\"omfwd\" target=\"h\" udp.sendToAll=\"on\")\n", ":1:", "first address");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* the modules plugins serve: the build's plugins first, as the
   * functional tests hand sluiced --module-path, then the installed ones */
  const gchar *build_path = g_getenv ("SL_MODULE_PATH");
  g_autofree gchar *module_path = build_path ? g_strconcat (build_path, G_SEARCHPATH_SEPARATOR_S, SL_MODULE_DIR, NULL)
                                             : g_strdup (SL_MODULE_DIR);
  g_assert_true (sl_plugins_load (module_path, SL_PLUGINS_ALL, NULL));
  g_test_add_func ("/rsyslog-config/selectors", test_selectors);
  g_test_add_func ("/rsyslog-config/global", test_global);
  g_test_add_func ("/rsyslog-config/property-filters", test_property_filters);
  g_test_add_func ("/rsyslog-config/rainerscript", test_rainerscript);
  g_test_add_func ("/rsyslog-config/templates", test_templates);
  g_test_add_func ("/rsyslog-config/member-names", test_member_names);
  g_test_add_func ("/rsyslog-config/lookup-tables", test_lookup_tables);
  g_test_add_func ("/rsyslog-config/comments", test_comments);
  g_test_add_func ("/rsyslog-config/continued-lines", test_continued_lines);
  g_test_add_func ("/rsyslog-config/include-folder", test_include_folder);
  g_test_add_func ("/rsyslog-config/modules", test_modules);
  g_test_add_func ("/rsyslog-config/privileges", test_privileges);
  g_test_add_func ("/rsyslog-config/tls", test_tls);
  g_test_add_func ("/rsyslog-config/flush-on-tx-end", test_flush_on_tx_end);
  g_test_add_func ("/rsyslog-config/imfile-imjournal", test_imfile_imjournal);
  g_test_add_func ("/rsyslog-config/other-modules", test_other_modules);
  g_test_add_func ("/rsyslog-config/modifiers", test_modifiers);
  g_test_add_func ("/rsyslog-config/backticks", test_backticks);
  g_test_add_func ("/rsyslog-config/languages", test_languages);
  g_test_add_func ("/rsyslog-config/immark", test_immark);
  g_test_add_func ("/rsyslog-config/repeated-messages", test_repeated_messages);
  g_test_add_func ("/rsyslog-config/flow-and-discards", test_flow_and_discards);
  g_test_add_func ("/rsyslog-config/queue-params", test_queue_params);
  g_test_add_func ("/rsyslog-config/output-params", test_output_params);
  return g_test_run ();
}
