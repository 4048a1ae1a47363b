/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Value-pairs: syslog-ng's selection of a message's name-value pairs
 * (scopes, keys and excludes, pairs of templates, rekeying), compiled once
 * from its options and walked per message. Each pair selected goes to a
 * callback with the name it has after rekeying, its value and the type its
 * type hint gives it, in the order syslog-ng's walk gives them; nothing is
 * rendered in between. $(format-json) and its kin write the pairs; amqp(),
 * stomp() and riemann() send them as headers or attributes. */
#ifndef SL_VALUE_PAIRS_H
#define SL_VALUE_PAIRS_H

#include "core/config/tree.h"
#include "core/message/template.h"

G_BEGIN_DECLS

/* The order of a walk: syslog-ng's value_pairs_walk() (format-json) gives
 * names in descending byte order, value_pairs_foreach() (its destinations,
 * format-cef-extension) in ascending. */
typedef enum
{
  SL_VALUE_PAIRS_DESCENDING,
  SL_VALUE_PAIRS_ASCENDING,
} SlValuePairsOrder;

typedef enum
{
  /* A name's leading dot made '_' (.SDATA.a is _SDATA.a), as format-json
   * and graphite-output do. */
  SL_VALUE_PAIRS_DOT_UNDERSCORE = 1 << 0,
  /* format-json's own options taken too: --leave-initial-dot, and
   * --key-delimiter, which keeps the dot unless it is '.'. */
  SL_VALUE_PAIRS_JSON_OPTIONS = 1 << 1,
  /* In a block, NAME(VALUE) is pair(NAME VALUE) (riemann()'s attributes()). */
  SL_VALUE_PAIRS_NAMED_PAIRS = 1 << 2,
} SlValuePairsFlags;

/* An option of the caller's own, taken among value-pairs' options. */
typedef struct
{
  const gchar *name;    /* long, without "--" */
  gchar short_name;     /* 0: none */
  gboolean takes_value;
} SlValuePairsOption;

/* name: the long name of one of the caller's options, value NULL when it
 * takes none; FALSE with error set refuses it. */
typedef gboolean (*SlValuePairsOptionFunc) (const gchar *name, const gchar *value, gpointer user_data,
                                            GError **error);

typedef struct _SlValuePairs SlValuePairs;

/* From syslog-ng's command line of value-pairs, as $(format-json) takes
 * it: --scope, --key, --exclude, --pair and NAME=VALUE (type hints: NAME=
 * int(...)), --rekey with --shift, --shift-levels, --add-prefix and
 * --replace-prefix, --subkeys, --omit-empty-values, --cast, --no-cast and
 * --auto-cast; a word that is no option is a key. owner names the caller
 * in errors ("$(format-json)"). extra (ended by a NULL name) are the
 * caller's options, handed to func as they are met. */
SlValuePairs *sl_value_pairs_new (gint argc, const gchar *const *argv, const gchar *owner, SlValuePairsFlags flags,
                                  const SlValuePairsOption *extra, SlValuePairsOptionFunc func, gpointer user_data,
                                  GError **error);
/* From a value-pairs() block of a driver: scope(), key(), exclude(),
 * pair("n" "v"), pair("n" int("v")) (a type hint, or a bare number: 42, 1.5)
 * or pair("n" => "v"), rekey("glob" add-prefix() replace-prefix()
 * shift() shift-levels()), omit-empty-values(); NULL block: syslog-ng's
 * default, scope(selected-macros nv-pairs sdata). more: arguments of the
 * command line form added after the block's (riemann()'s excludes), or
 * NULL. Errors carry the position of the option at fault and start with
 * owner ("amqp() value-pairs()"). */
SlValuePairs *sl_value_pairs_new_from_block (const SlCfgNode *block, SlCfgPos driver_pos, const gchar *owner,
                                             SlValuePairsFlags flags, const gchar *const *more, GError **error);
void          sl_value_pairs_free (SlValuePairs *vp);

/* --key-delimiter's character ('.' unless given): where format-json nests. */
gchar         sl_value_pairs_key_delimiter (const SlValuePairs *vp);

/* One pair: name is NUL-terminated, value is len bytes (not terminated);
 * both stay valid until the walk returns. FALSE ends the walk. */
typedef gboolean (*SlValuePairFunc) (const gchar *name, SlValueType type, const gchar *value, gsize len,
                                     gpointer user_data);

/* Calls func for each pair of msg that vp selects, once per name (a pair()
 * before a field, a field before a macro of the same name), in order;
 * FALSE when func ended the walk. Reentrant: a pair's template may call a
 * template function that walks again. */
gboolean      sl_value_pairs_foreach (SlValuePairs *vp, const SlMessage *msg, const SlTemplateEnv *env,
                                      SlValuePairsOrder order, SlValuePairFunc func, gpointer user_data);

G_END_DECLS

#endif
