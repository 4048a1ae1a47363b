#include "core/message.h"
#include "core/message-pool.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/stats.h"
#include "core/window.h"

#include <string.h>
#include <sys/time.h>

static const gchar *const builtin_names[SL_F_BUILTIN_MAX] = {
  [SL_F_NONE] = "",
  [SL_F_HOST] = "HOST",
  [SL_F_HOST_FROM] = "HOST_FROM",
  [SL_F_PROGRAM] = "PROGRAM",
  [SL_F_PID] = "PID",
  [SL_F_MSGID] = "MSGID",
  [SL_F_MESSAGE] = "MESSAGE",
  [SL_F_SOURCEIP] = "SOURCEIP",
  [SL_F_LEGACY_MSGHDR] = "LEGACY_MSGHDR",
  [SL_F_RAWMSG] = "RAWMSG",
};

/* Field names are interned for the life of the process: handles are stored
 * in compiled templates and filters that outlive any one configuration. */
static GMutex registry_lock;
static GHashTable *handle_by_name;
static GPtrArray *name_by_handle;

static void
registry_init_locked (void)
{
  if (handle_by_name)
    return;
  handle_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  name_by_handle = g_ptr_array_new ();
  for (SlHandle h = 0; h < SL_F_BUILTIN_MAX; h++)
    {
      g_ptr_array_add (name_by_handle, (gpointer) builtin_names[h]);
      if (h != SL_F_NONE)
        g_hash_table_insert (handle_by_name, (gpointer) builtin_names[h], GUINT_TO_POINTER (h));
    }
}

static void
count_refused_name (const gchar *name)
{
  static SlCounter *refused;
  static gint logged;
  if (g_once_init_enter (&refused))
    g_once_init_leave (&refused, sl_stats_counter ("fields", "registry", "names", "refused"));
  sl_counter_add (refused, 1);
  if (g_atomic_int_compare_and_exchange (&logged, 0, 1))
    sl_log (SL_LOG_WARNING, _("too many field names, %d; new ones such as '%s' are not stored"),
            SL_FIELD_NAMES_MAX, name);
}

/* Each thread remembers the handles it looked up, so that parsers which
 * name fields per message (json-parser, kv-parser) take the registry's
 * lock only for names new to the thread. The keys are the registry's own
 * copies, which live as long as the process. */
#define SL_FIELD_CACHE_MAX 4096

static void
field_cache_free (gpointer cache)
{
  g_hash_table_unref (cache);
}

static GPrivate field_cache = G_PRIVATE_INIT (field_cache_free);

static void
field_cache_add (const gchar *interned, SlHandle h)
{
  GHashTable *cache = g_private_get (&field_cache);
  if (!cache)
    {
      cache = g_hash_table_new (g_str_hash, g_str_equal);
      g_private_set (&field_cache, cache);
    }
  if (g_hash_table_size (cache) >= SL_FIELD_CACHE_MAX)
    g_hash_table_remove_all (cache);
  g_hash_table_insert (cache, (gpointer) interned, GUINT_TO_POINTER (h));
}

SlHandle
sl_field_handle (const gchar *name)
{
  GHashTable *cache = g_private_get (&field_cache);
  SlHandle h = cache ? GPOINTER_TO_UINT (g_hash_table_lookup (cache, name)) : SL_F_NONE;
  if (h != SL_F_NONE)
    return h;

  gboolean full = FALSE;
  g_mutex_lock (&registry_lock);
  registry_init_locked ();
  h = GPOINTER_TO_UINT (g_hash_table_lookup (handle_by_name, name));
  if (h == SL_F_NONE && name[0])
    {
      full = name_by_handle->len >= SL_F_BUILTIN_MAX + SL_FIELD_NAMES_MAX;
      if (!full)
        {
          gchar *copy = g_strdup (name);
          h = name_by_handle->len;
          g_ptr_array_add (name_by_handle, copy);
          g_hash_table_insert (handle_by_name, copy, GUINT_TO_POINTER (h));
        }
    }
  const gchar *interned = g_ptr_array_index (name_by_handle, h);
  g_mutex_unlock (&registry_lock);
  if (full)
    count_refused_name (name);
  if (h != SL_F_NONE)
    field_cache_add (interned, h);
  return h;
}

SlHandle
sl_field_lookup (const gchar *name)
{
  g_mutex_lock (&registry_lock);
  registry_init_locked ();
  SlHandle h = GPOINTER_TO_UINT (g_hash_table_lookup (handle_by_name, name));
  g_mutex_unlock (&registry_lock);
  return h;
}

const gchar *
sl_field_name (SlHandle handle)
{
  g_mutex_lock (&registry_lock);
  registry_init_locked ();
  const gchar *name = handle < name_by_handle->len ? g_ptr_array_index (name_by_handle, handle) : NULL;
  g_mutex_unlock (&registry_lock);
  return name;
}

