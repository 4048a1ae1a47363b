/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The persist file is mapped into memory and every value is set in the
 * mapping: it is in the kernel's page cache the moment it is set, so it
 * survives the death of the process (kill -9, a crash) without a write or
 * a sync per set. A sync (msync) happens at a reload and at the end, for a
 * power loss.
 *
 * The file: a header (magic, version, byte order, where the records end),
 * then records, each a key and two slots for its value. A set writes the
 * slot that is not current and then, last, its generation: a process that
 * dies in the middle of a set leaves the other slot, the previous value,
 * as the newest whole one. A value that outgrows its slots gets a new
 * record at the end, which is made whole before the old one is marked dead.
 * Checksums (CRC-32C) over each record's key and each slot tell a whole
 * record from a file cut short or overwritten. */
#include "core/store/persist-private.h"
#include "core/store/crc32c.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/store/owned-path.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "SLPRSIST"
#define FORMAT_VERSION 2
#define BYTE_ORDER_MARK 0x01020304u
#define HEADER_SIZE 64
#define TAG_LIVE 0x4556494cu
#define TAG_DEAD 0x44414544u
#define RECORD_HEAD 16
#define SLOT_HEAD 16
#define PAGE 4096
/* room for a file position ("inode offset") and some more */
#define MIN_CAPACITY 48
/* how often a value the file had no room for is tried again */
#define RETRY_USEC G_USEC_PER_SEC
/* the text format of version 1, which is read once and converted */
#define OLD_HEADER "# sluice persist file, version 1"

typedef struct
{
  gchar magic[8];
  guint32 version;
  guint32 byte_order;
  /* where the last record appended ends: a file shorter was cut */
  guint64 used;
} FileHeader;

typedef struct
{
  guint32 tag;              /* 0: free space from here on */
  guint32 key_len;
  guint32 capacity;         /* of each slot */
  guint32 crc;              /* of key_len, capacity and the key */
} RecordHead;

typedef struct
{
  guint64 gen;              /* written last; the higher whole slot is current */
  guint32 len;
  guint32 crc;              /* of gen, len and the value */
} SlotHead;

typedef struct
{
  gchar *key;
  guint32 key_len;
  gsize record;             /* offset in the file; 0: not in it */
  guint32 capacity;
  guint slot;
  guint64 gen;
  gchar *pending;           /* the value while it is not in the file */
} Entry;

static GMutex lock;
static GHashTable *entries;     /* key -> Entry */
static gchar *file_path;        /* NULL: kept in memory only */
static gint fd = -1;
static guint8 *map;
static gsize map_size;
static gsize used;              /* where the records end */
static guint pending_count;
static gint64 retry_at;         /* 0: the last write worked */
static gchar *failure;          /* to report once the lock is released */
static gboolean failure_reported;
static gboolean recovered;

static gsize
pad8 (gsize n)
{
  return (n + 7) & ~(gsize) 7;
}

static gsize
slot_size (guint32 capacity)
{
  return SLOT_HEAD + pad8 (capacity);
}

static gsize
record_size (guint32 key_len, guint32 capacity)
{
  return RECORD_HEAD + pad8 (key_len) + 2 * slot_size (capacity);
}

static guint32
record_crc (guint32 key_len, guint32 capacity, const guint8 *key)
{
  guint32 sizes[2] = { key_len, capacity };
  return sl_crc32c (sl_crc32c (0, sizes, sizeof sizes), key, key_len);
}

static guint32
slot_crc (guint64 gen, guint32 len, const void *value)
{
  struct { guint64 gen; guint32 len; guint32 zero; } head = { gen, len, 0 };
  return sl_crc32c (sl_crc32c (0, &head, sizeof head), value, len);
}

static guint8 *
slot_at (guint8 *record, guint32 key_len, guint32 capacity, guint slot)
{
  return record + RECORD_HEAD + pad8 (key_len) + slot * slot_size (capacity);
}

