/* sl-fuzz.c: damaged trace folders and LTTV files through syncline-cli
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each case takes one base input (generated star clusters, the real traces
 * of ../shared/data when present, LTTV unit cases), damages one host's
 * trace (or the LTTV file) in one of the classes below, runs
 * `syncline-cli sync --json` on it in its own process group and checks:
 * it ends (no hang: --timeout), with status 0 (LTTV: 0, or 2 with one
 * line naming the file; either: 3 when sync names the hosts that could
 * not be synchronized, which the host checks below still look at), every
 * stderr line is syncline-cli's, no
 * sanitizer wrote a report (ASAN/UBSAN log_path in the case's folder),
 * no decoder died, and every host that was not damaged has exactly the
 * transform, bound, path and event count of the undamaged run. Case N's
 * damage depends only on (--seed, N): `sl-fuzz --case=N` replays one.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sl-fuzz-mutate.h"
#include "sl-fuzz-util.h"

static const char *const class_names[N_CLASSES] = {
  "stream bytes", "packet headers and contexts", "metadata bytes", "TSDL edits", "identity (foreign, copies, "
  "clock steps)", "file-system oddities", "several at once", "LTTV text",
};

typedef struct
{
  char       *name;
  char       *dir;        /* the folder given to sync (trace bases) */
  char       *reference;  /* --reference */
  GPtrArray  *victims;    /* host folders (relative to dir) that may be damaged */
  GPtrArray  *victim_hosts; /* their host names in the report */
  GPtrArray  *files;      /* LTTV bases: the seed files */
  JsonNode   *baseline;   /* the undamaged run's report */
  guint       weight;
} Base;

typedef struct
{
  char      *cli;
  char      *work;
  guint64    seed;
  guint      first;
  guint      cases;
  guint      jobs;
  guint      timeout_s;
  gboolean   verbose;
  char      *keep;
  GPtrArray *bases;
  guint      total_weight;

  GMutex     lock;
  guint      done;
  guint      failed;
  guint      per_class[N_CLASSES];
  guint      failed_class[N_CLASSES];
  guint      silent_class[N_CLASSES]; /* no message: the damage read as valid data */
  double     max_case_s;
  guint      starved;     /* ran past the timeout, waiting for a processor */
  double     max_starved_s;
  guint      decoder_deaths;
  guint      crashes;     /* the CLI killed by a signal it did not get from us */
  guint      hangs;
  guint      sanitized;   /* cases with a sanitizer report (a leak included) */
} Fuzz;

/* ---------------------------------------------------------------------- */
/* Running the CLI                                                         */

/* ---------------------------------------------------------------------- */
/* Checks                                                                  */

/* Status 3: sync reported hosts it could not synchronize (a damaged
 * host, or one whose every link went with the damage). */
static gboolean
unsynchronized (const SlFuzzResult *r)
{
  return r->status == 3 && strstr (r->err, "could not be synchronized") != NULL;
}

/* One line per failure, appended to @why. Every warning names the host
 * ("host NAME: FILE: …") or the file (a path in the case's folder @dir).
 * Returns how many decoders died (babeltrace2 aborted or spun on what it
 * was fed; salvaged). */
static guint
check_stderr (const SlFuzzResult *r,
              const char         *dir,
              GString            *why)
{
  g_auto(GStrv) lines = g_strsplit (r->err, "\n", -1);
  guint deaths = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *warning = g_str_has_prefix (lines[i], "syncline-cli: warning: ") ? lines[i] + 23 : NULL;

      if (*lines[i] != '\0' && !g_str_has_prefix (lines[i], "syncline-cli: "))
        {
          g_string_append_printf (why, "stray stderr line: %.200s\n", lines[i]);
          break;
        }
      if (warning != NULL && !g_str_has_prefix (warning, "host ") && strstr (warning, dir) == NULL)
        g_string_append_printf (why, "a warning that names neither host nor file: %.200s\n", lines[i]);
      if (strstr (lines[i], "the trace decoder died") != NULL || strstr (lines[i], "made no progress") != NULL)
        deaths++;
    }
  return deaths;
}

