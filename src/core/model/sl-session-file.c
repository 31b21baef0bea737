/* sl-session-file.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A key file: [Session] (inputs, reference, clock), [View] (span,
 * selection, filters, process tree), one group per pinned row, the
 * selected row and message, one per bookmark.
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include "sl-session-file.h"

#define VERSION 1

static const char *const kind_names[] = { "host", "process", "thread", "cpu" };
static const char *const filter_names[] = { "hide-idle", "hide-kernel", "only-messages" };

static void
bookmark_clear (gpointer p)
{
  SlSessionBookmark *b = p;

  g_free (b->name);
  g_free (b->host);
}

static void
row_ref_clear_cb (gpointer p)
{
  sl_row_ref_clear (p);
}

SlSessionFile *
sl_session_file_new (void)
{
  SlSessionFile *self = g_new0 (SlSessionFile, 1);

  self->synchronized = TRUE;
  self->pins = g_array_new (FALSE, TRUE, sizeof (SlRowRef));
  g_array_set_clear_func (self->pins, row_ref_clear_cb);
  self->bookmarks = g_array_new (FALSE, TRUE, sizeof (SlSessionBookmark));
  g_array_set_clear_func (self->bookmarks, bookmark_clear);
  return self;
}

void
sl_session_file_free (SlSessionFile *self)
{
  if (self == NULL)
    return;
  g_strfreev (self->inputs);
  g_free (self->reference);
  g_free (self->span_host);
  g_free (self->tree_host);
  g_array_unref (self->pins);
  sl_row_ref_clear (&self->row);
  g_free (self->message_send_host);
  g_free (self->message_recv_host);
  g_array_unref (self->bookmarks);
  g_free (self);
}

void
sl_row_ref_clear (SlRowRef *ref)
{
  g_return_if_fail (ref != NULL);

  g_clear_pointer (&ref->host, g_free);
}

gboolean
sl_session_file_is_one (const char *path)
{
  return path != NULL && g_str_has_suffix (path, SL_SESSION_FILE_SUFFIX) &&
         g_file_test (path, G_FILE_TEST_IS_REGULAR);
}

guint
sl_timeline_find_host_by_name (const SlTimeline *timeline,
                               const char       *name)
{
  g_return_val_if_fail (timeline != NULL, SL_TIMELINE_NONE);

  for (guint h = 0; name != NULL && h < sl_timeline_get_n_hosts (timeline); h++)
    {
      SlTimelineRowInfo hi;
      guint row = sl_timeline_get_host_row (timeline, h);

      if (row == SL_TIMELINE_NONE)
        continue;
      sl_timeline_get_row_info (timeline, row, &hi);
      if (g_strcmp0 (hi.name, name) == 0)
        return h;
    }
  return SL_TIMELINE_NONE;
}

void
sl_row_ref_set (SlRowRef         *ref,
                const SlTimeline *timeline,
                guint             row)
{
  SlTimelineRowInfo ri, hi;

  g_return_if_fail (ref != NULL);
  g_return_if_fail (timeline != NULL);
  g_return_if_fail (row < sl_timeline_get_n_rows (timeline));

  sl_timeline_get_row_info (timeline, row, &ri);
  sl_timeline_get_row_info (timeline, sl_timeline_get_host_row (timeline, ri.host), &hi);
  sl_row_ref_clear (ref);
  ref->kind = ri.kind;
  ref->host = g_strdup (hi.name);
  ref->id = ri.kind == SL_TIMELINE_ROW_CPU ? ri.cpu : ri.tid;
  ref->time = ri.first;
}

guint
sl_row_ref_find (const SlRowRef   *ref,
                 const SlTimeline *timeline)
{
  guint host, best = SL_TIMELINE_NONE;
  gint64 best_first = G_MININT64;

  g_return_val_if_fail (ref != NULL, SL_TIMELINE_NONE);
  g_return_val_if_fail (timeline != NULL, SL_TIMELINE_NONE);

  host = sl_timeline_find_host_by_name (timeline, ref->host);
  if (host == SL_TIMELINE_NONE)
    return SL_TIMELINE_NONE;
  if (ref->kind == SL_TIMELINE_ROW_HOST)
    return sl_timeline_get_host_row (timeline, host);
  if (ref->kind == SL_TIMELINE_ROW_CPU)
    return sl_timeline_find_cpu (timeline, host, ref->id);
  /* the row of that id that began at that time, else the last that began
   * before it, else the first */
  for (guint r = 0; r < sl_timeline_get_n_rows (timeline); r++)
    {
      SlTimelineRowInfo ri;

      sl_timeline_get_row_info (timeline, r, &ri);
      if (ri.kind != ref->kind || ri.host != host || ri.tid != ref->id)
        continue;
      if (ri.first == ref->time)
        return r;
      if (best == SL_TIMELINE_NONE || (ri.first <= ref->time && ri.first > best_first))
        {
          best = r;
          best_first = ri.first;
        }
    }
  return best;
}

