/* sl-sim.h: simulated hosts exchanging TCP packets, with known clocks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-matcher.h"
#include "sl-transform.h"

G_BEGIN_DECLS

/**
 * SlSimHost:
 *
 * A host whose clock reads `true + offset_ns + drift * (true - start)`.
 */
typedef struct
{
  char   *name;
  gint64  offset_ns;
  double  drift;
} SlSimHost;

typedef struct
{
  guint  a;
  guint  b;
  double packets_per_s;
} SlSimLink;

/**
 * SlSimOptions:
 * @start_ns: true time at which the simulation starts
 * @duration_ns: simulated span
 * @min_latency_ns: smallest one-way latency
 * @mean_extra_latency_ns: mean of the exponential extra latency
 * @loss: probability that a packet is lost (then retransmitted)
 * @duplicate: probability that a received packet is received twice
 * @seed: random seed; the run is deterministic for a seed
 */
typedef struct
{
  gint64  start_ns;
  gint64  duration_ns;
  gint64  min_latency_ns;
  double  mean_extra_latency_ns;
  double  loss;
  double  duplicate;
  guint64 seed;
} SlSimOptions;

typedef struct _SlSim SlSim;

void     sl_sim_options_init  (SlSimOptions       *options);
SlSim   *sl_sim_new           (const SlSimOptions *options);
void     sl_sim_free          (SlSim              *self);
guint    sl_sim_add_host      (SlSim              *self,
                               const char         *name,
                               gint64              offset_ns,
                               double              drift);
void     sl_sim_add_link      (SlSim              *self,
                               guint               a,
                               guint               b,
                               double              packets_per_s);
guint    sl_sim_get_n_hosts   (const SlSim        *self);
const SlSimHost *sl_sim_get_host (const SlSim     *self,
                                  guint            host);
gboolean sl_sim_next          (SlSim              *self,
                               SlPacketEvent      *event,
                               gint64             *true_time);
gint64   sl_sim_local_time    (const SlSim        *self,
                               guint               host,
                               gint64              true_time);
void     sl_sim_true_transform (const SlSim       *self,
                                guint              from,
                                guint              to,
                                SlTransform       *out);

G_END_DECLS