/* Returns how many reports the case's processes wrote. */
static guint
check_sanitizers (const char *dir,
                  GString    *why)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, "sanitizer"))
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);
        g_autofree char *text = NULL;

        g_file_get_contents (path, &text, NULL, NULL);
        g_string_append_printf (why, "sanitizer report %s:\n%.2000s\n", name, text != NULL ? text : "");
        n++;
      }
  return n;
}

static void
check_hosts (Base       *b,
             JsonNode   *report,
             GPtrArray  *damaged,
             GString    *why)
{
  JsonArray *hosts = json_object_get_array_member (json_node_get_object (b->baseline), "hosts");
  JsonObject *root = report != NULL && JSON_NODE_HOLDS_OBJECT (report) ? json_node_get_object (report) : NULL;

  for (guint i = 0; i < json_array_get_length (hosts); i++)
    {
      JsonObject *want = json_array_get_object_element (hosts, i);
      const char *name = json_object_get_string_member (want, "name");
      JsonObject *got = sl_fuzz_report_host (root, name);
      g_autofree char *a = NULL, *c = NULL;

      if (g_ptr_array_find_with_equal_func (damaged, name, g_str_equal, NULL))
        continue;
      if (got == NULL)
        {
          g_string_append_printf (why, "undamaged host %s is missing from the report\n", name);
          continue;
        }
      a = sl_fuzz_host_key (want);
      c = sl_fuzz_host_key (got);
      if (!g_str_equal (a, c))
        g_string_append_printf (why, "undamaged host %s changed:\n  undamaged: %s\n  damaged:   %s\n", name, a, c);
    }
}

/* ---------------------------------------------------------------------- */
/* Cases                                                                   */

typedef struct
{
  guint        index;
  GRand       *rand;
  Base        *base;
  Class        klass;
  char        *dir;
  GString     *what;
  GPtrArray   *damaged;     /* host names whose results may change */
  char        *input;       /* LTTV: the file */
  Expect       expect;
} Case;

static Base *
pick_base (Fuzz *fz,
           GRand *rand)
{
  guint w = (guint) g_rand_int_range (rand, 0, (gint32) fz->total_weight);

  for (guint i = 0; i < fz->bases->len; i++)
    {
      Base *b = g_ptr_array_index (fz->bases, i);

      if (w < b->weight)
        return b;
      w -= b->weight;
    }
  return g_ptr_array_index (fz->bases, 0);
}

