/* sl-trace-repair.c: a trace babeltrace2 refuses to open, mended stream by stream
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For LTTng traces of the versions with known tracer bugs, babeltrace2
 * 2.0.4 decodes the last packet of every stream file when it opens a
 * trace (src.ctf.fs's index fixes): one damaged event payload there, which
 * the packet checks (headers and contexts only) cannot see, and the whole
 * trace is refused, every stream of it lost. Before giving up on a trace,
 * the reader asks a decoder to open each stream alone (a view with the
 * metadata and that one stream: --open-only); the streams it refuses lose
 * their last packet, and again (REPAIR_ROUNDS times), after which a stream
 * still refused is left out. If the metadata alone is refused, the trace
 * is what is at fault and nothing is cut.
 */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "sl-trace-reader-private.h"

#define REPAIR_ROUNDS     3
/* a probe only opens: it reads the metadata and each stream's last packet */
#define PROBE_TIMEOUT_US  (60 * G_USEC_PER_SEC)

typedef struct
{
  GPtrArray *dirs;      /* probe views */
  GPtrArray *streams;   /* the stream each probes (NULL: the metadata alone) */
  gboolean  *refused;
  char     **why;
} Probe;

static void
probe_clear (Probe *p)
{
  for (guint i = 0; p->dirs != NULL && i < p->dirs->len; i++)
    {
      g_autoptr(GDir) d = g_dir_open (g_ptr_array_index (p->dirs, i), 0, NULL);
      const char *name;

      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *f = g_build_filename (g_ptr_array_index (p->dirs, i), name, NULL);

          g_unlink (f);
        }
      g_rmdir (g_ptr_array_index (p->dirs, i));
      g_free (p->why[i]);
    }
  g_clear_pointer (&p->dirs, g_ptr_array_unref);
  g_clear_pointer (&p->streams, g_ptr_array_unref);
  g_clear_pointer (&p->refused, g_free);
  g_clear_pointer (&p->why, g_free);
}

/* A view of @t with the metadata and @s only (NULL: no stream). */
static char *
probe_view (TraceDir    *t,
            SlCtfStream *s,
            guint        n)
{
  g_autofree char *dir = g_strdup_printf ("%s-probe%u", t->view, n);
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  gsize len = 0;
  g_autofree char *text = sl_trace_view_text (t, &len, NULL);

  if (text == NULL || g_mkdir (dir, 0700) != 0 || !g_file_set_contents (metadata, text, (gssize) len, NULL))
    return NULL;
  if (s != NULL)
    {
      g_autofree char *base = g_path_get_basename (s->path);
      g_autofree char *from = g_build_filename (t->view, base, NULL);
      g_autofree char *to = g_build_filename (dir, base, NULL);

      if (symlink (from, to) != 0)
        return NULL;
    }
  return g_steal_pointer (&dir);
}

/* One decoder opens @first..@last of the probe's views. FALSE when it did
 * not finish (it died: babeltrace2 aborted while opening). */
static gboolean
run_probe (Host  *h,
           Probe *p,
           guint  first,
           guint  last)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autofree char *memory = g_strdup_printf ("--memory-limit=%" G_GUINT64_FORMAT, sl_trace_host_memory_limit (h));
  g_autoptr(SlDecoder) d = NULL;
  gint64 deadline = g_get_monotonic_time () + PROBE_TIMEOUT_US;
  gboolean ended = FALSE;

  g_ptr_array_add (args, "trace");
  g_ptr_array_add (args, "--open-only");
  g_ptr_array_add (args, memory);
  g_ptr_array_add (args, "--");
  for (guint i = first; i <= last; i++)
    g_ptr_array_add (args, g_ptr_array_index (p->dirs, i));
  g_ptr_array_add (args, NULL);
  d = sl_decoder_spawn ((const char *const *) args->pdata, NULL);
  if (d == NULL)
    return FALSE;
  sl_feed_hub_lock (h->reader->hub);
  h->decoder = d;
  if (atomic_load (&h->reader->cancelled))
    sl_decoder_kill (d);
  sl_feed_hub_unlock (h->reader->hub);

  while (!ended && g_get_monotonic_time () < deadline && !atomic_load (&h->reader->cancelled))
    {
      SlWireFrame f;
      SlDecoderStatus st = sl_decoder_next (d, &f, 100 * 1000);
      guint32 index;

      if (st == SL_DECODER_EOF)
        break;
      if (st != SL_DECODER_FRAME)
        continue;
      if (f.type == SL_WIRE_END)
        ended = TRUE;
      else if (f.type == SL_WIRE_TRACE_FAILED && f.size >= sizeof index)
        {
          memcpy (&index, f.data, sizeof index);
          if (index <= last - first)
            {
              p->refused[first + index] = TRUE;
              g_free (p->why[first + index]);
              p->why[first + index] = sl_wire_string (f.data + sizeof index, f.size - sizeof index);
            }
        }
    }
  sl_decoder_kill (d);
  sl_feed_hub_lock (h->reader->hub);
  h->decoder = NULL;
  sl_feed_hub_unlock (h->reader->hub);
  g_free (sl_decoder_finish (d));
  return ended;
}

