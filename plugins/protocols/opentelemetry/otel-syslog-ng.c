/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The layout is syslog-ng 4's (modules/grpc/otel, its formatter's
 * format_syslog_ng()), so that syslog-ng's syslog-ng-otlp() source reads
 * what this sends and Sluice's opentelemetry() source what syslog-ng
 * sends. Each value goes under its type's name ("string", "int",
 * "double", "boolean", "null", "list", "json", "datetime"), as syslog-ng 4 groups
 * them, the groups in the order their first value comes. */
#include "otel-syslog-ng.h"
#include "opentelemetry/proto/logs/v1/logs.pb-c.h"

#include <arpa/inet.h>
#include <string.h>

typedef Opentelemetry__Proto__Common__V1__AnyValue AnyValue;
typedef Opentelemetry__Proto__Common__V1__KeyValue KeyValue;
typedef Opentelemetry__Proto__Common__V1__KeyValueList KeyValueList;

/* KeyValues of one kvlist, in one allocation each, freed together */
typedef struct
{
  GPtrArray *kvs;            /* KeyValue *, owned with their AnyValue */
  KeyValueList list;
  AnyValue value;            /* the kvlist as a value */
} List;

static void
list_init (List *l)
{
  l->kvs = g_ptr_array_new_with_free_func (g_free);
  opentelemetry__proto__common__v1__key_value_list__init (&l->list);
  opentelemetry__proto__common__v1__any_value__init (&l->value);
  l->value.value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_KVLIST_VALUE;
  l->value.kvlist_value = &l->list;
}

static AnyValue *
list_add (List *l, const gchar *key)
{
  /* the KeyValue and its AnyValue together */
  KeyValue *kv = g_malloc0 (sizeof (KeyValue) + sizeof (AnyValue));
  AnyValue *v = (AnyValue *) (kv + 1);
  opentelemetry__proto__common__v1__key_value__init (kv);
  opentelemetry__proto__common__v1__any_value__init (v);
  kv->key = (gchar *) key;
  kv->value = v;
  g_ptr_array_add (l->kvs, kv);
  return v;
}

static void
list_close (List *l)
{
  l->list.n_values = l->kvs->len;
  l->list.values = (KeyValue **) l->kvs->pdata;
}

static void
set_bytes (AnyValue *v, const gchar *p, gsize len)
{
  v->value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_BYTES_VALUE;
  v->bytes_value.data = (guint8 *) p;
  v->bytes_value.len = len;
}

static void
set_int (AnyValue *v, gint64 n)
{
  v->value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_INT_VALUE;
  v->int_value = n;
}

/* syslog-ng's names of the types (log_msg_value_type_to_str()) */
static const gchar *const type_names[] = {
  [SL_VALUE_STRING] = "string", [SL_VALUE_JSON] = "json", [SL_VALUE_LIST] = "list", [SL_VALUE_INT32] = "int",
  [SL_VALUE_INT64] = "int", [SL_VALUE_DOUBLE] = "double", [SL_VALUE_BOOLEAN] = "boolean", [SL_VALUE_NULL] = "null",
  [SL_VALUE_DATETIME] = "datetime",
};

/* "n": a kvlist per type name, each the values of that type */
typedef struct
{
  const SlMessage *msg;
  List types;
  List groups[G_N_ELEMENTS (type_names)];
  AnyValue *slots[G_N_ELEMENTS (type_names)];  /* a group's place in types, NULL until its first value */
} ByType;

static void
add_typed (ByType *n, SlHandle h)
{
  gsize len = 0;
  SlValueType type;
  const gchar *value = sl_message_get_typed (n->msg, h, &len, &type);
  const gchar *name = sl_field_name (h);
  if (!value || !name || type >= G_N_ELEMENTS (type_names))
    return;
  /* the first group of a name takes it: int32 and int64 are both "int" */
  guint group = type == SL_VALUE_INT32 ? SL_VALUE_INT64 : type;
  if (!n->slots[group])
    {
      list_init (&n->groups[group]);
      n->slots[group] = list_add (&n->types, type_names[group]);
    }
  set_bytes (list_add (&n->groups[group], name), value, len);
}