static void
run_case (Fuzz  *fz,
          guint  index)
{
  guint32 seeds[2] = { (guint32) fz->seed ^ (guint32) (fz->seed >> 32), index };
  Case c = { index };
  g_autoptr(GString) why = g_string_new (NULL);
  g_autofree char *name = g_strdup_printf ("case-%06u", index);
  g_autoptr(JsonParser) parser = json_parser_new ();
  guint deaths, reports;
  SlFuzzResult r;

  c.rand = g_rand_new_with_seed_array (seeds, G_N_ELEMENTS (seeds));
  c.dir = g_build_filename (fz->work, name, NULL);
  c.what = g_string_new (NULL);
  c.damaged = g_ptr_array_new_with_free_func (g_free);
  rm_rf (c.dir);
  g_assert_cmpint (g_mkdir_with_parents (c.dir, 0755), ==, 0);
  c.base = pick_base (fz, c.rand);

  if (c.base->files != NULL)
    {
      c.klass = CLASS_LTTV;
      c.input = sl_fuzz_make_lttv_case (c.base->files, c.dir, c.rand, c.what);
    }
  else
    c.klass = sl_fuzz_make_trace_case (c.base->dir, c.base->victims, c.base->victim_hosts, c.dir, c.rand,
                                       c.what, c.damaged, &c.expect);

  if (c.klass == CLASS_LTTV)
    {
      const char *args[] = { "sync", "--json", c.input, NULL };

      sl_fuzz_run (fz->cli, c.dir, args, fz->timeout_s, NULL, 0, &r);
      if (r.status != 0 && r.status != 2 && !unsynchronized (&r))
        g_string_append_printf (why, "exit status %d\n", r.status);
      if (r.status == 2 && (strstr (r.err, c.input) == NULL || strchr (r.err, '\n') != r.err + strlen (r.err) - 1))
        g_string_append_printf (why, "the error is not one line naming the file: %.300s\n", r.err);
    }
  else
    {
      g_autofree char *traces = g_build_filename (c.dir, "traces", NULL);
      g_autofree char *ref = g_strdup_printf ("--reference=%s", c.base->reference);
      const char *args[] = { "sync", "--json", ref, traces, NULL };

      sl_fuzz_run (fz->cli, c.dir, args, fz->timeout_s, NULL, 0, &r);
      if (r.status != 0 && !unsynchronized (&r))
        g_string_append_printf (why, "exit status %d\n", r.status);
      else if (!json_parser_load_from_data (parser, r.out, -1, NULL))
        g_string_append (why, "the report is not JSON\n");
      else
        check_hosts (c.base, json_parser_get_root (parser), c.damaged, why);
      for (guint k = 0; k < G_N_ELEMENTS (c.expect.needles) && c.expect.needles[k] != NULL; k++)
        if (strstr (r.err, c.expect.needles[k]) == NULL)
          g_string_append_printf (why, "no warning saying “%s”\n", c.expect.needles[k]);
    }
  if (r.timed_out)
    g_string_append_printf (why, "hang: killed after %.0f s, %.0f s of it waiting for a processor\n", r.seconds,
                            r.starved_s);
  else if (r.status < 0)
    g_string_append_printf (why, "crash: killed by signal %d\n", -r.status);
  deaths = check_stderr (&r, c.dir, why);
  reports = check_sanitizers (c.dir, why);

  g_mutex_lock (&fz->lock);
  fz->done++;
  fz->per_class[c.klass]++;
  fz->silent_class[c.klass] += r.err[0] == '\0';
  fz->max_case_s = MAX (fz->max_case_s, r.seconds);
  if (!r.timed_out && r.seconds > fz->timeout_s)
    {
      fz->starved++;
      fz->max_starved_s = MAX (fz->max_starved_s, r.starved_s);
    }
  fz->decoder_deaths += deaths;
  fz->crashes += r.status < 0 && !r.timed_out;
  fz->hangs += r.timed_out;
  fz->sanitized += reports > 0;
  if (why->len > 0)
    {
      fz->failed++;
      fz->failed_class[c.klass]++;
      g_printerr ("FAIL case %u of seed %" G_GUINT64_FORMAT " (base %s, %s: %s; again: sl-fuzz --seed=%"
                  G_GUINT64_FORMAT " --case=%u):\n%s  stderr: %.1500s\n", index, fz->seed, c.base->name,
                  class_names[c.klass], c.what->str, fz->seed, index, why->str, r.err);
    }
  else if (fz->verbose)
    g_printerr ("ok case %u (base %s, %s: %s) %.2f s\n%s", index, c.base->name, class_names[c.klass],
                c.what->str, r.seconds, r.err);
  else if (r.err[0] == '\0')
    /* for the campaign's triage: the damage was read as valid data? */
    g_printerr ("no message: case %u (base %s, %s: %s)\n", index, c.base->name, class_names[c.klass], c.what->str);
  if (fz->done % 100 == 0 && !fz->verbose)
    g_printerr ("%u cases, %u failed\n", fz->done, fz->failed);
  g_mutex_unlock (&fz->lock);

  if (why->len > 0 && fz->keep != NULL)
    {
      g_autofree char *to = g_build_filename (fz->keep, name, NULL);

      g_mkdir_with_parents (fz->keep, 0755);
      rm_rf (to);
      if (g_rename (c.dir, to) != 0)
        g_printerr ("cannot keep %s: %s\n", c.dir, g_strerror (errno));
    }
  else if (!fz->verbose || fz->cases > 1)
    rm_rf (c.dir);

  sl_fuzz_result_clear (&r);
  g_rand_free (c.rand);
  g_free (c.dir);
  g_free (c.input);
  g_string_free (c.what, TRUE);
  g_ptr_array_unref (c.damaged);
}

/* ---------------------------------------------------------------------- */
/* Bases                                                                   */

