/* sl-timeline-synth.h: a generated cluster in memory, straight into event
 * stores and a timeline (benchmarks and tests of the timeline)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-event-store.h"
#include "sl-timeline.h"
#include "sl-transform.h"

G_BEGIN_DECLS

/**
 * SlTimelineSynth:
 * @timeline: the model, built
 * @stores: each host's #SlEventStore, by host index
 * @to_reference: each host's map from its clock to the true one (host 0's
 *   offset is 0)
 * @n_hosts: hosts
 * @generate_s: time to generate the events
 * @build_s: time sl_timeline_update() took over them
 * @build_cpu_s: the process's CPU time in it
 *
 * A generated cluster in memory, for benchmarks and tests: each host runs
 * 8 processes of 8 threads on 8 CPUs (scheduling, system calls,
 * interrupts) and sends TCP segments to 4 peers; its clock is offset from
 * the true time by up to tens of milliseconds, with a small drift.
 */
typedef struct
{
  SlTimeline    *timeline;
  GPtrArray     *stores;
  GArray        *to_reference;
  guint          n_hosts;
  double         generate_s;
  double         build_s;
  double         build_cpu_s;
} SlTimelineSynth;

SlTimelineSynth *sl_timeline_synth_new     (guint            n_hosts,
                                            guint64          intervals,
                                            guint64          arrows,
                                            guint32          seed);
void             sl_timeline_synth_free    (SlTimelineSynth *synth);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTimelineSynth, sl_timeline_synth_free)

G_END_DECLS
