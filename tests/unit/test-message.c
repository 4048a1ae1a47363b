/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/message/message.h"
#include "core/message/in-flight.h"
#include "core/message/member-name.h"
#include "core/message/window.h"

#include <string.h>

static void
assert_field (const SlMessage *msg, SlHandle h, const gchar *expected)
{
  gsize len;
  const gchar *v = sl_message_get (msg, h, &len);
  if (!expected)
    {
      g_assert_null (v);
      return;
    }
  g_assert_nonnull (v);
  g_assert_cmpmem (v, len, expected, strlen (expected));
}

static void
test_builtin_handles_are_fixed (void)
{
  g_assert_cmpuint (sl_field_handle ("HOST"), ==, SL_F_HOST);
  g_assert_cmpuint (sl_field_handle ("MESSAGE"), ==, SL_F_MESSAGE);
  g_assert_cmpstr (sl_field_name (SL_F_PROGRAM), ==, "PROGRAM");
  SlHandle a = sl_field_handle ("json.user.id");
  g_assert_cmpuint (a, >=, SL_F_BUILTIN_MAX);
  g_assert_cmpuint (sl_field_handle ("json.user.id"), ==, a);
  g_assert_cmpuint (sl_field_lookup ("json.user.id"), ==, a);
  g_assert_cmpuint (sl_field_lookup ("never.interned.name"), ==, SL_F_NONE);
  g_assert_cmpstr (sl_field_name (a), ==, "json.user.id");
}

static void
test_slices_and_copies (void)
{
  const gchar *line = "host prog: hello";
  SlMessage *msg = sl_message_new (line, strlen (line));
  sl_message_set_slice (msg, SL_F_HOST, msg->raw, 4);
  sl_message_set_slice (msg, SL_F_MESSAGE, msg->raw + 11, 5);
  sl_message_set (msg, SL_F_PROGRAM, "prog", -1);
  SlHandle dyn = sl_field_handle (".SDATA.meta.x");
  sl_message_set (msg, dyn, "1", 1);
  assert_field (msg, SL_F_HOST, "host");
  assert_field (msg, SL_F_MESSAGE, "hello");
  assert_field (msg, SL_F_PROGRAM, "prog");
  assert_field (msg, dyn, "1");
  assert_field (msg, SL_F_PID, NULL);
  g_assert_true (sl_message_has (msg, dyn));
  sl_message_unset (msg, dyn);
  g_assert_false (sl_message_has (msg, dyn));
  sl_message_set (msg, SL_F_HOST, "other", -1);
  assert_field (msg, SL_F_HOST, "other");
  sl_message_unref (msg);
}

static void
test_extra_bytes_hold_peer (void)
{
  const gchar *peer = NULL;
  SlMessage *msg = sl_message_new_with_extra ("abc", 3, "10.1.2.3", 8, &peer);
  g_assert_cmpstr (peer, ==, "10.1.2.3");
  g_assert_cmpuint (msg->raw_len, ==, 3);
  g_assert_cmpstr (msg->raw, ==, "abc");
  sl_message_set_slice (msg, SL_F_HOST_FROM, peer, 8);
  SlMessage *copy = sl_message_clone (msg);
  sl_message_unref (msg);
  assert_field (copy, SL_F_HOST_FROM, "10.1.2.3");
  g_assert_true (sl_message_get (copy, SL_F_HOST_FROM, NULL) > copy->raw);
  sl_message_unref (copy);
}

