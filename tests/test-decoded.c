/* test-decoded.c: what syncline-decoder writes, pinned
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "sl-decoder.h"
#include "sl-event-store.h"
#include "sl-matcher.h"
#include "sl-wire.h"
#include "test-util.h"

/*
 * The decoder is run as the readers run it, once with the timeline's
 * events (--keep-events, the application) and once without (sync), on the
 * real traces of data/traces and on generated sets; everything it says of
 * the events is hashed field by field (strings by their text, not their
 * ids): the timeline's events with their packet details, the packet
 * events, the final counts and span. The hashes were recorded from main at
 * c0d4441, before the decoder's timeline path was made cheaper: any change
 * of what it decodes fails here. Change them only for a change of what the
 * decoder means to say (or of the generator, whose sets are made here),
 * recorded from the decoder before that change.
 */

typedef struct
{
  GChecksum  *events;
  GChecksum  *packets;
  GHashTable *strings;
  GArray     *infos;
  guint64     n_events;
  guint64     n_packets;
  SlWireCommit last;
  gboolean    ended;
} Digest;

static void
digest_events (Digest       *dg,
               const guint8 *data,
               gsize         size)
{
  guint next_info = 0;

  for (gsize off = 0; off + sizeof (SlEvent) <= size; off += sizeof (SlEvent))
    {
      SlEvent e;
      const char *str;
      guint8 fields[24];

      memcpy (&e, data + off, sizeof e);
      str = e.str != 0 ? g_hash_table_lookup (dg->strings, GUINT_TO_POINTER (e.str)) : "";
      g_assert_nonnull (str);
      /* the fields, not the struct: no padding is hashed */
      memcpy (fields, &e.time, 8);
      memcpy (fields + 8, &e.tid, 4);
      memcpy (fields + 12, &e.arg, 4);
      memcpy (fields + 16, &e.cpu, 2);
      fields[18] = e.kind;
      fields[19] = e.flags;
      memset (fields + 20, 0, 4);
      if (e.kind == SL_EVENT_PACKET_SEND || e.kind == SL_EVENT_PACKET_RECV)
        {
          const SlEventPacket *p;

          g_assert_cmpuint (next_info, <, dg->infos->len);
          p = &g_array_index (dg->infos, SlEventPacket, next_info++);
          memcpy (fields + 20, &p->sport, 2);
          memcpy (fields + 22, &p->dport, 2);
          g_checksum_update (dg->events, (const guchar *) &p->length, sizeof p->length);
        }
      g_checksum_update (dg->events, fields, sizeof fields);
      g_checksum_update (dg->events, (const guchar *) str, strlen (str) + 1);
      dg->n_events++;
    }
  g_assert_cmpuint (next_info, ==, dg->infos->len);
  g_array_set_size (dg->infos, 0);
}

static void
digest_packets (Digest       *dg,
                const guint8 *data,
                gsize         size)
{
  for (gsize off = 0; off + sizeof (SlPacketEvent) <= size; off += sizeof (SlPacketEvent))
    {
      SlPacketEvent pe;
      guint32 words[9];

      memcpy (&pe, data + off, sizeof pe);
      words[0] = pe.host;
      words[1] = pe.dir;
      words[2] = (guint32) pe.time;
      words[3] = (guint32) ((guint64) pe.time >> 32);
      words[4] = pe.family | (guint32) pe.has_length << 8 | (guint32) pe.flags << 16;
      words[5] = pe.sport | (guint32) pe.dport << 16;
      words[6] = pe.seq;
      words[7] = pe.ack_seq;
      words[8] = pe.length;
      g_checksum_update (dg->packets, (const guchar *) words, sizeof words);
      g_checksum_update (dg->packets, pe.saddr, sizeof pe.saddr);
      g_checksum_update (dg->packets, pe.daddr, sizeof pe.daddr);
      dg->n_packets++;
    }
}

