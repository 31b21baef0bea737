/* test-generate.c: generated LTTng kernel traces, read back by babeltrace2
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sl-engine.h"
#include "sl-generate.h"
#include "test-util.h"

static const char *
babeltrace2 (void)
{
  const char *bt = g_getenv ("SL_BABELTRACE2");

  if (bt == NULL || !g_file_test (bt, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("babeltrace2 is not installed (SL_BABELTRACE2 unset); skipping");
      return NULL;
    }
  return bt;
}

static JsonObject *
load_truth (JsonParser *parser,
            const char *dir)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (dir, "ground-truth.json", NULL);

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* Bad options */

static void
assert_clean_error (const char **args,
                    const char  *needle)
{
  Run r = { 0 };

  run_cli_argv (&r, args);
  g_assert_cmpint (r.status, ==, 2);
  if (!g_str_has_prefix (r.err, "syncline-cli: ") ||
      strchr (r.err, '\n') != r.err + strlen (r.err) - 1 ||
      strstr (r.err, needle) == NULL)
    g_error ("for %s: error “%s” is not one line mentioning “%s”", args[1], r.err, needle);
  g_assert_cmpstr (r.out, ==, "");
  run_clear (&r);
}

static void
test_bad_options (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *out = g_strdup_printf ("--out=%s/x", tmp);
  g_autofree char *full = g_build_filename (tmp, "full", NULL);
  g_autofree char *full_arg = g_strdup_printf ("--out=%s", full);
  g_autofree char *stray = g_build_filename (full, "stray", NULL);
  g_autofree char *file_arg = g_strdup_printf ("--out=%s", stray);

  {
    const char *a[] = { "generate", NULL };
    assert_clean_error (a, "--out=DIR is required");
  }
  {
    const char *a[] = { "generate", out, "--host=web", NULL };
    assert_clean_error (a, "NAME:FREQ_HZ:OFFSET_NS:DRIFT_PPM");
  }
  {
    const char *a[] = { "generate", out, "--host=web:0:0:0", NULL };
    assert_clean_error (a, "frequency");
  }
  {
    const char *a[] = { "generate", out, "--host=web:1000000000:12x:0", NULL };
    assert_clean_error (a, "offset");
  }
  {
    const char *a[] = { "generate", out, "--host=we/b:1000000000:0:0", NULL };
    assert_clean_error (a, "host name");
  }
  {
    const char *a[] = { "generate", out, "--host=a:1000000000:0:0", "--host=a:1000000000:0:0", NULL };
    assert_clean_error (a, "twice");
  }
  {
    const char *a[] = { "generate", out, "--host=a:1000000000:0:0", "--host=b:1000000000:0:0",
                        "--link=a:c", NULL };
    assert_clean_error (a, "no host named “c”");
  }
  {
    const char *a[] = { "generate", out, "--host=a:1000000000:0:0", "--link=a:a", NULL };
    assert_clean_error (a, "itself");
  }
  {
    const char *a[] = { "generate", out, "--link=node-01:node-02:-3", NULL };
    assert_clean_error (a, "rate");
  }
  {
    const char *a[] = { "generate", out, "--ip=5", NULL };
    assert_clean_error (a, "--ip");
  }
  {
    const char *a[] = { "generate", out, "--hosts=10001", NULL };
    assert_clean_error (a, "--hosts: expected 1 to 10000");
  }
  {
    const char *a[] = { "generate", out, "--variant-style=old", NULL };
    assert_clean_error (a, "--variant-style");
  }
  {
    const char *a[] = { "generate", out, "--event-header=tiny", NULL };
    assert_clean_error (a, "--event-header");
  }
  {
    const char *a[] = { "generate", out, "--duration=0", NULL };
    assert_clean_error (a, "--duration");
  }
  {
    const char *a[] = { "generate", out, "--loss=0.7", NULL };
    assert_clean_error (a, "--loss");
  }
  {
    const char *a[] = { "generate", out, "--packet-size=5", NULL };
    assert_clean_error (a, "--packet-size");
  }
  {
    const char *a[] = { "generate", out, "--latency=fast", NULL };
    assert_clean_error (a, "--latency");
  }
  {
    const char *a[] = { "generate", out, "--wander=2:0", NULL };
    assert_clean_error (a, "--wander");
  }
  {
    const char *a[] = { "generate", out, "--hosts=3", "--host=a:1000000000:0:0", NULL };
    assert_clean_error (a, "--hosts");
  }
  {
    const char *a[] = { "generate", out, "--bogus", NULL };
    assert_clean_error (a, "--bogus");
  }
  {
    const char *a[] = { "generate", out, "extra", NULL };
    assert_clean_error (a, "extra");
  }

  g_assert_cmpint (g_mkdir (full, 0755), ==, 0);
  g_assert_true (g_file_set_contents (stray, "x", 1, NULL));
  {
    const char *a[] = { "generate", full_arg, NULL };
    assert_clean_error (a, "not empty");
  }
  {
    const char *a[] = { "generate", file_arg, NULL };
    assert_clean_error (a, "not a folder");
  }
  g_assert_false (g_file_test (out + strlen ("--out="), G_FILE_TEST_EXISTS));
  rm_rf (tmp);
}

/* Decoding by babeltrace2 */

typedef struct
{
  SlPacketEvent ev;
} Packet;

static void
collect_cb (const SlPacketEvent *event,
            gint64               true_ns,
            gpointer             user_data)
{
  GArray *per_host = user_data;
  GArray *list = g_array_index (per_host, GArray *, event->host);

  g_array_append_val (list, *event);
}

static int
packet_cmp (gconstpointer a,
            gconstpointer b)
{
  const SlPacketEvent *x = a, *y = b;
  int c;

  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  if (x->dir != y->dir)
    return x->dir < y->dir ? -1 : 1;
  if (x->seq != y->seq)
    return x->seq < y->seq ? -1 : 1;
  if (x->ack_seq != y->ack_seq)
    return x->ack_seq < y->ack_seq ? -1 : 1;
  if (x->sport != y->sport)
    return x->sport < y->sport ? -1 : 1;
  c = memcmp (x->saddr, y->saddr, 16);
  if (c != 0)
    return c;
  return (int) x->flags - (int) y->flags;
}

static gboolean
field_u64 (const char *line,
           const char *key,
           guint64    *out)
{
  const char *p = strstr (line, key);
  char *end;

  if (p == NULL)
    return FALSE;
  p += strlen (key);
  *out = g_ascii_strtoull (p, &end, 0);
  return end != p;
}

static gboolean
field_addr (const char *line,
            const char *key,
            int         family,
            guint8      out[16])
{
  const char *p = strstr (line, key);

  memset (out, 0, 16);
  if (p == NULL)
    return FALSE;
  for (int i = 0; i < (family == 4 ? 4 : 8); i++)
    {
      char tag[16];
      char *end;
      guint64 v;

      g_snprintf (tag, sizeof tag, "[%d] = ", i);
      p = strstr (p, tag);
      if (p == NULL)
        return FALSE;
      p += strlen (tag);
      v = g_ascii_strtoull (p, &end, 0);
      if (family == 4)
        out[i] = (guint8) v;
      else
        {
          out[2 * i] = (guint8) (v >> 8);
          out[2 * i + 1] = (guint8) v;
        }
    }
  return TRUE;
}

