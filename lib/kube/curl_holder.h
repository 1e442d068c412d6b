// RAII owners of libcurl handles. Each is move-only and frees its handle exactly once, so
// no curl pointer is ever released by hand elsewhere (the pattern of cpr's CurlHolder).
#pragma once

#include <curl/curl.h>

#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace trainctl::kube {

// Loads libcurl and calls curl_global_init once per process (curl_api.h), from whichever
// thread gets here first.
void ensure_curl_global();

// One easy handle plus the lists it points to (request headers, connect-to) and its error
// buffer. The lists and the buffer live on the heap, so moving the holder keeps them valid.
class CurlHolder {
public:
  CurlHolder();
  ~CurlHolder();
  CurlHolder(CurlHolder&& other) noexcept;
  CurlHolder& operator=(CurlHolder&& other) noexcept;
  CurlHolder(const CurlHolder&) = delete;
  CurlHolder& operator=(const CurlHolder&) = delete;

  CURL* get() const { return m_handle; }
  // Sets CURLOPT_HTTPHEADER to these lines ("Name: value"); the holder owns the list.
  void set_headers(const std::vector<std::string>& lines);
  // Sets CURLOPT_CONNECT_TO to these entries ("HOST:PORT:CONNECT-HOST:CONNECT-PORT").
  void set_connect_to(const std::vector<std::string>& entries);
  // The text of the last error (CURLOPT_ERRORBUFFER), empty when libcurl wrote none.
  std::string error_text() const;

private:
  void release() noexcept;

  CURL* m_handle = nullptr;
  curl_slist* m_headers = nullptr;
  curl_slist* m_connect_to = nullptr;
  std::unique_ptr<char[]> m_error;
};

// A share handle holding the connection cache, DNS cache and TLS sessions of one client,
// so consecutive requests and the transfers of one send_all() reuse connections. libcurl
// does not support sharing connections between threads running at once: callers serialise
// the transfers that use it (CurlClient holds a mutex); the lock callbacks still guard the
// share's data.
class CurlShare {
public:
  CurlShare();
  ~CurlShare();
  CurlShare(CurlShare&& other) noexcept = default;
  CurlShare& operator=(CurlShare&& other) noexcept = default;
  CurlShare(const CurlShare&) = delete;
  CurlShare& operator=(const CurlShare&) = delete;

  CURLSH* get() const { return m_state ? m_state->handle : nullptr; }

private:
  struct State {
    CURLSH* handle = nullptr;
    std::array<std::mutex, CURL_LOCK_DATA_LAST> locks;
  };
  std::unique_ptr<State> m_state;
};

// A multi handle for running several transfers at once (HTTP/2 multiplexing when offered).
class CurlMulti {
public:
  CurlMulti();
  ~CurlMulti();
  CurlMulti(CurlMulti&& other) noexcept;
  CurlMulti& operator=(CurlMulti&& other) noexcept;
  CurlMulti(const CurlMulti&) = delete;
  CurlMulti& operator=(const CurlMulti&) = delete;

  CURLM* get() const { return m_handle; }

private:
  CURLM* m_handle = nullptr;
};

}  // namespace trainctl::kube
