/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/compile/path-compile.h"
#include "core/compile/config-private.h"
#include "core/config/error.h"
#include "core/route/driver-private.h"
#include "core/compile/filter-expr-compile.h"
#include "core/i18n.h"
#include "core/route/source-private.h"
#include "core/route/route-private.h"
#include "core/internal.h"

enum
{
  PATH_FINAL = 1 << 0,
  PATH_FALLBACK = 1 << 1,
  PATH_CATCHALL = 1 << 2,
  PATH_FLOW_CONTROL = 1 << 3,
};

static const gchar *const path_flag_names[] = { "final", "fallback", "catchall", "flow-control" };

static void
step_clear (SlStep *s)
{
  if (s->filter)
    sl_filter_expr_free (s->filter);
  if (s->paths)
    g_ptr_array_unref (s->paths);
  sl_scheduler_free (s->scheduler);
  if (s->options)
    sl_options_free (s->options);
}

void
sl_path_free (SlPath *path)
{
  for (guint i = 0; i < path->steps->len; i++)
    step_clear (&g_array_index (path->steps, SlStep, i));
  g_array_free (path->steps, TRUE);
  g_free (path);
}

static gboolean
read_flags (const SlCfgNode *node, SlPath *path, GError **error)
{
  for (guint i = 0; node->args && i < node->args->len; i++)
    {
      const SlCfgArg *a = g_ptr_array_index (node->args, i);
      guint f;
      for (f = 0; f < G_N_ELEMENTS (path_flag_names); f++)
        if (sl_cfg_name_equal (a->value, path_flag_names[f]))
          break;
      if (f == G_N_ELEMENTS (path_flag_names))
        {
          const gchar *near = sl_cfg_suggest (a->value, path_flag_names, G_N_ELEMENTS (path_flag_names));
          if (near)
            sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, a->pos,
                              _("unknown log path flag '%s'; did you mean '%s'?"), a->value, near);
          else
            sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, a->pos,
                              _("unknown log path flag '%s'; known: final, fallback, catchall, flow-control"),
                              a->value);
          return FALSE;
        }
      switch (1 << f)
        {
        case PATH_FINAL: path->final = TRUE; break;
        case PATH_FALLBACK: path->fallback = TRUE; break;
        case PATH_CATCHALL: path->catchall = TRUE; break;
        case PATH_FLOW_CONTROL: path->flow_control = TRUE; break;
        }
    }
  return TRUE;
}

typedef struct
{
  SlConfig *cfg;
  GPtrArray *sources;        /* of the top-level path being compiled */
} Compiler;

static SlPath *compile_path (Compiler *c, const SlCfgNode *node, gboolean top, gboolean flow, GError **error);
static gboolean compile_items (Compiler *c, SlPath *path, const SlCfgNode *node, gboolean top, GError **error);

/* The point where sluicectl tap sees what passes the object kind/name of
 * cfg: known to cfg by the name's normalized form. */
static SlTapPoint *
tap_point (SlConfig *cfg, const gchar *kind, const gchar *name)
{
  SlTapPoint *point = sl_tap_point (kind, name);
  gchar *normalized = sl_cfg_name_normalize (name);
  g_hash_table_insert (cfg->tap_points, g_strconcat (kind, "/", normalized, NULL), point);
  g_free (normalized);
  return point;
}

static void
add_destinations (SlPath *path, GPtrArray *group, SlTapPoint *tap)
{
  for (guint i = 0; i < group->len; i++)
    {
      SlStep s = { .kind = SL_STEP_DESTINATION, .destination = g_ptr_array_index (group, i), .tap = tap };
      g_array_append_val (path->steps, s);
    }
}