static gint64
line_time (const char *line)
{
  guint64 s, ns;
  char *end;

  g_assert_true (line[0] == '[');
  s = g_ascii_strtoull (line + 1, &end, 10);
  g_assert_true (*end == '.');
  ns = g_ascii_strtoull (end + 1, &end, 10);
  g_assert_true (*end == ']');
  return (gint64) (s * 1000000000 + ns);
}

typedef struct
{
  guint64 tcp;
  guint64 udp;
  guint64 icmp;
  guint64 no_network_header;
  guint64 loopback;
} NetCounts;

/* The TCP network events of one host as babeltrace2 prints them. */
static GArray *
parse_tcp_events (char      **lines,
                  guint       host,
                  NetCounts  *counts)
{
  GArray *list = g_array_new (FALSE, TRUE, sizeof (SlPacketEvent));

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      gboolean send = strstr (l, " net_dev_queue: ") != NULL;
      gboolean recv = strstr (l, " net_if_receive_skb: ") != NULL;
      SlPacketEvent ev = { 0 };
      guint64 v = 0;
      int family;

      if (!send && !recv)
        continue;
      if (strstr (l, "name = \"lo\"") != NULL)
        counts->loopback++;
      if (strstr (l, "network_header_type = ( \"_unknown\"") != NULL)
        {
          counts->no_network_header++;
          continue;
        }
      family = strstr (l, "network_header_type = ( \"_ipv6\"") != NULL ? 6 : 4;
      if (strstr (l, "( \"_udp\"") != NULL)
        {
          counts->udp++;
          continue;
        }
      if (strstr (l, "( \"_icmp\"") != NULL)
        {
          counts->icmp++;
          continue;
        }
      g_assert_nonnull (strstr (l, family == 4 ? "protocol = ( \"_tcp\" : container = 6 )"
                                               : "nexthdr = ( \"_tcp\" : container = 6 )"));
      g_assert_nonnull (strstr (l, "data_offset = 8, reserved = 0"));
      counts->tcp++;

      ev.host = host;
      ev.dir = send ? SL_PACKET_SEND : SL_PACKET_RECV;
      ev.time = line_time (l);
      ev.family = (guint8) family;
      g_assert_true (field_addr (l, "saddr = [", family, ev.saddr));
      g_assert_true (field_addr (l, "daddr = [", family, ev.daddr));
      g_assert_true (field_u64 (l, "source_port = ", &v));
      ev.sport = (guint16) v;
      g_assert_true (field_u64 (l, "dest_port = ", &v));
      ev.dport = (guint16) v;
      g_assert_true (field_u64 (l, " seq = ", &v));
      ev.seq = (guint32) v;
      g_assert_true (field_u64 (l, "ack_seq = ", &v));
      ev.ack_seq = (guint32) v;
      g_assert_true (field_u64 (l, "flags = ", &v));
      ev.flags = (guint16) v;
      /* the TCP payload: the IP header's length less its own header
       * (IPv4; IPv6's counts without it) and the TCP header's 32 bytes */
      ev.has_length = TRUE;
      if (family == 4)
        {
          guint64 ihl = 0;

          g_assert_true (field_u64 (l, "tot_len = ", &v));
          g_assert_true (field_u64 (l, "ihl = ", &ihl));
          ev.length = (guint16) (v - 4 * ihl - 32);
        }
      else
        {
          g_assert_true (field_u64 (l, "payload_len = ", &v));
          ev.length = (guint16) (v - 32);
        }
      g_array_append_val (list, ev);
    }
  return list;
}

/* Splits @text in place. (Not g_strsplit(): under AddressSanitizer its
 * strstr() calls measure the whole remaining text each time.) */
static char **
split_lines (char  *text,
             guint *n_lines)
{
  GPtrArray *lines = g_ptr_array_new ();
  char *p = text;

  while (*p != '\0')
    {
      char *nl = strchr (p, '\n');

      g_ptr_array_add (lines, p);
      if (nl == NULL)
        break;
      *nl = '\0';
      p = nl + 1;
    }
  *n_lines = lines->len;
  g_ptr_array_add (lines, NULL);
  return (char **) g_ptr_array_free (lines, FALSE);
}

static gint64
json_int (JsonObject *o,
          const char *key)
{
  g_assert_true (json_object_has_member (o, key));
  return json_object_get_int_member (o, key);
}

/* Timestamps: what babeltrace2 prints for the sampled events is what the
 * ground truth says, and follows the clock formula within one tick. */
static void
check_samples (JsonObject  *host,
               gint64       start,
               gint64       duration,
               char       **lines)
{
  JsonArray *samples = json_object_get_array_member (host, "samples");
  gint64 offset = json_int (host, "offset_ns");
  double drift = json_object_get_double_member (host, "drift_ppm") * 1e-6;
  double wander = json_object_get_double_member (host, "wander_ppm") * 1e-6;
  double period = json_object_get_double_member (host, "wander_period_s") * 1e9;
  double tick = 1e9 / (double) json_int (host, "freq");
  gint64 last_true = 0;

  g_assert_cmpuint (json_array_get_length (samples), >=, 4);
  for (guint i = 0; i < json_array_get_length (samples); i++)
    {
      JsonObject *s = json_array_get_object_element (samples, i);
      g_autofree char *pat = g_strdup_printf ("%s: ", json_object_get_string_member (s, "event"));
      g_autofree char *len = g_strdup_printf (" len = %" G_GINT64_FORMAT ",", json_int (s, "len"));
      g_autofree char *seq = g_strdup_printf (" seq = %" G_GINT64_FORMAT ",", json_int (s, "seq"));
      g_autofree char *port = g_strdup_printf ("source_port = %" G_GINT64_FORMAT ",", json_int (s, "source_port"));
      gint64 true_ns = json_int (s, "true_ns"), dt = true_ns - start;
      double model = drift * (double) dt + wander * period / (2 * G_PI) * (1 - cos (2 * G_PI * (double) dt / period));
      const char *found = NULL;
      gint64 printed;

      for (guint k = 0; lines[k] != NULL && found == NULL; k++)
        if (strstr (lines[k], pat) && strstr (lines[k], len) && strstr (lines[k], seq) && strstr (lines[k], port))
          found = lines[k];
      if (found == NULL)
        g_error ("sample %s%s%s not in the babeltrace2 output", pat, seq, len);
      printed = line_time (found);
      g_assert_cmpint (printed, ==, json_int (s, "trace_ns"));
      /* local time per the formula, and what was printed, within one tick */
      g_assert_cmpfloat (fabs ((double) (json_int (s, "local_ns") - true_ns - offset) - model), <=, 1.0);
      g_assert_cmpfloat (fabs ((double) (printed - true_ns - offset) - model), <=, tick + 1.0);
      last_true = MAX (last_true, true_ns);
    }
  /* samples reach late into the trace: timestamp wrap-arounds are covered */
  g_assert_cmpint (last_true - start, >, duration / 2);
}

