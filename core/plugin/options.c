/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/plugin/options.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <errno.h>
#include <netdb.h>
#include <string.h>

typedef struct
{
  const SlOptionSpec *spec;
  const SlCfgNode *node;   /* where it was written, or NULL for the default */
  SlCfgPos pos;
  gboolean set;            /* written in this driver's block */
  gboolean has_value;      /* written, inherited or defaulted */
  guint order;             /* for written ones: the how-manieth */
  gchar *str;
  gint64 num;
  GPtrArray *list;
  GPtrArray *args;         /* what was written, for templates and filters */
  const gchar *hint;       /* a template's type hint: int("$PID"), a bare 42 */
  gpointer compiled;       /* template or filter made at bind */
  void (*compiled_free) (gpointer);
} Entry;

struct _SlOptions
{
  gchar *owner;
  const SlCfgNode *node;
  GHashTable *entries;     /* normalized name -> Entry */
};

static const gchar *const type_names[SL_OPT_TYPE_COUNT] = {
  [SL_OPT_STRING] = "string",
  [SL_OPT_INT] = "number",
  [SL_OPT_BOOL] = "yes|no",
  [SL_OPT_SIZE] = "size",
  [SL_OPT_DURATION] = "duration",
  [SL_OPT_DURATION_MS] = "duration",
  [SL_OPT_TEMPLATE] = "template",
  [SL_OPT_FILTER] = "filter expression",
  [SL_OPT_FLAGS] = "flags",
  [SL_OPT_CHOICE] = "choice",
  [SL_OPT_LIST] = "list",
  [SL_OPT_BLOCK] = "block",
  [SL_OPT_PAIRS] = "\"key\" => value pairs",
  [SL_OPT_PORT] = "port",
};

const gchar *
sl_option_type_name (SlOptionType type)
{
  return type < SL_OPT_TYPE_COUNT ? type_names[type] : "value";
}

gchar *
sl_option_words (const SlOptionSpec *spec)
{
  GString *out = g_string_new (NULL);
  for (const SlOptionWord *w = spec->words; w && w->word; w++)
    g_string_append_printf (out, "%s%s", out->len ? ", " : "", w->word);
  return g_string_free (out, FALSE);
}

/* The range an entry's value must lie in: its own, or what its type and
 * field hold. */
static SlOptionRange
range_of (const SlOptionSpec *spec)
{
  if (spec->range.set)
    return spec->range;
  switch (spec->type)
    {
    case SL_OPT_INT:
      return (SlOptionRange) { TRUE, G_MININT, G_MAXINT };
    case SL_OPT_PORT:
      return (SlOptionRange) { TRUE, 1, 65535 };
    case SL_OPT_SIZE:
    case SL_OPT_DURATION:
    case SL_OPT_DURATION_MS:
      return (SlOptionRange) { TRUE, 0, G_MAXINT64 };
    default:
      return (SlOptionRange) { FALSE, 0, 0 };
    }
}

static gboolean
has_range (SlOptionType type)
{
  return type == SL_OPT_INT || type == SL_OPT_PORT || type == SL_OPT_SIZE || type == SL_OPT_DURATION
         || type == SL_OPT_DURATION_MS;
}

/* A value as the user would write it: bytes with their largest exact
 * binary unit, milliseconds with their largest exact unit of time, a file
 * mode in octal. */
static gchar *
value_text (SlOptionType type, gint64 v, gboolean mode)
{
  static const struct
  {
    const gchar *suffix;
    gint64 ms;
  } times[] = { { "h", 3600000 }, { "m", 60000 }, { "s", 1000 } };
  static const gchar *const sizes[] = { "", "k", "M", "G", "T" };
  if (type == SL_OPT_SIZE)
    {
      guint unit = 0;
      while (v != 0 && v % 1024 == 0 && unit + 1 < G_N_ELEMENTS (sizes))
        v /= 1024, unit++;
      return g_strdup_printf ("%" G_GINT64_FORMAT "%s", v, sizes[unit]);
    }
  if (type == SL_OPT_INT && mode && v)
    return g_strdup_printf ("0%" G_GINT64_MODIFIER "o", v);
  if (type == SL_OPT_DURATION || type == SL_OPT_DURATION_MS)
    {
      for (guint i = 0; v != 0 && i < G_N_ELEMENTS (times); i++)
        if (v % times[i].ms == 0)
          return g_strdup_printf ("%" G_GINT64_FORMAT "%s", v / times[i].ms, times[i].suffix);
      return g_strdup_printf ("%" G_GINT64_FORMAT "ms", v);
    }
  return g_strdup_printf ("%" G_GINT64_FORMAT, v);
}

static gboolean
is_type_max (SlOptionType type, gint64 v)
{
  return v == (type == SL_OPT_INT ? G_MAXINT : G_MAXINT64);
}

/* "1 to 65535", "at least 1", "0 to 1M bytes"; NULL when any value of
 * the field is allowed. */