static gboolean
add_processors (Compiler *c, SlPath *path, const SlCfgNode *node, const gchar *kind_word,
                SlDriverKind kind, GError **error)
{
  const SlCfgNode *body = node;
  guint before = path->steps->len;
  if (!node->has_body)
    {
      const gchar *name = sl_cfg_node_arg (node, 0);
      body = name ? sl_config_find_object (c->cfg, kind_word, name) : NULL;
      if (!body)
        {
          sl_config_set_no_object_error (c->cfg, error, node->pos, kind_word, name ? name : "");
          return FALSE;
        }
    }
  for (guint i = 0; body->children && i < body->children->len; i++)
    {
      const SlCfgNode *item = g_ptr_array_index (body->children, i);
      if (item->has_body && sl_cfg_name_equal (item->name, "channel"))
        {
          /* a parser or rewrite object is a sequence: its channel's steps
           * are the path's own */
          if (!compile_items (c, path, item, FALSE, error))
            return FALSE;
          continue;
        }
      SlDriver *d = sl_config_new_driver (c->cfg, kind, item, NULL, error);
      if (!d)
        return FALSE;
      gboolean emits = kind == SL_DRIVER_PARSER && (d->klass->capabilities & SL_CAP_EMITS);
      SlStep s = { .kind = emits ? SL_STEP_PROCESS_EMITTING : SL_STEP_PROCESS, .processor = d,
                   .process = kind == SL_DRIVER_PARSER ? d->klass->ops.parser->process : d->klass->ops.rewrite->process };
      g_array_append_val (path->steps, s);
    }
  /* a named object's last step, when a driver's: what it let through */
  SlStep *last = path->steps->len > before ? &g_array_index (path->steps, SlStep, path->steps->len - 1) : NULL;
  if (!node->has_body && last && last->processor
      && (last->kind == SL_STEP_PROCESS || last->kind == SL_STEP_PROCESS_EMITTING))
    last->tap = tap_point (c->cfg, kind_word, sl_cfg_node_arg (node, 0));
  return TRUE;
}

static gboolean
add_filter (Compiler *c, SlPath *path, const SlCfgNode *node, GError **error)
{
  SlFilterExpr *e;
  if (node->has_body)
    {
      if (!node->children || node->children->len != 1)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, node->pos, _("an inline filter needs one expression"));
          return FALSE;
        }
      e = sl_filter_expr_compile (c->cfg, g_ptr_array_index (node->children, 0), error);
    }
  else
    e = sl_filter_expr_compile (c->cfg, node, error);
  if (!e)
    return FALSE;
  SlStep s = { .kind = SL_STEP_FILTER, .filter = e };
  g_array_append_val (path->steps, s);
  return TRUE;
}

static SlStep *
add_junction_step (SlPath *path)
{
  SlStep s = { .kind = SL_STEP_JUNCTION, .paths = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_path_free) };
  g_array_append_val (path->steps, s);
  return &g_array_index (path->steps, SlStep, path->steps->len - 1);
}

/* As syslog-ng does: if/elif/else is a junction of final channels. A
 * branch with a condition starts with it as a filter; one without (`if {
 * parser {...}; }`) is taken when its own filters and parsers pass; a
 * missing else is an empty channel, so the message goes on past the if. */
static gboolean
add_if (Compiler *c, SlPath *path, const SlCfgNode *node, gboolean flow, GError **error)
{
  SlStep *junction = add_junction_step (path);

  /* "if" holds condition + then directly; each "elif" holds its own pair. */
  GPtrArray *branches = g_ptr_array_new ();
  g_ptr_array_add (branches, (gpointer) node);
  for (guint i = 0; node->children && i < node->children->len; i++)
    {
      const SlCfgNode *child = g_ptr_array_index (node->children, i);
      if (sl_cfg_name_equal (child->name, "elif") || sl_cfg_name_equal (child->name, "else"))
        g_ptr_array_add (branches, (gpointer) child);
    }
  const SlCfgNode *last = g_ptr_array_index (branches, branches->len - 1);
  gboolean has_else = sl_cfg_name_equal (last->name, "else");
  gboolean ok = TRUE;
  for (guint b = 0; ok && b < branches->len; b++)
    {
      const SlCfgNode *branch = g_ptr_array_index (branches, b);
      gboolean is_else = sl_cfg_name_equal (branch->name, "else");
      const SlCfgNode *cond = is_else ? NULL : sl_cfg_node_child (branch, "condition");
      const SlCfgNode *then = is_else ? branch : sl_cfg_node_child (branch, "then");
      SlFilterExpr *e = NULL;
      if (cond)
        {
          if (!cond->children || cond->children->len != 1)
            {
              sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, cond->pos, _("an if needs one condition"));
              ok = FALSE;
              break;
            }
          e = sl_filter_expr_compile (c->cfg, g_ptr_array_index (cond->children, 0), error);
          if (!e)
            {
              ok = FALSE;
              break;
            }
        }
      SlPath *p = then ? compile_path (c, then, FALSE, flow, error) : NULL;
      if (!p)
        {
          if (e)
            sl_filter_expr_free (e);
          ok = FALSE;
          break;
        }
      if (e)
        {
          SlStep s = { .kind = SL_STEP_FILTER, .filter = e };
          g_array_prepend_val (p->steps, s);
          p->conditional = TRUE;
        }
      p->final = TRUE;
      g_ptr_array_add (junction->paths, p);
    }
  if (ok && !has_else)
    {
      SlPath *otherwise = g_new0 (SlPath, 1);
      otherwise->steps = g_array_new (FALSE, TRUE, sizeof (SlStep));
      otherwise->final = TRUE;
      g_ptr_array_add (junction->paths, otherwise);
    }
  g_ptr_array_unref (branches);
  return ok;
}

