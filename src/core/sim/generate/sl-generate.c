/* sl-generate.c: the generator's options, hosts and links, its run and
 * the queue of items in true-time order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <sys/resource.h>

#include <glib/gstdio.h>

#include "sl-generate-private.h"
#include "sl-types.h"

/* Options and host specifications */

void
sl_generate_options_init (SlGenerateOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->start_ns = G_GINT64_CONSTANT (1700000000000000000);
  options->duration_ns = 10 * NS_PER_S;
  options->seed = 1;
  options->cpus = 4;
  options->threads = 12;
  options->events = 0;
  options->background_rate = 3000;
  options->link_rate = 200;
  options->connections = 2;
  options->loss = 0.002;
  options->duplicate = 0.001;
  options->min_latency_ns = 40 * US;
  options->jitter_ns = 25 * US;
  options->noise_rate = 20;
  options->ip = SL_GENERATE_IP_4;
  options->variant = SL_GENERATE_VARIANT_MODERN;
  options->header = SL_CTF_HEADER_LARGE;
  options->packet_size = 256 * 1024;
  options->n_hosts = 4;
  options->components = 1;
  options->max_drift_ppm = 50;
  options->max_offset_ns = 2 * 86400 * NS_PER_S;
  options->wander_ppm = 0;
  options->wander_period_s = 600;
}

const char *
sl_generate_variant_to_string (SlGenerateVariant variant)
{
  return variant == SL_GENERATE_VARIANT_LEGACY ? "legacy" : "modern";
}

gboolean
sl_generate_variant_from_string (const char        *str,
                                 SlGenerateVariant *variant)
{
  g_return_val_if_fail (variant != NULL, FALSE);

  if (g_strcmp0 (str, "modern") == 0)
    *variant = SL_GENERATE_VARIANT_MODERN;
  else if (g_strcmp0 (str, "legacy") == 0)
    *variant = SL_GENERATE_VARIANT_LEGACY;
  else
    return FALSE;
  return TRUE;
}

const char *
sl_generate_ip_to_string (SlGenerateIp ip)
{
  switch (ip)
    {
    case SL_GENERATE_IP_6:
      return "6";
    case SL_GENERATE_IP_MIX:
      return "mix";
    case SL_GENERATE_IP_4:
    default:
      return "4";
    }
}

gboolean
sl_generate_ip_from_string (const char   *str,
                            SlGenerateIp *ip)
{
  g_return_val_if_fail (ip != NULL, FALSE);

  if (g_strcmp0 (str, "4") == 0 || g_strcmp0 (str, "ipv4") == 0)
    *ip = SL_GENERATE_IP_4;
  else if (g_strcmp0 (str, "6") == 0 || g_strcmp0 (str, "ipv6") == 0)
    *ip = SL_GENERATE_IP_6;
  else if (g_strcmp0 (str, "mix") == 0)
    *ip = SL_GENERATE_IP_MIX;
  else
    return FALSE;
  return TRUE;
}

static gboolean
valid_host_name (const char *name)
{
  gsize n = strlen (name);

  if (n == 0 || n > 64 || name[0] == '.' || name[0] == '-')
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_' && *p != '.')
      return FALSE;
  return TRUE;
}

static gboolean
parse_double (const char *str,
              double     *out)
{
  char *end = NULL;
  double v;

  if (str == NULL || *str == '\0')
    return FALSE;
  v = g_ascii_strtod (str, &end);
  if (end == str || *end != '\0' || !isfinite (v))
    return FALSE;
  *out = v;
  return TRUE;
}

void
sl_generate_host_clear (SlGenerateHost *host)
{
  g_return_if_fail (host != NULL);
  g_clear_pointer (&host->name, g_free);
}

