/* test-shared.c: the mechanisms every layer shares (util/): heap, random
 * numbers, string interner; the core's checks of its arguments
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-engine.h"
#include "sl-heap.h"
#include "sl-hull.h"
#include "sl-interner.h"
#include "sl-json-out.h"
#include "sl-report.h"
#include "sl-rng.h"

typedef struct
{
  gint64  key;
  guint32 seq;
  char    pad[20];
} Elem;

static gboolean
elem_less (gconstpointer a,
           gconstpointer b)
{
  return ((const Elem *) a)->key < ((const Elem *) b)->key;
}

static gboolean
elem_less_stable (gconstpointer a,
                  gconstpointer b)
{
  const Elem *x = a, *y = b;

  return x->key < y->key || (x->key == y->key && x->seq < y->seq);
}

/* Pushes and pops at random (many equal keys) against a brute-force
 * minimum: every pop is the least key; with the push order as tie-break,
 * exactly the least (key, push) pair. */
static void
test_heap (void)
{
  for (guint stable = 0; stable < 2; stable++)
    {
      SlHeapLessFunc less = stable ? elem_less_stable : elem_less;
      g_autoptr(GArray) heap = g_array_new (FALSE, FALSE, sizeof (Elem));
      g_autoptr(GArray) ref = g_array_new (FALSE, FALSE, sizeof (Elem));
      SlRng rng;
      guint32 seq = 0;
      guint pops = 0;

      sl_rng_init (&rng, 7, stable);
      for (guint step = 0; step < 20000; step++)
        {
          if (ref->len == 0 || sl_rng_below (&rng, 100) < 55)
            {
              Elem e = { 0 };

              e.key = (gint64) sl_rng_below (&rng, 50) - 25;
              e.seq = seq++;
              memset (e.pad, (int) (e.seq & 0x7f), sizeof e.pad);
              sl_heap_push (heap, &e, sizeof e, less);
              g_array_append_val (ref, e);
            }
          else
            {
              Elem out;
              guint best = 0;

              for (guint i = 1; i < ref->len; i++)
                if (elem_less_stable (&g_array_index (ref, Elem, i), &g_array_index (ref, Elem, best)))
                  best = i;
              g_assert_true (sl_heap_pop (heap, &out, sizeof out, less));
              g_assert_cmpint (out.key, ==, g_array_index (ref, Elem, best).key);
              g_assert_cmpint (out.pad[19], ==, (int) (out.seq & 0x7f));
              if (stable)
                g_assert_cmpuint (out.seq, ==, g_array_index (ref, Elem, best).seq);
              for (guint i = 0; i < ref->len; i++)
                if (g_array_index (ref, Elem, i).seq == out.seq)
                  {
                    g_array_remove_index_fast (ref, i);
                    break;
                  }
              pops++;
            }
          g_assert_cmpuint (heap->len, ==, ref->len);
        }
      g_assert_cmpuint (pops, >, 5000);
      while (ref->len > 0)
        {
          Elem out;

          g_assert_true (sl_heap_pop (heap, &out, sizeof out, less));
          g_array_set_size (ref, ref->len - 1);
        }
      {
        Elem out;

        g_assert_false (sl_heap_pop (heap, &out, sizeof out, less));
      }
    }
}

/* The sequence for a seed is fixed: the trace generator's output is
 * compared byte for byte, so these values must never change. They come
 * from an independent implementation of splitmix64 and xoshiro256**. */
static void
test_rng_sequence (void)
{
  static const struct
  {
    guint64 seed, stream, first[3], thousandth;
  } cases[] = {
    { 1, 1, { G_GUINT64_CONSTANT (0x1d08e40a8b50f326), G_GUINT64_CONSTANT (0xb10cf5c0615f9b4e),
              G_GUINT64_CONSTANT (0xb4036af7c002a702) }, G_GUINT64_CONSTANT (0xd86980ac7e769077) },
    { 42, 1003, { G_GUINT64_CONSTANT (0x629cc31b19e3980e), G_GUINT64_CONSTANT (0x7abd833bf1b25ad9),
                  G_GUINT64_CONSTANT (0x08f30fbf6e98be45) }, G_GUINT64_CONSTANT (0x29d97d01c48d2646) },
    { 0, 0, { G_GUINT64_CONSTANT (0x99ec5f36cb75f2b4), G_GUINT64_CONSTANT (0xbf6e1f784956452a),
              G_GUINT64_CONSTANT (0x1a5f849d4933e6e0) }, G_GUINT64_CONSTANT (0x7aac8c483a2edd2f) },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      SlRng rng;

      sl_rng_init (&rng, cases[c].seed, cases[c].stream);
      for (guint i = 0; i < 3; i++)
        g_assert_cmphex (sl_rng_u64 (&rng), ==, cases[c].first[i]);
      for (guint i = 3; i < 999; i++)
        sl_rng_u64 (&rng);
      g_assert_cmphex (sl_rng_u64 (&rng), ==, cases[c].thousandth);
    }
}