static void
digest_frame (Digest            *dg,
              const SlWireFrame *f)
{
  switch (f->type)
    {
    case SL_WIRE_STRING:
      {
        guint32 id;

        g_assert_cmpuint (f->size, >, sizeof id);
        memcpy (&id, f->data, sizeof id);
        g_hash_table_insert (dg->strings, GUINT_TO_POINTER (id), sl_wire_string (f->data + 4, f->size - 4));
        break;
      }
    case SL_WIRE_PACKET_INFO:
      g_array_append_vals (dg->infos, f->data, f->size / sizeof (SlEventPacket));
      break;
    case SL_WIRE_EVENTS:
      digest_events (dg, f->data, f->size);
      break;
    case SL_WIRE_PACKETS:
      digest_packets (dg, f->data, f->size);
      break;
    case SL_WIRE_COMMIT:
      g_assert_cmpuint (f->size, >=, sizeof dg->last);
      memcpy (&dg->last, f->data, sizeof dg->last);
      break;
    case SL_WIRE_END:
      dg->ended = TRUE;
      break;
    case SL_WIRE_FATAL:
    case SL_WIRE_TRACE_FAILED:
    case SL_WIRE_INPUT_FAILED:
    case SL_WIRE_CRASH:
      g_error ("the decoder failed (frame %u)", f->type);
      break;
    default:
      break;
    }
}

/* "EVENTS-SHA256 PACKETS-SHA256 n_events n_packets events ignored first last" */
static char *
decode (const char *const *traces,
        gboolean           keep)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) p = NULL;
  g_autoptr(GBytes) out = NULL;
  const char *program = sl_decoder_get_program (&error);
  Digest dg = { 0 };
  SlWireReader r = { 0 };
  SlWireFrame f;
  gsize len;
  char *line;

  g_assert_no_error (error);
  g_ptr_array_add (argv, (char *) program);
  g_ptr_array_add (argv, (char *) "trace");
  if (keep)
    g_ptr_array_add (argv, (char *) "--keep-events");
  for (guint i = 0; traces[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) traces[i]);
  g_ptr_array_add (argv, NULL);
  /* its standard input /dev/null: nobody pauses it */
  p = g_subprocess_newv ((const char *const *) argv->pdata, G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                         &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate (p, NULL, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (p));
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 0);

  dg.events = g_checksum_new (G_CHECKSUM_SHA256);
  dg.packets = g_checksum_new (G_CHECKSUM_SHA256);
  dg.strings = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  dg.infos = g_array_new (FALSE, FALSE, sizeof (SlEventPacket));
  r.buf = (guint8 *) g_bytes_get_data (out, &len);
  r.len = len;
  while (sl_wire_next (&r, &f) == SL_WIRE_READ_FRAME)
    digest_frame (&dg, &f);
  g_assert_cmpuint (r.pos, ==, r.len);
  g_assert_true (dg.ended);
  g_assert_cmpuint (dg.infos->len, ==, 0);

  line = g_strdup_printf ("%s %s %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                          " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                          g_checksum_get_string (dg.events), g_checksum_get_string (dg.packets), dg.n_events,
                          dg.n_packets, dg.last.events, dg.last.ignored, dg.last.first, dg.last.last);
  g_checksum_free (dg.events);
  g_checksum_free (dg.packets);
  g_hash_table_destroy (dg.strings);
  g_array_unref (dg.infos);
  return line;
}

typedef struct
{
  const char *host;
  const char *keep;   /* with the timeline's events */
  const char *sync;   /* packet events only */
} Expected;

/* Each host's folder (relative to @root) decoded both ways against what
 * was recorded; the packet events must be the same both ways. */
