#include "submit/wait.h"

#include <exception>
#include <map>
#include <thread>

#include "core/errors.h"
#include "core/log.h"
#include "jobs/status_rules.h"
#include "jobs/diagnose/unschedulable.h"
#include "kube/answer_shape.h"
#include "kube/restart_backoff.h"
#include "kube/watch.h"

namespace trainctl::submit {

using jobs::JobStatus;
using nlohmann::json;

namespace {

// What a watch handler makes of one object: watch on, end the wait with the job's status, or
// stop the stream so that the caller can ask the job itself, then watch on.
struct Step {
  enum Next { Continue, Done, Recheck };
  Next next = Continue;
  JobStatus status = JobStatus::Pending;  // with Done

  static Step go_on() { return {}; }
  static Step done(JobStatus s) { return {Done, s}; }
  static Step recheck() { return {Recheck}; }
};

using ObjectHandler = std::function<Step(const std::string& type, const json& object)>;

class Watcher {
 public:
  Watcher(kube::Client& client, const WaitOptions& o) : m_client(client), m_options(o), m_backoff(o.backoff) {
    if (o.timeout) m_deadline = o.clock() + *o.timeout;
  }

  // Lists `path` (with `query`), then watches it from the list's resourceVersion, calling
  // on_object for every object seen until it returns Done or Recheck, which run returns
  // (on_list first, for each list: a list replaces what was known). With `resume`, a run that
  // follows one ended by Recheck skips the list and watches on from the version of the last
  // event seen (the caller keeps what it learnt from the objects).
  // As client-go's reflector (tools/cache/reflector.go): BOOKMARK events only move the
  // resourceVersion on; an ERROR event whose Status is 410 Expired (or an answer 410 to the
  // watch request) means the version is gone: list again, then watch from the new list's.
  // A watch that ended after events is opened again at once; one that ended without an event
  // (a proxy closing idle streams), was cut or ended in an error waits the backoff of
  // kube/restart_backoff.h first (never past the timeout).
  Step run(const std::string& path, const std::string& query, const std::function<void()>& on_list,
           const ObjectHandler& on_object, bool resume = false) {
    std::string& rv = m_rv;
    try {
      for (;;) {
        if (!resume || rv.empty()) {
          json list = kube::get_list(m_client, path + "?" + query, "");
          rv = list.contains("metadata") ? list["metadata"].value("resourceVersion", "") : "";
          if (on_list) on_list();
          if (list.contains("items"))
            for (const auto& item : list["items"])
              if (Step step = on_object("ADDED", item); step.next != Step::Continue) return step;
        }
        resume = false;
        bool relist = false;
        while (!relist) {
          long secs = 300;
          if (m_deadline) {
            auto left =
                std::chrono::duration_cast<std::chrono::seconds>(*m_deadline - m_options.clock()).count();
            if (left <= 0) throw Error("timed out waiting for the job", ExitCode::Timeout);
            secs = std::min<long>(secs, left);
          }
          std::exception_ptr outcome;
          std::optional<Step> stopped;    // what ended the stream, when on_object did
          std::optional<ApiError> ended;  // the error the watch ended with
          bool cut = false;               // the connection was lost
          kube::Request r;
          r.path = path + "?" + query +
                   "&watch=true&allowWatchBookmarks=true&timeoutSeconds=" + std::to_string(secs) +
                   (rv.empty() ? "" : "&resourceVersion=" + rv);
          bool got_line = false;
          size_t events = 0;  // ADDED, MODIFIED and DELETED events of this watch
          try {
            m_client.stream(r, [&](std::string_view line) {
              got_line = true;
              // Nothing is thrown through the client's stream: an exception is kept and
              // rethrown once the stream has returned.
              try {
                auto ev = kube::parse_watch_event(line);
                if (!ev) return true;
                if (ev->type == "ERROR") {
                  ended = kube::watch_error(ev->object);
                  return false;
                }
                m_errors = 0;
                if (!ev->resource_version.empty()) rv = ev->resource_version;
                if (ev->type == "BOOKMARK") return true;
                ++events;
                if (Step step = on_object(ev->type, ev->object); step.next != Step::Continue) {
                  stopped = step;
                  return false;
                }
              } catch (...) {
                outcome = std::current_exception();
                return false;
              }
              return true;
            });
          } catch (const ApiError& e) {
            // A server (or proxy) that refuses the watch request itself with 410.
            if (!kube::is_expired(e)) throw;
            ended = e;
          } catch (const TransportError&) {
            // The watch was cut (proxy, server restart): resume from the last resourceVersion
            // seen. A watch that failed before any line was retried by the client already.
            if (outcome || stopped || !got_line || ++m_cuts > k_max_cuts) throw;
            cut = true;
          }
          if (outcome) std::rethrow_exception(outcome);
          if (stopped) return *stopped;
          if (events > 0) m_backoff.reset();
          if (ended) {
            if (++m_errors > k_max_errors)
              throw Error("cannot follow the job: its watch keeps failing (" + std::string(ended->what()) +
                          ")");
            if (kube::is_expired(*ended))
              log::debug("watch of {}: {} (410 {}); listing again to watch from a newer resourceVersion",
                         path, ended->what(), ended->reason());
            else
              log::debug("watch of {} ended with an error: {}; listing again", path, ended->what());
            relist = true;
          }
          if (ended || cut || events == 0)
            back_off(path, ended ? "ended with an error" : cut ? "was cut" : "ended without an event");
          if (m_deadline && m_options.clock() >= *m_deadline)
            throw Error("timed out waiting for the job", ExitCode::Timeout);
        }
      }
    } catch (const json::exception& e) {  // a list or watch event of an unexpected shape
      throw Error(std::string("cannot follow the job: the server sent an object of an unexpected shape (") +
                  e.what() + ")");
    }
  }