/* The line of @lines that holds every one of @needles (NULL-terminated). */
static const char *
find_line (GPtrArray         *lines,
           const char *const *needles)
{
  for (guint k = 0; k < lines->len; k++)
    {
      const char *line = g_ptr_array_index (lines, k);
      guint i = 0;

      while (needles[i] != NULL && strstr (line, needles[i]) != NULL)
        i++;
      if (needles[i] == NULL)
        return line;
    }
  return NULL;
}

/* The tasks of the ground truth are what the trace says: a state dump record
 * with their process, parent and status (lttng's WAIT_CPU or WAIT), or a
 * fork whose child_pid makes them a new process or a thread of the parent's,
 * and their exit. */
static void
check_tasks (JsonObject *host,
             char      **lines,
             guint      *processes,
             guint      *threads)
{
  JsonArray *tasks = json_object_get_array_member (host, "threads");
  g_autoptr(GPtrArray) dump = g_ptr_array_new ();
  g_autoptr(GPtrArray) fork = g_ptr_array_new ();
  g_autoptr(GPtrArray) exits = g_ptr_array_new ();
  for (guint k = 0; lines[k] != NULL; k++)
    if (strstr (lines[k], "lttng_statedump_process_state: ") != NULL)
      g_ptr_array_add (dump, lines[k]);
    else if (strstr (lines[k], "sched_process_fork: ") != NULL)
      g_ptr_array_add (fork, lines[k]);
    else if (strstr (lines[k], "sched_process_exit: ") != NULL)
      g_ptr_array_add (exits, lines[k]);

  g_assert_cmpuint (json_array_get_length (tasks), ==, dump->len + fork->len);
  for (guint i = 0; i < json_array_get_length (tasks); i++)
    {
      JsonObject *t = json_array_get_object_element (tasks, i);
      const char *origin = json_object_get_string_member (t, "origin");
      gint64 tid = json_int (t, "tid"), pid = json_int (t, "pid"), ppid = json_int (t, "ppid");
      const char *line;

      if (g_str_equal (origin, "statedump"))
        {
          g_autofree char *ids = g_strdup_printf ("{ tid = %" G_GINT64_FORMAT ", vtid = %" G_GINT64_FORMAT
                                                  ", pid = %" G_GINT64_FORMAT ", vpid = %" G_GINT64_FORMAT
                                                  ", ppid = %" G_GINT64_FORMAT ",", tid, tid, pid, pid, ppid);
          g_autofree char *status = g_strdup_printf (", status = %" G_GINT64_FORMAT ",", json_int (t, "status"));
          const char *needles[] = { ids, status, NULL };

          g_assert_true (json_int (t, "status") == 2 || json_int (t, "status") == 5);
          line = find_line (dump, needles);
        }
      else
        {
          gboolean thread = g_str_equal (origin, "thread");
          g_autofree char *parent = g_strdup_printf (", parent_pid = %" G_GINT64_FORMAT ",", thread ? pid : ppid);
          g_autofree char *child = g_strdup_printf (", child_tid = %" G_GINT64_FORMAT ", child_pid = %" G_GINT64_FORMAT
                                                    ",", tid, pid);
          const char *needles[] = { parent, child, NULL };

          g_assert_cmpint (tid == pid, ==, !thread);
          *threads += thread;
          *processes += !thread;
          line = find_line (fork, needles);
        }
      if (line == NULL)
        g_error ("task %" G_GINT64_FORMAT " (%s) is not in the trace", tid, origin);
      g_assert_cmpint (line_time (line), ==, json_int (t, "born_ns"));

      if (json_object_has_member (t, "exit_ns"))
        {
          g_autofree char *who = g_strdup_printf (", tid = %" G_GINT64_FORMAT ",", tid);
          const char *needles[] = { who, NULL };

          line = find_line (exits, needles);
          g_assert_nonnull (line);
          g_assert_cmpint (line_time (line), ==, json_int (t, "exit_ns"));
        }
    }
}

/* One scenario, given both as command-line arguments and in-process. */
typedef struct
{
  const char       *hosts[4];
  const char       *links[4];
  double            duration;
  double            background;
  double            noise;
  double            rate;
  double            loss;
  SlGenerateVariant variant;
  SlCtfHeader       header;
  SlGenerateIp      ip;
  guint             packet_kib;
  gboolean          check_determinism;
} DecodeCase;

static void
add_host (SlGenerate *gen,
          const char *spec)
{
  SlGenerateHost h;
  g_autoptr(GError) error = NULL;

  g_assert_true (sl_generate_parse_host (spec, &h, &error));
  g_assert_no_error (error);
  g_assert_true (sl_generate_add_host (gen, &h, &error));
  g_assert_no_error (error);
  sl_generate_host_clear (&h);
}

static GPtrArray *
case_args (const DecodeCase *dc,
           const char       *out)
{
  GPtrArray *a = g_ptr_array_new_with_free_func (g_free);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

#define ADD_NUM(opt, v) \
  g_ptr_array_add (a, g_strconcat (opt, g_ascii_dtostr (buf, sizeof buf, (v)), NULL))

  g_ptr_array_add (a, g_strdup ("generate"));
  g_ptr_array_add (a, g_strdup_printf ("--out=%s", out));
  g_ptr_array_add (a, g_strdup ("--quiet"));
  g_ptr_array_add (a, g_strdup ("--seed=7"));
  ADD_NUM ("--duration=", dc->duration);
  ADD_NUM ("--background=", dc->background);
  ADD_NUM ("--noise=", dc->noise);
  ADD_NUM ("--rate=", dc->rate);
  ADD_NUM ("--loss=", dc->loss);
  ADD_NUM ("--duplicate=", dc->loss / 2);
#undef ADD_NUM
  for (guint i = 0; dc->hosts[i] != NULL; i++)
    g_ptr_array_add (a, g_strconcat ("--host=", dc->hosts[i], NULL));
  for (guint i = 0; dc->links[i] != NULL; i++)
    g_ptr_array_add (a, g_strconcat ("--link=", dc->links[i], NULL));
  g_ptr_array_add (a, g_strconcat ("--variant-style=", sl_generate_variant_to_string (dc->variant), NULL));
  g_ptr_array_add (a, g_strconcat ("--ip=", sl_generate_ip_to_string (dc->ip), NULL));
  g_ptr_array_add (a, g_strdup (dc->header == SL_CTF_HEADER_COMPACT ? "--event-header=compact"
                                                                   : "--event-header=large"));
  g_ptr_array_add (a, g_strdup_printf ("--packet-size=%u", dc->packet_kib));
  g_ptr_array_add (a, NULL);
  return a;
}

