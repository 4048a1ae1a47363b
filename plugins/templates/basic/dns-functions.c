/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(dns-resolve-ip [--use-dns=yes] [--use-fqdn=no] [--dns-cache=yes]
 * [--normalize-hostnames=no] IP): the name of an address, as syslog-ng
 * 3.38's resolve_sockaddr_to_hostname() gives it: getnameinfo() with
 * NI_NAMEREQD, the short name unless --use-fqdn, the address itself
 * (formatted by inet_ntop) when it has no name or DNS is off, nothing when
 * IP is not an address. Like syslog-ng, a lookup blocks the thread that
 * renders; each thread keeps a cache of answers (an hour for names, a
 * minute for failures, DNS_CACHE_SIZE entries, oldest evicted first), so
 * a thread asks the resolver once per address and hour. The options take
 * syslog-ng's defaults (its global use-dns(yes), use-fqdn(no),
 * dns-cache(yes), normalize-hostnames(no)). */
#include "plugins/templates/basic/basic-private.h"
#include "core/config/error.h"
#include "core/i18n.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <string.h>
#include <sys/socket.h>

#define DNS_CACHE_SIZE 1007
#define DNS_CACHE_EXPIRE_SEC 3600
#define DNS_CACHE_FAILED_EXPIRE_SEC 60

typedef struct
{
  gboolean use_dns;
  gboolean use_fqdn;
  gboolean cache;
  gboolean normalize;
  gint address;        /* the argument that is the address */
} DnsOptions;

typedef struct
{
  gchar *name;
  gboolean positive;   /* a name the resolver gave, not the address */
  gint64 expires;      /* monotonic, in microseconds */
} DnsAnswer;

typedef struct
{
  GHashTable *answers;   /* packed address -> DnsAnswer */
  GQueue order;          /* keys, oldest first */
} DnsCache;

static void
answer_free (gpointer p)
{
  DnsAnswer *a = p;
  g_free (a->name);
  g_free (a);
}

static void
cache_free (gpointer p)
{
  DnsCache *cache = p;
  g_queue_clear (&cache->order);
  g_hash_table_unref (cache->answers);
  g_free (cache);
}

static GPrivate cache_key = G_PRIVATE_INIT (cache_free);

static DnsCache *
thread_cache (void)
{
  DnsCache *cache = g_private_get (&cache_key);
  if (!cache)
    {
      cache = g_new0 (DnsCache, 1);
      cache->answers = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, answer_free);
      g_queue_init (&cache->order);
      g_private_set (&cache_key, cache);
    }
  return cache;
}

static void
cache_forget (DnsCache *cache, GBytes *key)
{
  GList *link = g_queue_find_custom (&cache->order, key, (GCompareFunc) g_bytes_compare);
  g_bytes_unref (link->data);
  g_queue_delete_link (&cache->order, link);
  g_hash_table_remove (cache->answers, key);
}

static void
cache_store (DnsCache *cache, GBytes *key, const gchar *name, gboolean positive)
{
  if (g_hash_table_size (cache->answers) >= DNS_CACHE_SIZE)
    {
      GBytes *oldest = g_queue_pop_head (&cache->order);
      g_hash_table_remove (cache->answers, oldest);
      g_bytes_unref (oldest);
    }
  DnsAnswer *a = g_new0 (DnsAnswer, 1);
  a->name = g_strdup (name);
  a->positive = positive;
  a->expires = g_get_monotonic_time ()
               + (positive ? DNS_CACHE_EXPIRE_SEC : DNS_CACHE_FAILED_EXPIRE_SEC) * G_USEC_PER_SEC;
  g_hash_table_insert (cache->answers, g_bytes_ref (key), a);
  g_queue_push_tail (&cache->order, g_bytes_ref (key));
}

static gboolean
parse_yes_no (const gchar *text, gboolean *value)
{
  static const gchar *const yes[] = { "yes", "on", "1" };
  static const gchar *const no[] = { "no", "off", "0" };
  for (guint i = 0; i < G_N_ELEMENTS (yes); i++)
    if (g_ascii_strcasecmp (text, yes[i]) == 0 || g_ascii_strcasecmp (text, no[i]) == 0)
      {
        *value = g_ascii_strcasecmp (text, yes[i]) == 0;
        return TRUE;
      }
  return FALSE;
}

