/* SPDX-License-Identifier: GPL-2.0-or-later */
/* redis(): each message as one Redis command, as syslog-ng's redis()
 * sends it: command("LPUSH" "key-${HOST}" "${MESSAGE}"), every word a
 * template. On hiredis (Debian's libhiredis-dev), Redis's own C client:
 * its protocol writer and reply reader are the ones every Redis tool
 * uses. Commands are pipelined, written batch-lines() at a time, and the
 * next ones go out before the replies to the last came back, up to
 * max-in-flight() without their reply (SL_CAP_ANSWERS): a message is done
 * only once its reply came. An error reply that says the server is busy
 * or loading ends the session, and what has no reply yet is sent again
 * from that message on; any other error reply (a wrong type, an unknown
 * command) cannot succeed later, so that message is dropped and counted,
 * and the rest goes on. */
#include "plugins/destinations/redis/redis-rsyslog.h"
#include "core/config/error.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/plugin/plugin.h"
#include "core/stats.h"
#include "core/message/template.h"

#include <hiredis/hiredis.h>
#include <poll.h>
#include <string.h>

typedef struct
{
  SlDriver base;
  const gchar *host;
  gint port;
  const gchar *auth;
  GPtrArray *command;
  gint64 timeout_ms;
  gint batch_lines;
  GPtrArray *words;          /* SlTemplate * of command() */
  const SlTemplateEnv *env;
  redisContext *c;
  GString **rendered;        /* one buffer per word */
  const gchar **argv;
  gsize *argvlen;
  guint unanswered;          /* commands of this session without their reply yet */
  SlCounter *error_replies;
} RedisDestination;

static const SlOptionSpec redis_options[] = {
  { "host", SL_STRING (RedisDestination, host), "127.0.0.1", "the Redis server's name or address" },
  { "port", SL_INT (RedisDestination, port), "6379", "the Redis server's TCP port" },
  { "auth", SL_STRING (RedisDestination, auth), NULL, "the password sent with AUTH after connecting" },
  { "command", SL_LIST (RedisDestination, command), NULL,
    "the command and its arguments, each a template: command(\"LPUSH\" \"logs\" \"${MESSAGE}\")" },
  { "timeout", SL_DURATION (RedisDestination, timeout_ms), "10",
    "how long connecting, and a wait for a reply, may take; a bare number is seconds" },
  { "batch-lines", SL_INT (RedisDestination, batch_lines), "100",
    "most commands written at once (pipelined), each confirmed by its reply; max-in-flight() bounds those "
    "without one" },
  { NULL }
};

static gboolean
redis_init (SlDriver *d, GError **error)
{
  RedisDestination *self = (RedisDestination *) d;
  if (!self->command || !self->command->len)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos,
                        _("redis() needs command(), such as command(\"LPUSH\" \"logs\" \"${MESSAGE}\")"));
      return FALSE;
    }
  if (self->batch_lines < 1)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "batch-lines"),
                        _("batch-lines() must be at least 1, not %d"), self->batch_lines);
      return FALSE;
    }
  self->words = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_template_unref);
  for (guint i = 0; i < self->command->len; i++)
    {
      GError *template_error = NULL;
      SlTemplate *t = sl_template_compile (g_ptr_array_index (self->command, i), &template_error);
      if (!t)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "command"),
                            _("redis(): command() word %u: %s"), i + 1, template_error->message);
          g_error_free (template_error);
          return FALSE;
        }
      g_ptr_array_add (self->words, t);
    }
  guint n = self->words->len;
  self->rendered = g_new0 (GString *, n);
  for (guint i = 0; i < n; i++)
    self->rendered[i] = g_string_sized_new (64);
  self->argv = g_new0 (const gchar *, n);
  self->argvlen = g_new0 (gsize, n);
  self->env = sl_driver_template_env (d);
  self->error_replies = sl_stats_counter ("destination", d->id, d->klass->name, "error_replies");
  return TRUE;
}

static gboolean
reply_ok (RedisDestination *self, redisReply *reply, const gchar *what, GError **error)
{
  gboolean ok = reply && reply->type != REDIS_REPLY_ERROR;
  if (!ok)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("%s failed: %s"), what,
                 reply ? reply->str : self->c->errstr);
  if (reply)
    freeReplyObject (reply);
  return ok;
}

static void
redis_close (SlDriver *d)
{
  RedisDestination *self = (RedisDestination *) d;
  if (self->c)
    redisFree (self->c);
  self->c = NULL;
  self->unanswered = 0;
}

static gboolean
redis_open (SlDriver *d, GError **error)
{
  RedisDestination *self = (RedisDestination *) d;
  struct timeval timeout = { self->timeout_ms / 1000, (self->timeout_ms % 1000) * 1000 };
  self->c = redisConnectWithTimeout (self->host, self->port, timeout);
  if (!self->c || self->c->err)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("cannot connect to redis at %s:%d: %s"),
                   self->host, self->port, self->c ? self->c->errstr : g_strerror (ENOMEM));
      redis_close (d);
      return FALSE;
    }
  redisSetTimeout (self->c, timeout);
  redisEnableKeepAlive (self->c);
  if ((self->auth && !reply_ok (self, redisCommand (self->c, "AUTH %s", self->auth), "AUTH", error))
      || !reply_ok (self, redisCommand (self->c, "PING"), "PING", error))
    {
      redis_close (d);
      return FALSE;
    }
  return TRUE;
}