static void
test_copy_on_write (void)
{
  SlMessage *msg = sl_message_new ("text", 4);
  sl_message_set_slice (msg, SL_F_MESSAGE, msg->raw, 4);
  sl_message_set_tag (msg, "seen");
  SlMessage *path_a = sl_message_ref (msg);
  SlMessage *path_b = sl_message_ref (msg);

  sl_message_make_writable (&path_b);
  g_assert_true (path_b != msg);
  sl_message_set (path_b, SL_F_MESSAGE, "changed", -1);
  sl_message_set_tag (path_b, "rewritten");

  assert_field (path_a, SL_F_MESSAGE, "text");
  assert_field (path_b, SL_F_MESSAGE, "changed");
  g_assert_true (sl_message_has_tag (path_b, "seen"));
  g_assert_true (sl_message_has_tag (path_b, "rewritten"));
  g_assert_false (sl_message_has_tag (path_a, "rewritten"));
  sl_message_clear_tag (path_b, "seen");
  sl_message_clear_tag (path_b, "never-set");
  g_assert_false (sl_message_has_tag (path_b, "seen"));
  g_assert_true (sl_message_has_tag (path_b, "rewritten"));
  g_assert_true (sl_message_has_tag (path_a, "seen"));

  /* the only holder writes in place */
  sl_message_unref (path_a);
  sl_message_unref (msg);
  SlMessage *before = path_b;
  sl_message_make_writable (&path_b);
  g_assert_true (path_b == before);
  sl_message_unref (path_b);
}

static void
test_clone_rebases_slices (void)
{
  SlMessage *msg = sl_message_new ("abcdef", 6);
  sl_message_set_slice (msg, SL_F_PROGRAM, msg->raw + 2, 3);
  SlHandle dyn = sl_field_handle ("test.dyn");
  sl_message_set_slice (msg, dyn, msg->raw + 1, 2);
  SlMessage *copy = sl_message_clone (msg);
  sl_message_unref (msg);
  assert_field (copy, SL_F_PROGRAM, "cde");
  assert_field (copy, dyn, "bc");
  sl_message_unref (copy);
}

/* syslog-ng 4's TRANSPORT and MSGFORMAT: dynamic fields at fixed handles,
 * set from constants without a copy, kept so by a clone */
static void
test_static_values_are_not_copied (void)
{
  static const gchar transport[] = "rfc3164+tcp";
  g_assert_cmpuint (sl_field_handle ("TRANSPORT"), ==, SL_F_TRANSPORT);
  g_assert_cmpuint (sl_field_lookup ("MSGFORMAT"), ==, SL_F_MSGFORMAT);
  SlMessage *msg = sl_message_new ("x", 1);
  sl_message_set_static (msg, SL_F_TRANSPORT, transport, strlen (transport));
  gsize size = sl_message_allocated_size (msg);
  gsize len;
  g_assert_true (sl_message_get (msg, SL_F_TRANSPORT, &len) == transport);
  g_assert_false (msg->owns_values);
  SlMessage *copy = sl_message_clone (msg);
  sl_message_unref (msg);
  g_assert_true (sl_message_get (copy, SL_F_TRANSPORT, &len) == transport);
  g_assert_cmpuint (len, ==, strlen (transport));
  g_assert_cmpuint (sl_message_allocated_size (copy), ==, size);
  sl_message_unref (copy);
}

static void
note_freed (gpointer freed)
{
  *(gboolean *) freed = TRUE;
}

/* geoip2()'s cached record: many messages point into one text, each
 * holding it, clones too; a value from another text is a copy */
static void
test_shared_values_hold_their_bytes (void)
{
  static const gchar record[] = "DE\0Berlin";
  gboolean freed = FALSE;
  GBytes *text = g_bytes_new_with_free_func (record, sizeof record, note_freed, &freed);
  GBytes *other = g_bytes_new ("FR", 2);
  SlHandle country = sl_field_handle ("shared.country");
  SlHandle city = sl_field_handle ("shared.city");
  SlMessage *msg = sl_message_new ("x", 1);
  sl_message_set_shared (msg, country, text, 0, 2);
  sl_message_set_shared (msg, city, text, 3, 6);
  sl_message_set_shared (msg, SL_F_HOST, other, 0, 2);
  gsize len;
  g_assert_true (sl_message_get (msg, country, &len) == record);
  g_assert_true (sl_message_get (msg, city, &len) == record + 3);
  g_assert_cmpuint (len, ==, 6);
  g_assert_false (sl_message_get (msg, SL_F_HOST, &len) == g_bytes_get_data (other, NULL));
  assert_field (msg, SL_F_HOST, "FR");
  g_bytes_unref (other);
  g_bytes_unref (text);
  g_assert_false (freed);

  SlMessage *copy = sl_message_clone (msg);
  sl_message_unref (msg);
  g_assert_false (freed);
  g_assert_true (sl_message_get (copy, city, &len) == record + 3);
  assert_field (copy, country, "DE");
  assert_field (copy, SL_F_HOST, "FR");
  sl_message_unref (copy);
  g_assert_true (freed);
}

