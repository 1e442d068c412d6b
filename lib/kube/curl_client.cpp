#include "kube/curl_client.h"

#include <atomic>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>

#include "core/errors.h"
#include "core/log.h"
#include "kube/curl_api.h"
#include "kube/curl_holder.h"
#include "kube/curl_stream_set.h"
#include "kube/curl_transfer.h"
#include "kube/http_auth.h"
#include "kube/http_retry.h"
#include "kube/status_error.h"

namespace trainctl::kube {
namespace {

using SteadyClock = std::chrono::steady_clock;

// Where one request stands across its attempts.
struct RequestState {
  RequestState(const RetryLimits& limits, std::optional<SteadyClock::time_point> until)
      : backoff(limits), deadline(until) {}
  Backoff backoff;
  bool auth_retried = false;
  // The request timeout, counted from the first attempt over every retry (nullopt: none).
  std::optional<SteadyClock::time_point> deadline;

  std::chrono::milliseconds left() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - SteadyClock::now());
  }
  // A retry after `wait` still leaves its attempt some time.
  bool fits(std::chrono::milliseconds wait) const { return !deadline || wait < left(); }
};

// What to do after an attempt.
struct Verdict {
  enum class Kind { Success, Failure, Retry } kind = Kind::Success;
  std::exception_ptr error;
  std::chrono::milliseconds wait{0};
};

constexpr int kQuietMs = 10;  // a stream with no data for this long has gone quiet

class CurlClient final : public Client {
public:
  CurlClient(const RestConfig& config, const ClientOptions& options)
      : m_settings(make_client_settings(config, options)),
        m_limits{options.max_retries, options.max_retry_time, options.initial_backoff},
        m_sleep(options.sleep),
        m_credentials(config) {
    if (!m_sleep) m_sleep = [](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); };
  }

  Response send(const Request& request) override {
    RequestState state(m_limits, deadline_of(request));
    for (;;) {
      const AuthMaterial auth = m_credentials.current();
      Verdict v;
      {
        std::lock_guard lock(m_mutex);  // released after the transfer's handle is gone
        Transfer transfer(m_settings, request, auth, m_share.get());
        if (state.deadline) transfer.set_timeout(state.left());
        transfer.finish(curl_api().easy_perform(transfer.handle()));
        v = judge(request, transfer, state);
        if (v.kind == Verdict::Kind::Success) return std::move(transfer.response());
      }
      if (v.kind == Verdict::Kind::Failure) std::rethrow_exception(v.error);
      m_sleep(v.wait);
    }
  }

  std::vector<Result> send_all(const std::vector<Request>& requests) override {
    std::vector<Result> results(requests.size());
    std::vector<RequestState> states;
    states.reserve(requests.size());
    for (const auto& r : requests) states.emplace_back(m_limits, deadline_of(r));
    std::vector<size_t> pending(requests.size());
    for (size_t i = 0; i < pending.size(); ++i) pending[i] = i;
    while (!pending.empty()) {
      std::vector<AuthMaterial> auth(pending.size());
      for (size_t k = 0; k < pending.size(); ++k) {
        try {
          auth[k] = m_credentials.current();
        } catch (...) {
          results[pending[k]].error = std::current_exception();
        }
      }
      std::unique_lock lock(m_mutex);  // released after the transfers' handles are gone
      std::vector<std::unique_ptr<Transfer>> transfers(pending.size());
      for (size_t k = 0; k < pending.size(); ++k) {
        if (results[pending[k]].error) continue;
        transfers[k] = std::make_unique<Transfer>(m_settings, requests[pending[k]], auth[k], m_share.get());
        if (states[pending[k]].deadline) transfers[k]->set_timeout(states[pending[k]].left());
      }
      run_together(transfers);
      std::vector<size_t> again;
      std::chrono::milliseconds wait{0};
      for (size_t k = 0; k < pending.size(); ++k) {
        if (!transfers[k]) continue;
        const size_t i = pending[k];
        const Verdict v = judge(requests[i], *transfers[k], states[i]);
        if (v.kind == Verdict::Kind::Success) {
          results[i].response = std::move(transfers[k]->response());
        } else if (v.kind == Verdict::Kind::Failure) {
          results[i].error = v.error;
        } else {
          again.push_back(i);
          wait = std::max(wait, v.wait);
        }
      }
      transfers.clear();
      lock.unlock();
      if (!again.empty()) m_sleep(wait);
      pending = std::move(again);
    }
    return results;
  }

  void stream(const Request& request, const LineHandler& on_line) override {
    stream_blocks(request, [&on_line](std::string_view block) {
      for (size_t start = 0; start < block.size();) {
        const auto* nl = static_cast<const char*>(std::memchr(block.data() + start, '\n', block.size() - start));
        const size_t end = nl ? static_cast<size_t>(nl - block.data()) : block.size();
        if (!on_line(block.substr(start, end - start))) return false;
        start = end + 1;
      }
      return true;
    });
  }

  void stream_blocks(const Request& request, const BlockHandler& on_block) override {
    RequestState state(m_limits, std::nullopt);  // a stream runs as long as it runs
    for (;;) {
      // A stream holds its connection for as long as it runs: it gets its own, outside the
      // shared cache, so other requests (and other streams) can run meanwhile.
      Transfer transfer(m_settings, request, m_credentials.current(), nullptr, &on_block);
      run_stream(transfer);
      const Verdict v = judge(request, transfer, state);
      if (v.kind == Verdict::Kind::Success) return;
      if (v.kind == Verdict::Kind::Failure) std::rethrow_exception(v.error);
      m_sleep(v.wait);
    }
  }

  std::unique_ptr<StreamSet> stream_set() override {
    return make_curl_stream_set(m_settings, [this] { return m_credentials.current(); });
  }

