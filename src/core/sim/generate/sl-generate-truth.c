/* sl-generate-truth.c: ground-truth.json, written after a run and read
 * back for the checkers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "sl-generate-private.h"
#include "sl-json.h"
#include "sl-types.h"

#define FORMAT_NAME "syncline-generate-truth"

static void
format_addr (const guint8 *addr,
             int           family,
             char         *out,
             gsize         size)
{
  g_autoptr(GInetAddress) a = g_inet_address_new_from_bytes (addr, family == 4 ? G_SOCKET_FAMILY_IPV4
                                                                              : G_SOCKET_FAMILY_IPV6);
  g_autofree char *s = g_inet_address_to_string (a);

  g_strlcpy (out, s, size);
}

/* Per host and direction, the first two data segments and then one every
 * eighth of the trace (sl-generate-emit.c keeps them). */
static void
samples_json (SlGenerate  *self,
              const Host  *h,
              JsonBuilder *b)
{
  json_builder_set_member_name (b, "samples");
  json_builder_begin_array (b);
  for (guint k = 0; k < h->samples->len; k++)
    {
      const Sample *sm = &g_array_index (h->samples, Sample, k);

      json_builder_begin_object (b);
      sl_json_add_string (b, "event", sm->dir == 0 ? "net_dev_queue" : "net_if_receive_skb");
      sl_json_add_int (b, "cpu", sm->cpu);
      sl_json_add_int (b, "seq", sm->seq);
      sl_json_add_int (b, "len", sm->len);
      sl_json_add_int (b, "source_port", sm->sport);
      sl_json_add_int (b, "true_ns", sm->true_ns);
      sl_json_add_int (b, "local_ns", _sl_gen_local_time (self, h, sm->true_ns));
      sl_json_add_int (b, "cycles", (gint64) sm->cycles);
      sl_json_add_int (b, "trace_ns", cycles_to_trace_ns (h, sm->cycles));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* Every task but the idle ones: how it came (state dump, fork of a process,
 * new thread of its parent's process), when (born_ns: the state dump record
 * or the fork event, trace ns) and its state dump status (lttng's values). */
static void
threads_json (const Host  *h,
              JsonBuilder *b)
{
  json_builder_set_member_name (b, "threads");
  json_builder_begin_array (b);
  for (guint k = 0; k < h->threads->len; k++)
    {
      const Thread *th = &g_array_index (h->threads, Thread, k);

      if (th->kind == THREAD_IDLE)
        continue;
      json_builder_begin_object (b);
      sl_json_add_int (b, "tid", th->tid);
      sl_json_add_int (b, "pid", th->pid);
      sl_json_add_int (b, "ppid", th->ppid);
      sl_json_add_string (b, "name", th->comm);
      sl_json_add_string (b, "kind", th->kind == THREAD_KERNEL ? "kernel" : "user");
      sl_json_add_string (b, "origin", th->origin == ORIGIN_DUMP ? "statedump" :
                                    th->origin == ORIGIN_PROCESS ? "process" : "thread");
      if (th->origin == ORIGIN_DUMP)
        sl_json_add_int (b, "status", th->status);
      sl_json_add_int (b, "born_ns", cycles_to_trace_ns (h, th->born_cycles));
      if (th->exit_cycles != 0)
        sl_json_add_int (b, "exit_ns", cycles_to_trace_ns (h, th->exit_cycles));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
host_json (SlGenerate  *self,
           const Host  *h,
           JsonBuilder *b)
{
  char buf[64];

  json_builder_begin_object (b);
  sl_json_add_string (b, "name", h->pub.name);
  sl_json_add_int (b, "freq", (gint64) h->pub.freq_hz);
  sl_json_add_int (b, "offset_ns", h->pub.offset_ns);
  sl_json_add_double (b, "drift_ppm", h->pub.drift_ppm);
  sl_json_add_double (b, "wander_ppm", h->pub.wander_ppm);
  sl_json_add_double (b, "wander_period_s", h->pub.wander_period_s);
  sl_json_add_int (b, "step_after_ns", h->pub.step_after_ns);
  sl_json_add_int (b, "step_ns", h->pub.step_ns);
  sl_json_add_int (b, "start_ns", self->options.start_ns);
  sl_json_add_int (b, "cpus", h->n_cpus);
  sl_json_add_int (b, "clock_offset_s", h->clock_offset_s);
  sl_json_add_int (b, "clock_offset_cycles", 0);
  sl_ctf_uuid_to_string (h->boot_id, buf);
  sl_json_add_string (b, "boot_id", buf);
  sl_ctf_uuid_to_string (h->trace_uuid, buf);
  sl_json_add_string (b, "trace_uuid", buf);
  format_addr (h->addr4, 4, buf, sizeof buf);
  sl_json_add_string (b, "ipv4", buf);
  format_addr (h->addr6, 6, buf, sizeof buf);
  sl_json_add_string (b, "ipv6", buf);
  sl_json_add_int (b, "events", (gint64) h->events);
  samples_json (self, h, b);
  threads_json (h, b);
  json_builder_end_object (b);
}

static void
link_json (SlGenerate  *self,
           const Link  *l,
           JsonBuilder *b)
{
  json_builder_begin_object (b);
  sl_json_add_string (b, "a", host_at (self, l->pub.a)->pub.name);
  sl_json_add_string (b, "b", host_at (self, l->pub.b)->pub.name);
  sl_json_add_double (b, "rate", l->pub.rate);
  sl_json_add_int (b, "min_latency_ns", l->base_latency);
  sl_json_add_int (b, "segments", (gint64) l->segments);
  sl_json_add_int (b, "lost", (gint64) l->lost);
  sl_json_add_int (b, "retransmissions", (gint64) l->retransmissions);
  json_builder_set_member_name (b, "connections");
  json_builder_begin_array (b);
  for (guint k = 0; k < l->n_conns; k++)
    {
      const Conn *c = conn_at (self, l->first_conn + k);

      json_builder_begin_object (b);
      sl_json_add_int (b, "family", c->family);
      sl_json_add_int (b, "client_port", c->port[0]);
      sl_json_add_int (b, "server_port", c->port[1]);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

/* The options and the counts: the document's first members */
static JsonNode *
header_json (SlGenerate *self)
{
  const SlGenerateOptions *o = &self->options;
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  sl_json_add_string (b, "format", FORMAT_NAME);
  sl_json_add_int (b, "version", 1);
  sl_json_add_string (b, "clock_model",
    "local_ns = true_ns + offset_ns + drift_ppm*1e-6*(true_ns - start_ns) + "
    "wander_ppm*1e-6*P/(2*pi)*(1 - cos(2*pi*(true_ns - start_ns)/P)), P = wander_period_s*1e9, "
    "+ step_ns once true_ns - start_ns >= step_after_ns (when step_after_ns > 0); "
    "cycles = round(local_ns*freq/1e9) - clock_offset_s*freq; the trace shows "
    "clock_offset_s*1e9 + cycles*1e9/freq");
  sl_json_add_int (b, "seed", (gint64) o->seed);
  sl_json_add_int (b, "start_ns", o->start_ns);
  sl_json_add_int (b, "duration_ns", o->duration_ns);
  sl_json_add_string (b, "variant_style", sl_generate_variant_to_string (o->variant));
  sl_json_add_string (b, "event_header", o->header == SL_CTF_HEADER_COMPACT ? "compact" : "large");
  sl_json_add_string (b, "ip", sl_generate_ip_to_string (o->ip));
  sl_json_add_int (b, "packet_size", (gint64) o->packet_size);
  sl_json_add_double (b, "loss", o->loss);
  sl_json_add_double (b, "duplicate", o->duplicate);
  sl_json_add_int (b, "min_latency_ns", o->min_latency_ns);
  sl_json_add_int (b, "jitter_ns", o->jitter_ns);
  sl_json_add_double (b, "noise_rate", o->noise_rate);
  sl_json_add_int (b, "events_target", (gint64) o->events);
  sl_json_add_int (b, "events", (gint64) self->stats.events);
  sl_json_add_int (b, "tcp_segments", (gint64) self->stats.tcp_segments);
  sl_json_add_int (b, "lost", (gint64) self->stats.lost);
  sl_json_add_int (b, "retransmissions", (gint64) self->stats.retransmissions);
  sl_json_add_int (b, "noise_packets", (gint64) self->stats.noise_packets);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* The document is written a host or a link at a time, so that its size
 * (about 14 KB per host) is never held in memory: json-glib prints each
 * piece as it would inside the whole document, indented to its depth. */
typedef struct
{
  GOutputStream *out;
  gsize          bytes;
  GError       **error;
  gboolean       ok;
} TruthWriter;

static void
truth_write (TruthWriter *w,
             const char  *text,
             gsize        n)
{
  gsize written = 0;

  if (!w->ok)
    return;
  w->ok = g_output_stream_write_all (w->out, text, n, &written, NULL, w->error);
  w->bytes += written;
}

/* @node as json-glib's pretty printer writes it @depth levels deep: every
 * line indented by two spaces a level (@strip_last: without its closing
 * brace, to add members) */
static void
truth_write_node (TruthWriter *w,
                  JsonNode    *node,
                  guint        depth,
                  gboolean     strip_last)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *text = NULL;
  const char *line;

  json_generator_set_root (gen, node);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  if (strip_last)
    *strrchr (text, '\n') = '\0';
  for (line = text; line != NULL; )
    {
      const char *nl = strchr (line, '\n');

      for (guint i = 0; i < 2 * depth; i++)
        g_string_append_c (out, ' ');
      g_string_append_len (out, line, nl != NULL ? nl + 1 - line : (gssize) strlen (line));
      line = nl != NULL ? nl + 1 : NULL;
    }
  truth_write (w, out->str, out->len);
}

static void
truth_write_array (TruthWriter *w,
                   SlGenerate  *self,
                   const char  *name,
                   guint        n,
                   void       (*element) (SlGenerate  *self,
                                          guint        i,
                                          JsonBuilder *b))
{
  g_autofree char *head = g_strdup_printf ("  \"%s\" : [%s", name, n > 0 ? "\n" : "");

  truth_write (w, head, strlen (head));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) node = NULL;

      element (self, i, b);
      node = json_builder_get_root (b);
      truth_write_node (w, node, 2, FALSE);
      truth_write (w, i + 1 < n ? ",\n" : "\n  ", i + 1 < n ? 2 : 3);
    }
  truth_write (w, "]", 1);
}

static void
host_element (SlGenerate  *self,
              guint        i,
              JsonBuilder *b)
{
  host_json (self, host_at (self, i), b);
}

static void
link_element (SlGenerate  *self,
              guint        i,
              JsonBuilder *b)
{
  link_json (self, link_at (self, i), b);
}

/* ground-truth.json at @path: the options, the counts, every host's clock,
 * samples and tasks, every link's connections */
gboolean
_sl_gen_write_truth (SlGenerate  *self,
                     const char  *path,
                     GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileOutputStream) out = NULL;
  g_autoptr(JsonNode) header = header_json (self);
  TruthWriter w = { NULL, 0, error, TRUE };

  out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, error);
  if (out == NULL)
    return FALSE;
  w.out = G_OUTPUT_STREAM (out);
  truth_write_node (&w, header, 0, TRUE);
  truth_write (&w, ",\n", 2);
  truth_write_array (&w, self, "hosts", self->hosts->len, host_element);
  truth_write (&w, ",\n", 2);
  truth_write_array (&w, self, "links", self->links->len, link_element);
  truth_write (&w, "\n}", 2);
  if (!g_output_stream_close (w.out, NULL, w.ok ? error : NULL))
    w.ok = FALSE;
  if (w.ok)
    {
      self->stats.bytes += w.bytes;
      self->stats.files++;
    }
  return w.ok;
}

static gboolean
member_int (JsonObject  *o,
            const char  *key,
            gint64      *out,
            GError     **error)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || json_node_get_value_type (n) != G_TYPE_INT64)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "ground truth: “%s” missing or not an integer", key);
      return FALSE;
    }
  *out = json_node_get_int (n);
  return TRUE;
}

