/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/message/macros.h"
#include "core/message/priority.h"
#include "core/message/text-append.h"
#include "core/message/timeutil.h"

#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const SlTemplateEnv sl_template_env_default = {
  .ts_format = SL_TS_RFC3164,
  .frac_digits = 0,
  .zone = NULL,
  .escape = FALSE,
  .on_error = SL_ON_ERROR_DROP_MESSAGE,
};

const SlOptionWord sl_on_error_words[] = {
  { "drop-message", SL_ON_ERROR_DROP_MESSAGE },
  { "drop-property", SL_ON_ERROR_DROP_PROPERTY },
  { "fallback-to-string", SL_ON_ERROR_FALLBACK_TO_STRING },
  { "silently-drop-message", SL_ON_ERROR_DROP_MESSAGE | SL_ON_ERROR_SILENT },
  { "silently-drop-property", SL_ON_ERROR_DROP_PROPERTY | SL_ON_ERROR_SILENT },
  { "silently-fallback-to-string", SL_ON_ERROR_FALLBACK_TO_STRING | SL_ON_ERROR_SILENT },
  { NULL }
};

enum
{
  M_NONE,
  M_MSGHDR,
  M_LEGACY_MSGHDR,
  M_FACILITY,
  M_FACILITY_NUM,
  M_LEVEL,
  M_LEVEL_NUM,
  M_PRI,
  M_TAG,
  M_SEQNUM,
  M_LOGHOST,
  M_SDATA,
  M_TAGS,
  M_BSDTAG,
  M_SOURCE,
  M_DATE_FIRST
};

/* Parts of a time: each is a macro for the message's stamp ($X and $S_X)
 * and for its reception ($R_X). */
typedef enum
{
  D_DATE,
  D_FULLDATE,
  D_ISODATE,
  D_STAMP,
  D_UNIXTIME,
  D_YEAR,
  D_YEAR_DAY,
  D_MONTH,
  D_MONTH_ABBREV,
  D_MONTH_NAME,
  D_DAY,
  D_HOUR,
  D_HOUR12,
  D_AMPM,
  D_MIN,
  D_SEC,
  D_MSEC,
  D_USEC,
  D_WEEK_DAY_ABBREV,
  D_WEEK_DAY,
  D_WEEK_DAY_NAME,
  D_TZOFFSET,
  D_COUNT
} SlDatePart;

enum
{
  FORM_STAMP,
  FORM_RECVD,
  FORM_COUNT
};

/* One table of names for the template compiler and for the value-pairs
 * scopes of $(format-json): a name, what it computes, and the scopes that
 * list it. */
typedef struct
{
  const gchar *name;
  guint id;          /* M_NONE: a field the message stores, that syslog-ng counts as a macro */
  guint scopes;      /* SL_MACRO_SCOPE_* */
} SlMacroName;

#define ALL SL_MACRO_SCOPE_ALL
/* rfc5424 and selected-macros include all of rfc3164 */
#define RFC3164 (SL_MACRO_SCOPE_RFC3164 | SL_MACRO_SCOPE_RFC5424 | SL_MACRO_SCOPE_SELECTED)

/* In the order all-macros lists them. */
static const SlMacroName plain_macros[] = {
  { "BSDTAG", M_BSDTAG, ALL },
  { "FACILITY", M_FACILITY, ALL | RFC3164 },
  { "FACILITY_NUM", M_FACILITY_NUM, ALL },
  { "HOST", M_NONE, ALL | RFC3164 },
  { "LEGACY_MSGHDR", M_LEGACY_MSGHDR, 0 },
  { "LEVEL", M_LEVEL, ALL },
  { "LEVEL_NUM", M_LEVEL_NUM, ALL },
  { "LOGHOST", M_LOGHOST, ALL },
  { "MESSAGE", M_NONE, ALL | RFC3164 },
  { "MSG", M_NONE, ALL },
  { "MSGHDR", M_MSGHDR, ALL },
  { "MSGID", M_NONE, ALL | SL_MACRO_SCOPE_RFC5424 },
  { "PID", M_NONE, ALL | RFC3164 },
  { "PRI", M_PRI, ALL },
  { "PRIORITY", M_LEVEL, ALL | RFC3164 },
  { "PROGRAM", M_NONE, ALL | RFC3164 },
  { "SDATA", M_SDATA, ALL },
  { "SEQNUM", M_SEQNUM, ALL | SL_MACRO_SCOPE_SELECTED },
  { "SEVERITY", M_LEVEL, ALL },
  { "SEVERITY_NUM", M_LEVEL_NUM, ALL },
  { "SOURCE", M_SOURCE, 0 },
  { "SOURCEIP", M_NONE, ALL | SL_MACRO_SCOPE_SELECTED },
  { "TAG", M_TAG, ALL },
  { "TAGS", M_TAGS, ALL | SL_MACRO_SCOPE_SELECTED },
};