static SlGenerate *
case_generator (const DecodeCase *dc)
{
  SlGenerateOptions options;
  SlGenerate *gen;

  sl_generate_options_init (&options);
  options.seed = 7;
  options.duration_ns = (gint64) (dc->duration * 1e9);
  options.background_rate = dc->background;
  options.noise_rate = dc->noise;
  options.link_rate = dc->rate;
  options.loss = dc->loss;
  options.duplicate = dc->loss / 2;
  options.variant = dc->variant;
  options.header = dc->header;
  options.ip = dc->ip;
  options.packet_size = dc->packet_kib * 1024;
  gen = sl_generate_new (&options);
  for (guint i = 0; dc->hosts[i] != NULL; i++)
    add_host (gen, dc->hosts[i]);
  for (guint i = 0; dc->links[i] != NULL; i++)
    g_assert_true (sl_generate_add_link_spec (gen, dc->links[i], NULL));
  return gen;
}

static void
test_decode (gconstpointer data)
{
  const DecodeCase *dc = data;
  const char *bt = babeltrace2 ();
  g_autofree char *tmp = NULL;
  g_autofree char *dir_a = NULL, *dir_b = NULL;
  g_autoptr(GPtrArray) args = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GArray) per_host = g_array_new (FALSE, TRUE, sizeof (GArray *));
  g_autoptr(SlGenerate) gen = NULL;
  g_autoptr(GError) error = NULL;
  SlGenerateStats stats;
  NetCounts counts = { 0 };
  JsonObject *truth;
  JsonArray *hosts;
  gint64 start;
  guint64 total = 0;
  guint processes = 0, threads = 0;
  Run r = { 0 };

  if (bt == NULL)
    return;

  tmp = make_tmpdir ();
  dir_a = g_build_filename (tmp, "a", NULL);
  dir_b = g_build_filename (tmp, "b", NULL);

  args = case_args (dc, dir_a);
  run_cli_argv (&r, (const char **) args->pdata);
  if (r.status != 0)
    g_error ("generate failed: %s", r.err);
  g_assert_cmpstr (r.out, ==, "");
  run_clear (&r);

  /* The same scenario in-process, without files: the packets it reports
   * are what babeltrace2 must decode from the files. */
  gen = case_generator (dc);
  g_assert_true (sl_generate_prepare (gen, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < sl_generate_get_n_hosts (gen); i++)
    {
      GArray *list = g_array_new (FALSE, TRUE, sizeof (SlPacketEvent));
      g_array_append_val (per_host, list);
    }
  sl_generate_set_packet_func (gen, collect_cb, per_host);
  g_assert_true (sl_generate_run (gen, NULL, &stats, &error));
  g_assert_no_error (error);

  truth = load_truth (parser, dir_a);
  start = json_int (truth, "start_ns");
  g_assert_cmpint (json_int (truth, "events"), ==, (gint64) stats.events);
  if (dc->loss > 0)
    {
      g_assert_cmpint (json_int (truth, "lost"), >, 0);
      g_assert_cmpint (json_int (truth, "retransmissions"), >, 0);
    }
  hosts = json_object_get_array_member (truth, "hosts");
  g_assert_cmpuint (json_array_get_length (hosts), ==, sl_generate_get_n_hosts (gen));

  for (guint i = 0; i < json_array_get_length (hosts); i++)
    {
      JsonObject *host = json_array_get_object_element (hosts, i);
      const char *name = json_object_get_string_member (host, "name");
      g_autofree char *path = g_build_filename (dir_a, name, "kernel", NULL);
      const char *bt_args[] = { "--clock-seconds", path, NULL };
      g_autofree char **lines = NULL;
      g_autoptr(GArray) decoded = NULL;
      GArray *written = g_array_index (per_host, GArray *, i);
      guint n_lines;

      run_argv (&r, bt, bt_args);
      if (r.status != 0)
        g_error ("babeltrace2 %s failed: %s", path, r.err);
      lines = split_lines (r.out, &n_lines);
      /* every event the generator wrote is decoded */
      g_assert_cmpint (n_lines, ==, json_int (host, "events"));
      total += n_lines;

      decoded = parse_tcp_events (lines, i, &counts);
      g_array_sort (decoded, packet_cmp);
      g_array_sort (written, packet_cmp);
      g_assert_cmpuint (decoded->len, ==, written->len);
      g_assert_cmpuint (decoded->len, >, 20);
      for (guint k = 0; k < decoded->len; k++)
        {
          const SlPacketEvent *x = &g_array_index (decoded, SlPacketEvent, k);
          const SlPacketEvent *y = &g_array_index (written, SlPacketEvent, k);

          if (packet_cmp (x, y) != 0 || x->family != y->family || x->dport != y->dport ||
              memcmp (x->daddr, y->daddr, 16) != 0 || !y->has_length || x->length != y->length)
            g_error ("%s: TCP event %u decodes as seq %u at %" G_GINT64_FORMAT " (%u bytes)"
                     ", but seq %u at %" G_GINT64_FORMAT " (%u bytes) was written",
                     name, k, x->seq, x->time, x->length, y->seq, y->time, y->length);
        }

      check_samples (host, start, json_int (truth, "duration_ns"), lines);
      check_tasks (host, lines, &processes, &threads);
      run_clear (&r);
      g_array_unref (written);
    }
  g_assert_cmpuint (total, ==, stats.events);
  /* the shells' children and the daemons' threads */
  if (dc->background > 0)
    {
      g_assert_cmpuint (processes, >, 0);
      g_assert_cmpuint (threads, >, 0);
    }
  /* packets readers must ignore are there, and decode */
  g_assert_cmpuint (counts.udp, >, 0);
  g_assert_cmpuint (counts.icmp, >, 0);
  g_assert_cmpuint (counts.loopback, >, 0);
  g_assert_cmpuint (counts.no_network_header, >, 0);

  if (dc->check_determinism)
    {
      g_autofree char *truth_a = NULL, *truth_b = NULL;

      g_autoptr(GPtrArray) args_b = case_args (dc, dir_b);

      run_cli_argv (&r, (const char **) args_b->pdata);
      g_assert_cmpint (r.status, ==, 0);
      run_clear (&r);
      for (guint i = 0; i < json_array_get_length (hosts); i++)
        {
          const char *name = json_object_get_string_member (json_array_get_object_element (hosts, i), "name");
          g_autofree char *ka = g_build_filename (dir_a, name, "kernel", NULL);
          g_autoptr(GDir) d = g_dir_open (ka, 0, NULL);
          const char *f;
          guint n = 0;

          while ((f = g_dir_read_name (d)) != NULL)
            {
              g_autofree char *pa = g_build_filename (dir_a, name, "kernel", f, NULL);
              g_autofree char *pb = g_build_filename (dir_b, name, "kernel", f, NULL);
              g_autofree char *ca = NULL, *cb = NULL;
              gsize la, lb;

              g_assert_true (g_file_get_contents (pa, &ca, &la, NULL));
              g_assert_true (g_file_get_contents (pb, &cb, &lb, NULL));
              g_assert_cmpmem (ca, la, cb, lb);
              n++;
            }
          g_assert_cmpuint (n, ==, 1 + json_int (json_array_get_object_element (hosts, i), "cpus"));
        }
      {
        g_autofree char *pa = g_build_filename (dir_a, "ground-truth.json", NULL);
        g_autofree char *pb = g_build_filename (dir_b, "ground-truth.json", NULL);
        gsize la, lb;

        g_assert_true (g_file_get_contents (pa, &truth_a, &la, NULL));
        g_assert_true (g_file_get_contents (pb, &truth_b, &lb, NULL));
        g_assert_cmpmem (truth_a, la, truth_b, lb);
      }
    }

  rm_rf (tmp);
}