/* NAME:FREQ_HZ:OFFSET_NS:DRIFT_PPM[:WANDER_PPM[:PERIOD_S]] */
gboolean
sl_generate_parse_host (const char      *spec,
                        SlGenerateHost  *host,
                        GError         **error)
{
  g_auto(GStrv) parts = NULL;
  guint n;
  guint64 freq;
  gint64 offset;
  double drift, wander = 0, period = 600;

  g_return_val_if_fail (spec != NULL && host != NULL, FALSE);

  memset (host, 0, sizeof *host);
  parts = g_strsplit (spec, ":", -1);
  n = g_strv_length (parts);
  if (n < 4 || n > 6)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--host: “%s” is not NAME:FREQ_HZ:OFFSET_NS:DRIFT_PPM[:WANDER_PPM[:PERIOD_S]]", spec);
      return FALSE;
    }
  if (!valid_host_name (parts[0]))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--host: “%s” is not a valid host name (letters, digits, “-”, “_”, “.”; at most 64)",
                   parts[0]);
      return FALSE;
    }
  if (!g_ascii_string_to_unsigned (parts[1], 10, 1000, G_GUINT64_CONSTANT (100000000000), &freq, NULL))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--host %s: frequency “%s” is not an integer from 1000 to 100000000000 Hz",
                   parts[0], parts[1]);
      return FALSE;
    }
  if (!g_ascii_string_to_signed (parts[2], 10, -365 * 86400 * NS_PER_S, 365 * 86400 * NS_PER_S,
                                 &offset, NULL))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--host %s: offset “%s” is not an integer number of ns within ±1 year",
                   parts[0], parts[2]);
      return FALSE;
    }
  if (!parse_double (parts[3], &drift) || fabs (drift) > 10000)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--host %s: drift “%s” is not a number of ppm within ±10000",
                   parts[0], parts[3]);
      return FALSE;
    }
  if (n >= 5 && (!parse_double (parts[4], &wander) || wander < 0 || wander > 1000))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--host %s: wander “%s” is not a number of ppm from 0 to 1000", parts[0], parts[4]);
      return FALSE;
    }
  if (n == 6 && (!parse_double (parts[5], &period) || period < 1 || period > 1e7))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--host %s: wander period “%s” is not a number of seconds from 1 to 1e7",
                   parts[0], parts[5]);
      return FALSE;
    }

  host->name = g_strdup (parts[0]);
  host->freq_hz = freq;
  host->offset_ns = offset;
  host->drift_ppm = drift;
  host->wander_ppm = wander;
  host->wander_period_s = period;
  return TRUE;
}

/* The event queue */

/* Items come out by true time, ties in the order they were scheduled, so
 * that a run is reproducible. */
static gboolean
item_less (gconstpointer a,
           gconstpointer b)
{
  const Item *x = a, *y = b;

  return x->t < y->t || (x->t == y->t && x->tie < y->tie);
}

void
_sl_gen_schedule (SlGenerate *self,
                  Item       *it)
{
  it->tie = self->tie++;
  sl_heap_push (self->queue, it, sizeof *it, item_less);
}

/* Construction */

static void
host_free (gpointer data)
{
  Host *h = data;

  if (h->cpu != NULL)
    {
      for (guint i = 0; i < h->n_cpus; i++)
        {
          sl_ctf_stream_free (h->cpu[i].stream);
          if (h->cpu[i].bg != NULL)
            g_array_unref (h->cpu[i].bg);
        }
      g_free (h->cpu);
    }
  if (h->threads != NULL)
    g_array_unref (h->threads);
  if (h->samples != NULL)
    g_array_unref (h->samples);
  if (h->neighbours != NULL)
    g_array_unref (h->neighbours);
  g_free (h->pub.name);
  g_free (h);
}

SlGenerate *
sl_generate_new (const SlGenerateOptions *options)
{
  SlGenerate *self = g_new0 (SlGenerate, 1);

  if (options != NULL)
    self->options = *options;
  else
    sl_generate_options_init (&self->options);
  self->hosts = g_ptr_array_new_with_free_func (host_free);
  self->host_index = g_hash_table_new (g_str_hash, g_str_equal);
  self->links = g_array_new (FALSE, TRUE, sizeof (Link));
  self->conns = g_array_new (FALSE, TRUE, sizeof (Conn));
  self->queue = g_array_new (FALSE, FALSE, sizeof (Item));
  sl_rng_init (&self->scenario_rng, self->options.seed, 1);
  sl_rng_init (&self->net_rng, self->options.seed, 2);
  sl_rng_init (&self->noise_rng, self->options.seed, 3);
  return self;
}

void
sl_generate_free (SlGenerate *self)
{
  if (self == NULL)
    return;
  g_hash_table_destroy (self->host_index);
  g_ptr_array_unref (self->hosts);
  g_array_unref (self->links);
  g_array_unref (self->conns);
  g_array_unref (self->queue);
  g_free (self->scratch);
  g_free (self);
}

const SlGenerateOptions *
sl_generate_get_options (const SlGenerate *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return &self->options;
}