private:
  std::optional<SteadyClock::time_point> deadline_of(const Request& request) const {
    const auto timeout = request.timeout.value_or(m_settings.request_timeout);
    if (timeout.count() <= 0) return std::nullopt;
    return SteadyClock::now() + timeout;
  }

  // Runs one stream's transfer (what curl_easy_perform would do) and tells its handler when
  // the stream goes quiet: no data for kQuietMs after some lines, or kQuietMs since it was
  // last told while data keeps coming. A fast stream thus costs its reader no flush per
  // chunk, and a slow one is flushed within milliseconds.
  static void run_stream(Transfer& transfer) {
    CurlMulti multi;
    const CurlApi& api = curl_api();
    api.multi_add_handle(multi.get(), transfer.handle());
    auto told = std::chrono::steady_clock::now();
    CURLcode result = CURLE_OK;
    for (;;) {
      int running = 0;
      CURLMcode mc = api.multi_perform(multi.get(), &running);
      int left = 0;
      bool done = false;
      while (CURLMsg* msg = api.multi_info_read(multi.get(), &left)) {
        if (msg->msg != CURLMSG_DONE) continue;
        result = msg->data.result;
        done = true;
      }
      if (done || running == 0) break;
      transfer.end_trace_when_streaming();
      const bool pending = transfer.unflushed();
      int ready = 0;
      if (mc == CURLM_OK) mc = api.multi_poll(multi.get(), nullptr, 0, pending ? kQuietMs : 1000, &ready);
      if (mc != CURLM_OK) {
        api.multi_remove_handle(multi.get(), transfer.handle());
        throw TransportError(std::string("libcurl failed running a stream: ") + api.multi_strerror(mc));
      }
      const auto now = std::chrono::steady_clock::now();
      if (pending && (ready == 0 || now - told >= std::chrono::milliseconds(kQuietMs))) {
        told = now;
        if (!transfer.quiet()) {
          result = CURLE_WRITE_ERROR;  // stopped by the handler, as when on_body returns 0
          break;
        }
      }
    }
    api.multi_remove_handle(multi.get(), transfer.handle());
    transfer.finish(result);
  }

  // Runs transfers at once on one multi handle (connections from the shared cache). The
  // caller holds m_mutex.
  void run_together(std::vector<std::unique_ptr<Transfer>>& transfers) {
    CurlMulti multi;
    for (auto& t : transfers) {
      if (t) curl_api().multi_add_handle(multi.get(), t->handle());
    }
    int running = 0;
    do {
      CURLMcode mc = curl_api().multi_perform(multi.get(), &running);
      if (mc == CURLM_OK && running > 0) mc = curl_api().multi_poll(multi.get(), nullptr, 0, 1000, nullptr);
      if (mc != CURLM_OK) {
        for (auto& t : transfers) {
          if (t) curl_api().multi_remove_handle(multi.get(), t->handle());
        }
        throw TransportError(std::string("libcurl failed running requests: ") + curl_api().multi_strerror(mc));
      }
      int left = 0;
      while (CURLMsg* msg = curl_api().multi_info_read(multi.get(), &left)) {
        if (msg->msg != CURLMSG_DONE) continue;
        Transfer* t = nullptr;
        curl_api().easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &t);
        const CURLcode result = msg->data.result;  // read before the handle leaves the multi
        curl_api().multi_remove_handle(multi.get(), msg->easy_handle);
        if (t != nullptr) t->finish(result);
      }
    } while (running > 0);
  }

  Verdict judge(const Request& request, Transfer& t, RequestState& state) {
    Verdict v;
    if (t.handler_error()) {
      v.kind = Verdict::Kind::Failure;
      v.error = t.handler_error();
      return v;
    }
    if (t.answered()) {
      m_reached_server = true;
      const long status = t.response().status;
      const auto phrase = http_reason_phrase(status);
      log::debug("{} {} {}{}{} in {} ms", request.method, t.url(), status, phrase.empty() ? "" : " ", phrase,
                 t.elapsed().count());
      if (status >= 200 && status < 300) return v;
      if (status == 401 && !state.auth_retried && m_credentials.refresh_after_unauthorized()) {
        state.auth_retried = true;
        log::debug("retrying {} {} with refreshed credentials after 401", request.method, t.url());
        v.kind = Verdict::Kind::Retry;
        return v;
      }
      ApiError error = api_error_from_response(status, t.response().body, t.response().headers);
      // 429: the server did not process the request, whatever its verb.
      if (is_retryable_status(status) && (request.is_idempotent() || status == 429) && !t.lines_delivered()) {
        if (auto wait = state.backoff.next(error.retry_after_seconds()); wait && state.fits(*wait))
          return retry(request, t, state, *wait);
      }
      v.kind = Verdict::Kind::Failure;
      v.error = std::make_exception_ptr(std::move(error));
      return v;
    }
    const TransportFailure failure = t.failure();
    log::debug("{} {} failed after {} ms: {}", request.method, t.url(), t.elapsed().count(),
               curl_api().easy_strerror(failure.code));
    const bool may_resend = request.is_idempotent() || never_reached_server(failure);
    // A refused first connection is not a blip: nothing listens there (a wrong port, a
    // cluster that is down). kubectl fails at once; so does trainctl. Once the server has
    // answered, a refused connection (it restarts) is retried like the other transient faults.
    const bool refused_at_first = failure.code == CURLE_COULDNT_CONNECT && !m_reached_server;
    if (failure.connected) m_reached_server = true;
    if (is_retryable_transport(failure) && may_resend && !refused_at_first && !t.lines_delivered()) {
      if (auto wait = state.backoff.next(); wait && state.fits(*wait)) return retry(request, t, state, *wait);
    }
    v.kind = Verdict::Kind::Failure;
    v.error = std::make_exception_ptr(transport_error(failure, m_settings.tls));
    return v;
  }

  Verdict retry(const Request& request, const Transfer& t, const RequestState& state,
                std::chrono::milliseconds wait) const {
    log::debug("retrying {} {} in {} ms (retry {} of {})", request.method, t.url(), wait.count(),
               state.backoff.retries(), m_limits.max_retries);
    Verdict v;
    v.kind = Verdict::Kind::Retry;
    v.wait = wait;
    return v;
  }

  ClientSettings m_settings;
  RetryLimits m_limits;
  std::function<void(std::chrono::milliseconds)> m_sleep;
  Credentials m_credentials;
  CurlShare m_share;
  std::mutex m_mutex;  // serialises the transfers that use m_share's connections
  std::atomic<bool> m_reached_server{false};  // some request got an answer or a connection
};

}  // namespace

std::unique_ptr<Client> make_curl_client(const RestConfig& config, const ClientOptions& options) {
  return std::make_unique<CurlClient>(config, options);
}

}  // namespace trainctl::kube
