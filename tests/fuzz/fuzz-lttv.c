/* fuzz-lttv.c: the LTTV unit-case parser and the engine behind it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Whatever the text: parsed into an engine (hulls, estimators, tree) or
 * refused with a message naming the line; never undefined behaviour.
 */

#include "config.h"

#include "sl-engine.h"
#include "sl-fuzz-mutate.h"
#include "sl-fuzz-target.h"
#include "sl-lttv-text.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  /* both estimators; LTTV's toy cases drift far more than crystals do */
  for (SlAlgorithm a = SL_ALGORITHM_HULL; a <= SL_ALGORITHM_LINREG; a++)
    {
      SlEngineOptions options;
      SlEngine *engine;
      GError *error = NULL;

      sl_engine_options_init (&options);
      options.algorithm = a;
      options.max_drift = 0.5;
      /* the matcher is unused (matches come whole) and the journal's
       * upfront allocation would dominate each run */
      options.max_pending = 1024;
      options.journal_size = 4096;
      engine = sl_engine_new (&options);
      if (!sl_lttv_text_load_data (engine, "fuzz.txt", (const char *) data, size, &error))
        {
          g_assert (error != NULL && error->message != NULL);
          g_error_free (error);
        }
      else
        for (guint h = 0; h < sl_engine_get_n_hosts (engine); h++)
          {
            SlHostInfo info = { 0 };

            sl_engine_get_host_info (engine, h, &info);
            sl_host_info_clear (&info);
          }
      sl_engine_free (engine);
    }
  return 0;
}

void
sl_fuzz_target_mutate (GByteArray *input,
                       GRand      *rand)
{
  g_autoptr(GString) s = g_string_new_len ((const char *) input->data, input->len);
  const char *what;

  sl_fuzz_lttv (s, rand, &what);
  g_byte_array_set_size (input, 0);
  g_byte_array_append (input, (const guint8 *) s->str, (guint) s->len);
}
