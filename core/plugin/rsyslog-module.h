/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's modules served by plugins. A plugin names the rsyslog modules
 * it implements in its SlModule (rsyslog_modules): which parameters each
 * takes, and how one input(), action() or legacy form of it becomes the
 * plugin's own driver. sluiced's rsyslog front end does what is common to
 * every module (queue.* and action.* parameters, rulesets, the source's
 * name, the destination around the driver) and asks the plugin only for
 * the driver's text, e.g. redis(host("h") command(...)). */
#ifndef SL_RSYSLOG_MODULE_H
#define SL_RSYSLOG_MODULE_H

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  SL_RS_MODULE_INPUT,    /* input(type=...): the driver of a source */
  SL_RS_MODULE_OUTPUT,   /* action(type=...): the driver of a destination */
  SL_RS_MODULE_MODIFIER, /* action(type=...) of a message modification module: a parser's
                          * driver, run in the path so the actions after it see its fields */
} SlRsModuleKind;

/* One input(), action() or legacy action of the configuration, with its
 * parameters as written (names in lower case); a legacy form reaches the
 * plugin as the call with the parameters it stands for. A parameter not
 * written holds what module(load=) or a legacy directive before the call
 * set for the module, as in rsyslogd ($FileOwner for omfile's
 * fileOwner, $ActionForwardDefaultTemplate for omfwd's template). */
typedef struct _SlRsCall SlRsCall;

/* What messages name the call by: the module's name (omrelp), or the
 * legacy form written (:omrelp:). */
const gchar *sl_rs_call_type     (const SlRsCall *call);
/* A parameter's value as written ("a,b" for a list), NULL if not written. */
const gchar *sl_rs_call_value    (const SlRsCall *call, const gchar *param);
/* A list's items (param=["a", "b"]), NULL when param is not a list. */
const gchar *const *sl_rs_call_items (const SlRsCall *call, const gchar *param);
/* A switch as rsyslogd reads one (on, yes, true, 1), unset if not written. */
gboolean     sl_rs_call_flag     (const SlRsCall *call, const gchar *param, gboolean unset);
/* An integer parameter as rsyslogd reads one: *out is dflt when param is
 * not written; FALSE, with an error at its place, when it is no number. */
gboolean     sl_rs_call_int      (const SlRsCall *call, const gchar *param, gint64 dflt, gint64 *out,
                                  GError **error);
/* TRUE if param is not written; else an error at its file:line:column,
 * "the parameter 'P' of rsyslog's TYPE is not supported: " and why. */
gboolean     sl_rs_call_refuse   (const SlRsCall *call, const gchar *param, GError **error, const gchar *why, ...)
  G_GNUC_PRINTF (4, 5);
/* TRUE if param is not written or has the value dflt (as a switch: off
 * and no are one; as a number: 0 and 00); else an error at its
 * file:line:column, "rsyslog's TYPE P="V" is not supported (only DFLT,
 * the default): " and why. */
gboolean     sl_rs_call_refuse_unless (const SlRsCall *call, const gchar *param, const gchar *dflt, GError **error,
                                       const gchar *why, ...) G_GNUC_PRINTF (5, 6);
/* Always FALSE: the error format says, at param's place when it is
 * written, else at the call's. */
gboolean     sl_rs_call_fail     (const SlRsCall *call, const gchar *param, GError **error, const gchar *format, ...)
  G_GNUC_PRINTF (4, 5);
/* The name of the template object of rsyslog's template name (one of the
 * configuration's or RSYSLOG_*), for ` template(OBJ)` or "$(template OBJ)";
 * NULL with an error if there is none. */
gchar       *sl_rs_call_template (SlRsCall *call, const gchar *name, GError **error);
/* A module's own template: rsyslog's template text, defined under name
 * unless the configuration has one of that name. */
gboolean     sl_rs_call_define_template (SlRsCall *call, const gchar *name, const gchar *rsyslog_text,
                                         GError **error);
