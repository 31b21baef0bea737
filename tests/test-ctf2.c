/* test-ctf2.c: CTF 2 metadata read for the scan (sl-ctf2.c), against the
 * same trace's TSDL
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-ctf-meta.h"
#include "sl-ctf2.h"
#include "sl-tsdl.h"

/* The TSDL of a generated host (syncline-cli generate) and the CTF 2 that
 * babeltrace2 2.1.1's sink.ctf.fs wrote from it (ctf-version="2"), cut to
 * what the scan reads: its packet header is laid out anew (a 64-bit
 * stream_id) and its packet context members reordered and named
 * UUID-role, so both are given here as it wrote them. */
static const char tsdl[] =
  "/* CTF 1.8 */\n"
  "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
  "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
  "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
  "trace { major = 1; minor = 8; uuid = \"ce091775-e590-42ef-a968-b042a0370e4e\"; byte_order = le;\n"
  "  packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint64_t stream_id; uint64_t stream_instance_id; }; };\n"
  "env { hostname = \"node-01\"; domain = \"kernel\"; tracer_major = 2; };\n"
  "clock { name = \"monotonic\"; uuid = \"9f9c0a22-8f92-4d1b-aa52-9a98326f9f86\"; freq = 2400000000;\n"
  "  offset_s = 1697399753; offset = 17; };\n"
  "typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_t;\n"
  "stream { id = 0; packet.context := struct { uint64_t packet_size; uint64_t content_size;\n"
  "  uint64_clock_t timestamp_begin; uint64_clock_t timestamp_end; uint64_t events_discarded;\n"
  "  uint64_t packet_seq_num; uint32_t cpu_id; };\n"
  "  event.header := struct { uint64_t id; uint64_clock_t timestamp; }; };\n"
  "event { name = \"x\"; id = 0; stream_id = 0; fields := struct { uint32_t a; }; };\n";

#define U8(len, role) "{\"alignment\":8,\"byte-order\":\"little-endian\",\"length\":" #len ",\"roles\":[\"" role "\"],\"type\":\"fixed-length-unsigned-integer\"}"
#define P "ce091775-e590-42ef-a968-b042a0370e4e-"

static const char ctf2[] =
  "\x1e{\"type\":\"preamble\",\"uuid\":[206,9,23,117,229,144,66,239,169,104,176,66,160,55,14,78],\"version\":2}\n"
  "\x1e{\"type\":\"field-class-alias\",\"name\":\"u64\",\"field-class\":" U8 (64, "data-stream-id") "}\n"
  "\x1e{\"environment\":{\"domain\":\"kernel\",\"hostname\":\"node-01\",\"tracer_major\":2},\"type\":\"trace-class\","
  "\"packet-header-field-class\":{\"member-classes\":["
  "{\"field-class\":" U8 (32, "packet-magic-number") ",\"name\":\"magic\"},"
  "{\"field-class\":{\"length\":16,\"roles\":[\"metadata-stream-uuid\"],\"type\":\"static-length-blob\"},\"name\":\"uuid\"},"
  "{\"field-class\":" U8 (64, "data-stream-class-id") ",\"name\":\"stream_id\"},"
  "{\"field-class\":\"u64\",\"name\":\"stream_instance_id\"}],\"minimum-alignment\":8,\"type\":\"structure\"}}\n"
  "\x1e{\"frequency\":2400000000,\"id\":\"monotonic\",\"offset-from-origin\":{\"seconds\":1697399753,\"cycles\":17},"
  "\"origin\":\"unix-epoch\",\"type\":\"clock-class\",\"uid\":\"9f9c0a22-8f92-4d1b-aa52-9a98326f9f86\"}\n"
  "\x1e{\"default-clock-class-id\":\"monotonic\",\"id\":0,\"type\":\"data-stream-class\",\"packet-context-field-class\":"
  "{\"member-classes\":["
  "{\"field-class\":" U8 (64, "packet-total-length") ",\"name\":\"" P "packet_size\"},"
  "{\"field-class\":" U8 (64, "packet-content-length") ",\"name\":\"" P "content_size\"},"
  "{\"field-class\":" U8 (64, "default-clock-timestamp") ",\"name\":\"" P "timestamp_begin\"},"
  "{\"field-class\":" U8 (64, "packet-end-default-clock-timestamp") ",\"name\":\"" P "timestamp_end\"},"
  "{\"field-class\":" U8 (64, "discarded-event-record-counter-snapshot") ",\"name\":\"" P "events_discarded\"},"
  "{\"field-class\":" U8 (64, "packet-sequence-number") ",\"name\":\"" P "packet_seq_num\"},"
  "{\"field-class\":{\"alignment\":8,\"byte-order\":\"little-endian\",\"length\":32,\"type\":\"fixed-length-unsigned-integer\"},"
  "\"name\":\"cpu_id\"}],\"minimum-alignment\":8,\"type\":\"structure\"}}\n"
  "\x1e{\"type\":\"event-record-class\",\"id\":0,\"name\":\"x\"}\n";

