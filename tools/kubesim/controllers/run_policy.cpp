#include "kubesim/controllers/run_policy.h"

#include "kubesim/controllers/pod_status.h"

namespace kubesim {

namespace {
const json& run_policy(const json& job) {
  static const json empty = json::object();
  auto spec = job.find("spec");
  if (spec == job.end() || !spec->is_object()) return empty;
  auto it = spec->find("runPolicy");
  return it != spec->end() && it->is_object() ? *it : empty;
}
}  // namespace

std::string phase_of(const json& pod) { return pod.value("status", json::object()).value("phase", ""); }

void clean_pods(Context& ctx, const json& job, const ObjectList& pods, bool delete_services) {
  const std::string policy = run_policy(job).value("cleanPodPolicy", "None");
  if (policy == "None") return;
  for (const auto& p : pods) {
    const std::string phase = phase_of(*p);
    if (policy == "Running" && phase != "Running" && phase != "Pending" && !phase.empty()) continue;
    try {
      ctx.store.remove(*ctx.pods, meta_ns(*p), meta_name(*p));
    } catch (const StatusError&) {
    }
    if (!delete_services || !ctx.services) continue;
    if (auto svc = ctx.store.get_shared(*ctx.services, meta_ns(*p), meta_name(*p));
        svc && owned_by(*svc, job)) {
      try {
        ctx.store.remove(*ctx.services, meta_ns(*p), meta_name(*p));
      } catch (const StatusError&) {
      }
    }
  }
}

bool apply_ttl(Context& ctx, const ResourceType& rt, const json& job) {
  const json& rp = run_policy(job);
  if (!rp.contains("ttlSecondsAfterFinished")) return false;
  const int64_t ttl = int_or(rp, "ttlSecondsAfterFinished", 0);
  const auto& st = job.value("status", json::object());
  std::string done = st.value("completionTime", "");
  if (done.empty())
    done = trainctl::object::true_since(st.value("conditions", json::array()), {"Succeeded", "Failed"});
  if (done.empty()) return false;
  const TimePoint expiry = parse_time(done) + std::chrono::seconds(ttl);
  if (ctx.now() >= expiry) {
    try {
      ctx.store.remove(rt, meta_ns(job), meta_name(job));
    } catch (const StatusError&) {
    }
    return true;
  }
  ctx.wake_at(ObjectKey{&rt, meta_ns(job), meta_name(job)}, expiry);
  return false;
}

std::optional<std::chrono::milliseconds> deadline_left(Context& ctx, const json& job) {
  const json& rp = run_policy(job);
  if (!rp.contains("activeDeadlineSeconds")) return std::nullopt;
  const std::string start = job.value("status", json::object()).value("startTime", "");
  if (start.empty()) return std::nullopt;
  const TimePoint end = parse_time(start) + std::chrono::seconds(int_or(rp, "activeDeadlineSeconds", 0));
  return std::chrono::duration_cast<std::chrono::milliseconds>(end - ctx.now());
}

int64_t container_restarts(const ObjectList& pods) {
  int64_t n = 0;
  for (const auto& p : pods) {
    const std::string rp = restart_policy(*p);
    if (rp != "OnFailure" && rp != "Always") continue;
    for (const auto& cs : p->value("status", json::object()).value("containerStatuses", json::array()))
      n += cs.value("restartCount", 0);
  }
  return n;
}

}  // namespace kubesim