static gchar *
range_text (const SlOptionSpec *spec)
{
  SlOptionRange r = range_of (spec);
  if (!r.set || (spec->type == SL_OPT_INT && r.min == G_MININT && r.max == G_MAXINT))
    return NULL;
  gint64 last = is_type_max (spec->type, r.max) ? r.min : r.max;
  const gchar *unit = spec->type != SL_OPT_SIZE ? "" : last == 1 ? _(" byte") : _(" bytes");
  /* SL_RANGE_MODE's: file modes are written in octal */
  gboolean mode = spec->range.set && r.min == 0 && r.max == 07777;
  gchar *lo = value_text (spec->type, r.min, mode), *hi = value_text (spec->type, r.max, mode);
  gchar *text;
  if (is_type_max (spec->type, r.max))
    text = r.min == 0 && spec->type != SL_OPT_INT ? NULL : g_strdup_printf (_("at least %s%s"), lo, unit);
  else
    text = g_strdup_printf (_("%s to %s%s"), lo, hi, unit);
  g_free (lo);
  g_free (hi);
  return text;
}

gchar *
sl_option_value_text (const SlOptionSpec *spec)
{
  if (spec->words)
    {
      gchar *words = sl_option_words (spec);
      gchar *text = g_strdup_printf (spec->type == SL_OPT_FLAGS ? _("any of: %s") : _("one of: %s"), words);
      g_free (words);
      return text;
    }
  GString *text = g_string_new (sl_option_type_name (spec->type));
  if (spec->type == SL_OPT_DURATION)
    g_string_append (text, _(" (a bare number: seconds)"));
  else if (spec->type == SL_OPT_DURATION_MS)
    g_string_append (text, _(" (a bare number: milliseconds)"));
  gchar *range = range_text (spec);
  if (range)
    g_string_append_printf (text, ", %s", range);
  g_free (range);
  return g_string_free (text, FALSE);
}

gchar *
sl_option_default_text (const gchar *def)
{
  gboolean plain = TRUE;
  for (const gchar *p = def; *p && plain; p++)
    plain = (guchar) *p >= 0x20 && *p != 0x7f;
  if (plain)
    return g_strdup (def);
  GString *out = g_string_new ("\"");
  for (const gchar *p = def; *p; p++)
    switch (*p)
      {
      case '\n': g_string_append (out, "\\n"); break;
      case '\t': g_string_append (out, "\\t"); break;
      case '\r': g_string_append (out, "\\r"); break;
      case '"': g_string_append (out, "\\\""); break;
      case '\\': g_string_append (out, "\\\\"); break;
      default:
        if ((guchar) *p < 0x20 || *p == 0x7f)
          g_string_append_printf (out, "\\x%02x", (guchar) *p);
        else
          g_string_append_c (out, *p);
      }
  g_string_append_c (out, '"');
  return g_string_free (out, FALSE);
}

/* The value is outside the entry's range: say so, with the range. */
static gboolean
check_range (const SlOptionSpec *spec, const gchar *owner, const SlCfgArg *a, gint64 v, GError **error)
{
  SlOptionRange r = range_of (spec);
  if (!r.set || (v >= r.min && v <= r.max))
    return TRUE;
  gchar *range = range_text (spec);
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, a->pos, _("option '%s' of %s must be %s, got '%s'"),
                    spec->name, owner, range, a->value);
  g_free (range);
  return FALSE;
}

static void
entry_free (gpointer p)
{
  Entry *e = p;
  g_free (e->str);
  if (e->list)
    g_ptr_array_unref (e->list);
  if (e->args)
    g_ptr_array_unref (e->args);
  if (e->compiled && e->compiled_free)
    e->compiled_free (e->compiled);
  g_free (e);
}

const SlOptionSpec *
sl_options_find (const SlOptionSpec *const *tables, const gchar *name)
{
  for (const SlOptionSpec *const *t = tables; t && *t; t++)
    for (const SlOptionSpec *s = *t; s->name; s++)
      if (sl_cfg_name_equal (s->name, name))
        return s;
  return NULL;
}

static void
set_unknown_option_error (GError **error, const gchar *owner, const SlOptionSpec *const *tables,
                          const SlCfgNode *child)
{
  GPtrArray *names = g_ptr_array_new ();
  for (const SlOptionSpec *const *t = tables; t && *t; t++)
    for (const SlOptionSpec *s = *t; s->name; s++)
      g_ptr_array_add (names, (gpointer) s->name);
  gchar *normal = sl_cfg_name_normalize (child->name);
  const gchar *near = sl_cfg_suggest (normal, (const gchar *const *) names->pdata, names->len);
  if (near)
    sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, child->pos,
                      _("unknown option '%s' in %s; did you mean '%s'?"), child->name, owner, near);
  else if (names->len)
    {
      g_ptr_array_add (names, NULL);
      gchar *all = g_strjoinv (", ", (gchar **) names->pdata);
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, child->pos,
                        _("unknown option '%s' in %s; it takes: %s"), child->name, owner, all);
      g_free (all);
    }
  else
    sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, child->pos,
                      _("unknown option '%s' in %s; it takes no options"), child->name, owner);
  g_free (normal);
  g_ptr_array_unref (names);
}

