/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The generic configuration tree: what the parser makes and every later
 * stage reads. Each node and argument knows where it was written. */
#ifndef SL_CFG_TREE_H
#define SL_CFG_TREE_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlCfgExpansion SlCfgExpansion;

typedef struct
{
  const gchar *file;   /* interned, lives as long as the process */
  gint line;           /* 1-based */
  gint column;         /* 1-based, in bytes */
  /* set when the text was written in a block's definition: the reference
   * that expanded it, so an error can name both places */
  const SlCfgExpansion *expansion;
} SlCfgPos;

/* One expansion of a block (or a confgen program's output): which block and
 * where it was referenced. Interned like file names, never freed. */
struct _SlCfgExpansion
{
  const gchar *block;  /* interned */
  SlCfgPos used_at;
};

typedef enum
{
  SL_CFG_ARG_WORD,     /* a bare word: yes, 514, info..warn, s_net */
  SL_CFG_ARG_STRING,   /* a quoted string, escapes already resolved */
  /* a pair's `LogTemplate("text")` (syslog-ng 4's python() options): the
   * value is the text, which the reader compiles as a template */
  SL_CFG_ARG_TEMPLATE,
} SlCfgArgKind;

typedef struct
{
  SlCfgArgKind kind;   /* of the value */
  gchar *value;
  SlCfgPos pos;
  /* the key of a `key => value` pair (config("acks" => "all")), else NULL */
  gchar *key;
} SlCfgArg;

/* A node is `name(args children)` or `name { children }`.
 *
 * Top level: nodes named "options", "source", "destination", "filter",
 * "parser", "rewrite", "template", "log"; an object's name (s_net) is its
 * first argument; for log paths that is absent. "@module" and "@requires"
 * keep a pragma's arguments; "application" has the arguments name, context
 * and its body as text; "python" has its code as text. Blocks leave no node: their references are
 * replaced by what they expand to.
 *
 * Inside source/destination/parser/rewrite blocks: one child per driver,
 * `tcp(ip("0.0.0.0") port(514))` being node "tcp" whose child "ip" has one
 * argument. A bare word or string inside parentheses is an argument, a word
 * followed by "(" is a child; `"key" => value` is one argument with a key
 * (`config("acks" => "all")`).
 *
 * A filter body is an expression tree: nodes "and", "or" with two children,
 * "not" with one, "compare" with args [left, operator, right], and any other
 * node being a filter function call such as `level(err..emerg)` or a
 * reference `filter(f_name)`. Inside a driver or rule, `condition(...)`
 * holds such an expression too: a node "condition" whose one child is the
 * expression (`set("x" value("A") condition(program("p") or level(err)))`).
 *
 * A source, destination, parser or rewrite body may also hold "channel"
 * nodes with a log body: syslog-ng's path inside an object.
 *
 * A log block's children in order: source(name), destination(name),
 * filter(name), parser(name), rewrite(name), flags(words), inline objects as
 * nodes "source"/"destination"/"filter"/"parser"/"rewrite" without a name
 * argument and with a body, nested "log" nodes, and "if" nodes whose
 * children are "condition" (one filter expression child; absent in
 * syslog-ng's `if { ... }`), "then" (a log body), optional "elif" nodes
 * (condition + then) and an optional "else"; "junction" nodes whose
 * children are "channel" (or "log") nodes with a log body.
 */
typedef struct _SlCfgNode SlCfgNode;
struct _SlCfgNode
{
  gchar *name;
  SlCfgPos pos;
  GPtrArray *args;      /* SlCfgArg* */
  GPtrArray *children;  /* SlCfgNode* */
  gboolean has_body;    /* written with braces, not parentheses */
};

SlCfgNode   *sl_cfg_node_new        (const gchar *name, SlCfgPos pos);
void         sl_cfg_node_free       (SlCfgNode *node);
void         sl_cfg_node_add_arg    (SlCfgNode *node, SlCfgArgKind kind, const gchar *value, SlCfgPos pos);
/* Adds `key => value`; pos is the key's. */
void         sl_cfg_node_add_pair   (SlCfgNode *node, const gchar *key, SlCfgArgKind kind,
                                     const gchar *value, SlCfgPos pos);
void         sl_cfg_node_add_child  (SlCfgNode *node, SlCfgNode *child);
SlCfgNode   *sl_cfg_node_child      (const SlCfgNode *node, const gchar *name);
const gchar *sl_cfg_node_arg        (const SlCfgNode *node, guint index);
/* A bare number written as a template is syslog-ng's literal of type
 * "int64" (written back as the decimal *decimal gets) or "float" (as
 * written, *decimal NULL); NULL when a is no such number. */
const gchar *sl_cfg_arg_number_hint (const SlCfgArg *a, gchar **decimal);
/* True when two identifiers are the same, '-' and '_' being equal. */
gboolean     sl_cfg_name_equal      (const gchar *a, const gchar *b);
/* A copy of the name with '_' turned into '-'. */
gchar       *sl_cfg_name_normalize  (const gchar *name);
const gchar *sl_cfg_intern_file     (const gchar *file);
/* The one record of block's expansion at used_at, made on first use. */
const SlCfgExpansion *sl_cfg_intern_expansion (const gchar *block, SlCfgPos used_at);
/* Whether a call of this name inside a driver holds a filter expression
 * rather than arguments: a rule's condition(), grouping-by()'s trigger(),
 * where() and having(). */
gboolean     sl_cfg_is_filter_call  (const gchar *name);
/* Prints the tree in the configuration syntax, for tests and debugging. */
gchar       *sl_cfg_node_to_string  (const SlCfgNode *node);

G_END_DECLS

#endif
