/* sl-parallel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The calling thread and the helpers take the loop's indices from one
 * counter, so that the caller never waits for an iteration nobody has
 * started: when the helpers are busy elsewhere (or the machine has one
 * core), the caller simply does every iteration itself. It waits only for
 * iterations a helper is in the middle of.
 */

#include "config.h"

#include "sl-parallel.h"

#define MAX_HELPERS 3

typedef struct
{
  gint           ref;
  SlParallelFunc func;
  gpointer       user_data;
  guint          n;
  gint           next;
  GMutex         lock;
  GCond          cond;
  guint          done;
} Job;

static GMutex       pool_lock;
static GThreadPool *pool;
static guint        helpers_set = G_MAXUINT;

static void
job_unref (Job *job)
{
  if (!g_atomic_int_dec_and_test (&job->ref))
    return;
  g_mutex_clear (&job->lock);
  g_cond_clear (&job->cond);
  g_free (job);
}

static void
job_run (Job *job)
{
  guint finished = 0;

  for (;;)
    {
      guint i = (guint) g_atomic_int_add (&job->next, 1);

      if (i >= job->n)
        break;
      job->func (i, job->user_data);
      finished++;
    }
  if (finished == 0)
    return;
  g_mutex_lock (&job->lock);
  job->done += finished;
  if (job->done == job->n)
    g_cond_signal (&job->cond);
  g_mutex_unlock (&job->lock);
}

static void
helper_func (gpointer data,
             gpointer unused)
{
  Job *job = data;

  job_run (job);
  job_unref (job);
}

/* The pool, made on first use; NULL when there are no helpers. */
static GThreadPool *
get_pool (guint *helpers)
{
  GThreadPool *p;

  g_mutex_lock (&pool_lock);
  if (helpers_set == G_MAXUINT)
    helpers_set = CLAMP (g_get_num_processors (), 1, MAX_HELPERS + 1) - 1;
  if (pool == NULL && helpers_set > 0)
    {
      g_autoptr(GError) error = NULL;

      pool = g_thread_pool_new (helper_func, NULL, (int) helpers_set, FALSE, &error);
      if (pool == NULL)
        {
          g_warning ("no helper threads: %s", error->message);
          helpers_set = 0;
        }
    }
  p = pool;
  *helpers = helpers_set;
  g_mutex_unlock (&pool_lock);
  return p;
}

/**
 * sl_parallel_for:
 * @n: iterations
 * @func: called once for each index in [0, @n), from any thread
 * @user_data: passed to @func
 *
 * Runs the iterations on the calling thread and the helper threads, and
 * returns when every one has returned. The iterations must not depend on
 * each other's order. A helper that is not free in time takes nothing:
 * the caller does the rest.
 */
void
sl_parallel_for (guint          n,
                 SlParallelFunc func,
                 gpointer       user_data)
{
  sl_parallel_for_at_most (n, G_MAXUINT, func, user_data);
}

/**
 * sl_parallel_for_at_most:
 * @max_threads: threads at most, the caller's included (0 counts as 1)
 *
 * sl_parallel_for() on at most @max_threads threads.
 */
void
sl_parallel_for_at_most (guint          n,
                         guint          max_threads,
                         SlParallelFunc func,
                         gpointer       user_data)
{
  GThreadPool *p;
  guint helpers, pushed = 0;
  Job *job;

  g_return_if_fail (func != NULL || n == 0);

  if (n == 0)
    return;
  p = n > 1 && max_threads > 1 ? get_pool (&helpers) : NULL;
  if (p == NULL)
    {
      for (guint i = 0; i < n; i++)
        func (i, user_data);
      return;
    }

  job = g_new0 (Job, 1);
  job->ref = 1;
  job->func = func;
  job->user_data = user_data;
  job->n = n;
  g_mutex_init (&job->lock);
  g_cond_init (&job->cond);
  for (guint k = 0; k < MIN (MIN (helpers, max_threads - 1), n - 1); k++)
    {
      g_autoptr(GError) error = NULL;

      g_atomic_int_inc (&job->ref);
      if (!g_thread_pool_push (p, job, &error))
        {
          job_unref (job);
          break;
        }
      pushed++;
    }
  job_run (job);
  if (pushed > 0)
    {
      g_mutex_lock (&job->lock);
      while (job->done < job->n)
        g_cond_wait (&job->cond, &job->lock);
      g_mutex_unlock (&job->lock);
    }
  job_unref (job);
}

/**
 * sl_parallel_get_helpers:
 *
 * Returns: the helper threads sl_parallel_for() uses besides the caller:
 *   one less than the processors, at most 3
 */
guint
sl_parallel_get_helpers (void)
{
  guint helpers;

  get_pool (&helpers);
  return helpers;
}

/**
 * sl_parallel_set_helpers:
 * @n_helpers: helper threads from now on (0: the caller alone)
 *
 * For tests and benchmarks; call it while no loop runs.
 */
void
sl_parallel_set_helpers (guint n_helpers)
{
  g_mutex_lock (&pool_lock);
  helpers_set = MIN (n_helpers, MAX_HELPERS);
  if (pool != NULL && helpers_set > 0)
    g_thread_pool_set_max_threads (pool, (int) helpers_set, NULL);
  g_mutex_unlock (&pool_lock);
}