static void
entry_free (gpointer data)
{
  Entry *e = data;
  g_free (e->key);
  g_free (e->pending);
  g_free (e);
}

static Entry *
entry_get (const gchar *key, gsize key_len)
{
  Entry *e = g_hash_table_lookup (entries, key);
  if (!e)
    {
      e = g_new0 (Entry, 1);
      e->key = g_strndup (key, key_len);
      e->key_len = key_len;
      g_hash_table_insert (entries, e->key, e);
    }
  return e;
}

static void
set_pending (Entry *e, const gchar *value, gsize len)
{
  if (!e->pending)
    pending_count++;
  g_free (e->pending);
  e->pending = g_strndup (value, len);
}

static void
clear_pending (Entry *e)
{
  if (e->pending)
    pending_count--;
  g_clear_pointer (&e->pending, g_free);
}

static guint32
capacity_for (gsize len)
{
  return pad8 (MAX (len + len / 2, MIN_CAPACITY));
}

/* Writes a whole record at out (zeroed), its value in slot 0. */
static void
fill_record (guint8 *out, const Entry *e, guint32 capacity, guint64 gen, const gchar *value, guint32 len)
{
  RecordHead *head = (RecordHead *) out;
  head->key_len = e->key_len;
  head->capacity = capacity;
  head->crc = record_crc (e->key_len, capacity, (const guint8 *) e->key);
  memcpy (out + RECORD_HEAD, e->key, e->key_len);
  guint8 *slot = slot_at (out, e->key_len, capacity, 0);
  SlotHead *sh = (SlotHead *) slot;
  memcpy (slot + SLOT_HEAD, value, len);
  sh->len = len;
  sh->crc = slot_crc (gen, len, value);
  __atomic_store_n (&sh->gen, gen, __ATOMIC_RELEASE);
  __atomic_store_n (&head->tag, TAG_LIVE, __ATOMIC_RELEASE);
}

static const gchar *
current_value (const Entry *e, guint32 *len)
{
  if (e->pending || !e->record)
    {
      *len = e->pending ? strlen (e->pending) : 0;
      return e->pending;
    }
  guint8 *slot = slot_at (map + e->record, e->key_len, e->capacity, e->slot);
  *len = ((SlotHead *) slot)->len;
  return (const gchar *) slot + SLOT_HEAD;
}

/* Sets an entry that is in the file and has room: the other slot, then
 * its generation, which makes it current. */
static void
write_slot (Entry *e, const gchar *value, guint32 len)
{
  guint next = e->slot ^ 1;
  guint8 *slot = slot_at (map + e->record, e->key_len, e->capacity, next);
  SlotHead *sh = (SlotHead *) slot;
  memcpy (slot + SLOT_HEAD, value, len);
  sh->len = len;
  sh->crc = slot_crc (e->gen + 1, len, value);
  __atomic_store_n (&sh->gen, e->gen + 1, __ATOMIC_RELEASE);
  e->gen++;
  e->slot = next;
}

static gboolean
map_file (gint new_fd, gsize size)
{
  guint8 *m = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, new_fd, 0);
  if (m == MAP_FAILED)
    return FALSE;
  if (map)
    munmap (map, map_size);
  map = m;
  map_size = size;
  return TRUE;
}

/* Blocks are allocated, not only the size set: a write into a hole of a
 * full disk would kill the process (SIGBUS). A failure leaves the file as
 * it was, so what it holds stays whole. */
static gboolean
grow (gsize needed)
{
  gsize size = MAX (map_size * 2, (needed + PAGE - 1) / PAGE * PAGE);
  gint err = posix_fallocate (fd, map_size, size - map_size);
  if (err == 0 && map_file (fd, size))
    return TRUE;
  if (err == 0)
    err = errno;
  if (ftruncate (fd, map_size) < 0)
    err = err ? err : errno;
  errno = err;
  return FALSE;
}

