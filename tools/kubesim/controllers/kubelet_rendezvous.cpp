// The kubelet's side of the distributed contract (rendezvous.h). When a pod's containers
// first start, the kubelet asks whether its job's ranks meet. Formed (or not judged): the
// containers run as before. Waiting: the pod stays Running without training, logs what the
// launcher logs while it retries, asks again every simulated second (as torch's connect loop
// and store polls do), starts training the moment the group forms (waking the other members
// so that they start together), and fails with the launcher's error and exit code when the
// launcher's timeout passes. Failed: the container exits at once with the launcher's error.
#include "core/log.h"
#include "kubesim/controllers/kubelet.h"
#include "kubesim/logs.h"

namespace kubesim {

namespace {

constexpr std::chrono::seconds kPoll{1};

}  // namespace

RendezvousVerdict Kubelet::judge_rendezvous_now(const std::string& ns, const std::string& name, TimePoint at) {
  auto pod = m_ctx.store.get_shared(*m_ctx.pods, ns, name);
  if (!pod || !runs_judged_launcher(*pod)) return {};
  RendezvousInput in;
  in.pod = pod.get();
  in.pods = m_ctx.store.list(*m_ctx.pods, ns).items;
  if (m_ctx.services) in.services = m_ctx.store.list(*m_ctx.services, ns).items;
  if (m_ctx.configmaps)
    for (const auto& vol : pod->value("spec", json::object()).value("volumes", json::array()))
      if (vol.contains("configMap") && vol["configMap"].is_object()) {
        const std::string cm = vol["configMap"].value("name", "");
        if (auto obj = m_ctx.store.get_shared(*m_ctx.configmaps, ns, cm))
          in.config_maps[cm] = obj->value("data", json::object());
      }
  in.now = at;
  in.timeout = m_ctx.options.rendezvous_timeout;
  return judge_rendezvous(in);
}

bool Kubelet::enter_rendezvous(const std::string& ns, const std::string& name, Run& run) {
  const RendezvousVerdict v = judge_rendezvous_now(ns, name, run.started);
  using State = RendezvousVerdict::State;
  run.rdzv_since = run.started;
  if (v.state == State::Formed) form_round(ns, v, name, run.started);
  if (v.state == State::NotJudged || v.state == State::Formed) return false;
  if (v.state == State::Failed) {
    give_up_rendezvous(ns, name, run, v, run.started);
    return true;
  }
  run.wait_logged = run.started;
  if (v.log_every.count() == 0) log_wait(ns, name, run, v, run.started);
  trainctl::log::debug("kubesim: {}/{} waits for its rendezvous: {}", ns, name, v.reason);
  run.stage = Stage::Rendezvous;
  run.stage_end = deadline(run.started, v.give_up_after);
  run.next_line = std::min(m_ctx.now() + kPoll, run.stage_end);
  run.waiting = v;
  return true;
}

bool Kubelet::poll_rendezvous(const std::string& ns, const std::string& name, Run& run, TimePoint now) {
  if (now < run.next_line && now < run.stage_end) return false;
  using State = RendezvousVerdict::State;
  // The launcher's timeout fires at its deadline on what it has been waiting for until then
  // (torch's SocketConnectOp and TCPStore::waitForWorkers check their deadline before the next
  // try): a peer that gives up at the same instant does not change this rank's error.
  if (now >= run.stage_end) {
    give_up_rendezvous(ns, name, run, run.waiting, run.stage_end);
    return true;
  }
  const RendezvousVerdict v = judge_rendezvous_now(ns, name, now);
  if (v.state == State::Formed || v.state == State::NotJudged) {
    begin_training(run, now);
    form_round(ns, v, name, now);
    return true;
  }
  const TimePoint end = deadline(run.rdzv_since, v.give_up_after);
  if (v.state == State::Failed || now >= end) {
    give_up_rendezvous(ns, name, run, v, v.state == State::Failed ? now : end);
    return true;
  }
  // What the launcher meets changed (the name now resolves, nothing listens yet...): it logs
  // the new message as it retries (torch/csrc/distributed/c10d/socket.cpp SocketConnectOp).
  // TensorFlow logs what it still waits for every 10 s (master.cc kLoggingPeriodMs).
  if (v.log_every.count() > 0) {
    if (now >= run.wait_logged + v.log_every) log_wait(ns, name, run, v, run.wait_logged + v.log_every);
  } else if (v.wait_lines != run.waiting.wait_lines) {
    log_wait(ns, name, run, v, now);
  }
  run.waiting = v;
  run.stage_end = end;
  run.next_line = std::min(now + kPoll, end);
  return false;
}

TimePoint Kubelet::deadline(TimePoint since, std::chrono::milliseconds wait) {
  return wait == kWaitsForever ? kNever : since + wait;
}

void Kubelet::log_wait(const std::string& ns, const std::string& name, Run& run, const RendezvousVerdict& v,
                       TimePoint at) {
  for (const auto& l : v.wait_lines) m_ctx.logs.append(ns, name, run.containers[v.container], l, at);
  run.wait_logged = at;
}

void Kubelet::begin_training(Run& run, TimePoint at) {
  // Training starts now, for the whole duration.
  run.stage = Stage::Running;
  run.next_line = at;
  // After a restart of torchrun's workers, the script resumes from its checkpoint.
  run.stage_end = run.outcome == "run-forever" ? kNever : at + run.remaining.value_or(run.duration);
}

void Kubelet::start_members(const std::string& ns, const std::vector<std::string>& members, const std::string& self,
                            TimePoint at) {
  // The group formed: every member still waiting starts with this one.
  for (const auto& member : members) {
    if (member == self) continue;
    auto it = m_runs.find({ns, member});
    if (it == m_runs.end() || it->second.stage != Stage::Rendezvous) continue;
    begin_training(it->second, at);
    m_ctx.wake_at(ObjectKey{m_ctx.pods, ns, member}, at);
  }
}

void Kubelet::give_up_rendezvous(const std::string& ns, const std::string& name, Run& run,
                                 const RendezvousVerdict& v, TimePoint at) {
  trainctl::log::debug("kubesim: {}/{} gives up its rendezvous: {}", ns, name, v.reason);
  if (v.container < run.logs.size()) run.logs[v.container]->set_final_lines(v.fail_lines);
  run.exit_code = v.exit_code;
  run.outcome = "fail";  // exits whatever the restart policy, as the fail outcome does
  run.stage = Stage::Running;
  run.stage_end = at;
  run.next_line = kNever;
}

}  // namespace kubesim
