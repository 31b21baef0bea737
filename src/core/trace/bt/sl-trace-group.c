/* sl-trace-group.c: traces into hosts: boots, copies and clock steps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-trace-reader-private.h"

/*
 * A host is a hostname and a boot (the clock's UUID): the kernel and
 * user-space traces of one boot are one host; same-named machines and
 * reboots are told apart by the UUID, which then joins the name.
 *
 * Two traces of one host with one trace UUID are one trace twice (a
 * copy): the second is left out, or every packet would count twice.
 *
 * Within a boot, each session measures the clock's offset to the epoch
 * when it begins. LTTng's measures agree to well below a microsecond; a
 * session whose offset differs by more (the wall clock was stepped, or a
 * session made again on a clock that drifts from it) puts its events on
 * another clock. Its traces become a segment of the host of their own,
 * named NAME/2, NAME/3… in time order, synchronized like any host, with a
 * warning that gives the step; sl_trace_reader_get_segment() tells which
 * host a segment continues and by how much its clock stepped, for an
 * engine that joins segments. Traces whose offsets agree share the first
 * one's exactly (in their views), so that no measurement noise is left
 * between them.
 */

#define STEP_TOLERANCE_NS 1000

Host *
sl_trace_host_new (SlTraceReader *self,
                   const char    *hostname,
                   const char    *uuid)
{
  Host *h = g_new0 (Host, 1);

  h->reader = self;
  h->hostname = g_strdup (hostname);
  h->clock_uuid = g_strdup (uuid);
  h->traces = g_ptr_array_new_with_free_func (sl_trace_dir_free);
  h->trace_paths = g_ptr_array_new_with_free_func (g_free);
  h->feed = sl_feed_new (self->hub);
  h->inputs = g_ptr_array_new_with_free_func (g_free);
  h->input_files = g_ptr_array_new_with_free_func (g_free);
  h->input_traces = g_array_new (FALSE, FALSE, sizeof (guint));
  h->consumed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  h->segment_start_ns = G_MAXINT64;
  g_cond_init (&h->slot_cond);
  h->extract_first = G_MAXINT64;
  h->extract_last = G_MININT64;
  atomic_init (&h->range_begin, G_MAXINT64);
  atomic_init (&h->range_end, G_MININT64);
  return h;
}

void
sl_trace_host_free (Host *h)
{
  if (h->parts != NULL)
    g_ptr_array_unref (h->parts);
  if (h->part_hub != NULL)
    sl_feed_hub_free (h->part_hub);
  g_free (h->name);
  g_free (h->hostname);
  g_free (h->clock_uuid);
  g_free (h->unusable_file);
  g_free (h->unusable_why);
  g_ptr_array_unref (h->traces);
  g_ptr_array_unref (h->trace_paths);
  g_ptr_array_unref (h->inputs);
  g_ptr_array_unref (h->input_files);
  g_array_unref (h->input_traces);
  g_hash_table_destroy (h->consumed);
  sl_decoder_target_clear (&h->target);
  sl_feed_free (h->feed);
  sl_event_store_free (h->store);
  g_cond_clear (&h->slot_cond);
  g_free (h);
}

static int
cmp_trace_path (gconstpointer a,
                gconstpointer b)
{
  const TraceDir *x = *(TraceDir *const *) a, *y = *(TraceDir *const *) b;

  return g_strcmp0 (x->path, y->path);
}

static int
cmp_host (gconstpointer a,
          gconstpointer b)
{
  const Host *x = *(Host *const *) a, *y = *(Host *const *) b;

  return g_strcmp0 (x->name, y->name);
}

/* Leaves out the second of two traces with one trace UUID, host and boot. */
static void
drop_copies (SlTraceReader *self,
             GPtrArray     *traces)
{
  for (guint i = 0; i < traces->len; i++)
    {
      TraceDir *t = g_ptr_array_index (traces, i);

      for (guint k = 0; t->has_uuid && k < i; k++)
        {
          const TraceDir *o = g_ptr_array_index (traces, k);

          /* one trace UUID on one host and boot (hand-made traces may
           * share a UUID between hosts) */
          if (o->has_uuid && memcmp (o->uuid, t->uuid, 16) == 0 && g_strcmp0 (o->hostname, t->hostname) == 0 &&
              g_strcmp0 (o->clock_uuid, t->clock_uuid) == 0)
            {
              sl_trace_reader_add_problem (self, t->hostname, t->metadata,
                                           "the same trace as %s (one trace UUID: a copy, or duplicated "
                                           "metadata); left out so that its events do not count twice", o->path);
              sl_trace_dir_free (g_ptr_array_steal_index (traces, i));
              i--;
              break;
            }
        }
    }
}