static gboolean
parse_int (const gchar *text, gint64 *out)
{
  gchar *end;
  errno = 0;
  gint64 v = g_ascii_strtoll (text, &end, 0);
  if (end == text || errno)
    return FALSE;
  gint64 unit = 1;
  switch (g_ascii_toupper (*end))
    {
    case 'K': unit = G_GINT64_CONSTANT (1) << 10; end++; break;
    case 'M': unit = G_GINT64_CONSTANT (1) << 20; end++; break;
    case 'G': unit = G_GINT64_CONSTANT (1) << 30; end++; break;
    case 'T': unit = G_GINT64_CONSTANT (1) << 40; end++; break;
    default: break;
    }
  if (unit > 1 && (g_ascii_strcasecmp (end, "b") == 0 || g_ascii_strcasecmp (end, "ib") == 0))
    end += strlen (end);
  if (*end || (v != 0 && (v > G_MAXINT64 / unit || v < G_MININT64 / unit)))
    return FALSE;
  *out = v * unit;
  return TRUE;
}

/* A duration in milliseconds: a number with ms, s, m, h or d, or a bare
 * number in the option's own unit. */
static gboolean
parse_duration (const gchar *text, gint64 bare_unit_ms, gint64 *out)
{
  static const struct
  {
    const gchar *suffix;
    gint64 ms;
  } units[] = { { "ms", 1 }, { "s", 1000 }, { "m", 60000 }, { "h", 3600000 }, { "d", 86400000 } };
  gchar *end;
  errno = 0;
  /* a fraction is allowed, as follow-freq(0.1) writes it */
  gdouble v = g_ascii_strtod (text, &end);
  if (end == text || errno || v < 0 || !g_ascii_isdigit (*text))
    return FALSE;
  gint64 unit = *end ? 0 : bare_unit_ms;
  for (guint i = 0; !unit && i < G_N_ELEMENTS (units); i++)
    if (g_ascii_strcasecmp (end, units[i].suffix) == 0)
      unit = units[i].ms;
  if (!unit || v * unit > (gdouble) G_MAXINT64 / 2)
    return FALSE;
  *out = (gint64) (v * unit + 0.5);
  return TRUE;
}

static gboolean
parse_bool (const gchar *text, gint64 *out)
{
  static const gchar *const yes[] = { "yes", "on", "true", "1" };
  static const gchar *const no[] = { "no", "off", "false", "0" };
  for (guint i = 0; i < G_N_ELEMENTS (yes); i++)
    {
      if (g_ascii_strcasecmp (text, yes[i]) == 0)
        return *out = 1, TRUE;
      if (g_ascii_strcasecmp (text, no[i]) == 0)
        return *out = 0, TRUE;
    }
  return FALSE;
}

/* Words are matched as syslog-ng matches them: case aside, '-' and '_' alike. */
static gboolean
word_equal (const gchar *a, const gchar *b)
{
  for (; *a && *b; a++, b++)
    if (g_ascii_tolower (*a) != g_ascii_tolower (*b) && !((*a == '-' || *a == '_') && (*b == '-' || *b == '_')))
      return FALSE;
  return *a == *b;
}

static const SlOptionWord *
find_word (const SlOptionSpec *spec, const gchar *word)
{
  for (const SlOptionWord *w = spec->words; w && w->word; w++)
    if (word_equal (w->word, word))
      return w;
  return NULL;
}

static gboolean
set_unknown_word_error (GError **error, const SlOptionSpec *spec, const SlCfgArg *a)
{
  gchar *words = sl_option_words (spec);
  if (spec->type == SL_OPT_FLAGS)
    sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, a->pos,
                      _("unknown flag '%s' in %s(); expected any of: %s"), a->value, spec->name, words);
  else
    sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, a->pos,
                      _("'%s' is not a value of %s(); expected one of: %s"), a->value, spec->name, words);
  g_free (words);
  return FALSE;
}

static void
pair_free (gpointer data)
{
  SlOptionPair *pair = data;

  g_free (pair->key);
  g_free (pair->value);
  g_free (pair);
}

static gboolean
parse_pairs (Entry *e, const gchar *owner, GPtrArray *args, GError **error)
{
  e->list = g_ptr_array_new_with_free_func (pair_free);
  for (guint i = 0; args && i < args->len; i++)
    {
      SlCfgArg *a = g_ptr_array_index (args, i);
      if (!a->key)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_TYPE, a->pos,
                            _("option '%s' of %s takes \"key\" => value pairs, got '%s' without a key"),
                            e->spec->name, owner, a->value);
          return FALSE;
        }
      if (a->kind == SL_CFG_ARG_TEMPLATE)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_TYPE, a->pos,
                            _("option '%s' of %s takes no LogTemplate() values; python()'s options() does"),
                            e->spec->name, owner);
          return FALSE;
        }
      SlOptionPair *pair = g_new0 (SlOptionPair, 1);
      pair->key = g_strdup (a->key);
      pair->value = g_strdup (a->value);
      g_ptr_array_add (e->list, pair);
    }
  return TRUE;
}