static gboolean
baseline (Fuzz  *fz,
          Base  *b)
{
  g_autofree char *dir = g_build_filename (fz->work, "baseline", b->name, NULL);
  g_autofree char *ref = g_strdup_printf ("--reference=%s", b->reference);
  const char *args[] = { "sync", "--json", ref, b->dir, NULL };
  g_autoptr(JsonParser) parser = json_parser_new ();
  SlFuzzResult r;

  g_mkdir_with_parents (dir, 0755);
  sl_fuzz_run (fz->cli, dir, args, fz->timeout_s, NULL, 0, &r);
  if (r.status != 0 || !json_parser_load_from_data (parser, r.out, -1, NULL))
    {
      g_printerr ("sl-fuzz: the undamaged %s does not sync (status %d): %s\n", b->name, r.status, r.err);
      sl_fuzz_result_clear (&r);
      return FALSE;
    }
  b->baseline = json_node_copy (json_parser_get_root (parser));
  sl_fuzz_result_clear (&r);
  rm_rf (dir);
  return TRUE;
}

static void
base_free (Base *b)
{
  g_free (b->name);
  g_free (b->dir);
  g_free (b->reference);
  if (b->victims != NULL)
    g_ptr_array_unref (b->victims);
  if (b->victim_hosts != NULL)
    g_ptr_array_unref (b->victim_hosts);
  if (b->files != NULL)
    g_ptr_array_unref (b->files);
  if (b->baseline != NULL)
    json_node_unref (b->baseline);
  g_free (b);
}

static Base *
trace_base (const char        *name,
            const char        *dir,
            const char        *reference,
            const char *const *victims,
            const char *const *hosts,
            guint              weight)
{
  Base *b = g_new0 (Base, 1);

  b->name = g_strdup (name);
  b->dir = g_strdup (dir);
  b->reference = g_strdup (reference);
  b->victims = g_ptr_array_new_with_free_func (g_free);
  b->victim_hosts = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; victims[i] != NULL; i++)
    {
      g_ptr_array_add (b->victims, g_strdup (victims[i]));
      g_ptr_array_add (b->victim_hosts, g_strdup (hosts[i]));
    }
  b->weight = weight;
  return b;
}

/* Small star clusters: A in the middle, the reference; B, C and D talk to
 * A only, so that damage to one leaf cannot move the others. */
static gboolean
generate_star (Fuzz       *fz,
               const char *name,
               const char *const *extra)
{
  g_autofree char *out = g_build_filename (fz->work, "bases", name, NULL);
  g_autofree char *o = g_strdup_printf ("--out=%s", out);
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autofree char *logs = g_build_filename (fz->work, "bases", NULL);
  static const char *const victims[] = { "B", "C", "D", NULL };
  const char *fixed[] = {
    "generate", o, "--host=A:1000000000:0:0", "--host=B:1000000000:5000000:20",
    "--host=C:2400000000:-3000000:-10", "--host=D:1000000000:70000000000:3", "--link=A:B", "--link=A:C",
    "--link=D:A", "--duration=1", "--background=150", "--cpus=2", "--packet-size=4", "--quiet",
  };
  SlFuzzResult r;

  for (guint i = 0; i < G_N_ELEMENTS (fixed); i++)
    g_ptr_array_add (args, (gpointer) fixed[i]);
  for (guint i = 0; extra[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) extra[i]);
  g_ptr_array_add (args, NULL);
  g_mkdir_with_parents (logs, 0755);
  sl_fuzz_run (fz->cli, logs, (const char *const *) args->pdata, fz->timeout_s, NULL, 0, &r);
  if (r.status != 0)
    {
      g_printerr ("sl-fuzz: generate failed: %s\n", r.err);
      sl_fuzz_result_clear (&r);
      return FALSE;
    }
  sl_fuzz_result_clear (&r);
  g_ptr_array_add (fz->bases, trace_base (name, out, "A", victims, victims, 30));
  return TRUE;
}

