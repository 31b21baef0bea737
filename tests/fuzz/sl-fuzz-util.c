/* sl-fuzz-util.c: the fuzz driver's cases, built in folders
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A trace case is DIR/traces/: the base's host folders as symbolic links,
 * except the victim's, which is copied and then damaged.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sl-fuzz-mutate.h"
#include "sl-fuzz-util.h"

/* Files larger than this (a case's 1 TiB sparse stream) are never read
 * into memory by the driver: not damaged again, copied as sparse. */
#define MAX_FILE_BYTES ((goffset) 64 << 20)

static gsize
pick (GRand *rand,
      gsize  n)
{
  return n <= 1 ? 0 : (gsize) g_rand_int_range (rand, 0, (gint32) MIN (n, (gsize) G_MAXINT32));
}

int
sl_fuzz_cmp_strings (gconstpointer a,
                     gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

void
sl_fuzz_copy_tree (const char *from,
                   const char *to)
{
  struct stat st;

  if (lstat (from, &st) != 0)
    return;
  if (S_ISDIR (st.st_mode))
    {
      g_autoptr(GDir) d = g_dir_open (from, 0, NULL);
      const char *name;

      g_mkdir_with_parents (to, 0755);
      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *a = g_build_filename (from, name, NULL);
          g_autofree char *b = g_build_filename (to, name, NULL);

          sl_fuzz_copy_tree (a, b);
        }
    }
  else if (S_ISREG (st.st_mode) && st.st_size > MAX_FILE_BYTES)
    {
      int fd = open (to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

      if (fd >= 0)
        {
          if (ftruncate (fd, st.st_size) != 0)
            {
              /* an empty file then */
            }
          close (fd);
        }
    }
  else if (S_ISREG (st.st_mode))
    {
      g_autofree char *data = NULL;
      gsize len;

      if (g_file_get_contents (from, &data, &len, NULL))
        g_file_set_contents (to, data, (gssize) len, NULL);
    }
}

/* The folder holding "metadata" below @dir (a trace). */
char *
sl_fuzz_find_trace (const char *dir)
{
  g_autofree char *meta = g_build_filename (dir, "metadata", NULL);
  g_autoptr(GDir) d = NULL;
  const char *name;

  if (g_file_test (meta, G_FILE_TEST_EXISTS))
    return g_strdup (dir);
  d = g_dir_open (dir, 0, NULL);
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (dir, name, NULL);
      char *found;

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK) &&
          (found = sl_fuzz_find_trace (child)) != NULL)
        return found;
    }
  return NULL;
}

/* The stream files of a trace folder, sorted. */
static GPtrArray *
streams_of (const char *trace)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) d = g_dir_open (trace, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (trace, name, NULL);
      struct stat st;

      if (!g_str_equal (name, "metadata") && name[0] != '.' && stat (p, &st) == 0 && S_ISREG (st.st_mode) &&
          st.st_size <= MAX_FILE_BYTES)
        g_ptr_array_add (out, g_steal_pointer (&p));
    }
  g_ptr_array_sort (out, (GCompareFunc) sl_fuzz_cmp_strings);
  return out;
}

/* A regular file's bytes (empty for anything else: a case may have made
 * it a FIFO or a folder). */