/* `junction { channel { ... }; ... };`: every channel gets the message, in
 * order (flags(final) and flags(fallback) as among log paths), and what a
 * channel lets through goes on past the junction. */
static gboolean
add_junction (Compiler *c, SlPath *path, const SlCfgNode *node, gboolean flow, GError **error)
{
  SlStep *junction = add_junction_step (path);
  for (guint i = 0; node->children && i < node->children->len; i++)
    {
      SlPath *channel = compile_path (c, g_ptr_array_index (node->children, i), FALSE, flow, error);
      if (!channel)
        return FALSE;
      g_ptr_array_add (junction->paths, channel);
    }
  return TRUE;
}

/* Groups: the SlSource/SlDestination objects of a named or inline source
 * or destination, made on first use. A channel inside one is compiled as a
 * path of its own, so making groups and compiling paths call each other. */
static SlPath *compile_channel (SlConfig *cfg, const SlCfgNode *channel, GPtrArray *sources, GError **error);
static const SlCfgNode *
group_body (SlConfig *cfg, const gchar *kind, const gchar *name, const SlCfgNode *body)
{
  return body ? body : sl_config_find_object (cfg, kind, name);
}

/* `source s { channel { source { ... }; parser { ... }; }; };`: the
 * channel's sources are the group's, and their messages go through the
 * channel before the paths that take the group (sl_path_compile_all). */
static gboolean
add_source_channel (SlConfig *cfg, GPtrArray *group, const SlCfgNode *node, GError **error)
{
  GPtrArray *sources = g_ptr_array_new ();
  SlPath *channel = compile_channel (cfg, node, sources, error);
  if (channel)
    {
      g_ptr_array_add (cfg->channels, channel);
      for (guint s = 0; s < sources->len; s++)
        {
          SlSource *src = g_ptr_array_index (sources, s);
          g_hash_table_insert (cfg->source_entries, src, channel);
          if (!g_ptr_array_find (group, src, NULL))
            g_ptr_array_add (group, src);
        }
    }
  g_ptr_array_unref (sources);
  return channel != NULL;
}

static GPtrArray *
source_group (SlConfig *cfg, const gchar *name, const SlCfgNode *body, GError **error)
{
  gchar *key = sl_cfg_name_normalize (name);
  GPtrArray *group = g_hash_table_lookup (cfg->source_groups, key);
  if (group)
    {
      g_free (key);
      return group;
    }
  body = group_body (cfg, "source", name, body);
  if (!body)
    {
      g_free (key);
      return NULL;
    }
  group = g_ptr_array_new ();
  g_hash_table_insert (cfg->source_groups, key, group);
  for (guint i = 0; body->children && i < body->children->len; i++)
    {
      const SlCfgNode *node = g_ptr_array_index (body->children, i);
      if (node->has_body && sl_cfg_name_equal (node->name, "channel"))
        {
          if (!add_source_channel (cfg, group, node, error))
            return NULL;
          continue;
        }
      gchar *reuse = sl_config_reuse_key (cfg, "source", name, i, node);
      SlSource *src = sl_config_borrow (cfg, reuse);
      if (src)
        {
          sl_config_skip_id (cfg, SL_DRIVER_SOURCE, name);
          g_hash_table_add (cfg->borrowed, src->driver);
          src->compiled = g_ptr_array_new ();
        }
      else
        {
          SlDriver *d = sl_config_new_driver (cfg, SL_DRIVER_SOURCE, node, name, error);
          src = d ? sl_source_new (cfg, d, name, error) : NULL;
        }
      if (!src)
        {
          g_free (reuse);
          return NULL;
        }
      sl_config_keep_reusable (cfg, reuse, src, src->driver);
      g_ptr_array_add (group, src);
      g_ptr_array_add (cfg->sources, src);
    }
  return group;
}

