/* sl-canvas.h: a widget's picture drawn off screen in one image
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A view that redraws all of itself every frame (the host graph while it
 * zooms) is cheapest as one picture. GTK 4.8's cairo renderer converts a
 * GdkMemoryTexture's pixels again on every frame that draws it, and
 * replays each cairo node through a surface of its own; an image surface
 * painted by a single cairo node goes to the screen as is. Measured under
 * Xvfb, a blank 560 × 843 picture cost 8.3 ms a frame as a texture and
 * 5.1 ms as one cairo node. SlCanvas keeps that image at the widget's
 * device size and reuses it from frame to frame, alternating between two
 * (three at most) so that a frame never draws into the one the previous
 * frame's node still shows, which would make cairo copy it first.
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct _SlCanvas SlCanvas;

SlCanvas        *sl_canvas_new    (void);
void             sl_canvas_free   (SlCanvas    *self);

cairo_surface_t *sl_canvas_begin  (SlCanvas    *self,
                                   int          width,
                                   int          height,
                                   int          scale);
void             sl_canvas_end    (SlCanvas    *self,
                                   GtkSnapshot *snapshot);

/* for tests: the frames that drew into a surface a live node showed */
guint            _sl_canvas_get_n_copies (SlCanvas *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCanvas, sl_canvas_free)

G_END_DECLS