static gboolean
parse_words (Entry *e, GPtrArray *args, GError **error)
{
  const SlOptionSpec *spec = e->spec;
  e->list = g_ptr_array_new_with_free_func (g_free);
  e->num = 0;
  for (guint i = 0; args && i < args->len; i++)
    {
      SlCfgArg *a = g_ptr_array_index (args, i);
      if (spec->type == SL_OPT_FLAGS)
        {
          const SlOptionWord *w = find_word (spec, a->value);
          if (!w)
            return set_unknown_word_error (error, spec, a);
          e->num |= (guint32) w->value;
        }
      g_ptr_array_add (e->list, g_strdup (a->value));
    }
  return TRUE;
}

/* A port is a number in the entry's range or a service name that the
 * system knows, as getaddrinfo() takes it; a number that does not fit
 * would otherwise wrap to another port when the socket is opened. */
static gboolean
parse_port (const SlOptionSpec *spec, const gchar *owner, const SlCfgArg *a, GError **error)
{
  gint64 v;
  if (g_ascii_isdigit (*a->value))
    {
      if (parse_int (a->value, &v))
        return check_range (spec, owner, a, v, error);
    }
  else if (*a->value && getservbyname (a->value, NULL))
    return TRUE;
  gchar *range = range_text (spec);
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, a->pos,
                    _("option '%s' of %s expects a port number (%s) or a service name of /etc/services, got '%s'"),
                    spec->name, owner, range, a->value);
  g_free (range);
  return FALSE;
}

/* A single value of a scalar type: what it means, or a clear error. */
static gboolean
parse_scalar (Entry *e, const gchar *owner, SlCfgArg *a, GError **error)
{
  const SlOptionSpec *spec = e->spec;
  e->str = g_strdup (a->value);
  switch (spec->type)
    {
    case SL_OPT_INT:
      if (!parse_int (a->value, &e->num) || e->num > G_MAXINT || e->num < G_MININT)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_TYPE, a->pos,
                            _("option '%s' of %s expects a number, got '%s'"), spec->name, owner, a->value);
          return FALSE;
        }
      return check_range (spec, owner, a, e->num, error);
    case SL_OPT_PORT:
      return parse_port (spec, owner, a, error);
    case SL_OPT_SIZE:
      if (!parse_int (a->value, &e->num) || e->num < 0)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_TYPE, a->pos,
                            _("option '%s' of %s expects a size such as 4096, 64k, 10M or 1GiB, got '%s'"),
                            spec->name, owner, a->value);
          return FALSE;
        }
      return check_range (spec, owner, a, e->num, error);
    case SL_OPT_DURATION:
    case SL_OPT_DURATION_MS:
      if (!parse_duration (a->value, spec->type == SL_OPT_DURATION ? 1000 : 1, &e->num))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_TYPE, a->pos,
                            _("option '%s' of %s expects a duration such as %s, 500ms, 30s or 5m, got '%s'"),
                            spec->name, owner, spec->type == SL_OPT_DURATION ? "60 (seconds)" : "1000 (milliseconds)",
                            a->value);
          return FALSE;
        }
      return check_range (spec, owner, a, e->num, error);
    case SL_OPT_BOOL:
      if (!parse_bool (a->value, &e->num))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_TYPE, a->pos,
                            _("option '%s' of %s expects yes or no, got '%s'"), spec->name, owner, a->value);
          return FALSE;
        }
      return TRUE;
    case SL_OPT_CHOICE:
      {
        const SlOptionWord *w = find_word (spec, a->value);
        if (!w)
          return set_unknown_word_error (error, spec, a);
        e->num = w->value;
        return TRUE;
      }
    default:
      return TRUE;
    }
}

/* Converts the written values into the entry; args are the arguments of
 * the option node (or the positional ones). */
static gboolean
entry_parse (Entry *e, const gchar *owner, GPtrArray *args, SlCfgPos pos, GError **error)
{
  const SlOptionSpec *spec = e->spec;
  guint n = args ? args->len : 0;
  e->has_value = TRUE;

  if (spec->type == SL_OPT_PAIRS)
    return parse_pairs (e, owner, args, error);
  /* a block's driver reads its arguments itself, pairs and all */
  if (spec->type == SL_OPT_BLOCK)
    return TRUE;
  for (guint i = 0; i < n; i++)
    {
      SlCfgArg *a = g_ptr_array_index (args, i);
      if (a->key)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_TYPE, a->pos,
                            _("option '%s' of %s takes no \"key\" => value pairs"), spec->name, owner);
          return FALSE;
        }
    }

  switch (spec->type)
    {
    case SL_OPT_FILTER:
      return TRUE;
    case SL_OPT_LIST:
    case SL_OPT_FLAGS:
      return parse_words (e, args, error);
    default:
      break;
    }
  if (n != 1)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_TYPE, pos,
                        _("option '%s' of %s takes one value, got %u"), spec->name, owner, n);
      return FALSE;
    }
  return parse_scalar (e, owner, g_ptr_array_index (args, 0), error);
}

