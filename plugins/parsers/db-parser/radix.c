/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/parsers/db-parser/radix.h"
#include "core/i18n.h"

#include <string.h>

/* A parser's verdict: it takes *len bytes; the value it gives is
 * *vofs bytes in and *vlen bytes shorter (quotes, a stop string). */
typedef gboolean (*ParseFunc) (const gchar *str, const gchar *param, gpointer state,
                               gint *len, gint *vofs, gint *vshrink);

typedef struct
{
  const gchar *type;
  ParseFunc parse;
  gchar *param;
  gpointer state;            /* PCRE: the GRegex; ESTRING: the stop string's length */
  SlHandle field;
  gchar first, last;         /* the first byte it can take */
} Parser;

typedef struct _Node Node;
struct _Node
{
  gchar *key;                /* literal text; NULL for a parser node */
  gint keylen;               /* -1 for a parser node */
  Parser *parser;
  gpointer value;
  Node **children;           /* literal children, sorted by first byte */
  guint n_children;
  Node **pchildren;          /* parser children, in the order added */
  guint n_pchildren;
};

struct _SlRadix
{
  Node *root;
};

/* The parsers, as syslog-ng 3.38 defines what each takes. */

static gboolean
parse_string (const gchar *s, const gchar *param, gpointer state, gint *len, gint *vofs, gint *vshrink)
{
  gint n = 0;
  while (s[n] && (g_ascii_isalnum (s[n]) || (param && strchr (param, s[n]))))
    n++;
  *len = n;
  return n > 0;
}

/* As syslog-ng 3.38: the value runs to the first closing character,
 * with no nesting of an opening one. */
static gboolean
parse_qstring (const gchar *s, const gchar *param, gpointer state, gint *len, gint *vofs, gint *vshrink)
{
  const gchar *end = strchr (s + 1, param[1] ? param[1] : param[0]);
  if (!end)
    return FALSE;
  *len = end - s + 1;
  *vofs = 1;
  *vshrink = 2;
  return TRUE;
}

static gboolean
parse_estring (const gchar *s, const gchar *param, gpointer state, gint *len, gint *vofs, gint *vshrink)
{
  gint stop_len = GPOINTER_TO_INT (state);
  const gchar *end = stop_len == 1 ? strchr (s, param[0]) : strstr (s, param);
  if (!end)
    return FALSE;
  *len = end - s + stop_len;
  *vshrink = stop_len;
  return TRUE;
}

static gboolean
parse_nlstring (const gchar *s, const gchar *param, gpointer state, gint *len, gint *vofs, gint *vshrink)
{
  const gchar *end = strchr (s, '\n');
  if (end && end > s && end[-1] == '\r')
    end--;
  else if (!end)
    end = s + strlen (s);
  *len = end - s;
  return TRUE;
}

static gboolean
parse_anystring (const gchar *s, const gchar *param, gpointer state, gint *len, gint *vofs, gint *vshrink)
{
  *len = strlen (s);
  return TRUE;
}

static gint
span_of (const gchar *s, const gchar *set)
{
  gint n = 0;
  while (s[n] && strchr (set, s[n]))
    n++;
  return n;
}

static gboolean
parse_set (const gchar *s, const gchar *param, gpointer state, gint *len, gint *vofs, gint *vshrink)
{
  *len = span_of (s, param);
  return *len > 0;
}

static gboolean
parse_optionalset (const gchar *s, const gchar *param, gpointer state, gint *len, gint *vofs, gint *vshrink)
{
  *len = span_of (s, param);
  return TRUE;
}

/* Labels of letters, digits and '-', each maybe followed by a dot; at
 * least two. */
static gint
hostname_len (const gchar *s, gint n, gint *labels)
{
  *labels = 0;
  while (g_ascii_isalnum (s[n]) || s[n] == '-')
    {
      (*labels)++;
      while (g_ascii_isalnum (s[n]) || s[n] == '-')
        n++;
      if (s[n] == '.')
        n++;
    }
  return n;
}

static gboolean
parse_hostname (const gchar *s, const gchar *param, gpointer state, gint *len, gint *vofs, gint *vshrink)
{
  gint labels;
  *len = hostname_len (s, 0, &labels);
  return labels >= 2;
}

