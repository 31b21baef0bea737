/* sl-cli-generate.c: syncline-cli generate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include <json-glib/json-glib.h>

#include "sl-cli.h"
#include "sl-generate.h"
#include "sl-json.h"
#include "sl-types.h"

typedef struct
{
  char     *out;
  char    **hosts;
  char    **links;
  char    **steps;
  gint64    n_hosts;
  gint64    start;
  double    duration;
  gint64    seed;
  gint64    events;
  gint64    cpus;
  gint64    threads;
  double    background;
  double    rate;
  gint64    connections;
  double    loss;
  double    duplicate;
  char     *latency;
  double    noise;
  char     *ip;
  char     *variant;
  char     *header;
  gint64    packet_kib;
  gint64    components;
  double    max_drift;
  gint64    max_offset;
  char     *wander;
  gboolean  force;
  gboolean  quiet;
  gboolean  json;
} Args;

static void
args_clear (Args *a)
{
  g_free (a->out);
  g_strfreev (a->hosts);
  g_strfreev (a->links);
  g_strfreev (a->steps);
  g_free (a->latency);
  g_free (a->ip);
  g_free (a->variant);
  g_free (a->header);
  g_free (a->wander);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Args, args_clear)

static gboolean
parse_pair (const char *str,
            double     *first,
            double     *second,
            gboolean   *has_second)
{
  g_auto(GStrv) parts = g_strsplit (str, ":", -1);
  guint n = g_strv_length (parts);
  char *end = NULL;

  if (n < 1 || n > 2)
    return FALSE;
  *first = g_ascii_strtod (parts[0], &end);
  if (end == parts[0] || *end != '\0' || !isfinite (*first))
    return FALSE;
  *has_second = n == 2;
  if (n == 2)
    {
      *second = g_ascii_strtod (parts[1], &end);
      if (end == parts[1] || *end != '\0' || !isfinite (*second))
        return FALSE;
    }
  return TRUE;
}

static gboolean
dir_is_empty (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);

  return dir == NULL || g_dir_read_name (dir) == NULL;
}

/* Validates the arguments into @o; returns an error message or NULL. */
static char *
options_from_args (const Args        *a,
                   SlGenerateOptions *o)
{
  double x, y;
  gboolean has_y;

  sl_generate_options_init (o);

  if (a->n_hosts != 0 && (a->n_hosts < 1 || a->n_hosts > SL_GENERATE_MAX_HOSTS))
    return g_strdup_printf ("--hosts: expected 1 to %u", SL_GENERATE_MAX_HOSTS);
  if (a->n_hosts != 0)
    o->n_hosts = (guint) a->n_hosts;
  if (a->start != G_MININT64)
    {
      if (a->start < 0)
        return g_strdup ("--start: expected ns since the epoch, not negative");
      o->start_ns = a->start;
    }
  if (!(a->duration >= 0.001 && a->duration <= 30 * 86400))
    return g_strdup ("--duration: expected 0.001 to 2592000 seconds");
  o->duration_ns = (gint64) llround (a->duration * 1e9);
  o->seed = (guint64) a->seed;
  if (a->events < 0)
    return g_strdup ("--events: expected a positive count (0: use --background)");
  o->events = (guint64) a->events;
  if (a->cpus < 1 || a->cpus > 256)
    return g_strdup ("--cpus: expected 1 to 256");
  o->cpus = (guint) a->cpus;
  if (a->threads < 0 || a->threads > 10000)
    return g_strdup ("--threads: expected 0 to 10000");
  o->threads = (guint) a->threads;
  if (!(a->background >= 0 && a->background <= 1e7))
    return g_strdup ("--background: expected 0 to 10000000 activities per CPU per second");
  o->background_rate = a->background;
  if (!(a->rate > 0 && a->rate <= 1e6))
    return g_strdup ("--rate: expected a positive number of segments per second, at most 1000000");
  o->link_rate = a->rate;
  if (a->connections < 1 || a->connections > 1000)
    return g_strdup ("--connections: expected 1 to 1000");
  o->connections = (guint) a->connections;
  if (!(a->loss >= 0 && a->loss < 0.5))
    return g_strdup ("--loss: expected a probability in [0, 0.5)");
  o->loss = a->loss;
  if (!(a->duplicate >= 0 && a->duplicate < 0.5))
    return g_strdup ("--duplicate: expected a probability in [0, 0.5)");
  o->duplicate = a->duplicate;
  if (a->latency != NULL)
    {
      if (!parse_pair (a->latency, &x, &y, &has_y) || !(x >= 1 && x <= 1e7) ||
          (has_y && !(y >= 0 && y <= 1e7)))
        return g_strdup_printf ("--latency: “%s” is not MIN_US[:JITTER_US] with MIN_US ≥ 1", a->latency);
      o->min_latency_ns = (gint64) llround (x * 1000);
      if (has_y)
        o->jitter_ns = (gint64) llround (y * 1000);
    }
  if (!(a->noise >= 0 && a->noise <= 1e6))
    return g_strdup ("--noise: expected 0 to 1000000 packets per host per second");
  o->noise_rate = a->noise;
  if (a->ip != NULL && !sl_generate_ip_from_string (a->ip, &o->ip))
    return g_strdup_printf ("--ip: “%s” is not 4, 6 or mix", a->ip);
  if (a->variant != NULL && !sl_generate_variant_from_string (a->variant, &o->variant))
    return g_strdup_printf ("--variant-style: “%s” is not modern or legacy", a->variant);
  if (a->header != NULL)
    {
      if (g_strcmp0 (a->header, "large") == 0)
        o->header = SL_CTF_HEADER_LARGE;
      else if (g_strcmp0 (a->header, "compact") == 0)
        o->header = SL_CTF_HEADER_COMPACT;
      else
        return g_strdup_printf ("--event-header: “%s” is not large or compact", a->header);
    }
  if (a->packet_kib < 4 || a->packet_kib > 65536 || a->packet_kib % 4 != 0)
    return g_strdup ("--packet-size: expected a multiple of 4 from 4 to 65536 KiB");
  o->packet_size = (gsize) a->packet_kib * 1024;
  if (a->components < 1 || a->components > SL_GENERATE_MAX_HOSTS)
    return g_strdup_printf ("--components: expected 1 to %u", SL_GENERATE_MAX_HOSTS);
  o->components = (guint) a->components;
  if (!(a->max_drift >= 0 && a->max_drift <= 10000))
    return g_strdup ("--max-drift-ppm: expected 0 to 10000");
  o->max_drift_ppm = a->max_drift;
  if (a->max_offset < 1000 || a->max_offset > 365 * 86400 * G_GINT64_CONSTANT (1000000000))
    return g_strdup ("--max-offset: expected 1000 ns to one year");
  o->max_offset_ns = a->max_offset;
  if (a->wander != NULL)
    {
      if (!parse_pair (a->wander, &x, &y, &has_y) || !(x >= 0 && x <= 1000) ||
          (has_y && !(y >= 1 && y <= 1e7)))
        return g_strdup_printf ("--wander: “%s” is not PPM[:PERIOD_S] (0 to 1000 ppm, period ≥ 1 s)",
                                a->wander);
      o->wander_ppm = x;
      if (has_y)
        o->wander_period_s = y;
    }
  return NULL;
}

