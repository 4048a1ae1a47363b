/* SPDX-License-Identifier: GPL-2.0-or-later */
/* http-receiver: the HTTP server that the http() tests and bench/run send
 * to, on 127.0.0.1. HTTP/1.1 with keep-alive and Content-Length bodies,
 * optionally TLS with a required client certificate; a thread per
 * connection. What it answers comes from a control file read before each
 * answer, so a test can change it while the sender runs:
 *
 *   200 | 404 | 429 | 500 ...   every request gets that status
 *   500/3                        every third request gets 500, the others 200
 *   stall                        requests are read but never answered
 *   bulk                         200 with Elasticsearch's bulk API reply: the
 *   STATUS TEXT ...              body is action and document lines, each
 *                                document an item of status 201, or STATUS for
 *                                one that holds TEXT (a line per rule)
 *
 * Debian has no Elasticsearch; this answers as its _bulk endpoint does
 * (a 200 whose "errors" and "items[].<op>.status" tell each document's
 * fate), which is what http() reads of it.
 *   http-receiver --port N [--out FILE] [--dir DIR] [--control FILE]
 *                 [--cert PEM --key PEM [--ca PEM]]
 *
 * --out: the bodies of requests answered 2xx, gunzipped (Content-Encoding:
 * gzip), each ended by a newline when it has none, so that the file holds
 * whole lines (under bulk: only the documents given a 2xx); appended
 * before the answer is sent; --dir: per
 * request NNNNNN.head (the status given, then the request's head) and
 * NNNNNN.body. The receiver runs until it is killed. */
#include <glib.h>

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

static gchar *out_path, *dir_path, *control_path, *cert_path, *key_path, *ca_path;
static gint port;
static SSL_CTX *tls;
static GMutex record_lock;
static FILE *out;
static guint requests;

typedef struct
{
  gint fd;
  SSL *ssl;
  GString *in;       /* bytes read and not yet used */
} Conn;

static gssize
conn_read (Conn *c, gchar *buf, gsize len)
{
  if (c->ssl)
    {
      gint n = SSL_read (c->ssl, buf, (gint) len);
      return n > 0 ? n : -1;
    }
  gssize n;
  do
    n = read (c->fd, buf, len);
  while (n < 0 && errno == EINTR);
  return n > 0 ? n : -1;
}

static gboolean
conn_write (Conn *c, const gchar *buf, gsize len)
{
  while (len)
    {
      gssize n = c->ssl ? SSL_write (c->ssl, buf, (gint) len) : send (c->fd, buf, len, MSG_NOSIGNAL);
      if (n <= 0)
        {
          if (!c->ssl && n < 0 && errno == EINTR)
            continue;
          return FALSE;
        }
      buf += n;
      len -= n;
    }
  return TRUE;
}

/* Reads until in holds at least len bytes. */
static gboolean
fill (Conn *c, gsize len)
{
  gchar buf[65536];
  while (c->in->len < len)
    {
      gssize n = conn_read (c, buf, sizeof buf);
      if (n < 0)
        return FALSE;
      g_string_append_len (c->in, buf, n);
    }
  return TRUE;
}

/* The request's head (up to and without the blank line), or NULL when the
 * connection ended. */
static gchar *
read_head (Conn *c)
{
  gchar buf[65536];
  for (;;)
    {
      gchar *end = g_strstr_len (c->in->str, c->in->len, "\r\n\r\n");
      if (end)
        {
          gchar *head = g_strndup (c->in->str, end - c->in->str);
          g_string_erase (c->in, 0, end - c->in->str + 4);
          return head;
        }
      gssize n = conn_read (c, buf, sizeof buf);
      if (n < 0)
        return NULL;
      g_string_append_len (c->in, buf, n);
    }
}

