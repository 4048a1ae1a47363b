/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/message/message-pool.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

/* Block sizes are powers of two in eighth steps, from 256 to 8192 bytes:
 * a block is at most an eighth larger than what it holds (RFC 3164 lines
 * of 150 bytes with their record and syslog-ng 4's two fields take 480,
 * 1 KiB lines 1408): sl_message_pool_sizes[], whose entry k + 1 is
 * class_of()'s k. Larger messages go to malloc: their copy costs more
 * than the lock. */
#define CLASS_MIN_SHIFT 8
#define CLASS_STEP 32
#define CLASS_MAX 8192
#define N_CLASSES 41

/* A magazine holds about this many bytes (and 32 to 256 blocks), so that
 * what a thread or a depot keeps does not grow with the block size. */
#define MAGAZINE_BYTES (128 * 1024)
#define MAGAZINE_MAX 256
#define MAGAZINE_MIN 32
/* What a depot keeps when it is trimmed, so that traffic resuming after a
 * pause does not go to malloc at once. */
#define DEPOT_RESERVE 1

/* A free block; the first block of a magazine in a depot also links the
 * depot's next magazine. */
typedef struct _Block Block;
struct _Block
{
  Block *next;
  Block *next_magazine;
};

/* A depot keeps every full magazine handed to it, however many: a block
 * that went back to malloc while traffic flows is taken from malloc again
 * by a reader on another thread, in that thread's arena, while the hole
 * stays in the arena it came from; a queue filling and draining grew the
 * arenas by 6-11 MiB beyond the blocks in use that way. What a burst left
 * goes back to malloc when sl_message_pool_trim() finds it unused. */
typedef struct
{
  gsize size;
  guint magazine;    /* blocks per magazine */
  GMutex lock;
  Block *magazines;  /* full magazines, linked by next_magazine */
  guint count;
  guint low;         /* the fewest magazines held since the last trim */
} Depot;

static Depot depots[N_CLASSES];
/* The hot path's look-ups, apart from the depots' locks: the class of a
 * size in CLASS_STEP steps (every class is a multiple of it), and how many
 * blocks a thread keeps of a class before it spills a magazine. */
static guint8 class_by_step[CLASS_MAX / CLASS_STEP + 1];
static guint16 spill_at[N_CLASSES];

const guint16 sl_message_pool_sizes[N_CLASSES + 1] = {
  0, 256, 288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 832, 896, 960, 1024,
  1152, 1280, 1408, 1536, 1664, 1792, 1920, 2048, 2304, 2560, 2816, 3072, 3328, 3584, 3840,
  4096, 4608, 5120, 5632, 6144, 6656, 7168, 7680, 8192,
};
/* Bytes of blocks handed back to malloc since the last malloc_trim(). */
static gint64 released;

typedef struct
{
  Block *free[N_CLASSES];
  guint count[N_CLASSES];
} ThreadCache;

static inline guint
class_of (gsize size)
{
  if (size <= (1u << CLASS_MIN_SHIFT))
    return 0;
  gsize v = size - 1;
  guint e = 63 - __builtin_clzll (v);
  return (e - CLASS_MIN_SHIFT) * 8 + ((v >> (e - 3)) & 7) + 1;
}

/* Before main() and any thread, so that the hot path needs no once-check. */
__attribute__ ((constructor)) static void
depots_init (void)
{
  for (guint k = 0; k < N_CLASSES; k++)
    {
      depots[k].size = sl_message_pool_sizes[k + 1];
      g_assert (depots[k].size % CLASS_STEP == 0);
      g_assert (class_of (depots[k].size) == k && class_of (depots[k].size + 1) == k + 1);
      depots[k].magazine = CLAMP (MAGAZINE_BYTES / depots[k].size, MAGAZINE_MIN, MAGAZINE_MAX);
      spill_at[k] = 2 * depots[k].magazine;
    }
  for (guint i = 0; i < G_N_ELEMENTS (class_by_step); i++)
    class_by_step[i] = class_of (MAX (i * CLASS_STEP, 1));
}

