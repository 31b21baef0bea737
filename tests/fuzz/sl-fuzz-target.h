/* sl-fuzz-target.h: one in-process fuzz target (libFuzzer's interface)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each fuzz-*.c defines LLVMFuzzerTestOneInput() and a mutator of its
 * own. Built with clang and -Dfuzzing=true it links libFuzzer; otherwise
 * fuzz-replay.c is its main(): it runs the given files and, with
 * --mutate=N, N deterministic mutations of them (the test suite's form).
 */

#pragma once

#include <stddef.h>
#include <stdint.h>

#include <glib.h>

int  LLVMFuzzerTestOneInput (const uint8_t *data,
                             size_t         size);

/* Built-in seed inputs (GBytes), besides the corpus files; a weak
 * symbol: targets without any return NULL. */
GPtrArray *sl_fuzz_target_seeds (void);

/* Damages @input in place, deterministically from @rand. */
void sl_fuzz_target_mutate  (GByteArray    *input,
                             GRand         *rand);
