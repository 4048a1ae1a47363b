/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the units of the rsyslog front end share: the state of one reading
 * (what legacy directives set for the statements after them, the objects
 * made so far) and the writing of Sluice's own text for each construct. */
#ifndef SL_CFG_RSYSLOG_PRIVATE_H
#define SL_CFG_RSYSLOG_PRIVATE_H

#include <glib.h>
#include "daemon/rsyslog/rsyslog-lexer.h"
#include "core/config/tree.h"
#include "core/plugin/rsyslog-module.h"

G_BEGIN_DECLS

/* A name = value parameter of a RainerScript object. */
typedef struct
{
  gchar *name;     /* lower case */
  gchar *value;    /* a list [ "a", "b" ] joined by ',' */
  gchar **items;   /* the list's items, NULL for a single value */
  SlCfgPos pos;
} SlRsParam;

void      sl_rs_param_free       (SlRsParam *param);
/* parameters made for a legacy form: params_add adds name=value unless
 * value is NULL */
GPtrArray *sl_rs_params_new      (void);
void      sl_rs_params_add       (GPtrArray *params, const gchar *name, const gchar *value, SlCfgPos pos);

/* A template used by name, which rsyslog lets come before its definition */
typedef struct
{
  gchar *name;
  SlCfgPos pos;
} SlRsTemplateRef;

/* A side's network stream driver: its name (gtls, ossl, ptcp), mode (1:
 * TLS), auth mode and permitted peers (',' joined); NULL when not set. */
typedef struct
{
  gchar *driver, *mode, *auth, *peers;
  gchar *ca, *cert, *key;  /* an imtcp input()'s own files (borrowed from its parameters), or NULL */
} SlRsTls;

typedef struct _SlRsConf
{
  SlCfgNode *root;        /* the configuration the objects go into */
  gchar *prefix;          /* of every object's name, unique in root */
  guint serial;
  gboolean included;      /* read by @include-rsyslog: rules take every source */
  GHashTable *templates;  /* lower-case name -> Sluice template text */
  GArray *template_refs;  /* SlRsTemplateRef, checked at the end */
  GHashTable *template_objects; /* template object's name -> its text */
  GHashTable *lookup_tables; /* lookup_table() name -> "$(lookup-table FILE " */
  GHashTable *destinations; /* drivers' text -> the destination's name */
  GHashTable *rulesets;   /* name -> SlCfgNode "log" */
  GHashTable *ruleset_sources; /* name -> GPtrArray of source names */
  GPtrArray *conditions;  /* filter texts of the enclosing ifs */
  struct _SlRsRuleset *ruleset; /* the one statements go into */
  GHashTable *waiting;    /* the rulesets an action retries forever in */
  GHashTable *loaded;     /* the modules loaded so far, lower case, without .so */
  GPtrArray *calls;       /* every call, resolved once everything is read */
  gchar *last_filter;     /* for '&' */
  guint depth;            /* of included files */
  guint foreach_depth;    /* of the foreach loops being read */
  /* what legacy directives set for later actions and inputs */
  gchar *file_owner, *file_group, *dir_owner, *dir_group;
  gchar *file_mode, *dir_mode;
  gboolean create_dirs;
  gboolean file_sync;      /* $ActionFileEnableSync: /path without '-' syncs */
  gchar *max_message_size; /* maxMessageSize as written; NULL: rsyslogd's 8096 */
  gboolean keep_control_chars, keep_tabs; /* parser.escapeControlCharacter* turned off */
  gchar *file_template;   /* $ActionFileDefaultTemplate: rsyslog's name */
  gchar *forward_template;
  GPtrArray *action_queue; /* Sluice options from $ActionQueue*, for the next action */
  GPtrArray *action_queue_params; /* the $ActionQueue* read so far, as queue.* parameters */
  const gchar *action_name; /* name= of the action() being read, or NULL */
  gchar *priv_user, *priv_group; /* $PrivDropToUser, $PrivDropToGroup */
  gchar *tls_default_driver, *tls_ca, *tls_cert, *tls_key; /* $DefaultNetstreamDriver* */
  SlRsTls tls_send;       /* $ActionSendStreamDriver*, for the legacy @@ after them */
  SlRsTls tls_server;     /* imtcp's module parameters, $InputTCPServerStreamDriver* */
  SlCfgPos priv_pos;
  gboolean imuxsock;      /* module(load="imuxsock"): the system socket */
  gchar *syssock_name;
  gboolean syssock_on;
  SlCfgPos syssock_pos;
  gboolean imuxsock_script;  /* loaded by module(): rsyslogd then refuses its legacy directives */
  /* imuxsock's parameters (without "syssock.") for the system socket, from
   * SysSock.* or $SystemLog*; for the next $AddUnixListenSocket, from
   * $InputUnixListenSocket*, with the rate limits (ratelimit.*) of
   * SysSock.RateLimit.*, $SystemLogRateLimit* and $IMUXSockRateLimit*;
   * NULL until one is set */
  GPtrArray *syssock_params, *uxsock_params;
  GPtrArray *imtcp_params;   /* imtcp's module parameters but the stream driver's: its inputs' defaults */
  /* $InputFile*: the file the next $InputRunFileMonitor follows */
  gchar *imfile_name, *imfile_tag, *imfile_facility, *imfile_severity;
  gchar *imfile_ruleset;   /* $InputFileBindRuleset: kept for every later file */
  gboolean imfile_loaded;  /* imfile's legacy directives exist once it is */
  /* the inputs of modules with SL_RS_MODULE_INPUT_AT_LOAD (imjournal)
   * loaded: SlRsLoadInput, made once everything is read, as their legacy
   * directives may come after $ModLoad */
  GPtrArray *load_inputs;
  gboolean uxsock_loaded;  /* $ModLoad omuxsock: its directives and :omuxsock: exist */
  gchar *uxsock_socket, *uxsock_template; /* $OMUxSockSocket, $OMUxSockDefaultTemplate */
  gchar *mmnormalize_rulebase; /* $mmnormalizeRuleBase, which the next :mmnormalize: takes */
  gboolean mmnormalize_raw;     /* $mmnormalizeUseRawMsg, the same */
  GHashTable *outchannels;  /* $outchannel name -> SlRsOutchannel, made by the first one */
  GHashTable *output_directives; /* $ActionMail*, $ActionSNMP*: lower-case name -> value */
  GPtrArray *mail_to;       /* $ActionMailTo's since the last :ommail: */
  /* $IncludeConfig's and include()'s reader: the files of a pattern read
   * as statements into this configuration (the front end's entry, which
   * the directives below it reach through this) */
  gboolean (*read_files) (struct _SlRsConf *c, const gchar *pattern, SlCfgPos from, GError **error);
} SlRsConf;

