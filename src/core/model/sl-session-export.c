/* sl-session-export.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the session exports: the JSON report, the links as CSV, the
 * diagnosis of a host or link.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sl-diagnosis.h"
#include "sl-session-internal.h"

gboolean
sl_session_get_can_export (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);
  return self->state == SL_SESSION_STATE_READY || self->state == SL_SESSION_STATE_LIVE;
}

typedef struct
{
  SlSession *self;
  char      *text;
} ExportData;

static void
export_json_cb (SlEngine *engine,
                gpointer  user_data)
{
  ExportData *d = user_data;
  g_autoptr(SlJsonOut) out = sl_json_out_new_string ();
  g_autoptr(GPtrArray) problems = NULL;
  SlReportTiming timing;
  SlReportJsonOptions options;

  sl_job_get_timing (d->self->job, &timing);
  sl_report_json_options_init (&options);
  options.timing = &timing;
  if (d->self->kind == SL_JOB_FOLDERS || d->self->kind == SL_JOB_DEMO || d->self->kind == SL_JOB_LIVE)
    options.problems = problems = sl_job_dup_problems (d->self->job);
  sl_report_write_json (engine, &options, out);
  d->text = sl_json_out_steal_string (out);
}

/* The JSON report of `syncline-cli sync --json` (the journal summarized),
 * from the engine itself, written without a tree of nodes. */
char *
sl_session_dup_report_json (SlSession  *self,
                            GError    **error)
{
  ExportData d = { self, NULL };

  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  if (self->job == NULL || !sl_session_get_can_export (self) ||
      !sl_job_with_engine (self->job, export_json_cb, &d))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                   _("The report can be exported once the input is read"));
      return NULL;
    }
  return d.text;
}

char *
sl_session_dup_links_csv (SlSession  *self,
                          GError    **error)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  if (self->current == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING, _("Nothing to export yet"));
      return NULL;
    }
  return sl_snapshot_links_to_csv (self->current);
}

char *
sl_session_dup_link_diagnosis (SlSession  *self,
                               SlLinkItem *link)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  g_return_val_if_fail (SL_IS_LINK_ITEM (link), NULL);

  if (self->current == NULL || sl_link_item_get_link (link) >= self->current->links->len)
    return g_strdup ("");
  return sl_diagnose_link (self->current, sl_link_item_get_link (link));
}

char *
sl_session_dup_host_diagnosis (SlSession  *self,
                               SlHostItem *host)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  g_return_val_if_fail (SL_IS_HOST_ITEM (host), NULL);

  if (self->current == NULL || sl_host_item_get_host (host) >= self->current->hosts->len)
    return g_strdup ("");
  return sl_diagnose_host (self->current, sl_host_item_get_host (host));
}
