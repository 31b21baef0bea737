/* sl-timeline-search.c: event queries and searches over the stores
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "sl-timeline-private.h"
#include "sl-timeline-search.h"

#define SLICE 65536

typedef enum
{
  F_EVENT,
  F_HOST,
  F_CPU,
  F_TID,
  F_SYSCALL,
  F_FD,
  F_RET,
  F_COMM,
  F_NEXT_TID,
  F_PREV_STATE,
  F_SEQ,
  F_SPORT,
  F_DPORT,
  F_PORT,
  F_LEN,
  F_IRQ,
  F_VEC,
  F_WORD,
} Field;

typedef enum
{
  OP_EQ,
  OP_NE,
  OP_LT,
  OP_LE,
  OP_GT,
  OP_GE,
} Op;

#define K(k) (1u << (k))
#define THREAD_KINDS (K (SL_EVENT_SCHED_SWITCH) | K (SL_EVENT_SCHED_WAKEUP) | K (SL_EVENT_PROCESS_FORK) | \
                      K (SL_EVENT_PROCESS_EXEC) | K (SL_EVENT_PROCESS_EXIT) | K (SL_EVENT_PROCESS_NAME) | \
                      K (SL_EVENT_PROCESS_PARENT) | K (SL_EVENT_SYSCALL_ENTRY) | K (SL_EVENT_SYSCALL_EXIT) | \
                      K (SL_EVENT_PACKET_SEND) | K (SL_EVENT_PACKET_RECV))
#define ALL_KINDS    ((1u << SL_EVENT_N_KINDS) - 2)
#define SYSCALLS     (K (SL_EVENT_SYSCALL_ENTRY) | K (SL_EVENT_SYSCALL_EXIT))
#define PACKETS      (K (SL_EVENT_PACKET_SEND) | K (SL_EVENT_PACKET_RECV))
#define NAMED        (K (SL_EVENT_SCHED_SWITCH) | K (SL_EVENT_PROCESS_FORK) | K (SL_EVENT_PROCESS_NAME) | \
                      K (SL_EVENT_PROCESS_EXEC))

static const struct
{
  const char *name;
  Field       field;
  guint       kinds;
  gboolean    text;
} fields[] = {
  { "event", F_EVENT, ALL_KINDS, TRUE },
  { "host", F_HOST, ALL_KINDS, TRUE },
  { "cpu", F_CPU, ALL_KINDS, FALSE },
  { "tid", F_TID, THREAD_KINDS, FALSE },
  { "syscall", F_SYSCALL, SYSCALLS, TRUE },
  { "fd", F_FD, K (SL_EVENT_SYSCALL_ENTRY), FALSE },
  { "ret", F_RET, K (SL_EVENT_SYSCALL_EXIT), FALSE },
  { "comm", F_COMM, NAMED, TRUE },
  { "next_tid", F_NEXT_TID, K (SL_EVENT_SCHED_SWITCH), FALSE },
  { "prev_state", F_PREV_STATE, K (SL_EVENT_SCHED_SWITCH), FALSE },
  { "seq", F_SEQ, PACKETS, FALSE },
  { "sport", F_SPORT, PACKETS, FALSE },
  { "dport", F_DPORT, PACKETS, FALSE },
  { "port", F_PORT, PACKETS, FALSE },
  { "len", F_LEN, PACKETS, FALSE },
  { "irq", F_IRQ, K (SL_EVENT_IRQ_ENTRY) | K (SL_EVENT_IRQ_EXIT), FALSE },
  { "vec", F_VEC, K (SL_EVENT_SOFTIRQ_ENTRY) | K (SL_EVENT_SOFTIRQ_EXIT) | K (SL_EVENT_SOFTIRQ_RAISE), FALSE },
};

typedef struct
{
  Field         field;
  Op            op;
  guint         kinds;
  gboolean      text;
  gint64        number;
  GPatternSpec *pattern;
  /* per prepared store: the string ids the pattern matches (a byte per
   * id), and whether the host matches */
  GByteArray   *ids;
  gboolean      host_ok;
  /* F_EVENT, F_WORD: the kinds the pattern names */
  guint         kind_match;
} Term;

