/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snmptrapd-parser(): a trap as snmptrapd's default log format writes it,
 * read as syslog-ng 3.38's parser reads it (what the snmptrap() SCL source
 * runs on each record of snmptrapd's log):
 *
 *   DATE TIME HOST [TRANSPORT]: [V1 ENTERPRISE OID
 *   <TAB>V1 TYPE (SUBTYPE) Uptime: UPTIME]
 *   NAME = TYPE: VALUE<TAB>NAME = TYPE: VALUE ...
 *
 * The stamp becomes the message's (local time); hostname, transport_info
 * (and v1's enterprise_oid, type, subtype, uptime) and every variable
 * become fields under prefix(), a name's runs of ':' turned into one '_'
 * (SNMPv2-MIB::sysUpTime.0 is SNMPv2-MIB_sysUpTime.0); the variables are
 * read by the kv scanner with tabs between them and their types left out,
 * up to the end of the line, as syslog-ng's does (the lines of a wrapped
 * Hex-STRING after the first are not read). PROGRAM becomes snmptrapd and
 * MESSAGE, with set-message-macro(yes), the pairs as name='value', ... */
#include "plugins/parsers/kv/kv-parser.h"
#include "plugins/parsers/kv/kv-scanner.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/parser-input.h"
#include "core/stats.h"
#include "core/message/str-repr.h"
#include "core/message/timeutil.h"

#include <string.h>

typedef struct
{
  SlDriver base;
  SlTemplate *template;
  const gchar *prefix;
  gboolean set_message_macro;
  SlCounter *skipped_keys;
} SnmptrapdParser;

/* The longest field name made, as kv-parser() has it: the sender chooses
 * the OIDs, and names are kept for good. */
#define SNMPTRAPD_MAX_NAME 255

static const SlOptionSpec snmptrapd_parser_options[] = {
  { "template", SL_TEMPLATE (SnmptrapdParser, template), NULL, "the text to parse; ${MESSAGE} when not given" },
  { "prefix", SL_STRING (SnmptrapdParser, prefix), ".snmp.", "put before the name of every field" },
  { "set-message-macro", SL_BOOL (SnmptrapdParser, set_message_macro), "yes",
    "MESSAGE becomes the trap's pairs as name='value', ...; no: MESSAGE is unset" },
  { NULL }
};

/* One trap being read: where the text stands and what it sets. */
typedef struct
{
  const SnmptrapdParser *self;
  SlMessage *msg;
  const gchar *p;
  GString *name;
  GString *message;   /* NULL without set-message-macro() */
} TrapReader;

/* syslog-ng's append_unsafe_utf8_as_escaped_text(), inside '...' */
static const SlStrReprEscape message_escape = { "\b\f\n\r\t", "'", "\\u", 4, "\\\\x" };

static void
add_pair (TrapReader *r, const gchar *key, gsize key_len, const gchar *value, gsize value_len)
{
  g_string_assign (r->name, r->self->prefix);
  for (gsize i = 0; i < key_len; i++)
    if (key[i] != ':')
      g_string_append_c (r->name, key[i]);
    else if (i == 0 || key[i - 1] != ':')
      g_string_append_c (r->name, '_');
  if (r->name->len > SNMPTRAPD_MAX_NAME)
    sl_counter_add (r->self->skipped_keys, 1);
  else
    sl_message_set (r->msg, sl_field_handle (r->name->str), value, value_len);
  if (!r->message)
    return;
  if (r->message->len)
    g_string_append (r->message, ", ");
  g_string_append_len (r->message, key, key_len);
  g_string_append (r->message, "='");
  sl_str_repr_escape_append (r->message, value, value_len, &message_escape);
  g_string_append_c (r->message, '\'');
}

static void
add_field (TrapReader *r, const gchar *key, const gchar *value, gsize value_len)
{
  add_pair (r, key, strlen (key), value, value_len);
}

static void
skip_spaces (TrapReader *r)
{
  while (*r->p == ' ')
    r->p++;
}

static gboolean
expect (TrapReader *r, gchar c)
{
  if (*r->p != c)
    return FALSE;
  r->p++;
  return TRUE;
}

/* Up to width digits, at least one. */
static gboolean
scan_number (TrapReader *r, guint width, gint *value)
{
  guint i = 0;
  for (*value = 0; i < width && g_ascii_isdigit (*r->p); i++, r->p++)
    *value = *value * 10 + (*r->p - '0');
  return i > 0;
}

static gboolean
read_stamp (TrapReader *r)
{
  struct tm tm = { 0 };
  if (!scan_number (r, 4, &tm.tm_year) || !expect (r, '-') || !scan_number (r, 2, &tm.tm_mon) || !expect (r, '-')
      || !scan_number (r, 2, &tm.tm_mday) || !expect (r, ' ') || !scan_number (r, 2, &tm.tm_hour)
      || !expect (r, ':') || !scan_number (r, 2, &tm.tm_min) || !expect (r, ':') || !scan_number (r, 2, &tm.tm_sec))
    return FALSE;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  gint64 wall = sl_time_timegm (&tm);
  gint32 gmtoff = sl_time_local_gmtoff (wall);
  gmtoff = sl_time_local_gmtoff (wall - gmtoff);
  r->msg->stamp.usec = (wall - gmtoff) * G_USEC_PER_SEC;
  r->msg->stamp.gmtoff = gmtoff;
  return TRUE;
}

/* A run of characters other than white space, set as key unless empty. */
static gboolean
read_word (TrapReader *r, const gchar *key)
{
  const gchar *start = r->p;
  while (*r->p && !g_ascii_isspace (*r->p))
    r->p++;
  if (r->p == start)
    return FALSE;
  add_field (r, key, start, r->p - start);
  return TRUE;
}

