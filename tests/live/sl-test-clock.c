/* sl-test-clock.c: an lttng-ust clock plugin giving each simulated host its own clock
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Loaded with LTTNG_UST_CLOCK_PLUGIN=/path/to/sl-test-clock.so by the traced
 * programs, by lttng-sessiond (which writes the metadata's clock description
 * and offset) and by lttng-consumerd (live beacons). It reads:
 *
 *   SL_TEST_CLOCK_DRIFT_PPB   rate error in parts per billion (default 0)
 *   SL_TEST_CLOCK_BASE_NS     CLOCK_MONOTONIC instant where the drift term is 0
 *   SL_TEST_CLOCK_OFFSET_NS   added in lttng-sessiond only (see below)
 *   SL_TEST_CLOCK_UUID        the clock's UUID (default: derived from the hostname)
 *
 * value(m) = m + floor ((m - BASE) * DRIFT_PPB / 1e9), m = CLOCK_MONOTONIC ns,
 * computed exactly; live-harness.c computes the same formula for its ground
 * truth. Frequency 1 GHz.
 *
 * lttng-sessiond writes offset = REALTIME - value into the metadata when the
 * session's registry is created, which cancels any constant the plugin adds
 * everywhere. Adding OFFSET_NS in the session daemon alone makes the metadata
 * offset smaller by OFFSET_NS, so that host's trace timestamps come out
 * shifted by -OFFSET_NS: a host whose wall clock is wrong.
 */

#define _GNU_SOURCE

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lttng/ust-clock.h>

void lttng_ust_clock_plugin_init (void);

static int64_t drift_ppb;
static int64_t base_ns;
static int64_t offset_ns;
static char clock_uuid[LTTNG_UST_UUID_STR_LEN];
static char description[160];

static int64_t
floor_div (__int128 a,
           int64_t  b)
{
  __int128 q = a / b;

  if ((a % b != 0) && ((a < 0) != (b < 0)))
    q--;
  return (int64_t) q;
}

static uint64_t
sl_clock_read64 (void)
{
  struct timespec ts;
  int64_t m;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  m = (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
  return (uint64_t) (m + floor_div ((__int128) (m - base_ns) * drift_ppb, 1000000000) + offset_ns);
}

static uint64_t
sl_clock_freq (void)
{
  return 1000000000;
}

static int
sl_clock_uuid (char *uuid)
{
  memcpy (uuid, clock_uuid, LTTNG_UST_UUID_STR_LEN);
  return 0;
}

static const char *
sl_clock_name (void)
{
  /* the name lttng-ust's own clock has */
  return "monotonic";
}

static const char *
sl_clock_description (void)
{
  return description;
}

static int
env_int64 (const char *name,
           int64_t    *out)
{
  const char *s = getenv (name);
  char *end;
  long long v;

  *out = 0;
  if (s == NULL || *s == '\0')
    return 0;
  errno = 0;
  v = strtoll (s, &end, 10);
  if (errno != 0 || *end != '\0')
    {
      fprintf (stderr, "sl-test-clock: %s=\"%s\" is not an integer\n", name, s);
      return -1;
    }
  *out = v;
  return 0;
}

/* A version-4-shaped UUID from the hostname (FNV-1a): stable for a host,
 * distinct between hosts. */
static void
uuid_from_hostname (char *out)
{
  char host[256] = "";
  uint64_t h1 = 0xcbf29ce484222325u, h2 = 0x84222325cbf29ce4u;
  uint8_t b[16];

  gethostname (host, sizeof host - 1);
  for (const char *p = host; *p != '\0'; p++)
    {
      h1 = (h1 ^ (uint8_t) *p) * 0x100000001b3u;
      h2 = (h2 ^ (uint8_t) *p) * 0x100000001b3u + 0x9e3779b97f4a7c15u;
    }
  for (int i = 0; i < 8; i++)
    {
      b[i] = (uint8_t) (h1 >> (8 * i));
      b[8 + i] = (uint8_t) (h2 >> (8 * i));
    }
  b[6] = (uint8_t) ((b[6] & 0x0f) | 0x40);
  b[8] = (uint8_t) ((b[8] & 0x3f) | 0x80);
  snprintf (out, LTTNG_UST_UUID_STR_LEN,
            "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
            b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static int
valid_uuid (const char *s)
{
  if (strlen (s) != LTTNG_UST_UUID_STR_LEN - 1)
    return 0;
  for (int i = 0; s[i] != '\0'; i++)
    {
      int dash = (i == 8 || i == 13 || i == 18 || i == 23);
      if (dash ? s[i] != '-' : !((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
        return 0;
    }
  return 1;
}

void
lttng_ust_clock_plugin_init (void)
{
  const char *uuid = getenv ("SL_TEST_CLOCK_UUID");
  int64_t offset = 0;

  if (env_int64 ("SL_TEST_CLOCK_DRIFT_PPB", &drift_ppb) < 0
      || env_int64 ("SL_TEST_CLOCK_BASE_NS", &base_ns) < 0
      || env_int64 ("SL_TEST_CLOCK_OFFSET_NS", &offset) < 0)
    abort ();
  if (drift_ppb <= -1000000000 || drift_ppb >= 1000000000)
    {
      fprintf (stderr, "sl-test-clock: SL_TEST_CLOCK_DRIFT_PPB=%" PRId64 " is out of (-1e9, 1e9)\n",
               drift_ppb);
      abort ();
    }
  /* Only the session daemon's measurement of the metadata offset sees the
   * wall clock error; the consumer daemon and the traced programs do not. */
  if (strcmp (program_invocation_short_name, "lttng-sessiond") == 0)
    offset_ns = offset;

  if (uuid != NULL && *uuid != '\0')
    {
      if (!valid_uuid (uuid))
        {
          fprintf (stderr, "sl-test-clock: SL_TEST_CLOCK_UUID=\"%s\" is not a lower-case UUID\n", uuid);
          abort ();
        }
      memcpy (clock_uuid, uuid, LTTNG_UST_UUID_STR_LEN);
    }
  else
    uuid_from_hostname (clock_uuid);

  snprintf (description, sizeof description,
            "Syncline test clock: CLOCK_MONOTONIC with %" PRId64 " ppb of drift", drift_ppb);

  if (lttng_ust_trace_clock_set_read64_cb (sl_clock_read64) != 0
      || lttng_ust_trace_clock_set_freq_cb (sl_clock_freq) != 0
      || lttng_ust_trace_clock_set_uuid_cb (sl_clock_uuid) != 0
      || lttng_ust_trace_clock_set_name_cb (sl_clock_name) != 0
      || lttng_ust_trace_clock_set_description_cb (sl_clock_description) != 0
      || lttng_ust_enable_trace_clock_override () != 0)
    {
      fprintf (stderr, "sl-test-clock: lttng-ust refused the clock override\n");
      abort ();
    }
}