/* the text summary lists the first hosts' clocks */
#define MAX_LISTED_HOSTS 64

static void
print_summary (const Args            *a,
               const SlGenerate      *gen,
               const SlGenerateStats *st)
{
  double rate = st->elapsed_s > 0 ? (double) st->events / st->elapsed_s : 0;
  guint n_hosts = sl_generate_get_n_hosts (gen);

  if (a->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonGenerator) jg = json_generator_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *text = NULL;

      json_builder_begin_object (b);
      sl_json_add_string (b, "out", a->out);
      sl_json_add_int (b, "hosts", sl_generate_get_n_hosts (gen));
      sl_json_add_int (b, "links", sl_generate_get_n_links (gen));
      sl_json_add_int (b, "events", (gint64) st->events);
      sl_json_add_int (b, "tcp_segments", (gint64) st->tcp_segments);
      sl_json_add_int (b, "lost", (gint64) st->lost);
      sl_json_add_int (b, "retransmissions", (gint64) st->retransmissions);
      sl_json_add_int (b, "noise_packets", (gint64) st->noise_packets);
      sl_json_add_int (b, "bytes", (gint64) st->bytes);
      sl_json_add_int (b, "files", st->files);
      sl_json_add_double (b, "elapsed_s", st->elapsed_s);
      sl_json_add_double (b, "cpu_s", sl_cli_cpu_seconds ());
      sl_json_add_double (b, "events_per_s", rate);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      json_generator_set_root (jg, root);
      json_generator_set_pretty (jg, TRUE);
      text = json_generator_to_data (jg, NULL);
      g_print ("%s\n", text);
      return;
    }
  if (a->quiet)
    return;

  g_print ("Wrote %" G_GUINT64_FORMAT " events for %u hosts and %u links to %s\n",
           st->events, sl_generate_get_n_hosts (gen), sl_generate_get_n_links (gen), a->out);
  g_print ("  TCP segments %" G_GUINT64_FORMAT ", lost %" G_GUINT64_FORMAT
           ", retransmissions %" G_GUINT64_FORMAT ", packets to ignore %" G_GUINT64_FORMAT "\n",
           st->tcp_segments, st->lost, st->retransmissions, st->noise_packets);
  g_print ("  %u files, %.1f MB in %.2f s (%.2f M events/s)\n",
           st->files, (double) st->bytes / 1e6, st->elapsed_s, rate / 1e6);
  for (guint i = 0; i < MIN (n_hosts, MAX_LISTED_HOSTS); i++)
    {
      const SlGenerateHost *h = sl_generate_get_host (gen, i);

      g_print ("  %-12s freq %" G_GUINT64_FORMAT " Hz, offset %" G_GINT64_FORMAT " ns, drift %+.3f ppm",
               h->name, h->freq_hz, h->offset_ns, h->drift_ppm);
      if (h->wander_ppm > 0)
        g_print (", wander %.3f ppm / %.0f s", h->wander_ppm, h->wander_period_s);
      g_print ("\n");
    }
  if (n_hosts > MAX_LISTED_HOSTS)
    g_print ("  … and %u more hosts (every clock is in the ground truth)\n", n_hosts - MAX_LISTED_HOSTS);
  g_print ("  ground truth: %s/ground-truth.json\n", a->out);
}

