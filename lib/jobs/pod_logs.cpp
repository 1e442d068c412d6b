#include "jobs/pod_logs.h"

#include <thread>

#include "core/errors.h"
#include "core/log.h"
#include "jobs/json_util.h"
#include "jobs/time.h"

namespace trainctl::jobs {

std::string log_path(const LogOptions& o, bool follow, bool timestamps, bool window,
                     const std::string& since_time) {
  std::string p = "/api/v1/namespaces/" + o.ns + "/pods/" + o.pod + "/log";
  std::string q;
  auto add = [&q](const std::string& k, const std::string& v) { q += (q.empty() ? "?" : "&") + k + "=" + v; };
  if (!o.container.empty()) add("container", kube::url_encode(o.container));
  if (follow) add("follow", "true");
  if (timestamps) add("timestamps", "true");
  if (!since_time.empty()) {
    add("sinceTime", kube::url_encode(since_time));
  } else if (window) {
    if (o.since_seconds) add("sinceSeconds", std::to_string(*o.since_seconds));
    if (!o.since_time.empty()) add("sinceTime", kube::url_encode(o.since_time));
  }
  if (window && since_time.empty() && o.tail && *o.tail >= 0) add("tailLines", std::to_string(*o.tail));
  return p + q;
}

void read_logs(kube::Client& client, const LogOptions& o, std::ostream& out) {
  kube::Request r;
  r.path = log_path(o, false, o.timestamps, true, "");
  r.accept = "text/plain, */*";
  out << client.send(r).body;
}

namespace {

// Writes timestamped lines, remembering where it stopped so that a resumed stream (which
// starts again at the last line's second) does not repeat lines.
class LineWriter {
 public:
  LineWriter(std::ostream& out, bool keep_timestamps) : m_out(out), m_keep(keep_timestamps) {}

  const std::optional<TimePoint>& last() const { return m_last; }
  // Before reading a resumed stream: the lines of the last second written are skipped again.
  void resume() { m_skip = m_seen_at_last; }

  void line(std::string_view line) {
    const size_t space = line.find(' ');
    const auto t = parse_time(line.substr(0, space));
    if (t && m_last) {
      if (*t < *m_last) return;
      if (*t == *m_last && m_skip > 0) {
        --m_skip;
        return;
      }
    }
    if (t) {
      if (m_last && *t == *m_last) {
        ++m_seen_at_last;
      } else {
        m_last = t;
        m_seen_at_last = 1;
      }
      m_skip = 0;
      if (!m_keep) line = space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
    }
    m_out << line << '\n';
    m_out.flush();
  }

 private:
  std::ostream& m_out;
  bool m_keep;
  std::optional<TimePoint> m_last;
  long long m_seen_at_last = 0;
  long long m_skip = 0;
};

std::string pod_phase(kube::Client& client, const LogOptions& o) {
  try {
    auto pod = client.get_json("/api/v1/namespaces/" + o.ns + "/pods/" + o.pod);
    return str(at(pod, "status"), "phase");
  } catch (const ApiError& e) {
    if (e.is_not_found()) return "";
    throw;
  }
}

kube::Request log_request(const LogOptions& o, bool follow, const LineWriter& w) {
  kube::Request r;
  r.path = log_path(o, follow, true, !w.last(), w.last() ? format_rfc3339(*w.last()) : "");
  r.accept = "text/plain, */*";
  return r;
}

}  // namespace

std::string follow_logs(kube::Client& client, const LogOptions& o, std::ostream& out,
                        const FollowSettings& s) {
  auto sleep = s.sleep ? s.sleep : [](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); };
  LineWriter writer(out, o.timestamps);
  int failures = 0;
  for (;;) {
    writer.resume();
    bool cut = false;
    try {
      client.stream(log_request(o, true, writer), [&](std::string_view line) {
        writer.line(line);
        return true;
      });
      failures = 0;
    } catch (const TransportError& e) {
      log::debug("log stream of {} cut: {}", o.pod, e.what());
      cut = true;
      ++failures;
    } catch (const ApiError& e) {
      // 400 "container ... is waiting to start": wait for it while the pod lives.
      if (e.http_status() != 400) throw;
      log::debug("log of {} not available yet: {}", o.pod, e.what());
      cut = true;
      ++failures;
    }
    const std::string phase = pod_phase(client, o);
    // Waiting for a Pending pod (no GPUs free yet) is not a failure: -f waits as long as it takes.
    if (phase == "Pending") failures = 0;
    if (failures > s.max_failures)
      throw TransportError("lost the log stream of " + o.pod + " " + std::to_string(failures) +
                           " times; giving up");
    if (phase.empty() || phase == "Succeeded" || phase == "Failed") {
      if (cut && !phase.empty()) {
        // The pod ended while the stream was down: read what it wrote meanwhile.
        writer.resume();
        const std::string body = client.send(log_request(o, false, writer)).body;
        size_t start = 0;
        while (start < body.size()) {
          size_t end = body.find('\n', start);
          if (end == std::string::npos) end = body.size();
          writer.line(std::string_view(body).substr(start, end - start));
          start = end + 1;
        }
      }
      return phase;
    }
    sleep(s.reconnect_delay);
  }
}

}  // namespace trainctl::jobs
