/* sl-trace-reader-private.h: the folder reader's parts
 *
 * sl-trace-scan.c finds the traces and groups them into hosts,
 * sl-trace-host.c decodes a host (a syncline-decoder process, read on the
 * host's thread), sl-trace-reader.c calibrates the merge order, merges and
 * answers the public API.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stdatomic.h>

#include "sl-ctf-scan.h"
#include "sl-decoder.h"
#include "sl-feed.h"
#include "sl-trace-reader.h"

G_BEGIN_DECLS

#define SL_TRACE_QUEUE_MAX 8

typedef enum
{
  STATE_INIT,
  STATE_SCANNING,
  STATE_CALIBRATING,
  STATE_MERGING,
  STATE_DONE,
  STATE_CANCELLED,
} State;

/* A trace found by the scan, checked (sl-trace-scan.c). */
typedef struct
{
  char      *path;
  char      *metadata;
  /* the checked metadata text until the view is made, then NULL: the
   * view has it (sl_trace_view_text()) */
  char      *text;
  gsize      text_len;
  char      *hostname;
  char      *clock_uuid;
  char      *domain;
  gboolean   has_uuid;
  guint8     uuid[16];
  gboolean   has_offset;
  gint64     offset_ns;
  guint64    freq;
  gint64     offset_s;
  guint64    offset;
  gsize      offset_s_span[2];
  gsize      offset_span[2];
  gint64     first_ns;
  gint64     last_ns;
  guint64    bytes;
  GPtrArray *streams;
  char      *view;
  /* a `syncline-cli extract` trace: the counts of the full one */
  gboolean   extract;
  guint64    extract_events;
  guint64    extract_ignored;
  gboolean   extract_has_span;
  gint64     extract_first;
  gint64     extract_last;
  gboolean   failed;
  gboolean   repair_tried;
  char      *open_error;
} TraceDir;

typedef struct _Host Host;

struct _Host
{
  SlTraceReader   *reader;
  guint            index;
  char            *name;
  char            *hostname;
  char            *clock_uuid;
  guint            segment;
  Host            *first_segment;
  gint64           step_ns;
  gint64           segment_start_ns;
  GPtrArray       *traces;
  GPtrArray       *trace_paths;
  guint64          total_bytes;
  SlFeed          *feed;

  /* the host's thread */
  GThread         *thread;
  atomic_int       thread_over;
  SlDecoderTarget  target;
  GPtrArray       *inputs;
  GPtrArray       *input_files;
  GArray          *input_traces;
  GHashTable      *consumed;
  SlEventStore    *store;
  gboolean         decode_failed;
  gboolean         stopped;
  gboolean         has_slot;
  gint64           slot_since;
  /* waited on (hub lock) while in the slot queue: woken alone when it
   * is the queue's head and a slot is free, not with every batch */
  GCond            slot_cond;

  /* read by any thread */
  _Atomic gint64   range_begin;
  _Atomic gint64   range_end;

  /* under the hub lock */
  SlDecoder       *decoder;
  /* the first event class whose packet events could not be read: why,
   * and in which file (a part's go to its parent) */
  char            *unusable_file;
  char            *unusable_why;

  /* per-host parallel decoding (sl-trace-host.c): a host whose stream
   * files are decoded by several decoders has @parts, each a Host of its
   * own (@parent set) with a view of some of the stream files and a feed
   * on @part_hub; the host's thread merges their feeds into its own */
  Host            *parent;
  GPtrArray       *parts;
  SlFeedHub       *part_hub;

  /* consumer */
  gboolean         got_last;
  gboolean         cal_done;
  gboolean         all_extracts;
  guint64          extract_events;
  guint64          extract_ignored;
  gint64           extract_first;
  gint64           extract_last;
  guint64          cal_packets;
  gint64           cal_first;
  gint64           cal_last;
};

struct _SlTraceReader
{
  SlEngine             *engine;
  SlTraceReaderOptions  options;
  GPtrArray            *folders;
  GPtrArray            *hosts;
  GPtrArray            *feeds;
  GThread              *scan_thread;
  State                 state;
  SlFeedHub            *hub;
  SlProblemList        *problems;

  /* under the hub lock */
  gboolean              scan_done;
  GPtrArray            *scanned;
  gint64                end_time;
  guint                 free_slots;
  GQueue                slot_queue;
  /* decoders that take slots: the hosts, or their parts */
  guint                 n_decoders;
  guint                 n_views;

  atomic_int            cancelled;
  gint64                start_time;
  char                 *view_root;
  /* damaged streams' good parts, on disk (sl-trace-view.c) */
  char                 *copy_root;
  guint                 n_copies;

  /* sized to the number of hosts (sl-trace-reader.c: size_queues()) */
  guint                 queue_max;
  guint                 cal_packets;
  char                 *spill_dir;

  /* consumer */
  gboolean              launched;
  gboolean              cal_started;
  guint                 cal_left;
};

void     sl_trace_reader_add_problem (SlTraceReader *self,
                                      const char    *host,
                                      const char    *file,
                                      const char    *fmt,
                                      ...) G_GNUC_PRINTF (4, 5);

gpointer   sl_trace_scan_thread      (gpointer       data);
void       sl_trace_dir_free         (gpointer       p);
GPtrArray *sl_trace_group_hosts      (SlTraceReader *self,
                                      GPtrArray     *traces);
void       sl_trace_group_make_views (SlTraceReader *self,
                                      GPtrArray     *hosts);
Host      *sl_trace_host_new         (SlTraceReader *self,
                                      const char    *hostname,
                                      const char    *uuid);
void       sl_trace_host_free        (Host          *h);

gboolean   sl_trace_view_make        (SlTraceReader *self,
                                      TraceDir      *t,
                                      guint          index,
                                      GError       **error);
char      *sl_trace_view_text        (const TraceDir *t,
                                      gsize         *len,
                                      GError       **error);
gboolean   sl_trace_view_cut         (SlTraceReader *self,
                                      TraceDir      *t,
                                      SlCtfStream   *s,
                                      guint64        bytes,
                                      GError       **error);
void       sl_trace_view_remove_all  (SlTraceReader *self);
char      *sl_trace_tmp_make         (const char    *parent,
                                      const char    *kind,
                                      GError       **error);
guint64    sl_trace_host_memory_limit (Host         *h);
gboolean   sl_trace_repair           (Host          *h,
                                      TraceDir      *t);
char      *sl_trace_view_unmap       (Host          *h,
                                      const char    *text);

guint    sl_trace_host_split         (Host          *h,
                                      guint          n_parts);
void     sl_trace_host_start         (Host          *h);
void     sl_trace_host_kill_locked   (Host          *h);
void     sl_trace_host_wake_slot_queue_locked (SlTraceReader *self);
void     sl_trace_host_join          (Host          *h);

G_END_DECLS