static void
assert_same_layout (const SlTsdlLayout *a,
                    const SlTsdlLayout *b)
{
  g_assert_cmpint (a->fixed, ==, b->fixed);
  g_assert_cmpuint (a->header_bits, ==, b->header_bits);
  g_assert_cmpuint (a->context_bits, ==, b->context_bits);
  g_assert_cmpint (a->has_uuid, ==, b->has_uuid);
  g_assert_cmpuint (a->uuid_bit_offset, ==, b->uuid_bit_offset);
  for (guint i = 0; i < SL_TSDL_N_FIELDS; i++)
    {
      g_test_message ("field %u", i);
      g_assert_cmpint (a->f[i].present, ==, b->f[i].present);
      g_assert_cmpuint (a->f[i].bit_offset, ==, b->f[i].bit_offset);
      g_assert_cmpuint (a->f[i].size, ==, b->f[i].size);
      g_assert_cmpint (a->f[i].big_endian, ==, b->f[i].big_endian);
      g_assert_cmpint (a->f[i].is_signed, ==, b->f[i].is_signed);
      g_assert_cmpint (a->f[i].clock, ==, b->f[i].clock);
    }
}

/* Everything the scan reads is what the TSDL of the same trace gives. */
static void
test_as_tsdl (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTsdl) t1 = sl_tsdl_parse (tsdl, strlen (tsdl), &error);
  g_autoptr(SlTsdl) t2 = NULL;
  const SlTsdlClock *c1, *c2;
  guint8 u1[16], u2[16];
  guint index = 99;

  g_assert_no_error (error);
  g_assert_true (sl_ctf_meta_is_ctf2 ((const guint8 *) ctf2, strlen (ctf2)));
  t2 = sl_ctf2_parse (ctf2, strlen (ctf2), &error);
  g_assert_no_error (error);
  g_assert_nonnull (t2);

  g_assert_cmpstr (sl_tsdl_get_env (t2, "hostname"), ==, "node-01");
  g_assert_cmpstr (sl_tsdl_get_env (t2, "domain"), ==, "kernel");
  g_assert_cmpstr (sl_tsdl_get_env (t2, "tracer_major"), ==, sl_tsdl_get_env (t1, "tracer_major"));
  g_assert_true (sl_tsdl_get_uuid (t1, u1) && sl_tsdl_get_uuid (t2, u2));
  g_assert_cmpmem (u1, 16, u2, 16);

  g_assert_cmpuint (sl_tsdl_get_n_clocks (t2), ==, 1);
  c1 = sl_tsdl_get_clock (t1, 0);
  c2 = sl_tsdl_get_clock (t2, 0);
  g_assert_cmpstr (c2->name, ==, c1->name);
  g_assert_cmpuint (c2->freq, ==, c1->freq);
  g_assert_cmpint (c2->offset_s, ==, c1->offset_s);
  g_assert_cmpuint (c2->offset, ==, c1->offset);
  g_assert_true (c1->has_uuid && c2->has_uuid);
  g_assert_cmpmem (c1->uuid, 16, c2->uuid, 16);

  g_assert_cmpuint (sl_tsdl_get_n_streams (t2), ==, 1);
  g_assert_true (sl_tsdl_find_stream (t2, 0, &index));
  g_assert_cmpuint (index, ==, 0);
  assert_same_layout (sl_tsdl_get_header_layout (t2), sl_tsdl_get_header_layout (t1));
  assert_same_layout (sl_tsdl_get_layout (t2, 0), sl_tsdl_get_layout (t1, 0));
  /* what the fields are, not only that both agree */
  g_assert_true (sl_tsdl_get_layout (t2, 0)->fixed);
  g_assert_cmpuint (sl_tsdl_get_layout (t2, 0)->f[SL_TSDL_F_TS_BEGIN].bit_offset, ==, 288 + 128);
  g_assert_cmpint (sl_tsdl_get_layout (t2, 0)->f[SL_TSDL_F_TS_BEGIN].clock, ==, 0);
  g_assert_cmpuint (sl_tsdl_get_layout (t2, 0)->f[SL_TSDL_F_CPU_ID].bit_offset, ==, 288 + 384);
}

static SlTsdl *
parse_edited (const char  *from,
              const char  *to,
              GError     **error)
{
  g_autofree char *text = NULL;
  const char *at = strstr (ctf2, from);

  g_assert_nonnull (at);
  text = g_strdup_printf ("%.*s%s%s", (int) (at - ctf2), ctf2, to, at + strlen (from));
  return sl_ctf2_parse (text, strlen (text), error);
}

