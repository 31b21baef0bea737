/* babeltrace2/babeltrace.h, as every target but src/core/trace/bt sees it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libbabeltrace2's headers are on the compiler's default path, so leaving
 * the dependency out of a target would not keep them out of it. This folder
 * comes first on every target's include path (meson.build); the layer that
 * reads traces with babeltrace2 defines SL_BABELTRACE_LAYER and gets the
 * real header, any other file stops here. Its sub-headers refuse to be
 * included alone.
 */

#ifndef SL_BABELTRACE_LAYER
#error "libbabeltrace2 is used in src/core/trace/bt only: read traces through sl-trace-reader.h or sl-live.h (src/README.md)"
#endif

#include_next <babeltrace2/babeltrace.h>