/* A file being read, and where its first error goes. */
typedef struct
{
  SlRsConf *c;
  SlRsLexer lx;
  GError **error;
} SlRsReader;

/* rsyslog.c: reading helpers. fail sets a syntax error at pos and returns
 * FALSE; expect_char takes want (after blanks) or fails naming what; a
 * plain value is a quoted string, a backtick value or a bare word. */
gboolean  sl_rs_fail             (SlRsReader *r, SlCfgPos pos, const gchar *format, ...) G_GNUC_PRINTF (3, 4);
gboolean  sl_rs_expect_char      (SlRsReader *r, gchar want, const gchar *what);
gboolean  sl_rs_read_plain_value (SlRsReader *r, gchar **value);
/* `echo TEXT` or `cat FILE`, evaluated as rsyslogd does; the lexer stands
 * on the backtick */
gboolean  sl_rs_read_backtick    (SlRsReader *r, gchar **value);

/* rsyslog-expr.c: a RainerScript expression as a filter expression, or as
 * a template (a condition's is 1 or 0, as rsyslogd's value of one). */
gboolean  sl_rs_read_condition   (SlRsReader *r, gchar **filter);
gboolean  sl_rs_read_expr_value  (SlRsReader *r, gchar **value);
/* The value of set: *numeric when rsyslogd stores a number (a numeric
 * literal, arithmetic, a comparison, cnum(), ...), else a string */
gboolean  sl_rs_read_set_value   (SlRsReader *r, gchar **value, gboolean *numeric);
/* set RESULT = parse_json(...): the log items that do it; the lexer stands
 * on the '(' after parse_json */
gboolean  sl_rs_read_parse_json  (SlRsReader *r, SlCfgPos pos, const gchar *result, gchar **items);

/* rsyslog-emit.c: Sluice text into the tree. */
/* Appends text quoted as a string of Sluice's language. */
void      sl_rs_quote           (GString *out, const gchar *text);
gchar    *sl_rs_quoted          (const gchar *text);
/* Parses Sluice text holding top-level statements and adds them to the
 * configuration with every position set to pos. */