/* A size known only from the data leaves the packets unchecked; a member
 * named like a role but without it is not taken for it; damage is named. */
static void
test_odd (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTsdl) t = parse_edited ("{\"field-class\":" U8 (64, "packet-total-length"),
                                      "{\"field-class\":{\"type\":\"null-terminated-string\"},\"name\":\"s\"},"
                                      "{\"field-class\":" U8 (64, "packet-total-length"), &error);

  g_assert_no_error (error);
  g_assert_false (sl_tsdl_get_layout (t, 0)->fixed);
  g_clear_pointer (&t, sl_tsdl_free);

  t = parse_edited ("\"name\":\"cpu_id\"", "\"name\":\"content_size\"", &error);
  g_assert_no_error (error);
  g_assert_true (sl_tsdl_get_layout (t, 0)->f[SL_TSDL_F_CONTENT_SIZE].present);
  g_assert_cmpuint (sl_tsdl_get_layout (t, 0)->f[SL_TSDL_F_CONTENT_SIZE].bit_offset, ==, 288 + 64);
  g_assert_false (sl_tsdl_get_layout (t, 0)->f[SL_TSDL_F_CPU_ID].present);
  g_clear_pointer (&t, sl_tsdl_free);

  t = parse_edited ("\"type\":\"clock-class\"", "\"type\":\"clock-class\",", &error);
  g_assert_null (t);
  g_assert_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, "fragment 4: "));
  g_clear_error (&error);

  t = parse_edited ("\"frequency\":2400000000,", "", &error);
  g_assert_null (t);
  g_assert_nonnull (strstr (error->message, "clock class monotonic: no frequency"));
  g_clear_error (&error);

  t = parse_edited ("\"version\":2", "\"version\":3", &error);
  g_assert_null (t);
  g_assert_nonnull (strstr (error->message, "CTF version 3"));
  g_clear_error (&error);

  /* an offset in cycles from 0 to the frequency excluded, as babeltrace2
   * 2.1 reads it (2^63: JSON-GLib's negative, once read as 0) */
  t = parse_edited ("\"cycles\":17", "\"cycles\":2399999999", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sl_tsdl_get_clock (t, 0)->offset, ==, 2399999999u);
  g_clear_pointer (&t, sl_tsdl_free);
  for (guint i = 0; i < 3; i++)
    {
      static const char *const cycles[] = { "\"cycles\":2400000000", "\"cycles\":9223372036854775808", "\"cycles\":-1" };

      t = parse_edited ("\"cycles\":17", cycles[i], &error);
      g_assert_null (t);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, "clock class monotonic: an offset in cycles that is negative or not "
                                                "below its frequency (2400000000 Hz)"));
      g_clear_error (&error);
    }
}

#define PREAMBLE "\x1e{\"type\":\"preamble\",\"version\":2}\n"
#define ALIAS_OF_TWO(name, of) \
  "\x1e{\"type\":\"field-class-alias\",\"name\":\"" name "\",\"field-class\":{\"type\":\"structure\"," \
  "\"member-classes\":[{\"name\":\"x\",\"field-class\":\"" of "\"},{\"name\":\"y\",\"field-class\":\"" of "\"}]}}\n"

/* The metadata is refused, by the scan's reading and the export's, with
 * @message (and nothing else is tried: hang, stack overflow). */
static void
assert_refused (const char *text,
                const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTsdl) t = sl_ctf2_parse (text, strlen (text), &error);

  g_assert_null (t);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, message));
  g_clear_error (&error);
  t = sl_ctf2_parse_full (text, strlen (text), &error);
  g_assert_null (t);
  g_assert_nonnull (strstr (error->message, message));
}