void
sl_time_now (SlTime *t)
{
  struct timeval tv;
  struct tm tm;

  gettimeofday (&tv, NULL);
  localtime_r (&tv.tv_sec, &tm);
  t->usec = (gint64) tv.tv_sec * G_USEC_PER_SEC + tv.tv_usec;
  t->gmtoff = (gint32) tm.tm_gmtoff;
}

SlMessage *
sl_message_new_with_extra (const gchar *raw, gsize len, const gchar *extra, gsize extra_len,
                           const gchar **extra_copy)
{
  gsize tail = extra ? extra_len + 1 : 0;
  guint8 pool_class;
  SlMessage *msg = sl_message_pool_alloc (sizeof (SlMessage) + len + 1 + tail, &pool_class);

  memset (msg, 0, sizeof (SlMessage));
  msg->pool_class = pool_class;
  msg->ref_count = 1;
  msg->pri = SL_PRI_MAKE (1, 5);
  msg->raw_len = len;
  msg->extra_len = tail;
  if (len)
    memcpy (msg->raw, raw, len);
  msg->raw[len] = '\0';
  if (extra)
    {
      memcpy (msg->raw + len + 1, extra, extra_len);
      msg->raw[len + 1 + extra_len] = '\0';
      if (extra_copy)
        *extra_copy = msg->raw + len + 1;
    }
  return msg;
}

SlMessage *
sl_message_new (const gchar *raw, gsize len)
{
  return sl_message_new_with_extra (raw, len, NULL, 0, NULL);
}

SlMessage *
sl_message_ref (SlMessage *msg)
{
  g_atomic_int_inc (&msg->ref_count);
  return msg;
}

static void
value_clear (SlValue *v)
{
  if (v->owned)
    g_free ((gchar *) v->ptr);
  v->ptr = NULL;
  v->len = 0;
  v->owned = FALSE;
}

void
sl_message_unref (SlMessage *msg)
{
  if (!g_atomic_int_dec_and_test (&msg->ref_count))
    return;
  for (guint i = 0; i < SL_F_BUILTIN_MAX; i++)
    value_clear (&msg->builtin[i]);
  if (msg->dynamic)
    {
      for (guint i = 0; i < msg->n_dynamic; i++)
        value_clear (&msg->dynamic[i]);
      sl_message_pool_free (msg->dynamic, msg->dynamic_pool);
    }
  if (msg->tags)
    g_ptr_array_free (msg->tags, TRUE);
  if (msg->ack_root)
    sl_message_unref (msg->ack_root);
  if (msg->window)
    sl_window_unref (msg->window);
  sl_message_pool_free (msg, msg->pool_class);
}

static gboolean
in_raw (const SlMessage *msg, const gchar *ptr)
{
  return ptr >= msg->raw && ptr <= msg->raw + msg->raw_len + msg->extra_len;
}

static void
value_copy (const SlMessage *from, SlMessage *to, const SlValue *src, SlValue *dst)
{
  if (!src->ptr)
    return;
  if (!src->owned && in_raw (from, src->ptr))
    {
      dst->ptr = to->raw + (src->ptr - from->raw);
      dst->owned = FALSE;
    }
  else
    {
      dst->ptr = g_strndup (src->ptr, src->len);
      dst->owned = TRUE;
    }
  dst->len = src->len;
}

/* Room for at least n dynamic slots, the new ones zeroed. The slots come
 * from the message pool too: a parser that sets fields on every message
 * would otherwise send each one through malloc across threads. */
static void
dynamic_reserve (SlMessage *msg, guint32 n)
{
  if (n <= msg->dynamic_cap)
    return;
  guint32 want = MAX (n, msg->dynamic_cap * 2);
  guint8 pool;
  SlValue *slots = sl_message_pool_alloc (want * sizeof (SlValue), &pool);
  guint32 cap = pool ? sl_message_pool_block_size (pool) / sizeof (SlValue) : want;
  if (msg->n_dynamic)
    memcpy (slots, msg->dynamic, msg->n_dynamic * sizeof (SlValue));
  memset (slots + msg->n_dynamic, 0, (cap - msg->n_dynamic) * sizeof (SlValue));
  if (msg->dynamic)
    sl_message_pool_free (msg->dynamic, msg->dynamic_pool);
  msg->dynamic = slots;
  msg->dynamic_cap = cap;
  msg->dynamic_pool = pool;
}

SlMessage *
sl_message_clone (const SlMessage *msg)
{
  SlMessage *copy = sl_message_new_with_extra (msg->raw, msg->raw_len,
                                               msg->extra_len ? msg->raw + msg->raw_len + 1 : NULL,
                                               msg->extra_len ? msg->extra_len - 1 : 0, NULL);

  copy->pri = msg->pri;
  copy->flags = msg->flags;
  copy->stamp = msg->stamp;
  copy->recvd = msg->recvd;
  copy->seqnum = msg->seqnum;
  for (guint i = 0; i < SL_F_BUILTIN_MAX; i++)
    value_copy (msg, copy, &msg->builtin[i], &copy->builtin[i]);
  if (msg->n_dynamic)
    {
      dynamic_reserve (copy, msg->n_dynamic);
      copy->n_dynamic = msg->n_dynamic;
      for (guint i = 0; i < msg->n_dynamic; i++)
        value_copy (msg, copy, &msg->dynamic[i], &copy->dynamic[i]);
    }
  if (msg->tags)
    {
      copy->tags = g_ptr_array_new_full (msg->tags->len, g_free);
      for (guint i = 0; i < msg->tags->len; i++)
        g_ptr_array_add (copy->tags, g_strdup (g_ptr_array_index (msg->tags, i)));
    }
  /* A copy made by a rewrite still stands for the received message: its
   * acknowledgement has to reach the source's window through the original. */
  if (msg->window || msg->ack_root)
    copy->ack_root = sl_message_ref (msg->ack_root ? msg->ack_root : (SlMessage *) msg);
  return copy;
}

