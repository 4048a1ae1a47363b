/* SPDX-License-Identifier: GPL-2.0-or-later */
/* anonymize-ip(): the IPv4 and IPv6 addresses in MESSAGE (and IPv6 ones
 * ending in an IPv4 address, embedded) with their last bits zeroed, made
 * random, or made random the same way for each address
 * (random-consistent); IPv4 ones also with their last octets' digits
 * replaced (simple). Found (anon-scan.c) and written as rsyslog 8.2302's
 * mmanon finds and writes them: at each place an embedded address is
 * tried first, then IPv6, then IPv4; a changed address is written again
 * in full (01.02.03.04 becomes 1.2.0.0, 2001:db8::1 2001:db8:0:0:0:0:0:0). */
#include "plugins/parsers/modifiers/modifiers.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/message.h"

#include <string.h>

enum
{
  ANON_ZERO,
  ANON_RANDOM,
  ANON_RANDOM_CONSISTENT,
  ANON_SIMPLE,
};

/* random-consistent forgets what it chose past this many addresses of a
 * kind: every address a sender invents would otherwise be kept */
#define CONSISTENT_MAX 65536

/* IPv4, IPv6, embedded: how one kind is changed */
typedef struct
{
  gboolean on;
  gint mode;
  gint bits;
  GHashTable *chosen;   /* the address's groups as text -> its replacement's */
} AnonKind;

typedef struct
{
  SlDriver base;
  AnonKind kind[3];
  const gchar *replacement;
  GMutex lock;
} AnonymizeIp;

enum
{
  KIND_IPV4,
  KIND_IPV6,
  KIND_EMBEDDED,
};

static const SlOptionWord mode_words[] = {
  { "zero", ANON_ZERO }, { "random", ANON_RANDOM }, { "random-consistent", ANON_RANDOM_CONSISTENT },
  { "simple", ANON_SIMPLE }, { NULL }
};

static const SlOptionSpec anonymize_ip_options[] = {
  { "ipv4", SL_BOOL (AnonymizeIp, kind[KIND_IPV4].on), "yes", "IPv4 addresses are anonymized" },
  { "mode", SL_CHOICE (AnonymizeIp, kind[KIND_IPV4].mode), "zero",
    "IPv4: zero, random, random-consistent (the same replacement for the same address), or simple (digits replaced)",
    .words = mode_words },
  { "bits", SL_INT (AnonymizeIp, kind[KIND_IPV4].bits), "16",
    "how many of an IPv4 address's last bits change (simple: 8, 16, 24 or 32)", SL_RANGE (1, 32) },
  { "replacement", SL_STRING (AnonymizeIp, replacement), "x", "the character of simple mode's digits" },
  { "ipv6", SL_BOOL (AnonymizeIp, kind[KIND_IPV6].on), "yes", "IPv6 addresses are anonymized" },
  { "ipv6-mode", SL_CHOICE (AnonymizeIp, kind[KIND_IPV6].mode), "zero", "IPv6: zero, random or random-consistent",
    .words = mode_words },
  { "ipv6-bits", SL_INT (AnonymizeIp, kind[KIND_IPV6].bits), "96", "how many of an IPv6 address's last bits change",
    SL_RANGE (1, 128) },
  { "embedded-ipv4", SL_BOOL (AnonymizeIp, kind[KIND_EMBEDDED].on), "yes",
    "IPv6 addresses ending in an IPv4 address (::ffff:10.1.2.3) are anonymized" },
  { "embedded-ipv4-mode", SL_CHOICE (AnonymizeIp, kind[KIND_EMBEDDED].mode), "zero",
    "those: zero, random or random-consistent", .words = mode_words },
  { "embedded-ipv4-bits", SL_INT (AnonymizeIp, kind[KIND_EMBEDDED].bits), "96",
    "how many of their last bits change", SL_RANGE (1, 128) },
  { NULL }
};

/* The last bits of the address (8 groups of 16 bits; IPv4 in the last
 * two) zeroed or made random */
static void
change_bits (const AnonKind *kind, guint16 group[8])
{
  gint left = kind->bits;

  for (gint g = 7; g >= 0 && left > 0; g--, left -= 16)
    {
      guint16 mask = left >= 16 ? 0xffff : (guint16) ((1u << left) - 1);
      guint16 random = kind->mode == ANON_ZERO ? 0 : (guint16) g_random_int ();
      group[g] = (guint16) ((group[g] & ~mask) | (random & mask));
    }
}

static void
replace (AnonymizeIp *anon, AnonKind *kind, guint16 group[8])
{
  if (kind->mode != ANON_RANDOM_CONSISTENT)
    {
      change_bits (kind, group);
      return;
    }
  g_autofree gchar *key = g_strdup_printf ("%x:%x:%x:%x:%x:%x:%x:%x", group[0], group[1], group[2], group[3],
                                           group[4], group[5], group[6], group[7]);
  g_mutex_lock (&anon->lock);
  guint16 *known = g_hash_table_lookup (kind->chosen, key);
  if (known)
    memcpy (group, known, 8 * sizeof *group);
  else
    {
      change_bits (kind, group);
      if (g_hash_table_size (kind->chosen) >= CONSISTENT_MAX)
        g_hash_table_remove_all (kind->chosen);
      g_hash_table_insert (kind->chosen, g_steal_pointer (&key), g_memdup2 (group, 8 * sizeof *group));
    }
  g_mutex_unlock (&anon->lock);
}