struct _SlEventQuery
{
  GArray *terms;
  guint   kinds;
};

static void
term_clear (gpointer p)
{
  Term *t = p;

  if (t->pattern != NULL)
    g_pattern_spec_free (t->pattern);
  if (t->ids != NULL)
    g_byte_array_unref (t->ids);
}

void
sl_event_query_free (SlEventQuery *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->terms);
  g_free (self);
}

/* Words, quoted strings and operators */
static GPtrArray *
tokenize (const char *text)
{
  GPtrArray *tokens = g_ptr_array_new_with_free_func (g_free);
  const char *p = text;

  while (*p != '\0')
    {
      const char *start;

      if (g_ascii_isspace (*p) || *p == ',')
        {
          p++;
          continue;
        }
      if (*p == '"' || *p == '\'')
        {
          char q = *p++;
          GString *s = g_string_new ("\"");

          while (*p != '\0' && *p != q)
            g_string_append_c (s, *p++);
          if (*p == q)
            p++;
          g_ptr_array_add (tokens, g_string_free (s, FALSE));
          continue;
        }
      if (strchr ("=!<>", *p) != NULL)
        {
          start = p++;
          if (*p == '=')
            p++;
          g_ptr_array_add (tokens, g_strndup (start, p - start));
          continue;
        }
      if (*p == '&' && p[1] == '&')
        {
          p += 2;
          continue;
        }
      start = p;
      while (*p != '\0' && !g_ascii_isspace (*p) && strchr ("=!<>,\"'", *p) == NULL)
        p++;
      g_ptr_array_add (tokens, g_strndup (start, p - start));
    }
  return tokens;
}

static gboolean
is_op (const char *tok)
{
  return tok != NULL && strchr ("=!<>", tok[0]) != NULL;
}

static gboolean
parse_op (const char *tok,
          Op         *op)
{
  if (g_str_equal (tok, "=") || g_str_equal (tok, "=="))
    *op = OP_EQ;
  else if (g_str_equal (tok, "!="))
    *op = OP_NE;
  else if (g_str_equal (tok, "<"))
    *op = OP_LT;
  else if (g_str_equal (tok, "<="))
    *op = OP_LE;
  else if (g_str_equal (tok, ">"))
    *op = OP_GT;
  else if (g_str_equal (tok, ">="))
    *op = OP_GE;
  else
    return FALSE;
  return TRUE;
}

static gboolean
parse_number (const char *tok,
              gint64     *out)
{
  char *end = NULL;
  gint64 v;

  if (tok[0] == '\0' || tok[0] == '"')
    return FALSE;
  errno = 0;
  v = g_ascii_strtoll (tok, &end, 0);
  if (errno != 0 || end == tok || *end != '\0')
    return FALSE;
  *out = v;
  return TRUE;
}

static guint
kinds_matching (GPatternSpec *pattern)
{
  guint mask = 0;

  for (guint k = SL_EVENT_NONE + 1; k < SL_EVENT_N_KINDS; k++)
    if (g_pattern_spec_match_string (pattern, sl_event_kind_to_string (k)))
      mask |= K (k);
  return mask;
}

static char *
field_list (void)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    g_string_append_printf (s, "%s%s", i > 0 ? ", " : "", fields[i].name);
  return g_string_free (s, FALSE);
}

