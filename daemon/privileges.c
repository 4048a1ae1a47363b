/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "daemon/privileges.h"
#include "core/i18n.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

struct _SlPrivileges
{
  gchar *user;      /* NULL: the user stays */
  uid_t uid;
  gid_t gid;        /* (gid_t) -1: the group stays */
  gchar *root;
  cap_t caps;       /* NULL: capabilities are left as the user change leaves them */
};

static gboolean
parse_id (const gchar *text, guint32 *out)
{
  gchar *end;
  guint64 id = g_ascii_strtoull (text, &end, 10);
  if (!*text || *end || id >= G_MAXUINT32)
    return FALSE;
  *out = (guint32) id;
  return TRUE;
}

static gboolean
lookup_user (SlPrivileges *p, const gchar *name, GError **error)
{
  struct passwd *pw = getpwnam (name);
  guint32 id;
  if (!pw && parse_id (name, &id))
    pw = getpwuid (id);
  if (!pw)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("--user: no user named '%s'"), name);
      return FALSE;
    }
  p->user = g_strdup (pw->pw_name);
  p->uid = pw->pw_uid;
  /* without --group the user's own group, so that root's group goes too */
  if (p->gid == (gid_t) -1)
    p->gid = pw->pw_gid;
  return TRUE;
}

static gboolean
lookup_group (SlPrivileges *p, const gchar *name, GError **error)
{
  struct group *gr = getgrnam (name);
  guint32 id;
  if (gr)
    p->gid = gr->gr_gid;
  else if (parse_id (name, &id))
    p->gid = id;
  else
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("--group: no group named '%s'"), name);
      return FALSE;
    }
  return TRUE;
}

/* cap_from_text() sets what the text says; a set written the syslog-ng
 * way ("...=p") is made effective too, since plugins open files and
 * sockets on their own threads and cannot raise a capability around each
 * call. */
static cap_t
parse_caps (const gchar *text, GError **error)
{
  cap_t caps = cap_from_text (text);
  if (!caps)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("--caps: '%s' is not a capability set as cap_from_text(3) reads one"), text);
      return NULL;
    }
  for (cap_value_t c = 0; c < (cap_value_t) cap_max_bits (); c++)
    {
      cap_flag_value_t permitted = CAP_CLEAR;
      if (cap_get_flag (caps, c, CAP_PERMITTED, &permitted) == 0 && permitted == CAP_SET)
        cap_set_flag (caps, CAP_EFFECTIVE, 1, &c, CAP_SET);
    }
  return caps;
}

SlPrivileges *
sl_privileges_new (const gchar *user, const gchar *group, const gchar *root, const gchar *caps,
                   gboolean no_caps, GError **error)
{
  SlPrivileges *p = g_new0 (SlPrivileges, 1);
  p->gid = (gid_t) -1;
  p->root = g_strdup (root);
  if ((group && !lookup_group (p, group, error)) || (user && !lookup_user (p, user, error)))
    {
      sl_privileges_free (p);
      return NULL;
    }
  if (!no_caps && (caps || user))
    {
      p->caps = parse_caps (caps ? caps : SL_PRIVILEGES_DEFAULT_CAPS, error);
      if (!p->caps)
        {
          sl_privileges_free (p);
          return NULL;
        }
    }
  return p;
}

gboolean
sl_privileges_chroot (SlPrivileges *p, GError **error)
{
  if (!p->root)
    return TRUE;
  /* the local time zone is read from /etc/localtime, which the new root
   * may not have */
  tzset ();
  if (chdir (p->root) < 0 || chroot (".") < 0 || chdir ("/") < 0)
    {
      gint err = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (err), _("--chroot: cannot change the root to %s: %s"),
                   p->root, g_strerror (err));
      return FALSE;
    }
  return TRUE;
}

static gboolean
fail (GError **error, const gchar *what)
{
  gint err = errno;
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (err), "%s: %s", what, g_strerror (err));
  return FALSE;
}

/* Takes every capability that caps does not permit out of the bounding
 * set, so that nothing the daemon runs later (a program() with file
 * capabilities, a hook command) can gain it back. Needs CAP_SETPCAP,
 * so it comes before the user change. */
static gboolean
limit_bounding_set (cap_t caps)
{
  for (cap_value_t c = 0; c < (cap_value_t) cap_max_bits (); c++)
    {
      cap_flag_value_t permitted = CAP_CLEAR;
      if (cap_get_flag (caps, c, CAP_PERMITTED, &permitted) == 0 && permitted == CAP_SET)
        continue;
      if (CAP_IS_SUPPORTED (c) && cap_drop_bound (c) < 0)
        return FALSE;
    }
  return TRUE;
}

/* PR_SET_KEEPCAPS keeps the permitted set through setuid(); the
 * effective set is cleared by it and set again from caps. No new
 * privileges from then on: a child of the daemon (program(), a hook
 * command) cannot gain a capability or a user through a setuid or
 * file-capability program, and, as no capability is inheritable, runs
 * with none. */
gboolean
sl_privileges_drop (SlPrivileges *p, GError **error)
{
  if (!p->user && !p->caps && p->gid == (gid_t) -1)
    return TRUE;
  if (p->user && p->caps && prctl (PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
    return fail (error, _("cannot keep capabilities across the user change"));
  if (p->caps || p->user)
    {
      /* --no-caps: none is kept */
      cap_t kept = p->caps ? p->caps : cap_init ();
      gboolean limited = kept && limit_bounding_set (kept);
      if (kept && kept != p->caps)
        cap_free (kept);
      if (!limited)
        return fail (error, _("cannot limit the capability bounding set"));
    }
  if (p->gid != (gid_t) -1)
    {
      gint rc = p->user ? initgroups (p->user, p->gid) : setgroups (1, &p->gid);
      if (rc < 0 || setgid (p->gid) < 0)
        return fail (error, _("--group: cannot change the group"));
    }
  if (p->user && setuid (p->uid) < 0)
    return fail (error, _("--user: cannot change the user"));
  if (p->caps && cap_set_proc (p->caps) < 0)
    return fail (error, _("--caps: cannot set the capabilities"));
  if (p->user && p->caps)
    prctl (PR_SET_KEEPCAPS, 0, 0, 0, 0);
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
    return fail (error, _("cannot forbid new privileges"));
  return TRUE;
}

void
sl_privileges_free (SlPrivileges *p)
{
  if (!p)
    return;
  if (p->caps)
    cap_free (p->caps);
  g_free (p->user);
  g_free (p->root);
  g_free (p);
}