/* rsyslog's template text (%msg%...) as Sluice template text. */
gchar       *sl_rs_call_template_text (SlRsCall *call, const gchar *rsyslog_text, GError **error);
/* The Sluice template text of rsyslog's property (msg, rawmsg, $!a!b). */
gchar       *sl_rs_call_property (SlRsCall *call, const gchar *property, GError **error);
/* The field a variable $!a!b, $.a or $/a is kept in ("!a.b", ".a", "/a"). */
gchar       *sl_rs_call_variable_field (SlRsCall *call, const gchar *variable);
/* The Sluice template text of rsyslog's template name (one of the
 * configuration's or RSYSLOG_*), for an option that takes template text
 * rather than an object: a file's name, network()'s template(). */
gchar       *sl_rs_call_template_value (SlRsCall *call, const gchar *name, GError **error);
/* The names of a module's stream driver parameters (lower case): omfwd's
 * streamdriver, streamdrivermode, streamdriverauthmode,
 * streamdriverpermittedpeers; imtcp's streamdriver.name, ...; and of its
 * own certificate files (imtcp's streamdriver.cafile, ...), NULL when the
 * module takes global()'s only. */
typedef struct
{
  const gchar *driver, *mode, *auth, *peers;
  const gchar *ca, *cert, *key;
} SlRsTlsParams;
/* Appends ` tls(...)` for the call's stream driver parameters and
 * global()'s certificates, nothing when the mode is not 1 (TLS); server:
 * the receiving side. */
gboolean     sl_rs_call_tls      (SlRsCall *call, const SlRsTlsParams *names, gboolean server, GString *driver,
                                  GError **error);
/* A global() setting as written (lower-case name, e.g. maxmessagesize),
 * NULL if the configuration does not set it. */
const gchar *sl_rs_call_global   (const SlRsCall *call, const gchar *name);

/* Writing the driver in Sluice's language: a quoted string, an option
 * ` option("value")`, and rsyslog's plain text as a template of itself. */
void         sl_rs_text_quote    (GString *out, const gchar *text);
void         sl_rs_text_option   (GString *out, const gchar *option, const gchar *value);
gchar       *sl_rs_text_literal  (const gchar *text);
/* Sluice's name of a facility or severity as rsyslogd 8.2302's imfile and
 * imjournal take it by name (security is auth, panic emerg, warn
 * warning); NULL for a number, which imfile ORs into the priority
 * (facility 23 and severity 3 make mail.debug), or a LOG_ name. */
const gchar *sl_rs_syslog_name   (const gchar *value, gboolean facility);

typedef enum
{
  /* rsyslogd's own (omfile, omfwd...): action() needs no module(load=) */
  SL_RS_MODULE_BUILTIN = 1 << 0,
  /* rsyslogd takes only its legacy form (:omuxsock:), refusing action() */
  SL_RS_MODULE_LEGACY_ONLY = 1 << 1,
  /* a modifier whose message it cannot parse goes on with its text, from
   * the first non-blank, as $!msg (mmjsonparse) */
  SL_RS_MODULE_UNPARSED_AS_MSG = 1 << 2,
  /* an input module whose module(load=) makes its one input, with the
   * module's parameters (module_params, which params lists too) and its
   * legacy directives, once the configuration is read; input() is
   * refused (imjournal, immark, imkmsg) */
  SL_RS_MODULE_INPUT_AT_LOAD = 1 << 3,
} SlRsModuleFlags;

typedef struct
{
  const gchar *name;                    /* "omhiredis": lower case, without .so */
  SlRsModuleKind kind;
  /* what input() or action() takes besides what the front end takes for
   * every one (type=, name=, queue.*, action.*; an input's ruleset=; an
   * action's template=, which write() reads, or refuses when the driver
   * has no template), NULL-terminated; the front end refuses any other
   * with its place */
  const gchar *const *params;
  /* what module(load=) takes besides load=; NULL: nothing */
  const gchar *const *module_params;
  /* appends the driver, e.g. `redis(host("h") ...)`, without ';' */
  gboolean (*write) (SlRsCall *call, GString *driver, GError **error);
  SlRsModuleFlags flags;
} SlRsModule;

G_END_DECLS

#endif