static void
test_ack_reaches_window_through_copies (void)
{
  SlWindow *w = sl_window_new (10);
  SlMessage *msg = sl_message_new ("x", 1);
  sl_message_bind_window (msg, w);
  g_assert_cmpuint (sl_window_in_flight (w), ==, 1);

  /* two flow-controlled destinations take it, one of them after a rewrite */
  sl_message_ack_hold (msg);
  SlMessage *shared = sl_message_ref (msg);
  sl_message_make_writable (&shared);
  sl_message_ack_hold (shared);

  sl_message_ack (msg);                 /* the source is done routing */
  g_assert_cmpuint (sl_window_in_flight (w), ==, 1);
  sl_message_ack (msg);                 /* first destination wrote it */
  g_assert_cmpuint (sl_window_in_flight (w), ==, 1);
  sl_message_ack (shared);              /* the copy was written too */
  g_assert_cmpuint (sl_window_in_flight (w), ==, 0);

  sl_message_unref (shared);
  sl_message_unref (msg);
  sl_window_unref (w);
}

static gpointer
release_later (gpointer data)
{
  g_usleep (20000);
  sl_window_release (data, 1);
  return NULL;
}

static void
test_window_blocks_until_release (void)
{
  SlWindow *w = sl_window_new (2);
  sl_window_take (w, 2);
  GThread *t = g_thread_new ("release", release_later, w);
  g_assert_true (sl_window_wait (w));
  g_assert_cmpuint (sl_window_in_flight (w), ==, 1);
  g_thread_join (t);
  sl_window_take (w, 1);
  sl_window_cancel (w);
  g_assert_false (sl_window_wait (w));
  sl_window_unref (w);
}

static gpointer
release_two_later (gpointer data)
{
  g_usleep (20000);
  sl_window_release (data, 1);
  g_usleep (20000);
  sl_window_release (data, 1);
  return NULL;
}

static gpointer
free_messages_later (gpointer data)
{
  g_usleep (20000);
  g_ptr_array_unref (data);
  sl_in_flight_flush ();
  return NULL;
}

static void
count_notify (gpointer data)
{
  g_atomic_int_inc ((gint *) data);
}

/* Fills the process's bound of bytes with 1000-byte messages until w,
 * though its own window is nearly empty, counts as full. */
static GPtrArray *
fill_bytes_bound (SlWindow *w)
{
  GPtrArray *msgs = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_message_unref);
  gchar text[1000];
  memset (text, 'x', sizeof text);
  while (!sl_window_arm (w))
    g_ptr_array_add (msgs, sl_message_new (text, sizeof text));
  g_assert_cmpint (sl_in_flight_bytes (), >=, 1 << 20);
  g_assert_cmpuint (msgs->len, <, 1000);
  return msgs;
}

/* in-flight-bytes-max(): a window counts as full while the bytes of all
 * messages held reach the bound, and its reader is woken, once, by the
 * thread whose frees bring them below it, or by a reload that lifts it. */