static void
check_hosts (const char     *root,
             const Expected *expected,
             guint           n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *dir = g_build_filename (root, expected[i].host, NULL);
      const char *traces[] = { dir, NULL };
      g_autofree char *keep = decode (traces, TRUE);
      g_autofree char *sync = decode (traces, FALSE);
      g_auto(GStrv) k = g_strsplit (keep, " ", -1);
      g_auto(GStrv) s = g_strsplit (sync, " ", -1);

      g_test_message ("%s keep: %s", expected[i].host, keep);
      g_test_message ("%s sync: %s", expected[i].host, sync);
      /* the same packet events and counts whether or not the timeline's
       * events are made; no timeline event without --keep-events */
      g_assert_cmpstr (k[1], ==, s[1]);
      g_assert_cmpstr (k[3], ==, s[3]);
      g_assert_cmpstr (k[4], ==, s[4]);
      g_assert_cmpstr (s[2], ==, "0");
      g_assert_cmpstr (keep, ==, expected[i].keep);
      g_assert_cmpstr (sync, ==, expected[i].sync);
    }
}

/* A set of data/traces (skipped when absent). */
static void
check_data_set (const char     *set,
                const Expected *expected,
                guint           n)
{
  g_autofree char *root = sl_test_data_path ("traces", set, NULL);

  if (root != NULL)
    check_hosts (root, expected, n);
}

static void
test_synctraces (void)
{
  static const Expected expected[] = {
    { "scp_src",
      "fa0ca7ba4ac1535c1add9fbbac28126d3fbe2b4fe3f609ddaee376e5a78ae842 "
      "1b84faae3a1565a6e28ddeec9c599f077de397ecf1586e46b6f818659b0aa403 "
      "23223 51 110771 0 1361214076525090092 1361214099530082855",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 "
      "1b84faae3a1565a6e28ddeec9c599f077de397ecf1586e46b6f818659b0aa403 "
      "0 51 110771 0 1361214076525090092 1361214099530082855" },
    { "scp_dest",
      "a0915b7824db1fa5988c902405290592a3000ea0c0f599388e4c9ef3788075a8 "
      "893e276f028cc4e9aaf13884fda2ce41d12c81081be2e8bc7b5b91f77de1016f "
      "19220 49 85729 0 1361214078963711320 1361214096385469974",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 "
      "893e276f028cc4e9aaf13884fda2ce41d12c81081be2e8bc7b5b91f77de1016f "
      "0 49 85729 0 1361214078963711320 1361214096385469974" },
  };

  check_data_set ("synctraces", expected, G_N_ELEMENTS (expected));
}

static void
test_django (void)
{
  static const Expected expected[] = {
    { "django-client.phd.vm/kernel",
      "01acef11f14874bc36c704192380a557e4c74125829d64b0a9b9f1d18d23eb3c "
      "10385fe59edb60134cdfa9b2ca9f1483ce322c50efefdde65b0ae4f29056295f "
      "169581 219 170415 0 1405466040896942124 1405466043190590871",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 "
      "10385fe59edb60134cdfa9b2ca9f1483ce322c50efefdde65b0ae4f29056295f "
      "0 219 170415 0 1405466040896942124 1405466043190590871" },
    { "django-httpd.phd.vm/kernel",
      "f06df7c4d8910867b3f47dd7b832d8b3958580175fdc1f5a9eb9847e903ca3c1 "
      "c03c68b290b5e2e7d756a6222885c11db866424aabc6cd3b425987d363aa0660 "
      "79917 475 80654 0 1405466040775411269 1405466042955220613",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 "
      "c03c68b290b5e2e7d756a6222885c11db866424aabc6cd3b425987d363aa0660 "
      "0 475 80654 0 1405466040775411269 1405466042955220613" },
    { "django-db.phd.vm/kernel",
      "17eb8e16d222168800dfd165969bc243588ac7b6df2f884e39f45ca6664b61d0 "
      "fc983c6c51206eb7833bf76df06702b884b0f6c87191cf722626c72d8114842c "
      "71776 343 72405 0 1405466040710208614 1405466042863060893",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 "
      "fc983c6c51206eb7833bf76df06702b884b0f6c87191cf722626c72d8114842c "
      "0 343 72405 0 1405466040710208614 1405466042863060893" },
  };

  check_data_set ("django-vote", expected, G_N_ELEMENTS (expected));
}

