#include "jobs/logs/pod_logs.h"

#include <cstring>
#include <thread>

#include "core/errors.h"
#include "core/log.h"
#include "jobs/json_util.h"
#include "jobs/logs/log_resume.h"
#include "jobs/time.h"
#include "kube/answer_shape.h"
#include "kube/resource.h"

namespace trainctl::jobs {

std::string log_path(const LogOptions& o, bool follow, bool timestamps, bool window,
                     const std::string& since_time) {
  kube::Query q;
  if (!o.container.empty()) q.add("container", o.container);
  if (follow) q.add("follow", "true");
  if (o.previous) q.add("previous", "true");
  if (timestamps) q.add("timestamps", "true");
  if (!since_time.empty()) {
    q.add("sinceTime", since_time);
  } else if (window) {
    if (o.since_seconds) q.add("sinceSeconds", std::to_string(*o.since_seconds));
    if (!o.since_time.empty()) q.add("sinceTime", o.since_time);
  }
  if (window && since_time.empty() && o.tail && *o.tail >= 0) q.add("tailLines", std::to_string(*o.tail));
  return kube::pods().subresource_path(o.ns, o.pod, "log") + q.encode();
}

void read_logs(kube::Client& client, const LogOptions& o, std::ostream& out) {
  kube::Request r;
  r.path = log_path(o, false, o.timestamps, true, "");
  r.accept = "text/plain, */*";
  r.finite = true;
  // Written as it comes, as kubectl logs does: a log is never held whole.
  client.stream_blocks(r, [&out](std::string_view block) {
    if (block.empty()) {
      out.flush();
    } else {
      out.write(block.data(), static_cast<std::streamsize>(block.size()));
    }
    return true;
  });
}

namespace {

// Writes timestamped lines, remembering where it stopped so that a resumed stream (which
// starts again at the last line's second) does not repeat lines. Lines are gathered and
// written out when the stream goes quiet (an empty block), when 256 KiB are waiting, or by
// flush(): a fast stream costs no system call per line, a quiet one holds nothing back.
class LineWriter {
 public:
  LineWriter(std::ostream& out, bool keep_timestamps) : m_out(out), m_resume(keep_timestamps) {}

  const std::optional<TimePoint>& last() const { return m_resume.last(); }
  // Before reading a resumed stream: the lines of the last second written are skipped again.
  void resume() { m_resume.resume(); }

  // Whole lines, each ending in '\n' except perhaps the last; empty: the stream went quiet.
  void block(std::string_view lines) {
    if (lines.empty()) return flush();
    for (size_t start = 0; start < lines.size();) {
      const auto* nl = static_cast<const char*>(std::memchr(lines.data() + start, '\n', lines.size() - start));
      const size_t end = nl ? static_cast<size_t>(nl - lines.data()) : lines.size();
      line(lines.substr(start, end - start));
      start = end + 1;
    }
    if (m_buffer.size() >= kMaxHeld) flush();
  }

  void flush() {
    if (m_buffer.empty()) return;
    m_out.write(m_buffer.data(), static_cast<std::streamsize>(m_buffer.size()));
    m_out.flush();
    m_buffer.clear();
  }

 private:
  void line(std::string_view line) {
    const auto text = m_resume.accept(line);
    if (!text) return;
    m_buffer.append(*text);
    m_buffer += '\n';
  }

  static constexpr size_t kMaxHeld = 256 * 1024;

  std::ostream& m_out;
  LogResume m_resume;
  std::string m_buffer;
};

std::string pod_phase(kube::Client& client, const LogOptions& o) {
  try {
    auto pod = kube::get_object(client, kube::pods(), o.ns, o.pod);
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
  r.finite = !follow;
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
      client.stream_blocks(log_request(o, true, writer), [&](std::string_view lines) {
        writer.block(lines);
        return true;
      });
      writer.flush();
      failures = 0;
    } catch (const TransportError& e) {
      writer.flush();
      log::debug("log stream of {} cut: {}", o.pod, e.what());
      cut = true;
      ++failures;
    } catch (const ApiError& e) {
      writer.flush();
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
        client.stream_blocks(log_request(o, false, writer), [&](std::string_view lines) {
          writer.block(lines);
          return true;
        });
        writer.flush();
      }
      return phase;
    }
    sleep(s.reconnect_delay);
  }
}

}  // namespace trainctl::jobs
