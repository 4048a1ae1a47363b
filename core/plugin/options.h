/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Driver options declared as data. Each entry of a table names an option,
 * its type, its default (written as a user would write it), a line of help,
 * and the field of the driver's own struct that its value is stored in.
 * The generic parser checks a driver's block against its tables, fills the
 * struct, and --help-driver and the reference read the same tables, so a
 * default is written once and a misspelt option is a compile-time error. */
#ifndef SL_OPTIONS_H
#define SL_OPTIONS_H

#include <glib.h>
#include <stddef.h>
#include "core/config/tree.h"

G_BEGIN_DECLS

typedef enum
{
  SL_OPT_STRING,      /* const gchar *, owned by the options */
  SL_OPT_INT,         /* gint: decimal, 0x hex, 0 octal, k/M/G suffixes */
  SL_OPT_BOOL,        /* gboolean: yes/no, on/off, true/false, 1/0 */
  SL_OPT_SIZE,        /* gint64 bytes: 512, 64k, 10M, 1GiB (powers of 1024) */
  SL_OPT_DURATION,    /* gint64 ms: 500ms, 30s, 1m, 0.5s, 2h; a bare number is seconds */
  SL_OPT_DURATION_MS, /* gint64 ms, the same, but a bare number is milliseconds */
  SL_OPT_TEMPLATE,    /* SlTemplate *: template text or a template object's name */
  SL_OPT_FILTER,      /* SlFilterExpr *: one filter expression, as condition() takes */
  SL_OPT_FLAGS,       /* guint32: the values of the words given, or'ed */
  SL_OPT_CHOICE,      /* gint: the value of the one word given */
  SL_OPT_LIST,        /* GPtrArray * of gchar *, owned by the options */
  SL_OPT_BLOCK,       /* const SlCfgNode *: nested options read by the driver */
  SL_OPT_PAIRS,       /* GPtrArray * of SlOptionPair *, owned by the options:
                       * config("acks" => "all" "linger.ms" => 5) */
  SL_OPT_PORT,        /* const gchar *: a port number (1-65535 unless the range
                       * says otherwise) or a service name of /etc/services */
  SL_OPT_TYPE_COUNT
} SlOptionType;

/* The words of a FLAGS or CHOICE option and what each stands for;
 * terminated by an entry whose word is NULL. */
typedef struct
{
  const gchar *word;
  gint value;
} SlOptionWord;

enum
{
  SL_OPT_POSITIONAL = 1 << 0,   /* the driver's first bare argument sets it */
  /* accepted with a notice: that it does nothing, or, bound to the field of
   * another option, that it is an old name (the help says which) */
  SL_OPT_DEPRECATED = 1 << 1,
  /* the driver cannot do without it: leaving it out (and out of options {})
   * is an error at the driver's position */
  SL_OPT_REQUIRED = 1 << 2,
};

/* The values an INT, SIZE, DURATION or PORT entry may take, in the unit
 * it is stored in (bytes, milliseconds); checked where the value is
 * written. Without one, an INT takes any gint, a SIZE or a duration any
 * value from 0, a PORT 1 to 65535. */
typedef struct
{
  gboolean set;
  gint64 min;
  gint64 max;
} SlOptionRange;

#define SL_RANGE(lo, hi)  .range = { TRUE, (lo), (hi) }
/* a count or a limit where 0 means none */
#define SL_RANGE_NON_NEGATIVE SL_RANGE (0, G_MAXINT)
/* a count that must be at least one */
#define SL_RANGE_POSITIVE     SL_RANGE (1, G_MAXINT)
/* a file mode */
#define SL_RANGE_MODE         SL_RANGE (0, 07777)

#define SL_OPT_NO_FIELD ((gssize) -1)

/* One `key => value` of a PAIRS option, in the order written. */
typedef struct
{
  gchar *key;
  gchar *value;
} SlOptionPair;

typedef struct _SlOptionSpec SlOptionSpec;
struct _SlOptionSpec
{
  const gchar *name;          /* canonical spelling with '-' */
  SlOptionType type;
  gssize offset;              /* of the field in the bound struct, or SL_OPT_NO_FIELD */
  const gchar *def;           /* default as it would be written, or NULL */
  const gchar *help;          /* one line */
  const SlOptionWord *words;  /* FLAGS and CHOICE */
  guint flags;                /* SL_OPT_POSITIONAL, SL_OPT_DEPRECATED, SL_OPT_REQUIRED */
  /* the options {} entry an unset value comes from, or NULL when this
   * option is not inherited */
  const gchar *inherit;
  SlOptionRange range;        /* SL_RANGE (min, max), for numbers */
};

/* The type and the field of an entry, checked at compile time against the
 * field's C type:
 *   { "listen-backlog", SL_INT (NetSource, backlog), "256", "help", SL_RANGE (1, 65535) }.
 * The struct and the member may come from one macro of the caller's. */
#define SL_OPT_FIELD_(T, member, ctype) \
  (offsetof (T, member) \
   + 0 * sizeof (char[__builtin_types_compatible_p (__typeof__ (((T *) 0)->member), ctype) ? 1 : -1]))
#define SL_OPT_BIND_(kind, ctype, T, member) .type = (kind), .offset = SL_OPT_FIELD_ (T, member, ctype)