/* The options, as GOption reads them: --name=value, --name value, -x value. */
static gboolean
dns_prepare (SlTfCall *call, GError **error)
{
  static const struct
  {
    const gchar *name;
    gchar short_name;
    gsize offset;
  } options[] = {
    { "use-fqdn", 'f', G_STRUCT_OFFSET (DnsOptions, use_fqdn) },
    { "use-dns", 'd', G_STRUCT_OFFSET (DnsOptions, use_dns) },
    { "dns-cache", 'c', G_STRUCT_OFFSET (DnsOptions, cache) },
    { "normalize-hostnames", 'n', G_STRUCT_OFFSET (DnsOptions, normalize) },
  };
  DnsOptions *o = g_new0 (DnsOptions, 1);
  o->use_dns = TRUE;
  o->cache = TRUE;
  call->state = o;
  o->address = -1;

  for (gint i = 0; i < call->argc; i++)
    {
      const gchar *arg = call->args[i];
      if (arg[0] != '-' || !arg[1])
        {
          if (o->address >= 0)
            {
              tf_usage_error (call, error, _("one address, after the options"));
              return FALSE;
            }
          o->address = i;
          continue;
        }
      guint k;
      const gchar *value = NULL;
      for (k = 0; k < G_N_ELEMENTS (options); k++)
        {
          gsize n = strlen (options[k].name);
          if (arg[1] == '-' && strncmp (arg + 2, options[k].name, n) == 0 && (!arg[2 + n] || arg[2 + n] == '='))
            {
              value = arg[2 + n] ? arg + 3 + n : NULL;
              break;
            }
          if (arg[1] == options[k].short_name && !arg[2])
            break;
        }
      if (k == G_N_ELEMENTS (options))
        {
          g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("unknown option '%s' in $(dns-resolve-ip); "
                                                                 "use --use-dns, --use-fqdn, --dns-cache or "
                                                                 "--normalize-hostnames"), arg);
          return FALSE;
        }
      if (!value && i + 1 < call->argc)
        value = call->args[++i];
      if (!value || !parse_yes_no (value, (gboolean *) ((gchar *) o + options[k].offset)))
        {
          g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("'%s' in $(dns-resolve-ip) takes yes or no"), arg);
          return FALSE;
        }
    }
  if (o->address < 0)
    {
      tf_usage_error (call, error, _("one address, after the options"));
      return FALSE;
    }
  /* syslog-ng: with use-dns(no), dns-cache() is no as well */
  if (!o->use_dns)
    o->cache = FALSE;
  return TRUE;
}

/* What getnameinfo() says, or the address as text with positive FALSE. */
static gchar *
resolve (const struct sockaddr *sa, socklen_t len, gboolean use_dns, gboolean *positive)
{
  gchar name[NI_MAXHOST];
  *positive = use_dns && getnameinfo (sa, len, name, sizeof name, NULL, 0, NI_NAMEREQD) == 0;
  if (!*positive)
    getnameinfo (sa, len, name, sizeof name, NULL, 0, NI_NUMERICHOST);
  return g_strdup (name);
}

static void
append_name (GString *out, const DnsOptions *o, const gchar *name, gboolean positive)
{
  gsize start = out->len;
  /* only a name the resolver gave is cut to its first label */
  gsize len = positive && !o->use_fqdn ? strcspn (name, ".") : strlen (name);
  g_string_append_len (out, name, len);
  if (o->normalize)
    for (gsize i = start; i < out->len; i++)
      out->str[i] = g_ascii_tolower (out->str[i]);
}

static void
dns_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  const DnsOptions *o = call->state;
  GString *text = tf_scratch_acquire ();
  sl_template_append (call->arg_templates[o->address], msg, env, text);

  struct sockaddr_storage ss = { 0 };
  socklen_t len;
  struct sockaddr_in *in4 = (struct sockaddr_in *) &ss;
  struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) &ss;
  const void *addr;
  gsize addr_len;
  if (inet_pton (AF_INET, text->str, &in4->sin_addr) == 1)
    {
      in4->sin_family = AF_INET;
      len = sizeof *in4;
      addr = &in4->sin_addr;
      addr_len = sizeof in4->sin_addr;
    }
  else if (inet_pton (AF_INET6, text->str, &in6->sin6_addr) == 1)
    {
      in6->sin6_family = AF_INET6;
      len = sizeof *in6;
      addr = &in6->sin6_addr;
      addr_len = sizeof in6->sin6_addr;
    }
  else
    {
      tf_scratch_release ();
      return;
    }
  tf_scratch_release ();

  if (!o->cache)
    {
      gboolean positive;
      gchar *name = resolve ((struct sockaddr *) &ss, len, o->use_dns, &positive);
      append_name (out, o, name, positive);
      g_free (name);
      return;
    }

  DnsCache *cache = thread_cache ();
  GBytes *key = g_bytes_new (addr, addr_len);
  DnsAnswer *a = g_hash_table_lookup (cache->answers, key);
  if (a && a->expires < g_get_monotonic_time ())
    {
      cache_forget (cache, key);
      a = NULL;
    }
  if (!a)
    {
      gboolean positive;
      gchar *name = resolve ((struct sockaddr *) &ss, len, o->use_dns, &positive);
      cache_store (cache, key, name, positive);
      g_free (name);
      a = g_hash_table_lookup (cache->answers, key);
    }
  g_bytes_unref (key);
  append_name (out, o, a->name, a->positive);
}

static const SlTemplateFunctionOps dns_ops = { .prepare = dns_prepare, .eval = dns_eval, .free = g_free };

const SlDriverClass tf_dns_resolve_ip_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "dns-resolve-ip",
  .summary = "the host name of an IP address (getnameinfo, cached per thread): "
             "$(dns-resolve-ip [--use-fqdn=yes] [--use-dns=no] [--dns-cache=no] [--normalize-hostnames=yes] IP)",
  .ops.template_function = &dns_ops,
};
