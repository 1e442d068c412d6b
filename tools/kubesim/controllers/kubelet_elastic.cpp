// torchrun's elastic agent on the c10d backend, as the kubelet sees it (kubelet.h). Sources:
// torch/distributed/elastic/agent/server/api.py SimpleElasticAgent._invoke_run: when a worker
// group FAILED (a peer node went away, its collectives broke) the agent logs
// "[ROLE] Worker group FAILED. K/M attempts left; will restart worker group" and restarts its
// workers through a new rendezvous round while it has restarts left (--max-restarts), else
// it stops and torchrun exits with ChildFailedError; a HEALTHY group whose rendezvous has nodes
// waiting logs "[ROLE] Detected N new nodes from group_rank=R; will restart worker group" and
// restarts without counting it ("membership changes do not count as retries").
// torch/distributed/elastic/rendezvous/dynamic_rendezvous.py: the next round completes with
// min_nodes..max_nodes of the nodes that join it; a node that left is no participant of it.
#include <algorithm>

#include "kubesim/controllers/kubelet.h"
#include "kubesim/logs.h"

namespace kubesim {

namespace {

constexpr std::chrono::seconds kRoundPoll{1};

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

void Kubelet::form_round(const std::string& ns, const RendezvousVerdict& v, const std::string& self,
                         TimePoint at) {
  if (v.max_restarts < 0) {  // no elastic agent: the members start together, as they always did
    start_members(ns, v.members, self, at);
    return;
  }
  // Members training in an earlier round see the new nodes and restart their workers.
  for (const auto& member : v.members) {
    auto it = m_runs.find({ns, member});
    if (member == self || it == m_runs.end()) continue;
    Run& r = it->second;
    if (r.stage != Stage::Running || r.group.empty() || r.restarts_left < 0 || r.stage_end <= at) continue;
    size_t fresh = 0;
    for (const auto& m : v.members) fresh += has(r.group, m) ? 0 : 1;
    if (fresh == 0) continue;
    if (auto pod = m_ctx.store.get_shared(*m_ctx.pods, ns, member)) write_logs(*pod, r, at);
    const size_t rank = std::find(r.group.begin(), r.group.end(), member) - r.group.begin();
    m_ctx.logs.append(ns, member, r.containers[r.launcher],
                      "[" + r.role + "] Detected " + std::to_string(fresh) + " new nodes from group_rank=" +
                          std::to_string(rank) + "; will restart worker group",
                      at);
    if (r.outcome != "run-forever")
      r.remaining = std::chrono::duration_cast<std::chrono::milliseconds>(r.stage_end - at);
  }
  for (const auto& member : v.members) {
    auto it = m_runs.find({ns, member});
    if (it != m_runs.end() && member != self && it->second.stage == Stage::Rendezvous)
      it->second.launcher = it->second.waiting.container;
  }
  start_members(ns, v.members, self, at);
  // The round trains from the checkpoint of those that trained before: what the least is left.
  std::optional<std::chrono::milliseconds> left;
  for (const auto& member : v.members) {
    auto it = m_runs.find({ns, member});
    if (it != m_runs.end() && it->second.remaining)
      left = std::min(left.value_or(*it->second.remaining), *it->second.remaining);
  }
  for (const auto& member : v.members) {
    auto it = m_runs.find({ns, member});
    if (it == m_runs.end()) continue;
    Run& r = it->second;
    if (member == self) r.launcher = v.container;
    r.group = v.members;
    if (r.restarts_left < 0) {
      r.restarts_left = r.max_restarts = v.max_restarts;
      r.role = v.role;
    }
    if (left && r.stage == Stage::Running && r.outcome != "run-forever") {
      r.stage_end = at + *left;
      r.next_line = std::max(r.next_line, at);
      if (member != self) m_ctx.wake_at(ObjectKey{m_ctx.pods, ns, member}, at);
    }
    r.remaining.reset();
  }
}

// Pod `name` went away (deleted, evicted): the agents that trained with it restart or fail.
void Kubelet::lose_member(const std::string& ns, const std::string& name) {
  const TimePoint now = m_ctx.now();
  std::vector<std::string> hit;
  // m_runs is ordered by (namespace, name): only the pods of ns can have trained with it.
  for (auto it = m_runs.lower_bound({ns, ""}); it != m_runs.end() && it->first.first == ns; ++it) {
    const auto& key = it->first;
    Run& r = it->second;
    if (key.second == name || r.stage != Stage::Running || r.restarts_left < 0) continue;
    if (!has(r.group, name) || r.stage_end <= now) continue;
    auto pod = m_ctx.store.get_shared(*m_ctx.pods, ns, key.second);
    if (!pod) continue;
    write_logs(*pod, r, now);
    hit.push_back(key.second);
  }
  for (const auto& member : hit) {
    Run& r = m_runs[{ns, member}];
    if (r.outcome != "run-forever")
      r.remaining = std::chrono::duration_cast<std::chrono::milliseconds>(r.stage_end - now);
    r.group.clear();
    if (r.restarts_left == 0) {
      RendezvousVerdict f;
      f.container = r.launcher;
      f.fail_lines = {"Traceback (most recent call last):",
                      "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: "};
      f.reason = "a node of its group went away and it has no restarts left";
      give_up_rendezvous(ns, member, r, f, now);
    } else {
      m_ctx.logs.append(ns, member, r.containers[r.launcher],
                        "[" + r.role + "] Worker group FAILED. " + std::to_string(r.restarts_left) + "/" +
                            std::to_string(r.max_restarts) + " attempts left; will restart worker group",
                        now);
      --r.restarts_left;
      r.stage = Stage::Rendezvous;
      r.stage_end = kNever;
    }
    m_ctx.wake_at(ObjectKey{m_ctx.pods, ns, member}, now);
  }
  for (const auto& member : hit) {
    auto it = m_runs.find({ns, member});
    if (it != m_runs.end() && it->second.stage == Stage::Rendezvous && it->second.stage_end == kNever)
      restart_round(ns, member, it->second, now);
  }
}

// The agent's next round: the group forms now, or the agent waits as in its first round.
void Kubelet::restart_round(const std::string& ns, const std::string& name, Run& run, TimePoint now) {
  using State = RendezvousVerdict::State;
  const RendezvousVerdict v = judge_rendezvous_now(ns, name, now);
  run.rdzv_since = now;
  if (v.state == State::Formed || v.state == State::NotJudged) {
    begin_training(run, now);
    form_round(ns, v, name, now);
    run.remaining.reset();
    return;
  }
  if (v.state == State::Failed) {
    give_up_rendezvous(ns, name, run, v, now);
    return;
  }
  log_wait(ns, name, run, v, now);
  run.waiting = v;
  run.stage_end = deadline(now, v.give_up_after);
  run.next_line = std::min(now + kRoundPoll, run.stage_end);
}

}  // namespace kubesim