  // Waits before the next watch or list (never past the deadline, which the caller checks).
  void back_off(const std::string& path, const char* why) {
    auto wait = m_backoff.next();
    if (m_deadline) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(*m_deadline - m_options.clock());
      wait = std::max(std::chrono::milliseconds(0), std::min(wait, left));
    }
    log::debug("watch of {} {}; watching again in {} ms", path, why, wait.count());
    if (m_options.sleep)
      m_options.sleep(wait);
    else
      std::this_thread::sleep_for(wait);
  }

  void status(const std::string& line) {
    if (line != m_last && m_options.on_status) m_options.on_status(line);
    m_last = line;
  }

 private:
  static constexpr int k_max_cuts = 100;
  // ERROR events (or 410 answers) in a row, without an event between, before giving up.
  static constexpr int k_max_errors = 10;
  int m_cuts = 0;
  int m_errors = 0;
  kube::Client& m_client;
  const WaitOptions& m_options;
  kube::RestartBackoff m_backoff;
  std::optional<std::chrono::system_clock::time_point> m_deadline;
  std::string m_last;
  std::string m_rv;  // resourceVersion of the last list or event seen
};

// Watches the job's pods until `expected_pods` of them run (Done with RUNNING) or one ends
// (Recheck: the job may have ended with it).
Step watch_pods(Watcher& w, const std::string& ns, const std::string& selector,
                std::map<std::string, std::string>& phases, const WaitOptions& o, const std::string& what,
                bool resume) {
  return w.run(
      kube::pods().collection_path(ns), "labelSelector=" + kube::url_encode(selector),
      [&] { phases.clear(); },
      [&](const std::string& type, const json& pod) {
        const std::string pod_name = pod.contains("metadata") ? pod["metadata"].value("name", "") : "";
        const std::string phase =
            pod.contains("status") ? pod["status"].value("phase", "Pending") : "Pending";
        const std::string before = phases.count(pod_name) ? phases[pod_name] : "";
        if (type == "DELETED") {
          phases.erase(pod_name);
        } else {
          phases[pod_name] = phase;
        }
        int running = 0;
        for (const auto& [n, ph] : phases) running += ph == "Running" ? 1 : 0;
        w.status(what + ": " + std::to_string(running) + "/" + std::to_string(o.expected_pods) +
                 " pods running");
        if (running >= o.expected_pods) return Step::done(JobStatus::Running);
        if ((phase == "Failed" || phase == "Succeeded") && phase != before) return Step::recheck();
        return Step::go_on();
      },
      resume);
}

// The selector of the job's pods. A kind whose operator labels its pods one way in every
// release it supports is followed by its own pod selector (JobKind::pod_selector: jobset-name,
// volcano.sh/job-name, ...), as get finds them; TensorBoard's pods do not carry it. A kind
// whose older releases label them otherwise (JobKind::legacy_pod_selector: training-operator
// v1.3, pytorch-operator; jobs/legacy_pods.h) has no one selector of the operator's for all of
// them, so its pods are followed by the labels trainctl rendered on them, Arena's app and
// release, which every release copies from the pod template, TensorBoard's left out.
std::string pods_of(const jobs::JobKind& kind, const std::string& name) {
  if (kind.legacy_pod_selector.empty()) return kind.pod_selector(name);
  return "app=" + kind.type + ",release=" + name + ",role!=tensorboard";
}

}  // namespace

