/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/parsers/geoip2/geoip2-lookup.h"
#include "core/i18n.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <netinet/in.h>

static const gchar *const usual_places[] = {
  "/usr/share/GeoIP/GeoLite2-City.mmdb",
  "/var/lib/GeoIP/GeoLite2-City.mmdb",
};

MMDB_lookup_result_s
geoip2_lookup (MMDB_s *db, const gchar *address, int *gai_error, int *mmdb_error)
{
  struct sockaddr_in v4 = { .sin_family = AF_INET };
  struct sockaddr_in6 v6 = { .sin6_family = AF_INET6 };
  *gai_error = 0;
  if (inet_pton (AF_INET, address, &v4.sin_addr) == 1)
    return MMDB_lookup_sockaddr (db, (const struct sockaddr *) &v4, mmdb_error);
  if (inet_pton (AF_INET6, address, &v6.sin6_addr) == 1)
    return MMDB_lookup_sockaddr (db, (const struct sockaddr *) &v6, mmdb_error);
  /* the other forms getaddrinfo() takes (scoped, 127.1, ...) and its errors */
  return MMDB_lookup_string (db, address, gai_error, mmdb_error);
}

MMDB_s *
geoip2_open (const gchar *path, gchar **opened, GError **error)
{
  if (!path)
    for (guint i = 0; !path && i < G_N_ELEMENTS (usual_places); i++)
      if (g_file_test (usual_places[i], G_FILE_TEST_EXISTS))
        path = usual_places[i];
  if (!path)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                   _("no database() given, and none of %s, %s exists"), usual_places[0], usual_places[1]);
      return NULL;
    }
  MMDB_s *db = g_new0 (MMDB_s, 1);
  int status = MMDB_open (path, MMDB_MODE_MMAP, db);
  if (status != MMDB_SUCCESS)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("cannot open %s: %s"), path, MMDB_strerror (status));
      g_free (db);
      return NULL;
    }
  *opened = g_strdup (path);
  return db;
}

void
geoip2_close (MMDB_s *db)
{
  if (!db)
    return;
  MMDB_close (db);
  g_free (db);
}

/* numbers as printf writes them with syslog-ng's formats: doubles %f */
gboolean
geoip2_append_value (GString *out, const MMDB_entry_data_s *data)
{
  switch (data->type)
    {
    case MMDB_DATA_TYPE_UTF8_STRING:
      g_string_append_len (out, data->utf8_string, data->data_size);
      return TRUE;
    case MMDB_DATA_TYPE_DOUBLE:
      g_string_append_printf (out, "%f", data->double_value);
      return TRUE;
    case MMDB_DATA_TYPE_FLOAT:
      g_string_append_printf (out, "%f", (double) data->float_value);
      return TRUE;
    case MMDB_DATA_TYPE_UINT16:
      g_string_append_printf (out, "%u", data->uint16);
      return TRUE;
    case MMDB_DATA_TYPE_UINT32:
      g_string_append_printf (out, "%u", data->uint32);
      return TRUE;
    case MMDB_DATA_TYPE_INT32:
      g_string_append_printf (out, "%d", data->int32);
      return TRUE;
    case MMDB_DATA_TYPE_UINT64:
      g_string_append_printf (out, "%" PRIu64, data->uint64);
      return TRUE;
    case MMDB_DATA_TYPE_BOOLEAN:
      g_string_append (out, data->boolean ? "true" : "false");
      return TRUE;
    default:
      return FALSE;
    }
}
