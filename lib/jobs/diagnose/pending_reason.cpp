#include "jobs/diagnose/pending_reason.h"

#include <algorithm>
#include <tuple>

#include "jobs/gpu.h"
#include "jobs/json_util.h"
#include "jobs/pod_status.h"

namespace trainctl::jobs {

using nlohmann::json;

nlohmann::ordered_json PendingReason::to_json() const {
  nlohmann::ordered_json j;
  j["reason"] = reason;
  j["message"] = message;
  j["details"] = details;
  return j;
}

bool pod_unscheduled(const json& pod) { return str(at(pod, "spec"), "nodeName").empty() && !pod_completed(pod); }

namespace {

// Newest first by lastTimestamp, eventTime, then creationTimestamp (RFC 3339 strings sort by time).
std::string event_time(const json& e) {
  for (const char* k : {"lastTimestamp", "eventTime"})
    if (!str(e, k).empty()) return str(e, k);
  return str(at(e, "metadata"), "creationTimestamp");
}

std::string plural(long long n, const std::string& one) {
  return std::to_string(n) + " " + one + (n == 1 ? "" : "s");
}

std::string unit(const std::string& resource, long long n) {
  if (resource == "nvidia.com/gpu" || resource == "aliyun.com/gpu") return n == 1 ? "GPU" : "GPUs";
  return resource;
}

}  // namespace

PendingReason quota_refusal(const std::vector<json>& events) {
  PendingReason r;
  std::string newest;
  for (const auto& e : events) {
    const std::string msg = str(e, "message");
    const size_t at_quota = msg.find("exceeded quota: ");
    if (at_quota == std::string::npos || event_time(e) < newest) continue;
    newest = event_time(e);
    r.reason = "ExceededQuota";
    std::string text = msg.substr(at_quota);
    if (!text.empty() && text.back() == ']') text.pop_back();  // Volcano's list of errors
    r.message = "pods are refused: " + text;
  }
  return r;
}

PendingReason image_pull_failure(const std::vector<json>& pods) {
  PendingReason r;
  std::map<std::string, long long> by_message;  // "image: message" -> pods
  for (const auto& p : pods) {
    for (const auto& cs : at_path(p, {"status", "containerStatuses"})) {
      const auto& waiting = at_path(cs, {"state", "waiting"});
      const std::string reason = str(waiting, "reason");
      if (reason != "ErrImagePull" && reason != "ImagePullBackOff" && reason != "InvalidImageName") continue;
      if (r.reason.empty() || reason == "ImagePullBackOff") r.reason = reason;
      ++by_message["image \"" + str(cs, "image") + "\": " + str(waiting, "message")];
      break;
    }
  }
  for (const auto& [m, n] : by_message) {
    const std::string line = plural(n, "pod") + " cannot pull " + m;
    if (r.message.empty())
      r.message = line;
    else
      r.details.push_back(line);
  }
  return r;
}

PendingReason scheduling_failure(const std::vector<json>& pods, const std::vector<json>& events) {
  std::map<std::string, std::pair<std::string, std::string>> latest;  // pod -> (time, message)
  for (const auto& e : events) {
    if (str(e, "reason") != "FailedScheduling") continue;
    const std::string pod = str(at(e, "involvedObject"), "name");
    auto& l = latest[pod];
    if (event_time(e) >= l.first) l = {event_time(e), str(e, "message")};
  }
  std::map<std::string, std::vector<std::string>> by_message;  // message -> pods
  for (const auto& p : pods) {
    if (!pod_unscheduled(p)) continue;
    std::string msg;
    auto it = latest.find(name_of(p));
    if (it != latest.end()) msg = it->second.second;
    if (msg.empty()) {
      const auto& c = condition(p, "PodScheduled");
      if (str(c, "status") == "False") msg = str(c, "message");
    }
    if (!msg.empty()) by_message[msg].push_back(name_of(p));
  }
  std::vector<std::pair<std::string, std::vector<std::string>>> groups(by_message.begin(), by_message.end());
  std::stable_sort(groups.begin(), groups.end(),
                   [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  PendingReason r;
  for (const auto& [msg, names] : groups) {
    const std::string line =
        (names.size() == 1 ? "pod " + names.front() : plural(names.size(), "pod")) + ": " + msg;
    if (r.reason.empty()) {
      r.reason = "Unschedulable";
      r.message = line;
    } else {
      r.details.push_back(line);
    }
  }
  return r;
}

PendingReason gang_unschedulable(const std::vector<json>& pod_groups) {
  PendingReason r;
  for (const auto& pg : pod_groups) {
    const std::string phase = str(at(pg, "status"), "phase");
    const long long min = parse_count(at_path(pg, {"spec", "minMember"}));
    if (phase == "Running" || phase == "Completed") continue;
    for (const auto& c : at_path(pg, {"status", "conditions"})) {
      if (str(c, "type") != "Unschedulable" || str(c, "status") != "True") continue;
      r.reason = "GangUnschedulable";
      r.message = "PodGroup " + name_of(pg) + " (" + (phase.empty() ? "Pending" : phase) + ", minMember " +
                  std::to_string(min) + "): " + str(c, "message");
      return r;
    }
    if (phase == "Pending") {
      r.reason = "PodGroupPending";
      r.message = "PodGroup " + name_of(pg) + " is Pending, not Inqueue: queue " +
                  str(at(pg, "spec"), "queue") + " has not admitted its " + plural(min, "pod") +
                  " (minResources beyond the queue's room, or the queue is closed)";
    }
  }
  return r;
}

std::vector<std::string> fit_check(const std::vector<json>& pods, const std::vector<NodeRoom>& nodes) {
  NodeChoices choices(nodes);
  // (resource, per pod, the pod's placement key) -> pods
  std::map<std::tuple<std::string, long long, std::string>, long long> wanted;
  for (const auto& p : pods) {
    if (!pod_unscheduled(p)) continue;
    const auto requests = pod_extended_requests(p);
    if (requests.empty()) continue;
    const std::string placement = choices.of(p);
    for (const auto& [k, v] : requests) ++wanted[{k, v, placement}];
  }
  std::vector<std::string> lines;
  auto offered = [&nodes](const std::string& res) {
    return std::any_of(nodes.begin(), nodes.end(),
                       [&](const NodeRoom& n) { return n.allocatable.count(res) > 0; });
  };
  for (const auto& [key, n] : wanted) {
    const auto& [res, count, placement] = key;
    const NodeChoice* choice = &choices.at(placement);
    const std::string who = n == 1 ? "needs " : plural(n, "pod") + " need ";
    if (!offered(res)) {
      std::string line =
          who + std::to_string(count) + " × " + res + (n == 1 ? "" : " each") + "; no node offers " + res;
      if (res == "aliyun.com/gpu" && offered("nvidia.com/gpu"))
        line += " — did you mean --gpus without --gputopology?";
      lines.push_back(line);
      continue;
    }
    const std::string need = who + std::to_string(count) + " " + unit(res, count) + " on one node";
    if (std::none_of(choice->may.begin(), choice->may.end(), [](bool b) { return b; })) {
      lines.push_back(need + "; no node may take " + (n == 1 ? "it" : "them") + ": " +
                      choice->refusal_text());
      continue;
    }
    long long most_alloc = 0, most_free = 0;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (!choice->may[i]) continue;
      auto a = nodes[i].allocatable.find(res);
      auto f = nodes[i].free.find(res);
      if (a != nodes[i].allocatable.end()) most_alloc = std::max(most_alloc, a->second);
      if (f != nodes[i].free.end()) most_free = std::max(most_free, f->second);
    }
    if (most_alloc < count)
      lines.push_back(need + ", the largest schedulable node has " + std::to_string(most_alloc));
    else if (most_free < count)
      lines.push_back(need + ", the most free on any node is " + std::to_string(most_free));
  }
  return lines;
}

long long placeable_pods(const std::vector<json>& pods, const std::vector<NodeRoom>& nodes) {
  NodeChoices choices(nodes);
  std::vector<std::pair<std::map<std::string, long long>, std::string>> asks;  // requests, placement
  for (const auto& p : pods)
    if (pod_unscheduled(p)) asks.emplace_back(pod_extended_requests(p), choices.of(p));
  auto total = [](const std::map<std::string, long long>& m) {
    long long t = 0;
    for (const auto& [k, v] : m) t += v;
    return t;
  };
  std::stable_sort(asks.begin(), asks.end(),
                   [&](const auto& a, const auto& b) { return total(a.first) > total(b.first); });
  std::vector<std::map<std::string, long long>> room;
  for (const auto& n : nodes) room.push_back(n.free);
  long long placed = 0;
  for (const auto& [ask, placement] : asks) {
    const NodeChoice& choice = choices.at(placement);
    for (size_t i = 0; i < room.size(); ++i) {
      if (!choice.may[i]) continue;
      auto& r = room[i];
      const bool fits =
          std::all_of(ask.begin(), ask.end(), [&](const auto& kv) { return r[kv.first] >= kv.second; });
      if (!fits) continue;
      for (const auto& [k, v] : ask) r[k] -= v;
      ++placed;
      break;
    }
  }
  return placed;
}

PendingReason diagnose_pending(const PendingFacts& f) {
  const PendingReason quota = quota_refusal(f.events);
  const PendingReason pull = image_pull_failure(f.pods);
  const PendingReason gang = gang_unschedulable(f.pod_groups);
  const PendingReason sched = scheduling_failure(f.pods, f.events);
  const std::vector<std::string> fit = f.nodes_read ? fit_check(f.pods, f.nodes) : std::vector<std::string>{};
  PendingReason r;
  bool first = true;
  auto add = [&](const PendingReason& d) {
    if (d.empty()) return;
    if (first) {
      r.reason = d.reason;
      r.message = d.message;
      first = false;
    } else {
      r.details.push_back(d.message);
    }
    r.details.insert(r.details.end(), d.details.begin(), d.details.end());
  };
  const bool gang_first = gang.reason == "GangUnschedulable";
  add(quota);
  add(pull);
  if (gang_first) add(gang);
  add(sched);
  if (!gang_first) add(gang);
  for (const auto& line : fit) add(PendingReason{"Unschedulable", line, {}});
  for (const auto& pg : f.pod_groups) {
    const long long min = parse_count(at_path(pg, {"spec", "minMember"}));
    if (min <= 1 || !f.nodes_read || f.nodes.empty() || r.empty()) continue;
    long long scheduled = 0, waiting = 0;
    for (const auto& p : f.pods) (pod_unscheduled(p) ? waiting : scheduled) += 1;
    if (waiting == 0) continue;
    const long long can = scheduled + placeable_pods(f.pods, f.nodes);
    if (can < min)
      r.details.push_back("the gang needs " + std::to_string(min) +
                          " pods at once; the nodes' free GPUs can place " + std::to_string(can));
  }
  if (!r.empty() && !f.unread.empty()) {
    std::string line = "not read:";
    for (size_t i = 0; i < f.unread.size(); ++i) line += (i ? ", " : " ") + f.unread[i];
    r.details.push_back(line);
  }
  return r;
}

std::string pod_pending_reason(const PodStatusFacts& pod) {
  for (const auto& cs : pod.statuses) {
    const std::string& reason = cs.waiting_reason;
    if (reason == "ErrImagePull" || reason == "ImagePullBackOff" || reason == "InvalidImageName")
      return reason;
  }
  if (pod.scheduled_status == "False" && pod.scheduled_reason == "Unschedulable") return "Unschedulable";
  return "";
}

std::string pod_pending_reason(const json& pod) { return pod_pending_reason(pod_status_facts(pod)); }

std::string event_pending_reason(const json& event) {
  if (str(event, "message").find("exceeded quota: ") != std::string::npos) return "ExceededQuota";
  if (str(event, "reason") == "Unschedulable" && str(at(event, "involvedObject"), "kind") == "PodGroup")
    return "GangUnschedulable";
  return "";
}

}  // namespace trainctl::jobs
