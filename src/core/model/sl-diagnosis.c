/* sl-diagnosis.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-diagnosis.h"
#include "sl-format.h"

static const SlSnapHost *
snap_host (const SlSnapshot *s,
           guint             host)
{
  return &g_array_index (s->hosts, SlSnapHost, host);
}

static void
append_record_hint (GString    *str,
                    const char *hosts)
{
  g_string_append_printf (str, _("Record the packet events on %s:\n"), hosts);
  g_string_append_printf (str, "    %s\n", SL_DIAGNOSIS_KERNEL_COMMAND);
  g_string_append_printf (str, _("or, for programs instrumented with the syncline_net provider:\n"));
  g_string_append_printf (str, "    %s\n", SL_DIAGNOSIS_UST_COMMAND);
}

char *
sl_diagnose_link (const SlSnapshot *s,
                  guint             link)
{
  const SlReportLink *rl;
  const SlLinkInfo *i;
  const char *a, *b;
  const SlSnapHost *ha, *hb;
  guint64 n_ab, n_ba;
  GString *str;

  g_return_val_if_fail (s != NULL, NULL);
  g_return_val_if_fail (link < s->links->len, NULL);

  rl = &g_array_index (s->links, SlReportLink, link);
  i = &rl->info;
  a = sl_snapshot_get_host_name (s, rl->a);
  b = sl_snapshot_get_host_name (s, rl->b);
  ha = snap_host (s, rl->a);
  hb = snap_host (s, rl->b);
  n_ab = rl->flipped ? i->n_ba : i->n_ab;
  n_ba = rl->flipped ? i->n_ab : i->n_ba;
  str = g_string_new (NULL);

  switch (i->quality)
    {
    case SL_QUALITY_ACCURATE:
      {
        g_autofree char *acc = sl_format_ppm (i->accuracy);
        g_autofree char *bound = sl_format_ns (i->bound_ns);
        g_autofree char *over = sl_format_ns ((double) (i->bound_end - i->bound_start));

        /* the bound covers the instants the link's map is applied to,
         * both hosts' events, as sync's report says: on its packets alone
         * the band is much narrower */
        g_string_append_printf (str, _("%s and %s are synchronized: the two hulls are separated, "
                                       "rate band %s, estimate within ±%s over both hosts' events "
                                       "(%s)."),
                                a, b, acc, bound, over);
        if (!i->in_tree)
          g_string_append_printf (str, "\n%s", _("The link is not in the tree: other links join "
                                                 "these hosts more accurately."));
        if (i->inversions_known && i->inversions > 0)
          g_string_append_printf (str, "\n"
                                  /* Translators: inversions are packets received before they were sent */
                                  "%s", _("Some packets still arrive before they leave after "
                                          "synchronization: the link's bounds are wider than its "
                                          "estimate's error along the tree path."));
        break;
      }

    case SL_QUALITY_ABSENT:
      if (ha->counts.packet_events == 0 || hb->counts.packet_events == 0)
        {
          g_autofree char *which = NULL;

          if (ha->counts.packet_events == 0 && hb->counts.packet_events == 0)
            which = g_strdup_printf (_("%s and %s"), a, b);
          else
            which = g_strdup (ha->counts.packet_events == 0 ? a : b);
          if ((ha->counts.packet_events > 0 || ha->counts.unusable > 0) &&
              (hb->counts.packet_events > 0 || hb->counts.unusable > 0))
            /* events there are, but not one could be read */
            g_string_append_printf (str, _("No packet matched between %s and %s: the TCP packet events "
                                           "of %s cannot be read (see the diagnosis of the host)."),
                                    a, b, which);
          else
            {
              g_string_append_printf (str, _("No packet matched between %s and %s: the trace of %s "
                                             "has no TCP packet events.\n"), a, b, which);
              append_record_hint (str, which);
            }
        }
      else
        g_string_append_printf (str, _("No common traffic: %s and %s both traced TCP packets, "
                                       "but none sent by one was received by the other. They may "
                                       "not talk to each other directly, or an address "
                                       "translation (NAT, proxy) changes the packets between them."),
                                a, b);
      break;

    case SL_QUALITY_INCOMPLETE:
      {
        const char *sender = n_ab > 0 ? a : b;
        const char *receiver = n_ab > 0 ? b : a;

        g_autofree char *count = sl_format_count (n_ab > 0 ? n_ab : n_ba);

        g_string_append_printf (str, _("One-way traffic only: %s packets from %s "
                                       "to %s were matched, none the other way. Either %s's trace "
                                       "lacks send events (net_dev_queue) or %s's lacks receive "
                                       "events (net_if_receive_skb), or the traffic is one-way "
                                       "(UDP-like streams, a capture that started late).\n"),
                                count, sender, receiver, receiver, sender);
        {
          g_autofree char *both = g_strdup_printf (_("%s and %s"), a, b);
          append_record_hint (str, both);
        }
        break;
      }

    case SL_QUALITY_APPROXIMATE:
      {
      g_autofree char *c_ab = sl_format_count (n_ab);
      g_autofree char *c_ba = sl_format_count (n_ba);

      g_string_append_printf (str, _("Approximate: packets were matched both ways (%s"
                                     " and %s), but they do not bound the clock "
                                     "relation yet (%s). The estimate is a best guess without a "
                                     "guarantee. A longer trace with traffic in both directions "
                                     "throughout it tightens the bounds."),
                              c_ab, c_ba, i->reason != NULL ? i->reason : "");
      break;
      }

    case SL_QUALITY_FAIL:
      g_string_append_printf (str, _("The hulls cross: no straight line separates the packets sent "
                                     "by %s from those sent by %s (%s). The drift between the two "
                                     "clocks is not linear over the trace: a clock was adjusted "
                                     "(NTP slewing or a step), a virtual machine was paused, or the "
                                     "trace is long enough for the temperature to change the rate.\n"
                                     "To fix it: record shorter traces and synchronize them "
                                     "separately, stop NTP adjustments while tracing (or trace a "
                                     "clock that is not slewed), or raise the plausible drift "
                                     "(--max-drift-ppm) if the rate difference is real."),
                              a, b, i->reason != NULL ? i->reason : "");
      break;

    default:
      break;
    }

  return g_string_free (str, FALSE);
}

