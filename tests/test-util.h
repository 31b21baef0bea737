/* test-util.h: helpers shared by the test programs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

/* The shared test data lives beside the project (../shared/data); tests
 * read it in place and skip with a message when it is absent. */
static inline char *
sl_test_data_path (const char *first,
                   ...)
{
  const char *base = g_getenv ("SL_SHARED_DATA");
  g_autofree char *rel = NULL;
  char *path;
  va_list args;

  va_start (args, first);
  rel = g_build_filename_valist (first, &args);
  va_end (args);

  path = g_build_filename (base != NULL ? base : "../shared/data", rel, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *msg = g_strdup_printf ("test data %s is absent; skipping", path);
      g_test_skip (msg);
      g_free (path);
      return NULL;
    }
  return path;
}

/* Running syncline-cli (or any program) and cleaning up after it. */

typedef struct
{
  int   status;
  char *out;
  char *err;
} Run;

static inline void
run_clear (Run *r)
{
  g_free (r->out);
  g_free (r->err);
  memset (r, 0, sizeof *r);
}

/* A signal (abort, segfault) is never acceptable: only exit statuses. */
static inline void
run_argv (Run               *r,
          const char        *prog,
          const char *const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int wait_status;

  g_ptr_array_add (argv, (char *) prog);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &r->out, &r->err, &wait_status, &error));
  g_assert_no_error (error);
  if (!WIFEXITED (wait_status))
    g_error ("%s died of signal %d; stderr: %s", prog, WTERMSIG (wait_status), r->err);
  r->status = WEXITSTATUS (wait_status);
  /* what went wrong, for the log of a test that did not expect it */
  if (r->status != 0 && r->err != NULL && *r->err != '\0')
    g_test_message ("%s exited with status %d; stderr: %.4000s", prog, r->status, r->err);
}

static inline void
run_cli_argv (Run               *r,
              const char *const *args)
{
  const char *cli = g_getenv ("SL_CLI");

  g_assert_nonnull (cli);
  run_argv (r, cli, args);
}

static inline void
run_cli (Run        *r,
         const char *first,
         ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  va_start (ap, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  run_cli_argv (r, (const char *const *) args->pdata);
}

/* syncline-cli generate --out=@out --quiet @extra..., which must succeed. */
static inline void
run_generate (const char        *out,
              const char *const *extra)
{
  g_autofree char *out_arg = g_strdup_printf ("--out=%s", out);
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  Run r = { 0 };

  g_ptr_array_add (args, (char *) "generate");
  g_ptr_array_add (args, out_arg);
  g_ptr_array_add (args, (char *) "--quiet");
  for (guint i = 0; extra[i] != NULL; i++)
    g_ptr_array_add (args, (char *) extra[i]);
  g_ptr_array_add (args, NULL);
  run_cli_argv (&r, (const char *const *) args->pdata);
  g_assert_cmpint (r.status, ==, 0);
  run_clear (&r);
}

static inline guint
count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; *p != '\0'; p++)
    n += *p == '\n';
  return n;
}

/* Removes @path and what is below it, links not followed (folders a test
 * made unreadable included). */
static inline void
rm_rf (const char *path)
{
  g_autoptr(GDir) d = NULL;
  const char *name;
  GStatBuf st;

  if (g_lstat (path, &st) != 0)
    return;
  if (!S_ISDIR (st.st_mode))
    {
      g_unlink (path);
      return;
    }
  g_chmod (path, 0700);
  d = g_dir_open (path, 0, NULL);
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (path, name, NULL);
      rm_rf (p);
    }
  g_rmdir (path);
}

/* /proc/PID/stat of process @pid: its state, parent, process group,
 * processor time (clock ticks) and command name (cut to 15 characters);
 * FALSE when it is gone. */
static inline gboolean
proc_stat (const char *pid,
           char       *state,
           int        *ppid,
           int        *pgrp,
           gint64     *cpu_ticks,
           char      **comm)
{
  g_autofree char *path = g_build_filename ("/proc", pid, "stat", NULL);
  g_autofree char *text = NULL;
  const char *open, *close;
  unsigned long long utime, stime;

  if (!g_ascii_isdigit (pid[0]) || !g_file_get_contents (path, &text, NULL, NULL) ||
      (open = strchr (text, '(')) == NULL || (close = strrchr (text, ')')) == NULL ||
      sscanf (close + 2, "%c %d %d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", state, ppid, pgrp, &utime,
              &stime) != 5)
    return FALSE;
  if (cpu_ticks != NULL)
    *cpu_ticks = (gint64) (utime + stime);
  if (comm != NULL)
    *comm = g_strndup (open + 1, (gsize) (close - open - 1));
  return TRUE;
}

/* The processes (pid_t) for which @keep (their /proc name, @data) is TRUE. */
static inline GArray *
proc_pids (gboolean (*keep) (const char *pid, gpointer data),
           gpointer  data)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (pid_t));
  g_autoptr(GDir) d = g_dir_open ("/proc", 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_ascii_isdigit (name[0]) && keep (name, data))
      {
        pid_t pid = (pid_t) g_ascii_strtoll (name, NULL, 10);

        g_array_append_val (out, pid);
      }
  return out;
}

static inline char *
make_tmpdir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("sl-test-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

/* The root object of a JSON text, which must parse. */
static inline JsonObject *
parse_object (const char *text,
              JsonParser *parser)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_node_get_object (json_parser_get_root (parser));
}