/* Opens each view; a decoder that dies opening several is run again on
 * each alone, and one that dies on its own counts as a refusal. */
static void
probe_all (Host  *h,
           Probe *p)
{
  if (p->dirs->len == 0 || run_probe (h, p, 0, p->dirs->len - 1))
    return;
  for (guint i = 0; i < p->dirs->len && !atomic_load (&h->reader->cancelled); i++)
    {
      p->refused[i] = FALSE;
      if (!run_probe (h, p, i, i))
        {
          p->refused[i] = TRUE;
          if (p->why[i] == NULL)
            p->why[i] = g_strdup ("the trace decoder died opening it");
        }
    }
}

static gboolean
probe_make (TraceDir  *t,
            GPtrArray *streams,
            guint      round,
            Probe     *p)
{
  p->dirs = g_ptr_array_new_with_free_func (g_free);
  p->streams = g_ptr_array_new ();
  p->refused = g_new0 (gboolean, streams->len + 1);
  p->why = g_new0 (char *, streams->len + 1);
  for (guint i = 0; i <= streams->len; i++)
    {
      SlCtfStream *s = i < streams->len ? g_ptr_array_index (streams, i) : NULL;
      char *dir;

      /* the metadata alone, in the first round only */
      if (s == NULL && round > 0)
        break;
      dir = probe_view (t, s, round * 100000 + i);
      if (dir == NULL)
        return FALSE;
      g_ptr_array_add (p->dirs, dir);
      g_ptr_array_add (p->streams, s);
    }
  return TRUE;
}

/* Cuts @s's last good packet off (or the whole file). */
static void
cut_last (Host        *h,
          TraceDir    *t,
          SlCtfStream *s,
          const char  *why,
          gboolean     last_round)
{
  guint64 bytes = s->n_packets > 1 && !last_round ? g_array_index (s->offsets, guint64, s->n_packets - 1) : 0;
  g_autoptr(GError) error = NULL;
  g_autofree char *reason = sl_trace_view_unmap (h, why != NULL && *why ? why : "no reason given");

  if (!sl_trace_view_cut (h->reader, t, s, bytes, &error))
    return;
  if (bytes == 0)
    sl_trace_reader_add_problem (h->reader, h->name, s->path,
                                 "babeltrace2 cannot open this stream (%s); the stream is left out", reason);
  else
    sl_trace_reader_add_problem (h->reader, h->name, s->path,
                                 "babeltrace2 cannot open this stream with its last packet, which it decodes "
                                 "first (%s); decoding goes on without the packets from offset %" G_GUINT64_FORMAT
                                 " (the first %u are kept)", reason, bytes, s->n_packets);
}

/**
 * sl_trace_repair:
 *
 * After babeltrace2 refused to open @t: probes and cuts its streams as
 * said above. TRUE when something was cut and @t is worth opening again;
 * FALSE when the metadata alone is refused, nothing could be blamed, or
 * the reader is cancelled (then @t is left as it is).
 */
gboolean
sl_trace_repair (Host     *h,
                 TraceDir *t)
{
  g_autoptr(GPtrArray) suspects = g_ptr_array_new ();
  gboolean cut = FALSE;

  for (guint i = 0; i < t->streams->len; i++)
    {
      SlCtfStream *s = g_ptr_array_index (t->streams, i);

      if (s->n_packets > 0 && s->good_bytes > 0)
        g_ptr_array_add (suspects, s);
    }

  for (guint round = 0; round < REPAIR_ROUNDS && suspects->len > 0; round++)
    {
      Probe p = { 0 };
      g_autoptr(GPtrArray) still = g_ptr_array_new ();

      if (!probe_make (t, suspects, round, &p))
        {
          probe_clear (&p);
          return cut;
        }
      probe_all (h, &p);
      if (atomic_load (&h->reader->cancelled) || (round == 0 && p.refused[suspects->len]))
        {
          /* cancelled, or the metadata is what babeltrace2 refuses */
          probe_clear (&p);
          return FALSE;
        }
      for (guint i = 0; i < suspects->len; i++)
        if (p.refused[i])
          {
            SlCtfStream *s = g_ptr_array_index (suspects, i);

            cut_last (h, t, s, p.why[i], round == REPAIR_ROUNDS - 1);
            cut = TRUE;
            if (s->good_bytes > 0)
              g_ptr_array_add (still, s);
          }
      probe_clear (&p);
      g_ptr_array_set_size (suspects, 0);
      g_ptr_array_extend (suspects, still, NULL, NULL);
    }
  return cut;
}
