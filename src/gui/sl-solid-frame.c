/* sl-solid-frame.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On X11 without a compositor GTK gives a client-decorated window the
 * "solid-csd" style: libadwaita 1.2 draws its 5 px frame as three inset
 * box-shadows, which GTK 4.8's GL renderer draws as three quads over the
 * whole window, in every frame since GLX there has no buffer age (the
 * whole window is drawn each time). Under Mesa's software rasteriser that
 * is most of a frame's cost. ui/solid-frame.css draws the same pixels from
 * a border, an outline and four 1 px strips. It copies libadwaita 1.2's
 * normal stylesheet, so it is loaded only with that version and taken out
 * while the high-contrast stylesheet is in use.
 */

#include "config.h"

#include <adwaita.h>

#include "sl-solid-frame.h"

#define SOLID_FRAME_KEY "sl-solid-frame"

typedef struct
{
  GdkDisplay     *display;
  GtkCssProvider *provider;
  gboolean        enabled;
  gboolean        added;
} SolidFrame;

static void
solid_frame_free (gpointer data)
{
  SolidFrame *frame = data;

  g_clear_object (&frame->provider);
  g_free (frame);
}

static void
solid_frame_update (SolidFrame *frame)
{
  AdwStyleManager *manager = adw_style_manager_get_for_display (frame->display);
  gboolean want = frame->enabled && !adw_style_manager_get_high_contrast (manager);

  if (want == frame->added)
    return;
  if (want)
    gtk_style_context_add_provider_for_display (frame->display, GTK_STYLE_PROVIDER (frame->provider),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  else
    gtk_style_context_remove_provider_for_display (frame->display, GTK_STYLE_PROVIDER (frame->provider));
  frame->added = want;
}

/* Loads the frame's stylesheet for @display, once; nothing with a
 * libadwaita other than 1.2, whose frame it reproduces. */
void
sl_solid_frame_install (GdkDisplay *display)
{
  SolidFrame *frame;

  g_return_if_fail (GDK_IS_DISPLAY (display));

  if (adw_get_major_version () != 1 || adw_get_minor_version () != 2 ||
      g_object_get_data (G_OBJECT (display), SOLID_FRAME_KEY) != NULL)
    return;
  frame = g_new0 (SolidFrame, 1);
  frame->display = display;
  frame->enabled = TRUE;
  frame->provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (frame->provider, "/io/github/syncline/Syncline/solid-frame.css");
  g_object_set_data_full (G_OBJECT (display), SOLID_FRAME_KEY, frame, solid_frame_free);
  g_signal_connect_swapped (adw_style_manager_get_for_display (display), "notify::high-contrast",
                            G_CALLBACK (solid_frame_update), frame);
  solid_frame_update (frame);
}

gboolean
_sl_solid_frame_get_active (GdkDisplay *display)
{
  SolidFrame *frame = g_object_get_data (G_OBJECT (display), SOLID_FRAME_KEY);

  return frame != NULL && frame->added;
}

void
_sl_solid_frame_set_enabled (GdkDisplay *display,
                             gboolean    enabled)
{
  SolidFrame *frame = g_object_get_data (G_OBJECT (display), SOLID_FRAME_KEY);

  g_return_if_fail (frame != NULL);

  frame->enabled = enabled;
  solid_frame_update (frame);
}
