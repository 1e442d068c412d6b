// UTF-8 decoding shared by the printers (escape.cpp), the YAML writer and kubesim's request
// decoder.
#pragma once

#include <cstddef>
#include <string_view>

namespace trainctl {

// Decodes one UTF-8 sequence at text[i]: returns its length and sets cp, or returns 0 when
// the bytes there are not well-formed UTF-8 (a stray continuation byte, a truncated or
// overlong sequence, a surrogate, a code point past U+10FFFF).
size_t decode_utf8(std::string_view text, size_t i, char32_t& cp);

}  // namespace trainctl