static gboolean
append (Entry *e)
{
  guint32 len = strlen (e->pending);
  guint32 capacity = capacity_for (len);
  gsize size = record_size (e->key_len, capacity);
  if (used + size > map_size && !grow (used + size))
    return FALSE;
  guint64 gen = e->gen + 1;
  fill_record (map + used, e, capacity, gen, e->pending, len);
  if (e->record)
    __atomic_store_n (&((RecordHead *) (map + e->record))->tag, TAG_DEAD, __ATOMIC_RELEASE);
  e->record = used;
  e->capacity = capacity;
  e->slot = 0;
  e->gen = gen;
  used += size;
  __atomic_store_n (&((FileHeader *) map)->used, (guint64) used, __ATOMIC_RELEASE);
  clear_pending (e);
  return TRUE;
}

/* The whole store as a new file renamed over the old one: at the start,
 * for a file converted, damaged or with dead records, or made for the
 * first time. */
static gboolean
rewrite (void)
{
  gsize total = HEADER_SIZE;
  GHashTableIter iter;
  Entry *e;
  g_hash_table_iter_init (&iter, entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &e))
    {
      guint32 len;
      current_value (e, &len);
      total += record_size (e->key_len, capacity_for (len));
    }
  /* as much again for values that outgrow their slots */
  gsize size = (total * 2 + PAGE - 1) / PAGE * PAGE;
  guint8 *image = g_malloc0 (size);
  FileHeader *header = (FileHeader *) image;
  memcpy (header->magic, MAGIC, sizeof header->magic);
  header->version = FORMAT_VERSION;
  header->byte_order = BYTE_ORDER_MARK;
  header->used = total;
  gsize at = HEADER_SIZE;
  g_hash_table_iter_init (&iter, entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &e))
    {
      guint32 len;
      const gchar *value = current_value (e, &len);
      guint32 capacity = capacity_for (len);
      fill_record (image + at, e, capacity, 1, value, len);
      at += record_size (e->key_len, capacity);
    }

  /* a name no one else made (O_EXCL) */
  gchar *tmp = g_strconcat (file_path, ".XXXXXX", NULL);
  gint new_fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, 0600);
  gboolean ok = new_fd >= 0;
  gint err = 0;
  for (gsize done = 0; ok && done < size;)
    {
      gssize n = write (new_fd, image + done, size - done);
      if (n < 0 && errno == EINTR)
        continue;
      ok = n > 0;
      done += ok ? n : 0;
    }
  /* renamed only once it is on disk: a power loss leaves the old file or
   * this one */
  ok = ok && fsync (new_fd) == 0 && rename (tmp, file_path) == 0;
  if (ok)
    {
      guint8 *old_map = map;
      map = NULL;
      ok = map_file (new_fd, size);
      map = ok ? map : old_map;
      if (ok && old_map)
        munmap (old_map, map_size);
    }
  err = errno;
  if (!ok)
    {
      if (new_fd >= 0)
        close (new_fd);
      unlink (tmp);
      g_free (tmp);
      g_free (image);
      errno = err;
      return FALSE;
    }
  if (fd >= 0)
    close (fd);
  fd = new_fd;
  map_size = size;
  used = total;
  at = HEADER_SIZE;
  g_hash_table_iter_init (&iter, entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &e))
    {
      const RecordHead *head = (const RecordHead *) (map + at);
      e->record = at;
      e->capacity = head->capacity;
      e->slot = 0;
      e->gen = 1;
      clear_pending (e);
      at += record_size (e->key_len, e->capacity);
    }
  g_free (tmp);
  g_free (image);
  return TRUE;
}

static void
note_failure (void)
{
  if (!failure_reported && !failure)
    failure = g_strdup_printf (_("cannot write the persist file %s: %s; the positions it cannot take are kept in "
                                 "memory (a crash loses them) and written as soon as it can"),
                               file_path, g_strerror (errno));
  retry_at = g_get_monotonic_time () + RETRY_USEC;
}

/* Puts the values the file does not hold yet into it: e alone, or every
 * one (e NULL). */
