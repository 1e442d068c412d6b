// libcurl, loaded when the first request needs it. trainctl does not link libcurl: loading
// it and the libraries it pulls in (GnuTLS, Kerberos, LDAP, libssh2, ...) costs several
// milliseconds of dynamic linking, which commands that never talk to a server (version,
// completion, submit --dry-run, templates) would pay on every run. <curl/curl.h> still
// gives the types and constants; every libcurl call in lib/kube goes through curl_api().
#pragma once

#include <curl/curl.h>

#include <ctime>

namespace trainctl::kube {

// The libcurl functions trainctl uses, resolved from libcurl.so.4.
struct CurlApi {
  CURLcode (*global_init)(long flags);
  const char* (*easy_strerror)(CURLcode code);
  CURL* (*easy_init)();
  CURLcode (*easy_setopt)(CURL* handle, CURLoption option, ...);
  CURLcode (*easy_getinfo)(CURL* handle, CURLINFO info, ...);
  CURLcode (*easy_perform)(CURL* handle);
  void (*easy_cleanup)(CURL* handle);
  curl_slist* (*slist_append)(curl_slist* list, const char* text);
  void (*slist_free_all)(curl_slist* list);
  CURLSH* (*share_init)();
  CURLSHcode (*share_setopt)(CURLSH* share, CURLSHoption option, ...);
  CURLSHcode (*share_cleanup)(CURLSH* share);
  CURLM* (*multi_init)();
  CURLMcode (*multi_setopt)(CURLM* multi, CURLMoption option, ...);
  CURLMcode (*multi_add_handle)(CURLM* multi, CURL* handle);
  CURLMcode (*multi_remove_handle)(CURLM* multi, CURL* handle);
  CURLMcode (*multi_perform)(CURLM* multi, int* running);
  CURLMcode (*multi_poll)(CURLM* multi, curl_waitfd* extra, unsigned int count, int timeout_ms, int* ret);
  CURLMsg* (*multi_info_read)(CURLM* multi, int* left);
  const char* (*multi_strerror)(CURLMcode code);
  CURLMcode (*multi_cleanup)(CURLM* multi);
  CURLU* (*url)();
  CURLUcode (*url_set)(CURLU* url, CURLUPart part, const char* content, unsigned int flags);
  CURLUcode (*url_get)(const CURLU* url, CURLUPart part, char** content, unsigned int flags);
  void (*url_cleanup)(CURLU* url);
  void (*free)(void* p);
  time_t (*getdate)(const char* text, const time_t* unused);
};

// Loads libcurl.so.4 and runs curl_global_init, once per process (thread-safe). Throws
// TransportError when the library is missing or lacks a function.
const CurlApi& curl_api();

}  // namespace trainctl::kube
