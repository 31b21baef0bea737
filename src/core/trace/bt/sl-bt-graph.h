/* sl-bt-graph.h: the one babeltrace2 front end of both readers
 *
 * Private to the readers (sl-trace-reader.c, sl-live.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <babeltrace2/babeltrace.h>
#include <glib.h>

#include "sl-bt-decode.h"
#include "sl-feed.h"

G_BEGIN_DECLS

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>

/* babeltrace2 2.0.4 leaks on some error paths of its CTF decoder (a
 * message iterator that fails mid-packet loses a reference that holds the
 * whole trace; its TSDL parser leaks on syntax errors). What it allocates
 * inside these calls is not reported; our own allocations still are. */
#define BT_LEAKY(call) (__lsan_disable (), __extension__ ({ __auto_type r_ = (call); __lsan_enable (); r_; }))
#else
#define BT_LEAKY(call) (call)
#endif

/* babeltrace2's reference counts are not atomic: whatever creates or
 * destroys components, graphs or query executors holds this lock. */
extern GMutex sl_bt_lock;

typedef enum
{
  SL_BT_SOURCE_FS,
  SL_BT_SOURCE_LIVE,
} SlBtSourceKind;

const bt_component_class_source *sl_bt_get_source_class (SlBtSourceKind   kind,
                                                         const char     **why);
char                            *sl_bt_take_error       (void);

typedef struct _SlBtGraph SlBtGraph;

/* One input of a trace-folder graph stopped on babeltrace's error; the
 * others go on. */
typedef void (*SlBtInputFailedFunc) (SlBtGraph  *graph,
                                     guint       input,
                                     guint64     packet,
                                     const char *why,
                                     gpointer    user_data);
/* A packet of an input began (its count from 1). */
typedef void (*SlBtPacketFunc)      (SlBtGraph  *graph,
                                     guint       input,
                                     guint64     packet,
                                     gpointer    user_data);
/* The first packet event of an event class that could not be read, in
 * @file: @why says which event and field ("net_dev_queue: its saddr is a
 * 5-byte BLOB, not 4 bytes (IPv4)"). */
typedef void (*SlBtUnusableFunc)    (SlBtGraph  *graph,
                                     const char *file,
                                     const char *why,
                                     gpointer    user_data);
/* A stream began whose class has this default clock (live sessions). */
typedef void (*SlBtClockFunc)       (SlBtGraph             *graph,
                                     const bt_clock_class  *clock,
                                     gpointer               user_data);

/**
 * SlBtGraphSpec:
 * @kind: trace folders (one src.ctf.fs per input) or a live session (one
 *   src.ctf.lttng-live, one input: its URL)
 * @inputs: (array length=n_inputs): trace folders or the URL
 * @skip: (array length=n_inputs) (nullable): inputs left out
 * @interrupter: (nullable): added to the graph
 * @feed: receives the host's packet events, counts and watermark
 * @decoder: converts the events (its event store, if any, is filled)
 * @store_lock: (nullable): held while events are converted, released
 *   while babeltrace waits for data (the live engine lock)
 * @flush: how a consume hands the batch being filled over
 * @min_publish_us: a consume with packet events pending publishes only
 *   if the previous publication is this old (a burst from the relay comes
 *   in many small deliveries)
 * @skip_names: (array length=n_skips) (nullable): inputs (by port name)
 *   whose first @skip_counts events an earlier run already delivered:
 *   they are decoded for the decoder's state, not delivered again
 * @input_failed: (nullable): trace folders: an input babeltrace fails on
 *   ends alone (without it, the graph fails)
 * @clock: (nullable): called at each stream beginning with its clock
 * @packet: (nullable): called at each packet beginning
 * @unusable: (nullable): called once per event class whose packet events
 *   cannot be read
 *
 * One graph of one host: its sources' streams all go to one sink, which
 * merges them by event time (tolerantly: the stock muxer aborts on
 * packets that overlap in time, as in data/traces/synctraces), converts
 * each event at once and publishes to @feed.
 */
typedef struct
{
  SlBtSourceKind      kind;
  const char *const  *inputs;
  guint               n_inputs;
  const gboolean     *skip;
  bt_interrupter     *interrupter;
  SlFeed             *feed;
  SlBtDecoder        *decoder;
  GMutex             *store_lock;
  SlFeedFlush         flush;
  gint64              min_publish_us;
  const char *const  *skip_names;
  const guint64      *skip_counts;
  guint               n_skips;
  SlBtInputFailedFunc input_failed;
  SlBtClockFunc       clock;
  SlBtPacketFunc      packet;
  SlBtUnusableFunc    unusable;
  gpointer            user_data;
} SlBtGraphSpec;

typedef enum
{
  SL_BT_RUN_OK,
  SL_BT_RUN_AGAIN,
  SL_BT_RUN_END,
  SL_BT_RUN_ERROR,
} SlBtRunStatus;

SlBtGraph     *sl_bt_graph_new            (const SlBtGraphSpec *spec,
                                           guint               *failed_input,
                                           char               **why);
void           sl_bt_graph_free           (SlBtGraph           *graph);
SlBtRunStatus  sl_bt_graph_run_once       (SlBtGraph           *graph);
const char    *sl_bt_graph_get_error_file (SlBtGraph           *graph);
void           sl_bt_graph_get_span       (SlBtGraph         *g,
                                           gint64            *first,
                                           gint64            *last);
guint          sl_bt_graph_get_n_inputs   (SlBtGraph           *graph);
const char    *sl_bt_graph_get_input_name (SlBtGraph           *graph,
                                           guint                input);
guint          sl_bt_graph_get_input_source (SlBtGraph         *graph,
                                             guint              input);
const char    *sl_bt_graph_get_input_file (SlBtGraph           *graph,
                                           guint                input);
guint64        sl_bt_graph_get_consumed   (SlBtGraph           *graph,
                                           guint                input);
void           sl_bt_graph_get_position   (SlBtGraph           *graph,
                                           guint               *input,
                                           guint64             *packet,
                                           const char         **file);
void           sl_bt_query_range          (const char          *trace,
                                           gint64              *begin,
                                           gint64              *end);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlBtGraph, sl_bt_graph_free)

G_END_DECLS
