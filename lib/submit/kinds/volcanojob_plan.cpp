// The Volcano kind's part of make_plan: tasks, their labels and policies, the job's policies,
// gang size and queue.
#include <algorithm>
#include <array>
#include <regex>
#include <set>
#include <string_view>

#include "core/errors.h"
#include "submit/kind_part.h"
#include "submit/kinds/volcanojob.h"
#include "submit/parse.h"

namespace trainctl::submit {

namespace {

// Events and actions a user may put in a policy: the ones volcano's admission webhook allows
// (volcano-sh/volcano pkg/webhooks/admission/jobs/validate/util.go, policyEventMap and
// policyActionMap; the names are in staging/src/volcano.sh/apis/pkg/apis/bus/v1alpha1).
constexpr std::array<std::string_view, 8> kEvents = {"*",       "PodFailed",     "PodEvicted", "PodPending",
                                                     "Unknown", "TaskCompleted", "TaskFailed", "JobUpdated"};
constexpr std::array<std::string_view, 8> kActions = {"AbortJob",    "RestartJob",       "RestartTask",
                                                      "RestartPod",  "RestartPartition", "TerminateJob",
                                                      "CompleteJob", "ResumeJob"};

template <size_t N>
std::string joined(const std::array<std::string_view, N>& items) {
  std::string out;
  for (auto i : items) out += (out.empty() ? "" : ", ") + std::string(i);
  return out;
}

template <size_t N>
bool one_of(const std::array<std::string_view, N>& items, const std::string& s) {
  return std::find(items.begin(), items.end(), s) != items.end();
}

Policy parse_policy(const std::string& flag, const std::string& text, const std::string& item) {
  KeyValue kv = parse_key_value(flag, text);
  if (!one_of(kEvents, kv.key))
    throw UsageError("invalid " + flag + " " + dq(item) + ": unknown event " + dq(kv.key) + " (use " +
                     joined(kEvents) + ")");
  if (!one_of(kActions, kv.value))
    throw UsageError("invalid " + flag + " " + dq(item) + ": unknown action " + dq(kv.value) + " (use " +
                     joined(kActions) + ")");
  return {kv.key, kv.value};
}

// The webhook refuses one event twice in a list, and "*" beside any other event.
void check_policies(const std::string& where, const std::vector<Policy>& policies) {
  std::set<std::string> seen;
  for (const auto& p : policies) {
    if (!seen.insert(p.event).second)
      throw UsageError(where + " gives event " + dq(p.event) + " twice: one action per event");
  }
  if (seen.count("*") && seen.size() > 1) throw UsageError(where + ": the event \"*\" must be the only one");
}

// "TASK:REST" -> the task it names and REST.
std::pair<Task*, std::string> for_task(const std::string& flag, const std::string& text,
                                       std::vector<Task>& tasks) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos || colon == 0)
    throw UsageError("invalid " + flag + " " + dq(text) + ": start with the task name, TASK:...");
  const std::string name = text.substr(0, colon);
  auto it = std::find_if(tasks.begin(), tasks.end(), [&](const Task& t) { return t.name == name; });
  if (it == tasks.end()) {
    std::string names;
    for (const auto& t : tasks) names += (names.empty() ? "" : ", ") + t.name;
    throw UsageError("invalid " + flag + " " + dq(text) + ": the job has no task " + dq(name) +
                     " (tasks: " + names + ")");
  }
  return {&*it, text.substr(colon + 1)};
}

}  // namespace

