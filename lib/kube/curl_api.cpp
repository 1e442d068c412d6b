#include "kube/curl_api.h"

#include <dlfcn.h>

#include <string>

#include "core/errors.h"

namespace trainctl::kube {
namespace {

constexpr const char* kLibrary = "libcurl.so.4";

class Loader {
public:
  explicit Loader(void* library) : m_library(library) {}

  template <typename F>
  void operator()(F& slot, const char* name) {
    void* symbol = dlsym(m_library, name);
    if (symbol == nullptr) throw TransportError(std::string(kLibrary) + " has no " + name + "; libcurl 7.80 or newer is needed");
    slot = reinterpret_cast<F>(symbol);
  }

private:
  void* m_library;
};

CurlApi load() {
  // Never closed: libcurl stays loaded until the process ends.
  void* library = dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    throw TransportError(std::string("cannot load ") + kLibrary + ", which trainctl needs to talk to the cluster" +
                         (why ? std::string(": ") + why : std::string()) + " (install libcurl4)");
  }
  CurlApi api{};
  Loader get(library);
  get(api.global_init, "curl_global_init");
  get(api.easy_strerror, "curl_easy_strerror");
  get(api.easy_init, "curl_easy_init");
  get(api.easy_setopt, "curl_easy_setopt");
  get(api.easy_getinfo, "curl_easy_getinfo");
  get(api.easy_perform, "curl_easy_perform");
  get(api.easy_cleanup, "curl_easy_cleanup");
  get(api.slist_append, "curl_slist_append");
  get(api.slist_free_all, "curl_slist_free_all");
  get(api.share_init, "curl_share_init");
  get(api.share_setopt, "curl_share_setopt");
  get(api.share_cleanup, "curl_share_cleanup");
  get(api.multi_init, "curl_multi_init");
  get(api.multi_setopt, "curl_multi_setopt");
  get(api.multi_add_handle, "curl_multi_add_handle");
  get(api.multi_remove_handle, "curl_multi_remove_handle");
  get(api.multi_perform, "curl_multi_perform");
  get(api.multi_poll, "curl_multi_poll");
  get(api.multi_info_read, "curl_multi_info_read");
  get(api.multi_strerror, "curl_multi_strerror");
  get(api.multi_cleanup, "curl_multi_cleanup");
  get(api.url, "curl_url");
  get(api.url_set, "curl_url_set");
  get(api.url_get, "curl_url_get");
  get(api.url_cleanup, "curl_url_cleanup");
  get(api.free, "curl_free");
  get(api.getdate, "curl_getdate");
  const CURLcode rc = api.global_init(CURL_GLOBAL_DEFAULT);
  if (rc != CURLE_OK) throw TransportError(std::string("cannot initialise libcurl: ") + api.easy_strerror(rc));
  return api;
}

}  // namespace

const CurlApi& curl_api() {
  static const CurlApi api = load();
  return api;
}

}  // namespace trainctl::kube