/* Parses a default as it is written in a table: a list's words are
 * separated by commas. */
static gboolean
entry_parse_text (Entry *e, const gchar *owner, const gchar *def, GError **error)
{
  SlCfgPos pos = { NULL, 0, 0 };
  GPtrArray *args = g_ptr_array_new_with_free_func (g_free);
  gboolean many = e->spec->type == SL_OPT_LIST || e->spec->type == SL_OPT_FLAGS;
  gchar **words = many ? g_strsplit (def, ",", -1) : g_strdupv ((gchar *[]) { (gchar *) def, NULL });
  for (guint i = 0; words[i]; i++)
    {
      const gchar *word = many ? g_strstrip (words[i]) : words[i];
      if (many && !*word)
        continue;
      SlCfgArg *a = g_new0 (SlCfgArg, 1);
      a->kind = SL_CFG_ARG_STRING;
      a->value = (gchar *) word;
      a->pos = pos;
      g_ptr_array_add (args, a);
    }
  gboolean ok = entry_parse (e, owner, args, pos, error);
  g_ptr_array_unref (args);
  g_strfreev (words);
  return ok;
}

/* Defaults were checked when their class registered
 * (sl_option_spec_problem()), so one that fails here is a core table's
 * mistake that its tests catch. */
static void
entry_parse_default (Entry *e, const gchar *owner, const gchar *def)
{
  if (def && !entry_parse_text (e, owner, def, NULL))
    g_critical ("%s: the default '%s' of option '%s' does not parse", owner, def, e->spec->name);
}

static gsize field_size (SlOptionType type);

gchar *
sl_option_spec_problem (const gchar *owner, const SlOptionSpec *spec, const gchar *def, gsize struct_size)
{
  if ((guint) spec->type >= SL_OPT_TYPE_COUNT)
    return g_strdup_printf (_("option %s() has type %d, which this sluiced does not know"), spec->name,
                            (gint) spec->type);
  if ((spec->type == SL_OPT_CHOICE || spec->type == SL_OPT_FLAGS) && !(spec->words && spec->words->word))
    return g_strdup_printf (_("option %s() is a %s without words"), spec->name, sl_option_type_name (spec->type));
  if (spec->range.set && !has_range (spec->type))
    return g_strdup_printf (_("option %s() is a %s and cannot have a range"), spec->name,
                            sl_option_type_name (spec->type));
  if (spec->range.set && spec->range.min > spec->range.max)
    return g_strdup_printf (_("option %s() has a range whose least value is above its greatest"), spec->name);
  if ((spec->flags & SL_OPT_REQUIRED) && def)
    return g_strdup_printf (_("option %s() is required and has a default"), spec->name);
  if (struct_size && spec->offset != SL_OPT_NO_FIELD
      && (spec->offset < 0 || (gsize) spec->offset + field_size (spec->type) > struct_size))
    return g_strdup_printf (_("option %s() is stored at offset %" G_GSSIZE_FORMAT
                              ", beyond the driver's instance_size of %" G_GSIZE_FORMAT " bytes"),
                            spec->name, spec->offset, struct_size);
  if (!def)
    return NULL;
  Entry e = { .spec = spec };
  GError *error = NULL;
  gchar *problem = NULL;
  if (!entry_parse_text (&e, owner, def, &error))
    {
      problem = g_strdup_printf (_("the default '%s' of option %s() is wrong: %s"), def, spec->name, error->message);
      g_error_free (error);
    }
  g_free (e.str);
  if (e.list)
    g_ptr_array_unref (e.list);
  return problem;
}

static Entry *
entry_new (GHashTable *entries, const SlOptionSpec *spec)
{
  Entry *e = g_new0 (Entry, 1);
  e->spec = spec;
  g_hash_table_replace (entries, sl_cfg_name_normalize (spec->name), e);
  return e;
}

static void
notice_deprecated (const Entry *e, const gchar *owner)
{
  if (!(e->spec->flags & SL_OPT_DEPRECATED))
    return;
  if (e->spec->offset == SL_OPT_NO_FIELD)
    sl_log (SL_LOG_NOTICE, _("%s:%d:%d: option '%s' of %s is accepted for compatibility and has no effect"),
            e->pos.file, e->pos.line, e->pos.column, e->spec->name, owner);
  else
    sl_log (SL_LOG_NOTICE, _("%s:%d:%d: option '%s' of %s is deprecated: %s"),
            e->pos.file, e->pos.line, e->pos.column, e->spec->name, owner, e->spec->help);
}

/* syslog-ng's type hint of a template, int("$PID") or list("a,b"): a node
 * with one value and nothing else. Whether its name is a type, the
 * compiler says. */