void
sl_message_make_writable (SlMessage **msg)
{
  if (g_atomic_int_get (&(*msg)->ref_count) == 1)
    return;
  SlMessage *copy = sl_message_clone (*msg);
  sl_message_unref (*msg);
  *msg = copy;
}

static SlValue *
slot (SlMessage *msg, SlHandle h, gboolean create)
{
  if (h < SL_F_BUILTIN_MAX)
    return &msg->builtin[h];
  guint index = h - SL_F_BUILTIN_MAX;
  if (index >= msg->n_dynamic)
    {
      if (!create)
        return NULL;
      dynamic_reserve (msg, index + 1);
      msg->n_dynamic = index + 1;
    }
  return &msg->dynamic[index];
}

void
sl_message_set (SlMessage *msg, SlHandle h, const gchar *value, gssize len)
{
  if (h == SL_F_NONE)
    return;
  if (len < 0)
    len = strlen (value);
  SlValue *v = slot (msg, h, TRUE);
  gchar *copy = g_strndup (value, len);
  value_clear (v);
  v->ptr = copy;
  v->len = len;
  v->owned = TRUE;
}

void
sl_message_set_slice (SlMessage *msg, SlHandle h, const gchar *ptr, gsize len)
{
  if (h == SL_F_NONE)
    return;
  g_return_if_fail (in_raw (msg, ptr) && ptr + len <= msg->raw + msg->raw_len + msg->extra_len);
  SlValue *v = slot (msg, h, TRUE);
  value_clear (v);
  v->ptr = ptr;
  v->len = len;
}

void
sl_message_unset (SlMessage *msg, SlHandle h)
{
  SlValue *v = slot (msg, h, FALSE);
  if (v)
    value_clear (v);
}

const gchar *
sl_message_get (const SlMessage *msg, SlHandle h, gsize *len)
{
  const SlValue *v = slot ((SlMessage *) msg, h, FALSE);
  if (!v || !v->ptr)
    {
      if (len)
        *len = 0;
      return NULL;
    }
  if (len)
    *len = v->len;
  return v->ptr;
}

gboolean
sl_message_has (const SlMessage *msg, SlHandle h)
{
  const SlValue *v = slot ((SlMessage *) msg, h, FALSE);
  return v && v->ptr;
}

void
sl_message_foreach_dynamic (const SlMessage *msg, SlFieldFunc func, gpointer user_data)
{
  for (guint i = 0; i < msg->n_dynamic; i++)
    {
      const SlValue *v = &msg->dynamic[i];
      if (v->ptr && !func (i + SL_F_BUILTIN_MAX, v->ptr, v->len, user_data))
        return;
    }
}

void
sl_message_set_tag (SlMessage *msg, const gchar *tag)
{
  if (sl_message_has_tag (msg, tag))
    return;
  if (!msg->tags)
    msg->tags = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (msg->tags, g_strdup (tag));
}

void
sl_message_clear_tag (SlMessage *msg, const gchar *tag)
{
  for (guint i = 0; msg->tags && i < msg->tags->len; i++)
    if (strcmp (g_ptr_array_index (msg->tags, i), tag) == 0)
      {
        g_ptr_array_remove_index (msg->tags, i);
        return;
      }
}

gboolean
sl_message_has_tag (const SlMessage *msg, const gchar *tag)
{
  if (!msg->tags)
    return FALSE;
  for (guint i = 0; i < msg->tags->len; i++)
    if (strcmp (g_ptr_array_index (msg->tags, i), tag) == 0)
      return TRUE;
  return FALSE;
}

void
sl_message_bind_window (SlMessage *msg, SlWindow *window)
{
  msg->window = sl_window_ref (window);
  msg->ack_pending = 1;
  sl_window_take (window, 1);
}

static SlMessage *
ack_target (SlMessage *msg)
{
  return msg->ack_root ? msg->ack_root : msg;
}

void
sl_message_ack_hold (SlMessage *msg)
{
  SlMessage *root = ack_target (msg);
  if (root->window)
    g_atomic_int_inc (&root->ack_pending);
}

void
sl_message_ack (SlMessage *msg)
{
  SlMessage *root = ack_target (msg);
  if (root->window && g_atomic_int_dec_and_test (&root->ack_pending))
    sl_window_release (root->window, 1);
}