guint
sl_generate_find_host (const SlGenerate *self,
                       const char       *name)
{
  gpointer index;

  g_return_val_if_fail (self != NULL, NONE);

  if (name == NULL || !g_hash_table_lookup_extended (self->host_index, name, NULL, &index))
    return NONE;
  return GPOINTER_TO_UINT (index);
}

gboolean
sl_generate_add_host (SlGenerate           *self,
                      const SlGenerateHost *host,
                      GError              **error)
{
  Host *h;

  g_return_val_if_fail (self != NULL && host != NULL, FALSE);
  g_return_val_if_fail (!self->prepared, FALSE);

  if (host->name == NULL || !valid_host_name (host->name))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "host name “%s” is not valid",
                   host->name != NULL ? host->name : "");
      return FALSE;
    }
  if (sl_generate_find_host (self, host->name) != NONE)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "host “%s” is given twice", host->name);
      return FALSE;
    }
  if (self->hosts->len >= SL_GENERATE_MAX_HOSTS)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "host “%s”: more than %u hosts", host->name,
                   SL_GENERATE_MAX_HOSTS);
      return FALSE;
    }
  if (host->freq_hz < 1000)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "host “%s”: frequency below 1000 Hz", host->name);
      return FALSE;
    }
  if (host->cpus > 256)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "host “%s”: more than 256 CPUs", host->name);
      return FALSE;
    }
  if (fabs (host->drift_ppm) + host->wander_ppm >= 1e5 || host->wander_ppm < 0 ||
      (host->wander_ppm > 0 && !(host->wander_period_s >= 1)))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "host “%s”: drift or wander out of range",
                   host->name);
      return FALSE;
    }

  h = g_new0 (Host, 1);
  h->pub = *host;
  h->pub.name = g_strdup (host->name);
  if (h->pub.wander_period_s <= 0)
    h->pub.wander_period_s = 600;
  h->index = self->hosts->len;
  g_ptr_array_add (self->hosts, h);
  g_hash_table_insert (self->host_index, h->pub.name, GUINT_TO_POINTER (h->index));
  return TRUE;
}

/**
 * sl_generate_add_step_spec:
 * @spec: `HOST:AFTER_S:STEP_NS`: HOST's clock jumps forward by STEP_NS
 *   AFTER_S seconds (true time) after the start
 */
gboolean
sl_generate_add_step_spec (SlGenerate  *self,
                           const char  *spec,
                           GError     **error)
{
  g_auto(GStrv) parts = g_strsplit (spec, ":", -1);
  double after;
  gint64 step;
  guint h;

  g_return_val_if_fail (self != NULL && spec != NULL, FALSE);
  g_return_val_if_fail (!self->prepared, FALSE);

  if (g_strv_length (parts) != 3)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "--step %s: expected HOST:AFTER_S:STEP_NS", spec);
      return FALSE;
    }
  if ((h = sl_generate_find_host (self, parts[0])) == NONE)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "--step %s: no host “%s”", spec, parts[0]);
      return FALSE;
    }
  if (!parse_double (parts[1], &after) || !(after > 0) ||
      after * NS_PER_S >= (double) self->options.duration_ns)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--step %s: “%s” is not a number of seconds within the duration", spec, parts[1]);
      return FALSE;
    }
  if (!g_ascii_string_to_signed (parts[2], 10, 1, 1000 * NS_PER_S, &step, NULL))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--step %s: “%s” is not a forward step of 1 ns to 1000 s (a trace's timestamps "
                   "never go back)", spec, parts[2]);
      return FALSE;
    }
  host_at (self, h)->pub.step_after_ns = (gint64) (after * NS_PER_S);
  host_at (self, h)->pub.step_ns = step;
  return TRUE;
}

gboolean
sl_generate_add_link (SlGenerate  *self,
                      const char  *a,
                      const char  *b,
                      double       rate,
                      GError     **error)
{
  guint ia, ib;
  Link l = { 0 };

  g_return_val_if_fail (self != NULL && a != NULL && b != NULL, FALSE);
  g_return_val_if_fail (!self->prepared, FALSE);

  ia = sl_generate_find_host (self, a);
  ib = sl_generate_find_host (self, b);
  if (ia == NONE || ib == NONE)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "link %s:%s: no host named “%s”", a, b,
                   ia == NONE ? a : b);
      return FALSE;
    }
  if (ia == ib)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "link %s:%s: a host cannot link to itself", a, b);
      return FALSE;
    }
  if (!(rate >= 0 && rate <= 1e6))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "link %s:%s: rate must be from 0 to 1000000 segments/s",
                   a, b);
      return FALSE;
    }
  for (guint i = 0; i < self->links->len; i++)
    {
      const Link *o = link_at (self, i);
      if ((o->pub.a == ia && o->pub.b == ib) || (o->pub.a == ib && o->pub.b == ia))
        {
          g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "link %s:%s is given twice", a, b);
          return FALSE;
        }
    }
  l.pub.a = ia;
  l.pub.b = ib;
  l.pub.rate = rate;
  g_array_append_val (self->links, l);
  return TRUE;
}