static gboolean
add_dynamic (SlHandle h, const gchar *value, gsize len, gpointer data)
{
  add_typed (data, h);
  return TRUE;
}

static void
by_type_close (ByType *n)
{
  for (guint g = 0; g < G_N_ELEMENTS (type_names); g++)
    if (n->slots[g])
      {
        list_close (&n->groups[g]);
        *n->slots[g] = n->groups[g].value;
      }
  list_close (&n->types);
}

static void
by_type_clear (ByType *n)
{
  for (guint g = 0; g < G_N_ELEMENTS (type_names); g++)
    if (n->slots[g])
      g_ptr_array_unref (n->groups[g].kvs);
  g_ptr_array_unref (n->types.kvs);
}

void
otel_syslog_ng_record (const SlMessage *msg, GByteArray *out)
{
  ByType types = { .msg = msg };
  List macros, source;
  list_init (&types.types);
  list_init (&macros);
  list_init (&source);

  for (SlHandle h = SL_F_NONE + 1; h < SL_F_BUILTIN_MAX; h++)
    /* the sender's address goes in "sa", as syslog-ng keeps it */
    if (h != SL_F_SOURCEIP && sl_message_has (msg, h))
      add_typed (&types, h);
  sl_message_foreach_dynamic (msg, add_dynamic, &types);
  by_type_close (&types);

  set_int (list_add (&macros, "PRI"), msg->pri);
  g_autoptr (GString) tags = g_string_new (NULL);
  sl_message_append_tags (msg, tags);
  set_bytes (list_add (&macros, "TAGS"), tags->str, tags->len);
  set_int (list_add (&macros, "STAMP_GMTOFF"), msg->stamp.gmtoff);
  set_int (list_add (&macros, "RECVD_GMTOFF"), msg->recvd.gmtoff);
  list_close (&macros);

  guint8 addr[16];
  gsize addr_len = 0;
  gsize ip_len = 0;
  const gchar *ip = sl_message_get (msg, SL_F_SOURCEIP, &ip_len);
  g_autofree gchar *ip_text = ip ? g_strndup (ip, ip_len) : NULL;
  if (ip_text && inet_pton (AF_INET, ip_text, addr) == 1)
    addr_len = 4;
  else if (ip_text && inet_pton (AF_INET6, ip_text, addr) == 1)
    addr_len = 16;
  if (addr_len)
    set_bytes (list_add (&source, "addr"), (const gchar *) addr, addr_len);
  list_close (&source);

  KeyValue n = OPENTELEMETRY__PROTO__COMMON__V1__KEY_VALUE__INIT, m = OPENTELEMETRY__PROTO__COMMON__V1__KEY_VALUE__INIT,
           sa = OPENTELEMETRY__PROTO__COMMON__V1__KEY_VALUE__INIT;
  n.key = "n";
  n.value = &types.types.value;
  m.key = "m";
  m.value = &macros.value;
  sa.key = "sa";
  sa.value = &source.value;
  KeyValue *attributes[] = { &n, &m, &sa };

  Opentelemetry__Proto__Logs__V1__LogRecord record = OPENTELEMETRY__PROTO__LOGS__V1__LOG_RECORD__INIT;
  record.time_unix_nano = (guint64) msg->stamp.usec * 1000;
  record.observed_time_unix_nano = (guint64) msg->recvd.usec * 1000;
  record.n_attributes = addr_len ? 3 : 2;
  record.attributes = attributes;
  g_byte_array_set_size (out, (guint) protobuf_c_message_get_packed_size (&record.base));
  protobuf_c_message_pack (&record.base, out->data);

  by_type_clear (&types);
  g_ptr_array_unref (macros.kvs);
  g_ptr_array_unref (source.kvs);
}