static gboolean
is_type_hint (const SlCfgNode *node)
{
  return node->args && node->args->len == 1 && !(node->children && node->children->len) && !node->has_body
         && !((const SlCfgArg *) g_ptr_array_index (node->args, 0))->key;
}

static void
take_number_hint (Entry *e, const SlCfgArg *a)
{
  if (e->spec->type != SL_OPT_TEMPLATE)
    return;
  gchar *decimal = NULL;
  const gchar *hint = sl_cfg_arg_number_hint (a, &decimal);
  if (!hint)
    return;
  if (decimal)
    {
      g_free (e->str);
      e->str = decimal;
    }
  e->hint = hint;
}

/* The entry of a template option written with a type hint, int("$PID"). */
static gboolean
entry_parse_hinted (Entry *e, const gchar *owner, const SlCfgNode *hint, GError **error)
{
  e->hint = hint->name;
  if (e->args)
    g_ptr_array_unref (e->args);
  e->args = g_ptr_array_ref (hint->args);
  return entry_parse (e, owner, hint->args, hint->pos, error);
}

static gboolean
check_node (const gchar *owner, const SlOptionSpec *const *tables, const SlCfgNode *node,
            GHashTable *entries, GError **error)
{
  const SlOptionSpec *positional = NULL;
  for (const SlOptionSpec *const *t = tables; t && *t && !positional; t++)
    for (const SlOptionSpec *s = *t; s->name && !positional; s++)
      if (s->flags & SL_OPT_POSITIONAL)
        positional = s;
  guint order = 0;

  if (node->args && node->args->len)
    {
      if (!positional)
        {
          SlCfgArg *a = g_ptr_array_index (node->args, 0);
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, a->pos,
                            _("%s takes no bare value; '%s' needs an option name, like name(value)"),
                            owner, a->value);
          return FALSE;
        }
      if (positional->type != SL_OPT_LIST && positional->type != SL_OPT_FLAGS && node->args->len > 1)
        {
          SlCfgArg *a = g_ptr_array_index (node->args, 1);
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, a->pos,
                            _("%s takes one bare value, '%s' is one too many"), owner, a->value);
          return FALSE;
        }
      Entry *e = entry_new (entries, positional);
      e->node = node;
      e->set = TRUE;
      e->order = order++;
      e->pos = ((SlCfgArg *) g_ptr_array_index (node->args, 0))->pos;
      e->args = g_ptr_array_ref (node->args);
      if (!entry_parse (e, owner, node->args, e->pos, error))
        return FALSE;
      take_number_hint (e, g_ptr_array_index (node->args, 0));
    }

  for (guint i = 0; node->children && i < node->children->len; i++)
    {
      const SlCfgNode *child = g_ptr_array_index (node->children, i);
      const SlOptionSpec *spec = sl_options_find (tables, child->name);
      if (!spec && positional && positional->type == SL_OPT_TEMPLATE && is_type_hint (child)
          && !(node->args && node->args->len))
        {
          /* set(int("42") value("n")): the bare template, with a type */
          Entry *e = entry_new (entries, positional);
          e->node = node;
          e->set = TRUE;
          e->order = order++;
          e->pos = child->pos;
          if (!entry_parse_hinted (e, owner, child, error))
            return FALSE;
          continue;
        }
      if (!spec)
        {
          set_unknown_option_error (error, owner, tables, child);
          return FALSE;
        }
      gboolean nested = child->children && child->children->len;
      if (spec->type == SL_OPT_FILTER && (!nested || child->children->len != 1 || (child->args && child->args->len)))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, child->pos,
                            _("%s() takes one filter expression, as in %s(program(\"sshd\"))"),
                            spec->name, spec->name);
          return FALSE;
        }
      if (spec->type == SL_OPT_TEMPLATE && nested && child->children->len == 1 && !(child->args && child->args->len)
          && is_type_hint (g_ptr_array_index (child->children, 0)))
        {
          /* template(int("$PID")) */
          Entry *e = entry_new (entries, spec);
          e->node = child;
          e->pos = child->pos;
          e->set = TRUE;
          e->order = order++;
          if (!entry_parse_hinted (e, owner, g_ptr_array_index (child->children, 0), error))
            return FALSE;
          continue;
        }
      if (spec->type != SL_OPT_BLOCK && spec->type != SL_OPT_FILTER && nested)
        {
          const SlCfgNode *inner = g_ptr_array_index (child->children, 0);
          sl_cfg_error_set (error, SL_CFG_ERROR_TYPE, inner->pos,
                            _("option '%s' of %s takes a value, not '%s(...)'"),
                            spec->name, owner, inner->name);
          return FALSE;
        }
      Entry *e = entry_new (entries, spec);
      e->node = child;
      e->pos = child->pos;
      e->set = TRUE;
      e->order = order++;
      e->args = child->args ? g_ptr_array_ref (child->args) : NULL;
      if (!entry_parse (e, owner, child->args, child->pos, error))
        return FALSE;
      if (child->args && child->args->len == 1)
        take_number_hint (e, g_ptr_array_index (child->args, 0));
      notice_deprecated (e, owner);
    }
  return TRUE;
}