/* The value of a header (leading blanks skipped), up to the end of its line. */
static const gchar *
header (gchar **lines, const gchar *name)
{
  gsize len = strlen (name);
  for (guint i = 1; lines[i]; i++)
    if (g_ascii_strncasecmp (lines[i], name, len) == 0 && lines[i][len] == ':')
      {
        const gchar *value = lines[i] + len + 1;
        while (*value == ' ' || *value == '\t')
          value++;
        return value;
      }
  return NULL;
}

static GString *
gunzip (const gchar *data, gsize len)
{
  GString *plain = g_string_sized_new (len * 4 + 64);
  z_stream z = { 0 };
  if (inflateInit2 (&z, 16 + MAX_WBITS) != Z_OK)
    return plain;
  z.next_in = (Bytef *) data;
  z.avail_in = len;
  gint rc = Z_OK;
  while (rc == Z_OK)
    {
      gchar buf[65536];
      z.next_out = (Bytef *) buf;
      z.avail_out = sizeof buf;
      rc = inflate (&z, Z_NO_FLUSH);
      g_string_append_len (plain, buf, sizeof buf - z.avail_out);
      if (rc == Z_BUF_ERROR && z.avail_in == 0)
        break;
    }
  inflateEnd (&z);
  return plain;
}

/* The control word: a status to give now (counting requests for "N/M"),
 * or 0 for a stall; *bulk (when not NULL) the lines after "bulk", or NULL
 * when the answer is no bulk reply. */
static gint
decide (guint n, gchar ***bulk)
{
  if (bulk)
    *bulk = NULL;
  if (!control_path)
    return 200;
  gchar *text = NULL;
  if (!g_file_get_contents (control_path, &text, NULL, NULL))
    return 200;
  g_strstrip (text);
  gint status;
  if (g_str_has_prefix (text, "bulk"))
    {
      status = 200;
      if (bulk)
        *bulk = g_strsplit (text + strlen ("bulk"), "\n", -1);
    }
  else if (g_str_has_prefix (text, "stall"))
    status = 0;
  else
    {
      gchar *slash = strchr (text, '/');
      status = atoi (text);
      if (slash && atoi (slash + 1) > 0 && n % (guint) atoi (slash + 1) != 0)
        status = 200;
      if (status < 100 || status > 599)
        status = 200;
    }
  g_free (text);
  return status;
}

/* The status of one bulk document: that of the first rule whose text it
 * holds, else 201. */
static gint
item_status (gchar **rules, const gchar *document)
{
  for (guint i = 0; rules[i]; i++)
    {
      gchar *rule = g_strstrip (rules[i]);
      gchar *space = strchr (rule, ' ');
      if (space && strstr (document, space + 1))
        return atoi (rule);
    }
  return 201;
}

/* Elasticsearch's answer to a bulk body: an item per action line, in
 * order, of the action's op ("index", "create"); the documents that got
 * a 2xx are appended to accepted. */
static gchar *
bulk_reply (gchar **rules, const GString *body, GString *accepted)
{
  gchar **lines = g_strsplit (body->str, "\n", -1);
  GString *items = g_string_new (NULL);
  gboolean errors = FALSE;
  for (guint i = 0; lines[i] && lines[i + 1] && *lines[i]; i += 2)
    {
      gchar *op = g_strndup (lines[i] + 2, strcspn (lines[i] + 2, "\""));
      gint status = item_status (rules, lines[i + 1]);
      g_string_append_printf (items, "%s{\"%s\":{\"_index\":\"logs\",\"status\":%d", items->len ? "," : "", op,
                              status);
      if (status >= 300)
        {
          errors = TRUE;
          g_string_append_printf (items, ",\"error\":{\"type\":\"%s\",\"reason\":\"as the test asked\"}",
                                  status == 429 ? "es_rejected_execution_exception" : "mapper_parsing_exception");
        }
      else
        g_string_append_printf (accepted, "%s\n", lines[i + 1]);
      g_string_append (items, "}}");
      g_free (op);
    }
  g_strfreev (lines);
  gchar *reply = g_strdup_printf ("{\"took\":1,\"errors\":%s,\"items\":[%s]}", errors ? "true" : "false", items->str);
  g_string_free (items, TRUE);
  return reply;
}