/* A:B[:RATE] */
gboolean
sl_generate_add_link_spec (SlGenerate  *self,
                           const char  *spec,
                           GError     **error)
{
  g_auto(GStrv) parts = NULL;
  guint n;
  double rate = 0;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (spec != NULL, FALSE);

  parts = g_strsplit (spec, ":", -1);
  n = g_strv_length (parts);

  if (n < 2 || n > 3)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "--link: “%s” is not A:B[:RATE]", spec);
      return FALSE;
    }
  if (n == 3 && (!parse_double (parts[2], &rate) || rate <= 0))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--link %s:%s: rate “%s” is not a positive number of segments per second",
                   parts[0], parts[1], parts[2]);
      return FALSE;
    }
  if (!sl_generate_add_link (self, parts[0], parts[1], rate, error))
    {
      if (error != NULL && *error != NULL)
        g_prefix_error (error, "--link: ");
      return FALSE;
    }
  return TRUE;
}

void
sl_generate_set_packet_func (SlGenerate           *self,
                             SlGeneratePacketFunc  func,
                             gpointer              user_data)
{
  g_return_if_fail (self != NULL);

  self->packet_func = func;
  self->packet_data = user_data;
}

guint
sl_generate_get_n_hosts (const SlGenerate *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->hosts->len;
}

const SlGenerateHost *
sl_generate_get_host (const SlGenerate *self,
                      guint             host)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (host < self->hosts->len, NULL);
  return &host_at (self, host)->pub;
}

guint
sl_generate_get_n_links (const SlGenerate *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->links->len;
}

const SlGenerateLink *
sl_generate_get_link (const SlGenerate *self,
                      guint             link)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (link < self->links->len, NULL);
  return &link_at (self, link)->pub;
}

gint64
sl_generate_get_start (const SlGenerate *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->options.start_ns;
}

gint64
sl_generate_get_duration (const SlGenerate *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->options.duration_ns;
}

/* Creates the automatic hosts (SlGenerateOptions.n_hosts) if none was
 * added, so that links can name them. */
gboolean
sl_generate_prepare_hosts (SlGenerate  *self,
                           GError     **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->hosts->len > 0)
    return TRUE;
  if (self->options.n_hosts < 1 || self->options.n_hosts > SL_GENERATE_MAX_HOSTS)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "hosts must be from 1 to %u", SL_GENERATE_MAX_HOSTS);
      return FALSE;
    }
  _sl_gen_auto_hosts (self);
  return TRUE;
}

/* Completes the scenario: automatic hosts and links if none were added,
 * clocks, processes and connections. sl_generate_run() calls it. */
gboolean
sl_generate_prepare (SlGenerate  *self,
                     GError     **error)
{
  const SlGenerateOptions *o;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->prepared)
    return TRUE;
  o = &self->options;

  if (o->duration_ns < MS || o->duration_ns > 30 * 86400 * NS_PER_S)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "duration must be from 1 ms to 30 days");
      return FALSE;
    }
  if (o->start_ns < 0)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "start must not be before the epoch");
      return FALSE;
    }
  if (o->cpus < 1 || o->cpus > 256)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "CPUs per host must be from 1 to 256");
      return FALSE;
    }
  if (!(o->loss >= 0 && o->loss < 0.5) || !(o->duplicate >= 0 && o->duplicate < 0.5))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "loss and duplicate must be in [0, 0.5)");
      return FALSE;
    }
  if (o->packet_size < 4096 || o->packet_size > 64 * 1024 * 1024 || o->packet_size % 4096 != 0)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "packet size must be a multiple of 4 KiB from 4 KiB to 64 MiB");
      return FALSE;
    }
  if (o->min_latency_ns < 1000 || o->jitter_ns < 0)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "minimum latency must be at least 1 µs");
      return FALSE;
    }

  if (!sl_generate_prepare_hosts (self, error))
    return FALSE;
  if (self->links->len == 0)
    _sl_gen_auto_links (self);

  if (!_sl_gen_setup_scenario (self, error))
    return FALSE;
  self->prepared = TRUE;
  return TRUE;
}

