/* sl-timeline-builder.h: a reader's hosts' rows built while it reads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-timeline.h"
#include "sl-trace-reader.h"

G_BEGIN_DECLS

typedef struct _SlTimelineBuilder SlTimelineBuilder;

SlTimelineBuilder *sl_timeline_builder_new    (SlTimeline        *timeline,
                                               SlTraceReader     *reader);
void               sl_timeline_builder_poll   (SlTimelineBuilder *b);
void               sl_timeline_builder_finish (SlTimelineBuilder *b,
                                               gboolean           abandon);

G_END_DECLS