static GPtrArray *
dest_group (SlConfig *cfg, const gchar *name, const SlCfgNode *body, GError **error)
{
  gchar *key = sl_cfg_name_normalize (name);
  GPtrArray *group = g_hash_table_lookup (cfg->dest_groups, key);
  if (group)
    {
      g_free (key);
      return group;
    }
  body = group_body (cfg, "destination", name, body);
  if (!body)
    {
      g_free (key);
      return NULL;
    }
  group = g_ptr_array_new ();
  g_hash_table_insert (cfg->dest_groups, key, group);
  for (guint i = 0; body->children && i < body->children->len; i++)
    {
      const SlCfgNode *node = g_ptr_array_index (body->children, i);
      if (node->has_body && sl_cfg_name_equal (node->name, "channel"))
        {
          SlPath *channel = compile_channel (cfg, node, NULL, error);
          if (!channel)
            return NULL;
          g_ptr_array_add (cfg->channels, channel);
          GPtrArray *channels = g_hash_table_lookup (cfg->dest_channels, group);
          if (!channels)
            {
              channels = g_ptr_array_new ();
              g_hash_table_insert (cfg->dest_channels, group, channels);
            }
          g_ptr_array_add (channels, channel);
          continue;
        }
      gchar *reuse = sl_config_reuse_key (cfg, "destination", name, i, node);
      SlDestination *kept = sl_config_borrow (cfg, reuse);
      if (kept)
        {
          sl_config_skip_id (cfg, SL_DRIVER_DESTINATION, name);
          GPtrArray *drivers = sl_destination_drivers (kept);
          for (guint w = 0; w < drivers->len; w++)
            g_hash_table_add (cfg->borrowed, g_ptr_array_index (drivers, w));
          g_hash_table_insert (cfg->reusable, reuse, kept);
          g_ptr_array_add (group, kept);
          g_ptr_array_add (cfg->destinations, kept);
          continue;
        }
      SlDriver *d = sl_config_new_driver (cfg, SL_DRIVER_DESTINATION, node, name, error);
      if (!d)
        {
          g_free (reuse);
          return NULL;
        }
      const SlDestinationOptions *o = sl_driver_destination_options (d);
      GPtrArray *workers = g_ptr_array_new ();
      g_ptr_array_add (workers, d);
      for (gint w = 1; w < o->workers; w++)
        {
          SlDriver *worker = sl_config_new_driver_with_id (cfg, d->klass, node, d->id, error);
          if (!worker)
            {
              g_ptr_array_unref (workers);
              return NULL;
            }
          g_ptr_array_add (workers, worker);
        }
      /* Those without mark-mode() write every MARK and make none, as
       * syslog-ng's destinations that have no log writer. */
      SlDestinationOptions resolved = *o;
      if (!(d->klass->capabilities & SL_CAP_MARKS))
        resolved.mark_mode = SL_MARK_INTERNAL;
      else if (resolved.mark_mode == SL_MARK_GLOBAL)
        resolved.mark_mode = cfg->daemon.mark_mode;
      SlDestination *dest = sl_destination_new (workers, &resolved);
      sl_config_keep_reusable (cfg, reuse, dest, d);
      g_ptr_array_add (group, dest);
      g_ptr_array_add (cfg->destinations, dest);
    }
  return group;
}

typedef GPtrArray *(*GroupFunc) (SlConfig *cfg, const gchar *name, const SlCfgNode *body, GError **error);

/* The group source(NAME) or destination(NAME) names, or the one an inline
 * source { ... } or destination { ... } makes. */
static GPtrArray *
find_group (Compiler *c, const SlCfgNode *node, const gchar *kind_word, GroupFunc group_of, SlTapPoint **tap,
            GError **error)
{
  const gchar *name = node->has_body ? NULL : sl_cfg_node_arg (node, 0);
  if (!node->has_body && !name)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, node->pos, _("%s() needs the name of a %s"), kind_word, kind_word);
      return NULL;
    }
  gchar *anon = name ? NULL : sl_config_anonymous_name (c->cfg, kind_word);
  GPtrArray *group = group_of (c->cfg, name ? name : anon, name ? NULL : node, error);
  if (!group && name && error && *error == NULL)
    sl_config_set_no_object_error (c->cfg, error, node->pos, kind_word, name);
  if (group)
    *tap = tap_point (c->cfg, kind_word, name ? name : anon);
  g_free (anon);
  return group;
}