char *
sl_diagnose_host (const SlSnapshot *s,
                  guint             host)
{
  const SlSnapHost *h;
  const char *name;
  GString *str;
  guint group = 0, accurate = 0, links = 0;

  g_return_val_if_fail (s != NULL, NULL);
  g_return_val_if_fail (host < s->hosts->len, NULL);

  h = snap_host (s, host);
  name = sl_snapshot_get_host_name (s, host);
  str = g_string_new (NULL);

  for (guint k = 0; k < s->hosts->len; k++)
    if (snap_host (s, k)->reference == h->reference)
      group++;
  for (guint l = 0; l < s->links->len; l++)
    {
      const SlReportLink *rl = &g_array_index (s->links, SlReportLink, l);

      if (rl->a == host || rl->b == host)
        {
          links++;
          if (rl->info.quality == SL_QUALITY_ACCURATE)
            accurate++;
        }
    }

  if (h->unread[0] != '\0')
    g_string_append_printf (str, _("No event of %s could be read: %s. The problems reported for it "
                                   "say more."), name, h->unread);
  else if (h->counts.events == 0 && h->counts.packet_events == 0)
    g_string_append_printf (str, _("No event of %s could be read. Check the problems reported "
                                   "for its trace files."), name);
  else if (h->counts.packet_events == 0 && h->counts.unusable > 0)
    {
      g_autofree char *unusable = sl_format_count (h->counts.unusable);
      g_autofree char *events = sl_format_count (h->counts.events);

      g_string_append_printf (str, _("%s is not synchronized: none of its %s TCP packet events can be "
                                     "read (%s events read). Their addresses, ports or sequence numbers "
                                     "are recorded in a form Syncline does not read: the problems "
                                     "reported for its trace name the event, the field and the file."),
                              name, unusable, events);
    }
  else if (h->counts.packet_events == 0)
    {
      g_autofree char *events = sl_format_count (h->counts.events);
      g_autofree char *ignored = sl_format_count (h->counts.ignored);

      g_string_append_printf (str, _("%s is not synchronized: its trace has no TCP packet events "
                                     "(%s events read, %s network events ignored).\n"),
                              name, events, ignored);
      append_record_hint (str, name);
    }
  else if (group == 1 && s->hosts->len > 1)
    {
      g_autofree char *packets = sl_format_count (h->counts.packet_events);

      if (links == 0)
        g_string_append_printf (str, _("%s is not synchronized: none of its %s"
                                       " packet events was matched with another traced host. "
                                       "The hosts it talks to are not traced, or no traced host "
                                       "talks to it."),
                                name, packets);
      else
        g_string_append_printf (str, _("%s is not synchronized: none of its %u links is accurate "
                                       "yet. Select a link to see why."), name, links);
    }
  else if (h->reference == host)
    g_string_append_printf (str, _("%s is the reference of its group of %u hosts: their times are "
                                   "shown on its clock."), name, group);
  else
    {
      g_autofree char *bound = sl_format_ns (h->bound_ns);

      g_string_append_printf (str, _("%s is synchronized with %s within ±%s (%u of its %u "
                                     "links are accurate)."),
                              name, sl_snapshot_get_host_name (s, h->reference), bound,
                              accurate, links);
    }
  return g_string_free (str, FALSE);
}