SlEventQuery *
sl_event_query_new (const char  *text,
                    GError     **error)
{
  g_autoptr(GPtrArray) tok = NULL;
  g_autoptr(SlEventQuery) self = g_new0 (SlEventQuery, 1);

  g_return_val_if_fail (text != NULL, NULL);

  self->terms = g_array_new (FALSE, TRUE, sizeof (Term));
  g_array_set_clear_func (self->terms, term_clear);
  self->kinds = ALL_KINDS;
  tok = tokenize (text);
  for (guint i = 0; i < tok->len; )
    {
      const char *word = g_ptr_array_index (tok, i);
      const char *next = i + 1 < tok->len ? g_ptr_array_index (tok, i + 1) : NULL;
      Term t = { 0 };

      if (g_ascii_strcasecmp (word, "and") == 0)
        {
          i++;
          continue;
        }
      if (is_op (word))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "“%s” needs a field before it", word);
          return NULL;
        }
      if (!is_op (next))
        {
          /* a bare word: a kind of event, or a name an event carries */
          t.field = F_WORD;
          t.op = OP_EQ;
          t.text = TRUE;
          t.pattern = g_pattern_spec_new (word[0] == '"' ? word + 1 : word);
          t.kinds = ALL_KINDS;
          t.kind_match = kinds_matching (t.pattern);
          g_array_append_val (self->terms, t);
          i++;
          continue;
        }
      {
        const char *value = i + 2 < tok->len ? g_ptr_array_index (tok, i + 2) : NULL;
        guint f;

        for (f = 0; f < G_N_ELEMENTS (fields); f++)
          if (g_ascii_strcasecmp (word, fields[f].name) == 0)
            break;
        if (f == G_N_ELEMENTS (fields))
          {
            g_autofree char *list = field_list ();

            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "unknown field “%s” (fields: %s)", word,
                         list);
            return NULL;
          }
        if (!parse_op (next, &t.op))
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "unknown operator “%s”", next);
            return NULL;
          }
        if (value == NULL || is_op (value))
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "“%s %s” needs a value", word, next);
            return NULL;
          }
        t.field = fields[f].field;
        t.kinds = fields[f].kinds;
        t.text = fields[f].text;
        if (t.text)
          {
            if (t.op != OP_EQ && t.op != OP_NE)
              {
                g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                             "“%s” is a name: compare it with = or != only", word);
                return NULL;
              }
            t.pattern = g_pattern_spec_new (value[0] == '"' ? value + 1 : value);
            if (t.field == F_EVENT)
              {
                t.kind_match = kinds_matching (t.pattern);
                if (t.kind_match == 0)
                  {
                    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                                 "no kind of event is called “%s” (sched_switch, syscall_entry, packet_send…)",
                                 value);
                    term_clear (&t);
                    return NULL;
                  }
                if (t.op == OP_EQ)
                  t.kinds = t.kind_match;
              }
          }
        else if (!parse_number (value, &t.number))
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "“%s” needs a number, not “%s”", word,
                         value[0] == '"' ? value + 1 : value);
            return NULL;
          }
        g_array_append_val (self->terms, t);
        i += 3;
      }
    }
  if (self->terms->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "nothing to find");
      return NULL;
    }
  for (guint i = 0; i < self->terms->len; i++)
    self->kinds &= g_array_index (self->terms, Term, i).kinds;
  return g_steal_pointer (&self);
}

gboolean
sl_event_query_looks_like (const char *text)
{
  g_autoptr(GPtrArray) tok = NULL;

  g_return_val_if_fail (text != NULL, FALSE);

  tok = tokenize (text);
  for (guint i = 0; i < tok->len; i++)
    {
      const char *w = g_ptr_array_index (tok, i);

      if (is_op (w))
        return TRUE;
      for (guint k = SL_EVENT_NONE + 1; k < SL_EVENT_N_KINDS; k++)
        if (g_str_equal (w, sl_event_kind_to_string (k)))
          return TRUE;
    }
  return FALSE;
}

guint
sl_event_query_streams (const SlEventQuery *self)
{
  guint streams = 0;

  g_return_val_if_fail (self != NULL, 0);

  for (guint k = SL_EVENT_NONE + 1; k < SL_EVENT_N_KINDS; k++)
    if (self->kinds & K (k))
      streams |= 1u << sl_event_kind_get_stream (k);
  return streams;
}

