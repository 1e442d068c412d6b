// Turns the chosen context of a merged kubeconfig into a RestConfig, validating the parts
// it uses the way kubectl does (only the context in use has to be complete).
#pragma once

#include <string>

#include "kube/config.h"
#include "kube/kubeconfig_file.h"

namespace trainctl::kube::detail {

// Fills server, TLS, credentials and exec settings, plus context/cluster/user names. Reads
// referenced files, decodes *-data fields and registers every secret with log::add_secret.
// Throws ConfigError naming the file that defined the faulty entry.
RestConfig build_rest_config(const Kubeconfig& config, const std::string& context_name,
                             const KubeconfigContext& context);

}  // namespace trainctl::kube::detail