static void
test_window_bytes_bound (void)
{
  SlWindow *w = sl_window_new (1000000);
  gint woken = 0;
  sl_window_set_notify (w, count_notify, &woken);
  sl_in_flight_set_max (1 << 20);
  GPtrArray *msgs = fill_bytes_bound (w);
  g_assert_cmpuint (sl_window_in_flight (w), ==, 0);
  g_assert_cmpint (g_atomic_int_get (&woken), ==, 0);
  GThread *t = g_thread_new ("free", free_messages_later, msgs);
  g_assert_true (sl_window_wait (w));
  g_thread_join (t);
  g_assert_cmpint (g_atomic_int_get (&woken), ==, 1);
  g_assert_cmpint (sl_in_flight_bytes (), <, 1 << 20);

  msgs = fill_bytes_bound (w);
  g_assert_cmpint (g_atomic_int_get (&woken), ==, 1);
  sl_in_flight_set_max (0);
  g_assert_cmpint (g_atomic_int_get (&woken), ==, 2);
  g_assert_false (sl_window_arm (w));
  g_ptr_array_unref (msgs);
  sl_in_flight_flush ();
  sl_window_set_notify (w, NULL, NULL);
  sl_window_unref (w);
}

static void
test_window_wait_empty (void)
{
  SlWindow *w = sl_window_new (100);
  g_assert_true (sl_window_wait_empty (w, -1));
  sl_window_take (w, 2);
  GThread *t = g_thread_new ("release", release_two_later, w);
  g_assert_true (sl_window_wait_empty (w, -1));
  g_assert_cmpuint (sl_window_in_flight (w), ==, 0);
  g_thread_join (t);

  /* nothing acknowledges: the deadline ends the wait, then a cancel does */
  sl_window_take (w, 1);
  g_assert_false (sl_window_wait_empty (w, g_get_monotonic_time () + 10000));
  sl_window_cancel (w);
  g_assert_false (sl_window_wait_empty (w, -1));
  sl_window_release (w, 1);
  g_assert_true (sl_window_wait_empty (w, -1));
  sl_window_unref (w);
}

static gboolean
collect_handle (SlHandle h, const gchar *value, gsize len, gpointer data)
{
  g_array_append_val ((GArray *) data, h);
  return TRUE;
}

