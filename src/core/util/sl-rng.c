/* sl-rng.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "sl-rng.h"

static guint64
splitmix64 (guint64 *x)
{
  guint64 z = (*x += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* Stream @stream of @seed: the seed mixed with the stream number, expanded
 * by splitmix64 (never the all-zero state). */
void
sl_rng_init (SlRng   *rng,
             guint64  seed,
             guint64  stream)
{
  guint64 x;

  g_return_if_fail (rng != NULL);

  x = seed ^ (stream * G_GUINT64_CONSTANT (0xd1342543de82ef95));
  for (guint i = 0; i < 4; i++)
    rng->s[i] = splitmix64 (&x);
}