/* Reading */

static gboolean
get_int64 (GKeyFile    *kf,
           const char  *group,
           const char  *key,
           gint64      *out,
           const char  *path,
           GError     **error)
{
  g_autofree char *text = g_key_file_get_value (kf, group, key, NULL);
  char *end = NULL;

  if (text == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: [%s] has no %s", path, group, key);
      return FALSE;
    }
  errno = 0;
  *out = g_ascii_strtoll (g_strstrip (text), &end, 10);
  if (errno != 0 || end == text || *end != '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: [%s] %s: “%s” is not a number of ns", path,
                   group, key, text);
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_row (GKeyFile    *kf,
          const char  *group,
          SlRowRef    *ref,
          const char  *path,
          GError     **error)
{
  g_autofree char *kind = g_key_file_get_string (kf, group, "Kind", NULL);
  gint64 id;
  guint k;

  for (k = 0; k < G_N_ELEMENTS (kind_names); k++)
    if (g_strcmp0 (kind, kind_names[k]) == 0)
      break;
  if (k == G_N_ELEMENTS (kind_names))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: [%s] Kind: “%s” is not a row's kind", path,
                   group, kind != NULL ? kind : "");
      return FALSE;
    }
  ref->kind = k;
  ref->host = g_key_file_get_string (kf, group, "Host", NULL);
  if (ref->host == NULL || !get_int64 (kf, group, "Id", &id, path, error) ||
      !get_int64 (kf, group, "Time", &ref->time, path, error))
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: [%s] has no Host", path, group);
      return FALSE;
    }
  if (id < 0 || id > G_MAXUINT32)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: [%s] Id: %" G_GINT64_FORMAT " is out of range",
                   path, group, id);
      return FALSE;
    }
  ref->id = (guint32) id;
  return TRUE;
}

SlSessionFile *
sl_session_file_load (const char  *path,
                      GError     **error)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autoptr(SlSessionFile) self = sl_session_file_new ();
  g_autoptr(GError) local = NULL;
  g_auto(GStrv) groups = NULL;
  g_auto(GStrv) filters = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_key_file_load_from_file (kf, path, G_KEY_FILE_NONE, &local))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s", path, local->message);
      return NULL;
    }
  self->inputs = g_key_file_get_string_list (kf, "Session", "Inputs", NULL, NULL);
  if (self->inputs == NULL || self->inputs[0] == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: not a Syncline session (no [Session] Inputs)",
                   path);
      return NULL;
    }
  self->reference = g_key_file_get_string (kf, "Session", "Reference", NULL);
  if (g_key_file_has_key (kf, "Session", "Synchronized", NULL))
    self->synchronized = g_key_file_get_boolean (kf, "Session", "Synchronized", NULL);

  self->span_host = g_key_file_get_string (kf, "View", "Host", NULL);
  if (self->span_host != NULL &&
      (!get_int64 (kf, "View", "Start", &self->span_start, path, error) ||
       !get_int64 (kf, "View", "End", &self->span_end, path, error)))
    return NULL;
  if (self->span_host != NULL && g_key_file_has_key (kf, "View", "SelectionStart", NULL) &&
      (!get_int64 (kf, "View", "SelectionStart", &self->selection_start, path, error) ||
       !get_int64 (kf, "View", "SelectionEnd", &self->selection_end, path, error)))
    return NULL;
  filters = g_key_file_get_string_list (kf, "View", "Filters", NULL, NULL);
  for (guint i = 0; filters != NULL && filters[i] != NULL; i++)
    for (guint f = 0; f < G_N_ELEMENTS (filter_names); f++)
      if (g_str_equal (filters[i], filter_names[f]))
        self->filters |= 1u << f;
  self->tree_host = g_key_file_get_string (kf, "View", "TreeHost", NULL);
  if (self->tree_host != NULL)
    {
      gint64 pid;

      if (!get_int64 (kf, "View", "TreePid", &pid, path, error))
        return NULL;
      self->tree_pid = (guint32) CLAMP (pid, 0, G_MAXUINT32);
    }

  groups = g_key_file_get_groups (kf, NULL);
  for (guint i = 0; groups[i] != NULL; i++)
    {
      const char *g = groups[i];

      if (g_str_has_prefix (g, "Pin "))
        {
          SlRowRef ref = { 0 };

          if (!read_row (kf, g, &ref, path, error))
            {
              sl_row_ref_clear (&ref);
              return NULL;
            }
          g_array_append_val (self->pins, ref);
        }
      else if (g_str_has_prefix (g, "Bookmark "))
        {
          SlSessionBookmark b = { 0 };

          b.name = g_key_file_get_string (kf, g, "Name", NULL);
          b.host = g_key_file_get_string (kf, g, "Host", NULL);
          if (b.name == NULL || b.host == NULL || !get_int64 (kf, g, "Time", &b.local, path, error))
            {
              if (error != NULL && *error == NULL)
                g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: [%s] needs a Name and a Host", path,
                             g);
              bookmark_clear (&b);
              return NULL;
            }
          g_array_append_val (self->bookmarks, b);
        }
    }
  if (g_key_file_has_group (kf, "Selected Row"))
    {
      if (!read_row (kf, "Selected Row", &self->row, path, error))
        return NULL;
      self->has_row = TRUE;
    }
  if (g_key_file_has_group (kf, "Selected Message"))
    {
      self->message_send_host = g_key_file_get_string (kf, "Selected Message", "SendHost", NULL);
      self->message_recv_host = g_key_file_get_string (kf, "Selected Message", "ReceiveHost", NULL);
      if (self->message_send_host == NULL || self->message_recv_host == NULL ||
          !get_int64 (kf, "Selected Message", "SendTime", &self->message_send_time, path, error) ||
          !get_int64 (kf, "Selected Message", "ReceiveTime", &self->message_recv_time, path, error))
        {
          if (error != NULL && *error == NULL)
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: [Selected Message] needs its hosts", path);
          return NULL;
        }
      self->has_message = TRUE;
    }
  return g_steal_pointer (&self);
}