gboolean
sl_event_query_prepare (SlEventQuery       *self,
                        const SlEventStore *store,
                        const char         *host_name)
{
  guint n;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (store != NULL, FALSE);

  n = sl_event_store_get_n_strings (store) + 1;
  for (guint i = 0; i < self->terms->len; i++)
    {
      Term *t = &g_array_index (self->terms, Term, i);

      if (t->field == F_HOST)
        {
          t->host_ok = g_pattern_spec_match_string (t->pattern, host_name != NULL ? host_name : "");
          if (t->host_ok == (t->op == OP_NE))
            return FALSE;
          continue;
        }
      if (t->field != F_SYSCALL && t->field != F_COMM && t->field != F_WORD)
        continue;
      if (t->ids == NULL)
        t->ids = g_byte_array_new ();
      g_byte_array_set_size (t->ids, n);
      t->ids->data[0] = FALSE;
      for (guint id = 1; id < n; id++)
        {
          const char *s = sl_event_store_get_string (store, id);
          const char *base = strrchr (s, '/');

          /* (an exec's file name by its base name too) */
          t->ids->data[id] = g_pattern_spec_match_string (t->pattern, s) ||
                             (base != NULL && g_pattern_spec_match_string (t->pattern, base + 1));
        }
    }
  return self->kinds != 0;
}

static gboolean
compare (gint64 a,
         Op     op,
         gint64 b)
{
  switch (op)
    {
    case OP_EQ:
      return a == b;
    case OP_NE:
      return a != b;
    case OP_LT:
      return a < b;
    case OP_LE:
      return a <= b;
    case OP_GT:
      return a > b;
    case OP_GE:
    default:
      return a >= b;
    }
}

static gboolean
has_id (const Term *t,
        guint32     id)
{
  return id < t->ids->len && t->ids->data[id];
}

static gboolean
term_match (const Term          *t,
            const SlEvent       *e,
            const SlEventPacket *pk)
{
  guint kind = e->kind;
  gboolean eq;

  if (!(t->kinds & K (kind)))
    return FALSE;
  switch (t->field)
    {
    case F_EVENT:
      eq = (t->kind_match & K (kind)) != 0;
      return t->op == OP_EQ ? eq : !eq;
    case F_HOST:
      return TRUE;
    case F_WORD:
      return (t->kind_match & K (kind)) != 0 ||
             ((K (kind) & (SYSCALLS | NAMED)) && e->str != 0 && has_id (t, e->str));
    case F_SYSCALL:
    case F_COMM:
      eq = e->str != 0 && has_id (t, e->str);
      return t->op == OP_EQ ? eq : !eq;
    case F_CPU:
      return compare (e->cpu, t->op, t->number);
    case F_TID:
      return compare (e->tid, t->op, t->number);
    case F_FD:
      return (e->flags & SL_EVENT_SYSCALL_HAS_FD) && compare ((gint32) e->arg, t->op, t->number);
    case F_RET:
      return compare ((gint32) e->arg, t->op, t->number);
    case F_NEXT_TID:
      return compare (e->arg, t->op, t->number);
    case F_PREV_STATE:
      return compare (e->flags, t->op, t->number);
    case F_SEQ:
      return compare (e->arg, t->op, t->number);
    case F_SPORT:
      return pk != NULL && pk->sport != 0 && compare (pk->sport, t->op, t->number);
    case F_DPORT:
      return pk != NULL && pk->dport != 0 && compare (pk->dport, t->op, t->number);
    case F_PORT:
      return pk != NULL && ((pk->sport != 0 && compare (pk->sport, t->op, t->number)) ||
                            (pk->dport != 0 && compare (pk->dport, t->op, t->number)));
    case F_LEN:
      return pk != NULL && pk->length != SL_EVENT_NO_LENGTH && compare (pk->length, t->op, t->number);
    case F_IRQ:
    case F_VEC:
    default:
      return compare (e->arg, t->op, t->number);
    }
}