gboolean  sl_rs_emit            (SlRsConf *c, SlCfgPos pos, const gchar *text, GError **error);
/* The parser's escaping settings: *taken tells whether name is one */
gboolean  sl_rs_escape_setting  (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos,
                                 gboolean *taken, GError **error);
/* maxMessageSize: the longest message the inputs take and omfwd sends */
gboolean  sl_rs_max_message_size (SlRsConf *c, const gchar *value, SlCfgPos pos, GError **error);
/* The current ruleset's path waits for its destinations as long as it
 * takes (flags(flow-control)): an action in it retries forever. */
void      sl_rs_ruleset_waits   (SlRsConf *c);
/* The same for log path items, added to the body being built. */
gboolean  sl_rs_emit_log_items  (SlCfgPos pos, SlCfgNode *into, const gchar *text, GError **error);
gchar    *sl_rs_new_name        (SlRsConf *c, const gchar *kind);
/* The kind of name of mmjsonparse's parser: a message it does not parse
 * goes on, its text kept as $!msg, as rsyslogd does */
#define SL_RS_JSON_PARSER "jp"
/* The root of Sluice text holding top-level statements, or NULL with an
 * error at pos; sl_rs_place sets every position of a node to pos; the
 * children of from move to the end of to, placed at pos when given. */
SlCfgNode *sl_rs_parse_text     (const gchar *text, SlCfgPos pos, GError **error);
void      sl_rs_place           (SlCfgNode *node, SlCfgPos pos);
void      sl_rs_move_children   (SlCfgNode *from, SlCfgNode *to, const SlCfgPos *pos);
const SlRsParam *sl_rs_param_find (GPtrArray *params, const gchar *name);
/* What the actions share: an option of Sluice text with its value quoted;
 * the parameters an action may have (its own and queue.*, action.*),
 * else an error at the first other one; the name of the destination of
 * these drivers, made once (actions that write alike share it). */
void      sl_rs_append_option        (GString *out, const gchar *name, const gchar *value);
gboolean  sl_rs_check_action_params  (GPtrArray *params, const gchar *const *own, guint n_own, const gchar *type,
                                      GError **error);
gchar    *sl_rs_emit_destination     (SlRsConf *c, SlCfgPos pos, const gchar *drivers, GError **error);
gboolean  sl_rs_is_true         (const gchar *value);

/* rsyslog-property.c: a template's property and its options, read from
 * %name:from:to:options:outname% (text stands after the '%' and is left
 * after the closing one) or from property()'s parameters. words are the
 * options of $(rsyslog-property); date is rsyslog's dateFormat word. */
typedef struct
{
  gchar *name, *outname, *regex, *date;
  GString *words;
} SlRsProperty;
gboolean  sl_rs_property_legacy      (const gchar **text, SlRsProperty *prop, SlCfgPos pos, GError **error);
gboolean  sl_rs_property_params      (GPtrArray *params, SlRsProperty *prop, SlCfgPos pos, GError **error);
void      sl_rs_property_clear       (SlRsProperty *prop);

/* rsyslog-template.c: rsyslog's templates and properties as Sluice templates. */
/* A template's options (option.json="on" ...; the value 1 is option.json,
 * which TRUE passes) */
enum
{
  SL_RS_TPL_JSON = 1 << 0,          /* each property with " and \ escaped */
  SL_RS_TPL_SQL = 1 << 1,           /* ' and \ escaped with a backslash */
  SL_RS_TPL_STDSQL = 1 << 2,        /* ' doubled */
  SL_RS_TPL_JSONF = 1 << 3,         /* { the non-empty entries joined by ", " }\n */
  SL_RS_TPL_CASESENSITIVE = 1 << 4, /* a variable's jsonf name as written, else in lower case */
};
gboolean  sl_rs_template_from_string (const gchar *text, guint options, SlCfgPos pos, GString *out,
                                      GError **error);
/* A property with its options as Sluice template text. */
gboolean  sl_rs_template_property    (const SlRsProperty *prop, guint options, SlCfgPos pos, GString *out,
                                      GError **error);
/* The Sluice text of a template of these entries (each a Sluice
 * template's text) with these options. */