static gboolean
add_source (Compiler *c, const SlCfgNode *node, gboolean top, GError **error)
{
  if (!top)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, node->pos,
                        _("a nested log path takes the sources of the path around it; move source() there"));
      return FALSE;
    }
  /* the point is known to cfg now; its sources pass messages to it */
  SlTapPoint *tap;
  GPtrArray *group = find_group (c, node, "source", source_group, &tap, error);
  if (!group)
    return FALSE;
  for (guint i = 0; i < group->len; i++)
    g_ptr_array_add (c->sources, g_ptr_array_index (group, i));
  return TRUE;
}

static gboolean
add_destination (Compiler *c, SlPath *path, const SlCfgNode *node, GError **error)
{
  SlTapPoint *tap;
  GPtrArray *group = find_group (c, node, "destination", dest_group, &tap, error);
  if (!group)
    return FALSE;
  add_destinations (path, group, tap);
  /* a destination object's channels each get the message as nested paths
   * do: what they change stays theirs */
  GPtrArray *channels = g_hash_table_lookup (c->cfg->dest_channels, group);
  if (channels)
    {
      SlStep s = { .kind = SL_STEP_PATHS, .paths = g_ptr_array_ref (channels), .shared = TRUE };
      g_array_append_val (path->steps, s);
    }
  return TRUE;
}

static gboolean
add_nested (Compiler *c, SlPath *path, const SlCfgNode *node, gboolean flow, GError **error)
{
  SlPath *child = compile_path (c, node, FALSE, flow, error);
  if (!child)
    return FALSE;
  SlStep *last = path->steps->len ? &g_array_index (path->steps, SlStep, path->steps->len - 1) : NULL;
  if (!last || last->kind != SL_STEP_PATHS || last->shared)
    {
      SlStep s = { .kind = SL_STEP_PATHS, .paths = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_path_free) };
      g_array_append_val (path->steps, s);
      last = &g_array_index (path->steps, SlStep, path->steps->len - 1);
    }
  g_ptr_array_add (last->paths, child);
  return TRUE;
}

/* parallelize(partitions(N) partition-key(TEMPLATE)): syslog-ng 4.8's
 * defaults and bounds; partitions(0), its default, runs the rest of the
 * path in place, so no step is made for it. */
static gboolean
add_parallelize (Compiler *c, SlPath *path, const SlCfgNode *node, GError **error)
{
  const SlOptionSpec *tables[] = { sl_scheduler_options, NULL };
  SlSchedulerOptions o = { 0 };
  SlOptions *options = sl_options_new ("parallelize()", tables, NULL, node, NULL, error);
  if (!options || !sl_options_bind (options, sl_scheduler_options, &o, &c->cfg->compiler, error))
    {
      if (options)
        sl_options_free (options);
      return FALSE;
    }
  if (!o.partitions)
    {
      sl_options_free (options);
      return TRUE;
    }
  if (o.partitions > SL_SCHEDULER_MAX_PARTITIONS)
    {
      SlCfgPos pos = sl_options_pos (options, "partitions");
      sl_log (SL_LOG_WARNING, _("%s:%d:%d: parallelize() runs at most %d partitions, as syslog-ng does; "
                                "partitions(%d) is taken as %d"),
              pos.file, pos.line, pos.column, SL_SCHEDULER_MAX_PARTITIONS, o.partitions,
              SL_SCHEDULER_MAX_PARTITIONS);
      o.partitions = SL_SCHEDULER_MAX_PARTITIONS;
    }
  SlStep s = { .kind = SL_STEP_PARALLELIZE, .partition_key = o.partition_key, .options = options,
               .scheduler = sl_scheduler_new (o.partitions, sl_route_handed_off, NULL) };
  g_array_append_val (path->steps, s);
  g_ptr_array_add (c->cfg->schedulers, s.scheduler);
  return TRUE;
}