/* The scopes of a bare name; its R_ and S_ forms are in all-macros only. */
static const SlMacroName date_parts[] = {
  { "AMPM", D_AMPM, ALL },
  { "DATE", D_DATE, ALL | RFC3164 },
  { "DAY", D_DAY, ALL },
  { "FULLDATE", D_FULLDATE, ALL },
  { "HOUR", D_HOUR, ALL },
  { "HOUR12", D_HOUR12, ALL },
  { "ISODATE", D_ISODATE, ALL },
  { "MIN", D_MIN, ALL },
  { "MONTH", D_MONTH, ALL },
  { "MONTH_ABBREV", D_MONTH_ABBREV, ALL },
  { "MONTHNAME", D_MONTH_ABBREV, 0 },
  { "MONTH_NAME", D_MONTH_NAME, ALL },
  { "MSEC", D_MSEC, ALL },
  { "SEC", D_SEC, ALL },
  { "STAMP", D_STAMP, ALL },
  { "TZ", D_TZOFFSET, ALL },
  { "TZOFFSET", D_TZOFFSET, ALL },
  { "UNIXTIME", D_UNIXTIME, ALL },
  { "USEC", D_USEC, ALL },
  { "WEEKDAY", D_WEEK_DAY_ABBREV, ALL },
  { "WEEK_DAY", D_WEEK_DAY, ALL },
  { "WEEK_DAY_ABBREV", D_WEEK_DAY_ABBREV, ALL },
  { "WEEK_DAY_NAME", D_WEEK_DAY_NAME, ALL },
  { "YEAR", D_YEAR, ALL },
  { "YEAR_DAY", D_YEAR_DAY, ALL },
};

#undef ALL
#undef RFC3164

static const struct
{
  const gchar *prefix;
  guint form;
} date_forms[] = {
  { "", FORM_STAMP }, { "R_", FORM_RECVD }, { "S_", FORM_STAMP },
};

static const gchar *const month_abbrevs[12] = {
  "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
};

static const gchar *const month_names[12] = {
  "January", "February", "March", "April", "May", "June",
  "July", "August", "September", "October", "November", "December",
};

static const gchar *const week_day_abbrevs[7] = {
  "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat",
};

static const gchar *const week_day_names[7] = {
  "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
};

static guint
find_named (const SlMacroName *table, guint n, const gchar *name)
{
  for (guint i = 0; i < n; i++)
    if (strcmp (table[i].name, name) == 0)
      return table[i].id;
  return G_MAXUINT;
}

guint
sl_macro_lookup (const gchar *name)
{
  guint part = find_named (plain_macros, G_N_ELEMENTS (plain_macros), name);
  if (part != G_MAXUINT)
    return part;

  guint form = FORM_STAMP;
  for (guint f = 1; f < G_N_ELEMENTS (date_forms); f++)
    if (g_str_has_prefix (name, date_forms[f].prefix))
      {
        form = date_forms[f].form;
        name += strlen (date_forms[f].prefix);
        break;
      }
  part = find_named (date_parts, G_N_ELEMENTS (date_parts), name);
  if (part == G_MAXUINT)
    return M_NONE;
  return M_DATE_FIRST + form * D_COUNT + part;
}