/* "[UDP: [127.0.0.1]:40000->[127.0.0.1]:162]": up to the line's last ']'. */
static gboolean
read_transport (TrapReader *r)
{
  if (!expect (r, '['))
    return FALSE;
  skip_spaces (r);
  const gchar *start = r->p;
  const gchar *end = strchr (start, '\n');
  if (!end)
    return FALSE;
  while (*end != ']')
    if (--end == start)
      return FALSE;
  add_field (r, "transport_info", start, end - start);
  r->p = end + 1;
  return TRUE;
}

/* "linkDown (2) Uptime: 0:00:12.34" */
static gboolean
read_v1_type (TrapReader *r)
{
  const gchar *start = r->p;
  const gchar *type_end = strpbrk (start, "(\n");
  if (!type_end || *type_end != '(')
    return FALSE;
  const gchar *subtype = type_end + 1;
  if (type_end > start && type_end[-1] == ' ')
    type_end--;
  add_field (r, "type", start, type_end - start);
  const gchar *subtype_end = strpbrk (subtype, ")\n");
  if (!subtype_end || *subtype_end != ')')
    return FALSE;
  add_field (r, "subtype", subtype, subtype_end - subtype);
  r->p = subtype_end + 1;
  skip_spaces (r);
  if (!g_str_has_prefix (r->p, "Uptime:"))
    return FALSE;
  r->p += strlen ("Uptime:");
  skip_spaces (r);
  const gchar *uptime_end = strchr (r->p, '\n');
  if (!uptime_end)
    uptime_end = r->p + strlen (r->p);
  add_field (r, "uptime", r->p, uptime_end - r->p);
  r->p = uptime_end;
  return TRUE;
}

/* A v1 trap's header goes on with its enterprise OID, and a second line
 * that starts with a tab. */
static gboolean
read_v1_info (TrapReader *r)
{
  const gchar *newline = strchr (r->p, '\n');
  if (newline && newline[1] != '\t')
    return TRUE;
  skip_spaces (r);
  const gchar *start = r->p;
  while (*r->p && !g_ascii_isspace (*r->p))
    r->p++;
  if (r->p > start)
    add_field (r, "enterprise_oid", start, r->p - start);
  skip_spaces (r);
  if (!expect (r, '\n'))
    return FALSE;
  skip_spaces (r);
  if (!expect (r, '\t'))
    return FALSE;
  skip_spaces (r);
  return read_v1_type (r);
}

static gboolean
read_header (TrapReader *r)
{
  skip_spaces (r);
  if (!read_stamp (r))
    return FALSE;
  skip_spaces (r);
  if (!read_word (r, "hostname"))
    return FALSE;
  skip_spaces (r);
  if (!read_transport (r))
    return FALSE;
  skip_spaces (r);
  if (!expect (r, ':'))
    return FALSE;
  skip_spaces (r);
  if (!read_v1_info (r))
    return FALSE;
  skip_spaces (r);
  return expect (r, '\n') || !*r->p;
}

static gboolean
is_varbind_key_char (gchar c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '.' || c == '-' || c == ':';
}

/* "= STRING: value": the type is left out of the value. */
static void
skip_type (KvScanner *scanner)
{
  const gchar *start = scanner->input + scanner->pos;
  while (*start == ' ' || *start == '\t')
    start++;
  const gchar *end = strpbrk (start, ": \t");
  if (end && *end == ':')
    scanner->pos = end + 1 - scanner->input;
}

static void
read_varbinds (TrapReader *r)
{
  KvScanner scanner;
  kv_scanner_init (&scanner, '=', "\t", NULL, FALSE, r->p);
  scanner.stop_char = '\n';
  scanner.is_key_char = is_varbind_key_char;
  scanner.annotation = skip_type;
  while (kv_scanner_next (&scanner))
    add_pair (r, scanner.key, scanner.key_len, scanner.value->str, scanner.value->len);
}

static gboolean
snmptrapd_parser_process (SlDriver *d, SlMessage **msg)
{
  SnmptrapdParser *self = (SnmptrapdParser *) d;
  gsize len;
  g_autofree gchar *input = g_strdup (sl_parser_input (self->template, *msg, &len));
  sl_message_make_writable (msg);
  g_autoptr (GString) name = g_string_sized_new (64);
  g_autoptr (GString) message = self->set_message_macro ? g_string_sized_new (256) : NULL;
  TrapReader r = { self, *msg, input, name, message };
  sl_message_set (*msg, SL_F_PROGRAM, "snmptrapd", -1);
  if (!read_header (&r))
    return FALSE;
  read_varbinds (&r);
  if (message)
    sl_message_set (*msg, SL_F_MESSAGE, message->str, message->len);
  else
    sl_message_unset (*msg, SL_F_MESSAGE);
  return TRUE;
}

static gboolean
snmptrapd_parser_init (SlDriver *d, GError **error)
{
  SnmptrapdParser *self = (SnmptrapdParser *) d;
  if (strlen (self->prefix) >= SNMPTRAPD_MAX_NAME)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "prefix"),
                        _("prefix() is longer than the longest field name, %d bytes"), SNMPTRAPD_MAX_NAME);
      return FALSE;
    }
  self->skipped_keys = sl_stats_counter ("parser", d->id, d->klass->name, "skipped-keys");
  return TRUE;
}

static const SlParserOps snmptrapd_parser_ops = { .process = snmptrapd_parser_process };

const SlDriverClass snmptrapd_parser_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "snmptrapd-parser",
  .summary = "sets fields from a trap in snmptrapd's log format (what the snmptrap() source reads)",
  .options = snmptrapd_parser_options,
  .instance_size = sizeof (SnmptrapdParser),
  .init = snmptrapd_parser_init,
  .ops.parser = &snmptrapd_parser_ops,
};
