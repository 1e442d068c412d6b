// Placeholder: replaced by the kubeconfig loader.
#include "kube/config.h"

#include "core/errors.h"

namespace trainctl::kube {
RestConfig load_rest_config(const LoadOptions&) { throw NotImplementedError("kubeconfig loading"); }
std::string resolve_namespace(const LoadOptions& o) { return o.namespace_.empty() ? "default" : o.namespace_; }
ExecCredentialProvider::ExecCredentialProvider(ExecConfig c, std::string s) : m_config(std::move(c)), m_server(std::move(s)) {}
ExecCredential ExecCredentialProvider::get() { throw NotImplementedError("exec credentials"); }
void ExecCredentialProvider::invalidate() { m_cached.reset(); }
}  // namespace trainctl::kube