gchar    *sl_rs_template_join        (GPtrArray *entries, guint options);
/* text as a JSON string as json-c writes it: " \\ / and control characters escaped */
void      sl_rs_json_string          (GString *out, const gchar *text);
/* Makes the template object NAME of rsyslog's template text. */
gboolean  sl_rs_template_define      (SlRsConf *c, const gchar *name, const gchar *rsyslog_text,
                                      guint options, SlCfgPos pos, GError **error);
/* ... or of Sluice's, made of a list template's entries */
gboolean  sl_rs_template_define_sluice (SlRsConf *c, const gchar *name, const gchar *text, SlCfgPos pos,
                                        GError **error);
/* The text of a template defined before, or of RSYSLOG_*, for a file name
 * or a forwarding format; NULL with *error set when there is none. */
const gchar *sl_rs_template_lookup   (SlRsConf *c, const gchar *name, SlCfgPos pos, GError **error);
/* The name of the template object of a template() option; whether it is
 * defined is checked once everything is read (sl_rs_template_check_refs). */
gchar    *sl_rs_template_ref         (SlRsConf *c, const gchar *name, SlCfgPos pos, GError **error);
/* ... and the frac-digits() of the drivers whose templates need it. */
gboolean  sl_rs_template_check_refs  (SlRsConf *c, GError **error);
/* The Sluice template of a property as a filter's left side. */
gboolean  sl_rs_property_value       (const gchar *name, SlCfgPos pos, GString *out, GError **error);
/* The Sluice field of rsyslog's variable $!a!b, $.a or $/a: its sigil
 * and its names joined by dots ("!a.b", ".a", "/a"). */
gchar    *sl_rs_variable_field       (const gchar *name);

/* rsyslog-lookup.c: lookup_table() read, and lookup("name", key) as the
 * template of the table's value for key (a template's text) */
gboolean  sl_rs_lookup_table         (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error);
gboolean  sl_rs_lookup_call          (SlRsConf *c, const gchar *table, const gchar *key, SlCfgPos pos, GString *out,
                                      GError **error);

/* rsyslog-filter.c */
gboolean  sl_rs_selector_filter      (const gchar *selector, SlCfgPos pos, GString *out, GError **error);
gboolean  sl_rs_compare_filter       (const gchar *value_template, const gchar *op, gboolean negate,
                                      const gchar *operand, SlCfgPos pos, GString *out, GError **error);

/* rsyslog-action.c: the destination an action writes to, by name */
gchar    *sl_rs_legacy_action        (SlRsConf *c, const gchar *text, SlCfgPos pos, GError **error);
gchar    *sl_rs_action_object        (SlRsConf *c, GPtrArray *params, SlCfgPos pos, gboolean *is_parser,
                                      GError **error);
/* an action's queue.* as Sluice's queue options, or an error at the
 * parameter Sluice cannot follow; $ActionQueue* as the same parameters */
gboolean  sl_rs_queue_options        (GPtrArray *params, GPtrArray *options, GError **error);
gboolean  sl_rs_action_queue_directive (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos,
                                        GError **error);
gboolean  sl_rs_main_queue_type      (const gchar *value, SlCfgPos pos, GError **error);
gboolean  sl_rs_main_queue_param     (const SlRsParam *param, GError **error);

/* rsyslog-output.c: an action(type=) no plugin serves, refused */
gchar    *sl_rs_output_action        (SlRsConf *c, GPtrArray *params, const gchar *type, SlCfgPos pos,
                                      GError **error);

/* rsyslog-file-options.c: impstats' log.file; $outchannel */
/* $outchannel name,file,max-size,command; :omfile:$name as omfile's
 * file=, rotation.sizeLimit= and rotation.sizeLimitCommand= (added to
 * params) */
gboolean  sl_rs_outchannel_directive (SlRsConf *c, const gchar *value, SlCfgPos pos, GError **error);
gboolean  sl_rs_outchannel           (SlRsConf *c, const gchar *name, SlCfgPos pos, GPtrArray *params,
                                      GError **error);
/* impstats' log.file and its format, appended to stats(...) as file(),
 * file-freq(seconds) and file-format(); nothing without log.file */
gboolean  sl_rs_impstats_file        (GPtrArray *params, glong seconds, GString *stats, GError **error);

/* rsyslog-modifiers.c */
/* $mmnormalizeRuleBase and $mmnormalizeUseRawMsg; the legacy :mmnormalize:
 * that takes them */
gboolean  sl_rs_mmnormalize_directive (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos,
                                       GError **error);