/* Whether @t reads the clock of @first (same frequency, offsets within
 * the measurement's noise). */
static gboolean
same_clock (const TraceDir *first,
            const TraceDir *t)
{
  if (!first->has_offset || !t->has_offset)
    return TRUE;
  return first->freq == t->freq &&
         (first->offset_ns > t->offset_ns ? (guint64) first->offset_ns - (guint64) t->offset_ns
                                          : (guint64) t->offset_ns - (guint64) first->offset_ns) <= STEP_TOLERANCE_NS;
}

/* @t's metadata text with @first's clock offset. */
static void
share_offset (TraceDir       *t,
              const TraceDir *first)
{
  g_autoptr(GString) s = NULL;
  g_autofree char *offset_s = NULL;
  g_autofree char *offset = NULL;
  gboolean s_first;

  if (t->offset_s == first->offset_s && t->offset == first->offset)
    return;
  if (t->offset_s_span[1] == 0 || t->offset_span[1] == 0 || t->offset_s_span[1] > t->text_len ||
      t->offset_span[1] > t->text_len)
    return;
  offset_s = g_strdup_printf ("%" G_GINT64_FORMAT, first->offset_s);
  offset = g_strdup_printf ("%" G_GUINT64_FORMAT, first->offset);
  s = g_string_new_len (t->text, (gssize) t->text_len);
  /* the later span first, so the earlier one stays where it is */
  s_first = t->offset_s_span[0] > t->offset_span[0];
  for (guint i = 0; i < 2; i++)
    {
      gboolean do_s = (i == 0) == s_first;
      const gsize *span = do_s ? t->offset_s_span : t->offset_span;

      g_string_erase (s, (gssize) span[0], (gssize) (span[1] - span[0]));
      g_string_insert (s, (gssize) span[0], do_s ? offset_s : offset);
    }
  g_free (t->text);
  t->text_len = s->len;
  t->text = g_string_free (g_steal_pointer (&s), FALSE);
}

/* The traces of one boot into segments of one clock each, in time order. */
static GPtrArray *
segments_of (GPtrArray *boot)
{
  GPtrArray *segments = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

  for (guint i = 0; i < boot->len; i++)
    {
      TraceDir *t = g_ptr_array_index (boot, i);
      GPtrArray *seg = NULL;

      for (guint k = 0; k < segments->len && seg == NULL; k++)
        {
          GPtrArray *candidate = g_ptr_array_index (segments, k);

          if (same_clock (g_ptr_array_index (candidate, 0), t))
            seg = candidate;
        }
      if (seg == NULL)
        {
          seg = g_ptr_array_new ();
          g_ptr_array_add (segments, seg);
        }
      g_ptr_array_add (seg, t);
    }
  /* in time order: NAME is the first segment */
  for (guint i = 1; i < segments->len; i++)
    for (guint k = i; k > 0; k--)
      {
        GPtrArray *a = g_ptr_array_index (segments, k - 1), *b = g_ptr_array_index (segments, k);

        if (((TraceDir *) g_ptr_array_index (a, 0))->first_ns <= ((TraceDir *) g_ptr_array_index (b, 0))->first_ns)
          break;
        segments->pdata[k - 1] = b;
        segments->pdata[k] = a;
      }
  return segments;
}

static Host *
host_of_segment (SlTraceReader *self,
                 GPtrArray     *seg,
                 guint          index,
                 Host          *first)
{
  TraceDir *t0 = g_ptr_array_index (seg, 0);
  Host *h = sl_trace_host_new (self, t0->hostname, t0->clock_uuid);

  h->segment = index;
  h->first_segment = first;
  for (guint i = 0; i < seg->len; i++)
    {
      TraceDir *t = g_ptr_array_index (seg, i);

      share_offset (t, t0);
      h->total_bytes += t->bytes;
      h->extract_events += t->extract_events;
      h->extract_ignored += t->extract_ignored;
      if (t->extract_has_span)
        {
          h->extract_first = MIN (h->extract_first, t->extract_first);
          h->extract_last = MAX (h->extract_last, t->extract_last);
        }
      h->all_extracts = (i == 0 || h->all_extracts) && t->extract;
      h->segment_start_ns = MIN (h->segment_start_ns, t->first_ns);
      g_ptr_array_add (h->trace_paths, g_strdup (t->path));
      g_ptr_array_add (h->traces, t);
    }
  if (first != NULL && t0->has_offset && ((TraceDir *) g_ptr_array_index (first->traces, 0))->has_offset)
    h->step_ns = t0->offset_ns - ((TraceDir *) g_ptr_array_index (first->traces, 0))->offset_ns;
  return h;
}

