/* sl-decoder.h: the readers' side of a syncline-decoder process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-event-store.h"
#include "sl-feed.h"
#include "sl-wire.h"

G_BEGIN_DECLS

typedef struct _SlDecoder SlDecoder;

typedef enum
{
  SL_DECODER_FRAME,
  SL_DECODER_TIMEOUT,
  SL_DECODER_EOF,
} SlDecoderStatus;

const char      *sl_decoder_get_program (GError            **error);
SlDecoder       *sl_decoder_spawn       (const char *const  *args,
                                         GError            **error);
SlDecoderStatus  sl_decoder_next        (SlDecoder          *decoder,
                                         SlWireFrame        *frame,
                                         gint64              timeout_us);
void             sl_decoder_kill        (SlDecoder          *decoder);
void             sl_decoder_pause       (SlDecoder          *decoder,
                                         gboolean            paused);
void             sl_decoder_signal      (SlDecoder          *decoder,
                                         int                 signo);
gint64           sl_decoder_get_cpu_us  (SlDecoder          *decoder);
char            *sl_decoder_finish      (SlDecoder          *decoder);
void             sl_decoder_free        (SlDecoder          *decoder);

/* tests: the output pipe's size, and the pages pipes may still grow by */
int              _sl_decoder_get_pipe_size (SlDecoder       *decoder);
void             _sl_decoder_set_pipe_budget (gint           pages);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlDecoder, sl_decoder_free)

/**
 * SlDecoderTarget:
 * @feed: receives the packet events, counts and decoding position
 * @store: (nullable): receives the timeline events
 * @store_lock: (nullable): held while @store is written
 *
 * (sl_decoder_target_continue(): @store holds a history; the rest is the
 * target's own.)
 *
 * What a reader does with a decoder's data frames (sl_decoder_apply()).
 * Set the fields, zero the rest; call sl_decoder_target_reset() for each
 * new decoder process (its string ids and counts start again).
 */
typedef struct
{
  SlFeed       *feed;
  SlEventStore *store;
  GMutex       *store_lock;
  GArray       *strings;
  guint64       events;
  guint64       ignored;
  guint64       unusable;
  GArray       *consumed;
  GArray       *packet_infos;
  gboolean      continues;
  gboolean      resumed;
  gint64        after;
} SlDecoderTarget;

void     sl_decoder_target_reset (SlDecoderTarget   *target);
void     sl_decoder_target_clear (SlDecoderTarget   *target);
void     sl_decoder_target_continue (SlDecoderTarget *target);
gboolean sl_decoder_apply        (SlDecoderTarget   *target,
                                  const SlWireFrame *frame);

G_END_DECLS