static gboolean
compile_items (Compiler *c, SlPath *path, const SlCfgNode *node, gboolean top, GError **error)
{
  for (guint i = 0; node->children && i < node->children->len; i++)
    {
      const SlCfgNode *child = g_ptr_array_index (node->children, i);
      const gchar *n = child->name;
      gboolean ok;
      if (sl_cfg_name_equal (n, "flags") || sl_cfg_name_equal (n, "condition")
          || sl_cfg_name_equal (n, "elif") || sl_cfg_name_equal (n, "else"))
        continue;
      if (sl_cfg_name_equal (n, "source"))
        ok = add_source (c, child, top, error);
      else if (sl_cfg_name_equal (n, "destination"))
        ok = add_destination (c, path, child, error);
      else if (sl_cfg_name_equal (n, "filter"))
        ok = add_filter (c, path, child, error);
      else if (sl_cfg_name_equal (n, "parser"))
        ok = add_processors (c, path, child, "parser", SL_DRIVER_PARSER, error);
      else if (sl_cfg_name_equal (n, "rewrite"))
        ok = add_processors (c, path, child, "rewrite", SL_DRIVER_REWRITE, error);
      else if (sl_cfg_name_equal (n, "log") || sl_cfg_name_equal (n, "then") || sl_cfg_name_equal (n, "channel"))
        ok = add_nested (c, path, child, path->flow_control, error);
      else if (sl_cfg_name_equal (n, "if"))
        ok = add_if (c, path, child, path->flow_control, error);
      else if (sl_cfg_name_equal (n, "junction"))
        ok = add_junction (c, path, child, path->flow_control, error);
      else if (sl_cfg_name_equal (n, "parallelize"))
        ok = add_parallelize (c, path, child, error);
      else
        {
          static const gchar *const known[] = { "source", "destination", "filter", "parser", "rewrite", "log",
                                                "flags", "if", "junction", "channel", "parallelize" };
          const gchar *near = sl_cfg_suggest (n, known, G_N_ELEMENTS (known));
          if (near)
            sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, child->pos,
                              _("'%s' does not belong in a log path; did you mean '%s'?"), n, near);
          else
            sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, child->pos,
                              _("'%s' does not belong in a log path; it takes source, destination, filter, parser, rewrite, log, junction, if, parallelize and flags"), n);
          ok = FALSE;
        }
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

static gboolean
only_destinations (const SlPath *path)
{
  for (guint i = 0; i < path->steps->len; i++)
    if (g_array_index (path->steps, SlStep, i).kind != SL_STEP_DESTINATION)
      return FALSE;
  return path->steps->len > 0;
}

/* A nested path of destinations alone, with no sibling and no flag that
 * changes its parent's, delivers what its destinations written in the
 * parent would: they take its place, and a message skips that level of
 * routing (the rsyslog front end writes each action as such a path). */
static void
inline_destination_paths (SlPath *path)
{
  for (guint i = 0; i < path->steps->len; i++)
    {
      SlStep *s = &g_array_index (path->steps, SlStep, i);
      if (s->kind != SL_STEP_PATHS || s->shared || s->paths->len != 1)
        continue;
      SlPath *child = g_ptr_array_index (s->paths, 0);
      if (child->final || child->fallback || child->conditional || child->flow_control != path->flow_control
          || !only_destinations (child))
        continue;
      GPtrArray *paths = s->paths;
      guint n = child->steps->len;
      g_array_remove_index (path->steps, i);
      g_array_insert_vals (path->steps, i, child->steps->data, n);
      g_ptr_array_unref (paths);
      i += n - 1;
    }
}

static SlPath *
compile_path (Compiler *c, const SlCfgNode *node, gboolean top, gboolean flow, GError **error)
{
  SlPath *path = g_new0 (SlPath, 1);
  path->steps = g_array_new (FALSE, TRUE, sizeof (SlStep));

  const SlCfgNode *flags = sl_cfg_node_child (node, "flags");
  if (flags && !read_flags (flags, path, error))
    goto fail;
  path->flow_control = path->flow_control || flow;
  if (path->catchall && !top)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, flags->pos, _("catchall only applies to a top-level log path"));
      goto fail;
    }
  if (!compile_items (c, path, node, top, error))
    goto fail;
  inline_destination_paths (path);
  return path;

fail:
  sl_path_free (path);
  return NULL;
}

