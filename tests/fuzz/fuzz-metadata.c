/* fuzz-metadata.c: the metadata checks (depacketizing, CTF 2, TSDL)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Whatever the bytes: a metadata file, packetized or text, goes through
 * what the trace reader does before babeltrace2 may see it. Nothing may
 * crash, hang, leak or overflow; what the parser accepts must give
 * sane layouts.
 */

#include "config.h"

#include <string.h>

#include "sl-ctf-meta.h"
#include "sl-ctf-scan.h"
#include "sl-ctf2.h"
#include "sl-fuzz-mutate.h"
#include "sl-fuzz-target.h"
#include "sl-tsdl.h"

static void
use_tsdl (const SlTsdl  *tsdl,
          const uint8_t *data,
          size_t         size)
{
  guint8 uuid[16];
  SlCtfStream st = { 0 };

  (void) sl_tsdl_get_env (tsdl, "hostname");
  (void) sl_tsdl_get_uuid (tsdl, uuid);
  for (guint i = 0; i < sl_tsdl_get_n_clocks (tsdl); i++)
    {
      const SlTsdlClock *c = sl_tsdl_get_clock (tsdl, i);
      gint64 ns;

      g_assert (c->freq > 0);
      (void) sl_tsdl_clock_ns (c, 0, &ns);
      (void) sl_tsdl_clock_ns (c, G_MAXUINT64, &ns);
    }
  for (guint i = 0; i < sl_tsdl_get_n_streams (tsdl); i++)
    {
      const SlTsdlLayout *l = sl_tsdl_get_layout (tsdl, i);

      for (guint f = 0; f < SL_TSDL_N_FIELDS; f++)
        g_assert (!l->f[f].present || (l->f[f].size >= 1 && l->f[f].size <= 64));
    }
  (void) sl_tsdl_get_max_static_bytes (tsdl);
  /* the input itself as a stream file: any bytes must scan safely */
  (void) sl_ctf_scan_buffer (tsdl, data, size, &st);
  sl_ctf_stream_clear (&st);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = NULL;
  g_autofree char *why = NULL;
  gsize len = 0;
  g_autoptr(SlTsdl) tsdl = NULL;

  (void) sl_ctf_meta_is_ctf2 (data, size);
  if (size >= 4 && memcmp (data, "\x57\x1d\xd1\x75", 4) == 0)
    {
      if (sl_ctf_meta_depacketize (data, size, &text, &len, &why) != SL_CTF_META_OK)
        return 0;
    }
  else
    {
      text = g_strndup ((const char *) data, size);
      len = size;
    }
  if (sl_ctf_meta_is_ctf2 ((const guint8 *) text, len))
    {
      /* the export's exact reading: its layouts are not the scan's */
      g_autoptr(SlTsdl) full = sl_ctf2_parse_full (text, len, NULL);

      tsdl = sl_ctf2_parse (text, len, NULL);
    }
  else
    tsdl = sl_tsdl_parse (text, len, NULL);
  if (tsdl != NULL)
    use_tsdl (tsdl, data, size);
  return 0;
}

void
sl_fuzz_target_mutate (GByteArray *input,
                       GRand      *rand)
{
  const char *what;
  g_autofree char *text = NULL;
  gsize len = 0;
  gboolean packetized = input->len >= 4 && memcmp (input->data, "\x57\x1d\xd1\x75", 4) == 0;

  if (g_rand_int_range (rand, 0, 4) == 0 || (text = sl_fuzz_metadata_text (input->data, input->len, &len)) == NULL)
    {
      sl_fuzz_bytes (input, rand, 4096, &what);
      return;
    }
  {
    g_autoptr(GString) s = g_string_new_len (text, (gssize) len);

    sl_fuzz_tsdl (s, rand, &what);
    g_byte_array_set_size (input, 0);
    if (packetized)
      {
        g_autoptr(GByteArray) p = sl_fuzz_packetize (s->str, s->len, NULL, 4096);

        g_byte_array_append (input, p->data, p->len);
      }
    else
      g_byte_array_append (input, (const guint8 *) s->str, (guint) s->len);
  }
}