static void
place_locked (Entry *e)
{
  if (!file_path || !pending_count || (retry_at && g_get_monotonic_time () < retry_at))
    return;
  gboolean ok;
  if (!map)
    ok = rewrite ();
  else if (e && !retry_at)
    ok = append (e);
  else
    {
      GHashTableIter iter;
      ok = TRUE;
      g_hash_table_iter_init (&iter, entries);
      while (ok && g_hash_table_iter_next (&iter, NULL, (gpointer *) &e))
        ok = !e->pending || append (e);
    }
  if (!ok)
    note_failure ();
  else if (!pending_count && retry_at)
    {
      retry_at = 0;
      recovered = failure_reported || failure;
      failure_reported = FALSE;
    }
}

/* What place_locked() had to say, said once the lock is released. */
static void
report (void)
{
  g_mutex_lock (&lock);
  gchar *text = g_steal_pointer (&failure);
  failure_reported = failure_reported || text;
  gboolean back = recovered;
  recovered = FALSE;
  gchar *path = back ? g_strdup (file_path) : NULL;
  g_mutex_unlock (&lock);
  if (text)
    sl_log (SL_LOG_WARNING, "%s", text);
  if (back)
    sl_log (SL_LOG_NOTICE, _("the persist file %s takes positions again"), path);
  g_free (text);
  g_free (path);
}

/* Version 1: one line per key, the key, a tab, the value, both in C
 * escapes. */
static void
load_text (const gchar *text, gsize size)
{
  gchar *copy = g_strndup (text, size);
  gchar **lines = g_strsplit (copy, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      const gchar *line = lines[i];
      const gchar *tab = strchr (line, '\t');
      if (line[0] == '#' || !tab)
        continue;
      gchar *escaped_key = g_strndup (line, tab - line);
      gchar *key = g_strcompress (escaped_key);
      gchar *value = g_strcompress (tab + 1);
      set_pending (entry_get (key, strlen (key)), value, strlen (value));
      g_free (key);
      g_free (value);
      g_free (escaped_key);
    }
  g_strfreev (lines);
  g_free (copy);
}

/* The newest whole slot of the record at data, or -1. */
static gint
best_slot (const guint8 *record, const RecordHead *head, guint64 *gen)
{
  gint best = -1;
  for (guint i = 0; i < 2; i++)
    {
      const guint8 *slot = slot_at ((guint8 *) record, head->key_len, head->capacity, i);
      const SlotHead *sh = (const SlotHead *) slot;
      if (sh->gen && sh->len <= head->capacity && sh->crc == slot_crc (sh->gen, sh->len, slot + SLOT_HEAD)
          && (best < 0 || sh->gen > *gen))
        {
          best = i;
          *gen = sh->gen;
        }
    }
  return best;
}

typedef struct
{
  gboolean damaged;         /* something whole was lost */
  gsize damaged_at;
  gboolean untidy;          /* dead records or a write cut by a kill */
  gsize end;
} Scan;

/* Version 2, read in place: every whole record of data, stopping at the
 * first that is not. */