static void
hostile (void)
{
  g_autoptr(GString) s = g_string_new (PREAMBLE "\x1e{\"type\":\"field-class-alias\",\"name\":\"a0\",\"field-class\":"
                                       U8 (8, "x") "}\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTsdl) t = NULL;

  /* aliases of aliases, each of two of the one before: 2^41 field classes */
  for (guint i = 1; i <= 40; i++)
    g_string_append_printf (s, "\x1e{\"type\":\"field-class-alias\",\"name\":\"a%u\",\"field-class\":"
                            "{\"type\":\"structure\",\"member-classes\":[{\"name\":\"x\",\"field-class\":\"a%u\"},"
                            "{\"name\":\"y\",\"field-class\":\"a%u\"}]}}\n", i, i - 1, i - 1);
  g_string_append (s, "\x1e{\"type\":\"trace-class\",\"packet-header-field-class\":\"a40\"}\n");
  assert_refused (s->str, "more than 262144 field classes");

  /* an alias within itself, and one within an alias defined after it */
  assert_refused (PREAMBLE ALIAS_OF_TWO ("a", "a") "\x1e{\"type\":\"trace-class\",\"packet-header-field-class\":\"a\"}\n",
                  "alias “a” used within itself");
  assert_refused (PREAMBLE ALIAS_OF_TWO ("a", "b") ALIAS_OF_TWO ("b", "a")
                  "\x1e{\"type\":\"trace-class\",\"packet-header-field-class\":\"a\"}\n",
                  "alias “b” used within itself or before it is defined");

  /* a megabyte of [ */
  g_string_assign (s, PREAMBLE "\x1e");
  for (guint i = 0; i < 1 << 20; i++)
    g_string_append_c (s, '[');
  assert_refused (s->str, "fragment 2: arrays and objects nested more than 256 deep");

  /* brackets in strings are not nesting */
  g_string_assign (s, PREAMBLE "\x1e{\"type\":\"trace-class\",\"environment\":{\"hostname\":\"\\\"");
  for (guint i = 0; i < 300; i++)
    g_string_append_c (s, '[');
  g_string_append (s, "\"}}\n");
  t = sl_ctf2_parse (s->str, s->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (sl_tsdl_get_env (t, "hostname")), ==, 301);
  g_clear_pointer (&t, sl_tsdl_free);

  /* the same aliases of aliases in CTF 1.8: 2^41 fields to check */
  g_string_assign (s, "/* CTF 1.8 */\ntypealias integer { size = 8; align = 8; signed = false; } := a0;\n");
  for (guint i = 1; i <= 40; i++)
    g_string_append_printf (s, "typealias struct { a%u x; a%u y; } := a%u;\n", i - 1, i - 1, i);
  g_string_append (s, "trace { major = 1; minor = 8; byte_order = le; packet.header := struct { a40 h; }; };\n"
                      "clock { name = \"c\"; freq = 1000000000; };\n"
                      "stream { id = 0; packet.context := struct { a40 c; }; };\n");
  t = sl_tsdl_parse (s->str, s->len, &error);
  g_assert_null (t);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "fields to check (type aliases within aliases?)"));
}

/* A structure of 2^16 + 1 members, a variant of as many options: the
 * full reading (the export's) lays out at most 2^16; the scan's refuses
 * such a structure too (it took the first 2^16 silently) and reads no
 * variant's options. */
static void
too_many_members (void)
{
  g_autoptr(GString) s = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  for (guint variant = 0; variant <= 1; variant++)
    {
      g_autoptr(SlTsdl) t = NULL;

      g_string_assign (s, PREAMBLE "\x1e{\"type\":\"field-class-alias\",\"name\":\"a0\",\"field-class\":" U8 (8, "x") "}\n"
                          "\x1e{\"type\":\"trace-class\",\"packet-header-field-class\":{\"type\":\"structure\","
                          "\"member-classes\":[{\"name\":\"s\",\"field-class\":\"a0\"}");
      if (variant)
        g_string_append (s, ",{\"name\":\"v\",\"field-class\":{\"type\":\"variant\",\"selector-field-location\":"
                            "{\"origin\":\"packet-header\",\"path\":[\"s\"]},\"options\":[");
      for (guint i = 0; i <= 1u << 16; i++)
        if (variant)
          g_string_append_printf (s, "%s{\"field-class\":\"a0\",\"selector-field-ranges\":[[%u,%u]]}", i > 0 ? "," : "", i, i);
        else
          g_string_append_printf (s, ",{\"name\":\"m%u\",\"field-class\":\"a0\"}", i);
      g_string_append (s, variant ? "]}}]}}\n" : "]}}\n");
      for (guint full = variant; full <= 1; full++)
        {
          t = full ? sl_ctf2_parse_full (s->str, s->len, &error) : sl_ctf2_parse (s->str, s->len, &error);
          g_assert_null (t);
          g_test_message ("%s", error->message);
          g_assert_nonnull (strstr (error->message, variant ? "a variant of 65537 options (at most 65536 are read)"
                                                            : "a structure of 65538 members (at most 65536 are read)"));
          g_clear_error (&error);
        }
    }
}

/* Hostile metadata (aliases that expand exponentially or into
 * themselves, JSON nested past json-glib 1.6's stack) is refused at
 * once: in a child, so that a hang or a crash fails the test. */
static void
test_hostile (void)
{
  if (g_test_subprocess ())
    {
      hostile ();
      return;
    }
  g_test_trap_subprocess (NULL, 20 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
  /* refused as well, but never slow: outside the child's time limit */
  too_many_members ();
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ctf2/as-tsdl", test_as_tsdl);
  g_test_add_func ("/ctf2/odd", test_odd);
  g_test_add_func ("/ctf2/hostile", test_hostile);
  return g_test_run ();
}
