/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/destinations/stomp/stomp-frame.h"
#include "core/i18n.h"

#include <stdlib.h>
#include <string.h>

void
stomp_frame_begin (GString *out, const gchar *command)
{
  g_string_append (out, command);
  g_string_append_c (out, '\n');
}

static void
append_escaped (GString *out, StompVersion version, const gchar *text)
{
  for (const gchar *p = text; *p; p++)
    {
      if (version == STOMP_1_0)
        /* 1.0 has no escapes: a line end would end the header */
        g_string_append_c (out, *p == '\n' || *p == '\r' ? ' ' : *p);
      else if (*p == '\\')
        g_string_append (out, "\\\\");
      else if (*p == '\n')
        g_string_append (out, "\\n");
      else if (*p == ':')
        g_string_append (out, "\\c");
      else if (*p == '\r')
        g_string_append (out, version == STOMP_1_2 ? "\\r" : " ");
      else
        g_string_append_c (out, *p);
    }
}

void
stomp_frame_header (GString *out, StompVersion version, const gchar *name, const gchar *value)
{
  append_escaped (out, version, name);
  g_string_append_c (out, ':');
  append_escaped (out, version, value);
  g_string_append_c (out, '\n');
}

void
stomp_frame_end (GString *out, const gchar *body, gsize len)
{
  /* only where the NUL that ends a frame would end it early: brokers pass
   * the header on (RabbitMQ into the AMQP message's headers), and
   * syslog-ng never sends it */
  if (memchr (body, '\0', len))
    g_string_append_printf (out, "content-length:%" G_GSIZE_FORMAT "\n", len);
  g_string_append_c (out, '\n');
  g_string_append_len (out, body, len);
  g_string_append_c (out, '\0');
}

void
stomp_frame_init (StompFrame *frame)
{
  frame->command = NULL;
  frame->names = g_ptr_array_new_with_free_func (g_free);
  frame->values = g_ptr_array_new_with_free_func (g_free);
  frame->body = g_string_new (NULL);
}

void
stomp_frame_clear (StompFrame *frame)
{
  g_clear_pointer (&frame->command, g_free);
  g_ptr_array_free (frame->names, TRUE);
  g_ptr_array_free (frame->values, TRUE);
  g_string_free (frame->body, TRUE);
}

static void
reset (StompFrame *frame)
{
  g_clear_pointer (&frame->command, g_free);
  g_ptr_array_set_size (frame->names, 0);
  g_ptr_array_set_size (frame->values, 0);
  g_string_truncate (frame->body, 0);
}

/* The line at data[*pos..len) without its end (LF or CRLF), moving *pos
 * past it; NULL when no line end came yet. */
static const gchar *
next_line (const gchar *data, gsize len, gsize *pos, gsize *line_len)
{
  const gchar *start = data + *pos;
  const gchar *nl = memchr (start, '\n', len - *pos);
  if (!nl)
    return NULL;
  *line_len = nl - start;
  if (*line_len && start[*line_len - 1] == '\r')
    (*line_len)--;
  *pos = nl - data + 1;
  return start;
}

static gchar *
unescape (const gchar *text, gsize len, StompVersion version, GError **error)
{
  if (version == STOMP_1_0)
    return g_strndup (text, len);
  GString *out = g_string_sized_new (len);
  for (gsize i = 0; i < len; i++)
    {
      if (text[i] != '\\')
        {
          g_string_append_c (out, text[i]);
          continue;
        }
      gchar next = i + 1 < len ? text[++i] : '\0';
      if (next == '\\')
        g_string_append_c (out, '\\');
      else if (next == 'n')
        g_string_append_c (out, '\n');
      else if (next == 'c')
        g_string_append_c (out, ':');
      else if (next == 'r' && version == STOMP_1_2)
        g_string_append_c (out, '\r');
      else
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("STOMP header with an unknown escape '\\%c'"),
                       next ? next : ' ');
          g_string_free (out, TRUE);
          return NULL;
        }
    }
  return g_string_free (out, FALSE);
}

