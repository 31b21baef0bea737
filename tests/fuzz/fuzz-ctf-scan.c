/* fuzz-ctf-scan.c: the packet checks of a stream file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A stream file of an LTTng-like kernel trace (the metadata below), any
 * bytes: sl_ctf_scan_buffer() must end, find the good packets in order
 * and never read past the buffer.
 */

#include "config.h"

#include <string.h>

#include "sl-ctf-scan.h"
#include "sl-fuzz-mutate.h"
#include "sl-fuzz-target.h"
#include "sl-tsdl.h"

static const char metadata[] =
  "/* CTF 1.8 */\n"
  "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
  "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
  "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
  "trace { major = 1; minor = 8; uuid = \"2a6422d0-6cee-11e0-8c08-cb07d7b3a564\"; byte_order = le;\n"
  "  packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id;\n"
  "                            uint64_t stream_instance_id; }; };\n"
  "env { hostname = \"fuzz\"; domain = \"kernel\"; };\n"
  "clock { name = \"monotonic\"; uuid = \"0b9dcb5e-3e70-4d4c-9f38-0a0b0c0d0e0f\"; freq = 1000000000;\n"
  "  offset_s = 1700000000; offset = 0; };\n"
  "typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := clock_t;\n"
  "stream { id = 0; event.header := struct { uint32_t id; clock_t timestamp; };\n"
  "  packet.context := struct { clock_t timestamp_begin; clock_t timestamp_end; uint64_t content_size;\n"
  "    uint64_t packet_size; uint64_t packet_seq_num; uint64_t events_discarded; uint32_t cpu_id; }; };\n"
  "event { name = \"x\"; id = 0; stream_id = 0; fields := struct { uint32_t v; }; };\n";

static SlTsdl *
tsdl (void)
{
  static SlTsdl *t;

  if (t == NULL)
    t = sl_tsdl_parse (metadata, sizeof metadata - 1, NULL);
  g_assert (t != NULL);
  return t;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  SlCtfStream st = { 0 };

  (void) sl_ctf_scan_buffer (tsdl (), data, size, &st);
  g_assert (st.good_bytes <= size);
  for (guint i = 1; st.offsets != NULL && i < st.offsets->len; i++)
    g_assert (g_array_index (st.offsets, guint64, i) > g_array_index (st.offsets, guint64, i - 1));
  sl_ctf_stream_clear (&st);
  return 0;
}

void
sl_fuzz_target_mutate (GByteArray *input,
                       GRand      *rand)
{
  const char *what;

  if (g_rand_boolean (rand) && sl_fuzz_packets (input, metadata, sizeof metadata - 1, rand, &what))
    return;
  sl_fuzz_bytes (input, rand, 512, &what);
}

/* Three good packets of 256 bytes, two events each. */
GPtrArray *
sl_fuzz_target_seeds (void)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  GByteArray *b = g_byte_array_new ();
  static const guint8 uuid[16] = { 0x2a, 0x64, 0x22, 0xd0, 0x6c, 0xee, 0x11, 0xe0,
                                   0x8c, 0x08, 0xcb, 0x07, 0xd7, 0xb3, 0xa5, 0x64 };

  for (guint64 p = 0; p < 3; p++)
    {
      guint8 pkt[256] = { 0 };
      guint32 magic = 0xC1FC1FC1, zero = 0, cpu = 1;
      guint64 begin = 1000 + p * 1000, end = begin + 500, content = 116 * 8, size = 256 * 8;

      memcpy (pkt, &magic, 4);
      memcpy (pkt + 4, uuid, 16);
      memcpy (pkt + 20, &zero, 4);
      /* stream_instance_id 0 at 24 */
      memcpy (pkt + 32, &begin, 8);
      memcpy (pkt + 40, &end, 8);
      memcpy (pkt + 48, &content, 8);
      memcpy (pkt + 56, &size, 8);
      memcpy (pkt + 64, &p, 8);
      /* events_discarded 0 at 72 */
      memcpy (pkt + 80, &cpu, 4);
      for (guint e = 0; e < 2; e++)
        {
          guint64 ts = begin + 100 * (e + 1);
          guint32 v = e;

          memcpy (pkt + 84 + 16 * e, &zero, 4);
          memcpy (pkt + 88 + 16 * e, &ts, 8);
          memcpy (pkt + 96 + 16 * e, &v, 4);
        }
      g_byte_array_append (b, pkt, sizeof pkt);
    }
  g_ptr_array_add (out, g_byte_array_free_to_bytes (b));
  return out;
}
