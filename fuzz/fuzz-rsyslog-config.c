/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as an rsyslog configuration file through
 * the rsyslog front end (legacy lines, $ directives, RainerScript) into
 * Sluice's tree; errors are expected, crashes and leaks are not. The
 * front end reads files, so each input is written to one temporary file. */
#include "daemon/rsyslog/rsyslog.h"

#include "core/compile/loader.h"
#include "fuzz/fuzz-file.h"
#include "plugins/destinations/file/file-rsyslog.h"
#include "plugins/destinations/http/http-destination.h"
#include "plugins/destinations/network/network-rsyslog.h"
#include "plugins/destinations/pipe/pipe-rsyslog.h"
#include "plugins/destinations/program/program-rsyslog.h"
#include "plugins/destinations/redis/redis-rsyslog.h"
#include "plugins/destinations/smtp/smtp-rsyslog.h"
#include "plugins/destinations/snmp/snmp-rsyslog.h"
#include "plugins/destinations/sql/sql-rsyslog.h"
#include "plugins/destinations/stdout/stdout-rsyslog.h"
#include "plugins/destinations/usertty/usertty-rsyslog.h"
#include "plugins/parsers/json/json-rsyslog.h"
#include "plugins/parsers/lognorm/lognorm-rsyslog.h"
#include "plugins/parsers/modifiers/modifiers.h"
#include "plugins/parsers/syslog/syslog-private.h"
#include "plugins/protocols/kafka/kafka-private.h"
#include "plugins/protocols/kafka/kafka-source-rsyslog.h"
#include "plugins/protocols/relp/relp-module.h"
#include "plugins/sources/file/file-source-rsyslog.h"
#include "plugins/sources/net/net-rsyslog.h"
#include "plugins/sources/unix/unix-rsyslog.h"

#include <stdlib.h>

/* The plugins' mappings of rsyslog's modules, compiled into the target
 * (fuzz/run links one static binary: a plugin loaded from a build would
 * bring a libsluice and a registry of its own), registered as sluiced
 * registers them from the plugins it loads. */
static const SlModule mappings = {
  .abi_version = SL_ABI_VERSION,
  .name = "fuzz-rsyslog-mappings",
  .drivers = (const SlDriverClass *const[]) { NULL },
  .rsyslog_modules = (const SlRsModule *const[]) {
    &file_omfile, &http_omelasticsearch, &http_omhttp, &network_omfwd, &network_omuxsock, &pipe_ompipe,
    &program_omprog, &redis_omhiredis, &smtp_ommail, &snmp_omsnmp, &sql_ommysql, &sql_ompgsql, &stdout_omstdout,
    &usertty_omusrmsg, &json_mmjsonparse, &lognorm_mmnormalize, &modifiers_mmutf8fix, &modifiers_mmanon,
    &modifiers_mmfields, &syslog_mmpstrucdata, &kafka_omkafka, &kafka_imkafka, &relp_omrelp, &relp_imrelp,
    &net_imudp, &net_imtcp, &net_imptcp, &unix_imuxsock, &file_imfile, NULL,
  },
};

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  if (!sl_plugins_register (&mappings, __FILE__, NULL))
    abort ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  const gchar *path = sl_fuzz_write_file ("fuzz-rsyslog-XXXXXX.conf", data, size);
  if (!path)
    return 0;
  GError *error = NULL;
  SlCfgNode *root = sl_cfg_rsyslog_parse_file (path, &error);
  if (root)
    sl_cfg_node_free (root);
  g_clear_error (&error);
  return 0;
}