JobStatus wait_for_job(kube::Client& client, const jobs::JobKind& kind, const std::string& ns,
                       const std::string& name, const WaitOptions& o) {
  Watcher w(client, o);
  const std::string what = "job " + name;
  // The wait ends when the job has finished: FAILED is the wait's error (no status line is
  // printed for it), SUCCEEDED its result.
  auto finished = [&](JobStatus s) {
    if (s == JobStatus::Failed) throw Error(what + " failed", ExitCode::JobFailed);
    if (s == JobStatus::Succeeded) w.status(what + ": SUCCEEDED");
    return s == JobStatus::Succeeded;
  };
  try {
    if (o.until_finished) {
      const Step end = w.run(kind.resource.collection_path(ns),
                             "fieldSelector=" + kube::url_encode("metadata.name=" + name), nullptr,
                             [&](const std::string& type, const json& job) {
                               if (type == "DELETED")
                                 throw Error(what + " was deleted", ExitCode::JobDeleted);
                               const JobStatus s = jobs::object_status(kind, job);
                               if (o.on_job_status) o.on_job_status(s);
                               if (jobs::is_finished(s)) return Step::done(s);
                               if (o.until_job_running && s == JobStatus::Running) {
                                 w.status(what + ": RUNNING");
                                 return Step::done(s);
                               }
                               w.status(what + ": " + jobs::status_name(s));
                               return Step::go_on();
                             });
      if (end.status != JobStatus::Running) finished(end.status);
      return end.status;
    }
    std::map<std::string, std::string> phases;  // pod name -> phase
    const std::string selector = pods_of(kind, name);
    for (bool resume = false;; resume = true) {
      const Step step = watch_pods(w, ns, selector, phases, o, what, resume);
      if (step.next == Step::Done) return step.status;
      // A pod ended: ask the job whether it failed or finished (outside the stream), then
      // watch on from that pod's event, without listing the pods again.
      json job;
      try {
        job = kube::get_object(client, kind.resource, ns, name);
      } catch (const ApiError& e) {
        if (e.is_not_found()) throw Error(what + " was deleted", ExitCode::JobDeleted);
        throw;
      }
      const JobStatus s = jobs::object_status(kind, job);
      if (o.on_job_status) o.on_job_status(s);
      if (finished(s)) return s;
    }
  } catch (const Error& e) {
    if (e.code() == ExitCode::Timeout) {
      std::string secs = o.timeout ? std::to_string(o.timeout->count()) + "s" : "";
      if (auto why = jobs::unschedulable_message(client, kind, ns, name))
        throw Error(
            "timed out after " + secs + " waiting for " + what + ": it cannot be scheduled (" + *why + ")",
            ExitCode::Unschedulable);
      throw Error(
          "timed out after " + secs + " waiting for " + what + (o.until_finished ? " to finish" : " to run"),
          ExitCode::Timeout);
    }
    throw;
  }
}

namespace {

// The result of the error a wait ended with; "" for an error that is not an outcome of the job
// (server, transport), which is reported as it is.
std::string result_of(ExitCode code) {
  switch (code) {
    case ExitCode::JobFailed:
      return "failed";
    case ExitCode::Timeout:
      return "timeout";
    case ExitCode::Unschedulable:
      return "unschedulable";
    case ExitCode::JobDeleted:
      return "deleted";
    default:
      return "";
  }
}

}  // namespace

WaitOutcome wait_outcome(kube::Client& client, const jobs::JobKind& kind, const std::string& ns,
                         const std::string& name, WaitOptions options) {
  WaitOutcome out;
  auto given = std::move(options.on_job_status);
  options.on_job_status = [&out, &given](JobStatus s) {
    out.status = s;
    if (given) given(s);
  };
  try {
    const auto s = wait_for_job(client, kind, ns, name, options);
    out.result = s == JobStatus::Succeeded ? "succeeded" : "running";
  } catch (const Error& e) {
    out.result = result_of(e.code());
    if (out.result.empty()) throw;
    if (e.code() == ExitCode::JobDeleted) out.status.reset();
    out.error = std::current_exception();
  }
  return out;
}

}  // namespace trainctl::submit