gboolean
sl_options_check (const gchar *owner, const SlOptionSpec *const *tables, const SlCfgNode *node,
                  GError **error)
{
  GHashTable *entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, entry_free);
  gboolean ok = check_node (owner, tables, node, entries, error);
  g_hash_table_unref (entries);
  return ok;
}

/* Other names syslog-ng's options {} gives a global option: there
 * time-zone() is its template options' time-zone(), send-time-zone(). */
static const gchar *const global_aliases[][2] = {
  { "time-zone", "send-time-zone" },
};

const gchar *
sl_options_global_name (const gchar *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (global_aliases); i++)
    if (sl_cfg_name_equal (name, global_aliases[i][0]))
      return global_aliases[i][1];
  return name;
}

/* The entry of options {} that sets name: as in syslog-ng, where each one
 * assigns, the last of the option and its other names. */
static const SlCfgNode *
global_entry (const SlCfgNode *globals, const gchar *name)
{
  const SlCfgNode *found = NULL;
  for (guint i = 0; globals->children && i < globals->children->len; i++)
    {
      const SlCfgNode *child = g_ptr_array_index (globals->children, i);
      if (sl_cfg_name_equal (sl_options_global_name (child->name), name))
        found = child;
    }
  return found;
}

static const gchar *
default_of (const SlOptionSpec *spec, const gchar *const *defaults)
{
  for (const gchar *const *d = defaults; d && d[0]; d += 2)
    if (sl_cfg_name_equal (d[0], spec->name))
      return d[1];
  return spec->def;
}

/* Whether the field of spec got a value, under its own name or another
 * one bound to the same field (localport() for port()). */
static gboolean
field_has_value (const SlOptions *o, const SlOptionSpec *table, const SlOptionSpec *spec)
{
  for (const SlOptionSpec *s = table; s->name; s++)
    if (s == spec || (spec->offset != SL_OPT_NO_FIELD && s->offset == spec->offset))
      {
        gchar *key = sl_cfg_name_normalize (s->name);
        const Entry *e = g_hash_table_lookup (o->entries, key);
        g_free (key);
        if (e && e->spec == s && e->has_value)
          return TRUE;
      }
  return FALSE;
}

static gboolean
check_required (const SlOptions *o, const SlOptionSpec *const *tables, GError **error)
{
  for (const SlOptionSpec *const *t = tables; t && *t; t++)
    for (const SlOptionSpec *s = *t; s->name; s++)
      if ((s->flags & SL_OPT_REQUIRED) && !field_has_value (o, *t, s))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, o->node->pos, _("%s needs option %s(): %s"),
                            o->owner, s->name, s->help ? s->help : "");
          return FALSE;
        }
  return TRUE;
}

SlOptions *
sl_options_new (const gchar *owner, const SlOptionSpec *const *tables, const gchar *const *defaults,
                const SlCfgNode *node, const SlCfgNode *globals, GError **error)
{
  SlOptions *o = g_new0 (SlOptions, 1);
  o->owner = g_strdup (owner);
  o->node = node;
  o->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, entry_free);

  if (!check_node (owner, tables, node, o->entries, error))
    {
      sl_options_free (o);
      return NULL;
    }
  for (const SlOptionSpec *const *t = tables; t && *t; t++)
    for (const SlOptionSpec *s = *t; s->name; s++)
      {
        gchar *key = sl_cfg_name_normalize (s->name);
        gboolean written = g_hash_table_contains (o->entries, key);
        g_free (key);
        if (written)
          continue;
        Entry *e = entry_new (o->entries, s);
        /* An option the driver leaves out takes the value of its entry in
         * options {}, as in syslog-ng, where the kind inherits it. */
        const SlCfgNode *global = globals && s->inherit ? global_entry (globals, s->inherit) : NULL;
        if (global)
          {
            e->node = global;
            e->pos = global->pos;
            e->args = global->args ? g_ptr_array_ref (global->args) : NULL;
            if (!entry_parse (e, "options", global->args, global->pos, error))
              {
                sl_options_free (o);
                return NULL;
              }
          }
        else
          entry_parse_default (e, owner, default_of (s, defaults));
      }
  if (!check_required (o, tables, error))
    {
      sl_options_free (o);
      return NULL;
    }
  return o;
}

void
sl_options_free (SlOptions *o)
{
  if (!o)
    return;
  g_hash_table_unref (o->entries);
  g_free (o->owner);
  g_free (o);
}

static Entry *
lookup (const SlOptions *o, const gchar *name)
{
  gchar *key = sl_cfg_name_normalize (name);
  Entry *e = g_hash_table_lookup (o->entries, key);
  g_free (key);
  if (!e)
    g_critical ("%s: option '%s' is not in its table", o->owner, name);
  return e;
}

