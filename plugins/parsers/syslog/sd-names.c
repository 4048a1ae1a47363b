/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The handles of structured data's names, remembered per thread by the
 * bytes they were read from: a sender names the same elements and params
 * in every message, and building PREFIXid.param and looking it up in the
 * field registry cost a fifth of parsing such a line.
 *
 * An element is found by its target's name style and its raw id; its slot
 * carries a number that no other element gets on this thread, and a
 * param is found by that number and its raw name. Replacing an element's
 * slot gives it a new number, so the params remembered under the old one
 * are never found again. Handles never change and a target's prefix lives
 * as long as the process, so nothing remembered goes stale. */
#include "plugins/parsers/syslog/syslog-private.h"

#define ELEMENT_SLOTS 64
#define PARAM_SLOTS 256
/* longer ids and param names are rare; they take the slow way */
#define RAW_MAX 40

typedef struct
{
  const gchar *prefix;
  guint32 number;
  guint8 flags;
  guint8 len;
  gchar raw[RAW_MAX];
} ElementSlot;

typedef struct
{
  guint32 element;
  SlHandle handle;
  guint8 len;
  gchar raw[RAW_MAX];
} ParamSlot;

static __thread ElementSlot elements[ELEMENT_SLOTS];
static __thread ParamSlot params[PARAM_SLOTS];
static __thread guint32 last_number;

/* A slot found is compared byte for byte, so this hash need not read every
 * byte: the first and the last eight, where the ids and names senders use
 * differ (origin@32473, meta@32473), at a constant cost instead of one
 * multiplication a byte. */
static guint
bytes_hash (guint64 seed, const gchar *p, gsize len)
{
  guint64 head = 0, tail = len;
  if (len >= sizeof head)
    {
      memcpy (&head, p, sizeof head);
      memcpy (&tail, p + len - sizeof tail, sizeof tail);
    }
  else
    for (gsize i = 0; i < len; i++)
      head |= (guint64) (guchar) p[i] << (8 * i);
  guint64 h = (head ^ seed) * 0x9e3779b97f4a7c15u ^ tail * 0xc2b2ae3d27d4eb4fu;
  return (guint) (h >> 32);
}

static guint8
style_flags (const SyslogSdTarget *target)
{
  return (target->lowercase ? 1 : 0) | (target->escape_dots ? 2 : 0);
}

static ElementSlot *
element_slot (const SyslogSdTarget *target, guint8 flags, const gchar *id, gsize len)
{
  guint h = bytes_hash (GPOINTER_TO_SIZE (target->prefix) ^ flags, id, len);
  return &elements[h % ELEMENT_SLOTS];
}

guint32
syslog_sd_names_element (const SyslogSdTarget *target, const gchar *id, gsize len)
{
  if (len > RAW_MAX)
    return 0;
  guint8 flags = style_flags (target);
  const ElementSlot *slot = element_slot (target, flags, id, len);
  if (slot->number && slot->prefix == target->prefix && slot->flags == flags && slot->len == len
      && memcmp (slot->raw, id, len) == 0)
    return slot->number;
  return 0;
}

guint32
syslog_sd_names_add_element (const SyslogSdTarget *target, const gchar *id, gsize len)
{
  if (len > RAW_MAX)
    return 0;
  if (++last_number == 0)
    {
      /* after 2^32 elements, numbers would repeat: start afresh */
      memset (elements, 0, sizeof elements);
      memset (params, 0, sizeof params);
      last_number = 1;
    }
  guint8 flags = style_flags (target);
  ElementSlot *slot = element_slot (target, flags, id, len);
  *slot = (ElementSlot) { target->prefix, last_number, flags, (guint8) len, { 0 } };
  memcpy (slot->raw, id, len);
  return slot->number;
}

static ParamSlot *
param_slot (guint32 element, const gchar *name, gsize len)
{
  return &params[bytes_hash (element, name, len) % PARAM_SLOTS];
}

SlHandle
syslog_sd_names_param (guint32 element, const gchar *name, gsize len)
{
  if (!element || len > RAW_MAX)
    return 0;
  const ParamSlot *slot = param_slot (element, name, len);
  if (slot->element == element && slot->len == len && memcmp (slot->raw, name, len) == 0)
    return slot->handle;
  return 0;
}

void
syslog_sd_names_add_param (guint32 element, const gchar *name, gsize len, SlHandle handle)
{
  if (!element || len > RAW_MAX || !handle)
    return;
  ParamSlot *slot = param_slot (element, name, len);
  *slot = (ParamSlot) { element, handle, (guint8) len, { 0 } };
  memcpy (slot->raw, name, len);
}