static void
free_list (Block *b, gsize size)
{
  gint64 n = 0;
  while (b)
    {
      Block *next = b->next;
      g_free (b);
      b = next;
      n++;
    }
  __atomic_add_fetch (&released, n * (gint64) size, __ATOMIC_RELAXED);
}

/* The thread's cache is read through a __thread pointer, which costs
 * less than g_private_get() on every allocation and free; the GPrivate is
 * there for its destructor, which frees the cache when the thread ends. */
static __thread ThreadCache *local_cache;

static void
thread_cache_free (gpointer data)
{
  ThreadCache *cache = data;
  for (guint c = 0; c < N_CLASSES; c++)
    free_list (cache->free[c], depots[c].size);
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
      Block *magazine = d->magazines;
      d->magazines = magazine->next_magazine;
      d->count--;
      cache->free[c] = magazine;
      cache->count[c] = d->magazine;
      d->low = MIN (d->low, d->count);
    }
  g_mutex_unlock (&d->lock);
}

/* Hands the first magazine of the thread's list to the depot. */
static void
spill (ThreadCache *cache, guint c)
{
  Depot *d = &depots[c];
  Block *magazine = cache->free[c];
  Block *last = magazine;
  for (guint i = 1; i < d->magazine; i++)
    last = last->next;
  cache->free[c] = last->next;
  cache->count[c] -= d->magazine;
  last->next = NULL;

  g_mutex_lock (&d->lock);
  magazine->next_magazine = d->magazines;
  d->magazines = magazine;
  d->count++;
  g_mutex_unlock (&d->lock);
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
  if (!POOLING || size > CLASS_MAX)
    {
      *pool_class = 0;
      return g_malloc (size);
    }
  guint c = class_by_step[(size + CLASS_STEP - 1) / CLASS_STEP];
  ThreadCache *cache = get_cache ();
  if (!cache->free[c])
    refill (cache, c);
  *pool_class = c + 1;
  Block *b = cache->free[c];
  if (!b)
    return g_malloc (depots[c].size);
  cache->free[c] = b->next;
  cache->count[c]--;
  /* a block comes back cold from the thread that freed it: fetching the
   * next one now hides the miss on its link behind this message's work */
  if (b->next)
    __builtin_prefetch (b->next, 1);
  return b;
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
  if (++cache->count[c] >= spill_at[c])
    spill (cache, c);
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

/* A magazine that stayed in its depot for a whole period was not needed
 * in it: the fewest a depot held since the last call, less a reserve, go
 * back to malloc. Once blocks went back and none did since the previous
 * call (the burst is over), malloc_trim() gives the free pages of every
 * arena back to the system: freed blocks lie amid live ones, where
 * malloc's own trimming of the heap's top never reaches. */
gsize
sl_message_pool_trim (void)
{
  static gint64 released_before;
  gsize freed = 0;
  for (guint c = 0; c < N_CLASSES; c++)
    {
      Depot *d = &depots[c];
      Block *surplus = NULL;
      guint n = 0;
      g_mutex_lock (&d->lock);
      while (d->count > DEPOT_RESERVE && n < d->low - MIN (d->low, DEPOT_RESERVE))
        {
          Block *magazine = d->magazines;
          d->magazines = magazine->next_magazine;
          d->count--;
          magazine->next_magazine = surplus;
          surplus = magazine;
          n++;
        }
      d->low = d->count;
      g_mutex_unlock (&d->lock);
      while (surplus)
        {
          Block *next = surplus->next_magazine;
          free_list (surplus, d->size);
          surplus = next;
        }
      freed += (gsize) n * d->magazine * d->size;
    }
  gint64 now = __atomic_load_n (&released, __ATOMIC_RELAXED);
  if (now && now == released_before)
    {
#ifdef __GLIBC__
      malloc_trim (0);
#endif
      __atomic_sub_fetch (&released, now, __ATOMIC_RELAXED);
      now = 0;
    }
  released_before = now;
  return freed;
}