/* Continuation lines of a diagnosis indented under its first line. */
static void
append_indented (GString    *str,
                 const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint k = 0; lines[k] != NULL; k++)
    if (*lines[k] != '\0')
      g_string_append_printf (str, "%s%s\n", k == 0 ? "  - " : "    ", lines[k]);
}

/**
 * sl_diagnose_all_to_text:
 * @snapshot: a snapshot of the engine
 *
 * Every host's diagnosis, then every link's, as the text report's
 * "Diagnosis" section (the CLI's `sync --diagnose`).
 *
 * Returns: (transfer full): the section, starting with a blank line
 */
char *
sl_diagnose_all_to_text (const SlSnapshot *snapshot)
{
  GString *str;

  g_return_val_if_fail (snapshot != NULL, NULL);

  str = g_string_new (NULL);
  g_string_append_printf (str, "\n%s\n", _("Diagnosis of the hosts:"));
  for (guint h = 0; h < snapshot->hosts->len; h++)
    {
      g_autofree char *text = sl_diagnose_host (snapshot, h);

      append_indented (str, text);
    }
  if (snapshot->links->len > 0)
    g_string_append_printf (str, "\n%s\n", _("Diagnosis of the links:"));
  for (guint l = 0; l < snapshot->links->len; l++)
    {
      g_autofree char *text = sl_diagnose_link (snapshot, l);

      append_indented (str, text);
    }
  return g_string_free (str, FALSE);
}

static gboolean
is_named (JsonObject *o,
          const char *member_a,
          const char *a,
          const char *member_b,
          const char *b)
{
  return o != NULL && g_strcmp0 (json_object_get_string_member_with_default (o, member_a, NULL), a) == 0 &&
         (member_b == NULL || g_strcmp0 (json_object_get_string_member_with_default (o, member_b, NULL), b) == 0);
}

/* The report lists hosts and links in the engine's order, as the snapshot
 * does: @index first, a search when the two differ. */
static JsonObject *
find_named (JsonArray  *array,
            guint       index,
            const char *member_a,
            const char *a,
            const char *member_b,
            const char *b)
{
  guint n = array != NULL ? json_array_get_length (array) : 0;

  if (index < n && is_named (json_array_get_object_element (array, index), member_a, a, member_b, b))
    return json_array_get_object_element (array, index);
  for (guint i = 0; i < n; i++)
    if (is_named (json_array_get_object_element (array, i), member_a, a, member_b, b))
      return json_array_get_object_element (array, i);
  return NULL;
}

/**
 * sl_diagnose_all_to_json:
 * @snapshot: a snapshot of the engine @report was made from
 * @report: the JSON report (sl_report_to_json())
 *
 * Sets a "diagnosis" string on each of @report's hosts (by name) and links
 * (by their hosts' names).
 */
void
sl_diagnose_all_to_json (const SlSnapshot *snapshot,
                         JsonObject       *report)
{
  JsonArray *hosts, *links;

  g_return_if_fail (snapshot != NULL);
  g_return_if_fail (report != NULL);

  hosts = json_object_get_array_member (report, "hosts");
  links = json_object_get_array_member (report, "links");
  for (guint h = 0; h < snapshot->hosts->len; h++)
    {
      JsonObject *o = find_named (hosts, h, "name", sl_snapshot_get_host_name (snapshot, h), NULL, NULL);
      g_autofree char *text = o != NULL ? sl_diagnose_host (snapshot, h) : NULL;

      if (o != NULL)
        json_object_set_string_member (o, "diagnosis", text);
    }
  for (guint l = 0; l < snapshot->links->len; l++)
    {
      const SlReportLink *rl = &g_array_index (snapshot->links, SlReportLink, l);
      JsonObject *o = find_named (links, l, "a", sl_snapshot_get_host_name (snapshot, rl->a),
                                  "b", sl_snapshot_get_host_name (snapshot, rl->b));
      g_autofree char *text = o != NULL ? sl_diagnose_link (snapshot, l) : NULL;

      if (o != NULL)
        json_object_set_string_member (o, "diagnosis", text);
    }
}