static StompParse
fail (StompFrame *frame, GError **error, const gchar *what)
{
  reset (frame);
  if (error && !*error)
    g_set_error_literal (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, what);
  return STOMP_PARSE_ERROR;
}

StompParse
stomp_frame_parse (const gchar *data, gsize len, StompVersion version, StompFrame *frame, gsize *used,
                   GError **error)
{
  reset (frame);
  gsize pos = 0;
  while (pos < len && (data[pos] == '\n' || (data[pos] == '\r' && pos + 1 < len && data[pos + 1] == '\n')))
    pos += data[pos] == '\r' ? 2 : 1;
  if (pos == len || (pos + 1 == len && data[pos] == '\r'))
    return STOMP_PARSE_MORE;

  gsize line_len;
  const gchar *line = next_line (data, len, &pos, &line_len);
  if (!line)
    return len - pos > 256 ? fail (frame, error, _("STOMP command line too long")) : STOMP_PARSE_MORE;
  if (!line_len || memchr (line, '\0', line_len))
    return fail (frame, error, _("STOMP frame without a command"));
  frame->command = g_strndup (line, line_len);
  gboolean escaped = version != STOMP_1_0 && strcmp (frame->command, "CONNECTED") != 0;

  gssize content_length = -1;
  for (;;)
    {
      line = next_line (data, len, &pos, &line_len);
      if (!line)
        {
          if (len > STOMP_FRAME_MAX)
            return fail (frame, error, _("STOMP frame too large"));
          reset (frame);
          return STOMP_PARSE_MORE;
        }
      if (!line_len)
        break;
      if (frame->names->len >= STOMP_HEADERS_MAX)
        return fail (frame, error, _("STOMP frame with too many headers"));
      const gchar *colon = memchr (line, ':', line_len);
      if (!colon)
        return fail (frame, error, _("STOMP header without ':'"));
      gchar *name = escaped ? unescape (line, colon - line, version, error) : g_strndup (line, colon - line);
      gchar *value = NULL;
      if (name)
        value = escaped ? unescape (colon + 1, line + line_len - colon - 1, version, error)
                        : g_strndup (colon + 1, line + line_len - colon - 1);
      if (!value)
        {
          g_free (name);
          return fail (frame, error, _("STOMP header with a bad escape"));
        }
      if (content_length < 0 && strcmp (name, "content-length") == 0)
        {
          gchar *end;
          guint64 n = g_ascii_strtoull (value, &end, 10);
          if (!*value || *end || n > STOMP_FRAME_MAX)
            {
              g_free (name);
              g_free (value);
              return fail (frame, error, _("STOMP content-length that is not a size"));
            }
          content_length = (gssize) n;
        }
      g_ptr_array_add (frame->names, name);
      g_ptr_array_add (frame->values, value);
    }

  gsize body_len;
  if (content_length >= 0)
    {
      if (len - pos < (gsize) content_length + 1)
        {
          reset (frame);
          return STOMP_PARSE_MORE;
        }
      if (data[pos + content_length] != '\0')
        return fail (frame, error, _("STOMP body longer than its content-length"));
      body_len = content_length;
    }
  else
    {
      const gchar *nul = memchr (data + pos, '\0', len - pos);
      if (!nul)
        {
          if (len > STOMP_FRAME_MAX)
            return fail (frame, error, _("STOMP frame too large"));
          reset (frame);
          return STOMP_PARSE_MORE;
        }
      body_len = nul - (data + pos);
    }
  g_string_append_len (frame->body, data + pos, body_len);
  *used = pos + body_len + 1;
  return STOMP_PARSE_FRAME;
}

const gchar *
stomp_frame_get (const StompFrame *frame, const gchar *name)
{
  for (guint i = 0; i < frame->names->len; i++)
    if (strcmp (g_ptr_array_index (frame->names, i), name) == 0)
      return g_ptr_array_index (frame->values, i);
  return NULL;
}