/* The request's files first and the output last: whoever sees a body in
 * the output finds its request's files complete. */
static void
record (guint n, gint status, const gchar *head, const gchar *client, const GString *body,
        const GString *delivered)
{
  if (dir_path)
    {
      gchar *path = g_strdup_printf ("%s/%06u.body", dir_path, n);
      g_file_set_contents (path, body->str, body->len, NULL);
      g_free (path);
      path = g_strdup_printf ("%s/%06u.head", dir_path, n);
      gchar *text = g_strdup_printf ("%d\n%s\nClient-Subject: %s\n", status, head, client ? client : "");
      g_file_set_contents (path, text, -1, NULL);
      g_free (text);
      g_free (path);
    }
  if (out && status >= 200 && status < 300)
    {
      fwrite (delivered->str, 1, delivered->len, out);
      if (delivered->len && delivered->str[delivered->len - 1] != '\n')
        fputc ('\n', out);
      fflush (out);
    }
}

static gchar *
client_subject (Conn *c)
{
  if (!c->ssl)
    return NULL;
  X509 *peer = SSL_get1_peer_certificate (c->ssl);
  if (!peer)
    return NULL;
  gchar *subject = X509_NAME_oneline (X509_get_subject_name (peer), NULL, 0);
  gchar *copy = g_strdup (subject);
  OPENSSL_free (subject);
  X509_free (peer);
  return copy;
}

/* One request read and answered; FALSE when the connection is over. */
static gboolean
serve_one (Conn *c, const gchar *client)
{
  gchar *head = read_head (c);
  if (!head)
    return FALSE;
  gchar **lines = g_strsplit (head, "\r\n", -1);
  const gchar *length = header (lines, "Content-Length");
  const gchar *encoding = header (lines, "Content-Encoding");
  const gchar *expect = header (lines, "Expect");
  gsize len = length ? (gsize) g_ascii_strtoull (length, NULL, 10) : 0;
  gboolean gzipped = encoding && g_ascii_strcasecmp (encoding, "gzip") == 0;
  if (expect && g_ascii_strcasecmp (expect, "100-continue") == 0)
    conn_write (c, "HTTP/1.1 100 Continue\r\n\r\n", 25);
  gchar *joined = g_strjoinv ("\n", lines);
  g_strfreev (lines);
  g_free (head);
  gboolean ok = fill (c, len);
  GString *body = NULL;
  if (ok)
    {
      body = gzipped ? gunzip (c->in->str, len) : g_string_new_len (c->in->str, len);
      g_string_erase (c->in, 0, len);
    }

  g_mutex_lock (&record_lock);
  guint n = ++requests;
  gchar **bulk = NULL;
  gint status = ok ? decide (n, &bulk) : 0;
  gchar *reply = NULL;
  if (ok && bulk)
    {
      GString *accepted = g_string_new (NULL);
      reply = bulk_reply (bulk, body, accepted);
      record (n, status, joined, client, body, accepted);
      g_string_free (accepted, TRUE);
      g_strfreev (bulk);
    }
  else if (ok)
    record (n, status, joined, client, body, body);
  g_mutex_unlock (&record_lock);
  g_free (joined);
  if (body)
    g_string_free (body, TRUE);
  if (!ok)
    return FALSE;

  /* a stall holds the request unanswered until the control file says
   * otherwise, then hangs up: the sender must send it again */
  while (status == 0)
    {
      g_usleep (20000);
      if (decide (1, NULL) != 0)
        return FALSE;
    }
  gchar *answer = g_strdup_printf ("HTTP/1.1 %d %s\r\n%sContent-Length: %zu\r\n\r\n%s", status,
                                   status < 300 ? "OK" : "Refused",
                                   reply ? "Content-Type: application/json\r\n" : "", reply ? strlen (reply) : 0,
                                   reply ? reply : "");
  gboolean sent = conn_write (c, answer, strlen (answer));
  g_free (answer);
  g_free (reply);
  return sent;
}