static gboolean
compile_value (Entry *e, const SlOptionsCompiler *compiler, GError **error)
{
  if (e->compiled || !compiler)
    return TRUE;
  if (e->spec->type == SL_OPT_TEMPLATE && e->str && compiler->template_new)
    {
      /* the text's own position, so that an error can point into it */
      SlCfgPos at = e->args && e->args->len ? ((const SlCfgArg *) g_ptr_array_index (e->args, 0))->pos : e->pos;
      e->compiled = compiler->template_new (compiler->user_data, e->str, e->hint, at, error);
      e->compiled_free = compiler->template_free;
      return e->compiled != NULL;
    }
  if (e->spec->type == SL_OPT_FILTER && e->node && compiler->filter_new)
    {
      e->compiled = compiler->filter_new (compiler->user_data, e->node, error);
      e->compiled_free = compiler->filter_free;
      return e->compiled != NULL;
    }
  return TRUE;
}

static void
store (const Entry *e, gpointer base)
{
  gpointer field = (guint8 *) base + e->spec->offset;
  switch (e->spec->type)
    {
    case SL_OPT_STRING:
    case SL_OPT_PORT:
      *(const gchar **) field = e->str;
      break;
    case SL_OPT_INT:
    case SL_OPT_CHOICE:
      *(gint *) field = (gint) e->num;
      break;
    case SL_OPT_BOOL:
      *(gboolean *) field = e->num != 0;
      break;
    case SL_OPT_SIZE:
    case SL_OPT_DURATION:
    case SL_OPT_DURATION_MS:
      *(gint64 *) field = e->num;
      break;
    case SL_OPT_FLAGS:
      *(guint32 *) field = (guint32) e->num;
      break;
    case SL_OPT_LIST:
    case SL_OPT_PAIRS:
      *(GPtrArray **) field = e->list;
      break;
    case SL_OPT_BLOCK:
      *(const SlCfgNode **) field = e->node;
      break;
    case SL_OPT_TEMPLATE:
    case SL_OPT_FILTER:
      *(gpointer *) field = e->compiled;
      break;
    default:
      g_assert_not_reached ();
    }
}

/* The size of the field a type binds, for clearing it. */
static gsize
field_size (SlOptionType type)
{
  switch (type)
    {
    case SL_OPT_INT:
    case SL_OPT_CHOICE:
    case SL_OPT_BOOL:
      return sizeof (gint);
    case SL_OPT_SIZE:
    case SL_OPT_DURATION:
    case SL_OPT_DURATION_MS:
      return sizeof (gint64);
    case SL_OPT_FLAGS:
      return sizeof (guint32);
    default:
      return sizeof (gpointer);
    }
}

/* The value of a field whose option has none: NULL, 0, FALSE. */
static void
store_nothing (const SlOptionSpec *spec, gpointer base)
{
  memset ((guint8 *) base + spec->offset, 0, field_size (spec->type));
}

static gint
compare_order (gconstpointer a, gconstpointer b)
{
  const Entry *x = *(Entry *const *) a, *y = *(Entry *const *) b;
  return (gint) x->order - (gint) y->order;
}

gboolean
sl_options_bind (SlOptions *o, const SlOptionSpec *table, gpointer base,
                 const SlOptionsCompiler *compiler, GError **error)
{
  /* Fields of options without a value first, then defaults and inherited
   * values, then what was written in the order it was written: of two
   * names for one field (localip() and ip()), the one the user wrote wins
   * over the other's default, and neither is left as it was before. */
  for (const SlOptionSpec *s = table; s->name; s++)
    if (s->offset != SL_OPT_NO_FIELD)
      store_nothing (s, base);
  GPtrArray *written = g_ptr_array_new ();
  for (const SlOptionSpec *s = table; s->name; s++)
    {
      if (s->offset == SL_OPT_NO_FIELD)
        continue;
      Entry *e = lookup (o, s->name);
      if (!e || e->spec != s || !e->has_value)
        continue;
      if (e->set)
        {
          g_ptr_array_add (written, e);
          continue;
        }
      if (!compile_value (e, compiler, error))
        {
          g_ptr_array_unref (written);
          return FALSE;
        }
      store (e, base);
    }
  g_ptr_array_sort (written, compare_order);
  for (guint i = 0; i < written->len; i++)
    {
      Entry *e = g_ptr_array_index (written, i);
      if (!compile_value (e, compiler, error))
        {
          g_ptr_array_unref (written);
          return FALSE;
        }
      store (e, base);
    }
  g_ptr_array_unref (written);
  return TRUE;
}

const SlCfgNode *
sl_options_node (const SlOptions *o)
{
  return o->node;
}

gboolean
sl_options_is_set (const SlOptions *o, const gchar *name)
{
  const Entry *e = lookup (o, name);
  return e && e->node;
}

SlCfgPos
sl_options_pos (const SlOptions *o, const gchar *name)
{
  const Entry *e = lookup (o, name);
  if (e && e->node)
    return e->pos;
  return o->node ? o->node->pos : (SlCfgPos) { "", 0, 0 };
}
