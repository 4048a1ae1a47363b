/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An example plugin, written against the installed kit only: a filter,
 * sample(), that passes one message in every rate(), and a destination,
 * line-file(), that appends each message, rendered by its template, to a
 * file. doc/plugin-guide.md walks through it. */
#include <sluice/plugin.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* sample(rate(N)): every Nth message passes. */

typedef struct
{
  SlDriver super;
  gint rate;
  gint seen;
} Sample;

static const SlOptionSpec sample_options[] = {
  { "rate", SL_INT (Sample, rate), "10", "one message in this many passes", .flags = SL_OPT_POSITIONAL },
  { NULL }
};

static gboolean
sample_init (SlDriver *d, GError **error)
{
  Sample *self = (Sample *) d;
  if (self->rate < 1)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "rate"),
                        _("sample() needs a rate of at least 1, not %d"), self->rate);
      return FALSE;
    }
  return TRUE;
}

/* Filters of a path run on the thread that read the message: several at
 * once when several connections are read, hence the atomic counter. */
static gboolean
sample_match (SlDriver *d, const SlMessage *msg)
{
  Sample *self = (Sample *) d;
  return g_atomic_int_add (&self->seen, 1) % self->rate == 0;
}

static const SlFilterOps sample_ops = { .match = sample_match };

static const SlDriverClass sample_class = {
  .kind = SL_DRIVER_FILTER,
  .name = "sample",
  .summary = "passes one message in every rate()",
  .options = sample_options,
  .instance_size = sizeof (Sample),
  .init = sample_init,
  .ops.filter = &sample_ops,
};

/* line-file("PATH" template("...")): one line per message. */

typedef struct
{
  SlDriver super;
  const gchar *path;
  SlTemplate *template;
  gint fd;
  GString *out;
} LineFile;

static const SlOptionSpec line_file_options[] = {
  { "path", SL_STRING (LineFile, path), NULL, "the file to append to", .flags = SL_OPT_POSITIONAL },
  { "template", SL_TEMPLATE (LineFile, template), "${ISODATE} ${HOST} ${MSGHDR}${MESSAGE}\n",
    "what each message is written as" },
  { NULL }
};

static gboolean
line_file_init (SlDriver *d, GError **error)
{
  LineFile *self = (LineFile *) d;
  if (!self->path)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos,
                        _("line-file() needs the file's path, as in line-file(\"/tmp/x\")"));
      return FALSE;
    }
  self->fd = -1;
  self->out = g_string_sized_new (64 * 1024);
  return TRUE;
}

static gboolean
line_file_open (SlDriver *d, GError **error)
{
  LineFile *self = (LineFile *) d;
  self->fd = open (self->path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (self->fd < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "%s: %s", self->path, g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

/* The whole batch in one write(); what did not make it is retried after
 * time-reopen(), so a full disk holds the messages instead of losing them. */
static SlWriteResult
line_file_write (SlDriver *d, SlWriteBatch *batch)
{
  LineFile *self = (LineFile *) d;
  const SlTemplateEnv *env = sl_driver_template_env (d);
  g_string_truncate (self->out, 0);
  for (guint i = 0; i < batch->n; i++)
    sl_template_append (self->template, batch->msgs[i], env, self->out);
  gssize written = write (self->fd, self->out->str, self->out->len);
  if (written < 0)
    return sl_write_batch_fail (batch, SL_WRITE_RETRY, errno, _("cannot write to %s"), self->path);
  if (written != (gssize) self->out->len)
    return sl_write_batch_fail (batch, SL_WRITE_RETRY, 0, _("short write to %s"), self->path);
  batch->done = batch->n;
  return SL_WRITE_OK;
}

static void
line_file_close (SlDriver *d)
{
  LineFile *self = (LineFile *) d;
  close (self->fd);
  self->fd = -1;
}

static void
line_file_free (SlDriver *d)
{
  LineFile *self = (LineFile *) d;
  if (self->out)
    g_string_free (self->out, TRUE);
}

static const SlDestinationOps line_file_ops = {
  .open = line_file_open,
  .write = line_file_write,
  .close = line_file_close,
};

static const SlDriverClass line_file_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "line-file",
  .summary = "appends one line per message to a file",
  .options = line_file_options,
  .capabilities = SL_CAP_TEMPLATES,
  .instance_size = sizeof (LineFile),
  .init = line_file_init,
  .free = line_file_free,
  .ops.destination = &line_file_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "example",
  .drivers = (const SlDriverClass *const[]) { &sample_class, &line_file_class, NULL },
};