#define THREE_HOSTS \
  { "web:1000000000:0:-4", "db:2400000000:-7200123456789:31.5:0.5:20", \
    "cache:3000000000:86400000000000:-480", NULL }
#define TWO_LINKS { "web:db:400", "web:cache:150", NULL }

static const DecodeCase case_modern_ipv4 = {
  THREE_HOSTS, TWO_LINKS, 3, 1500, 60, 200, 0.01,
  SL_GENERATE_VARIANT_MODERN, SL_CTF_HEADER_LARGE, SL_GENERATE_IP_4, 256, TRUE,
};

static const DecodeCase case_legacy_ipv6 = {
  THREE_HOSTS, TWO_LINKS, 3, 1500, 60, 200, 0.01,
  SL_GENERATE_VARIANT_LEGACY, SL_CTF_HEADER_COMPACT, SL_GENERATE_IP_6, 1024, FALSE,
};

static const DecodeCase case_modern_mix = {
  THREE_HOSTS, TWO_LINKS, 3, 1500, 60, 200, 0.01,
  SL_GENERATE_VARIANT_MODERN, SL_CTF_HEADER_COMPACT, SL_GENERATE_IP_MIX, 4, FALSE,
};

static const DecodeCase case_legacy_mix = {
  THREE_HOSTS, TWO_LINKS, 3, 1500, 60, 200, 0.01,
  SL_GENERATE_VARIANT_LEGACY, SL_CTF_HEADER_LARGE, SL_GENERATE_IP_MIX, 256, FALSE,
};

/* Seconds between events: full timestamps (extended headers) and the
 * truncated ones wrapping around many times. */
static const DecodeCase case_sparse_compact = {
  THREE_HOSTS, { "web:db", "cache:db", NULL }, 40, 0, 3, 4, 0,
  SL_GENERATE_VARIANT_MODERN, SL_CTF_HEADER_COMPACT, SL_GENERATE_IP_MIX, 256, FALSE,
};

static const DecodeCase case_sparse_large = {
  THREE_HOSTS, { "web:db", "cache:db", NULL }, 40, 0, 3, 4, 0,
  SL_GENERATE_VARIANT_LEGACY, SL_CTF_HEADER_LARGE, SL_GENERATE_IP_4, 256, FALSE,
};

/* Synchronizing the generated packets recovers the true clocks */

typedef struct
{
  SlEngine *engine;
  guint64   events;
} Feed;

static void
feed_cb (const SlPacketEvent *event,
         gint64               true_ns,
         gpointer             user_data)
{
  Feed *f = user_data;

  sl_engine_add_packet (f->engine, event, true_ns);
  f->events++;
}

typedef struct
{
  guint   hosts;
  guint   components;
  double  max_drift_ppm;
  gint64  max_offset_ns;
  double  loss;
  double  duplicate;
  double  seconds;
  guint64 seed;
  double  wander_ppm;
  double  wander_period_s;
  const char *step;
} SyncCase;

/* Automatic hosts are split into contiguous groups, as sl-generate.c does. */
static guint
component_of (guint h,
              guint n,
              guint k)
{
  for (guint c = 0; c < k; c++)
    if (h < (c + 1) * n / k)
      return c;
  g_assert_not_reached ();
}

static void
test_sync_bounds (gconstpointer data)
{
  const SyncCase *sc = data;
  SlGenerateOptions options;
  g_autoptr(SlGenerate) gen = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) refs = g_hash_table_new (NULL, NULL);
  SlEngineOptions eo;
  SlGenerateStats stats;
  Feed feed = { 0 };
  double worst = 0;

  sl_generate_options_init (&options);
  options.n_hosts = sc->hosts;
  options.components = sc->components;
  options.max_drift_ppm = sc->max_drift_ppm;
  options.max_offset_ns = sc->max_offset_ns;
  options.loss = sc->loss;
  options.duplicate = sc->duplicate;
  options.duration_ns = (gint64) (sc->seconds * 1e9);
  options.seed = sc->seed;
  options.background_rate = 0;
  options.noise_rate = 5;
  options.ip = SL_GENERATE_IP_MIX;
  options.wander_ppm = sc->wander_ppm;
  if (sc->wander_period_s > 0)
    options.wander_period_s = sc->wander_period_s;
  gen = sl_generate_new (&options);
  if (sc->step != NULL)
    {
      g_assert_true (sl_generate_prepare_hosts (gen, &error));
      g_assert_true (sl_generate_add_step_spec (gen, sc->step, &error));
    }
  g_assert_true (sl_generate_prepare (gen, &error));
  g_assert_no_error (error);

  sl_engine_options_init (&eo);
  feed.engine = sl_engine_new (&eo);
  for (guint i = 0; i < sl_generate_get_n_hosts (gen); i++)
    sl_engine_add_host (feed.engine, sl_generate_get_host (gen, i)->name);
  sl_generate_set_packet_func (gen, feed_cb, &feed);
  g_assert_true (sl_generate_run (gen, NULL, &stats, &error));
  g_assert_no_error (error);
  sl_engine_flush (feed.engine);
  g_assert_cmpuint (stats.lost, >, 0);
  g_assert_cmpuint (stats.retransmissions, >, 0);

  /* as a reader would: every host has events from the start to the end */
  for (guint h = 0; h < sl_generate_get_n_hosts (gen); h++)
    sl_engine_add_host_span (feed.engine, h, sl_generate_local_time (gen, h, sl_generate_get_start (gen)),
                             sl_generate_local_time (gen, h, sl_generate_get_start (gen) + sl_generate_get_duration (gen)));

  for (guint h = 0; h < sl_generate_get_n_hosts (gen); h++)
    {
      SlHostInfo hi = { 0 };
      gint64 start = sl_generate_get_start (gen), dur = sl_generate_get_duration (gen);
      guint component = component_of (h, sc->hosts, sc->components);

      sl_engine_get_host_info (feed.engine, h, &hi);
      g_assert_cmpuint (hi.reference, <, sl_generate_get_n_hosts (gen));
      /* hosts that never talk keep separate references */
      g_assert_cmpuint (component_of (hi.reference, sc->hosts, sc->components), ==, component);
      g_hash_table_add (refs, GUINT_TO_POINTER (hi.reference));
      g_assert_true (isfinite (hi.bound_ns));
      g_assert_cmpfloat (hi.bound_ns, <, 1e7);

      /* the truth at 1001 instants over the trace, against the bound at
       * each instant (wandering clocks and steps included) */
      for (int k = 0; k <= 1000; k++)
        {
          gint64 t = start + (gint64) ((__int128) dur * k / 1000);
          gint64 local = sl_generate_local_time (gen, h, t);
          double err = fabs ((double) (sl_relation_apply (hi.relation, local) -
                                       sl_generate_local_time (gen, hi.reference, t)));
          double b = sl_relation_bound_at (hi.relation, local);

          /* +4 ns: timestamps are whole ticks of clocks at ≥ 1 GHz */
          if (err > b + 4 || b > hi.bound_ns)
            g_error ("host %s at +%.3f s: error %.1f ns outside the bound %.1f ns (host bound %.1f ns)",
                     sl_generate_get_host (gen, h)->name, (double) (t - start) / 1e9, err, b, hi.bound_ns);
          worst = MAX (worst, err);
        }
      sl_host_info_clear (&hi);
    }
  g_assert_cmpuint (g_hash_table_size (refs), ==, sc->components);
  g_test_message ("%u hosts: %" G_GUINT64_FORMAT " packet events, worst error %.1f ns",
                  sc->hosts, feed.events, worst);
  sl_engine_free (feed.engine);
}

