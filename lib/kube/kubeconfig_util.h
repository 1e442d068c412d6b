// Small helpers shared by the kubeconfig loader, the in-cluster config and exec plugins.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace trainctl::kube::detail {

// Standard base64 (with padding) as kubeconfig *-data fields use it; line breaks and other
// whitespace are ignored. nullopt when the text is not valid base64.
std::optional<std::string> base64_decode(std::string_view text);
std::string base64_encode(std::string_view bytes);

// Reads a whole file. On failure returns nullopt and sets `error` (e.g. "No such file or
// directory").
std::optional<std::string> read_file(const std::string& path, std::string& error);

std::string trim(std::string_view text);
// Trims and folds line breaks into "; " so that the text fits in a one-line message.
std::string one_line(std::string_view text, size_t max_length = 400);

}  // namespace trainctl::kube::detail
