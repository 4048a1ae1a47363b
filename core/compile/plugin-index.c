/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/compile/plugin-index.h"

#include <elf.h>
#include <link.h>
#include <string.h>

/* the key of a kind in an entry: its name, without spaces */
static gchar *
kind_key (SlDriverKind kind)
{
  return g_strdelimit (g_strdup (sl_driver_kind_name (kind)), " ", '-');
}

/* The build id among the notes of one PT_NOTE segment, notes[0..len). */
static gchar *
build_id_in_notes (const guint8 *notes, gsize len)
{
  gsize at = 0;
  while (at + sizeof (ElfW (Nhdr)) <= len)
    {
      ElfW (Nhdr) h;
      memcpy (&h, notes + at, sizeof h);
      gsize name_at = at + sizeof h;
      gsize desc_at = name_at + ((h.n_namesz + 3) & ~3u);
      gsize next = desc_at + ((h.n_descsz + 3) & ~3u);
      if (next > len || desc_at > len || h.n_descsz > len - desc_at)
        return NULL;
      if (h.n_type == NT_GNU_BUILD_ID && h.n_namesz == 4 && memcmp (notes + name_at, "GNU", 4) == 0
          && h.n_descsz > 0)
        {
          GString *hex = g_string_sized_new (h.n_descsz * 2);
          for (guint i = 0; i < h.n_descsz; i++)
            g_string_append_printf (hex, "%02x", notes[desc_at + i]);
          return g_string_free (hex, FALSE);
        }
      at = next;
    }
  return NULL;
}

gchar *
sl_plugin_build_id (const gchar *path)
{
  g_autoptr (GMappedFile) map = g_mapped_file_new (path, FALSE, NULL);
  if (!map)
    return NULL;
  const guint8 *data = (const guint8 *) g_mapped_file_get_contents (map);
  gsize size = g_mapped_file_get_length (map);
  ElfW (Ehdr) eh;
  if (size < sizeof eh)
    return NULL;
  memcpy (&eh, data, sizeof eh);
  if (memcmp (eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != (sizeof (void *) == 8 ? ELFCLASS64 : ELFCLASS32)
      || eh.e_phentsize != sizeof (ElfW (Phdr)) || eh.e_phoff > size
      || (gsize) eh.e_phnum * sizeof (ElfW (Phdr)) > size - eh.e_phoff)
    return NULL;
  for (guint i = 0; i < eh.e_phnum; i++)
    {
      ElfW (Phdr) ph;
      memcpy (&ph, data + eh.e_phoff + i * sizeof ph, sizeof ph);
      if (ph.p_type != PT_NOTE || ph.p_offset > size || ph.p_filesz > size - ph.p_offset)
        continue;
      gchar *id = build_id_in_notes (data + ph.p_offset, ph.p_filesz);
      if (id)
        return id;
    }
  return NULL;
}

void
sl_plugin_entry_free (SlPluginEntry *entry)
{
  if (!entry)
    return;
  g_free (entry->file);
  for (guint k = 0; k < SL_DRIVER_KIND_COUNT; k++)
    g_strfreev (entry->names.drivers[k]);
  g_strfreev (entry->names.rsyslog);
  g_strfreev (entry->names.inherits);
  g_free (entry);
}

static gchar **
list_or_empty (GKeyFile *kf, const gchar *group, const gchar *key)
{
  gchar **list = g_key_file_get_string_list (kf, group, key, NULL, NULL);
  return list ? list : g_new0 (gchar *, 1);
}

GHashTable *
sl_plugin_index_read (const gchar *dir)
{
  g_autofree gchar *path = g_build_filename (dir, SL_PLUGIN_INDEX_FILE, NULL);
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  if (!g_key_file_load_from_file (kf, path, G_KEY_FILE_NONE, NULL))
    return NULL;
  GHashTable *entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                               (GDestroyNotify) sl_plugin_entry_free);
  g_auto (GStrv) groups = g_key_file_get_groups (kf, NULL);
  for (guint i = 0; groups[i]; i++)
    {
      const gchar *name = groups[i];
      if (strchr (name, G_DIR_SEPARATOR))
        continue;
      g_autofree gchar *file = g_build_filename (dir, name, NULL);
      g_autofree gchar *indexed = g_key_file_get_string (kf, name, "build-id", NULL);
      g_autofree gchar *now = sl_plugin_build_id (file);
      if (!indexed || !now || strcmp (indexed, now) != 0
          || g_key_file_get_integer (kf, name, "abi", NULL) != SL_ABI_VERSION)
        continue;
      SlPluginEntry *e = g_new0 (SlPluginEntry, 1);
      e->file = g_steal_pointer (&file);
      for (guint k = 0; k < SL_DRIVER_KIND_COUNT; k++)
        {
          g_autofree gchar *key = kind_key (k);
          e->names.drivers[k] = list_or_empty (kf, name, key);
        }
      e->names.rsyslog = list_or_empty (kf, name, "rsyslog");
      e->names.inherits = list_or_empty (kf, name, "inherits");
      g_hash_table_insert (entries, g_strdup (name), e);
    }
  return entries;
}