static const SyncCase sync_2 = { 2, 1, 500, 5000, 0.02, 0.01, 20, 11 };
static const SyncCase sync_5_days = { 5, 1, 500, G_GINT64_CONSTANT (3) * 86400 * 1000000000, 0.01, 0.005, 20, 12 };
static const SyncCase sync_16_split = { 16, 3, 200, G_GINT64_CONSTANT (86400) * 1000000000, 0.01, 0.005, 15, 13 };
static const SyncCase sync_64 = { 64, 1, 500, G_GINT64_CONSTANT (2) * 86400 * 1000000000, 0.005, 0.002, 10, 14 };
/* crystals that wander (2 ppm, 20-min period) over an hour, one clock step */
static const SyncCase sync_wander_step = { 5, 1, 50, 5000000000, 0.01, 0.005, 3600, 15, 2.0, 1200,
                                          "node-03:1800.5:3000000" };

/* linreg with the packets' sizes: the generated latency is base + 8 ns a
 * byte + jitter, a client's ACKs are empty and a server's responses are
 * not, so a round trip's offset D = θ + (d_ab − d_ba)/2 sits a few µs off
 * the truth, the same way all along. The same packets fed with their
 * payload lengths and without: with them the hull's fitted ns a byte
 * corrects the round trips, and the mean error (the bias) and the worst
 * error fall; the truth stays inside the band's bound in both. */
typedef struct
{
  SlEngine *engine[2];
} SizedFeed;

static void
sized_feed_cb (const SlPacketEvent *event,
               gint64               true_ns,
               gpointer             user_data)
{
  SizedFeed *f = user_data;
  SlPacketEvent plain = *event;

  g_assert_true (event->has_length);
  plain.has_length = FALSE;
  plain.length = 0;
  sl_engine_add_packet (f->engine[0], &plain, true_ns);
  sl_engine_add_packet (f->engine[1], event, true_ns);
}

static void
test_linreg_sizes (void)
{
  SlGenerateOptions options;
  g_autoptr(SlGenerate) gen = NULL;
  g_autoptr(GError) error = NULL;
  SlEngineOptions eo;
  SlGenerateStats stats;
  SizedFeed feed;
  double mean[2] = { 0, 0 }, worst[2] = { 0, 0 };
  gint64 start, dur;
  guint n = 2000;

  sl_generate_options_init (&options);
  options.n_hosts = 2;
  options.max_drift_ppm = 50;
  options.max_offset_ns = G_GINT64_CONSTANT (1000) * 1000000000;
  options.duration_ns = G_GINT64_CONSTANT (600) * 1000000000;
  options.seed = 47;
  /* lost, retransmitted and duplicated packets, which once pulled
   * linreg's single line hundreds of µs off (issue 14) */
  options.loss = 0.01;
  options.duplicate = 0.005;
  options.background_rate = 0;
  options.noise_rate = 0;
  options.wander_ppm = 1.0;
  options.wander_period_s = 1800;
  gen = sl_generate_new (&options);
  g_assert_true (sl_generate_prepare (gen, &error));
  g_assert_no_error (error);

  sl_engine_options_init (&eo);
  eo.algorithm = SL_ALGORITHM_LINREG;
  for (int k = 0; k < 2; k++)
    {
      feed.engine[k] = sl_engine_new (&eo);
      for (guint i = 0; i < sl_generate_get_n_hosts (gen); i++)
        sl_engine_add_host (feed.engine[k], sl_generate_get_host (gen, i)->name);
    }
  sl_generate_set_packet_func (gen, sized_feed_cb, &feed);
  g_assert_true (sl_generate_run (gen, NULL, &stats, &error));
  g_assert_no_error (error);

  start = sl_generate_get_start (gen);
  dur = sl_generate_get_duration (gen);
  for (int k = 0; k < 2; k++)
    {
      SlHostInfo hi = { 0 };
      guint h;

      sl_engine_flush (feed.engine[k]);
      for (h = 0; h < 2; h++)
        sl_engine_add_host_span (feed.engine[k], h, sl_generate_local_time (gen, h, start),
                                 sl_generate_local_time (gen, h, start + dur));
      /* the host that is not the reference */
      sl_engine_get_host_info (feed.engine[k], 0, &hi);
      h = hi.reference == 0 ? 1 : 0;
      sl_host_info_clear (&hi);
      sl_engine_get_host_info (feed.engine[k], h, &hi);
      g_assert_true (hi.synchronized);
      g_assert_cmpuint (hi.reference, !=, h);
      for (guint i = 0; i <= n; i++)
        {
          gint64 t = start + (gint64) ((__int128) dur * i / n);
          gint64 local = sl_generate_local_time (gen, h, t);
          double err = (double) (sl_relation_apply (hi.relation, local) -
                                 sl_generate_local_time (gen, hi.reference, t));
          double b = sl_relation_bound_at (hi.relation, local);

          if (fabs (err) > b + 4)
            g_error ("linreg %s sizes, at +%.3f s: error %.1f ns outside the bound %.1f ns",
                     k ? "with" : "without", (double) (t - start) / 1e9, err, b);
          mean[k] += err / (n + 1);
          worst[k] = MAX (worst[k], fabs (err));
        }
      sl_host_info_clear (&hi);
      sl_engine_free (feed.engine[k]);
    }
  g_test_message ("linreg: mean error %.2f us without the sizes, %.2f us with them; worst %.2f and %.2f us",
                  mean[0] / 1e3, mean[1] / 1e3, worst[0] / 1e3, worst[1] / 1e3);
  /* the set has the bias, and the sizes take most of it away (what is
   * left, about a µs, is not the sizes': c comes out within 5 % of the
   * generator's 8 ns a byte, and the hull's estimate on this set has
   * 0.3 µs; round trips are formed from the packets that answer one
   * another, a selection that favours the faster requests) */
  g_assert_cmpfloat (fabs (mean[0]), >, 1000);
  g_assert_cmpfloat (fabs (mean[1]), <, fabs (mean[0]) / 2);
  g_assert_cmpfloat (worst[1], <, worst[0] * 3 / 4);
  g_assert_cmpuint (stats.lost, >, 0);
  g_assert_cmpuint (stats.retransmissions, >, 0);
}