static gboolean
write_file (SlGenerate  *self,
            const char  *path,
            const char  *contents,
            GError     **error)
{
  gsize n = strlen (contents);

  if (!g_file_set_contents (path, contents, (gssize) n, error))
    return FALSE;
  self->stats.bytes += n;
  self->stats.files++;
  return TRUE;
}

/* How many stream files may stay open: half the process's limit, the rest
 * being left to whatever else the process opens. */
static guint
open_stream_budget (const SlGenerateOptions *o)
{
  struct rlimit rl;

  if (o->max_open_streams > 0)
    return o->max_open_streams;
  if (getrlimit (RLIMIT_NOFILE, &rl) != 0)
    return 256;
  if (rl.rlim_cur == RLIM_INFINITY)
    return G_MAXUINT;
  return (guint) MAX (MIN (rl.rlim_cur / 2, G_MAXUINT), 16);
}

static gboolean
open_streams (SlGenerate  *self,
              const char  *out_dir,
              GError     **error)
{
  gboolean keep_closed = self->total_cpus > open_stream_budget (&self->options);

  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = host_at (self, i);
      g_autofree char *dir = NULL;

      if (out_dir != NULL)
        {
          dir = g_build_filename (out_dir, h->pub.name, "kernel", NULL);
          if (g_mkdir_with_parents (dir, 0755) != 0)
            {
              int errsv = errno;
              g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: %s", dir, g_strerror (errsv));
              return FALSE;
            }
        }
      for (guint c = 0; c < h->n_cpus; c++)
        {
          SlCtfStreamOptions so = { 0 };
          g_autofree char *name = g_strdup_printf ("channel0_%u", c);
          g_autofree char *path = dir != NULL ? g_build_filename (dir, name, NULL) : NULL;

          memcpy (so.trace_uuid, h->trace_uuid, 16);
          so.stream_id = 0;
          so.stream_instance_id = c;
          so.cpu_id = c;
          so.packet_size = self->options.packet_size;
          so.header = self->options.header;
          so.keep_closed = keep_closed;
          so.scratch = self->scratch;
          h->cpu[c].stream = sl_ctf_stream_new (path, &so, error);
          if (h->cpu[c].stream == NULL)
            return FALSE;
          h->cpu[c].last = self->options.start_ns;
        }
    }
  return TRUE;
}

static gboolean
close_streams (SlGenerate  *self,
               gboolean     written,
               GError     **error)
{
  gboolean ok = TRUE;

  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = host_at (self, i);
      guint64 first = host_cycles (self, h, self->options.start_ns);

      for (guint c = 0; c < h->n_cpus; c++)
        {
          SlCtfStream *s = h->cpu[c].stream;

          if (s == NULL)
            continue;
          if (ok && !sl_ctf_stream_close (s, first, error))
            ok = FALSE;
          if (written)
            {
              self->stats.bytes += s->bytes;
              self->stats.files++;
            }
          g_clear_pointer (&h->cpu[c].stream, sl_ctf_stream_free);
        }
    }
  return ok;
}

/* The first items: each host's state dump and background, the noise, the
 * rate control; the connections were scheduled with the scenario. */
static void
seed_queue (SlGenerate *self)
{
  const SlGenerateOptions *o = &self->options;
  gboolean background = o->events > 0 || o->background_rate > 0;
  Item it;

  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = host_at (self, i);

      _sl_gen_emit_statedump (self, h, o->start_ns);
      if (background)
        {
          for (guint c = 0; c < h->n_cpus; c++)
            {
              memset (&it, 0, sizeof it);
              it.kind = IT_CPU;
              it.host = i;
              it.aux = c;
              it.t = o->start_ns + 1 + sl_rng_exp (&h->rng, isfinite (self->bg_gap_ns) ? self->bg_gap_ns : 1e5);
              _sl_gen_schedule (self, &it);
            }
          memset (&it, 0, sizeof it);
          it.kind = IT_PROC;
          it.host = i;
          it.t = o->start_ns + sl_rng_exp (&h->rng, NS_PER_S);
          _sl_gen_schedule (self, &it);
          it.role = 2;
          it.t = o->start_ns + sl_rng_exp (&h->rng, NS_PER_S);
          _sl_gen_schedule (self, &it);
        }
      if (o->noise_rate > 0)
        {
          memset (&it, 0, sizeof it);
          it.kind = IT_NOISE;
          it.host = i;
          it.t = o->start_ns + sl_rng_exp (&self->noise_rng, 1e9 / o->noise_rate);
          _sl_gen_schedule (self, &it);
        }
    }
  if (o->events > 0)
    {
      memset (&it, 0, sizeof it);
      it.kind = IT_CONTROL;
      it.t = o->start_ns;
      _sl_gen_schedule (self, &it);
    }
}