static gboolean
append_command (RedisDestination *self, const SlMessage *msg)
{
  for (guint i = 0; i < self->words->len; i++)
    {
      g_string_truncate (self->rendered[i], 0);
      sl_template_append (g_ptr_array_index (self->words, i), msg, self->env, self->rendered[i]);
      self->argv[i] = self->rendered[i]->str;
      self->argvlen[i] = self->rendered[i]->len;
    }
  return redisAppendCommandArgv (self->c, (int) self->words->len, self->argv, self->argvlen) == REDIS_OK;
}

/* Replies that say "not now" rather than "never". */
static gboolean
is_passing (const redisReply *reply)
{
  static const gchar *const passing[] = { "LOADING", "BUSY", "TRYAGAIN", "MASTERDOWN", "CLUSTERDOWN", "OOM", "READONLY" };
  for (guint i = 0; i < G_N_ELEMENTS (passing); i++)
    if (g_str_has_prefix (reply->str, passing[i]))
      return TRUE;
  return FALSE;
}

static SlWriteResult
connection_failed (RedisDestination *self, SlWriteBatch *batch)
{
  return sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, _("the connection to redis failed: %s"),
                              self->c->errstr);
}

/* TRUE when a reply has come that the reader does not hold yet. */
static gboolean
more_to_read (RedisDestination *self)
{
  struct pollfd p = { .fd = self->c->fd, .events = POLLIN };
  return poll (&p, 1, 0) > 0;
}

/* The next reply, or none (*reply NULL) when no more has come; with
 * wait, the first one is waited for, as long as timeout(). */
static gboolean
next_reply (RedisDestination *self, gboolean wait, redisReply **reply)
{
  *reply = NULL;
  if (wait)
    return redisGetReply (self->c, (void **) reply) == REDIS_OK && *reply;
  if (redisGetReplyFromReader (self->c, (void **) reply) != REDIS_OK)
    return FALSE;
  if (!*reply && more_to_read (self))
    return redisBufferRead (self->c) == REDIS_OK && redisGetReplyFromReader (self->c, (void **) reply) == REDIS_OK;
  return TRUE;
}

/* Settles the replies that came, oldest first, in batch->answered; with
 * wait, at least one. A reply that says "not now" ends the session. */
static SlWriteResult
take_replies (RedisDestination *self, SlWriteBatch *batch, gboolean wait)
{
  while (self->unanswered)
    {
      redisReply *reply;
      if (!next_reply (self, wait, &reply))
        return connection_failed (self, batch);
      if (!reply)
        break;
      wait = FALSE;
      if (reply->type == REDIS_REPLY_ERROR && is_passing (reply))
        {
          sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, _("redis answered %s"), reply->str);
          freeReplyObject (reply);
          redis_close (&self->base);
          return SL_WRITE_NOT_CONNECTED;
        }
      if (reply->type == REDIS_REPLY_ERROR)
        {
          sl_counter_add (self->error_replies, 1);
          if (sl_counter_get (self->error_replies) % 1000 == 1)
            sl_log (SL_LOG_ERROR, _("%s: redis refused a command, the message is dropped (logged the first "
                                    "time and then once per 1000); reply='%s'"), self->base.id, reply->str);
          batch->dropped++;
        }
      freeReplyObject (reply);
      self->unanswered--;
      batch->answered++;
    }
  return SL_WRITE_OK;
}

/* Writes what hiredis holds of the commands appended. */
static gboolean
send_appended (RedisDestination *self)
{
  int done = 0;
  while (!done)
    if (redisBufferWrite (self->c, &done) != REDIS_OK)
      return FALSE;
  return TRUE;
}

static SlWriteResult
redis_write (SlDriver *d, SlWriteBatch *batch)
{
  RedisDestination *self = (RedisDestination *) d;
  if (!batch->n)
    return take_replies (self, batch, TRUE);
  while (batch->done < batch->n)
    {
      guint k = MIN (batch->n - batch->done, (guint) self->batch_lines);
      for (guint i = 0; i < k; i++)
        if (!append_command (self, batch->msgs[batch->done + i]))
          return connection_failed (self, batch);
      if (!send_appended (self))
        return connection_failed (self, batch);
      batch->done += k;
      self->unanswered += k;
      SlWriteResult result = take_replies (self, batch, FALSE);
      if (result != SL_WRITE_OK)
        return result;
    }
  return SL_WRITE_OK;
}

static void
redis_free (SlDriver *d)
{
  RedisDestination *self = (RedisDestination *) d;
  redis_close (d);
  if (self->words)
    {
      for (guint i = 0; i < self->words->len; i++)
        g_string_free (self->rendered[i], TRUE);
      g_ptr_array_free (self->words, TRUE);
    }
  g_free (self->rendered);
  g_free (self->argv);
  g_free (self->argvlen);
}

static const SlDestinationOps redis_ops = {
  .open = redis_open,
  .write = redis_write,
  .close = redis_close,
};

static const SlDriverClass redis_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "redis",
  .summary = "each message as a Redis command (LPUSH, HSET, XADD, ...), pipelined and confirmed by its reply",
  .options = redis_options,
  .capabilities = SL_CAP_TEMPLATES | SL_CAP_WORKERS | SL_CAP_DISK_BUFFER | SL_CAP_ANSWERS,
  .instance_size = sizeof (RedisDestination),
  .init = redis_init,
  .free = redis_free,
  .ops.destination = &redis_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "redis",
  .drivers = (const SlDriverClass *const[]) { &redis_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &redis_omhiredis, NULL },
};