static gboolean
parse_email (const gchar *s, const gchar *param, gpointer state, gint *len, gint *vofs, gint *vshrink)
{
  static const gchar local_chars[] = "!#$%&'*+-/=?^_`{|}~.";
  gint n = param ? span_of (s, param) : 0;
  *vofs = n;
  if (s[n] == '.')
    return FALSE;
  gint start = n;
  while (s[n] && (g_ascii_isalnum (s[n]) || strchr (local_chars, s[n])))
    n++;
  if (n == start || s[n - 1] == '.' || s[n] != '@')
    return FALSE;
  gint labels;
  n = hostname_len (s, n + 1, &labels);
  if (labels < 2)
    return FALSE;
  gint end = n;
  if (param)
    n += span_of (s + n, param);
  *len = n;
  *vshrink = *vofs + (n - end);
  return n > 0;
}

/* Up to parts pairs of hex digits separated by ':'. */
static gboolean
lladdr_len (const gchar *s, gint parts, gint *len)
{
  gint n = 0;
  for (gint i = 1; i <= parts; i++)
    {
      if (!g_ascii_isxdigit (s[n]) || !g_ascii_isxdigit (s[n + 1]))
        {
          if (i == 1)
            return FALSE;
          n--;
          break;
        }
      if (i == parts || s[n + 2] != ':')
        {
          n += 2;
          break;
        }
      n += 3;
    }
  *len = n;
  return n <= parts * 3 - 1;
}

static gboolean
parse_lladdr (const gchar *s, const gchar *param, gpointer state, gint *len, gint *vofs, gint *vshrink)
{
  gint parts = param ? atoi (param) : 20;
  return lladdr_len (s, parts, len);
}

static gboolean
parse_macaddr (const gchar *s, const gchar *param, gpointer state, gint *len, gint *vofs, gint *vshrink)
{
  return lladdr_len (s, 6, len);
}

static gboolean
parse_ipv4 (const gchar *s, const gchar *param, gpointer state, gint *len, gint *vofs, gint *vshrink)
{
  gint dots = 0, octet = -1, n = 0;
  for (;; n++)
    {
      if (s[n] == '.')
        {
          if (octet > 255 || octet == -1)
            return FALSE;
          if (dots == 3)
            break;
          dots++;
          octet = -1;
        }
      else if (g_ascii_isdigit (s[n]))
        octet = (octet == -1 ? 0 : octet * 10) + (s[n] - '0');
      else
        break;
    }
  *len = n;
  return dots == 3 && octet >= 0 && octet <= 255;
}

static gboolean
parse_ipv6 (const gchar *s, const gchar *param, gpointer state, gint *len, gint *vofs, gint *vshrink)
{
  gint colons = 0, dots = 0, octet = 0, digit = 16, n = 0;
  gboolean shortened = FALSE;
  for (;; n++)
    {
      if (s[n] == ':')
        {
          if (octet > 0xffff || (octet == -1 && shortened))
            return FALSE;
          if (colons == 7 || dots == 3)
            break;
          if (digit == 10)
            return FALSE;
          if (octet == -1)
            shortened = TRUE;
          colons++;
          octet = -1;
        }
      else if (g_ascii_isxdigit (s[n]))
        octet = (octet == -1 ? 0 : octet * digit) + g_ascii_xdigit_value (s[n]);
      else if (s[n] == '.')
        {
          if (digit == 10 && octet > 255)
            return FALSE;
          if ((digit == 16 && octet > 597) || octet == -1 || colons == 7 || dots == 3)
            break;
          dots++;
          octet = -1;
          digit = 10;
        }
      else
        break;
    }
  if (n > 0 && s[n - 1] == '.')
    {
      n--;
      dots--;
    }
  else if (n > 1 && s[n - 1] == ':' && s[n - 2] != ':')
    {
      n--;
      colons--;
    }
  *len = n;
  return !(colons < 2 || colons > 7 || (digit == 10 && octet > 255) || (digit == 16 && octet > 0xffff)
           || !(dots == 0 || dots == 3) || (!shortened && colons < 7 && dots == 0));
}

static gboolean
parse_ip (const gchar *s, const gchar *param, gpointer state, gint *len, gint *vofs, gint *vshrink)
{
  return parse_ipv4 (s, param, state, len, vofs, vshrink) || parse_ipv6 (s, param, state, len, vofs, vshrink);
}

static gboolean
parse_number (const gchar *s, const gchar *param, gpointer state, gint *len, gint *vofs, gint *vshrink)
{
  gint n = 0, min = 1;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    {
      n = 2;
      min += 2;
      while (g_ascii_isxdigit (s[n]))
        n++;
    }
  else
    {
      if (s[0] == '-')
        {
          n++;
          min++;
        }
      while (g_ascii_isdigit (s[n]))
        n++;
    }
  *len = n;
  return n >= min;
}