static GByteArray *
read_bytes (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  struct stat st;

  if (lstat (path, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size > MAX_FILE_BYTES ||
      !g_file_get_contents (path, &data, &len, NULL))
    return g_byte_array_new ();
  return g_byte_array_new_take ((guint8 *) g_steal_pointer (&data), len);
}

static void
write_bytes (const char *path,
             GByteArray *b)
{
  struct stat st;

  if (lstat (path, &st) == 0 && !S_ISREG (st.st_mode))
    return;
  g_file_set_contents (path, (const char *) b->data, b->len, NULL);
}

/* ---------------------------------------------------------------------- */
/* Running a program                                                       */

void
sl_fuzz_result_clear (SlFuzzResult *r)
{
  g_free (r->out);
  g_free (r->err);
  memset (r, 0, sizeof *r);
}

static char *
env_with_log (const char *name,
              const char *dir)
{
  const char *old = g_getenv (name);
  g_autofree char *log = g_build_filename (dir, "sanitizer", NULL);

  /* an abort is a decoder's way to die (babeltrace2's assertions, the
   * memory limit): the reader salvages it and the fuzz driver counts it;
   * the sanitizers' reports are for memory errors and undefined behaviour */
  return g_strdup_printf ("%s=%s%slog_path=%s%s", name, old != NULL ? old : "", old != NULL && *old ? ":" : "", log,
                          g_str_equal (name, "ASAN_OPTIONS") ? ":handle_abort=0" : "");
}

static gboolean
in_group (const char *pid,
          gpointer    pgid)
{
  int ppid, pgrp;
  char state;

  return proc_stat (pid, &state, &ppid, &pgrp, NULL, NULL) && pgrp == *(pid_t *) pgid;
}

/* The processes of group @pgid (the program and its decoders). */
static GArray *
group_pids (pid_t pgid)
{
  return proc_pids (in_group, &pgid);
}

/* How long (µs) the case was held back by the machine since the last
 * look: the largest increase, over the threads of group @pgid, of the time
 * they waited runnable for a processor (/proc/PID/task/TID/schedstat;
 * @waits: TID → the last value). On a loaded machine a niced case can be
 * starved for minutes (seen: a decoder runnable for 200 s with 0.17 s of
 * processor time), which is not a hang. A thread first seen counts its
 * whole wait: it began within the case. */
static gint64
starved_us (pid_t       pgid,
            GHashTable *waits)
{
  g_autoptr(GArray) pids = group_pids (pgid);
  gint64 most = 0;

  for (guint i = 0; i < pids->len; i++)
    {
      g_autofree char *tasks = g_strdup_printf ("/proc/%d/task", (int) g_array_index (pids, pid_t, i));
      g_autoptr(GDir) d = g_dir_open (tasks, 0, NULL);
      const char *tid;

      while (d != NULL && (tid = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *path = g_build_filename (tasks, tid, "schedstat", NULL);
          g_autofree char *text = NULL;
          unsigned long long run_ns, wait_ns;
          gpointer key = GINT_TO_POINTER ((gint) g_ascii_strtoll (tid, NULL, 10));
          gint64 *last;

          if (!g_file_get_contents (path, &text, NULL, NULL) || sscanf (text, "%llu %llu", &run_ns, &wait_ns) != 2)
            continue;
          if ((last = g_hash_table_lookup (waits, key)) == NULL)
            {
              last = g_new0 (gint64, 1);
              g_hash_table_insert (waits, key, last);
            }
          most = MAX (most, (gint64) (wait_ns / 1000) - *last);
          *last = (gint64) (wait_ns / 1000);
        }
    }
  return most;
}

/* A hang's evidence: every thread's stack of each process in group @pgid
 * into DIR/hang-PID.txt, when gdb is installed. */
static void
save_stacks (pid_t       pgid,
             const char *dir)
{
  g_autofree char *gdb = g_find_program_in_path ("gdb");
  g_autoptr(GArray) pids = group_pids (pgid);

  for (guint i = 0; gdb != NULL && i < pids->len; i++)
    {
      g_autofree char *pid = g_strdup_printf ("%d", (int) g_array_index (pids, pid_t, i));
      g_autofree char *out = NULL;
      g_autofree char *path = g_strdup_printf ("%s/hang-%s.txt", dir, pid);
      const char *argv[] = { gdb, "-p", pid, "-batch", "-ex", "thread apply all bt", NULL };

      g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, NULL, NULL);
      g_file_set_contents (path, out != NULL ? out : "", -1, NULL);
    }
}

/**
 * sl_fuzz_run:
 * @signals: (array length=n_signals) (nullable): signals sent to the
 *   program (not its group) at their times, counted from when its group
 *   first holds another process (a decoder, started after the CLI's
 *   handlers are in: under the sanitizers on a loaded machine, a signal
 *   at a fixed time from the start found no handler yet and killed it)
 *
 * Runs @prog with @args in its own process group, its output into files
 * in @dir and its sanitizer reports (if any) into DIR/sanitizer.PID; the
 * group is killed after @timeout_s (r->timed_out) and when it ends. The
 * time one of its threads waited for a processor does not count (at most
 * ten times @timeout_s in all): a hang is a wait for something else.
 */
void
sl_fuzz_run (const char         *prog,
             const char         *dir,
             const char *const  *args,
             guint               timeout_s,
             const SlFuzzSignal *signals,
             guint               n_signals,
             SlFuzzResult       *r)
{
  g_autofree char *out_path = g_build_filename (dir, "stdout", NULL);
  g_autofree char *err_path = g_build_filename (dir, "stderr", NULL);
  g_autofree char *asan = env_with_log ("ASAN_OPTIONS", dir);
  g_autofree char *ubsan = env_with_log ("UBSAN_OPTIONS", dir);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  gint64 start = g_get_monotonic_time (), deadline = start + (gint64) timeout_s * G_USEC_PER_SEC;
  g_autoptr(GHashTable) waits = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  gint64 last_look = start, starved = 0, child_look = 0, signal_clock = -1;
  guint next_signal = 0;
  int status = 0;
  pid_t pid;

  memset (r, 0, sizeof *r);
  g_ptr_array_add (argv, (gpointer) prog);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  pid = fork ();
  g_assert (pid >= 0);
  if (pid == 0)
    {
      int o = open (out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
      int e = open (err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

      setpgid (0, 0);
      if (o < 0 || e < 0 || dup2 (o, 1) < 0 || dup2 (e, 2) < 0)
        _exit (127);
      putenv (asan);
      putenv (ubsan);
      execv (prog, (char **) argv->pdata);
      _exit (127);
    }
  setpgid (pid, pid);
  for (;;)
    {
      pid_t w = waitpid (pid, &status, WNOHANG);
      gint64 now = g_get_monotonic_time ();

      if (w == pid)
        break;
      if (w < 0 && errno != EINTR)
        break;
      if (next_signal < n_signals && signal_clock < 0 && now - child_look >= 20 * 1000)
        {
          g_autoptr(GArray) pids = group_pids (pid);

          child_look = now;
          if (pids->len > 1)
            signal_clock = now;
        }
      if (next_signal < n_signals && signal_clock >= 0 &&
          now - signal_clock >= (gint64) signals[next_signal].after_ms * 1000)
        {
          kill (pid, signals[next_signal++].signo);
          r->signal_s = (now - start) / 1e6;
        }
      if (now - last_look >= G_USEC_PER_SEC && !r->timed_out)
        {
          starved += MIN (starved_us (pid, waits), now - last_look);
          last_look = now;
          r->starved_s = starved / 1e6;
          if (now - starved > deadline || now - start > 10 * (deadline - start))
            {
              r->timed_out = TRUE;
              save_stacks (pid, dir);
              kill (-pid, SIGKILL);
            }
        }
      g_usleep (2000);
    }
  /* what the program left behind (decoders die with it: PDEATHSIG) */
  kill (-pid, SIGKILL);
  r->seconds = (g_get_monotonic_time () - start) / 1e6;
  r->status = WIFEXITED (status) ? WEXITSTATUS (status) : -WTERMSIG (status);
  if (!g_file_get_contents (out_path, &r->out, NULL, NULL))
    r->out = g_strdup ("");
  if (!g_file_get_contents (err_path, &r->err, NULL, NULL))
    r->err = g_strdup ("");
}

/* ---------------------------------------------------------------------- */
/* Damage                                                                  */

/* One stream file's bytes (@fields: its packet headers and contexts at
 * the fields' places, when the metadata gives their layout). */
static void
damage_stream (const char *trace,
               gboolean    fields,
               GRand      *rand,
               GString    *what)
{
  g_autoptr(GPtrArray) streams = streams_of (trace);
  g_autoptr(GByteArray) b = NULL;
  const char *path, *w = "";
  gboolean done = FALSE;

  if (streams->len == 0)
    return;
  path = g_ptr_array_index (streams, pick (rand, streams->len));
  b = read_bytes (path);
  if (fields)
    {
      g_autofree char *meta_path = g_build_filename (trace, "metadata", NULL);
      g_autoptr(GByteArray) meta = read_bytes (meta_path);
      gsize text_len = 0;
      g_autofree char *text = sl_fuzz_metadata_text (meta->data, meta->len, &text_len);

      done = text != NULL && sl_fuzz_packets (b, text, text_len, rand, &w);
    }
  if (!done)
    sl_fuzz_bytes (b, rand, 8192, &w);
  write_bytes (path, b);
  g_string_append_printf (what, "%s%s: %s", what->len ? "; " : "", strrchr (path, '/') + 1, w);
}

static void
damage_metadata_bytes (const char *trace,
                       GRand      *rand,
                       GString    *what)
{
  g_autofree char *path = g_build_filename (trace, "metadata", NULL);
  g_autoptr(GByteArray) b = read_bytes (path);
  const char *w = "";

  sl_fuzz_bytes (b, rand, 4096, &w);
  write_bytes (path, b);
  g_string_append_printf (what, "%smetadata: %s", what->len ? "; " : "", w);
}

/* 1 to 3 TSDL edits, written back packetized (as LTTng does) or as text. */
static void
damage_tsdl (const char *trace,
             GRand      *rand,
             GString    *what,
             Expect     *expect)
{
  g_autofree char *path = g_build_filename (trace, "metadata", NULL);
  g_autoptr(GByteArray) b = read_bytes (path);
  g_autofree char *text = NULL;
  g_autoptr(GString) s = NULL;
  gsize len = 0;
  guint n = 1 + (guint) pick (rand, 3);
  gboolean packetized = b->len >= 4 && memcmp (b->data, "\x57\x1d\xd1\x75", 4) == 0;

  text = sl_fuzz_metadata_text (b->data, b->len, &len);
  if (text == NULL)
    return;
  s = g_string_new_len (text, (gssize) len);
  for (guint i = 0; i < n; i++)
    {
      const char *w = "";

      sl_fuzz_tsdl (s, rand, &w);
      g_string_append_printf (what, "%smetadata: %s", what->len ? "; " : "", w);
      if (g_str_equal (w, "CTF 2 metadata"))
        {
          expect->needles[0] = "CTF 2";
          expect->needles[1] = "2.1";
          expect->needles[2] = "CTF 1.8";
          packetized = FALSE;
          break;
        }
    }
  if (packetized && g_rand_boolean (rand))
    {
      guint32 bits;
      g_autoptr(GByteArray) p = NULL;

      memcpy (&bits, b->data + 28, 4);
      p = sl_fuzz_packetize (s->str, s->len, b->len >= 20 ? b->data + 4 : NULL, MAX (bits / 8, 64u));
      write_bytes (path, p);
    }
  else
    g_file_set_contents (path, s->str, (gssize) s->len, NULL);
}

/* A file beside the streams that was not there: a FIFO, a link, a sparse
 * stream. */
#define FRESH "channel9_9"

/* DIR/NAME, a symbolic link to @target. */
static void
link_in (const char *dir,
         const char *name,
         const char *target)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  /* (several damages at once may make the same link twice) */
  if (symlink (target, path) != 0 && errno != EEXIST)
    g_printerr ("sl-fuzz: cannot link %s: %s\n", path, g_strerror (errno));
}

static void
damage_files (const char *victim,
              const char *trace,
              GRand      *rand,
              GString    *what)
{
  g_autoptr(GPtrArray) streams = streams_of (trace);
  const char *some = streams->len > 0 ? g_ptr_array_index (streams, pick (rand, streams->len)) : NULL;
  g_autofree char *fresh = g_build_filename (trace, FRESH, NULL);
  g_autofree char *meta = g_build_filename (trace, "metadata", NULL);
  guint kind = (guint) pick (rand, 12);

  switch (kind)
    {
    case 0:
      mkfifo (fresh, 0644);
      g_string_append (what, "a FIFO beside the streams");
      break;
    case 1:
      if (some != NULL)
        unlink (some), mkfifo (some, 0644);
      g_string_append (what, "a stream replaced by a FIFO");
      break;
    case 2:
      unlink (meta);
      mkfifo (meta, 0644);
      g_string_append (what, "the metadata replaced by a FIFO");
      break;
    case 3:
      {
        g_autofree char *index = g_build_filename (trace, "index", NULL);
        g_autofree char *name = some != NULL ? g_strconcat (strrchr (some, '/') + 1, ".idx", NULL) : g_strdup ("x.idx");
        g_autofree char *idx = g_build_filename (index, name, NULL);

        g_mkdir_with_parents (index, 0755);
        unlink (idx);
        mkfifo (idx, 0644);
        g_string_append (what, "a FIFO named like an index file");
        break;
      }
    case 4:
      link_in (trace, "loop_a", "loop_b");
      link_in (trace, "loop_b", "loop_a");
      g_string_append (what, "a symbolic link loop");
      break;
    case 5:
      link_in (trace, "up", "..");
      link_in (victim, "self", ".");
      g_string_append (what, "folder links that loop (.. and .)");
      break;
    case 6:
      link_in (trace, FRESH, g_rand_boolean (rand) ? "/dev/zero" : "/dev/urandom");
      g_string_append (what, "a device linked as a stream");
      break;
    case 7:
      if (some != NULL)
        {
          if (geteuid () == 0)
            {
              /* root reads a mode-000 file anyway: a folder stands for it */
              unlink (some);
              g_mkdir (some, 0755);
            }
          else
            chmod (some, 0);
        }
      g_string_append (what, "an unreadable stream");
      break;
    case 8:
      {
        int fd;

        /* (an earlier damage of the case may have made it a FIFO: opening
         * that to write would wait for a reader, and the driver with it) */
        unlink (fresh);
        fd = open (fresh, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK, 0644);

        if (fd >= 0)
          {
            /* sparse: nothing is written */
            if (ftruncate (fd, (off_t) 1 << 40) != 0)
              (void) ftruncate (fd, (off_t) 1 << 32);
            close (fd);
          }
        g_string_append (what, "a 1 TiB sparse stream");
        break;
      }
    case 9:
      g_file_set_contents (g_rand_boolean (rand) || some == NULL ? meta : some, "", 0, NULL);
      g_string_append (what, "an empty file");
      break;
    case 10:
      link_in (trace, FRESH, g_rand_boolean (rand) ? "/nonexistent/syncline" : "/proc/self/mem");
      g_string_append (what, "a link to nowhere or to /proc/self/mem");
      break;
    default:
      if (geteuid () == 0)
        {
          g_autofree char *index = g_build_filename (trace, "index", NULL);

          /* a file where the index folder is expected */
          rm_rf (index);
          g_file_set_contents (index, "not a folder", -1, NULL);
          g_string_append (what, "a file in place of the index folder");
        }
      else
        {
          chmod (trace, 0);
          g_string_append (what, "an unreadable trace folder");
        }
      break;
    }
}

/* A new trace UUID written into the metadata text and every packet
 * header, and the clock offset @cycles later. */
gboolean
sl_fuzz_retrace (const char *trace,
                 guint64     cycles,
                 GRand      *rand)
{
  g_autofree char *meta_path = g_build_filename (trace, "metadata", NULL);
  g_autoptr(GByteArray) meta = read_bytes (meta_path);
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) streams = streams_of (trace);
  g_autoptr(GString) s = NULL;
  char *u, *off, *end;
  guint8 uuid[16] = { 0 };
  gsize len = 0;
  guint64 v;
  const char *hex = "0123456789abcdef";

  text = sl_fuzz_metadata_text (meta->data, meta->len, &len);
  if (text == NULL || (u = strstr (text, "uuid = \"")) == NULL || strlen (u) < 8 + 36 ||
      (off = strstr (text, "offset = ")) == NULL)
    return FALSE;
  u += 8;
  for (guint i = 0, k = 0; i < 36; i++)
    if (u[i] != '-')
      {
        guint x = (guint) g_rand_int_range (rand, 0, 16);

        u[i] = hex[x];
        uuid[k / 2] |= (guint8) (k % 2 == 0 ? x << 4 : x);
        k++;
      }
  off += strlen ("offset = ");
  v = g_ascii_strtoull (off, &end, 10);
  s = g_string_new_len (text, off - text);
  g_string_append_printf (s, "%" G_GUINT64_FORMAT, v + cycles);
  g_string_append_len (s, end, (gssize) (len - (gsize) (end - text)));
  g_file_set_contents (meta_path, s->str, (gssize) s->len, NULL);
  for (guint i = 0; i < streams->len; i++)
    {
      g_autoptr(GByteArray) b = read_bytes (g_ptr_array_index (streams, i));

      if (!sl_fuzz_set_uuid (b, s->str, s->len, uuid))
        return FALSE;
      write_bytes (g_ptr_array_index (streams, i), b);
    }
  return TRUE;
}

static const char *
damage_identity (const char *base,
                 const char *traces,
                 const char *victim_name,
                 GPtrArray  *victims,
                 const char *trace,
                 GRand      *rand,
                 GString    *what,
                 Expect     *expect)
{
  g_autofree char *victim = g_build_filename (traces, victim_name, NULL);
  guint kind = (guint) pick (rand, 4);

  if (kind == 0)
    {
      /* another host's metadata: that host's name, its UUID */
      g_autoptr(GDir) d = g_dir_open (base, 0, NULL);
      g_autoptr(GPtrArray) others = g_ptr_array_new_with_free_func (g_free);
      const char *n;
      g_autofree char *meta = g_build_filename (trace, "metadata", NULL);

      while (d != NULL && (n = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *p = g_build_filename (base, n, NULL);

          if (!g_str_equal (n, victim_name) && g_file_test (p, G_FILE_TEST_IS_DIR))
            g_ptr_array_add (others, g_steal_pointer (&p));
        }
      g_ptr_array_sort (others, (GCompareFunc) sl_fuzz_cmp_strings);
      if (others->len > 0)
        {
          g_autofree char *t = sl_fuzz_find_trace (g_ptr_array_index (others, pick (rand, others->len)));
          g_autofree char *from = t != NULL ? g_build_filename (t, "metadata", NULL) : NULL;
          g_autoptr(GByteArray) b = from != NULL ? read_bytes (from) : g_byte_array_new ();

          write_bytes (meta, b);
          expect->needles[0] = "foreign metadata";
        }
      g_string_append (what, "another host's metadata (foreign streams)");
      return NULL;
    }
  if (kind == 1)
    {
      g_autofree char *copy = g_strconcat (victim, "-copy", NULL);

      sl_fuzz_copy_tree (victim, copy);
      g_string_append (what, "the trace twice (a copy)");
      /* a copy changes nothing */
      return "";
    }
  if (kind == 2)
    {
      /* the same host traced again with a clock offset 5 ms later: a
       * session created anew (another trace UUID) */
      g_autofree char *later = g_strconcat (victim, "-later", NULL);
      g_autofree char *later_trace = NULL;

      sl_fuzz_copy_tree (victim, later);
      later_trace = sl_fuzz_find_trace (later);
      if (later_trace == NULL || !sl_fuzz_retrace (later_trace, 5000000, rand))
        {
          g_string_append (what, "(no clock to step)");
          return NULL;
        }
      expect->needles[0] = "clock steps";
      g_string_append (what, "the trace again with its clock offset 5 ms later (a clock step)");
      return NULL;
    }
  {
    /* a stream of another host's trace among the victim's */
    g_autoptr(GDir) d = g_dir_open (base, 0, NULL);
    const char *n;

    while (d != NULL && (n = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *p = g_build_filename (base, n, NULL);
        g_autofree char *t = NULL;
        g_autoptr(GPtrArray) streams = NULL;

        if (g_str_equal (n, victim_name) || !g_file_test (p, G_FILE_TEST_IS_DIR) || (t = sl_fuzz_find_trace (p)) == NULL)
          continue;
        streams = streams_of (t);
        if (streams->len > 0)
          {
            g_autofree char *to = g_build_filename (trace, "foreign_0", NULL);
            g_autoptr(GByteArray) b = read_bytes (g_ptr_array_index (streams, 0));

            write_bytes (to, b);
            expect->needles[0] = "recorded for trace";
            break;
          }
      }
    (void) victims;
    g_string_append (what, "a stream of another host's trace among the host's");
    return NULL;
  }
}

Class
sl_fuzz_make_trace_case (const char *base,
                         GPtrArray  *victims,
                         GPtrArray  *victim_hosts,
                         const char *dir,
                         GRand      *rand,
                         GString    *what,
                         GPtrArray  *damaged,
                         Expect     *expect)
{
  g_autofree char *traces = g_build_filename (dir, "traces", NULL);
  g_autoptr(GDir) d = g_dir_open (base, 0, NULL);
  guint v = (guint) pick (rand, victims->len);
  const char *victim_name = g_ptr_array_index (victims, v);
  g_autofree char *victim = g_build_filename (traces, victim_name, NULL);
  g_autofree char *trace = NULL;
  static const guint weights[] = { 20, 15, 10, 20, 10, 15, 10 };
  guint w = (guint) pick (rand, 100), k = 0;
  const char *n;
  Class klass;

  g_mkdir_with_parents (traces, 0755);
  while (d != NULL && (n = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *from = g_build_filename (base, n, NULL);
      g_autofree char *to = g_build_filename (traces, n, NULL);

      if (g_str_equal (n, victim_name))
        sl_fuzz_copy_tree (from, to);
      else if (g_file_test (from, G_FILE_TEST_IS_DIR))
        symlink (from, to);
    }
  trace = sl_fuzz_find_trace (victim);
  g_ptr_array_add (damaged, g_strdup (g_ptr_array_index (victim_hosts, v)));
  g_string_append_printf (what, "%s: ", victim_name);
  if (trace == NULL)
    return CLASS_FILES;

  while (w >= weights[k])
    w -= weights[k++];
  klass = (Class) k;
  switch (klass)
    {
    case CLASS_STREAM_BYTES:
      damage_stream (trace, FALSE, rand, what);
      break;
    case CLASS_PACKETS:
      damage_stream (trace, TRUE, rand, what);
      break;
    case CLASS_METADATA_BYTES:
      damage_metadata_bytes (trace, rand, what);
      break;
    case CLASS_TSDL:
      damage_tsdl (trace, rand, what, expect);
      break;
    case CLASS_IDENTITY:
      if (damage_identity (base, traces, victim_name, victims, trace, rand, what, expect) != NULL)
        g_ptr_array_set_size (damaged, 0);
      break;
    case CLASS_FILES:
      damage_files (victim, trace, rand, what);
      break;
    default:
      {
        guint n_damage = 2 + (guint) pick (rand, 3);

        for (guint i = 0; i < n_damage; i++)
          {
            guint which = (guint) pick (rand, 5);

            if (i > 0)
              g_string_append (what, "; ");
            if (which == 0)
              damage_stream (trace, FALSE, rand, what);
            else if (which == 1)
              damage_stream (trace, TRUE, rand, what);
            else if (which == 2)
              damage_metadata_bytes (trace, rand, what);
            else if (which == 3)
              {
                Expect ignored = { { NULL } };

                damage_tsdl (trace, rand, what, &ignored);
              }
            else
              damage_files (victim, trace, rand, what);
          }
        klass = CLASS_SEVERAL;
      }
      break;
    }
  return klass;
}

/* ---------------------------------------------------------------------- */
/* LTTV                                                                    */

static const char *const lttv_seeds[] = {
  "# two hosts, two hulls\n2\n0\t1\t48.85\t55.29\n0\t1\t65.50\t71.83\n\n1\t0\t53.03\t48.73\n1\t0\t71.57\t67.99\n",
  "# three hosts in a chain\n3\n0 1 1.000000001 2.5\n1 0 3.1 1.7\n1 2 4.0 10.25\n2 1 11.0 4.9\n0 1 20.2 21.8\n"
  "1 0 22.9 21.4\n",
  "# large times, near the epoch of a real trace\n2\n0 1 1700000000.000000001 1700000000.000040002\n"
  "1 0 1700000000.000100000 1700000000.000060000\n0 1 1700000001.000000001 1700000001.000041000\n"
  "1 0 1700000001.000100000 1700000001.000061000\n",
};

GPtrArray *
sl_fuzz_write_lttv_seeds (const char *dir)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  g_mkdir_with_parents (dir, 0755);
  for (guint i = 0; i < G_N_ELEMENTS (lttv_seeds); i++)
    {
      g_autofree char *name = g_strdup_printf ("seed%u.txt", i);
      char *path = g_build_filename (dir, name, NULL);

      g_file_set_contents (path, lttv_seeds[i], -1, NULL);
      g_ptr_array_add (out, path);
    }
  return out;
}

char *
sl_fuzz_make_lttv_case (GPtrArray  *seeds,
                        const char *dir,
                        GRand      *rand,
                        GString    *what)
{
  const char *from = g_ptr_array_index (seeds, pick (rand, seeds->len));
  char *path = g_build_filename (dir, "case.txt", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GString) s = NULL;
  guint n = 1 + (guint) pick (rand, 3);

  if (!g_file_get_contents (from, &text, NULL, NULL))
    text = g_strdup ("");
  s = g_string_new (text);
  g_string_append_printf (what, "%s:", strrchr (from, '/') + 1);
  for (guint i = 0; i < n; i++)
    {
      const char *w = "";

      sl_fuzz_lttv (s, rand, &w);
      g_string_append_printf (what, " %s;", w);
    }
  g_file_set_contents (path, s->str, (gssize) s->len, NULL);
  return path;
}

/* ---------------------------------------------------------------------- */
/* Reports                                                                 */

/**
 * sl_fuzz_report_host:
 * @root: (nullable): a `syncline-cli sync --json` report
 *
 * Returns: (nullable) (transfer none): the host named @name in @root
 */
JsonObject *
sl_fuzz_report_host (JsonObject *root,
                     const char *name)
{
  JsonArray *hosts;

  if (root == NULL || !json_object_has_member (root, "hosts"))
    return NULL;
  hosts = json_object_get_array_member (root, "hosts");
  for (guint i = 0; i < json_array_get_length (hosts); i++)
    {
      JsonObject *h = json_array_get_object_element (hosts, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (h, "name", ""), name) == 0)
        return h;
    }
  return NULL;
}

/* Transform, bound, path and events of a host, as one comparable line. */
char *
sl_fuzz_host_key (JsonObject *h)
{
  JsonObject *t = json_object_get_object_member (h, "transform");
  JsonObject *c = json_object_get_object_member (h, "counts");
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) path = json_node_copy (json_object_get_member (h, "path"));
  g_autofree char *p = NULL;

  json_generator_set_root (gen, path);
  p = json_generator_to_data (gen, NULL);
  return g_strdup_printf ("transform %s·t + %s, bound %.17g ns, path %s, %" G_GINT64_FORMAT " events",
                          t != NULL ? json_object_get_string_member_with_default (t, "slope_exact", "-") : "-",
                          t != NULL ? json_object_get_string_member_with_default (t, "offset_ns_exact", "-") : "-",
                          json_object_get_double_member_with_default (h, "bound_ns", -1), p,
                          c != NULL ? json_object_get_int_member_with_default (c, "events", -1) : -1);
}
