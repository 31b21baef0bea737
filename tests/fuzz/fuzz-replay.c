/* fuzz-replay.c: main() of a fuzz target without libFuzzer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fuzz-TARGET [--mutate=N] [--seed=S] [--write-seeds=DIR] FILE|DIR...
 * runs the target on every file given (folders: every file in them), on
 * the target's built-in seeds, then on N mutations: mutation i takes
 * input i mod n and damages it 1 to 4 times with the target's mutator,
 * from a generator seeded with (S, i), so a failing mutation is replayed
 * with --first=i --mutate=1. The sanitizer build makes this a check.
 */

#include "config.h"

#include "sl-fuzz-target.h"

__attribute__ ((weak)) GPtrArray *
sl_fuzz_target_seeds (void)
{
  return NULL;
}

static int
cmp_paths (gconstpointer a,
           gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

static void
add_path (GPtrArray  *inputs,
          const char *path)
{
  g_autofree char *data = NULL;
  gsize len;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      /* ../shared/data is optional */
      g_print ("fuzz: %s is absent, skipped\n", path);
      return;
    }
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GDir) d = g_dir_open (path, 0, NULL);
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *n;

      while (d != NULL && (n = g_dir_read_name (d)) != NULL)
        g_ptr_array_add (names, g_build_filename (path, n, NULL));
      g_ptr_array_sort (names, cmp_paths);
      for (guint i = 0; i < names->len; i++)
        add_path (inputs, g_ptr_array_index (names, i));
      return;
    }
  if (!g_file_get_contents (path, &data, &len, NULL))
    {
      g_printerr ("fuzz: cannot read %s\n", path);
      exit (2);
    }
  g_ptr_array_add (inputs, g_bytes_new_take (g_steal_pointer (&data), len));
}

int
main (int    argc,
      char **argv)
{
  gint64 seed = 1;
  gint mutate = 0, first = 0;
  g_autofree char *write_seeds = NULL;
  GOptionEntry entries[] = {
    { "mutate", 0, 0, G_OPTION_ARG_INT, &mutate, "Run N mutations of the inputs too", "N" },
    { "first", 0, 0, G_OPTION_ARG_INT, &first, "Index of the first mutation", "I" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Seed of the mutations (default 1)", "S" },
    { "write-seeds", 0, 0, G_OPTION_ARG_FILENAME, &write_seeds, "Write the built-in seeds into DIR and exit", "DIR" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("FILE|DIR… — run a fuzz target on inputs and their mutations");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) seeds = sl_fuzz_target_seeds ();

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("fuzz: %s\n", error->message);
      return 2;
    }
  if (write_seeds != NULL)
    {
      g_mkdir_with_parents (write_seeds, 0755);
      for (guint i = 0; seeds != NULL && i < seeds->len; i++)
        {
          g_autofree char *name = g_strdup_printf ("seed-%u", i);
          g_autofree char *path = g_build_filename (write_seeds, name, NULL);
          gsize len;
          const char *d = g_bytes_get_data (g_ptr_array_index (seeds, i), &len);

          g_file_set_contents (path, d, (gssize) len, NULL);
        }
      return 0;
    }
  for (int i = 1; i < argc; i++)
    add_path (inputs, argv[i]);
  for (guint i = 0; seeds != NULL && i < seeds->len; i++)
    g_ptr_array_add (inputs, g_bytes_ref (g_ptr_array_index (seeds, i)));
  if (inputs->len == 0)
    {
      g_printerr ("fuzz: no input\n");
      return 2;
    }

  for (guint i = 0; i < inputs->len; i++)
    {
      gsize len;
      const guint8 *d = g_bytes_get_data (g_ptr_array_index (inputs, i), &len);

      LLVMFuzzerTestOneInput (d, len);
    }
  for (gint i = first; i < first + mutate; i++)
    {
      guint32 s[2] = { (guint32) seed, (guint32) i };
      g_autoptr(GRand) rand = g_rand_new_with_seed_array (s, 2);
      GBytes *from = g_ptr_array_index (inputs, (guint) i % inputs->len);
      g_autoptr(GByteArray) b = g_byte_array_new ();
      gsize len;
      const guint8 *d = g_bytes_get_data (from, &len);
      guint n = 1 + (guint) g_rand_int_range (rand, 0, 4);

      g_byte_array_append (b, d, (guint) len);
      for (guint k = 0; k < n; k++)
        sl_fuzz_target_mutate (b, rand);
      LLVMFuzzerTestOneInput (b->data, b->len);
    }
  g_print ("%s: %u inputs, %d mutations: no failure\n", g_get_prgname (), inputs->len, mutate);
  return 0;
}