static gboolean
member_double (JsonObject  *o,
               const char  *key,
               double      *out,
               GError     **error)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || JSON_NODE_TYPE (n) != JSON_NODE_VALUE ||
      (json_node_get_value_type (n) != G_TYPE_DOUBLE && json_node_get_value_type (n) != G_TYPE_INT64))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "ground truth: “%s” missing or not a number", key);
      return FALSE;
    }
  *out = json_node_get_double (n);
  return TRUE;
}

/* Reads a ground-truth.json written by sl_generate_run(): hosts, clocks and
 * links, enough for sl_generate_true_transform*(), _local_time() and
 * _trace_time(). The result cannot be run. */
SlGenerate *
sl_generate_load_truth (const char  *path,
                        GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(SlGenerate) self = NULL;
  SlGenerateOptions options;
  JsonObject *root;
  JsonArray *hosts, *links;
  gint64 v;

  g_return_val_if_fail (path != NULL, NULL);

  if (!json_parser_load_from_file (parser, path, error))
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "%s: not a ground-truth file", path);
      return NULL;
    }
  root = json_node_get_object (json_parser_get_root (parser));
  if (g_strcmp0 (json_object_get_string_member_with_default (root, "format", ""), FORMAT_NAME) != 0 ||
      !json_object_has_member (root, "hosts") || !json_object_has_member (root, "links"))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "%s: not a ground-truth file", path);
      return NULL;
    }

  sl_generate_options_init (&options);
  if (!member_int (root, "start_ns", &options.start_ns, error) ||
      !member_int (root, "duration_ns", &options.duration_ns, error) ||
      !member_int (root, "seed", &v, error))
    return NULL;
  options.seed = (guint64) v;
  sl_generate_variant_from_string (json_object_get_string_member_with_default (root, "variant_style", ""),
                                   &options.variant);
  options.header = g_strcmp0 (json_object_get_string_member_with_default (root, "event_header", ""),
                              "compact") == 0 ? SL_CTF_HEADER_COMPACT : SL_CTF_HEADER_LARGE;
  self = sl_generate_new (&options);

  hosts = json_object_get_array_member (root, "hosts");
  for (guint i = 0; hosts != NULL && i < json_array_get_length (hosts); i++)
    {
      JsonObject *ho = json_array_get_object_element (hosts, i);
      SlGenerateHost hd = { 0 };
      gint64 freq, cpus, off_s;
      Host *h;

      if (ho == NULL)
        {
          g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "%s: host %u is not an object", path, i);
          return NULL;
        }
      hd.name = (char *) json_object_get_string_member_with_default (ho, "name", "");
      if (!member_int (ho, "freq", &freq, error) ||
          !member_int (ho, "offset_ns", &hd.offset_ns, error) ||
          !member_double (ho, "drift_ppm", &hd.drift_ppm, error) ||
          !member_double (ho, "wander_ppm", &hd.wander_ppm, error) ||
          !member_double (ho, "wander_period_s", &hd.wander_period_s, error) ||
          !member_int (ho, "cpus", &cpus, error) ||
          !member_int (ho, "clock_offset_s", &off_s, error))
        return NULL;
      hd.freq_hz = (guint64) freq;
      hd.cpus = (guint) cpus;
      hd.step_after_ns = json_object_get_int_member_with_default (ho, "step_after_ns", 0);
      hd.step_ns = json_object_get_int_member_with_default (ho, "step_ns", 0);
      if (!sl_generate_add_host (self, &hd, error))
        return NULL;
      h = host_at (self, self->hosts->len - 1);
      h->n_cpus = hd.cpus;
      h->boot_age_ns = (guint64) (options.start_ns + hd.offset_ns - off_s * NS_PER_S);
      _sl_gen_setup_clock (self, h);
    }

  links = json_object_get_array_member (root, "links");
  for (guint i = 0; links != NULL && i < json_array_get_length (links); i++)
    {
      JsonObject *lo = json_array_get_object_element (links, i);
      double rate = 0;

      if (lo == NULL || !member_double (lo, "rate", &rate, error))
        return NULL;
      if (!sl_generate_add_link (self, json_object_get_string_member_with_default (lo, "a", ""),
                                 json_object_get_string_member_with_default (lo, "b", ""), rate, error))
        return NULL;
    }

  self->prepared = TRUE;
  self->from_truth = TRUE;
  return g_steal_pointer (&self);
}