/* No check: the search calls it for every event it scans. */
gboolean
sl_event_query_match (const SlEventQuery  *self,
                      const SlEvent       *event,
                      const SlEventPacket *packet)
{
  if (!(self->kinds & K (event->kind)))
    return FALSE;
  for (guint i = 0; i < self->terms->len; i++)
    if (!term_match (&g_array_index (self->terms, Term, i), event, packet))
      return FALSE;
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Searches                                                                */

typedef struct
{
  const SlEventStore *store;
  char               *name;
  SlTransform         to_view;
  gboolean            has_view;
  /* a host shown through a piecewise map: view = anim ∘ rel (as
   * sl_timeline_to_view() maps it when the search starts) */
  SlRelation         *rel;
  SlTransform         anim;
} Host;

struct _SlTimelineSearch
{
  SlEventQuery     *query;
  GArray           *hosts;
  guint             max_hits;
  SlSearchLockFunc  lock;
  SlSearchLockFunc  unlock;
  gpointer          lock_data;

  GMutex            mutex;
  guint64           total;
  guint64           scanned;
  guint64           matches;
  GArray           *hits;
  gboolean          done;
};

static void
host_clear (gpointer p)
{
  g_clear_pointer (&((Host *) p)->rel, sl_relation_unref);
  g_free (((Host *) p)->name);
}

/* The same view time as sl_timeline_to_view() gives when the search
 * starts (the search runs on its own thread, without the timeline) */
static gint64
host_to_view (const Host *host,
              gint64      local)
{
  if (host->rel != NULL)
    return sl_transform_apply (&host->anim, sl_relation_apply (host->rel, local));
  return host->has_view ? sl_transform_apply (&host->to_view, local) : local;
}

SlTimelineSearch *
sl_timeline_search_new (const SlTimeline           *timeline,
                        const SlEventStore * const *stores,
                        guint                       n_stores,
                        SlEventQuery               *query,
                        guint                       max_hits)
{
  SlTimelineSearch *self;

  g_return_val_if_fail (timeline != NULL, NULL);
  g_return_val_if_fail (stores != NULL || n_stores == 0, NULL);
  g_return_val_if_fail (query != NULL, NULL);

  self = g_new0 (SlTimelineSearch, 1);
  self->query = query;
  self->max_hits = MAX (max_hits, 1);
  self->hosts = g_array_new (FALSE, TRUE, sizeof (Host));
  g_array_set_clear_func (self->hosts, host_clear);
  self->hits = g_array_new (FALSE, FALSE, sizeof (SlSearchHit));
  g_mutex_init (&self->mutex);
  for (guint h = 0; h < n_stores && h < sl_timeline_get_n_hosts (timeline); h++)
    {
      const SlTlHost *th = sl_tl_host (timeline, h);
      Host host = { 0 };

      host.store = stores[h];
      if (th != NULL)
        {
          host.name = g_strdup (th->name);
          host.to_view = th->to_view;
          host.has_view = th->has_view;
          if (piecewise_view (th))
            {
              host.rel = sl_relation_ref (th->bound_rel);
              host.anim = th->anim;
            }
        }
      g_array_append_val (self->hosts, host);
    }
  return self;
}

void
sl_timeline_search_free (SlTimelineSearch *self)
{
  if (self == NULL)
    return;
  sl_event_query_free (self->query);
  g_array_unref (self->hosts);
  g_array_unref (self->hits);
  g_mutex_clear (&self->mutex);
  g_free (self);
}

void
sl_timeline_search_set_lock_func (SlTimelineSearch *self,
                                  SlSearchLockFunc  lock,
                                  SlSearchLockFunc  unlock,
                                  gpointer          user_data)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail ((lock == NULL) == (unlock == NULL));

  self->lock = lock;
  self->unlock = unlock;
  self->lock_data = user_data;
}

