/* SPDX-License-Identifier: GPL-2.0-or-later */
/* netmask("10.0.0.0/8") and netmask6("2001:db8::/32"): whether the host
 * that sent the message (SOURCEIP, the last hop, not HOST) lies in a
 * network. The network is parsed once into bytes and a prefix length; a
 * message's address is parsed on the stack, so matching allocates nothing.
 * IPv4 senders seen through an IPv6 socket (::ffff:10.1.2.3) count as
 * IPv4, and netmask6() sees IPv4 senders in that mapped form. */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/plugin/plugin.h"

#include <arpa/inet.h>
#include <string.h>

typedef struct
{
  SlDriver super;
  guint8 network[16];    /* IPv4 in the first 4 bytes for netmask() */
  guint prefix;          /* leading bits that must be equal */
  gboolean v6;
  const gchar *text;     /* as written */
} NetmaskFilter;

static const SlOptionSpec netmask_options[] = {
  { "network", SL_STRING (NetmaskFilter, text), NULL, "address/prefix, address/dotted-mask, or an address alone",
    .flags = SL_OPT_POSITIONAL },
  { NULL }
};

static const guint8 v4_mapped_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

/* "/8" or "/255.0.0.0" into a prefix length; FALSE when it is neither or
 * the dotted mask has holes. */
static gboolean
parse_prefix (const gchar *text, gboolean v6, guint *prefix)
{
  guint max = v6 ? 128 : 32;
  if (!v6 && strchr (text, '.'))
    {
      struct in_addr mask;
      if (inet_pton (AF_INET, text, &mask) != 1)
        return FALSE;
      guint32 bits = ntohl (mask.s_addr);
      guint ones = 0;
      while (ones < 32 && (bits & (0x80000000u >> ones)))
        ones++;
      if (ones < 32 && (bits << ones) != 0)
        return FALSE;
      *prefix = ones;
      return TRUE;
    }
  gchar *end;
  guint64 n = g_ascii_strtoull (text, &end, 10);
  if (!g_ascii_isdigit (*text) || *end || n > max)
    return FALSE;
  *prefix = (guint) n;
  return TRUE;
}

/* Clears the bits after the prefix: syslog-ng ignores them too. */
static void
clear_host_bits (guint8 *bytes, guint size, guint prefix)
{
  for (guint i = 0; i < size; i++)
    {
      guint bit = i * 8;
      if (bit >= prefix)
        bytes[i] = 0;
      else if (prefix - bit < 8)
        bytes[i] &= (guint8) (0xff << (8 - (prefix - bit)));
    }
}

static gboolean
netmask_init (SlDriver *d, GError **error)
{
  NetmaskFilter *self = (NetmaskFilter *) d;
  self->v6 = *(const gboolean *) d->klass->data;
  const gchar *text = self->text;
  if (!text)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, self->v6
                        ? _("netmask6() needs a network, as in netmask6(\"2001:db8::/32\")")
                        : _("netmask() needs a network, as in netmask(\"10.0.0.0/8\")"));
      return FALSE;
    }

  const gchar *slash = strchr (text, '/');
  gchar *address = slash ? g_strndup (text, slash - text) : g_strdup (text);
  gboolean ok = inet_pton (self->v6 ? AF_INET6 : AF_INET, address, self->network) == 1;
  g_free (address);
  if (!ok)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "network"), self->v6
                        ? _("'%s' is not an IPv6 address, or an IPv6 address and a prefix length")
                        : _("'%s' is not an IPv4 address, or an IPv4 address and a netmask"), text);
      return FALSE;
    }
  self->prefix = self->v6 ? 128 : 32;
  if (slash && !parse_prefix (slash + 1, self->v6, &self->prefix))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "network"), self->v6
                        ? _("'%s': the prefix length after '/' must be 0 to 128")
                        : _("'%s': the netmask after '/' must be a length 0 to 32 or a mask such as 255.255.0.0"),
                        text);
      return FALSE;
    }
  clear_host_bits (self->network, self->v6 ? 16 : 4, self->prefix);
  return TRUE;
}

/* The sender's address as 16 bytes, IPv4 mapped into IPv6; FALSE when
 * SOURCEIP is none (a local sender) or not an address. */
static gboolean
source_address (const SlMessage *msg, guint8 out[16])
{
  gsize len;
  const gchar *ip = sl_message_get (msg, SL_F_SOURCEIP, &len);
  gchar text[INET6_ADDRSTRLEN + 1];
  if (!ip || len >= sizeof text)
    return FALSE;
  memcpy (text, ip, len);
  text[len] = '\0';
  /* fe80::1%eth0: the zone names an interface, not part of the address */
  gchar *zone = strchr (text, '%');
  if (zone)
    *zone = '\0';
  if (strchr (text, ':'))
    return inet_pton (AF_INET6, text, out) == 1;
  memcpy (out, v4_mapped_prefix, sizeof v4_mapped_prefix);
  return inet_pton (AF_INET, text, out + 12) == 1;
}

static gboolean
prefix_equal (const guint8 *a, const guint8 *b, guint prefix)
{
  guint whole = prefix / 8;
  if (memcmp (a, b, whole) != 0)
    return FALSE;
  guint rest = prefix % 8;
  if (!rest)
    return TRUE;
  guint8 mask = (guint8) (0xff << (8 - rest));
  return (a[whole] & mask) == (b[whole] & mask);
}

static gboolean
netmask_match (SlDriver *d, const SlMessage *msg)
{
  NetmaskFilter *self = (NetmaskFilter *) d;
  guint8 address[16];
  if (!source_address (msg, address))
    return FALSE;
  if (self->v6)
    return prefix_equal (address, self->network, self->prefix);
  if (memcmp (address, v4_mapped_prefix, sizeof v4_mapped_prefix) != 0)
    return FALSE;
  return prefix_equal (address + 12, self->network, self->prefix);
}

static const SlFilterOps netmask_ops = { .match = netmask_match };

/* what tells the classes apart: whether the network is IPv6 */
static const gboolean ipv4_network = FALSE;
static const gboolean ipv6_network = TRUE;

static const SlDriverClass netmask_class = {
  .kind = SL_DRIVER_FILTER,
  .name = "netmask",
  .summary = "the sender's IPv4 address is in a network: "
             "netmask(\"10.0.0.0/8\") or netmask(\"192.168.1.0/255.255.255.0\")",
  .options = netmask_options,
  .instance_size = sizeof (NetmaskFilter),
  .data = &ipv4_network,
  .init = netmask_init,
  .ops.filter = &netmask_ops,
};

static const SlDriverClass netmask6_class = {
  .kind = SL_DRIVER_FILTER,
  .name = "netmask6",
  .summary = "the sender's IPv6 address is in a network: netmask6(\"2001:db8::/32\")",
  .options = netmask_options,
  .instance_size = sizeof (NetmaskFilter),
  .data = &ipv6_network,
  .init = netmask_init,
  .ops.filter = &netmask_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "netmask-filters",
  .drivers = (const SlDriverClass *const[]) { &netmask_class, &netmask6_class, NULL },
};
