/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's log as /dev/kmsg gives it, one record per read:
 *   PRI,SEQ,TIMESTAMP_USEC,FLAGS[,...];MESSAGE
 *    KEY=VALUE                      (device properties, each on a line
 *    KEY=VALUE                       that starts with a space)
 * Shared by kmsg() and system(), which compile these files in. */
#ifndef KMSG_PRIVATE_H
#define KMSG_PRIVATE_H

#include <glib.h>
#include "core/plugin/plugin.h"
#include "core/route/source.h"

G_BEGIN_DECLS

typedef struct
{
  guint pri;            /* facility * 8 + level, as the record says */
  guint64 seq;          /* the kernel's record number, rising */
  guint64 usec;         /* microseconds since boot */
  gsize text_offset;    /* where MESSAGE starts */
} KmsgHeader;

gboolean kmsg_parse_header (const gchar *data, gsize len, KmsgHeader *header);

/* Parses msg->raw, one record, into msg: PROGRAM "kernel", the record's
 * priority, the stamp boot_usec + its timestamp (boot_usec: the wall clock
 * time of boot in microseconds), MESSAGE, and each property as
 * .linux.KEY. FALSE (MESSAGE the whole record) when it is no record. */
gboolean kmsg_parse (SlMessage *msg, gint64 boot_usec, const SlParseOptions *options);

/* The wall clock time the system booted, as the kernel's timestamps count
 * from it (the monotonic clock), estimated once per process. */
gint64   kmsg_boot_time (void);

/* format("linux-kmsg") */
extern const SlDriverClass kmsg_format_class;

typedef struct _SlKmsgReader KmsgReader;

/* Reads the records of path (/dev/kmsg, or a named pipe or a file in the
 * same format) on a thread of its own, parsing each with format (NULL: the
 * source's format()); with kernel_only, a record of another facility than
 * kern (what a program wrote to /dev/kmsg) is passed over. What was read is remembered in the persist file
 * with the boot's id, so a restart skips the records of this boot already
 * read. NULL when path cannot be opened. */
KmsgReader *kmsg_reader_start (SlSource *src, const SlDriverClass *format, const gchar *path,
                               gboolean kernel_only, GError **error);
void          kmsg_reader_stop  (KmsgReader *r);

G_END_DECLS

#endif