gchar    *sl_rs_legacy_mmnormalize    (SlRsConf *c, SlCfgPos pos, GError **error);

/* rsyslog-tls.c: a stream driver setting by its global() or $ name (lower
 * case), FALSE when name is none; the tls() of a side, nothing when its
 * mode is not 1. */
gboolean  sl_rs_tls_setting          (SlRsConf *c, const gchar *name, const gchar *value);
gboolean  sl_rs_tls_option           (SlRsConf *c, const SlRsTls *side, gboolean server, SlCfgPos pos, GString *out,
                                      GError **error);
void      sl_rs_tls_clear            (SlRsTls *tls);

/* rsyslog-output.c: omuxsock's directives $OMUxSockSocket (for the next
 * :omuxsock:) and $OMUxSockDefaultTemplate */
gboolean  sl_rs_uxsock_directive     (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos,
                                      GError **error);

/* rsyslog-legacy-output.c: $ActionMail* and $ActionSNMP* (*taken tells
 * whether name is one), and :ommail: or :omsnmp: (target) that take them */
gboolean  sl_rs_legacy_output_directive (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos,
                                         gboolean *taken, GError **error);
gchar    *sl_rs_legacy_output        (SlRsConf *c, const gchar *target, const gchar *template_name, SlCfgPos pos,
                                      GError **error);

/* rsyslog-plugin.c: the modules plugins serve (sl_plugins_rsyslog_lookup).
 * An action's destination of the driver the plugin writes for params, an
 * input's driver (type as messages name it: "omrelp", ":omrelp:");
 * module(load=)'s parameters checked. */
gchar    *sl_rs_plugin_action        (SlRsConf *c, const SlRsModule *module, const gchar *type, GPtrArray *params,
                                      SlCfgPos pos, GError **error);
gchar    *sl_rs_plugin_input         (SlRsConf *c, const SlRsModule *module, const gchar *type, GPtrArray *params,
                                      SlCfgPos pos, GError **error);
/* A message modification module's parser in the path: its name */
gchar    *sl_rs_plugin_modifier      (SlRsConf *c, const SlRsModule *module, const gchar *type, GPtrArray *params,
                                      SlCfgPos pos, GError **error);
gboolean  sl_rs_plugin_module_params (const SlRsModule *module, GPtrArray *params, GError **error);
/* A legacy action (written: ":omrelp:") as the action of the module
 * name with the parameters it stands for; refused when no plugin serves
 * the module. */
gchar    *sl_rs_plugin_legacy        (SlRsConf *c, const gchar *name, const gchar *written, GPtrArray *params,
                                      SlCfgPos pos, GError **error);

/* rsyslog-input.c: modules, inputs and legacy directives */
gboolean  sl_rs_module               (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error);
gboolean  sl_rs_input                (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error);
gboolean  sl_rs_directive            (SlRsConf *c, const gchar *line, SlCfgPos pos, GError **error);
/* A source of driver's text for ruleset (NULL: the default one), named
 * so that $inputname is input_name, or, when NULL, the name rsyslogd
 * gives the module that driver stands for. */
gboolean  sl_rs_add_source           (SlRsConf *c, const gchar *ruleset, SlCfgPos pos, const gchar *driver,
                                      const gchar *input_name, GError **error);
/* $InputFile* and $InputRunFileMonitor, imfile's legacy directives */
gboolean  sl_rs_imfile_directive     (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos,
                                      GError **error);
void      sl_rs_imfile_clear         (SlRsConf *c);
/* The input a module(load=) or $ModLoad of an SL_RS_MODULE_INPUT_AT_LOAD
 * module makes (params NULL for $ModLoad), and the legacy directives
 * that stand for its parameters ($IMJournal*) */
typedef struct
{
  const SlRsModule *module;
  GPtrArray *params;   /* SlRsParam, the last one written of each name */
  SlCfgPos pos;
} SlRsLoadInput;
void      sl_rs_load_input_free      (SlRsLoadInput *input);
gboolean  sl_rs_load_input_directive (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos,
                                      gboolean *taken, GError **error);
/* The system socket of imuxsock, once everything is read. */
gboolean  sl_rs_finish_inputs        (SlRsConf *c, GError **error);
/* $PrivDropTo* and global(privDrop.*): whom sluiced runs as */
gboolean  sl_rs_privileges           (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos, GError **error);
gboolean  sl_rs_finish_privileges    (SlRsConf *c, GError **error);

G_END_DECLS

#endif
