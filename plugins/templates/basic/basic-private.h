/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the files of the basic template functions: their classes, for
 * the module list, and what several of them need to render arguments. */
#ifndef BASIC_PRIVATE_H
#define BASIC_PRIVATE_H

#include <glib.h>
#include "core/plugin/plugin.h"
#include "core/message/template.h"

G_BEGIN_DECLS

extern const SlDriverClass tf_substr_class;
extern const SlDriverClass tf_strip_class;
extern const SlDriverClass tf_sanitize_class;
extern const SlDriverClass tf_length_class;
extern const SlDriverClass tf_replace_delimiter_class;
extern const SlDriverClass tf_padding_class;
extern const SlDriverClass tf_url_encode_class;
extern const SlDriverClass tf_base64_encode_class;
extern const SlDriverClass tf_ipv4_to_int_class;
extern const SlDriverClass tf_add_class;
extern const SlDriverClass tf_subtract_class;
extern const SlDriverClass tf_multiply_class;
extern const SlDriverClass tf_divide_class;
extern const SlDriverClass tf_modulo_class;
extern const SlDriverClass tf_md5_class;
extern const SlDriverClass tf_hash_class;
extern const SlDriverClass tf_sha1_class;
extern const SlDriverClass tf_sha256_class;
extern const SlDriverClass tf_sha512_class;
extern const SlDriverClass tf_if_class;
extern const SlDriverClass tf_dns_resolve_ip_class;

/* A buffer of the calling thread for text a function works on before it
 * writes its result; a function called inside another's arguments gets
 * one of its own. Each acquire is paired with a release, in order. */
GString *tf_scratch_acquire (void);
void     tf_scratch_release (void);

/* Renders the arguments from first on into out, sep between them. */
void     tf_render_args     (const SlTfCall *call, gint first, const gchar *sep,
                                const SlMessage *msg, const SlTemplateEnv *env, GString *out);

/* Renders argument i and reads it as a whole decimal integer. */
gboolean tf_render_int      (const SlTfCall *call, gint i, const SlMessage *msg,
                                const SlTemplateEnv *env, gint64 *value);

/* Reads argument i, when it is a literal, as a whole decimal integer once
 * (a function's prepare() does, so that eval() need not render it):
 * FALSE when it is not a literal or not such an integer. */
gboolean tf_literal_int     (const SlTfCall *call, gint i, gint64 *value);

/* Sets error to "$(name) takes ..." from usage. */
void     tf_usage_error     (const SlTfCall *call, GError **error, const gchar *usage);

G_END_DECLS

#endif
