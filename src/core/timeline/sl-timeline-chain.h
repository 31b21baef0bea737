/* sl-timeline-chain.h: a request followed across hosts — a message, the
 * thread it woke, what that thread sent on
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-timeline.h"

G_BEGIN_DECLS

/**
 * SlTimelineChainKind:
 * @SL_TIMELINE_CHAIN_SENT: a message the parent step's woken thread sent
 *   while it ran (the first step too)
 * @SL_TIMELINE_CHAIN_REPLY: the answer to the parent step's message: the
 *   first message back on its connection after it arrived (a thread that
 *   sent a query waits for it)
 * @SL_TIMELINE_CHAIN_HANDOFF: not a message but a user thread of the same
 *   host the parent step's thread woke while it ran (a listener handing a
 *   request to a worker); its @message only says where (@message's hosts,
 *   @send_row the waker, @recv_row the woken thread, the times the wake-up)
 */
typedef enum
{
  SL_TIMELINE_CHAIN_SENT,
  SL_TIMELINE_CHAIN_REPLY,
  SL_TIMELINE_CHAIN_HANDOFF,
} SlTimelineChainKind;

/**
 * SlTimelineChainStep:
 * @kind: a #SlTimelineChainKind
 * @message: a message of the request
 * @parent: the step it comes from, %G_MAXUINT for the first
 * @depth: messages before it on its path from the first
 * @woken_row: the thread it woke on its receiving host (or that received it
 *   itself, when it was not received in an interrupt), %SL_TIMELINE_NONE
 *   when none was found; a later segment of the same connection may be
 *   the one that woke it (a thread waits for a whole request)
 * @wakeup_time: local time (receiving host) of that wake-up
 * @run_start: local time the thread was next on a CPU
 * @run_end: local time it blocked (or exited) again, or the end of the data
 * @expanded: whether this step's thread's sends were followed here (a
 *   thread woken once is followed once, by the first step that woke it;
 *   the thread that sent the first message is not followed again when an
 *   answer comes back to it: the request is done)
 *
 * The receiving end of a kernel trace's packet runs in a softirq, in
 * whatever thread it interrupted: the thread the message is for is the one
 * that softirq wakes (a sched_wakeup on the same CPU before the softirq
 * ends).
 */
typedef struct
{
  SlTimelineChainKind kind;
  SlTimelineArrow message;
  guint           parent;
  guint           depth;
  guint           woken_row;
  gint64          wakeup_time;
  gint64          run_start;
  gint64          run_end;
  gboolean        expanded;
} SlTimelineChainStep;

/**
 * sl_timeline_follow_message:
 * @start: the first message
 * @max_steps: at most this many messages (breadth first)
 *
 * Follows a request from @start: the thread its receipt woke, the messages
 * that thread sent before it blocked again (pure acknowledgements, of
 * known zero length, left out), the answers to them (which wake it again),
 * and the user threads of its host it woke meanwhile (hand-offs, followed
 * the same way), and so on, across hosts, breadth first.
 *
 * Returns: (transfer full): #SlTimelineChainStep array, @start first
 */
GArray        *sl_timeline_follow_message      (const SlTimeline         *self,
                                                const SlTimelineArrow    *start,
                                                guint                     max_steps);
/**
 * sl_timeline_follow_thread:
 * @row: a thread (a process: its main thread)
 * @local: from this local time
 *
 * The request @row sends first at or after @local, followed.
 *
 * Returns: (transfer full): as sl_timeline_follow_message(), empty when
 *   the thread sends nothing after @local
 */
GArray        *sl_timeline_follow_thread       (const SlTimeline         *self,
                                                guint                     row,
                                                gint64                    local,
                                                guint                     max_steps);

G_END_DECLS