static gboolean
parse_float (const gchar *s, const gchar *param, gpointer state, gint *len, gint *vofs, gint *vshrink)
{
  gint n = s[0] == '-';
  while (g_ascii_isdigit (s[n]))
    n++;
  if (s[n] == '.')
    for (n++; g_ascii_isdigit (s[n]); n++)
      ;
  if (n > 0 && (s[n] == 'e' || s[n] == 'E'))
    {
      n++;
      if (s[n] == '-')
        n++;
      while (g_ascii_isdigit (s[n]))
        n++;
    }
  *len = n;
  return n > 0;
}

static gboolean
parse_pcre (const gchar *s, const gchar *param, gpointer state, gint *len, gint *vofs, gint *vshrink)
{
  GMatchInfo *info = NULL;
  gint start, end;
  gboolean ok = g_regex_match (state, s, 0, &info) && g_match_info_fetch_pos (info, 0, &start, &end);
  g_match_info_free (info);
  if (ok)
    *len = end - start;
  return ok;
}

typedef struct
{
  const gchar *type;
  ParseFunc parse;
  gchar first, last;
  gboolean needs_param;
} ParserType;

static const ParserType parser_types[] = {
  { "IPv4", parse_ipv4, '0', '9', FALSE },
  { "IPv6", parse_ipv6, G_MININT8, G_MAXINT8, FALSE },
  { "IPvANY", parse_ip, G_MININT8, G_MAXINT8, FALSE },
  { "MACADDR", parse_macaddr, G_MININT8, G_MAXINT8, FALSE },
  { "NUMBER", parse_number, '-', '9', FALSE },
  { "FLOAT", parse_float, '-', '9', FALSE },
  { "DOUBLE", parse_float, '-', '9', FALSE },
  { "STRING", parse_string, G_MININT8, G_MAXINT8, FALSE },
  { "ESTRING", parse_estring, G_MININT8, G_MAXINT8, TRUE },
  { "NLSTRING", parse_nlstring, G_MININT8, G_MAXINT8, FALSE },
  { "PCRE", parse_pcre, G_MININT8, G_MAXINT8, TRUE },
  { "ANYSTRING", parse_anystring, G_MININT8, G_MAXINT8, FALSE },
  { "SET", parse_set, G_MININT8, G_MAXINT8, TRUE },
  { "OPTIONALSET", parse_optionalset, G_MININT8, G_MAXINT8, TRUE },
  { "EMAIL", parse_email, G_MININT8, G_MAXINT8, FALSE },
  { "HOSTNAME", parse_hostname, G_MININT8, G_MAXINT8, FALSE },
  { "LLADDR", parse_lladdr, G_MININT8, G_MAXINT8, FALSE },
  { "QSTRING", parse_qstring, G_MININT8, G_MAXINT8, TRUE },
};

static void
parser_free (Parser *p)
{
  if (p->parse == parse_pcre && p->state)
    g_regex_unref (p->state);
  g_free (p->param);
  g_free (p);
}

/* spec is "TYPE", "TYPE:name" or "TYPE:name:param" (the param may hold ':'). */
static Parser *
parser_new (const gchar *spec, const gchar *prefix, GError **error)
{
  gchar **parts = g_strsplit (spec, ":", 3);
  const ParserType *type = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (parser_types); i++)
    if (strcmp (parts[0], parser_types[i].type) == 0)
      type = &parser_types[i];
  if (!type)
    {
      g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT, _("unknown pattern parser @%s@"), parts[0]);
      g_strfreev (parts);
      return NULL;
    }
  gboolean has_param = parts[1] && parts[2];
  if ((type->needs_param && (!has_param || (type->parse == parse_estring && !parts[2][0])))
      || (type->parse == parse_nlstring && has_param))
    {
      g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT,
                   type->needs_param ? _("@%s@ needs a parameter: @%s:NAME:PARAMETER@")
                                     : _("@%s@ takes no parameter"), spec, parts[0]);
      g_strfreev (parts);
      return NULL;
    }
  Parser *p = g_new0 (Parser, 1);
  p->type = type->type;
  p->parse = type->parse;
  p->first = type->first;
  p->last = type->last;
  if (parts[1] && parts[1][0])
    {
      gchar *name = g_strconcat (prefix ? prefix : "", parts[1], NULL);
      p->field = sl_field_handle (name);
      g_free (name);
    }
  if (has_param)
    p->param = g_strdup (parts[2]);
  g_strfreev (parts);
  if (p->parse == parse_qstring)
    p->first = p->last = p->param[0];
  else if (p->parse == parse_estring)
    p->state = GINT_TO_POINTER ((gint) strlen (p->param));
  else if (p->parse == parse_pcre)
    {
      p->state = g_regex_new (p->param, G_REGEX_RAW | G_REGEX_ANCHORED, 0, error);
      if (!p->state)
        {
          parser_free (p);
          return NULL;
        }
    }
  return p;
}