/* A channel inside a source or destination object, compiled on its own.
 * With sources, the source groups it names are made and added to them;
 * without, naming a source is an error. */
static SlPath *
compile_channel (SlConfig *cfg, const SlCfgNode *channel, GPtrArray *sources, GError **error)
{
  Compiler c = { cfg, sources };
  /* `channel { log { source {...}; ... }; }` (the SCL's nodejs()): a
   * junction of one path is that path */
  while (channel->children && channel->children->len == 1)
    {
      const SlCfgNode *only = g_ptr_array_index (channel->children, 0);
      if (!only->has_body || !(sl_cfg_name_equal (only->name, "log") || sl_cfg_name_equal (only->name, "channel")))
        break;
      channel = only;
    }
  return compile_path (&c, channel, sources != NULL, FALSE, error);
}

/* A source of a channel in a source object routes through one path: the
 * channel as a junction of one, whose message goes on to the source's
 * paths. */
static void
through_channel (SlConfig *cfg, SlSource *src, SlPath *channel)
{
  SlPath *entry = g_new0 (SlPath, 1);
  entry->steps = g_array_new (FALSE, TRUE, sizeof (SlStep));
  SlStep junction = { .kind = SL_STEP_JUNCTION, .paths = g_ptr_array_new (), .shared = TRUE };
  g_ptr_array_add (junction.paths, channel);
  SlStep rest = { .kind = SL_STEP_PATHS, .paths = src->compiled, .shared = TRUE };
  g_array_append_val (entry->steps, junction);
  g_array_append_val (entry->steps, rest);
  g_ptr_array_add (cfg->channels, entry);
  src->compiled = g_ptr_array_new ();
  g_ptr_array_add (src->compiled, entry);
}

gboolean
sl_path_compile_all (SlConfig *cfg, GError **error)
{
  guint index = 0;
  for (guint i = 0; cfg->tree->children && i < cfg->tree->children->len; i++)
    {
      const SlCfgNode *node = g_ptr_array_index (cfg->tree->children, i);
      if (!sl_cfg_name_equal (node->name, "log"))
        continue;
      Compiler c = { cfg, g_ptr_array_new () };
      SlPath *path = compile_path (&c, node, TRUE, FALSE, error);
      if (!path)
        {
          g_ptr_array_unref (c.sources);
          return FALSE;
        }
      gchar *id = g_strdup_printf ("log#%u", index++);
      path->matched = sl_stats_counter ("path", id, "", "matched");
      g_free (id);
      g_ptr_array_add (cfg->paths, path);
      cfg->has_catchall = cfg->has_catchall || path->catchall;
      for (guint s = 0; s < c.sources->len; s++)
        {
          SlSource *src = g_ptr_array_index (c.sources, s);
          if (!g_ptr_array_find (src->compiled, path, NULL))
            g_ptr_array_add (src->compiled, path);
        }
      g_ptr_array_unref (c.sources);
    }
  if (cfg->has_catchall)
    {
      /* A catchall path takes every source, including ones no other path
       * names; the paths of each source must stay in configuration order. */
      GHashTableIter it;
      gpointer key, value;
      g_hash_table_iter_init (&it, cfg->objects);
      while (g_hash_table_iter_next (&it, &key, &value))
        if (g_str_has_prefix (key, "source/"))
          if (!source_group (cfg, sl_cfg_node_arg (value, 0), NULL, error))
            return FALSE;
      for (guint s = 0; s < cfg->sources->len; s++)
        {
          SlSource *src = g_ptr_array_index (cfg->sources, s);
          GPtrArray *named = src->compiled;
          src->compiled = g_ptr_array_new ();
          for (guint p = 0; p < cfg->paths->len; p++)
            {
              SlPath *path = g_ptr_array_index (cfg->paths, p);
              if (path->catchall || g_ptr_array_find (named, path, NULL))
                g_ptr_array_add (src->compiled, path);
            }
          g_ptr_array_unref (named);
        }
    }
  for (guint s = 0; s < cfg->sources->len; s++)
    {
      SlSource *src = g_ptr_array_index (cfg->sources, s);
      SlPath *entry = g_hash_table_lookup (cfg->source_entries, src);
      if (entry && src->compiled->len)
        through_channel (cfg, src, entry);
    }
  return TRUE;
}