static void
test_rng_ranges (void)
{
  SlRng rng;
  guint counts[6] = { 0 };
  double sum = 0;
  guint chances = 0;

  sl_rng_init (&rng, 3, 9);
  for (guint i = 0; i < 60000; i++)
    {
      double u = sl_rng_double (&rng);
      gint64 r = sl_rng_range (&rng, -2, 3);
      double d = sl_rng_double_range (&rng, 5, 7);

      g_assert_cmpfloat (u, >=, 0);
      g_assert_cmpfloat (u, <, 1);
      g_assert_cmpint (r, >=, -2);
      g_assert_cmpint (r, <=, 3);
      g_assert_cmpfloat (d, >=, 5);
      g_assert_cmpfloat (d, <, 7);
      counts[sl_rng_below (&rng, 6)]++;
      sum += (double) sl_rng_exp (&rng, 1000);
      chances += sl_rng_chance (&rng, 0.25);
    }
  /* each face within 5 % of 10 000, the means within 3 % */
  for (guint k = 0; k < 6; k++)
    g_assert_cmpuint (ABS ((gint) counts[k] - 10000), <, 500);
  g_assert_cmpfloat (ABS (sum / 60000 - 999.5), <, 30);
  g_assert_cmpuint (ABS ((gint) chances - 15000), <, 450);
  g_assert_false (sl_rng_chance (&rng, 0));
}

static void
test_interner (void)
{
  g_autoptr(SlInterner) in = sl_interner_new ();
  char buf[32];
  gsize empty = sl_interner_get_memory_size (in);

  g_assert_cmpuint (sl_interner_intern (in, NULL), ==, 0);
  g_assert_cmpuint (sl_interner_intern (in, ""), ==, 0);
  g_assert_cmpstr (sl_interner_get (in, 0), ==, "");
  g_assert_cmpuint (sl_interner_get_length (in), ==, 1);

  for (guint round = 0; round < 2; round++)
    for (guint i = 0; i < 1000; i++)
      {
        g_snprintf (buf, sizeof buf, "name-%u", i);
        /* ids count from 1 in first-seen order, the same string the same id */
        g_assert_cmpuint (sl_interner_intern (in, buf), ==, i + 1);
      }
  g_assert_cmpuint (sl_interner_get_length (in), ==, 1001);
  for (guint i = 0; i < 1000; i++)
    {
      g_snprintf (buf, sizeof buf, "name-%u", i);
      g_assert_cmpstr (sl_interner_get (in, i + 1), ==, buf);
    }
  /* 1000 strings of 6 to 8 characters: at least their characters */
  g_assert_cmpuint (sl_interner_get_memory_size (in) - empty, >=, 7890);
}

/* A bad argument to a public entry point is a critical naming the
 * failed check, and the call returns without touching memory. */
#define expect_check(check) \
  g_test_expect_message ("Syncline", G_LOG_LEVEL_CRITICAL, "*assertion*" check "*failed*")

static void
test_entry_checks (void)
{
  g_autoptr(SlEngine) engine = sl_engine_new (NULL);
  g_autoptr(SlJsonOut) out = sl_json_out_new_string ();
  g_autofree char *text = NULL;
  SlTransform t, r;
  SlJournalMode mode;
  SlTreeKind kind;

  expect_check ("self != NULL");
  g_assert_null (sl_journal_get (NULL, 0));
  expect_check ("self != NULL");
  g_assert_cmpuint (sl_journal_get_next_seq (NULL), ==, 0);
  expect_check ("self != NULL");
  g_assert_cmpuint (sl_engine_get_n_hosts (NULL), ==, 0);
  expect_check ("name != NULL");
  g_assert_cmpuint (sl_engine_find_host (engine, NULL), ==, SL_HOST_NONE);
  expect_check ("self != NULL");
  g_assert_null (sl_engine_get_journal (NULL));
  expect_check ("self != NULL");
  g_assert_null (sl_hull_get_hull (NULL, TRUE));
  expect_check ("self != NULL");
  g_assert_cmpint (sl_hull_get_quality (NULL), ==, SL_QUALITY_ABSENT);
  expect_check ("kind != NULL");
  g_assert_false (sl_tree_kind_from_string ("mst", NULL));
  expect_check ("mode != NULL");
  g_assert_false (sl_journal_mode_from_string ("full", NULL));
  g_assert_true (sl_journal_mode_from_string ("full", &mode));
  g_assert_true (sl_tree_kind_from_string ("mst", &kind));

  sl_transform_init (&t, 10, 20, 0.0, 1e-6);
  r = t;
  expect_check ("out != NULL");
  sl_transform_invert (&t, NULL);
  expect_check ("self != NULL");
  sl_transform_rebase (NULL, 0, &r);
  g_assert_cmpint (r.origin, ==, t.origin);
  g_assert_cmpint (r.image, ==, t.image);

  expect_check ("out != NULL");
  sl_json_out_int (NULL, "n", 1);
  sl_json_out_begin_object (out, NULL);
  sl_json_out_int (out, "n", 1);
  sl_json_out_end_object (out);
  g_test_assert_expected_messages ();
  text = sl_json_out_steal_string (out);
  g_assert_cmpstr (text, ==, "{\"n\":1}");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shared/heap", test_heap);
  g_test_add_func ("/shared/rng/sequence", test_rng_sequence);
  g_test_add_func ("/shared/rng/ranges", test_rng_ranges);
  g_test_add_func ("/shared/interner", test_interner);
  g_test_add_func ("/shared/entry-checks", test_entry_checks);
  return g_test_run ();
}