static void
simulate (SlGenerate *self)
{
  const SlGenerateOptions *o = &self->options;
  Item it;

  self->end = o->start_ns + o->duration_ns;
  self->control_step = MAX (o->duration_ns / 200, MS);
  self->control_mark_t = o->start_ns;
  self->bg_gap_ns = o->events > 0 ? INFINITY : o->background_rate > 0 ? 1e9 / o->background_rate : INFINITY;
  self->other_rate = 0;
  for (guint i = 0; i < self->links->len; i++)
    self->other_rate += link_at (self, i)->pub.rate * 9 / 1e9;
  self->other_rate += o->noise_rate * self->hosts->len * 6 / 1e9;

  seed_queue (self);
  while (sl_heap_pop (self->queue, &it, sizeof it, item_less) && it.t < self->end)
    {
      switch (it.kind)
        {
        case IT_CONTROL:
          _sl_gen_handle_control (self, &it);
          break;
        case IT_CPU:
          _sl_gen_handle_cpu (self, &it);
          break;
        case IT_NOISE:
          _sl_gen_handle_noise (self, &it);
          break;
        case IT_PROC:
          _sl_gen_handle_proc (self, &it);
          break;
        case IT_CONNECT:
          _sl_gen_handle_connect (self, &it);
          break;
        case IT_TXN:
          _sl_gen_handle_txn (self, &it);
          break;
        case IT_RESPOND:
          _sl_gen_handle_respond (self, &it);
          break;
        case IT_WAKE:
          _sl_gen_handle_wake (self, &it);
          break;
        case IT_KSEND:
          _sl_gen_handle_ksend (self, &it);
          break;
        case IT_RAWSEND:
          _sl_gen_handle_rawsend (self, &it);
          break;
        case IT_ARRIVE:
          _sl_gen_handle_arrive (self, &it);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  g_array_set_size (self->queue, 0);
}

/* Simulates the scenario and writes, unless @out_dir is %NULL, one LTTng
 * kernel trace folder per host (`out_dir/<host>/kernel/`) and
 * `out_dir/ground-truth.json`. A generator runs once. */
gboolean
sl_generate_run (SlGenerate       *self,
                 const char       *out_dir,
                 SlGenerateStats  *stats,
                 GError          **error)
{
  gint64 t0 = g_get_monotonic_time ();
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (!self->ran && !self->from_truth, FALSE);

  if (!sl_generate_prepare (self, error))
    return FALSE;
  self->ran = TRUE;

  if (out_dir != NULL && g_mkdir_with_parents (out_dir, 0755) != 0)
    {
      int errsv = errno;
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: %s", out_dir, g_strerror (errsv));
      return FALSE;
    }
  /* without files, no stream needs a packet buffer of its own: 10 000
   * hosts' 40 000 streams would hold 10 GB of them */
  if (out_dir == NULL)
    self->scratch = g_malloc (self->options.packet_size);
  if (!open_streams (self, out_dir, error))
    {
      close_streams (self, FALSE, NULL);
      return FALSE;
    }

  simulate (self);

  ok = close_streams (self, out_dir != NULL, error);
  g_clear_pointer (&self->scratch, g_free);
  if (ok && out_dir != NULL)
    {
      for (guint i = 0; ok && i < self->hosts->len; i++)
        {
          const Host *h = host_at (self, i);
          g_autofree char *text = _sl_gen_host_metadata (self, h);
          g_autofree char *path = g_build_filename (out_dir, h->pub.name, "kernel", "metadata", NULL);

          ok = write_file (self, path, text, error);
        }
      if (ok)
        {
          g_autofree char *path = g_build_filename (out_dir, "ground-truth.json", NULL);

          ok = _sl_gen_write_truth (self, path, error);
        }
    }

  self->stats.elapsed_s = (double) (g_get_monotonic_time () - t0) / 1e6;
  if (stats != NULL)
    *stats = self->stats;
  return ok;
}