/* Names: the hostname, with the boot when two boots or machines share it,
 * and the segment after the first. */
static void
name_hosts (SlTraceReader *self,
            GPtrArray     *hosts)
{
  g_autoptr(GHashTable) boots = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < hosts->len; i++)
    {
      Host *h = g_ptr_array_index (hosts, i);

      if (h->segment == 0)
        g_hash_table_insert (boots, g_strdup (h->hostname),
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (boots, h->hostname)) + 1));
    }
  for (guint i = 0; i < hosts->len; i++)
    {
      Host *h = g_ptr_array_index (hosts, i);
      g_autofree char *clean = sl_trace_sanitize (h->hostname);
      g_autofree char *base = NULL;

      if (GPOINTER_TO_UINT (g_hash_table_lookup (boots, h->hostname)) > 1)
        base = g_strdup_printf ("%s/%.8s", clean, h->clock_uuid ? h->clock_uuid : "no-uuid");
      else
        base = g_steal_pointer (&clean);
      h->name = h->segment == 0 ? g_steal_pointer (&base) : g_strdup_printf ("%s/%u", base, h->segment + 1);
    }
  for (guint i = 0; i < hosts->len; i++)
    {
      Host *h = g_ptr_array_index (hosts, i);

      if (h->first_segment != NULL)
        sl_trace_reader_add_problem (self, h->first_segment->name, g_ptr_array_index (h->trace_paths, 0),
                                     "the host's clock steps by %+.6f ms here (a session begun again, its clock offset "
                                     "measured anew); these traces are segment %s, synchronized as a host of their own",
                                     (double) h->step_ns / 1e6, h->name);
    }
}

/* The views the decoders read; a trace whose view cannot be made is
 * skipped (reported). */
void
sl_trace_group_make_views (SlTraceReader *self,
                           GPtrArray     *hosts)
{
  guint n = 0;

  for (guint i = 0; i < hosts->len; i++)
    {
      Host *h = g_ptr_array_index (hosts, i);

      for (guint k = 0; k < h->traces->len; k++)
        {
          TraceDir *t = g_ptr_array_index (h->traces, k);
          g_autoptr(GError) error = NULL;

          if (!sl_trace_view_make (self, t, n++, &error))
            {
              t->failed = TRUE;
              sl_trace_reader_add_problem (self, h->name, t->path, "cannot prepare the trace for its decoder: %s; "
                                           "trace skipped", error->message);
            }
        }
    }
}

/**
 * sl_trace_group_hosts:
 * @traces: (transfer container): the traces found; emptied
 *
 * Returns: (transfer full): the hosts, sorted by name (their views are
 *   made by sl_trace_group_make_views() before they are decoded)
 */
GPtrArray *
sl_trace_group_hosts (SlTraceReader *self,
                      GPtrArray     *traces)
{
  g_autoptr(GHashTable) by_boot = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                         (GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GPtrArray) boots = g_ptr_array_new ();
  GPtrArray *hosts = g_ptr_array_new ();

  g_ptr_array_sort (traces, cmp_trace_path);
  drop_copies (self, traces);
  for (guint i = 0; i < traces->len; i++)
    {
      TraceDir *t = g_ptr_array_index (traces, i);
      g_autofree char *key = g_strdup_printf ("%s\x1f%s", t->hostname, t->clock_uuid ? t->clock_uuid : "");
      GPtrArray *boot = g_hash_table_lookup (by_boot, key);

      if (boot == NULL)
        {
          boot = g_ptr_array_new ();
          g_hash_table_insert (by_boot, g_steal_pointer (&key), boot);
          g_ptr_array_add (boots, boot);
        }
      g_ptr_array_add (boot, t);
      traces->pdata[i] = NULL;
    }
  g_ptr_array_set_size (traces, 0);

  for (guint b = 0; b < boots->len; b++)
    {
      g_autoptr(GPtrArray) segments = segments_of (g_ptr_array_index (boots, b));
      Host *first = NULL;

      for (guint s = 0; s < segments->len; s++)
        {
          Host *h = host_of_segment (self, g_ptr_array_index (segments, s), s, first);

          if (first == NULL)
            first = h;
          g_ptr_array_add (hosts, h);
        }
    }
  name_hosts (self, hosts);
  g_ptr_array_sort (hosts, cmp_host);
  for (guint i = 0; i < hosts->len; i++)
    ((Host *) g_ptr_array_index (hosts, i))->index = i;
  return hosts;
}