static int
hit_cmp (gconstpointer a,
         gconstpointer b)
{
  const SlSearchHit *x = a, *y = b;

  if (x->view_time != y->view_time)
    return x->view_time < y->view_time ? -1 : 1;
  if (x->host != y->host)
    return x->host < y->host ? -1 : 1;
  if (x->stream != y->stream)
    return x->stream < y->stream ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

static void
hits_trim (GArray *hits,
           guint   keep)
{
  g_array_sort (hits, hit_cmp);
  if (hits->len > keep)
    g_array_set_size (hits, keep);
}

gboolean
sl_timeline_search_run (SlTimelineSearch *self,
                        GCancellable     *cancellable)
{
  g_autofree guint64 *counts = NULL;
  guint streams = sl_event_query_streams (self->query);
  guint n_hosts = self->hosts->len;
  gint64 cutoff = G_MAXINT64;
  guint64 total = 0;

  g_return_val_if_fail (self != NULL, FALSE);

  /* what there is to scan now (a live session's stores grow meanwhile) */
  counts = g_new0 (guint64, MAX (n_hosts, 1) * SL_EVENT_N_STREAMS);
  if (self->lock != NULL)
    self->lock (self->lock_data);
  for (guint h = 0; h < n_hosts; h++)
    {
      const Host *host = &g_array_index (self->hosts, Host, h);

      for (guint s = 0; host->store != NULL && s < SL_EVENT_N_STREAMS; s++)
        if (streams & (1u << s))
          {
            counts[h * SL_EVENT_N_STREAMS + s] = sl_event_store_get_n_events (host->store, s);
            total += counts[h * SL_EVENT_N_STREAMS + s];
          }
    }
  if (self->unlock != NULL)
    self->unlock (self->lock_data);
  g_mutex_lock (&self->mutex);
  self->total = total;
  g_mutex_unlock (&self->mutex);

  for (guint h = 0; h < n_hosts; h++)
    {
      const Host *host = &g_array_index (self->hosts, Host, h);
      gboolean wanted;

      if (host->store == NULL)
        continue;
      if (self->lock != NULL)
        self->lock (self->lock_data);
      wanted = sl_event_query_prepare (self->query, host->store, host->name);
      if (self->unlock != NULL)
        self->unlock (self->lock_data);
      for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
        {
          guint64 n = counts[h * SL_EVENT_N_STREAMS + s];

          for (guint64 k0 = 0; k0 < n; k0 += SLICE)
            {
              guint64 k1 = MIN (k0 + SLICE, n), matches = 0;

              if (g_cancellable_is_cancelled (cancellable))
                return FALSE;
              if (self->lock != NULL)
                self->lock (self->lock_data);
              /* (a live session's retention may have dropped the front) */
              for (guint64 k = MAX (k0, sl_event_store_get_first_index (host->store, s)); wanted && k < k1; k++)
                {
                  const SlEvent *e = sl_event_store_get (host->store, s, k);
                  SlSearchHit hit;

                  if (!sl_event_query_match (self->query, e, s == SL_EVENT_STREAM_NET ?
                                             sl_event_store_get_packet (host->store, k) : NULL))
                    continue;
                  matches++;
                  hit.view_time = host_to_view (host, e->time);
                  /* only the first hits in time are kept */
                  if (hit.view_time > cutoff)
                    continue;
                  hit.index = k;
                  hit.host = h;
                  hit.stream = (guint8) s;
                  g_array_append_val (self->hits, hit);
                  if (self->hits->len >= 2 * self->max_hits)
                    {
                      hits_trim (self->hits, self->max_hits);
                      cutoff = g_array_index (self->hits, SlSearchHit, self->hits->len - 1).view_time;
                    }
                }
              if (self->unlock != NULL)
                self->unlock (self->lock_data);
              g_mutex_lock (&self->mutex);
              self->scanned += k1 - k0;
              self->matches += matches;
              g_mutex_unlock (&self->mutex);
            }
        }
    }
  hits_trim (self->hits, self->max_hits);
  g_mutex_lock (&self->mutex);
  self->done = TRUE;
  g_mutex_unlock (&self->mutex);
  return TRUE;
}

double
sl_timeline_search_get_progress (SlTimelineSearch *self)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_val_if_fail (self != NULL, 0);

  locker = g_mutex_locker_new (&self->mutex);
  return self->done ? 1 : self->total > 0 ? (double) self->scanned / (double) self->total : 0;
}

guint64
sl_timeline_search_get_n_scanned (SlTimelineSearch *self)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_val_if_fail (self != NULL, 0);

  locker = g_mutex_locker_new (&self->mutex);
  return self->scanned;
}

guint64
sl_timeline_search_get_n_matches (SlTimelineSearch *self)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_val_if_fail (self != NULL, 0);

  locker = g_mutex_locker_new (&self->mutex);
  return self->matches;
}

GArray *
sl_timeline_search_get_hits (SlTimelineSearch *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->hits;
}