/* The ground truth file reproduces the clocks */

static void
test_truth_roundtrip (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *path = g_build_filename (tmp, "ground-truth.json", NULL);
  g_autoptr(SlGenerate) gen = NULL, loaded = NULL;
  g_autoptr(GError) error = NULL;
  SlGenerateOptions options;

  sl_generate_options_init (&options);
  options.n_hosts = 5;
  options.duration_ns = 200000000;
  options.background_rate = 0;
  options.max_drift_ppm = 500;
  options.wander_ppm = 1;
  options.wander_period_s = 30;
  gen = sl_generate_new (&options);
  g_assert_true (sl_generate_run (gen, tmp, NULL, &error));
  g_assert_no_error (error);

  loaded = sl_generate_load_truth (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (loaded);
  g_assert_cmpuint (sl_generate_get_n_hosts (loaded), ==, 5);
  g_assert_cmpuint (sl_generate_get_n_links (loaded), ==, sl_generate_get_n_links (gen));

  for (guint a = 0; a < 5; a++)
    {
      gint64 t = sl_generate_get_start (gen) + 123456789;

      g_assert_cmpstr (sl_generate_get_host (loaded, a)->name, ==, sl_generate_get_host (gen, a)->name);
      g_assert_cmpint (sl_generate_local_time (loaded, a, t), ==, sl_generate_local_time (gen, a, t));
      g_assert_cmpint (sl_generate_trace_time (loaded, a, t), ==, sl_generate_trace_time (gen, a, t));
      for (guint b = 0; b < 5; b++)
        {
          SlTransform x, y;
          gint64 local = sl_generate_local_time (gen, a, t);

          sl_generate_true_transform (gen, a, b, &x);
          g_assert_true (sl_generate_true_transform_by_name (loaded, sl_generate_get_host (gen, a)->name,
                                                             sl_generate_get_host (gen, b)->name, &y, NULL));
          g_assert_cmpint (sl_transform_apply (&x, local), ==, sl_transform_apply (&y, local));
          /* the linear relation is off by the wander, and no more */
          g_assert_cmpfloat (fabs ((double) (sl_transform_apply (&x, local) - sl_generate_local_time (gen, b, t))),
                             <=, sl_generate_wander_bound_ns (gen, a, b) + 1);
        }
    }
  g_assert_false (sl_generate_true_transform_by_name (loaded, "nobody", "node-1", NULL, &error));
  g_assert_error (error, SL_ERROR, SL_ERROR_INVALID);
  g_clear_error (&error);

  g_assert_null (sl_generate_load_truth (tmp, &error));
  g_assert_nonnull (error);
  rm_rf (tmp);
}

/* --events aims the total */

static void
test_events_target (void)
{
  SlGenerateOptions options;
  g_autoptr(SlGenerate) gen = NULL;
  g_autoptr(GError) error = NULL;
  SlGenerateStats stats;

  sl_generate_options_init (&options);
  options.n_hosts = 3;
  options.events = 400000;
  options.duration_ns = 5 * G_GINT64_CONSTANT (1000000000);
  gen = sl_generate_new (&options);
  g_assert_true (sl_generate_run (gen, NULL, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (fabs ((double) stats.events - 400000) / 400000, <, 0.02);
  g_test_message ("%" G_GUINT64_FORMAT " events in %.3f s: %.2f M events/s without files",
                  stats.events, stats.elapsed_s, (double) stats.events / stats.elapsed_s / 1e6);
}

/* Every file under @a has the same bytes under @b, and @b has no other */
static guint
assert_same_tree (const char *a,
                  const char *b)
{
  g_autoptr(GDir) da = g_dir_open (a, 0, NULL);
  g_autoptr(GDir) db = g_dir_open (b, 0, NULL);
  const char *name;
  guint files = 0, na = 0, nb = 0;

  g_assert_nonnull (da);
  g_assert_nonnull (db);
  while ((name = g_dir_read_name (da)) != NULL)
    {
      g_autofree char *pa = g_build_filename (a, name, NULL);
      g_autofree char *pb = g_build_filename (b, name, NULL);

      na++;
      if (g_file_test (pa, G_FILE_TEST_IS_DIR))
        files += assert_same_tree (pa, pb);
      else
        {
          g_autofree char *ca = NULL, *cb = NULL;
          gsize la = 0, lb = 0;

          g_assert_true (g_file_get_contents (pa, &ca, &la, NULL));
          if (!g_file_get_contents (pb, &cb, &lb, NULL))
            g_error ("%s is missing", pb);
          if (la != lb || memcmp (ca, cb, la) != 0)
            g_error ("%s and %s differ", pa, pb);
          files++;
        }
    }
  while (g_dir_read_name (db) != NULL)
    nb++;
  g_assert_cmpuint (na, ==, nb);
  return files;
}

/* More stream files than the process may keep open: each packet is appended
 * by opening its file, and the bytes do not change. */
static void
test_keep_closed (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *open_dir = g_build_filename (tmp, "open", NULL);
  g_autofree char *one_dir = g_build_filename (tmp, "one", NULL);
  g_autofree char *limit_dir = g_build_filename (tmp, "limit", NULL);
  SlGenerateOptions options;
  struct rlimit saved, low;
  g_autoptr(GError) error = NULL;
  guint files;

  sl_generate_options_init (&options);
  options.n_hosts = 40;
  options.duration_ns = 500000000;
  options.packet_size = 4096;
  {
    g_autoptr(SlGenerate) gen = sl_generate_new (&options);

    g_assert_true (sl_generate_run (gen, open_dir, NULL, &error));
    g_assert_no_error (error);
  }
  options.max_open_streams = 1;
  {
    g_autoptr(SlGenerate) gen = sl_generate_new (&options);

    g_assert_true (sl_generate_run (gen, one_dir, NULL, &error));
    g_assert_no_error (error);
  }
  /* the automatic budget: 160 streams, 64 files allowed */
  options.max_open_streams = 0;
  g_assert_cmpint (getrlimit (RLIMIT_NOFILE, &saved), ==, 0);
  low = saved;
  low.rlim_cur = 64;
  g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &low), ==, 0);
  {
    g_autoptr(SlGenerate) gen = sl_generate_new (&options);
    gboolean ok = sl_generate_run (gen, limit_dir, NULL, &error);

    g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &saved), ==, 0);
    g_assert_no_error (error);
    g_assert_true (ok);
  }

  files = assert_same_tree (open_dir, one_dir);
  g_assert_cmpuint (files, ==, 40 * 5 + 1);
  g_assert_cmpuint (assert_same_tree (open_dir, limit_dir), ==, files);
  rm_rf (tmp);
}

