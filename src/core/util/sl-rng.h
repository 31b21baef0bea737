/* sl-rng.h: the project's random numbers, reproducible from a seed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * xoshiro256** seeded by splitmix64 (Blackman and Vigna): 32 bytes of state,
 * fast, and the same sequence for a seed on every platform and GLib version
 * (simulations and generated traces are compared byte for byte). A seed
 * gives independent streams, one per purpose, so that changing how many
 * numbers one part draws leaves the others' sequences alone.
 */

#pragma once

#include <math.h>

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint64 s[4];
} SlRng;

void sl_rng_init (SlRng   *rng,
                  guint64  seed,
                  guint64  stream);

static inline guint64
sl_rng_rotl64 (guint64 x,
               int     k)
{
  return (x << k) | (x >> (64 - k));
}

/* 64 random bits */
static inline guint64
sl_rng_u64 (SlRng *rng)
{
  guint64 result = sl_rng_rotl64 (rng->s[1] * 5, 7) * 9;
  guint64 t = rng->s[1] << 17;

  rng->s[2] ^= rng->s[0];
  rng->s[3] ^= rng->s[1];
  rng->s[1] ^= rng->s[2];
  rng->s[0] ^= rng->s[3];
  rng->s[2] ^= t;
  rng->s[3] = sl_rng_rotl64 (rng->s[3], 45);
  return result;
}

/* uniform in [0, 1), 53 bits */
static inline double
sl_rng_double (SlRng *rng)
{
  return (double) (sl_rng_u64 (rng) >> 11) * 0x1.0p-53;
}

/* uniform in [0, n) (Lemire's multiply, without the rejection step: the
 * bias is below n / 2³²) */
static inline guint32
sl_rng_below (SlRng   *rng,
              guint32  n)
{
  return (guint32) (((sl_rng_u64 (rng) >> 32) * (guint64) n) >> 32);
}

/* TRUE with probability p; draws nothing when p ≤ 0 */
static inline gboolean
sl_rng_chance (SlRng  *rng,
               double  p)
{
  return p > 0 && sl_rng_double (rng) < p;
}

/* exponential of the given mean, truncated to an integer */
static inline gint64
sl_rng_exp (SlRng  *rng,
            double  mean)
{
  return (gint64) (-log1p (-sl_rng_double (rng)) * mean);
}

/* uniform in [lo, hi] */
static inline gint64
sl_rng_range (SlRng  *rng,
              gint64  lo,
              gint64  hi)
{
  return lo + (gint64) (sl_rng_u64 (rng) % (guint64) (hi - lo + 1));
}

/* uniform in [lo, hi) */
static inline double
sl_rng_double_range (SlRng  *rng,
                     double  lo,
                     double  hi)
{
  return lo + sl_rng_double (rng) * (hi - lo);
}

G_END_DECLS