/* Fields are kept in handle order whatever order they were set in. */
static void
test_fields_in_handle_order (void)
{
  SlHandle h[4];
  for (guint i = 0; i < G_N_ELEMENTS (h); i++)
    {
      gchar name[32];
      g_snprintf (name, sizeof name, "order.f%u", i);
      h[i] = sl_field_handle (name);
    }
  SlMessage *msg = sl_message_new ("abcd", 4);
  sl_message_set (msg, h[2], "2", -1);
  sl_message_set_slice (msg, h[0], msg->raw, 1);
  sl_message_set (msg, h[3], "3", -1);
  sl_message_set (msg, h[1], "1", -1);
  sl_message_set (msg, h[2], "two", -1);
  g_assert_cmpuint (msg->n_fields, ==, 4);
  g_assert_cmpuint (sl_message_handle_limit (msg), ==, h[3] + 1);
  guint32 n;
  const SlValue *between = sl_message_fields_between (msg, h[1], h[2], &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (between[0].handle, ==, h[1]);
  g_assert_cmpstr (between[1].ptr, ==, "two");
  sl_message_unset (msg, h[1]);
  sl_message_fields_between (msg, h[1], h[1], &n);
  g_assert_cmpuint (n, ==, 0);
  sl_message_fields_between (msg, h[3] + 1, h[3] + 2, &n);
  g_assert_cmpuint (n, ==, 0);
  sl_message_unset (msg, h[1]);
  g_assert_false (sl_message_has (msg, h[1]));

  GArray *seen = g_array_new (FALSE, FALSE, sizeof (SlHandle));
  sl_message_foreach_dynamic (msg, collect_handle, seen);
  g_assert_cmpuint (seen->len, ==, 3);
  g_assert_cmpuint (g_array_index (seen, SlHandle, 0), ==, h[0]);
  g_assert_cmpuint (g_array_index (seen, SlHandle, 1), ==, h[2]);
  g_assert_cmpuint (g_array_index (seen, SlHandle, 2), ==, h[3]);
  g_array_unref (seen);
  assert_field (msg, h[0], "a");
  assert_field (msg, h[2], "two");
  assert_field (msg, h[3], "3");
  sl_message_unref (msg);
}

/* More fields than the slack of the message's block holds move to a store
 * of their own, which keeps growing. */
static void
test_many_fields (void)
{
  SlMessage *msg = sl_message_new ("x", 1);
  SlHandle h[300];
  for (guint i = 0; i < G_N_ELEMENTS (h); i++)
    {
      gchar name[32];
      g_snprintf (name, sizeof name, "many.f%u", i);
      h[i] = sl_field_handle (name);
      sl_message_set (msg, h[i], name + 5, -1);
    }
  SlMessage *copy = sl_message_clone (msg);
  sl_message_unref (msg);
  g_assert_cmpuint (copy->n_fields, ==, G_N_ELEMENTS (h));
  for (guint i = 0; i < G_N_ELEMENTS (h); i++)
    {
      gchar name[32];
      g_snprintf (name, sizeof name, "f%u", i);
      assert_field (copy, h[i], name);
    }
  sl_message_unref (copy);
}

/* What a message holds depends on the fields it has, not on how many
 * names the process interned before it. */
static void
test_size_does_not_grow_with_names (void)
{
  SlHandle late[5];
  for (guint i = 0; i < 16000; i++)
    {
      gchar name[64];
      g_snprintf (name, sizeof name, ".SDATA.bulk.p%u", i);
      SlHandle h = sl_field_handle (name);
      g_assert_cmpuint (h, !=, SL_F_NONE);
      if (i >= 16000 - G_N_ELEMENTS (late))
        late[i - (16000 - G_N_ELEMENTS (late))] = h;
    }
  const gchar *line = "<13>1 - host app - - [bulk a=\"1\" b=\"2\"] hello";
  SlMessage *msg = sl_message_new (line, strlen (line));
  sl_message_set_slice (msg, SL_F_MESSAGE, msg->raw + strlen (line) - 5, 5);
  for (guint i = 0; i < G_N_ELEMENTS (late); i++)
    {
      if (i % 2)
        sl_message_set (msg, late[i], "copied", -1);
      else
        sl_message_set_slice (msg, late[i], msg->raw + i, 1);
    }
  gsize size = sl_message_allocated_size (msg);
  g_test_message ("a message with 5 fields after 16,000 names: %" G_GSIZE_FORMAT " bytes", size);
  g_assert_cmpuint (size, <, 1024);

  SlMessage *copy = sl_message_clone (msg);
  g_assert_cmpuint (copy->n_fields, ==, G_N_ELEMENTS (late));
  g_assert_cmpuint (sl_message_allocated_size (copy), <=, size);
  for (guint i = 0; i < G_N_ELEMENTS (late); i++)
    g_assert_cmpmem (sl_message_get (copy, late[i], NULL), 1, sl_message_get (msg, late[i], NULL), 1);
  sl_message_unref (msg);
  sl_message_unref (copy);
}

static void
test_tags_beyond_64 (void)
{
  gchar name[32];
  for (guint i = 0; i < 130; i++)
    {
      g_snprintf (name, sizeof name, "tag%u", i);
      g_assert_cmpuint (sl_tag_id (name), !=, 0);
    }
  SlMessage *msg = sl_message_new ("x", 1);
  sl_message_set_tag (msg, "tag129");
  sl_message_set_tag (msg, "tag3");
  sl_message_set_tag (msg, "tag70");
  sl_message_set_tag (msg, "tag70");
  g_assert_true (sl_message_has_tag (msg, "tag129"));
  g_assert_true (sl_message_has_tag (msg, "tag70"));
  g_assert_false (sl_message_has_tag (msg, "tag71"));
  g_assert_false (sl_message_has_tag (msg, "never.a.tag"));
  g_assert_cmpuint (sl_tag_lookup ("never.a.tag"), ==, 0);

  GString *out = g_string_new (NULL);
  g_assert_true (sl_message_append_tags (msg, out));
  g_assert_cmpstr (out->str, ==, "tag3,tag70,tag129");

  SlMessage *shared = sl_message_ref (msg);
  SlMessage *writer = sl_message_ref (msg);
  sl_message_make_writable (&writer);
  sl_message_clear_tag (writer, "tag129");
  sl_message_set_tag (writer, "tag100");
  g_assert_true (sl_message_has_tag (shared, "tag129"));
  g_assert_false (sl_message_has_tag (shared, "tag100"));
  g_string_truncate (out, 0);
  sl_message_append_tags (writer, out);
  g_assert_cmpstr (out->str, ==, "tag3,tag70,tag100");

  SlMessage *copy = sl_message_clone (shared);
  g_string_truncate (out, 0);
  sl_message_append_tags (copy, out);
  g_assert_cmpstr (out->str, ==, "tag3,tag70,tag129");

  sl_message_clear_tag (copy, "tag3");
  sl_message_clear_tag (copy, "tag70");
  sl_message_clear_tag (copy, "tag129");
  g_string_truncate (out, 0);
  g_assert_false (sl_message_append_tags (copy, out));
  g_assert_cmpstr (out->str, ==, "");
  g_string_free (out, TRUE);
  sl_message_unref (copy);
  sl_message_unref (writer);
  sl_message_unref (shared);
  sl_message_unref (msg);
}

/* A sender inventing a new field name with every message must not grow
 * the registry without end. Runs last: it fills the process's registry. */
static void
test_field_names_are_capped (void)
{
  SlHandle early = sl_field_handle (".SDATA.meta.sequenceId");
  g_assert_cmpuint (early, !=, SL_F_NONE);
  SlHandle last = SL_F_NONE;
  guint refused = 0;
  for (guint i = 0; i < SL_FIELD_NAMES_MAX + 10; i++)
    {
      gchar name[64];
      g_snprintf (name, sizeof name, ".SDATA.hostile.p%u", i);
      SlHandle h = sl_field_handle (name);
      if (h == SL_F_NONE)
        refused++;
      else
        last = h;
    }
  g_assert_cmpuint (refused, >, 10);
  g_assert_cmpuint (last, <, SL_F_PREDEFINED_MAX + SL_FIELD_NAMES_MAX);
  g_assert_cmpuint (sl_field_handle (".SDATA.one.more"), ==, SL_F_NONE);

  /* names from before still work, and a refused one stores nothing */
  g_assert_cmpuint (sl_field_handle (".SDATA.meta.sequenceId"), ==, early);
  SlMessage *msg = sl_message_new ("x", 1);
  sl_message_set (msg, early, "7", -1);
  sl_message_set (msg, sl_field_handle (".SDATA.one.more"), "lost", -1);
  sl_message_set_slice (msg, SL_F_NONE, msg->raw, 1);
  assert_field (msg, early, "7");
  assert_field (msg, SL_F_NONE, NULL);
  sl_message_unref (msg);
}

/* A value may hold NULs (an OTLP record as received): set and clone keep
 * every byte. */
static void
test_binary_values (void)
{
  static const gchar bytes[] = { 'a', 0, 'b', 0, 0, 'c' };
  SlMessage *msg = sl_message_new ("x", 1);
  SlHandle h = sl_field_handle (".test.binary");
  sl_message_set (msg, h, bytes, sizeof bytes);
  SlMessage *copy = sl_message_clone (msg);
  const SlMessage *both[] = { msg, copy };
  for (guint i = 0; i < 2; i++)
    {
      gsize len = 0;
      const gchar *v = sl_message_get (both[i], h, &len);
      g_assert_cmpuint (len, ==, sizeof bytes);
      g_assert_cmpmem (v, len, bytes, sizeof bytes);
    }
  sl_message_unref (copy);
  sl_message_unref (msg);
}

static void
assert_type (const SlMessage *msg, SlHandle h, const gchar *text, SlValueType type)
{
  gsize len;
  SlValueType got;
  const gchar *v = sl_message_get_typed (msg, h, &len, &got);
  g_assert_cmpmem (v, len, text, strlen (text));
  g_assert_cmpint (got, ==, type);
}

/* syslog-ng 4's typed values: a type goes with the value through a copy
 * on write, in place (a slice) or copied, builtin or dynamic; setting or
 * unsetting without one makes it a string again, and the value stays 16
 * bytes. */
static void
test_typed_values (void)
{
  g_assert_cmpuint (sizeof (SlValue), ==, 16);
  SlMessage *msg = sl_message_new ("{\"n\":42}", 8);
  SlHandle n = sl_field_handle ("test.typed.n");
  SlHandle b = sl_field_handle ("test.typed.b");
  SlHandle plain = sl_field_handle ("test.typed.plain");
  sl_message_set_slice_typed (msg, n, msg->raw + 5, 2, SL_VALUE_INT64);
  sl_message_set_typed (msg, b, "true", -1, SL_VALUE_BOOLEAN);
  sl_message_set_typed (msg, SL_F_PID, "", 0, SL_VALUE_NULL);
  sl_message_set (msg, plain, "7", -1);
  SlMessage *shared = sl_message_ref (msg);
  sl_message_make_writable (&shared);
  g_assert_true (shared != msg);
  for (const SlMessage *m = msg; m; m = m == msg ? shared : NULL)
    {
      assert_type (m, n, "42", SL_VALUE_INT64);
      assert_type (m, b, "true", SL_VALUE_BOOLEAN);
      assert_type (m, SL_F_PID, "", SL_VALUE_NULL);
      assert_type (m, plain, "7", SL_VALUE_STRING);
      assert_type (m, sl_field_handle ("test.typed.unset"), "", SL_VALUE_STRING);
    }
  sl_message_set (shared, b, "yes", -1);
  assert_type (shared, b, "yes", SL_VALUE_STRING);
  assert_type (msg, b, "true", SL_VALUE_BOOLEAN);
  sl_message_unset (shared, n);
  sl_message_set_slice (shared, n, shared->raw + 5, 2);
  assert_type (shared, n, "42", SL_VALUE_STRING);
  sl_message_clear_fields (shared);
  sl_message_set (shared, SL_F_PID, "1", -1);
  assert_type (shared, SL_F_PID, "1", SL_VALUE_STRING);
  sl_message_unref (shared);
  sl_message_unref (msg);
}

/* A datetime's text as syslog-ng 4.8's type_cast_to_datetime_msec()
 * reads it, its quirks kept: strtoll()'s seconds (blanks, a sign, "" is
 * 0), a fraction of one to nine digits that strtoll() reads too, a zone
 * that must be +hh:mm and is not applied, and nothing read after it. */
static void
test_datetime_cast (void)
{
  static const struct
  {
    const gchar *text;
    gboolean ok;
    gint64 msec;
  } cases[] = {
    { "1700000000", TRUE, 1700000000000 },
    { "1700000000.5", TRUE, 1700000000500 },
    { "1700000000.123456789", TRUE, 1700000000123 },
    { "1700000000.1234567891", FALSE, 0 },
    { "1700000000.", FALSE, 0 },
    { "1700000000.x", FALSE, 0 },
    { "1700000000+01:00", TRUE, 1700000000000 },
    { "1700000000.25-05:30", TRUE, 1700000000250 },
    { "1700000000+01:00 and more", TRUE, 1700000000000 },
    { "1700000000+01:001", FALSE, 0 },
    { "1700000000+0100", FALSE, 0 },
    { "1700000000Z", FALSE, 0 },
    { "1700000000 ", FALSE, 0 },
    { " 42", TRUE, 42000 },
    { "-5.5", TRUE, -4500 },
    { ".5", TRUE, 500 },
    { "", TRUE, 0 },
    { "abc", FALSE, 0 },
    { "2024-01-01", FALSE, 0 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gint64 msec = 0;
      g_assert_cmpint (sl_value_datetime_msec (cases[i].text, strlen (cases[i].text), &msec), ==, cases[i].ok);
      if (cases[i].ok)
        g_assert_cmpint (msec, ==, cases[i].msec);
    }
  gint64 msec;
  g_assert_true (sl_value_datetime_msec ("12.5junk", 4, &msec));
  g_assert_cmpint (msec, ==, 12500);

  SlValueType type;
  g_assert_true (sl_value_type_from_name ("datetime", 8, TRUE, &type));
  g_assert_cmpint (type, ==, SL_VALUE_DATETIME);
  g_assert_true (sl_value_type_from_name ("datetime", 8, FALSE, &type));
  g_assert_cmpint (type, ==, SL_VALUE_STRING);
}

/* A member's own '.' and '\' are escaped, so that a path of such
 * members splits back into them: "a.b" then "x\" then "c" */
static void
test_member_names (void)
{
  g_autoptr (GString) name = g_string_new ("!");
  sl_member_name_append (name, "a.b", 3);
  g_string_append_c (name, '.');
  sl_member_name_append (name, "x\\", 2);
  g_string_append_c (name, '.');
  sl_member_name_append (name, "c", 1);
  g_assert_cmpstr (name->str, ==, "!a\\.b.x\\\\.c");

  const gchar *first = name->str + 1;
  const gchar *end = sl_member_name_end (first);
  g_assert_cmpint (end - name->str, ==, 5);
  const gchar *second = end + 1;
  end = sl_member_name_end (second);
  g_assert_cmpint (*end, ==, '.');
  g_autoptr (GString) member = g_string_new (NULL);
  sl_member_name_unescape (member, second, (gsize) (end - second));
  g_assert_cmpstr (member->str, ==, "x\\");
  g_assert_cmpint (*sl_member_name_end (end + 1), ==, '\0');
  g_assert_true (sl_member_name_last (first) == end);
  g_assert_null (sl_member_name_last ("a\\.b"));
  /* a name without escapes is split at every dot, as syslog-ng's */
  g_assert_cmpstr (sl_member_name_end ("a.b"), ==, ".b");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/message/handles", test_builtin_handles_are_fixed);
  g_test_add_func ("/message/member-names", test_member_names);
  g_test_add_func ("/message/slices-and-copies", test_slices_and_copies);
  g_test_add_func ("/message/extra-bytes", test_extra_bytes_hold_peer);
  g_test_add_func ("/message/copy-on-write", test_copy_on_write);
  g_test_add_func ("/message/binary-values", test_binary_values);
  g_test_add_func ("/message/typed-values", test_typed_values);
  g_test_add_func ("/message/datetime-cast", test_datetime_cast);
  g_test_add_func ("/message/clone-rebases-slices", test_clone_rebases_slices);
  g_test_add_func ("/message/static-values", test_static_values_are_not_copied);
  g_test_add_func ("/message/shared-values", test_shared_values_hold_their_bytes);
  g_test_add_func ("/message/ack-through-copies", test_ack_reaches_window_through_copies);
  g_test_add_func ("/window/blocks-until-release", test_window_blocks_until_release);
  g_test_add_func ("/window/wait-empty", test_window_wait_empty);
  g_test_add_func ("/window/bytes-bound", test_window_bytes_bound);
  g_test_add_func ("/message/fields-in-handle-order", test_fields_in_handle_order);
  g_test_add_func ("/message/many-fields", test_many_fields);
  g_test_add_func ("/message/tags-beyond-64", test_tags_beyond_64);
  g_test_add_func ("/message/size-does-not-grow-with-names", test_size_does_not_grow_with_names);
  g_test_add_func ("/message/field-names-capped", test_field_names_are_capped);
  return g_test_run ();
}