void
sl_macro_foreach (SlMacroFunc func, gpointer user_data)
{
  gchar name[32];
  for (guint f = 0; f < G_N_ELEMENTS (date_forms); f++)
    for (guint i = 0; i < G_N_ELEMENTS (date_parts); i++)
      {
        guint scopes = f ? date_parts[i].scopes & SL_MACRO_SCOPE_ALL : date_parts[i].scopes;
        if (!(scopes & SL_MACRO_SCOPE_ALL))
          continue;
        g_snprintf (name, sizeof name, "%s%s", date_forms[f].prefix, date_parts[i].name);
        func (name, scopes, user_data);
      }
  for (guint i = 0; i < G_N_ELEMENTS (plain_macros); i++)
    if (plain_macros[i].scopes & SL_MACRO_SCOPE_ALL)
      func (plain_macros[i].name, plain_macros[i].scopes, user_data);
}

/* Decimal, left-padded with zeros to width: the hot path's printf. */
static void
append_number (GString *out, guint64 value, guint width)
{
  gchar digits[20];
  guint n = 0;

  do
    {
      digits[sizeof digits - ++n] = '0' + value % 10;
      value /= 10;
    }
  while (value && n < sizeof digits);
  while (n < width && n < sizeof digits)
    digits[sizeof digits - ++n] = '0';
  sl_text_append (out, digits + sizeof digits - n, n);
}

static gboolean
append_date_part (SlDatePart part, const SlTime *t, const SlTemplateEnv *env, GString *out)
{
  static const SlTsFormat stamp_formats[] = {
    [D_DATE] = SL_TS_RFC3164,
    [D_FULLDATE] = SL_TS_FULL,
    [D_ISODATE] = SL_TS_ISO,
    [D_UNIXTIME] = SL_TS_UNIX,
  };
  gint64 frac_usec = t->usec % G_USEC_PER_SEC;
  struct tm tm;
  gint32 gmtoff;

  if (frac_usec < 0)
    frac_usec += G_USEC_PER_SEC;

  switch (part)
    {
    case D_DATE:
    case D_FULLDATE:
    case D_ISODATE:
    case D_UNIXTIME:
      sl_time_append (out, t, stamp_formats[part], env->frac_digits, env->zone);
      return TRUE;
    case D_STAMP:
      sl_time_append (out, t, env->ts_format, env->frac_digits, env->zone);
      return TRUE;
    case D_MSEC:
      append_number (out, (guint64) frac_usec / 1000, 3);
      return TRUE;
    case D_USEC:
      append_number (out, (guint64) frac_usec, 6);
      return TRUE;
    default:
      break;
    }

  sl_time_to_tm (t, env->zone, &tm, &gmtoff);
  switch (part)
    {
    case D_YEAR:
      append_number (out, (guint64) (tm.tm_year + 1900), 4);
      break;
    case D_YEAR_DAY:
      append_number (out, (guint64) tm.tm_yday + 1, 3);
      break;
    case D_MONTH:
      append_number (out, (guint64) tm.tm_mon + 1, 2);
      break;
    case D_MONTH_ABBREV:
      g_string_append (out, month_abbrevs[tm.tm_mon]);
      break;
    case D_MONTH_NAME:
      g_string_append (out, month_names[tm.tm_mon]);
      break;
    case D_DAY:
      append_number (out, (guint64) tm.tm_mday, 2);
      break;
    case D_HOUR:
      append_number (out, (guint64) tm.tm_hour, 2);
      break;
    case D_HOUR12:
      append_number (out, (guint64) (tm.tm_hour % 12 ? tm.tm_hour % 12 : 12), 2);
      break;
    case D_AMPM:
      g_string_append (out, tm.tm_hour < 12 ? "AM" : "PM");
      break;
    case D_MIN:
      append_number (out, (guint64) tm.tm_min, 2);
      break;
    case D_SEC:
      append_number (out, (guint64) tm.tm_sec, 2);
      break;
    case D_WEEK_DAY_ABBREV:
      g_string_append (out, week_day_abbrevs[tm.tm_wday]);
      break;
    case D_WEEK_DAY:
      append_number (out, (guint64) tm.tm_wday + 1, 1);
      break;
    case D_WEEK_DAY_NAME:
      g_string_append (out, week_day_names[tm.tm_wday]);
      break;
    case D_TZOFFSET:
      sl_time_append_offset (out, gmtoff);
      break;
    default:
      return FALSE;
    }
  return TRUE;
}

