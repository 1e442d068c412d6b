// Standard base64 (RFC 4648, with padding) through OpenSSL's EVP_EncodeBlock/EVP_DecodeBlock,
// as kubeconfig *-data fields, Secret data and Basic authorization use it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace trainctl {

std::string base64_encode(std::string_view bytes);

// Line breaks and other white space are ignored (PEM-style wrapped text decodes). nullopt
// when the text is not valid base64: a length that is not a multiple of 4 once white space
// is removed, a character outside the alphabet, or '=' anywhere but as trailing padding.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace trainctl
