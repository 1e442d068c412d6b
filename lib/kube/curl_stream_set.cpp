#include "kube/curl_stream_set.h"

#include <map>

#include "core/errors.h"
#include "kube/curl_api.h"
#include "kube/curl_holder.h"
#include "kube/status_error.h"

namespace trainctl::kube {
namespace {

constexpr auto kStreamSetQuiet = std::chrono::milliseconds(10);  // as the client's single streams

class CurlStreamSet final : public StreamSet {
 public:
  CurlStreamSet(const ClientSettings& settings, std::function<AuthMaterial()> auth)
      : m_settings(settings), m_auth(std::move(auth)) {
    curl_api().multi_setopt(m_multi.get(), CURLMOPT_MAX_HOST_CONNECTIONS, 0L);
  }
  ~CurlStreamSet() override {
    for (auto& [id, s] : m_streams) curl_api().multi_remove_handle(m_multi.get(), s.transfer->handle());
  }

  Id add(const Request& request, BlockHandler on_block) override {
    Stream s;
    s.handler = std::make_unique<BlockHandler>(std::move(on_block));
    s.transfer = std::make_unique<Transfer>(m_settings, request, m_auth(), nullptr, s.handler.get());
    if (curl_api().multi_add_handle(m_multi.get(), s.transfer->handle()) != CURLM_OK)
      throw TransportError("libcurl could not start a stream");
    m_streams.emplace(m_next, std::move(s));
    return m_next++;
  }

  void remove(Id id) override {
    auto it = m_streams.find(id);
    if (it == m_streams.end()) return;
    curl_api().multi_remove_handle(m_multi.get(), it->second.transfer->handle());
    m_streams.erase(it);
  }

  size_t size() const override { return m_streams.size(); }

  std::vector<Ended> run(std::chrono::milliseconds timeout) override {
    const CurlApi& api = curl_api();
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::vector<Ended> ended;
    for (;;) {
      int running = 0;
      CURLMcode mc = api.multi_perform(m_multi.get(), &running);
      if (mc != CURLM_OK)
        throw TransportError(std::string("libcurl failed running streams: ") + api.multi_strerror(mc));
      int left = 0;
      while (CURLMsg* msg = api.multi_info_read(m_multi.get(), &left)) {
        if (msg->msg != CURLMSG_DONE) continue;
        const CURLcode result = msg->data.result;
        for (auto it = m_streams.begin(); it != m_streams.end(); ++it) {
          if (it->second.transfer->handle() != msg->easy_handle) continue;
          api.multi_remove_handle(m_multi.get(), msg->easy_handle);
          it->second.transfer->finish(result);
          ended.push_back({it->first, outcome(*it->second.transfer)});
          m_streams.erase(it);
          break;
        }
      }
      bool pending = false;
      for (auto& [id, s] : m_streams) {
        s.transfer->end_trace_when_streaming();
        pending = pending || s.transfer->unflushed();
      }
      const auto now = std::chrono::steady_clock::now();
      if (!ended.empty() || now >= deadline) return ended;
      auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
      if (pending) wait = std::min(wait, std::chrono::milliseconds(kStreamSetQuiet));
      int ready = 0;
      mc = api.multi_poll(m_multi.get(), nullptr, 0, static_cast<int>(std::max<long long>(wait.count(), 1)),
                          &ready);
      if (mc != CURLM_OK)
        throw TransportError(std::string("libcurl failed running streams: ") + api.multi_strerror(mc));
      // Streams that went quiet (or have been busy for kStreamSetQuiet) are told, so their reader writes.
      const auto after = std::chrono::steady_clock::now();
      if (pending && (ready == 0 || after - m_told >= kStreamSetQuiet)) {
        m_told = after;
        for (auto it = m_streams.begin(); it != m_streams.end();) {
          Transfer& t = *it->second.transfer;
          if (!t.unflushed() || t.quiet()) {
            ++it;
            continue;
          }
          api.multi_remove_handle(m_multi.get(), t.handle());
          ended.push_back({it->first, t.handler_error()});
          it = m_streams.erase(it);
        }
      }
    }
  }

 private:
  struct Stream {
    std::unique_ptr<BlockHandler> handler;  // the transfer points to it
    std::unique_ptr<Transfer> transfer;
  };

  std::exception_ptr outcome(Transfer& t) const {
    if (t.handler_error()) return t.handler_error();
    if (!t.answered()) return std::make_exception_ptr(transport_error(t.failure(), m_settings.tls));
    const long status = t.response().status;
    if (status >= 200 && status < 300) return nullptr;
    return std::make_exception_ptr(api_error_from_response(status, t.response().body, t.response().headers));
  }

  const ClientSettings& m_settings;
  std::function<AuthMaterial()> m_auth;
  CurlMulti m_multi;
  std::map<Id, Stream> m_streams;
  Id m_next = 1;
  std::chrono::steady_clock::time_point m_told = std::chrono::steady_clock::now();
};

}  // namespace

std::unique_ptr<StreamSet> make_curl_stream_set(const ClientSettings& settings,
                                                std::function<AuthMaterial()> auth) {
  return std::make_unique<CurlStreamSet>(settings, std::move(auth));
}

}  // namespace trainctl::kube
