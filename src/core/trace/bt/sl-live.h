/* sl-live.h: live LTTng sessions streamed through lttng-relayd
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "sl-engine.h"
#include "sl-event-store.h"
#include "sl-trace-reader.h"

G_BEGIN_DECLS

#define SL_LIVE_DEFAULT_PORT 5344

/**
 * SlLiveSession:
 * @url: the URL that attaches to this session on this host
 *   (`net://RELAY:PORT/host/HOST/SESSION`)
 * @hostname: the traced host
 * @session: the recording session's name
 * @streams: streams the relay holds for it
 * @clients: viewers attached now
 * @timer_us: the session's live timer (µs)
 *
 * One row of a relay's session list.
 */
typedef struct
{
  char    *url;
  char    *hostname;
  char    *session;
  guint64  streams;
  guint64  clients;
  guint64  timer_us;
} SlLiveSession;

void        sl_live_session_free          (SlLiveSession        *session);

gboolean    sl_live_parse_url             (const char           *url,
                                           char                **relay,
                                           char                **hostname,
                                           char                **session,
                                           GError              **error);
char      **sl_live_urls_after_detach     (const char * const   *inputs,
                                           const char           *removed,
                                           const char * const   *attached);
void        sl_live_list_sessions_async   (const char           *url,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
GPtrArray  *sl_live_list_sessions_finish  (GAsyncResult         *result,
                                           GError              **error);
GPtrArray  *sl_live_list_sessions         (const char           *url,
                                           GCancellable         *cancellable,
                                           GError              **error);

/**
 * SlLiveOptions:
 * @poll_ms: pause after the relay had nothing new for a host
 * @update_ms: an update is due this long after the previous one, or after
 *   the oldest packet event it reflects arrived (coalescing; at most four
 *   updates per @update_ms)
 * @discover_ms: how often the relay's session list is read again, to pick
 *   up hosts that join later and to retry what failed
 * @stall_ms: a host whose relay answers nothing for this long is reported
 *   stalled
 * @hold_ms: longest time a packet event waits for slower hosts before it
 *   is given to the engine anyway
 * @keep_events: keep each host's scheduling, system call, interrupt and
 *   packet events in an #SlEventStore (sl_live_get_event_store()); memory
 *   then grows with the session
 */
typedef struct
{
  guint poll_ms;
  guint update_ms;
  guint discover_ms;
  guint stall_ms;
  guint hold_ms;
  gboolean keep_events;
} SlLiveOptions;

typedef enum
{
  SL_LIVE_HOST_CONNECTING,
  SL_LIVE_HOST_STREAMING,
  SL_LIVE_HOST_STALLED,
  SL_LIVE_HOST_WAITING,
  SL_LIVE_HOST_ENDED,
  SL_LIVE_HOST_FAILED,
} SlLiveHostState;

/**
 * SlLiveHost:
 * @engine_host: the host's index in the engine
 * @hostname: the host's name
 * @url: the attachment
 * @state: what the host's worker is doing
 * @message: why, for the waiting, stalled, ended and failed states
 * @events: events received
 * @packets: packet events given to the engine
 * @watermark: local time up to which everything of the host is known
 * @last_fed: local time of the newest packet event given to the engine
 *   (filled in updates only)
 */
typedef struct
{
  guint            engine_host;
  char            *hostname;
  char            *url;
  SlLiveHostState  state;
  char            *message;
  guint64          events;
  guint64          packets;
  gint64           watermark;
  gint64           last_fed;
} SlLiveHost;

/**
 * SlLiveUpdate:
 * @wall_time: g_get_real_time() when the update was made
 * @journal_first: first journal sequence number of this update
 * @journal_next: one past the last; entries between them are read from
 *   the engine's journal during the callback
 * @packets: packet events given to the engine so far
 * @events: events received so far, all hosts
 * @first_arrival: monotonic time (g_get_monotonic_time()) at which the
 *   oldest packet event reflected by this update came out of babeltrace,
 *   0 when the update reflects no new packet event
 * @made: monotonic time at which the update was made
 * @hosts: an #SlLiveHost per attachment, in attachment order
 * @problems: #SlTraceProblem raised since the previous update
 * @final: the last update, after sl_live_stop()
 */
typedef struct
{
  gint64      wall_time;
  guint64     journal_first;
  guint64     journal_next;
  guint64     packets;
  guint64     events;
  gint64      first_arrival;
  gint64      made;
  GPtrArray  *hosts;
  GPtrArray  *problems;
  gboolean    final;
} SlLiveUpdate;

typedef struct _SlLive SlLive;

/**
 * SlLiveUpdateFunc:
 *
 * Called on the live engine thread, with the engine locked: read what is
 * needed from @engine and return quickly. Bursts of changes are coalesced
 * into one call (see #SlLiveOptions.update_ms).
 */
typedef void (*SlLiveUpdateFunc) (SlLive             *live,
                                  SlEngine           *engine,
                                  const SlLiveUpdate *update,
                                  gpointer            user_data);

void           sl_live_options_init     (SlLiveOptions        *options);
SlLive        *sl_live_new              (SlEngine             *engine,
                                         const SlLiveOptions  *options);
void           sl_live_free             (SlLive               *self);
void           sl_live_add_history      (SlLive               *self,
                                         const char           *hostname,
                                         SlEventStore         *store);
gboolean       sl_live_add_url          (SlLive               *self,
                                         const char           *url,
                                         GError              **error);
guint          sl_live_remove_url       (SlLive               *self,
                                         const char           *url);
void           sl_live_set_update_func  (SlLive               *self,
                                         SlLiveUpdateFunc      func,
                                         gpointer              user_data);
void           sl_live_start            (SlLive               *self);
void           sl_live_stop             (SlLive               *self);
void           sl_live_reconnect        (SlLive               *self);
const SlEventStore *sl_live_get_event_store (SlLive          *self,
                                             guint            engine_host);
void           sl_live_lock             (SlLive               *self);
void           sl_live_unlock           (SlLive               *self);
GPtrArray     *sl_live_dup_hosts        (SlLive               *self);
GPtrArray     *sl_live_dup_problems     (SlLive               *self);
gboolean       sl_live_get_connected    (SlLive               *self);

void           sl_live_host_free        (SlLiveHost           *host);
const char    *sl_live_host_state_to_string (SlLiveHostState   state);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlLiveSession, sl_live_session_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlLive, sl_live_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlLiveHost, sl_live_host_free)

G_END_DECLS
