// Small helpers shared by the kubeconfig loader, the in-cluster config and exec plugins.
#pragma once

#include <string>
#include <string_view>

namespace trainctl::kube::detail {

// Trims and folds line breaks into "; " so that the text fits in a one-line message.
std::string one_line(std::string_view text, size_t max_length = 400);

}  // namespace trainctl::kube::detail