/* What --out and --host/--hosts must be; NULL when they are fine */
static char *
check_out (const Args *a)
{
  if (a->n_hosts != 0 && a->hosts != NULL)
    return g_strdup ("--hosts: cannot be combined with --host");
  if (g_file_test (a->out, G_FILE_TEST_EXISTS) && !g_file_test (a->out, G_FILE_TEST_IS_DIR))
    return g_strdup_printf ("%s: exists and is not a folder", a->out);
  if (!a->force && !dir_is_empty (a->out))
    return g_strdup_printf ("%s: folder is not empty (use --force to write into it)", a->out);
  return NULL;
}

/* --host and --link, in order; links may name automatic hosts */
static gboolean
add_hosts_and_links (SlGenerate  *gen,
                     const Args  *a,
                     GError     **error)
{
  for (guint i = 0; a->hosts != NULL && a->hosts[i] != NULL; i++)
    {
      SlGenerateHost h;
      gboolean ok;

      if (!sl_generate_parse_host (a->hosts[i], &h, error))
        return FALSE;
      ok = sl_generate_add_host (gen, &h, error);
      sl_generate_host_clear (&h);
      if (!ok)
        {
          g_prefix_error (error, "--host: ");
          return FALSE;
        }
    }
  if (a->links != NULL && a->hosts == NULL && !sl_generate_prepare_hosts (gen, error))
    return FALSE;
  for (guint i = 0; a->links != NULL && a->links[i] != NULL; i++)
    if (!sl_generate_add_link_spec (gen, a->links[i], error))
      return FALSE;
  /* steps name hosts too */
  if (a->steps != NULL && !sl_generate_prepare_hosts (gen, error))
    return FALSE;
  for (guint i = 0; a->steps != NULL && a->steps[i] != NULL; i++)
    if (!sl_generate_add_step_spec (gen, a->steps[i], error))
      return FALSE;
  return TRUE;
}

