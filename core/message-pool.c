/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/message-pool.h"

#define MAGAZINE_BLOCKS 256
/* At most this many full magazines wait in a depot; more are freed, so a
 * burst does not keep its memory forever. */
#define DEPOT_MAGAZINES 16

typedef struct _Block Block;
struct _Block
{
  Block *next;
};

typedef struct
{
  gsize size;
  GMutex lock;
  Block *magazines[DEPOT_MAGAZINES];   /* each a list of MAGAZINE_BLOCKS blocks */
  guint count;
} Depot;

static Depot depots[] = { { 512 }, { 2048 } };

typedef struct
{
  Block *free[G_N_ELEMENTS (depots)];
  guint count[G_N_ELEMENTS (depots)];
} ThreadCache;

static void
free_list (Block *b)
{
  while (b)
    {
      Block *next = b->next;
      g_free (b);
      b = next;
    }
}

/* The thread's cache is read through a __thread pointer, which costs
 * less than g_private_get() on every allocation and free; the GPrivate is
 * there for its destructor, which frees the cache when the thread ends. */
static __thread ThreadCache *local_cache;

static void
thread_cache_free (gpointer data)
{
  ThreadCache *cache = data;
  for (guint c = 0; c < G_N_ELEMENTS (depots); c++)
    free_list (cache->free[c]);
  g_free (cache);
  if (local_cache == cache)
    local_cache = NULL;
}

static GPrivate thread_cache = G_PRIVATE_INIT (thread_cache_free);

static ThreadCache *
get_cache (void)
{
  if (G_LIKELY (local_cache))
    return local_cache;
  ThreadCache *cache = g_new0 (ThreadCache, 1);
  g_private_set (&thread_cache, cache);
  local_cache = cache;
  return cache;
}

static void
refill (ThreadCache *cache, guint c)
{
  Depot *d = &depots[c];
  g_mutex_lock (&d->lock);
  if (d->count)
    {
      cache->free[c] = d->magazines[--d->count];
      cache->count[c] = MAGAZINE_BLOCKS;
    }
  g_mutex_unlock (&d->lock);
}

/* Hands the first MAGAZINE_BLOCKS blocks of the thread's list to the depot. */
static void
spill (ThreadCache *cache, guint c)
{
  Block *magazine = cache->free[c];
  Block *last = magazine;
  for (guint i = 1; i < MAGAZINE_BLOCKS; i++)
    last = last->next;
  cache->free[c] = last->next;
  cache->count[c] -= MAGAZINE_BLOCKS;
  last->next = NULL;

  Depot *d = &depots[c];
  g_mutex_lock (&d->lock);
  gboolean kept = d->count < DEPOT_MAGAZINES;
  if (kept)
    d->magazines[d->count++] = magazine;
  g_mutex_unlock (&d->lock);
  if (!kept)
    free_list (magazine);
}

/* Under AddressSanitizer every message is its own allocation, so that a
 * use after free is still caught rather than hidden by block reuse. */
#if defined(__SANITIZE_ADDRESS__)
#define POOLING FALSE
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POOLING FALSE
#endif
#endif
#ifndef POOLING
#define POOLING TRUE
#endif

gpointer
sl_message_pool_alloc (gsize size, guint8 *pool_class)
{
  for (guint c = 0; c < G_N_ELEMENTS (depots); c++)
    {
      if (!POOLING || size > depots[c].size)
        continue;
      ThreadCache *cache = get_cache ();
      if (!cache->free[c])
        refill (cache, c);
      *pool_class = c + 1;
      Block *b = cache->free[c];
      if (!b)
        return g_malloc (depots[c].size);
      cache->free[c] = b->next;
      cache->count[c]--;
      return b;
    }
  *pool_class = 0;
  return g_malloc (size);
}

void
sl_message_pool_free (gpointer block, guint8 pool_class)
{
  if (!pool_class)
    {
      g_free (block);
      return;
    }
  guint c = pool_class - 1;
  ThreadCache *cache = get_cache ();
  Block *b = block;
  b->next = cache->free[c];
  cache->free[c] = b;
  if (++cache->count[c] >= 2 * MAGAZINE_BLOCKS)
    spill (cache, c);
}

gsize
sl_message_pool_block_size (guint8 pool_class)
{
  return pool_class ? depots[pool_class - 1].size : 0;
}

guint
sl_message_pool_depot_magazines (guint8 pool_class)
{
  Depot *d = &depots[pool_class - 1];
  g_mutex_lock (&d->lock);
  guint count = d->count;
  g_mutex_unlock (&d->lock);
  return count;
}
