/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SlSession through the real listener: a source of this test serves
 * loopback connections with session callbacks that echo what they read;
 * the listener opens them with the peer's address, makes room at
 * max-connections() by ending a session's thread, and at a stop cancels
 * a session that waits. */
#include "core/compile/config.h"
#include "core/compile/loader.h"
#include "core/compile/config-run.h"
#include "core/io/listener.h"
#include "core/plugin/plugin.h"
#include "core/io/session.h"
#include "core/route/source.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define DEADLINE_MS 10000

static gint listen_fd = -1;
static guint16 port;

static GMutex lock;
static GCond changed;
static guint opened, closed, cancelled;
static gchar *last_peer;
static gboolean hold;      /* readable waits until cancelled */
static gboolean complete;  /* what comes is a complete message */

typedef struct
{
  gboolean cancelled;
} EchoState;

static gpointer
echo_opened (SlSession *s, gpointer data)
{
  g_mutex_lock (&lock);
  opened++;
  g_free (last_peer);
  last_peer = g_strdup (sl_session_peer (s));
  g_cond_broadcast (&changed);
  g_mutex_unlock (&lock);
  return g_new0 (EchoState, 1);
}

static gboolean
echo_readable (SlSession *s, gpointer state, const gchar *buf, gsize len, gboolean more)
{
  EchoState *e = state;
  g_mutex_lock (&lock);
  if (hold)
    {
      sl_session_waiting (s, TRUE);
      while (!e->cancelled)
        g_cond_wait (&changed, &lock);
    }
  gboolean go_on = !e->cancelled;
  gboolean message = complete;
  g_mutex_unlock (&lock);
  if (message)
    sl_session_message (s);
  return go_on && sl_session_write (s, buf, len);
}

static void
echo_closed (SlSession *s, gpointer state)
{
  g_mutex_lock (&lock);
  closed++;
  g_cond_broadcast (&changed);
  g_mutex_unlock (&lock);
  g_free (state);
}

static void
echo_cancel (SlSession *s, gpointer state)
{
  g_mutex_lock (&lock);
  ((EchoState *) state)->cancelled = TRUE;
  cancelled++;
  g_cond_broadcast (&changed);
  g_mutex_unlock (&lock);
}

static const SlSessionOps echo_ops = {
  .opened = echo_opened,
  .readable = echo_readable,
  .closed = echo_closed,
  .cancel = echo_cancel,
};

typedef struct
{
  SlDriver super;
  SlListener *listener;
} EchoSource;

static gboolean
echo_start (SlDriver *d, SlSource *src, GError **error)
{
  SlListenerSettings settings = {
    .max_connections = sl_source_max_connections (src),
    .session = &echo_ops,
  };
  ((EchoSource *) d)->listener = sl_listener_start (src, dup (listen_fd), &settings, error);
  return ((EchoSource *) d)->listener != NULL;
}

static void
echo_stop (SlDriver *d)
{
  g_clear_pointer (&((EchoSource *) d)->listener, sl_listener_stop);
}

static const SlDriverClass echo_class = {
  .kind = SL_DRIVER_SOURCE, .name = "echo", .capabilities = SL_CAP_CONNECTIONS,
  .instance_size = sizeof (EchoSource), .ops.source = &(const SlSourceOps) { .start = echo_start, .stop = echo_stop },
};
static const SlModule test_module = {
  SL_ABI_VERSION, "session-test", (const SlDriverClass *const[]) { &echo_class, NULL },
};

static SlConfig *
start (const gchar *options)
{
  g_mutex_lock (&lock);
  opened = closed = cancelled = 0;
  hold = FALSE;
  complete = TRUE;
  g_mutex_unlock (&lock);
  g_autofree gchar *text = g_strdup_printf ("source s { echo(%s); };\nlog { source(s); };\n", options);
  GError *error = NULL;
  SlConfig *cfg = sl_config_load_string (text, "session.conf", &error);
  g_assert_no_error (error);
  g_assert_true (sl_config_start (cfg, &error));
  g_assert_no_error (error);
  return cfg;
}

static void
stop (SlConfig *cfg)
{
  sl_config_stop (cfg);
  sl_config_free (cfg);
}