static gpointer
conn_thread (gpointer data)
{
  Conn *c = data;
  gint one = 1;
  setsockopt (c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  gchar *client = NULL;
  if (tls)
    {
      c->ssl = SSL_new (tls);
      SSL_set_fd (c->ssl, c->fd);
      if (SSL_accept (c->ssl) <= 0)
        goto done;
      client = client_subject (c);
    }
  while (serve_one (c, client))
    ;
done:
  if (c->ssl)
    {
      SSL_shutdown (c->ssl);
      SSL_free (c->ssl);
    }
  g_free (client);
  close (c->fd);
  g_string_free (c->in, TRUE);
  g_free (c);
  return NULL;
}

static gboolean
setup_tls (void)
{
  if (!cert_path)
    return TRUE;
  tls = SSL_CTX_new (TLS_server_method ());
  if (SSL_CTX_use_certificate_chain_file (tls, cert_path) != 1
      || SSL_CTX_use_PrivateKey_file (tls, key_path, SSL_FILETYPE_PEM) != 1)
    return FALSE;
  if (ca_path)
    {
      if (SSL_CTX_load_verify_locations (tls, ca_path, NULL) != 1)
        return FALSE;
      SSL_CTX_set_verify (tls, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
    }
  return TRUE;
}

int
main (int argc, char **argv)
{
  GOptionEntry entries[] = {
    { "port", 0, 0, G_OPTION_ARG_INT, &port, "port on 127.0.0.1", "N" },
    { "out", 0, 0, G_OPTION_ARG_FILENAME, &out_path, "bodies answered 2xx, back to back", "FILE" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir_path, "every request's head and body", "DIR" },
    { "control", 0, 0, G_OPTION_ARG_FILENAME, &control_path, "what to answer", "FILE" },
    { "cert", 0, 0, G_OPTION_ARG_FILENAME, &cert_path, "TLS: the server's certificate", "PEM" },
    { "key", 0, 0, G_OPTION_ARG_FILENAME, &key_path, "TLS: its key", "PEM" },
    { "ca", 0, 0, G_OPTION_ARG_FILENAME, &ca_path, "TLS: require a client certificate from this CA", "PEM" },
    { NULL }
  };
  GOptionContext *ctx = g_option_context_new ("- HTTP receiver for tests and benchmarks");
  g_option_context_add_main_entries (ctx, entries, NULL);
  GError *error = NULL;
  if (!g_option_context_parse (ctx, &argc, &argv, &error) || port <= 0 || (cert_path && !key_path))
    {
      fprintf (stderr, "http-receiver: %s\n", error ? error->message : "--port is required, --cert needs --key");
      return 2;
    }
  g_option_context_free (ctx);
  signal (SIGPIPE, SIG_IGN);
  if (!setup_tls ())
    {
      ERR_print_errors_fp (stderr);
      return 1;
    }
  if (out_path && !(out = fopen (out_path, "a")))
    {
      perror (out_path);
      return 1;
    }
  gint fd = socket (AF_INET, SOCK_STREAM, 0);
  gint one = 1;
  setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons (port), .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  if (bind (fd, (struct sockaddr *) &sin, sizeof sin) < 0 || listen (fd, 256) < 0)
    {
      perror ("http-receiver: bind");
      return 1;
    }
  for (;;)
    {
      gint cfd = accept (fd, NULL, NULL);
      if (cfd < 0)
        continue;
      Conn *c = g_new0 (Conn, 1);
      c->fd = cfd;
      c->in = g_string_sized_new (128 * 1024);
      g_thread_unref (g_thread_new ("conn", conn_thread, c));
    }
}