/* IPv4 and IPv6 in both network event layouts, both event headers. */
static void
test_generated (void)
{
  static const Expected modern[] = {
    { "node-01/kernel",
      "c2dd44ea64f186facfb66a7feab77893b4036ca59ec4e2eea4d22ac837fb96dc "
      "5abf942008bcb3d468f641ce4f66d25e030bd885b4124f77ccd95211564f840a "
      "18465 472 18512 70 1700056467642010184 1700056469641493462",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 "
      "5abf942008bcb3d468f641ce4f66d25e030bd885b4124f77ccd95211564f840a "
      "0 472 18512 70 1700056467642010184 1700056469641493462" },
    { "node-02/kernel",
      "ae3d85daa1108b248a806c939dedbc06c1cc5dc3a6713c09827a1cdb5ddf3e22 "
      "9056538c6b13ba893c68806f7ac6546b6190dca0797d23970e35edbb19f511da "
      "22143 951 22216 93 1700000010000285468 1700000012000347285",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 "
      "9056538c6b13ba893c68806f7ac6546b6190dca0797d23970e35edbb19f511da "
      "0 951 22216 93 1700000010000285468 1700000012000347285" },
    { "node-03/kernel",
      "f9a9b59d3c625ad5efd289768a6cce72f74fd55c93905cdd544b06dd976cbc37 "
      "8412ff553f7f203b50bacce35cffec4a9f1b5730606dfd0c2428854cf1e0446f "
      "19216 500 19249 55 1699996556006251007 1699996558006235487",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 "
      "8412ff553f7f203b50bacce35cffec4a9f1b5730606dfd0c2428854cf1e0446f "
      "0 500 19249 55 1699996556006251007 1699996558006235487" },
  };
  static const Expected legacy[] = {
    { "node-01/kernel",
      "139d6f4b5ebda06e43ee82764bccb9048a02ab7e03a3c41df5e101d84d576be5 "
      "7dfeeb8bcedb9724dea616907caacb4d94d93a42a39efd771635f5a1037b5a13 "
      "19447 515 19482 57 1700000000003191549 1700000002003231164",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 "
      "7dfeeb8bcedb9724dea616907caacb4d94d93a42a39efd771635f5a1037b5a13 "
      "0 515 19482 57 1700000000003191549 1700000002003231164" },
    { "node-02/kernel",
      "30fdd50c199b4f4a679404775774310fe176b146680d3ecaf748fbb90e1d9a3e "
      "b3fbe82d530308999f7a4ef5c5017efe905263ad3880bc0ca26ea62c31fe4a82 "
      "20468 506 20509 65 1700000007493647004 1700000009493601142",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 "
      "b3fbe82d530308999f7a4ef5c5017efe905263ad3880bc0ca26ea62c31fe4a82 "
      "0 506 20509 65 1700000007493647004 1700000009493601142" },
  };
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *a = g_build_filename (tmp, "modern", NULL);
  g_autofree char *b = g_build_filename (tmp, "legacy", NULL);

  run_generate (a, (const char *const[]) { "--hosts=3", "--events=60000", "--duration=2", "--ip=mix", "--seed=7", NULL });
  check_hosts (a, modern, G_N_ELEMENTS (modern));
  run_generate (b, (const char *const[]) { "--hosts=2", "--events=40000", "--duration=2", "--ip=6",
                                           "--variant-style=legacy", "--event-header=compact", "--seed=8", NULL });
  check_hosts (b, legacy, G_N_ELEMENTS (legacy));
  rm_rf (tmp);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/decoded/synctraces", test_synctraces);
  g_test_add_func ("/decoded/django-vote", test_django);
  g_test_add_func ("/decoded/generated", test_generated);
  return g_test_run ();
}