static void
append_simple (AnonymizeIp *anon, GString *out, const gchar *p, gsize len, const gsize starts[4])
{
  guint kept = 4 - (guint) anon->kind[KIND_IPV4].bits / 8;

  for (gsize i = 0; i < len; i++)
    {
      gboolean changed = g_ascii_isdigit (p[i]) && (kept == 0 || i >= starts[kept]);
      g_string_append_c (out, changed ? anon->replacement[0] : p[i]);
    }
}

/* The address at p anonymized into out: its length, 0 when none starts there */
static gsize
anonymize_at (AnonymizeIp *anon, const gchar *p, const gchar *end, GString *out)
{
  guint16 group[8] = { 0 };
  gsize n;

  for (guint k = KIND_EMBEDDED; k >= KIND_IPV6; k--)
    if (anon->kind[k].on && (n = anon_ipv6_at (p, end, k == KIND_EMBEDDED, group)))
      {
        replace (anon, &anon->kind[k], group);
        anon_ipv6_append (out, group, k == KIND_EMBEDDED);
        return n;
      }
  guint32 address;
  gsize starts[4];
  if (!anon->kind[KIND_IPV4].on || !(n = anon_ipv4_at (p, end, &address, starts)))
    return 0;
  if (anon->kind[KIND_IPV4].mode == ANON_SIMPLE)
    {
      append_simple (anon, out, p, n, starts);
      return n;
    }
  group[6] = (guint16) (address >> 16);
  group[7] = (guint16) address;
  replace (anon, &anon->kind[KIND_IPV4], group);
  g_string_append_printf (out, "%u.%u.%u.%u", group[6] >> 8, group[6] & 0xff, group[7] >> 8, group[7] & 0xff);
  return n;
}

static gboolean
anonymize_ip_init (SlDriver *self, GError **error)
{
  AnonymizeIp *anon = (AnonymizeIp *) self;
  static const gchar *const modes[] = { "ipv6-mode", "embedded-ipv4-mode" };

  if (strlen (anon->replacement) != 1)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (self->options, "replacement"),
                        _("replacement() takes one character, not '%s'"), anon->replacement);
      return FALSE;
    }
  if (anon->kind[KIND_IPV4].mode == ANON_SIMPLE && anon->kind[KIND_IPV4].bits % 8)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (self->options, "bits"),
                        _("simple mode replaces whole octets: bits() takes 8, 16, 24 or 32, not %d"),
                        anon->kind[KIND_IPV4].bits);
      return FALSE;
    }
  for (guint k = KIND_IPV6; k <= KIND_EMBEDDED; k++)
    if (anon->kind[k].mode == ANON_SIMPLE)
      {
        sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (self->options, modes[k - KIND_IPV6]),
                          _("%s() is zero, random or random-consistent: simple is for IPv4"), modes[k - KIND_IPV6]);
        return FALSE;
      }
  g_mutex_init (&anon->lock);
  for (guint k = KIND_IPV4; k <= KIND_EMBEDDED; k++)
    anon->kind[k].chosen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return TRUE;
}

static gboolean
anonymize_ip_process (SlDriver *self, SlMessage **msg)
{
  AnonymizeIp *anon = (AnonymizeIp *) self;
  gsize len;
  const gchar *text = sl_message_get (*msg, SL_F_MESSAGE, &len);
  const gchar *end = text + len;
  g_autoptr (GString) out = g_string_sized_new (len + 16);
  gboolean changed = FALSE;

  for (const gchar *p = text; text && p < end;)
    {
      gsize n = g_ascii_isxdigit (*p) || *p == ':' ? anonymize_at (anon, p, end, out) : 0;
      if (n)
        {
          changed = TRUE;
          p += n;
        }
      else
        g_string_append_c (out, *p++);
    }
  if (changed)
    {
      sl_message_make_writable (msg);
      sl_message_set (*msg, SL_F_MESSAGE, out->str, (gssize) out->len);
    }
  return TRUE;
}

static void
anonymize_ip_free (SlDriver *self)
{
  AnonymizeIp *anon = (AnonymizeIp *) self;

  if (anon->kind[KIND_IPV4].chosen)
    {
      for (guint k = KIND_IPV4; k <= KIND_EMBEDDED; k++)
        g_hash_table_unref (anon->kind[k].chosen);
      g_mutex_clear (&anon->lock);
    }
}

static const SlParserOps anonymize_ip_ops = { .process = anonymize_ip_process };

const SlDriverClass anonymize_ip_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "anonymize-ip",
  .summary = "zeroes or randomizes the last bits of the IP addresses in MESSAGE, as rsyslog's mmanon",
  .options = anonymize_ip_options,
  .instance_size = sizeof (AnonymizeIp),
  .init = anonymize_ip_init,
  .free = anonymize_ip_free,
  .ops.parser = &anonymize_ip_ops,
};