static gboolean
append_field (const SlMessage *msg, SlHandle h, GString *out)
{
  gsize len;
  const gchar *value = sl_message_get (msg, h, &len);

  if (!value || !len)
    return FALSE;
  sl_text_append (out, value, len);
  return TRUE;
}

static gboolean
append_msghdr (const SlMessage *msg, GString *out)
{
  gsize pid_len;
  const gchar *pid = sl_message_get (msg, SL_F_PID, &pid_len);

  if (!append_field (msg, SL_F_PROGRAM, out))
    return FALSE;
  if (pid && pid_len)
    {
      g_string_append_c (out, '[');
      sl_text_append (out, pid, pid_len);
      g_string_append_c (out, ']');
    }
  sl_text_append (out, ": ", 2);
  return TRUE;
}

/* A message's structured-data fields in the order they were set, which
 * is the order they were received in. */
typedef struct
{
  guint32 order;
  guint32 index;
} SlSdRef;

/* Most messages carry a handful of SD params: those stay on the stack. */
#define SD_STACK_PARAMS 32

static const gchar sdata_prefix[] = ".SDATA.";

static gint
sd_ref_compare (gconstpointer a, gconstpointer b)
{
  const SlSdRef *x = a, *y = b;
  if (x->order != y->order)
    return x->order < y->order ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

static void
append_sd_value (GString *out, const gchar *value, gsize len)
{
  for (gsize i = 0; i < len; i++)
    {
      if (value[i] == '"' || value[i] == '\\' || value[i] == ']')
        g_string_append_c (out, '\\');
      g_string_append_c (out, value[i]);
    }
}

/* RFC 5424 has no escapes for names: what would break the syntax is
 * written as %XX, as syslog-ng does. */
static void
append_sd_name (GString *out, const gchar *name, gsize len)
{
  for (gsize i = 0; i < len; i++)
    {
      guchar c = name[i];
      if (c >= 128 || c == '=' || c == ' ' || c == '[' || c == ']' || c == '"')
        g_string_append_printf (out, "%%%02X", c);
      else
        g_string_append_c (out, c);
    }
}

static guint64
sequence_id (const SlMessage *msg, gboolean *present)
{
  static SlHandle handle;
  if (!handle)
    handle = sl_field_handle (".SDATA.meta.sequenceId");
  gsize len;
  const gchar *value = sl_message_get (msg, handle, &len);
  *present = value && len;
  if (msg->flags & SL_MSG_LOCAL)
    return msg->seqnum;
  gchar buf[24];
  if (!value || !len)
    return 0;
  len = MIN (len, sizeof buf - 1);
  memcpy (buf, value, len);
  buf[len] = '\0';
  return g_ascii_strtoull (buf, NULL, 10);
}

/* As syslog-ng writes it: the params in the order they came, a new
 * element each time the id changes, the last dot of a name parting id
 * from param; and a message the daemon made itself carries its sequence
 * number in [meta sequenceId]. Structured data kept whole, because some of
 * its names found no room in the registry, is written as received. */
static gboolean
append_sdata (const SlMessage *msg, GString *out)
{
  gsize kept_len;
  const gchar *kept = sl_message_kept_sdata (msg, &kept_len);
  if (kept)
    {
      g_string_append_len (out, kept, kept_len);
      return TRUE;
    }

  SlSdRef stack[SD_STACK_PARAMS];
  SlSdRef *refs = stack;
  guint n = 0;
  for (guint i = 0; i < msg->n_fields; i++)
    {
      const gchar *name = sl_field_name (msg->fields[i].handle);
      if (!msg->fields[i].ptr || !name || strncmp (name, sdata_prefix, sizeof sdata_prefix - 1) != 0)
        continue;
      if (n == SD_STACK_PARAMS && refs == stack)
        {
          refs = g_new (SlSdRef, msg->n_fields);
          memcpy (refs, stack, sizeof stack);
        }
      refs[n++] = (SlSdRef) { msg->fields[i].order, i };
    }
  qsort (refs, n, sizeof *refs, sd_ref_compare);

  gboolean has_seq;
  guint64 seq = sequence_id (msg, &has_seq);
  gsize before = out->len;
  const gchar *cur = NULL;
  gsize cur_len = 0;
  for (guint k = 0; k < n; k++)
    {
      const SlValue *v = &msg->fields[refs[k].index];
      const gchar *element = sl_field_name (v->handle) + sizeof sdata_prefix - 1;
      gsize name_len = strlen (element);
      const gchar *dot = memrchr (element, '.', name_len);
      gsize element_len = dot ? (gsize) (dot - element) : name_len;
      const gchar *param = dot ? dot + 1 : element + name_len;
      if (element_len == 0)
        {
          element = "none";
          element_len = 4;
        }
      if (!cur || cur_len != element_len || memcmp (cur, element, element_len) != 0)
        {
          if (cur)
            g_string_append_c (out, ']');
          g_string_append_c (out, '[');
          append_sd_name (out, element, element_len);
          cur = element;
          cur_len = element_len;
        }
      if (!has_seq && seq && element_len == 4 && memcmp (element, "meta", 4) == 0)
        {
          g_string_append_printf (out, " sequenceId=\"%" G_GUINT64_FORMAT "\"", seq);
          has_seq = TRUE;
        }
      if (*param)
        {
          g_string_append_c (out, ' ');
          append_sd_name (out, param, strlen (param));
          g_string_append (out, "=\"");
          append_sd_value (out, v->ptr, v->len);
          g_string_append_c (out, '"');
        }
    }
  if (cur)
    g_string_append_c (out, ']');
  if (!has_seq && seq)
    g_string_append_printf (out, "[meta sequenceId=\"%" G_GUINT64_FORMAT "\"]", seq);
  if (refs != stack)
    g_free (refs);
  return out->len > before;
}

/* Interned, so that a reader holding the one a reload replaced still
 * holds a string. */
static const gchar *loghost;

/* syslog-ng's own FQDN: the host name when it has a dot, else the first
 * name with a dot that resolving it gives (canonical name, then aliases),
 * else the host name itself, else "localhost". */
const gchar *
sl_macro_local_fqdn (void)
{
  static const gchar *fqdn;
  if (g_once_init_enter (&fqdn))
    {
      gchar host[256] = "";
      gethostname (host, sizeof host - 1);
      gchar *found = strchr (host, '.') ? g_strdup (host) : NULL;
      const struct hostent *entry = found ? NULL : gethostbyname (host);
      if (entry && strchr (entry->h_name, '.'))
        found = g_strdup (entry->h_name);
      for (guint i = 0; entry && !found && entry->h_aliases[i]; i++)
        if (strchr (entry->h_aliases[i], '.'))
          found = g_strdup (entry->h_aliases[i]);
      if (!found)
        found = g_strdup (host[0] ? host : "localhost");
      g_once_init_leave (&fqdn, found);
    }
  return fqdn;
}

void
sl_macro_set_loghost (const gchar *name, gboolean fqdn)
{
  const gchar *host;
  if (name)
    host = g_intern_string (name);
  else if (fqdn)
    host = g_intern_string (sl_macro_local_fqdn ());
  else
    {
      g_autofree gchar *short_name = g_strndup (g_get_host_name (), strcspn (g_get_host_name (), "."));
      host = g_intern_string (short_name);
    }
  g_atomic_pointer_set (&loghost, host);
}

const gchar *
sl_macro_loghost (void)
{
  const gchar *host = g_atomic_pointer_get (&loghost);
  if (!host)
    {
      sl_macro_set_loghost (NULL, FALSE);
      host = g_atomic_pointer_get (&loghost);
    }
  return host;
}

guint
sl_macro_inputs (guint id)
{
  if (id >= M_DATE_FIRST && id < M_DATE_FIRST + FORM_COUNT * D_COUNT)
    {
      guint form = (id - M_DATE_FIRST) / D_COUNT;
      guint reads = form == FORM_RECVD ? SL_MACRO_READS_RECVD : SL_MACRO_READS_STAMP;
      switch ((id - M_DATE_FIRST) % D_COUNT)
        {
        case D_MSEC:
        case D_USEC:
          return reads | SL_MACRO_READS_USEC;
        case D_DATE:
        case D_FULLDATE:
        case D_ISODATE:
        case D_STAMP:
        case D_UNIXTIME:
          return reads | SL_MACRO_READS_FRAC;
        default:
          return reads;
        }
    }
  switch (id)
    {
    case M_MSGHDR:
    case M_LEGACY_MSGHDR:
      return SL_MACRO_READS_MSGHDR;
    case M_FACILITY:
    case M_FACILITY_NUM:
    case M_LEVEL:
    case M_LEVEL_NUM:
    case M_PRI:
    case M_TAG:
    case M_BSDTAG:
      return SL_MACRO_READS_PRI;
    case M_SOURCE:
      return SL_MACRO_READS_SOURCE;
    case M_LOGHOST:
      return 0;
    default:
      return SL_MACRO_READS_ANY;
    }
}

gboolean
sl_macro_append (guint id, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  if (id >= M_DATE_FIRST && id < M_DATE_FIRST + FORM_COUNT * D_COUNT)
    {
      guint form = (id - M_DATE_FIRST) / D_COUNT;
      const SlTime *t = form == FORM_RECVD ? &msg->recvd : &msg->stamp;
      return append_date_part ((id - M_DATE_FIRST) % D_COUNT, t, env, out);
    }

  guint facility = SL_PRI_FACILITY (msg->pri);
  guint severity = SL_PRI_SEVERITY (msg->pri);

  switch (id)
    {
    case M_MSGHDR:
      /* the tag as received when an RFC 3164 parser found one */
      return append_field (msg, SL_F_LEGACY_MSGHDR, out) || append_msghdr (msg, out);
    case M_LEGACY_MSGHDR:
      /* only what an RFC 3164 parser found: empty for RFC 5424, as in syslog-ng */
      return append_field (msg, SL_F_LEGACY_MSGHDR, out);
    case M_FACILITY:
      if (facility < SL_FACILITY_COUNT)
        g_string_append (out, sl_facility_names[facility]);
      else
        g_string_append_printf (out, "%x", facility);
      return TRUE;
    case M_BSDTAG:
      append_number (out, severity, 1);
      g_string_append_c (out, (gchar) ('A' + facility));
      return TRUE;
    case M_SOURCE:
      {
        /* the group's name, from the .source.NAME tag its source set */
        const gchar *tag = msg->source ? sl_tag_name (msg->source) : NULL;
        if (!tag || strlen (tag) <= 8)
          return FALSE;
        g_string_append (out, tag + 8);
        return TRUE;
      }
    case M_FACILITY_NUM:
      append_number (out, facility, 1);
      return TRUE;
    case M_LEVEL:
      g_string_append (out, sl_level_names[severity]);
      return TRUE;
    case M_LEVEL_NUM:
      append_number (out, severity, 1);
      return TRUE;
    case M_PRI:
      append_number (out, msg->pri, 1);
      return TRUE;
    case M_TAG:
      g_string_append_c (out, "0123456789abcdef"[msg->pri >> 4]);
      g_string_append_c (out, "0123456789abcdef"[msg->pri & 15]);
      return TRUE;
    case M_SEQNUM:
      {
        /* syslog-ng numbers only its own messages; a received one has the
         * number its sender put in [meta sequenceId], if any */
        gboolean present;
        guint64 seq = sequence_id (msg, &present);
        if (!seq)
          return FALSE;
        append_number (out, seq, 1);
        return TRUE;
      }
    case M_LOGHOST:
      g_string_append (out, sl_macro_loghost ());
      return TRUE;
    case M_SDATA:
      return append_sdata (msg, out);
    case M_TAGS:
      /* comma-separated, in the order the tags were first seen in the
       * process, as syslog-ng orders them by id */
      return sl_message_append_tags (msg, out);
    default:
      return FALSE;
    }
}
