// Placeholder: replaced by the libcurl client.
#include "kube/curl_client.h"

#include "core/errors.h"

namespace trainctl::kube {
std::unique_ptr<Client> make_curl_client(const RestConfig&, const ClientOptions&) {
  throw NotImplementedError("the REST client");
}
}  // namespace trainctl::kube
