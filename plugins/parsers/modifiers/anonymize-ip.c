/* SPDX-License-Identifier: GPL-2.0-or-later */
/* anonymize-ip(): the IPv4 addresses in MESSAGE with their last bits()
 * zeroed, made random, made random the same way for each address
 * (random-consistent), or their last octets' digits replaced (simple),
 * found and written as rsyslog 8.2302's mmanon finds and writes them: four
 * octets of one to three digits each, 255 at most, wherever they start
 * (999.1.1.1 holds 99.1.1.1); an address changed by a number is written
 * again in plain decimal (01.02.03.04 becomes 1.2.0.0). */
#include "plugins/parsers/modifiers/modifiers.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message.h"

#include <string.h>

enum
{
  ANON_ZERO,
  ANON_RANDOM,
  ANON_RANDOM_CONSISTENT,
  ANON_SIMPLE,
};

/* random-consistent forgets what it chose past this many addresses:
 * every address a sender invents would otherwise be kept */
#define CONSISTENT_MAX 65536

typedef struct
{
  SlDriver base;
  gint mode;
  gint bits;
  const gchar *replacement;
  GMutex lock;
  GHashTable *chosen;   /* address -> its replacement, random-consistent */
} AnonymizeIp;

static const SlOptionWord mode_words[] = {
  { "zero", ANON_ZERO }, { "random", ANON_RANDOM }, { "random-consistent", ANON_RANDOM_CONSISTENT },
  { "simple", ANON_SIMPLE }, { NULL }
};

static const SlOptionSpec anonymize_ip_options[] = {
  { "mode", SL_CHOICE (AnonymizeIp, mode), "zero",
    "zero, random, random-consistent (the same replacement for the same address), or simple (digits replaced)",
    .words = mode_words },
  { "bits", SL_INT (AnonymizeIp, bits), "16", "how many of the address's last bits change (simple: 8, 16, 24 or 32)",
    SL_RANGE (1, 32) },
  { "replacement", SL_STRING (AnonymizeIp, replacement), "x", "the character of simple mode's digits" },
  { NULL }
};

/* An octet at p: one to three digits, at most 255; its length, 0 if none */
static gsize
octet_at (const gchar *p, const gchar *end, guint *value)
{
  gsize n = 0;

  *value = 0;
  while (p + n < end && g_ascii_isdigit (p[n]))
    {
      *value = *value * 10 + (guint) (p[n] - '0');
      if (++n > 3)
        return 0;
    }
  return *value <= 255 ? n : 0;
}

/* An address at p: its length, 0 if none; where each octet starts */
static gsize
address_at (const gchar *p, const gchar *end, guint32 *address, gsize starts[4])
{
  gsize at = 0;

  *address = 0;
  for (guint i = 0; i < 4; i++)
    {
      guint value;
      if (i > 0)
        {
          if (p + at >= end || p[at] != '.')
            return 0;
          at++;
        }
      gsize n = octet_at (p + at, end, &value);
      if (!n)
        return 0;
      starts[i] = at;
      *address = (*address << 8) | value;
      at += n;
    }
  return at;
}

static guint32
replacement_of (AnonymizeIp *anon, guint32 address)
{
  guint32 low = anon->bits == 32 ? G_MAXUINT32 : (1u << anon->bits) - 1;

  if (anon->mode == ANON_ZERO)
    return address & ~low;
  if (anon->mode == ANON_RANDOM)
    return (address & ~low) | (g_random_int () & low);
  g_mutex_lock (&anon->lock);
  gpointer known;
  guint32 chosen;
  if (g_hash_table_lookup_extended (anon->chosen, GUINT_TO_POINTER (address), NULL, &known))
    chosen = GPOINTER_TO_UINT (known);
  else
    {
      chosen = (address & ~low) | (g_random_int () & low);
      if (g_hash_table_size (anon->chosen) >= CONSISTENT_MAX)
        g_hash_table_remove_all (anon->chosen);
      g_hash_table_insert (anon->chosen, GUINT_TO_POINTER (address), GUINT_TO_POINTER (chosen));
    }
  g_mutex_unlock (&anon->lock);
  return chosen;
}

static void
append_simple (AnonymizeIp *anon, GString *out, const gchar *p, gsize len, const gsize starts[4])
{
  guint kept = 4 - (guint) anon->bits / 8;

  for (gsize i = 0; i < len; i++)
    {
      gboolean changed = g_ascii_isdigit (p[i]) && (kept == 0 || i >= starts[kept]);
      g_string_append_c (out, changed ? anon->replacement[0] : p[i]);
    }
}

static gboolean
anonymize_ip_init (SlDriver *self, GError **error)
{
  AnonymizeIp *anon = (AnonymizeIp *) self;

  if (strlen (anon->replacement) != 1)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (self->options, "replacement"),
                        _("replacement() takes one character, not '%s'"), anon->replacement);
      return FALSE;
    }
  if (anon->mode == ANON_SIMPLE && anon->bits % 8)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (self->options, "bits"),
                        _("simple mode replaces whole octets: bits() takes 8, 16, 24 or 32, not %d"), anon->bits);
      return FALSE;
    }
  g_mutex_init (&anon->lock);
  anon->chosen = g_hash_table_new (NULL, NULL);
  return TRUE;
}

static gboolean
anonymize_ip_process (SlDriver *self, SlMessage **msg)
{
  AnonymizeIp *anon = (AnonymizeIp *) self;
  gsize len;
  const gchar *text = sl_message_get (*msg, SL_F_MESSAGE, &len);
  const gchar *end = text + len;
  g_autoptr (GString) out = NULL;
  const gchar *copied = text;

  for (const gchar *p = text; text && p < end;)
    {
      guint32 address;
      gsize starts[4];
      gsize n = g_ascii_isdigit (*p) ? address_at (p, end, &address, starts) : 0;
      if (!n)
        {
          p++;
          continue;
        }
      if (!out)
        out = g_string_sized_new (len + 16);
      g_string_append_len (out, copied, p - copied);
      if (anon->mode == ANON_SIMPLE)
        append_simple (anon, out, p, n, starts);
      else
        {
          guint32 r = replacement_of (anon, address);
          g_string_append_printf (out, "%u.%u.%u.%u", r >> 24, (r >> 16) & 0xff, (r >> 8) & 0xff, r & 0xff);
        }
      p += n;
      copied = p;
    }
  if (out)
    {
      g_string_append_len (out, copied, end - copied);
      sl_message_make_writable (msg);
      sl_message_set (*msg, SL_F_MESSAGE, out->str, (gssize) out->len);
    }
  return TRUE;
}

static void
anonymize_ip_free (SlDriver *self)
{
  AnonymizeIp *anon = (AnonymizeIp *) self;

  if (anon->chosen)
    {
      g_hash_table_unref (anon->chosen);
      g_mutex_clear (&anon->lock);
    }
}

static const SlParserOps anonymize_ip_ops = { .process = anonymize_ip_process };

const SlDriverClass anonymize_ip_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "anonymize-ip",
  .summary = "zeroes or randomizes the last bits of the IPv4 addresses in MESSAGE, as rsyslog's mmanon",
  .options = anonymize_ip_options,
  .instance_size = sizeof (AnonymizeIp),
  .init = anonymize_ip_init,
  .free = anonymize_ip_free,
  .ops.parser = &anonymize_ip_ops,
};