static void
load_records (const guint8 *data, gsize size, Scan *scan)
{
  const FileHeader *header = (const FileHeader *) data;
  gsize at = HEADER_SIZE;
  while (at + RECORD_HEAD <= size)
    {
      const RecordHead *head = (const RecordHead *) (data + at);
      if (head->tag == 0)
        break;
      gsize rsize = record_size (head->key_len, head->capacity);
      if ((head->tag != TAG_LIVE && head->tag != TAG_DEAD) || head->key_len > size || head->capacity > size
          || rsize > size - at || head->crc != record_crc (head->key_len, head->capacity, data + at + RECORD_HEAD))
        {
          scan->damaged = TRUE;
          scan->damaged_at = at;
          break;
        }
      gchar *key = g_strndup ((const gchar *) data + at + RECORD_HEAD, head->key_len);
      guint64 gen = 0;
      gint slot = head->tag == TAG_LIVE ? best_slot (data + at, head, &gen) : -1;
      Entry *e = g_hash_table_lookup (entries, key);
      if (head->tag == TAG_DEAD || strlen (key) != head->key_len)
        scan->untidy = TRUE;
      else if (slot < 0)
        {
          /* a value overwritten on disk: the key alone is left */
          scan->damaged = TRUE;
          scan->damaged_at = at;
        }
      else if (e && e->gen >= gen)
        scan->untidy = TRUE;
      else
        {
          /* the newer of two records of a key, when a kill came between
           * making the new one and marking the old one dead */
          scan->untidy = scan->untidy || e != NULL;
          e = entry_get (key, head->key_len);
          const guint8 *s = slot_at ((guint8 *) data + at, head->key_len, head->capacity, slot);
          set_pending (e, (const gchar *) s + SLOT_HEAD, ((const SlotHead *) s)->len);
          e->record = at;
          e->capacity = head->capacity;
          e->slot = slot;
          e->gen = gen;
        }
      g_free (key);
      at += rsize;
    }
  scan->end = at;
  if (!scan->damaged && header->used > at)
    {
      scan->damaged = TRUE;
      scan->damaged_at = at;
    }
  for (gsize i = at; i < size && !scan->untidy && !scan->damaged; i++)
    scan->untidy = data[i] != 0;
}

static gboolean
is_ours (const guint8 *data, gsize size)
{
  const FileHeader *header = (const FileHeader *) data;
  return size >= HEADER_SIZE && memcmp (header->magic, MAGIC, sizeof header->magic) == 0
         && header->version == FORMAT_VERSION && header->byte_order == BYTE_ORDER_MARK;
}

/* Reads what new_fd holds into the table; TRUE when the file can be used
 * as it is, FALSE when it must be written anew. */
static gboolean
load (gint new_fd, const gchar *path, gsize size)
{
  if (size == 0)
    return FALSE;
  guint8 *data = mmap (NULL, size, PROT_READ, MAP_SHARED, new_fd, 0);
  if (data == MAP_FAILED)
    {
      sl_log (SL_LOG_WARNING, _("cannot read the persist file %s: %s; starting without saved positions"), path,
              g_strerror (errno));
      return FALSE;
    }
  gboolean in_place = FALSE;
  if (size >= strlen (OLD_HEADER) && memcmp (data, OLD_HEADER, strlen (OLD_HEADER)) == 0)
    {
      load_text ((const gchar *) data, size);
      sl_log (SL_LOG_NOTICE, _("converting the persist file %s to format %d (%u positions)"), path, FORMAT_VERSION,
              g_hash_table_size (entries));
    }
  else if (!is_ours (data, size))
    sl_log (SL_LOG_WARNING, _("the persist file %s is not one Sluice can read (cut short before the end of its "
                              "header, or of another program or version); starting without saved positions "
                              "and replacing it"), path);
  else
    {
      Scan scan = { 0 };
      load_records (data, size, &scan);
      if (scan.damaged)
        sl_log (SL_LOG_WARNING, _("the persist file %s is cut short or damaged at byte %" G_GSIZE_FORMAT "; the %u "
                                  "positions before are kept, what was saved from there on is lost"),
                path, scan.damaged_at, g_hash_table_size (entries));
      in_place = !scan.damaged && !scan.untidy;
      used = scan.end;
    }
  munmap (data, size);
  return in_place;
}

static void
reset_locked (void)
{
  if (map)
    munmap (map, map_size);
  map = NULL;
  map_size = 0;
  used = 0;
  if (fd >= 0)
    close (fd);
  fd = -1;
  g_clear_pointer (&file_path, g_free);
  g_clear_pointer (&entries, g_hash_table_unref);
  entries = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, entry_free);
  pending_count = 0;
  retry_at = 0;
  g_clear_pointer (&failure, g_free);
  failure_reported = FALSE;
  recovered = FALSE;
}

