/* sl-fuzz-util.h: the fuzz driver's cases, built in folders
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "test-util.h"

G_BEGIN_DECLS

typedef enum
{
  CLASS_STREAM_BYTES,
  CLASS_PACKETS,
  CLASS_METADATA_BYTES,
  CLASS_TSDL,
  CLASS_IDENTITY,
  CLASS_FILES,
  CLASS_SEVERAL,
  CLASS_LTTV,
  N_CLASSES
} Class;

/* What a damaged case must say on stderr, besides its other checks. */
typedef struct
{
  const char *needles[3];
} Expect;

typedef struct
{
  int      status;       /* exit status, or -signal */
  gboolean timed_out;
  double   seconds;      /* from the start to the end */
  double   signal_s;     /* when the last signal was sent */
  double   starved_s;    /* how long the machine held it back (not counted in the timeout) */
  char    *out;
  char    *err;
} SlFuzzResult;

/* @after_ms counts from the program's first child (its first decoder):
 * by then its signal handlers are in, however slowly it started. */
typedef struct
{
  guint after_ms;
  int   signo;
} SlFuzzSignal;

void       sl_fuzz_run               (const char         *prog,
                                      const char         *dir,
                                      const char *const  *args,
                                      guint               timeout_s,
                                      const SlFuzzSignal *signals,
                                      guint               n_signals,
                                      SlFuzzResult       *r);
void       sl_fuzz_result_clear      (SlFuzzResult      *r);
void       sl_fuzz_copy_tree         (const char        *from,
                                      const char        *to);
char      *sl_fuzz_find_trace        (const char        *dir);
/* A new trace UUID (metadata and every packet) and the clock offset
 * @cycles later: the trace as if recorded again by a new session. */
gboolean   sl_fuzz_retrace           (const char        *trace,
                                      guint64            cycles,
                                      GRand             *rand);
int        sl_fuzz_cmp_strings       (gconstpointer      a,
                                      gconstpointer      b);
GPtrArray *sl_fuzz_write_lttv_seeds  (const char        *dir);
char      *sl_fuzz_make_lttv_case    (GPtrArray         *seeds,
                                      const char        *dir,
                                      GRand             *rand,
                                      GString           *what);
Class      sl_fuzz_make_trace_case   (const char        *base,
                                      GPtrArray         *victims,
                                      GPtrArray         *victim_hosts,
                                      const char        *dir,
                                      GRand             *rand,
                                      GString           *what,
                                      GPtrArray         *damaged,
                                      Expect            *expect);

JsonObject *sl_fuzz_report_host       (JsonObject        *root,
                                      const char        *name);
char       *sl_fuzz_host_key          (JsonObject        *h);

G_END_DECLS