static void
real_bases (Fuzz *fz)
{
  const char *data = g_getenv ("SL_SHARED_DATA");
  g_autofree char *sync = NULL, *django = NULL, *lttv = NULL;
  static const char *const sync_victims[] = { "scp_src", NULL };
  static const char *const sync_hosts[] = { "VM1", NULL };
  static const char *const django_victims[] = { "django-client.phd.vm", "django-db.phd.vm", NULL };
  static const char *const django_hosts[] = { "django-client", "django-db", NULL };

  if (data == NULL)
    return;
  sync = g_build_filename (data, "traces", "synctraces", NULL);
  django = g_build_filename (data, "traces", "django-vote", NULL);
  lttv = g_build_filename (data, "lttv-sync-cases", NULL);
  if (g_file_test (sync, G_FILE_TEST_IS_DIR))
    g_ptr_array_add (fz->bases, trace_base ("synctraces", sync, "VM3", sync_victims, sync_hosts, 8));
  if (g_file_test (django, G_FILE_TEST_IS_DIR))
    g_ptr_array_add (fz->bases, trace_base ("django-vote", django, "django-httpd", django_victims, django_hosts, 3));
  if (g_file_test (lttv, G_FILE_TEST_IS_DIR))
    {
      Base *b = g_new0 (Base, 1);
      g_autoptr(GDir) d = g_dir_open (lttv, 0, NULL);
      const char *n;

      b->name = g_strdup ("lttv-sync-cases");
      b->files = g_ptr_array_new_with_free_func (g_free);
      while (d != NULL && (n = g_dir_read_name (d)) != NULL)
        if (g_str_has_prefix (n, "test") && g_str_has_suffix (n, ".txt"))
          g_ptr_array_add (b->files, g_build_filename (lttv, n, NULL));
      g_ptr_array_sort (b->files, (GCompareFunc) sl_fuzz_cmp_strings);
      b->weight = 10;
      g_ptr_array_add (fz->bases, b);
    }
}

static void
builtin_lttv (Fuzz *fz)
{
  Base *b = g_new0 (Base, 1);
  g_autofree char *dir = g_build_filename (fz->work, "bases", "lttv", NULL);

  b->name = g_strdup ("lttv-builtin");
  b->files = sl_fuzz_write_lttv_seeds (dir);
  b->weight = 10;
  g_ptr_array_add (fz->bases, b);
}

/* ---------------------------------------------------------------------- */

static gpointer
worker (gpointer data)
{
  Fuzz *fz = ((gpointer *) data)[0];
  guint w = GPOINTER_TO_UINT (((gpointer *) data)[1]);

  g_free (data);
  for (guint i = w; i < fz->cases; i += fz->jobs)
    run_case (fz, fz->first + i);
  return NULL;
}

/* @arg: a number, "daily" (today's UTC date, YYYYMMDD: another 300 cases
 * each day where the suite runs twice, printed so that a failure can be
 * replayed), or %NULL (1) */
static gboolean
parse_seed (const char *arg,
            guint64    *seed)
{
  if (arg == NULL)
    {
      *seed = 1;
      return TRUE;
    }
  if (g_str_equal (arg, "daily"))
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

      *seed = (guint64) g_date_time_get_year (now) * 10000 + (guint64) g_date_time_get_month (now) * 100 +
              (guint64) g_date_time_get_day_of_month (now);
      return TRUE;
    }
  return g_ascii_string_to_unsigned (arg, 10, 0, G_MAXUINT64, seed, NULL);
}