void plan_volcano_tasks(const SubmitOptions& options, Plan& p) {
  const VolcanoOptions& o = kind_part<VolcanoOptions>(options);
  VolcanoPlan& vp = set_kind_part<VolcanoPlan>(p);
  std::vector<Task>& tasks = vp.tasks;
  for (const auto& t : o.tasks) tasks.push_back(parse_task(t));
  for (size_t i = 0; i < o.task_images.size(); ++i)
    tasks.push_back({o.task_name + "-" + std::to_string(i), o.task_replicas, o.task_images[i], {}, {}, {}});
  if (tasks.empty()) {
    if (o.task_replicas < 1) throw UsageError("--task-replicas must be at least 1");
    tasks.push_back({o.task_name, o.task_replicas, {}, {}, {}, {}});
  }
  std::set<std::string> seen;
  for (auto& t : tasks) {
    if (!is_dns1123_label(t.name)) throw UsageError("invalid task name " + dq(t.name));
    if (!seen.insert(t.name).second) throw UsageError("task " + dq(t.name) + " is given twice");
    if (t.image.empty()) t.image = p.image;
    if (t.image.empty())
      throw UsageError("task " + dq(t.name) + " has no image: give --image or NAME:REPLICAS:IMAGE in --task");
    if (t.command.empty()) t.command = p.command;
  }
  for (const auto& text : o.task_labels) {
    auto [task, rest] = for_task("--task-label", text, tasks);
    KeyValue kv = parse_key_value("--task-label", rest);
    if (!is_label_key(kv.key) || !is_label_value(kv.value))
      throw UsageError("invalid --task-label " + dq(text) +
                       ": use TASK:KEY=VALUE with a label key and value");
    check_owned_labels("--task-label", {kv}, p);
    auto it = std::find_if(task->labels.begin(), task->labels.end(),
                           [&](const KeyValue& l) { return l.key == kv.key; });
    if (it != task->labels.end())
      it->value = kv.value;
    else
      task->labels.push_back(kv);
  }
  for (const auto& text : o.task_policies) {
    auto [task, rest] = for_task("--task-policy", text, tasks);
    task->policies.push_back(parse_policy("--task-policy", rest, text));
  }
  for (const auto& t : tasks) check_policies("--task-policy for task " + dq(t.name), t.policies);
  // Seed 003: a pserver or trainer that fails or is evicted breaks the cluster they form, so
  // the whole job restarts; --policy replaces that.
  if (o.policies.empty()) {
    vp.policies = {{"PodEvicted", "RestartJob"}, {"PodFailed", "RestartJob"}};
  } else {
    for (const auto& text : o.policies) vp.policies.push_back(parse_policy("--policy", text, text));
    check_policies("--policy", vp.policies);
  }

  int sum = 0;
  for (const auto& t : tasks) sum += t.replicas;
  p.expected_pods = sum;
  p.min_available_given = options.min_available > 0;
  p.min_available = options.min_available > 0 ? options.min_available : sum;
  if (p.min_available > sum)
    throw UsageError("--min-available " + std::to_string(p.min_available) + " is more than the " +
                     std::to_string(sum) + " pods of the job's tasks");
  p.queue = options.queue.empty() ? "default" : options.queue;
  p.scheduler = !o.scheduler_name.empty() ? o.scheduler_name
                                          : (!options.scheduler.empty() ? options.scheduler : "volcano");
  vp.task_port = o.task_port;
  if (o.task_port < 0 || o.task_port > 65535) throw UsageError("--task-port must be between 1 and 65535");
}

Task parse_task(const std::string& text) {
  static const std::regex head("([^:]+):([0-9]+)(:(.*))?", std::regex::extended);
  static const std::regex tag_re("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}(@sha256)?");
  static const std::regex port_path_re("[0-9]+/.*");
  std::smatch m;
  if (!std::regex_match(text, m, head))
    throw UsageError("invalid --task " + dq(text) + ": use NAME:REPLICAS[:IMAGE[:COMMAND]]");
  Task t;
  t.name = m[1].str();
  if (!is_dns1123_label(t.name))
    throw UsageError("invalid --task " + dq(text) + ": the task name " + dq(t.name) +
                     " must be lower-case letters, digits and '-'");
  try {
    t.replicas = std::stoi(m[2].str());
  } catch (const std::exception&) {
    t.replicas = -1;
  }
  if (t.replicas < 1) throw UsageError("invalid --task " + dq(text) + ": REPLICAS must be at least 1");
  if (!m[3].matched) return t;
  // Split IMAGE from COMMAND: the image takes a registry port (":5000/..."), one tag and a
  // digest; the first ':' after that starts the command.
  std::string rest = m[4].str();
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t pos; (pos = rest.find(':', start)) != std::string::npos; start = pos + 1)
    parts.push_back(rest.substr(start, pos - start));
  parts.push_back(rest.substr(start));
  std::string image = parts[0];
  size_t i = 1;
  if (i < parts.size() && image.find('/') == std::string::npos && std::regex_match(parts[i], port_path_re))
    image += ":" + parts[i++];
  bool digest = image.size() > 7 && image.compare(image.size() - 7, 7, "@sha256") == 0;
  if (!digest && i < parts.size() && std::regex_match(parts[i], tag_re)) {
    image += ":" + parts[i++];
    digest = image.find("@sha256") != std::string::npos;
  }
  if (digest && i < parts.size()) image += ":" + parts[i++];
  t.image = image;
  for (size_t j = i; j < parts.size(); ++j) t.command += (j > i ? ":" : "") + parts[j];
  if (t.image.empty()) throw UsageError("invalid --task " + dq(text) + ": the image is empty");
  return t;
}

}  // namespace trainctl::submit
