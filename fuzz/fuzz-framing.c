/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as a TCP peer would send them, through the
 * stream reader's framing (newline, and RFC 6587 octet counting with its
 * fall-back to newlines), the syslog format and the routing of a real
 * configuration. The first byte chooses the framing and the source: one
 * with the defaults, or rsyslog's (64-byte lines split as imtcp splits
 * them, control characters escaped); the rest goes down a socket pair
 * whose other end is then closed. */
#include "core/compile/config-private.h"
#include "core/compile/config-run.h"
#include "core/compile/loader.h"
#include "core/plugin/plugin.h"
#include "core/route/source-private.h"
#include "core/io/stream.h"

#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

extern const SlModule sl_module;

static SlSource *sources[2];

static gboolean
fuzz_start (SlDriver *d, SlSource *src, GError **error)
{
  sources[sources[0] ? 1 : 0] = src;
  return TRUE;
}

static const SlDriverClass fuzz_source_class = {
  .kind = SL_DRIVER_SOURCE, .name = "fuzz-input", .capabilities = SL_CAP_PARSES | SL_CAP_CONNECTIONS,
  .instance_size = sizeof (SlDriver), .ops.source = &(const SlSourceOps) { .start = fuzz_start },
};

static const SlModule fuzz_module = {
  SL_ABI_VERSION, "fuzz-framing", (const SlDriverClass *const[]) { &fuzz_source_class, NULL },
};

/* The input goes to the configuration's source, whose path ends in a
 * destination that nothing starts: routing runs, nothing is written. */
static void
set_up (void)
{
  if (!sl_plugins_register (&sl_module, __FILE__, NULL) || !sl_plugins_register (&fuzz_module, __FILE__, NULL))
    abort ();
  static SlConfig *cfg;
  cfg = sl_config_load_string ("source s { fuzz-input(log-msg-size(8192)); };\n"
                               "source r { fuzz-input(log-msg-size(64) trim-large-messages(rsyslog) "
                               "escape-control-chars(yes) flags(detect-syslog-protocol)); };\n"
                               "log { source(s); source(r); if (\"${LEVEL_NUM}\" <= 3) { flags(final); }; };\n",
                               "fuzz.conf", NULL);
  if (!cfg || !sl_config_start (cfg, NULL) || !sources[1])
    abort ();
}

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  if (!sources[1])
    set_up ();
  if (size < 1 || size > 1 << 16)
    return 0;
  gint fds[2];
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
    abort ();
  gint rcvbuf = 1 << 20;
  setsockopt (fds[0], SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
  setsockopt (fds[1], SOL_SOCKET, SO_SNDBUF, &rcvbuf, sizeof rcvbuf);
  SlStreamFraming framing = data[0] & 1 ? SL_STREAM_FRAME_OCTET_COUNT : SL_STREAM_FRAME_NEWLINE;
  if (write (fds[1], data + 1, size - 1) != (gssize) (size - 1))
    abort ();
  close (fds[1]);
  SlStreamReader *r = sl_stream_reader_new (sources[(data[0] >> 1) & 1], fds[0], "192.0.2.1", framing);
  while (sl_stream_reader_pump (r, 4) != SL_STREAM_END)
    ;
  sl_stream_reader_free (r);
  close (fds[0]);
  return 0;
}