int
sl_cli_generate (int    argc,
                 char **argv)
{
  g_auto(Args) a = { 0 };
  GOptionEntry entries[] = {
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &a.out,
      "Folder to write (one DIR/<host>/kernel/ trace per host, DIR/ground-truth.json)", "DIR" },
    { "host", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a.hosts,
      "A host whose clock reads true + OFFSET_NS + DRIFT_PPM·1e-6·(true − start), counted at FREQ_HZ; "
      "WANDER_PPM adds a sinusoidal drift change of that amplitude and period (default 600 s); repeat",
      "NAME:FREQ_HZ:OFFSET_NS:DRIFT_PPM[:WANDER_PPM[:PERIOD_S]]" },
    { "hosts", 0, 0, G_OPTION_ARG_INT64, &a.n_hosts,
      "Without --host: create N hosts node-01… with random clocks (1 to 10000, default 4)", "N" },
    { "step", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a.steps,
      "HOST's clock jumps forward by STEP_NS, AFTER_S seconds after the start (a clock step; "
      "forward only: a trace's timestamps never go back); repeat", "HOST:AFTER_S:STEP_NS" },
    { "link", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a.links,
      "TCP traffic between hosts A (client) and B (server), RATE segments/s (default --rate); repeat. "
      "Without --link: a random tree per component plus a few extra links", "A:B[:RATE]" },
    { "start", 0, 0, G_OPTION_ARG_INT64, &a.start,
      "True time at which tracing starts, ns since the epoch (default 1700000000000000000)", "EPOCH_NS" },
    { "duration", 0, 0, G_OPTION_ARG_DOUBLE, &a.duration, "Traced seconds (default 10)", "S" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &a.seed, "Random seed (default 1); same arguments, same bytes", "N" },
    { "events", 0, 0, G_OPTION_ARG_INT64, &a.events,
      "Aim for about N events in all (the background rate adapts; default: use --background)", "N" },
    { "background", 0, 0, G_OPTION_ARG_DOUBLE, &a.background,
      "Background activities (syscalls, scheduling, interrupts; ~2.3 events each) per CPU per second "
      "(default 3000; 0: none)", "R" },
    { "cpus", 0, 0, G_OPTION_ARG_INT64, &a.cpus, "CPUs (stream files) per host (default 4)", "N" },
    { "threads", 0, 0, G_OPTION_ARG_INT64, &a.threads,
      "Background user threads per host, besides kernel and application threads (default 12)", "N" },
    { "rate", 0, 0, G_OPTION_ARG_DOUBLE, &a.rate,
      "TCP segments per second of links without a RATE (default 200)", "R" },
    { "connections", 0, 0, G_OPTION_ARG_INT64, &a.connections, "TCP connections per link (default 2)", "N" },
    { "loss", 0, 0, G_OPTION_ARG_DOUBLE, &a.loss,
      "Probability that a segment is lost and retransmitted (default 0.002)", "P" },
    { "duplicate", 0, 0, G_OPTION_ARG_DOUBLE, &a.duplicate,
      "Probability of a spurious retransmission, both copies arriving (default 0.001)", "P" },
    { "latency", 0, 0, G_OPTION_ARG_STRING, &a.latency,
      "Smallest one-way latency and mean extra latency in µs (default 40:25)", "MIN_US[:JITTER_US]" },
    { "noise", 0, 0, G_OPTION_ARG_DOUBLE, &a.noise,
      "UDP, ICMP, ARP, loopback and untraced-peer packets per host per second (default 20)", "R" },
    { "ip", 0, 0, G_OPTION_ARG_STRING, &a.ip, "Address family of the connections: 4 (default), 6 or mix", "4|6|mix" },
    { "variant-style", 0, 0, G_OPTION_ARG_STRING, &a.variant,
      "Network event layout: modern (tagged by transport_header_type, lttng-modules ≥ 2.9.8/2.10.5; default) or "
      "legacy (tagged by protocol/nexthdr, 2.9.0–2.10.4)", "modern|legacy" },
    { "event-header", 0, 0, G_OPTION_ARG_STRING, &a.header,
      "lttng event header: large (16-bit id, default) or compact (5-bit id)", "large|compact" },
    { "packet-size", 0, 0, G_OPTION_ARG_INT64, &a.packet_kib,
      "Largest packet (sub-buffer) in KiB, a multiple of 4 (default 256)", "KIB" },
    { "components", 0, 0, G_OPTION_ARG_INT64, &a.components,
      "Without --link: split the hosts into K groups that never talk to each other (default 1)", "K" },
    { "max-drift-ppm", 0, 0, G_OPTION_ARG_DOUBLE, &a.max_drift,
      "Without --host: drifts drawn in ±PPM (default 50)", "PPM" },
    { "max-offset", 0, 0, G_OPTION_ARG_INT64, &a.max_offset,
      "Without --host: |offsets| drawn log-uniformly from 1 µs to NS (default 2 days)", "NS" },
    { "wander", 0, 0, G_OPTION_ARG_STRING, &a.wander,
      "Without --host: non-linear clocks, drift changing by ±PPM over PERIOD_S (default 600)", "PPM[:PERIOD_S]" },
    { "force", 0, 0, G_OPTION_ARG_NONE, &a.force, "Write into DIR even if it is not empty", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &a.quiet, "Print nothing on success", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &a.json, "Print a JSON summary", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("— write realistic multi-host LTTng kernel traces");
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGenerate) gen = NULL;
  g_autofree char *msg = NULL;
  SlGenerateOptions options;
  SlGenerateStats stats;

  a.start = G_MININT64;
  a.duration = 10;
  a.seed = 1;
  a.cpus = 4;
  a.threads = 12;
  a.background = 3000;
  a.rate = 200;
  a.connections = 2;
  a.loss = 0.002;
  a.duplicate = 0.001;
  a.noise = 20;
  a.packet_kib = 256;
  a.components = 1;
  a.max_drift = 50;
  a.max_offset = 2 * 86400 * G_GINT64_CONSTANT (1000000000);

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_summary (ctx,
    "Simulates a distributed application on several hosts with known clocks and writes one "
    "lttng-modules-style CTF 1.8 kernel trace per host (scheduling, system calls, interrupts, "
    "net_dev_queue/net_if_receive_skb with full IPv4/IPv6 and TCP/UDP/ICMP headers), plus "
    "ground-truth.json with every host's clock. The output is byte-identical for the same "
    "arguments.");

  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return sl_cli_fail ("%s", error->message);
  if (argc > 1)
    return sl_cli_fail ("generate: unexpected argument “%s”", argv[1]);
  if (a.out == NULL || a.out[0] == '\0')
    return sl_cli_fail ("generate: --out=DIR is required");
  if ((msg = options_from_args (&a, &options)) != NULL)
    return sl_cli_fail ("%s", msg);
  if ((msg = check_out (&a)) != NULL)
    return sl_cli_fail ("%s", msg);

  gen = sl_generate_new (&options);
  if (!add_hosts_and_links (gen, &a, &error) || !sl_generate_run (gen, a.out, &stats, &error))
    return sl_cli_fail ("%s", error->message);
  print_summary (&a, gen, &stats);
  return 0;
}
