// Text that came from the cluster (names, messages, labels) is made safe before it reaches
// a terminal: control characters and escape sequences are shown, never interpreted.
#pragma once

#include <string>
#include <string_view>

namespace trainctl::print {

// Replaces C0 controls (incl. ESC, CR, BS, TAB, newline), DEL, C1 controls (U+0080..U+009F)
// and bytes that are not valid UTF-8 with a visible "\xNN" escape (a C1 control shows as
// "\u0080".."\u009f"). Printable text, including non-ASCII UTF-8, passes unchanged.
std::string sanitize(std::string_view text);

// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF).
bool is_utf8(std::string_view text);

// Number of terminal columns `text` occupies: one per code point, two for East Asian wide
// and fullwidth code points, zero for combining marks. `text` must be sanitized.
int display_width(std::string_view text);

// Cuts `text` to at most `width` columns, ending with `ellipsis` (whose own width counts)
// when something was cut.
std::string truncate_to_width(std::string_view text, int width, std::string_view ellipsis);

}  // namespace trainctl::print
