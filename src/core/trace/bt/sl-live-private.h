/* sl-live-private.h: the live reader's parts
 *
 * sl-live-sessions.c parses relay URLs and lists a relay's sessions,
 * sl-live-attach.c runs one attachment (a syncline-decoder process read on
 * its own thread), sl-live.c discovers sessions, merges on the engine
 * thread, delivers updates and answers the public API.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stdatomic.h>

#include "sl-decoder.h"
#include "sl-feed.h"
#include "sl-live.h"

G_BEGIN_DECLS

typedef struct
{
  char *relay;
  char *hostname;
  char *session;
} Target;

typedef struct _LiveHost LiveHost;

/* An earlier segment of a host whose clock stepped (its session created
 * again with another clock offset): the engine host and store its events
 * went to. */
typedef struct
{
  guint         engine_host;
  SlEventStore *store;
  gboolean      store_owned;
} LiveSegment;

struct _LiveHost
{
  SlLive          *live;
  guint            index;
  char            *hostname;
  char            *session;
  char            *url;
  SlFeed          *feed;

  /* the host's thread */
  GThread         *thread;
  SlEventStore    *store;
  gboolean         store_owned;
  SlDecoderTarget  target;
  gint64           last_publish;
  guint64          out_of_span;

  /* under the hub lock */
  atomic_int       stop;
  gboolean         running;
  SlDecoder       *decoder;
  guint            engine_host;
  gint64           last_progress;
  SlLiveHostState  state;
  char            *message;
  gboolean         stalled_reported;
  /* when the stall was reported, and when the relay last sent the
   * attachment's decoder anything (0: not known), monotonic */
  gint64           stalled_at;
  gint64           answered;
  /* the relay closed the session (destroyed): listed again, it is the
   * session created again under the same name, attached again */
  gboolean         session_ended;
  guint            reattached;
  /* when the attachment's thread last finished (monotonic): a session list
   * asked for before that may still show the session it read, its own
   * viewer among the clients */
  gint64           ended_at;
  /* attached again to an ended session listed again: the host stays
   * "ended", without a word, until the attachment's first event says
   * that the session was created again */
  gboolean         probing;
  guint64          probe_events;
  /* detached on request (sl_live_remove_url()): kept, not attached again
   * until an URL asks for it again */
  gboolean         detached;
  /* the clock offset (ns) of the session attached last, from the
   * decoder's first clock; a new session whose offset differs by more than
   * SL_LIVE_STEP_TOLERANCE_NS makes a new segment (segment_wanted until
   * the engine thread has registered it; the attachment waits) */
  gboolean         has_clock;
  gint64           clock_offset_ns;
  gboolean         segment_wanted;
  gint64           step_ns;
  GArray          *segments;
  /* why nothing of it could be read while it has no event (the first
   * problem that kept it from being read: another viewer, cannot attach,
   * lost or ended before any event), and whether the engine has it */
  char            *unread;
  gboolean         unread_given;
};

/* as the folder reader's (sl-trace-group.c) */
#define SL_LIVE_STEP_TOLERANCE_NS 1000

struct _SlLive
{
  atomic_int        ref_count;
  SlEngine         *engine;
  SlLiveOptions     options;
  SlFeedHub        *hub;
  SlProblemList    *problems;

  /* under the hub lock */
  GPtrArray        *targets;
  GPtrArray        *hosts;
  /* attachment URLs detached on request that a broader target still
   * matches */
  GHashTable       *excluded;
  /* hostname → its history's store, continued by the host's first
   * attachment (sl_live_add_history()) */
  GHashTable       *history;
  gboolean          started;
  gboolean          stopping;
  gboolean          hosts_changed;
  gboolean          discover_now;
  gboolean          relay_answered;

  GThread          *engine_thread;
  GThread          *discover_thread;
  GMutex            engine_lock;
  SlLiveUpdateFunc  func;
  gpointer          func_data;

  /* engine thread */
  guint64           journal_sent;
  guint64           packets_fed;
  guint64           packets_sent;
  gint64            first_arrival;
  gint64            last_update;
};

typedef gboolean (*SlLiveAbort) (gpointer data);

void       sl_live_unref            (SlLive         *self);
void       sl_live_add_problem      (SlLive         *self,
                                     const char     *host,
                                     const char     *file,
                                     const char     *fmt,
                                     ...) G_GNUC_PRINTF (4, 5);
void       sl_live_target_free      (gpointer        p);
void       sl_live_host_unread_locked (LiveHost     *h,
                                       const char   *fmt,
                                       ...) G_GNUC_PRINTF (2, 3);
GPtrArray *sl_live_query_sessions   (const char     *relay,
                                     guint           timeout_ms,
                                     SlLiveAbort     abort_func,
                                     gpointer        abort_data,
                                     GError        **error);

LiveHost  *sl_live_attach_new_locked   (SlLive     *self,
                                       const char *relay,
                                       const char *hostname,
                                       const char *session);
void       sl_live_attach_free         (LiveHost   *h);
void       sl_live_attach_start_locked (SlLive     *self,
                                       LiveHost   *h);
void       sl_live_attach_stop_locked  (LiveHost   *h);

G_END_DECLS