static void
set_list (GKeyFile *kf, const gchar *group, const gchar *key, GPtrArray *names)
{
  if (names->len)
    g_key_file_set_string_list (kf, group, key, (const gchar *const *) names->pdata, names->len);
}

static void
index_module (GKeyFile *kf, const gchar *name, const gchar *build_id, const SlModule *module)
{
  g_key_file_set_string (kf, name, "build-id", build_id);
  g_key_file_set_integer (kf, name, "abi", (gint) module->abi_version);
  for (guint k = 0; k < SL_DRIVER_KIND_COUNT; k++)
    {
      g_autoptr (GPtrArray) names = g_ptr_array_new ();
      for (const SlDriverClass *const *d = module->drivers; *d; d++)
        if ((*d)->kind == k)
          g_ptr_array_add (names, (gpointer) (*d)->name);
      g_autofree gchar *key = kind_key (k);
      set_list (kf, name, key, names);
    }
  g_autoptr (GPtrArray) rsyslog = g_ptr_array_new ();
  for (const SlRsModule *const *m = module->rsyslog_modules; m && *m; m++)
    g_ptr_array_add (rsyslog, (gpointer) (*m)->name);
  set_list (kf, name, "rsyslog", rsyslog);
  g_autoptr (GPtrArray) inherits = g_ptr_array_new ();
  for (const SlDriverClass *const *d = module->drivers; *d; d++)
    for (const SlOptionSpec *o = (*d)->options; o && o->name; o++)
      if (o->inherit && !g_ptr_array_find_with_equal_func (inherits, o->inherit, g_str_equal, NULL))
        g_ptr_array_add (inherits, (gpointer) o->inherit);
  set_list (kf, name, "inherits", inherits);
}

gboolean
sl_plugin_index_write (const gchar *dir, GPtrArray *files, GPtrArray *modules, GError **error)
{
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  for (guint i = 0; i < files->len; i++)
    {
      const gchar *file = g_ptr_array_index (files, i);
      g_autofree gchar *build_id = sl_plugin_build_id (file);
      /* without a build id nothing could tell a stale entry: loaded at start */
      if (!build_id)
        continue;
      g_autofree gchar *name = g_path_get_basename (file);
      index_module (kf, name, build_id, g_ptr_array_index (modules, i));
    }
  g_key_file_set_comment (kf, NULL, NULL,
                          " written by sluiced --write-plugin-index: what each plugin of this folder serves",
                          NULL);
  g_autofree gchar *path = g_build_filename (dir, SL_PLUGIN_INDEX_FILE, NULL);
  return g_key_file_save_to_file (kf, path, error);
}