int
main (int    argc,
      char **argv)
{
  Fuzz fz = { 0 };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("— damaged traces and LTTV text through syncline-cli");
  g_autofree char *work = NULL;
  gint64 one = -1;
  g_autofree char *seed_arg = NULL;
  gint cases = 200, first = 0, jobs = 2, timeout = 120;
  gboolean verbose = FALSE, keep_work = FALSE;
  g_autofree char *keep = NULL, *cli = NULL;
  GOptionEntry entries[] = {
    { "cases", 0, 0, G_OPTION_ARG_INT, &cases, "How many cases (default 200)", "N" },
    { "first", 0, 0, G_OPTION_ARG_INT, &first, "Index of the first case (default 0)", "K" },
    { "case", 0, 0, G_OPTION_ARG_INT64, &one, "Run case K alone, verbosely, and keep its folder", "K" },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &seed_arg,
      "Seed (default 1): the same seed, the same cases; \"daily\": today's UTC date as YYYYMMDD", "S" },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "Cases run at once (default 2)", "J" },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &timeout, "Seconds after which a case is a hang (default 120)", "S" },
    { "keep", 0, 0, G_OPTION_ARG_FILENAME, &keep, "Move failing cases' folders into DIR", "DIR" },
    { "work", 0, 0, G_OPTION_ARG_FILENAME, &work, "Working folder (default: a new one in $TMPDIR, removed)", "DIR" },
    { "keep-work", 0, 0, G_OPTION_ARG_NONE, &keep_work, "Do not remove the working folder", NULL },
    { "cli", 0, 0, G_OPTION_ARG_FILENAME, &cli, "syncline-cli to run (default $SL_CLI)", "PATH" },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, "Print every case", NULL },
    { NULL }
  };
  static const char *const plain[] = { NULL };
  static const char *const other[] = { "--variant-style=legacy", "--event-header=compact", "--ip=6", "--seed=7",
                                       NULL };
  g_autoptr(GError) error = NULL;
  GPtrArray *threads;
  gboolean own_work = FALSE;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("sl-fuzz: %s\n", error->message);
      return 2;
    }
  fz.cli = cli != NULL ? g_steal_pointer (&cli) : g_strdup (g_getenv ("SL_CLI"));
  if (fz.cli == NULL)
    {
      g_printerr ("sl-fuzz: no syncline-cli (--cli or SL_CLI)\n");
      return 2;
    }
  if (work == NULL)
    {
      work = g_dir_make_tmp ("sl-fuzz-XXXXXX", &error);
      g_assert_no_error (error);
      own_work = !keep_work;
    }
  fz.work = g_steal_pointer (&work);
  if (!parse_seed (seed_arg, &fz.seed))
    {
      g_printerr ("sl-fuzz: --seed=%s: a number or \"daily\"\n", seed_arg);
      return 2;
    }
  /* printed first: a run that dies or hangs still says how to replay it */
  g_print ("sl-fuzz: seed %" G_GUINT64_FORMAT " (one case again: sl-fuzz --seed=%" G_GUINT64_FORMAT
           " --case=N)\n", fz.seed, fz.seed);
  fz.first = one >= 0 ? (guint) one : (guint) MAX (first, 0);
  fz.cases = one >= 0 ? 1 : (guint) MAX (cases, 0);
  fz.jobs = (guint) CLAMP (jobs, 1, 64);
  fz.timeout_s = (guint) MAX (timeout, 1);
  fz.verbose = verbose || one >= 0;
  fz.keep = g_steal_pointer (&keep);
  g_mutex_init (&fz.lock);
  fz.bases = g_ptr_array_new_with_free_func ((GDestroyNotify) base_free);

  /* unreadable files cannot be made for root: said once */
  if (!generate_star (&fz, "star", plain) || !generate_star (&fz, "star-legacy-ipv6", other))
    return 1;
  real_bases (&fz);
  builtin_lttv (&fz);
  for (guint i = 0; i < fz.bases->len; i++)
    {
      Base *b = g_ptr_array_index (fz.bases, i);

      if (b->files == NULL && !baseline (&fz, b))
        return 1;
      fz.total_weight += b->weight;
    }

  threads = g_ptr_array_new ();
  for (guint w = 0; w < fz.jobs; w++)
    {
      gpointer *data = g_new (gpointer, 2);

      data[0] = &fz;
      data[1] = GUINT_TO_POINTER (w);
      g_ptr_array_add (threads, g_thread_new ("fuzz", worker, data));
    }
  for (guint w = 0; w < threads->len; w++)
    g_thread_join (g_ptr_array_index (threads, w));
  g_ptr_array_unref (threads);

  g_print ("sl-fuzz: seed %" G_GUINT64_FORMAT ", cases %u to %u: %u run, %u failed (longest %.1f s)\n", fz.seed,
           fz.first, fz.first + fz.cases - 1, fz.done, fz.failed, fz.max_case_s);
  g_print ("  crashes %u, hangs %u, cases with a sanitizer report %u\n", fz.crashes, fz.hangs, fz.sanitized);
  g_print ("  decoder processes that died and were salvaged: %u\n", fz.decoder_deaths);
  g_print ("  cases past the timeout, held back by the machine (not hangs): %u (held back %.0f s at most)\n",
           fz.starved, fz.max_starved_s);
  for (guint k = 0; k < N_CLASSES; k++)
    g_print ("  %-40s %6u cases, %u failed, %u without a message\n", class_names[k], fz.per_class[k],
             fz.failed_class[k], fz.silent_class[k]);
  if (own_work && one < 0)
    rm_rf (fz.work);
  else
    g_print ("sl-fuzz: working folder %s\n", fz.work);
  g_ptr_array_unref (fz.bases);
  g_free (fz.cli);
  g_free (fz.work);
  g_free (fz.keep);
  g_mutex_clear (&fz.lock);
  return fz.failed == 0 ? 0 : 1;
}
