/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The STOMP frame writer and reader: what the writer makes reads back the
 * same in each version, every prefix of a frame asks for more, and what is
 * not STOMP is refused. */
#include "plugins/destinations/stomp/stomp-frame.h"

#include <string.h>

static const gchar *const tricky = "a:b\\c\nd\re";

static void
test_round_trip (void)
{
  for (StompVersion v = STOMP_1_0; v <= STOMP_1_2; v++)
    {
      GString *out = g_string_new (NULL);
      stomp_frame_begin (out, "MESSAGE");
      stomp_frame_header (out, v, "plain", "value");
      stomp_frame_header (out, v, "tricky", tricky);
      stomp_frame_header (out, v, "plain", "second");
      static const gchar body[] = "body with\0a NUL";
      stomp_frame_end (out, body, sizeof body - 1);
      g_string_append (out, "\nRECEIPT\nreceipt-id:7\n\n");
      g_string_append_c (out, '\0');

      StompFrame f;
      stomp_frame_init (&f);
      gsize used = 0;
      GError *error = NULL;
      g_assert_cmpint (stomp_frame_parse (out->str, out->len, v, &f, &used, &error), ==, STOMP_PARSE_FRAME);
      g_assert_no_error (error);
      g_assert_cmpstr (f.command, ==, "MESSAGE");
      g_assert_cmpstr (stomp_frame_get (&f, "plain"), ==, "value");
      if (v == STOMP_1_2)
        g_assert_cmpstr (stomp_frame_get (&f, "tricky"), ==, tricky);
      else if (v == STOMP_1_1)
        g_assert_cmpstr (stomp_frame_get (&f, "tricky"), ==, "a:b\\c\nd e");
      else
        /* 1.0 has no escapes: line ends become spaces, the rest stays */
        g_assert_cmpstr (stomp_frame_get (&f, "tricky"), ==, "a:b\\c d e");
      g_assert_cmpuint (f.body->len, ==, sizeof body - 1);
      g_assert_true (memcmp (f.body->str, body, sizeof body - 1) == 0);

      /* the next frame, after a heart-beat line end */
      gsize next = 0;
      g_assert_cmpint (stomp_frame_parse (out->str + used, out->len - used, v, &f, &next, NULL), ==, STOMP_PARSE_FRAME);
      g_assert_cmpstr (f.command, ==, "RECEIPT");
      g_assert_cmpstr (stomp_frame_get (&f, "receipt-id"), ==, "7");
      g_assert_cmpuint (used + next, ==, out->len);

      /* every proper prefix of the first frame asks for more */
      for (gsize n = 0; n < used; n++)
        {
          gsize ignored = 0;
          g_assert_cmpint (stomp_frame_parse (out->str, n, v, &f, &ignored, NULL), ==, STOMP_PARSE_MORE);
        }
      stomp_frame_clear (&f);
      g_string_free (out, TRUE);
    }
}

static void
test_broker_frames (void)
{
  /* CONNECTED is never escaped; CRLF line ends (1.2); a body without
   * content-length ends at the NUL */
  static const gchar connected[] = "CONNECTED\r\nversion:1.2\r\nserver:RabbitMQ/3.10.8\r\nsession:a\\cb\r\n\r\n";
  StompFrame f;
  stomp_frame_init (&f);
  gsize used = 0;
  g_assert_cmpint (stomp_frame_parse (connected, sizeof connected, STOMP_1_2, &f, &used, NULL), ==, STOMP_PARSE_FRAME);
  g_assert_cmpuint (used, ==, sizeof connected);
  g_assert_cmpstr (stomp_frame_get (&f, "version"), ==, "1.2");
  g_assert_cmpstr (stomp_frame_get (&f, "session"), ==, "a\\cb");
  static const gchar error_frame[] = "ERROR\nmessage:not\\cfound\n\nno such exchange";
  g_assert_cmpint (stomp_frame_parse (error_frame, sizeof error_frame, STOMP_1_2, &f, &used, NULL), ==,
                   STOMP_PARSE_FRAME);
  g_assert_cmpstr (stomp_frame_get (&f, "message"), ==, "not:found");
  g_assert_cmpstr (f.body->str, ==, "no such exchange");
  stomp_frame_clear (&f);
}

static void
test_refused (void)
{
#define BAD(text) { text, sizeof text - 1 }
  static const struct
  {
    const gchar *text;
    gsize len;
  } bad[] = {
    BAD ("MESSAGE\nno colon\n\n"),
    BAD ("MESSAGE\nx:bad\\q\n\n"),
    BAD ("MESSAGE\ncontent-length:abc\n\n"),
    BAD ("MESSAGE\ncontent-length:2\n\nabc"),
    BAD ("\0\n\n"),
  };
#undef BAD
  StompFrame f;
  stomp_frame_init (&f);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      gsize used = 0;
      GError *error = NULL;
      g_assert_cmpint (stomp_frame_parse (bad[i].text, bad[i].len, STOMP_1_2, &f, &used, &error), ==,
                       STOMP_PARSE_ERROR);
      g_assert_nonnull (error);
      g_error_free (error);
    }
  /* a frame that never ends is refused once it is too large */
  GString *big = g_string_new ("MESSAGE\n\n");
  while (big->len <= STOMP_FRAME_MAX)
    g_string_append (big, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
  gsize used = 0;
  g_assert_cmpint (stomp_frame_parse (big->str, big->len, STOMP_1_2, &f, &used, NULL), ==, STOMP_PARSE_ERROR);
  g_string_free (big, TRUE);
  stomp_frame_clear (&f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stomp-frame/round-trip", test_round_trip);
  g_test_add_func ("/stomp-frame/broker-frames", test_broker_frames);
  g_test_add_func ("/stomp-frame/refused", test_refused);
  return g_test_run ();
}