static gboolean
parser_equal (const Parser *a, const Parser *b)
{
  return a->parse == b->parse && a->field == b->field && g_strcmp0 (a->param, b->param) == 0;
}

static Node *
node_new (const gchar *key, gsize len, gpointer value)
{
  Node *n = g_new0 (Node, 1);
  n->key = key ? g_strndup (key, len) : NULL;
  n->keylen = key ? (gint) len : -1;
  n->value = value;
  return n;
}

static void
node_free (Node *n)
{
  for (guint i = 0; i < n->n_children; i++)
    node_free (n->children[i]);
  for (guint i = 0; i < n->n_pchildren; i++)
    node_free (n->pchildren[i]);
  g_free (n->children);
  g_free (n->pchildren);
  if (n->parser)
    parser_free (n->parser);
  g_free (n->key);
  g_free (n);
}

static void
add_child (Node *parent, Node *child)
{
  guint at = 0;
  while (at < parent->n_children && parent->children[at]->key[0] <= child->key[0])
    at++;
  parent->children = g_renew (Node *, parent->children, parent->n_children + 1);
  memmove (parent->children + at + 1, parent->children + at, (parent->n_children - at) * sizeof (Node *));
  parent->children[at] = child;
  parent->n_children++;
}

static Node *
child_by_first (const Node *n, gchar c)
{
  guint lo = 0, hi = n->n_children;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      gchar k = n->children[mid]->key[0];
      if (k < c)
        lo = mid + 1;
      else if (k > c)
        hi = mid;
      else
        return n->children[mid];
    }
  return NULL;
}

typedef struct
{
  const gchar *prefix;
  gpointer *other;
  GError **error;
} Insert;

static gboolean insert (Node *root, const gchar *key, gpointer value, Insert *ins);

static gboolean
set_value (Node *n, gpointer value, Insert *ins)
{
  if (!n->value)
    {
      n->value = value;
      return TRUE;
    }
  *ins->other = n->value;
  g_set_error (ins->error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT, _("the same pattern twice"));
  return FALSE;
}

/* A new literal child of root for key, which has no child of its first
 * byte; the part from an '@' on goes below it. */
static gboolean
add_literal (Node *root, const gchar *key, gpointer value, Insert *ins)
{
  const gchar *at = strchr (key, '@');
  if (at == key)
    return insert (root, key, value, ins);
  Node *child = node_new (key, at ? (gsize) (at - key) : strlen (key), at ? NULL : value);
  add_child (root, child);
  return !at || insert (child, at, value, ins);
}

static gboolean
insert_at (Node *root, const gchar *key, gpointer value, Insert *ins)
{
  gsize keylen = strlen (key);
  if (keylen >= 2 && key[1] == '@')
    {
      /* "@@" is a literal '@' */
      Node *n = child_by_first (root, '@');
      if (!n)
        {
          n = node_new ("@", 1, keylen == 2 ? value : NULL);
          add_child (root, n);
        }
      else if (keylen == 2 && !set_value (n, value, ins))
        return FALSE;
      return keylen == 2 || insert (n, key + 2, value, ins);
    }
  const gchar *end = keylen >= 2 ? strchr (key + 1, '@') : NULL;
  if (!end)
    {
      g_set_error (ins->error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT,
                   _("an '@' that opens no parser (write @@ for the character)"));
      return FALSE;
    }
  gchar *spec = g_strndup (key + 1, end - key - 1);
  Parser *parser = parser_new (spec, ins->prefix, ins->error);
  g_free (spec);
  if (!parser)
    return FALSE;
  Node *n = NULL;
  for (guint i = 0; i < root->n_pchildren && !n; i++)
    if (parser_equal (root->pchildren[i]->parser, parser))
      n = root->pchildren[i];
  if (n)
    parser_free (parser);
  else
    {
      n = node_new (NULL, 0, NULL);
      n->parser = parser;
      root->pchildren = g_renew (Node *, root->pchildren, root->n_pchildren + 1);
      root->pchildren[root->n_pchildren++] = n;
    }
  return end[1] ? insert (n, end + 1, value, ins) : set_value (n, value, ins);
}

