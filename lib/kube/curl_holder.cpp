#include "kube/curl_holder.h"

#include <utility>

#include "core/errors.h"
#include "kube/curl_api.h"

namespace trainctl::kube {

void ensure_curl_global() { curl_api(); }

// ---- CurlHolder ----

CurlHolder::CurlHolder() : m_error(new char[CURL_ERROR_SIZE]) {
  ensure_curl_global();
  m_handle = curl_api().easy_init();
  if (m_handle == nullptr) throw TransportError("cannot create a libcurl handle");
  m_error[0] = '\0';
  curl_api().easy_setopt(m_handle, CURLOPT_ERRORBUFFER, m_error.get());
}

CurlHolder::~CurlHolder() { release(); }

CurlHolder::CurlHolder(CurlHolder&& other) noexcept
    : m_handle(std::exchange(other.m_handle, nullptr)),
      m_headers(std::exchange(other.m_headers, nullptr)),
      m_connect_to(std::exchange(other.m_connect_to, nullptr)),
      m_error(std::move(other.m_error)) {}

CurlHolder& CurlHolder::operator=(CurlHolder&& other) noexcept {
  if (this != &other) {
    release();
    m_handle = std::exchange(other.m_handle, nullptr);
    m_headers = std::exchange(other.m_headers, nullptr);
    m_connect_to = std::exchange(other.m_connect_to, nullptr);
    m_error = std::move(other.m_error);
  }
  return *this;
}

void CurlHolder::release() noexcept {
  // The easy handle goes first: it may still point at the lists.
  if (m_handle != nullptr) curl_api().easy_cleanup(m_handle);
  if (m_headers != nullptr) curl_api().slist_free_all(m_headers);
  if (m_connect_to != nullptr) curl_api().slist_free_all(m_connect_to);
  m_handle = nullptr;
  m_headers = nullptr;
  m_connect_to = nullptr;
}

namespace {
curl_slist* make_list(const std::vector<std::string>& lines) {
  curl_slist* list = nullptr;
  for (const auto& line : lines) {
    curl_slist* next = curl_api().slist_append(list, line.c_str());
    if (next == nullptr) {
      curl_api().slist_free_all(list);
      throw TransportError("out of memory building a request");
    }
    list = next;
  }
  return list;
}
}  // namespace

void CurlHolder::set_headers(const std::vector<std::string>& lines) {
  curl_slist* list = make_list(lines);
  curl_api().easy_setopt(m_handle, CURLOPT_HTTPHEADER, list);
  if (m_headers != nullptr) curl_api().slist_free_all(m_headers);
  m_headers = list;
}

void CurlHolder::set_connect_to(const std::vector<std::string>& entries) {
  curl_slist* list = make_list(entries);
  curl_api().easy_setopt(m_handle, CURLOPT_CONNECT_TO, list);
  if (m_connect_to != nullptr) curl_api().slist_free_all(m_connect_to);
  m_connect_to = list;
}

std::string CurlHolder::error_text() const { return m_error ? std::string(m_error.get()) : std::string(); }

// ---- CurlShare ----

namespace {
void share_lock(CURL*, curl_lock_data data, curl_lock_access, void* user) {
  static_cast<std::mutex*>(user)[static_cast<size_t>(data)].lock();
}
void share_unlock(CURL*, curl_lock_data data, void* user) {
  static_cast<std::mutex*>(user)[static_cast<size_t>(data)].unlock();
}
}  // namespace

CurlShare::CurlShare() : m_state(std::make_unique<State>()) {
  ensure_curl_global();
  m_state->handle = curl_api().share_init();
  if (m_state->handle == nullptr) throw TransportError("cannot create a libcurl share handle");
  curl_api().share_setopt(m_state->handle, CURLSHOPT_LOCKFUNC, share_lock);
  curl_api().share_setopt(m_state->handle, CURLSHOPT_UNLOCKFUNC, share_unlock);
  curl_api().share_setopt(m_state->handle, CURLSHOPT_USERDATA, m_state->locks.data());
  curl_api().share_setopt(m_state->handle, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
  curl_api().share_setopt(m_state->handle, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
  curl_api().share_setopt(m_state->handle, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
}

CurlShare::~CurlShare() {
  // Every easy handle using the share is gone by now (they are owned by shorter scopes).
  if (m_state && m_state->handle != nullptr) curl_api().share_cleanup(m_state->handle);
}

// ---- CurlMulti ----

CurlMulti::CurlMulti() {
  ensure_curl_global();
  m_handle = curl_api().multi_init();
  if (m_handle == nullptr) throw TransportError("cannot create a libcurl multi handle");
  curl_api().multi_setopt(m_handle, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
  curl_api().multi_setopt(m_handle, CURLMOPT_MAX_HOST_CONNECTIONS, 8L);
}

CurlMulti::~CurlMulti() {
  if (m_handle != nullptr) curl_api().multi_cleanup(m_handle);
}

CurlMulti::CurlMulti(CurlMulti&& other) noexcept : m_handle(std::exchange(other.m_handle, nullptr)) {}

CurlMulti& CurlMulti::operator=(CurlMulti&& other) noexcept {
  if (this != &other) {
    if (m_handle != nullptr) curl_api().multi_cleanup(m_handle);
    m_handle = std::exchange(other.m_handle, nullptr);
  }
  return *this;
}

}  // namespace trainctl::kube
