/* sl-session-file.h: where one was in a timeline, saved to a small file
 * and read back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "sl-timeline.h"

G_BEGIN_DECLS

#define SL_SESSION_FILE_SUFFIX ".syncline"

/**
 * SlRowRef:
 * @kind: a #SlTimelineRowKind
 * @host: its host's name
 * @id: a thread's or process's id (tid, pid), a CPU's number
 * @time: a local time of the row (its first), which tells apart two
 *   threads of a reused id
 *
 * A timeline row named so that it is found again in the same inputs read
 * again (row numbers are an order of reading).
 */
typedef struct
{
  SlTimelineRowKind kind;
  char             *host;
  guint32           id;
  gint64            time;
} SlRowRef;

/**
 * SlSessionBookmark:
 * @name: its name
 * @host: the host whose clock @local is on
 * @local: the time marked
 */
typedef struct
{
  char   *name;
  char   *host;
  gint64  local;
} SlSessionBookmark;

/**
 * SlSessionFile:
 * @inputs: the trace folders, files and relay URLs read
 * @reference: the reference host pinned, or %NULL
 * @synchronized: whether the timeline was on the reference clock
 * @span_host: the host whose clock the span is on (the first one), %NULL
 *   when no span
 * @span_start: the span's start, on @span_host's own clock
 * @span_end: its end
 * @selection_start: the selected time range, on @span_host's clock (equal
 *   ends: none)
 * @selection_end: its end
 * @filters: #SlTimelineRowFilterFlags
 * @tree_host: the process tree kept, its host's name (%NULL: none)
 * @tree_pid: its root process
 * @pins: (element-type SlRowRef): rows pinned
 * @has_row: whether @row is a selected row
 * @row: the selected row
 * @has_message: whether a message was selected
 * @message_send_host: its sender's name
 * @message_recv_host: its receiver's
 * @message_send_time: its send time (local)
 * @message_recv_time: its receive time (local)
 * @bookmarks: (element-type SlSessionBookmark): the bookmarks
 *
 * Everything is named by host names and local times, which stay when the
 * inputs are read again (even when another reference is chosen).
 */
typedef struct
{
  GStrv     inputs;
  char     *reference;
  gboolean  synchronized;
  char     *span_host;
  gint64    span_start;
  gint64    span_end;
  gint64    selection_start;
  gint64    selection_end;
  guint     filters;
  char     *tree_host;
  guint32   tree_pid;
  GArray   *pins;
  gboolean  has_row;
  SlRowRef  row;
  gboolean  has_message;
  char     *message_send_host;
  char     *message_recv_host;
  gint64    message_send_time;
  gint64    message_recv_time;
  GArray   *bookmarks;
} SlSessionFile;

SlSessionFile *sl_session_file_new           (void);
void           sl_session_file_free          (SlSessionFile       *self);
/**
 * sl_session_file_load:
 *
 * Reads @path. Errors name the file and what is wrong in it (a missing
 * inputs line, a number that is not one); what a newer version adds is
 * left out.
 */
SlSessionFile *sl_session_file_load          (const char          *path,
                                              GError             **error);
gboolean       sl_session_file_save          (const SlSessionFile *self,
                                              const char          *path,
                                              GError             **error);
/**
 * sl_session_file_is_one:
 *
 * Returns: whether @path names a session file (by its suffix)
 */
gboolean       sl_session_file_is_one        (const char          *path);
void           sl_row_ref_clear              (SlRowRef            *ref);
/**
 * sl_row_ref_set:
 *
 * Names @row of @timeline in @ref.
 */
void           sl_row_ref_set                (SlRowRef            *ref,
                                              const SlTimeline    *timeline,
                                              guint                row);
/**
 * sl_row_ref_find:
 *
 * Returns: the row @ref names in @timeline, or %SL_TIMELINE_NONE
 */
guint          sl_row_ref_find               (const SlRowRef      *ref,
                                              const SlTimeline    *timeline);
/**
 * sl_timeline_find_host_by_name:
 *
 * Returns: the host of @timeline named @name, or %SL_TIMELINE_NONE
 */
guint          sl_timeline_find_host_by_name (const SlTimeline    *timeline,
                                              const char          *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlSessionFile, sl_session_file_free)

G_END_DECLS