typedef struct
{
  const SlGenerate *gen;
  GHashTable       *addr_host;
  guint64           packets;
} ManyHosts;

static void
many_hosts_packet_cb (const SlPacketEvent *ev,
                      gint64               true_ns,
                      gpointer             user_data)
{
  ManyHosts *m = user_data;
  const guint8 *own = ev->dir == SL_PACKET_SEND ? ev->saddr : ev->daddr;
  guint key = (guint) own[ev->family == 4 ? 2 : 14] << 8 | own[ev->family == 4 ? 3 : 15];

  /* loopback */
  if (ev->family == 4 ? own[0] == 127 : own[15] == 1 && own[0] == 0)
    return;
  /* the host's own address (10.1.0.0/16, fd00:5c::/32) names it, and no other */
  if (ev->family == 4)
    g_assert_true (own[0] == 10 && own[1] == 1);
  else
    g_assert_true (own[0] == 0xfd && own[1] == 0 && own[2] == 0 && own[3] == 0x5c);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (m->addr_host, GUINT_TO_POINTER (key))), ==,
                    ev->host + 1);
  m->packets++;
}

/* Peak resident memory of the process in kB since the last
 * reset_peak_rss(), or 0 where Linux's /proc does not tell. */
static gboolean
reset_peak_rss (void)
{
  return g_file_set_contents ("/proc/self/clear_refs", "5", 1, NULL);
}

static guint64
peak_rss_kb (void)
{
  g_autofree char *text = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL) ||
      (line = strstr (text, "VmHWM:")) == NULL)
    return 0;
  return g_ascii_strtoull (line + 6, NULL, 10);
}

/* The most hosts a generator takes: every host its own name and
 * addresses, and one more is refused. Without files, its 40 000 streams
 * share one packet buffer: the run stays far below the 10 GB that a
 * buffer per stream took once the test harness filled freed and new
 * memory (MALLOC_PERTURB_). */
static void
test_many_hosts (void)
{
  SlGenerateOptions options;
  g_autoptr(SlGenerate) gen = NULL;
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) error = NULL;
  ManyHosts m = { 0 };
  SlGenerateStats stats;
  gboolean have_peak;
  guint64 peak;

  sl_generate_options_init (&options);
  options.n_hosts = SL_GENERATE_MAX_HOSTS + 1;
  gen = sl_generate_new (&options);
  g_assert_false (sl_generate_prepare (gen, &error));
  g_assert_error (error, SL_ERROR, SL_ERROR_INVALID);
  g_clear_error (&error);
  g_clear_pointer (&gen, sl_generate_free);

  options.n_hosts = SL_GENERATE_MAX_HOSTS;
  options.duration_ns = 20000000;
  options.background_rate = 100;
  options.link_rate = 400;
  options.noise_rate = 50;
  options.ip = SL_GENERATE_IP_MIX;
  gen = sl_generate_new (&options);
  m.gen = gen;
  m.addr_host = g_hash_table_new (NULL, NULL);
  g_assert_true (sl_generate_prepare (gen, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sl_generate_get_n_hosts (gen), ==, SL_GENERATE_MAX_HOSTS);
  for (guint i = 0; i < SL_GENERATE_MAX_HOSTS; i++)
    {
      const char *name = sl_generate_get_host (gen, i)->name;

      g_assert_true (g_hash_table_add (names, (gpointer) name));
      g_assert_cmpuint (sl_generate_find_host (gen, name), ==, i);
      g_hash_table_insert (m.addr_host, GUINT_TO_POINTER (i + 1), GUINT_TO_POINTER (i + 1));
    }
  sl_generate_set_packet_func (gen, many_hosts_packet_cb, &m);
  have_peak = reset_peak_rss ();
  g_assert_true (sl_generate_run (gen, NULL, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (m.packets, >, 10000);
  peak = peak_rss_kb ();
  g_test_message ("%u hosts: %" G_GUINT64_FORMAT " events, %" G_GUINT64_FORMAT " TCP packet events in %.2f s, "
                  "peak RSS %" G_GUINT64_FORMAT " kB",
                  SL_GENERATE_MAX_HOSTS, stats.events, m.packets, stats.elapsed_s, peak);
#if defined(__SANITIZE_ADDRESS__)
  /* the sanitizer's shadow memory and quarantine are not the generator's */
  have_peak = FALSE;
#endif
  /* ~85 MB here (the hosts, their threads and the queue); one 256 KB
   * buffer per stream made 270 MB untouched and 10 GB filled */
  if (have_peak && peak > 0)
    g_assert_cmpuint (peak, <, 192 * 1024);
  else
    g_test_message ("peak memory not checked (no /proc/self/clear_refs, or a sanitizer build)");
  g_hash_table_unref (m.addr_host);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/generate/bad-options", test_bad_options);
  g_test_add_data_func ("/generate/decode/modern-ipv4-large", &case_modern_ipv4, test_decode);
  g_test_add_data_func ("/generate/decode/legacy-ipv6-compact", &case_legacy_ipv6, test_decode);
  g_test_add_data_func ("/generate/decode/modern-mix-compact", &case_modern_mix, test_decode);
  g_test_add_data_func ("/generate/decode/legacy-mix-large", &case_legacy_mix, test_decode);
  g_test_add_data_func ("/generate/decode/sparse-compact", &case_sparse_compact, test_decode);
  g_test_add_data_func ("/generate/decode/sparse-large", &case_sparse_large, test_decode);
  g_test_add_data_func ("/generate/sync/2-hosts", &sync_2, test_sync_bounds);
  g_test_add_data_func ("/generate/sync/5-hosts-days", &sync_5_days, test_sync_bounds);
  g_test_add_data_func ("/generate/sync/16-hosts-3-components", &sync_16_split, test_sync_bounds);
  g_test_add_func ("/generate/sync/linreg-sizes", test_linreg_sizes);
  g_test_add_data_func ("/generate/sync/64-hosts", &sync_64, test_sync_bounds);
  g_test_add_data_func ("/generate/sync/wander-step-1h", &sync_wander_step, test_sync_bounds);
  g_test_add_func ("/generate/truth-roundtrip", test_truth_roundtrip);
  g_test_add_func ("/generate/events-target", test_events_target);
  g_test_add_func ("/generate/keep-closed", test_keep_closed);
  g_test_add_func ("/generate/many-hosts", test_many_hosts);

  return g_test_run ();
}
