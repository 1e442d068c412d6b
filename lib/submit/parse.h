// Parsers and checks for single flag values. Each throws UsageError naming the flag and
// the accepted form.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "submit/plan.h"

namespace trainctl::submit {

// `s` in double quotes, as error messages quote a flag's value.
std::string dq(const std::string& s);

bool is_dns1123_label(std::string_view s);      // [a-z0-9]([-a-z0-9]*[a-z0-9])?, <= 63
bool is_dns1123_subdomain(std::string_view s);  // labels joined by dots, <= 253
bool is_label_key(std::string_view s);          // [prefix/]name, as metav1 qualified names
bool is_label_value(std::string_view s);        // "" or [A-Za-z0-9]([-_.A-Za-z0-9]*[A-Za-z0-9])?, <= 63
bool is_quantity(std::string_view s);           // Kubernetes resource.Quantity, non-negative

// "K=V" (V may be empty and may contain '='). `flag` names the flag in errors.
KeyValue parse_key_value(const std::string& flag, const std::string& text);
// --toleration key[=value][:effect][,operator] | all  ->  a core/v1 Toleration object.
nlohmann::json parse_toleration(const std::string& text);
// --data PVC:/path
DataMount parse_data(const std::string& text);
// --data-dir HOST[:/path]
HostMount parse_data_dir(const std::string& text);
// A Go duration ("90s", "1h30m") or a plain number of seconds -> whole seconds.
std::int64_t parse_seconds(const std::string& flag, const std::string& text);
// The repository name of a git URL: https://host/a/mnist-pytorch.git -> mnist-pytorch.
std::string git_repo_name(const std::string& url);

}  // namespace trainctl::submit