static gint
connect_loopback (void)
{
  gint fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons (port), .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  g_assert_cmpint (connect (fd, (struct sockaddr *) &sa, sizeof sa), ==, 0);
  return fd;
}

/* What the peer reads within the deadline: "" once it was closed. */
static gchar *
read_some (gint fd)
{
  struct pollfd p = { fd, POLLIN, 0 };
  g_assert_cmpint (poll (&p, 1, DEADLINE_MS), ==, 1);
  gchar buf[256];
  gssize n = read (fd, buf, sizeof buf);
  return g_strndup (buf, n > 0 ? (gsize) n : 0);
}

static void
wait_count (guint *counter, guint n)
{
  gint64 end = g_get_monotonic_time () + DEADLINE_MS * 1000;
  g_mutex_lock (&lock);
  while (*counter < n)
    g_assert_true (g_cond_wait_until (&changed, &lock, end));
  g_mutex_unlock (&lock);
}

/* opened with the peer's address, what it sent comes back, closed once
 * the peer left. */
static void
test_echo (void)
{
  SlConfig *cfg = start ("");
  gint fd = connect_loopback ();
  g_assert_cmpint (write (fd, "hello", 5), ==, 5);
  g_autofree gchar *got = read_some (fd);
  g_assert_cmpstr (got, ==, "hello");
  g_mutex_lock (&lock);
  g_assert_cmpuint (opened, ==, 1);
  g_assert_cmpstr (last_peer, ==, "127.0.0.1");
  g_mutex_unlock (&lock);
  close (fd);
  wait_count (&closed, 1);
  stop (cfg);
}

/* At max-connections(1) a newcomer takes the place of a session that
 * never completed a message: the listener ends that session's thread. */
static void
test_makes_room (void)
{
  SlConfig *cfg = start ("max-connections(1)");
  g_mutex_lock (&lock);
  complete = FALSE;
  g_mutex_unlock (&lock);
  gint first = connect_loopback ();
  g_assert_cmpint (write (first, "a", 1), ==, 1);
  g_autofree gchar *echoed = read_some (first);
  g_assert_cmpstr (echoed, ==, "a");
  g_usleep (100 * 1000);
  gint second = connect_loopback ();
  g_assert_cmpint (write (second, "b", 1), ==, 1);
  g_autofree gchar *ended = read_some (first);
  g_assert_cmpstr (ended, ==, "");
  g_autofree gchar *got = read_some (second);
  g_assert_cmpstr (got, ==, "b");
  wait_count (&closed, 1);
  close (first);
  close (second);
  stop (cfg);
}

/* A session waiting in readable is cancelled by the stop, which then
 * completes. */
static void
test_stop_cancels (void)
{
  SlConfig *cfg = start ("");
  g_mutex_lock (&lock);
  hold = TRUE;
  g_mutex_unlock (&lock);
  gint fd = connect_loopback ();
  g_assert_cmpint (write (fd, "x", 1), ==, 1);
  wait_count (&opened, 1);
  stop (cfg);
  g_mutex_lock (&lock);
  g_assert_cmpuint (cancelled, ==, 1);
  g_assert_cmpuint (closed, ==, 1);
  g_mutex_unlock (&lock);
  g_autofree gchar *got = read_some (fd);
  g_assert_cmpstr (got, ==, "");
  close (fd);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  listen_fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t len = sizeof sa;
  g_assert_cmpint (bind (listen_fd, (struct sockaddr *) &sa, sizeof sa), ==, 0);
  g_assert_cmpint (listen (listen_fd, 16), ==, 0);
  g_assert_cmpint (getsockname (listen_fd, (struct sockaddr *) &sa, &len), ==, 0);
  port = ntohs (sa.sin_port);
  g_assert_true (sl_plugins_register (&test_module, __FILE__, NULL));
  g_test_add_func ("/session/echo", test_echo);
  g_test_add_func ("/session/makes-room", test_makes_room);
  g_test_add_func ("/session/stop-cancels", test_stop_cancels);
  gint rc = g_test_run ();
  close (listen_fd);
  return rc;
}
