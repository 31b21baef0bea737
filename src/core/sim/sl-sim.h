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
 * @wander: amplitude of a sinusoidal change of the rate (relative, 1e-6 is
 *   1 ppm); 0 for a linear clock
 * @wander_period_ns: its period
 * @ramp: a steady change of the rate per ns of true time (1e-15 is 1 ppm
 *   a second); 0 for none
 * @step_at: true time of a clock step (0: none)
 * @step_ns: the step (the clock reads this much more from then on)
 *
 * A host whose clock reads `true + offset_ns + drift * d + ramp/2 * d² +
 * W(d)` with d = true − start and `W(d) = wander·P/2π·(1 − cos(2πd/P))`
 * (its rate is `1 + drift + ramp * d + wander·sin(2πd/P)`), plus @step_ns
 * from @step_at on.
 */
typedef struct
{
  char   *name;
  gint64  offset_ns;
  double  drift;
  double  wander;
  double  wander_period_ns;
  double  ramp;
  gint64  step_at;
  gint64  step_ns;
} SlSimHost;

/**
 * SlSimLink:
 * @start_ns, @end_ns: true-time span in which the link sends (0, 0: the
 *   whole simulation)
 */
typedef struct
{
  guint  a;
  guint  b;
  double packets_per_s;
  gint64 start_ns;
  gint64 end_ns;
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
void     sl_sim_add_link_span (SlSim              *self,
                               guint               a,
                               guint               b,
                               double              packets_per_s,
                               gint64              start_ns,
                               gint64              end_ns);
void     sl_sim_set_host_wander (SlSim            *self,
                                 guint             host,
                                 double            wander,
                                 double            period_s);
void     sl_sim_set_host_ramp (SlSim              *self,
                               guint               host,
                               double              per_s);
void     sl_sim_set_host_step (SlSim              *self,
                               guint               host,
                               gint64              at_true_ns,
                               gint64              step_ns);
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

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlSim, sl_sim_free)

G_END_DECLS