#define SL_STRING(...)      SL_OPT_BIND_ (SL_OPT_STRING, const gchar *, __VA_ARGS__)
#define SL_INT(...)         SL_OPT_BIND_ (SL_OPT_INT, gint, __VA_ARGS__)
#define SL_BOOL(...)        SL_OPT_BIND_ (SL_OPT_BOOL, gboolean, __VA_ARGS__)
#define SL_SIZE(...)        SL_OPT_BIND_ (SL_OPT_SIZE, gint64, __VA_ARGS__)
#define SL_DURATION(...)    SL_OPT_BIND_ (SL_OPT_DURATION, gint64, __VA_ARGS__)
#define SL_DURATION_MS(...) SL_OPT_BIND_ (SL_OPT_DURATION_MS, gint64, __VA_ARGS__)
#define SL_TEMPLATE(...)    SL_OPT_BIND_ (SL_OPT_TEMPLATE, struct _SlTemplate *, __VA_ARGS__)
#define SL_FILTER(...)      SL_OPT_BIND_ (SL_OPT_FILTER, struct _SlFilterExpr *, __VA_ARGS__)
#define SL_FLAGS(...)       SL_OPT_BIND_ (SL_OPT_FLAGS, guint32, __VA_ARGS__)
#define SL_CHOICE(...)      SL_OPT_BIND_ (SL_OPT_CHOICE, gint, __VA_ARGS__)
#define SL_LIST(...)        SL_OPT_BIND_ (SL_OPT_LIST, GPtrArray *, __VA_ARGS__)
#define SL_BLOCK(...)       SL_OPT_BIND_ (SL_OPT_BLOCK, const SlCfgNode *, __VA_ARGS__)
#define SL_PAIRS(...)       SL_OPT_BIND_ (SL_OPT_PAIRS, GPtrArray *, __VA_ARGS__)
#define SL_PORT(...)        SL_OPT_BIND_ (SL_OPT_PORT, const gchar *, __VA_ARGS__)
/* An option accepted for compatibility whose value nothing reads. */
#define SL_UNBOUND(kind)     .type = (kind), .offset = SL_OPT_NO_FIELD

typedef struct _SlOptions SlOptions;

/* Checks node's arguments and children against the NULL-terminated list of
 * tables (an option may appear in only one of them; a name in an earlier
 * table hides the same name in a later one). defaults, when not NULL, are
 * overrides of the tables' defaults (name, value; NULL-terminated pairs).
 * An option not written takes the value of its inherit entry in globals
 * (the merged options {} block: its last entry of that name or of one of
 * its other names, sl_options_global_name()), then its default. */
SlOptions    *sl_options_new       (const gchar *owner, const SlOptionSpec *const *tables,
                                    const gchar *const *defaults,
                                    const SlCfgNode *node, const SlCfgNode *globals,
                                    GError **error);
void          sl_options_free      (SlOptions *o);
const SlCfgNode *sl_options_node   (const SlOptions *o);

/* Stores the values of table's options in the struct at base. Strings and
 * lists stay owned by o. Templates and filters are made by the callbacks
 * (a configuration resolves template objects and filter references) and
 * freed with o. */
typedef struct
{
  /* pos is where the text was written (its quote); hint the type hint
   * written with it (int("$PID") gives "int"), or NULL */
  gpointer (*template_new) (gpointer user_data, const gchar *text, const gchar *hint, SlCfgPos pos,
                            GError **error);
  void     (*template_free) (gpointer template);
  gpointer (*filter_new)   (gpointer user_data, const SlCfgNode *option, GError **error);
  void     (*filter_free)  (gpointer filter);
  gpointer user_data;
} SlOptionsCompiler;

gboolean      sl_options_bind      (SlOptions *o, const SlOptionSpec *table, gpointer base,
                                    const SlOptionsCompiler *compiler, GError **error);

/* The option of options {} that name stands for: name, or what syslog-ng
 * reads it as there (time-zone() is send-time-zone()). */
const gchar  *sl_options_global_name (const gchar *name);

/* Whether the option was written in the driver's block or in options {};
 * for drivers whose meaning depends on presence (an alias given, a default
 * that depends on another option). */
gboolean      sl_options_is_set    (const SlOptions *o, const gchar *name);
/* Where the option was written (the driver's position when it was not),
 * for errors found while checking values. */
SlCfgPos      sl_options_pos       (const SlOptions *o, const gchar *name);

/* The same checks for a block option's own children, or for options {}. */
gboolean      sl_options_check     (const gchar *owner, const SlOptionSpec *const *tables,
                                    const SlCfgNode *node, GError **error);
/* The entry of tables that name stands for, or NULL. */
const SlOptionSpec *sl_options_find (const SlOptionSpec *const *tables, const gchar *name);
/* What a type is called in help and errors: "number", "size", "yes|no" ... */
const gchar  *sl_option_type_name  (SlOptionType type);
/* The words of a FLAGS or CHOICE entry, joined by ", "; free with g_free. */
gchar        *sl_option_words      (const SlOptionSpec *spec);
/* What the option takes, for help and the reference: its words, or its
 * type with the unit of a bare number and its range ("number, 1 to
 * 65535", "duration (a bare number: seconds)"); free with g_free. */
gchar        *sl_option_value_text (const SlOptionSpec *spec);
/* A default as it would be written in the configuration: quoted, with
 * its escapes, when it holds a character a terminal would act on (the
 * newline that ends a template); free with g_free. */
gchar        *sl_option_default_text (const gchar *def);
/* Why spec is not a well-formed entry of owner's tables (a type it cannot
 * have, words missing, a range on a type without one or upside down, a
 * required option with a default, a field that lies beyond struct_size
 * when that is not 0, a default that does not parse or lies outside its
 * range), or NULL when it is; def is the default to check (the table's or
 * a class's override). Free with g_free. */
gchar        *sl_option_spec_problem (const gchar *owner, const SlOptionSpec *spec, const gchar *def,
                                      gsize struct_size);

G_END_DECLS

#endif
