/* sl-types.h: small types shared by the engine's parts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Host and link identifiers are dense indices owned by the engine. */
#define SL_HOST_NONE G_MAXUINT

/**
 * SlQuality:
 * @SL_QUALITY_ABSENT: no matched packet on the link
 * @SL_QUALITY_INCOMPLETE: packets in one direction only
 * @SL_QUALITY_APPROXIMATE: both directions, but a bounding line is missing
 *   (best-effort estimate)
 * @SL_QUALITY_ACCURATE: both bounding lines exist, alpha_max > alpha_min and
 *   the slopes are physically plausible
 * @SL_QUALITY_FAIL: no line separates the two directions (hulls cross), or the
 *   only separating lines have implausible slopes
 *
 * The five states of [Jabbarifar §3.6.2].
 */
typedef enum
{
  SL_QUALITY_ABSENT,
  SL_QUALITY_INCOMPLETE,
  SL_QUALITY_APPROXIMATE,
  SL_QUALITY_ACCURATE,
  SL_QUALITY_FAIL,
} SlQuality;

const char *sl_quality_to_string (SlQuality quality);

#define SL_ERROR (sl_error_quark ())

typedef enum
{
  SL_ERROR_PARSE,
  SL_ERROR_IO,
  SL_ERROR_INVALID,
} SlError;

GQuark sl_error_quark (void);

G_END_DECLS