gboolean
sl_persist_open (const gchar *path, GError **error)
{
  g_mutex_lock (&lock);
  reset_locked ();
  /* what is not the daemon's own is neither read nor replaced */
  if (!sl_owned_path_check (path, S_IFREG, _("the persist file"), error))
    {
      g_mutex_unlock (&lock);
      return FALSE;
    }
  file_path = g_strdup (path);
  gint new_fd = open (path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  if (new_fd >= 0 && fstat (new_fd, &st) < 0)
    {
      close (new_fd);
      new_fd = -1;
    }
  if (new_fd < 0 && errno != ENOENT)
    {
      gint err = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (err), _("cannot read the persist file %s: %s"),
                   path, g_strerror (err));
      g_mutex_unlock (&lock);
      return FALSE;
    }
  gboolean in_place = new_fd >= 0 && load (new_fd, path, st.st_size);
  if (in_place && map_file (new_fd, st.st_size))
    {
      fd = new_fd;
      GHashTableIter iter;
      Entry *e;
      g_hash_table_iter_init (&iter, entries);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &e))
        clear_pending (e);
    }
  else
    {
      if (new_fd >= 0)
        close (new_fd);
      /* made now, while the daemon may still be root; what it could
       * not take is kept in memory and tried again at the next set */
      if (!rewrite ())
        note_failure ();
    }
  g_mutex_unlock (&lock);
  report ();
  return TRUE;
}

gboolean
sl_persist_sync (GError **error)
{
  g_mutex_lock (&lock);
  if (retry_at)
    retry_at = 1;
  place_locked (NULL);
  gboolean ok = !map || msync (map, map_size, MS_SYNC) == 0;
  gint err = errno;
  gchar *path = g_strdup (file_path);
  gboolean placed = pending_count == 0 || !file_path;
  g_mutex_unlock (&lock);
  report ();
  if (!ok)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (err), _("cannot sync the persist file %s: %s"), path,
                 g_strerror (err));
  else if (!placed)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOSPC,
                 _("the persist file %s could not take some positions; a restart reads their sources "
                   "again from the positions it holds"), path);
  g_free (path);
  return ok && placed;
}

void
sl_persist_close (void)
{
  GError *error = NULL;
  if (!sl_persist_sync (&error))
    {
      sl_log (SL_LOG_WARNING, "%s", error->message);
      g_error_free (error);
    }
  g_mutex_lock (&lock);
  reset_locked ();
  g_clear_pointer (&entries, g_hash_table_unref);
  g_mutex_unlock (&lock);
}

gchar *
sl_persist_dir (void)
{
  g_mutex_lock (&lock);
  gchar *dir = file_path ? g_path_get_dirname (file_path) : NULL;
  g_mutex_unlock (&lock);
  return dir;
}

gchar *
sl_persist_get (const gchar *key)
{
  g_mutex_lock (&lock);
  Entry *e = entries ? g_hash_table_lookup (entries, key) : NULL;
  gchar *value = NULL;
  if (e)
    {
      guint32 len;
      const gchar *v = current_value (e, &len);
      value = g_strndup (v, len);
    }
  g_mutex_unlock (&lock);
  return value;
}

void
sl_persist_set (const gchar *key, const gchar *value)
{
  gsize len = strlen (value);
  g_mutex_lock (&lock);
  if (!entries)
    entries = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, entry_free);
  Entry *e = g_hash_table_lookup (entries, key);
  if (e && e->record && !e->pending && len <= e->capacity)
    {
      guint32 old_len;
      const gchar *old = current_value (e, &old_len);
      if (old_len != len || memcmp (old, value, len) != 0)
        write_slot (e, value, len);
      g_mutex_unlock (&lock);
      return;
    }
  e = entry_get (key, strlen (key));
  set_pending (e, value, len);
  place_locked (retry_at ? NULL : e);
  gboolean say = failure || recovered;
  g_mutex_unlock (&lock);
  if (say)
    report ();
}