/* Writing */

static void
set_int64 (GKeyFile   *kf,
           const char *group,
           const char *key,
           gint64      v)
{
  g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, v);

  g_key_file_set_value (kf, group, key, text);
}

static void
write_row (GKeyFile       *kf,
           const char     *group,
           const SlRowRef *ref)
{
  g_key_file_set_string (kf, group, "Kind", kind_names[MIN (ref->kind, G_N_ELEMENTS (kind_names) - 1)]);
  g_key_file_set_string (kf, group, "Host", ref->host != NULL ? ref->host : "");
  set_int64 (kf, group, "Id", ref->id);
  set_int64 (kf, group, "Time", ref->time);
}

gboolean
sl_session_file_save (const SlSessionFile *self,
                      const char          *path,
                      GError             **error)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autoptr(GStrvBuilder) filters = g_strv_builder_new ();
  g_auto(GStrv) filter_list = NULL;
  g_autofree char *data = NULL;
  gsize len;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (self->inputs != NULL, FALSE);

  g_key_file_set_integer (kf, "Session", "Version", VERSION);
  g_key_file_set_string_list (kf, "Session", "Inputs", (const char * const *) self->inputs,
                              g_strv_length (self->inputs));
  if (self->reference != NULL)
    g_key_file_set_string (kf, "Session", "Reference", self->reference);
  g_key_file_set_boolean (kf, "Session", "Synchronized", self->synchronized);

  if (self->span_host != NULL)
    {
      g_key_file_set_string (kf, "View", "Host", self->span_host);
      set_int64 (kf, "View", "Start", self->span_start);
      set_int64 (kf, "View", "End", self->span_end);
      if (self->selection_end != self->selection_start)
        {
          set_int64 (kf, "View", "SelectionStart", self->selection_start);
          set_int64 (kf, "View", "SelectionEnd", self->selection_end);
        }
    }
  for (guint f = 0; f < G_N_ELEMENTS (filter_names); f++)
    if (self->filters & (1u << f))
      g_strv_builder_add (filters, filter_names[f]);
  filter_list = g_strv_builder_end (filters);
  if (filter_list[0] != NULL)
    g_key_file_set_string_list (kf, "View", "Filters", (const char * const *) filter_list,
                                g_strv_length (filter_list));
  if (self->tree_host != NULL)
    {
      g_key_file_set_string (kf, "View", "TreeHost", self->tree_host);
      set_int64 (kf, "View", "TreePid", self->tree_pid);
    }
  for (guint i = 0; i < self->pins->len; i++)
    {
      g_autofree char *group = g_strdup_printf ("Pin %u", i);

      write_row (kf, group, &g_array_index (self->pins, SlRowRef, i));
    }
  if (self->has_row)
    write_row (kf, "Selected Row", &self->row);
  if (self->has_message)
    {
      g_key_file_set_string (kf, "Selected Message", "SendHost", self->message_send_host);
      g_key_file_set_string (kf, "Selected Message", "ReceiveHost", self->message_recv_host);
      set_int64 (kf, "Selected Message", "SendTime", self->message_send_time);
      set_int64 (kf, "Selected Message", "ReceiveTime", self->message_recv_time);
    }
  for (guint i = 0; i < self->bookmarks->len; i++)
    {
      const SlSessionBookmark *b = &g_array_index (self->bookmarks, SlSessionBookmark, i);
      g_autofree char *group = g_strdup_printf ("Bookmark %u", i);

      g_key_file_set_string (kf, group, "Name", b->name);
      g_key_file_set_string (kf, group, "Host", b->host);
      set_int64 (kf, group, "Time", b->local);
    }
  data = g_key_file_to_data (kf, &len, NULL);
  return g_file_set_contents (path, data, (gssize) len, error);
}