static gboolean
insert (Node *root, const gchar *key, gpointer value, Insert *ins)
{
  if (key[0] == '@')
    return insert_at (root, key, value, ins);

  gint keylen = strlen (key), nodelen = root->keylen, i = 0;
  while (i < keylen && i < nodelen && key[i] == root->key[i] && key[i] != '@')
    i++;

  if (nodelen <= 0 || i == 0 || (i < keylen && i >= nodelen))
    {
      Node *n = child_by_first (root, key[i]);
      if (!n)
        return add_literal (root, key + i, value, ins);
      return insert (key[i] == '@' ? root : n, key + i, value, ins);
    }
  if (i == keylen && i == nodelen)
    return set_value (root, value, ins);
  if (i < nodelen)
    {
      /* root keeps the common part; the rest of it moves below */
      Node *rest = node_new (root->key + i, nodelen - i, root->value);
      rest->children = root->children;
      rest->n_children = root->n_children;
      rest->pchildren = root->pchildren;
      rest->n_pchildren = root->n_pchildren;
      root->children = NULL;
      root->n_children = 0;
      root->pchildren = NULL;
      root->n_pchildren = 0;
      root->value = NULL;
      root->key[i] = '\0';
      root->keylen = i;
      add_child (root, rest);
      return i < keylen ? add_literal (root, key + i, value, ins) : set_value (root, value, ins);
    }
  return add_literal (root, key + i, value, ins);
}

Radix *
radix_new (void)
{
  Radix *r = g_new0 (Radix, 1);
  r->root = node_new ("", 0, NULL);
  return r;
}

void
radix_free (Radix *radix)
{
  if (!radix)
    return;
  node_free (radix->root);
  g_free (radix);
}

gboolean
radix_insert (Radix *radix, const gchar *pattern, gpointer value, const gchar *prefix,
                 gpointer *other, GError **error)
{
  gpointer ignored = NULL;
  Insert ins = { prefix, other ? other : &ignored, error };
  if (other)
    *other = NULL;
  return insert (radix->root, pattern, value, &ins);
}

typedef struct
{
  const gchar *whole;
  GArray *matches;
  gboolean complete;         /* only a node that consumes the whole text */
  gboolean partial_found;
} Lookup;

static Node *find (Lookup *l, Node *n, const gchar *key, gint keylen);

static Node *
find_by_parser (Lookup *l, Node *n, const gchar *key, gint keylen)
{
  for (guint i = 0; i < n->n_pchildren; i++)
    {
      Node *child = n->pchildren[i];
      const Parser *p = child->parser;
      gint len = 0, vofs = 0, vshrink = 0;
      if (key[0] < p->first || key[0] > p->last || !p->parse (key, p->param, p->state, &len, &vofs, &vshrink))
        continue;
      if (len > keylen)
        continue;
      Node *found = find (l, child, key + len, keylen - len);
      if (found)
        {
          if (l->matches && p->field != SL_F_NONE)
            {
              RadixMatch m = { p->field, (key - l->whole) + vofs, MAX (len - vshrink, 0) };
              g_array_append_val (l->matches, m);
            }
          return found;
        }
    }
  return NULL;
}

static Node *
find (Lookup *l, Node *n, const gchar *key, gint keylen)
{
  gint in = 0, rad = 0;
  if (n->keylen > 0)
    while (in < keylen && rad < n->keylen)
      {
        /* a CR in the text before a newline of the pattern is skipped */
        if (key[in] == '\r' && n->key[rad] == '\n')
          in++;
        if (key[in] != n->key[rad])
          break;
        in++;
        rad++;
      }
  if (in == keylen && (rad == n->keylen || n->keylen == -1))
    return n->value ? n : NULL;
  if (n->keylen < 1 || (in < keylen && rad >= n->keylen))
    {
      const gchar *rest = key + in;
      gint restlen = keylen - in;
      Node *found = NULL;
      const gchar *lit = rest;
      gint litlen = restlen;
      if (litlen >= 2 && lit[0] == '\r' && lit[1] == '\n')
        {
          lit++;
          litlen--;
        }
      Node *child = child_by_first (n, lit[0]);
      if (child)
        found = find (l, child, lit, litlen);
      if (!found)
        found = find_by_parser (l, n, rest, restlen);
      if (!found && n->value)
        {
          if (!l->complete)
            return n;
          l->partial_found = TRUE;
        }
      return found;
    }
  return NULL;
}

gpointer
radix_lookup (const Radix *radix, const gchar *text, gsize len, GArray *matches)
{
  Lookup l = { text, matches, TRUE, FALSE };
  if (matches)
    g_array_set_size (matches, 0);
  Node *found = find (&l, radix->root, text, len);
  if (!found && l.partial_found)
    {
      l.complete = FALSE;
      found = find (&l, radix->root, text, len);
    }
  return found ? found->value : NULL;
}
