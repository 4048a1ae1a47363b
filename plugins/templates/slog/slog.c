/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(slog --key-file FILE --mac-file FILE TEMPLATE), syslog-ng's secure
 * logging: each message's text encrypted under a key used for it alone,
 * with the MAC of the whole log aggregated in the MAC file, so that
 * syslog-ng's slogverify (with the host key slogkey -d made) tells a log
 * whole, or shows what was changed or cut out. After each message the key
 * is evolved and the key and MAC files written anew: what was logged
 * before cannot be read or changed with what the host keeps.
 *
 * When the key file is not a host key, syslog-ng warns and writes each
 * message in clear text, and so does Sluice: a configuration 4.8 takes
 * loads, and the warning says what is written. syslog-ng also drops what
 * the template writes before $(slog) and ignores arguments after the
 * first; Sluice keeps the one and refuses the other. */
#include "plugins/templates/slog/slog-crypto.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/plugin/plugin.h"
#include "core/message/scratch.h"
#include "core/message/template.h"

#include <string.h>

typedef struct
{
  gchar *key_path;
  gchar *mac_path;
  gint arg;                /* the argument that is the text */
  SlogCrypto *crypto;
  GMutex lock;             /* templates are rendered on many threads */
  guint8 key[SLOG_KEY_LENGTH];
  guint8 mac[SLOG_MAC_LENGTH];
  guint64 counter;         /* messages written with this key file */
  gboolean clear;          /* no host key: the text as it is */
} SlogState;

static GPrivate text_key = SL_SCRATCH_INIT;

static void
slog_state_free (gpointer data)
{
  SlogState *s = data;
  if (!s)
    return;
  memset (s->key, 0, sizeof s->key);
  if (s->crypto)
    slog_crypto_free (s->crypto);
  g_mutex_clear (&s->lock);
  g_free (s->key_path);
  g_free (s->mac_path);
  g_free (s);
}

/* -k FILE, --key-file FILE or --key-file=FILE, as GOption reads them:
 * the value, or NULL when args[*i] is not this option (*i moves past it). */
static const gchar *
option_value (const SlTfCall *call, gint *i, gchar short_name, const gchar *long_name)
{
  const gchar *arg = call->args[*i];
  gsize long_len = strlen (long_name);
  if (strncmp (arg, "--", 2) == 0 && strncmp (arg + 2, long_name, long_len) == 0 && arg[2 + long_len] == '=')
    return arg + 3 + long_len;
  gboolean named = (arg[0] == '-' && arg[1] == short_name && !arg[2])
                   || (strncmp (arg, "--", 2) == 0 && strcmp (arg + 2, long_name) == 0);
  if (!named || *i + 1 >= call->argc)
    return NULL;
  return call->args[++*i];
}

static gboolean
usage (GError **error)
{
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
               _("$(slog) takes --key-file FILE --mac-file FILE and one template, e.g. "
                 "$(slog --key-file /etc/syslog-ng/host.key --mac-file /var/log/mac.dat $RAWMSG)"));
  return FALSE;
}

static gboolean
slog_prepare (SlTfCall *call, GError **error)
{
  g_autoptr (GPtrArray) texts = g_ptr_array_new ();
  SlogState *s = g_new0 (SlogState, 1);
  g_mutex_init (&s->lock);
  call->state = s;

  for (gint i = 0; i < call->argc; i++)
    {
      const gchar *value;
      gchar **path = NULL;
      if ((value = option_value (call, &i, 'k', "key-file")))
        path = &s->key_path;
      else if ((value = option_value (call, &i, 'm', "mac-file")))
        path = &s->mac_path;
      if (path)
        {
          g_free (*path);
          *path = g_strdup (value);
        }
      else if (call->args[i][0] == '-' && call->args[i][1])
        return usage (error);
      else
        {
          s->arg = i;
          g_ptr_array_add (texts, call->args[i]);
        }
    }
  if (!s->key_path || !s->mac_path || texts->len != 1)
    return usage (error);
  s->crypto = slog_crypto_new ();
  if (!s->crypto)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("$(slog): OpenSSL has no AES-256-GCM or CMAC"));
      return FALSE;
    }
  if (!slog_key_read (s->crypto, s->key_path, s->key, &s->counter))
    {
      sl_log (SL_LOG_WARNING,
              _("$(slog): %s is not a host key that can be read (slogkey -d makes one): messages are written in "
                "clear text, as syslog-ng writes them"), s->key_path);
      s->clear = TRUE;
      return TRUE;
    }
  if (!slog_mac_read (s->crypto, s->mac_path, s->mac) && s->counter > 0)
    sl_log (SL_LOG_WARNING, _("$(slog): the MAC file %s is missing or damaged after %" G_GUINT64_FORMAT
                              " messages: the log can no longer be verified whole"), s->mac_path, s->counter);
  return TRUE;
}

static void
slog_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  static const gchar empty[] = "[SLOG] ERROR: String of length 0 received";
  SlogState *s = call->state;
  if (s->clear)
    {
      sl_template_append (call->arg_templates[s->arg], msg, env, out);
      return;
    }
  GString *text = sl_scratch_push (&text_key);
  g_autoptr (GError) error = NULL;

  sl_template_append (call->arg_templates[s->arg], msg, env, text);
  if (!text->len)
    g_string_assign (text, empty);
  g_mutex_lock (&s->lock);
  if (!slog_entry (s->crypto, s->counter, s->key, text->str, text->len, s->mac, out))
    sl_log (SL_LOG_ERROR, _("$(slog): no random bytes for message %" G_GUINT64_FORMAT ": it is not written"),
            s->counter);
  slog_key_evolve (s->crypto, s->key);
  s->counter++;
  if (!slog_key_write (s->crypto, s->key_path, s->key, s->counter, &error)
      || !slog_mac_write (s->crypto, s->mac_path, s->mac, &error))
    sl_log (SL_LOG_ERROR, _("$(slog): cannot keep the key and MAC of message %" G_GUINT64_FORMAT ": %s"),
            s->counter - 1, error->message);
  g_mutex_unlock (&s->lock);
  sl_scratch_pop (&text_key);
}

static const SlTemplateFunctionOps slog_ops = { .prepare = slog_prepare, .eval = slog_eval, .free = slog_state_free };

static const SlDriverClass slog_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "slog",
  .summary = "a message encrypted for syslog-ng's slogverify: $(slog --key-file FILE --mac-file FILE TEMPLATE)",
  .ops.template_function = &slog_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "slog",
  .drivers = (const SlDriverClass *const[]) { &slog_class, NULL },
};
