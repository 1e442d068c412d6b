// Simulated kubelets: take bound pods through ContainerCreating (and Init:i/n) -> Running ->
// Succeeded/Failed, with container statuses, pod conditions, IPs and container logs.
//
// Outcome (annotation kubesim.trainctl.io/outcome on the pod, else the default):
//   succeed      containers exit 0 after the duration; pod Succeeded. With restartPolicy
//                Always (Deployments) the container keeps running instead.
//   fail         containers exit 1 (reason Error); pod Failed whatever the restartPolicy.
//   crash        containers exit 137 (reason Error); with restartPolicy OnFailure/Always the
//                kubelet restarts them after a back-off (CrashLoopBackOff, restartCount++),
//                with Never the pod is Failed.
//   oom          containers are OOM-killed (exit 137, reason OOMKilled) after the duration;
//                restarted in place as for crash, the pod Failed under Never.
//   evicted      the kubelet evicts the pod for memory pressure after the duration: containers
//                exit 137, pod Failed with reason Evicted, the kubelet's message and a
//                DisruptionTarget condition (TerminationByKubelet), whatever the restartPolicy.
//   run-forever  containers never exit.
// Whatever the outcome, a training container whose job's ranks cannot meet (rendezvous.h)
// waits as its launcher would, then fails with the launcher's error (kubelet_rendezvous.cpp).
// A pod being deleted (deletionTimestamp) stops where it is and is deleted (grace 0) once its
// grace period is over.
// Pods on the host network share their node's ports (kubelet_host_ports.cpp): an sshd that
// finds its port taken by another host-network pod of the node exits 255 at once.
#pragma once

#include <map>
#include <memory>
#include <optional>

#include "kubesim/controllers/controller.h"
#include "kubesim/controllers/rendezvous.h"
#include "kubesim/controllers/training_log.h"

namespace kubesim {

class Kubelet : public Controller {
 public:
  static constexpr TimePoint kNever = TimePoint::max();  // no wake-up planned
  explicit Kubelet(Context& ctx) : Controller(ctx, ctx.pods) {}
  void reconcile(const std::string& ns, const std::string& name) override;

 private:
  enum class Stage { Creating, Running, Rendezvous, BackOff, ImagePull, Done };
  struct Run {
    std::string uid;
    Stage stage = Stage::Creating;
    TimePoint stage_end{};  // when the current stage ends (max = never)
    TimePoint started{};    // container start of the current attempt
    TimePoint next_line{};  // time of the next log line
    size_t lines = 0;       // lines written in this attempt
    size_t total_lines = 0;
    int restarts = 0;
    std::string outcome;
    std::chrono::milliseconds duration{0};
    std::vector<std::string> containers;
    std::vector<std::unique_ptr<TrainingLog>> logs;
    int exit_code = -1;  // set when the launcher gave up its rendezvous, or sshd could not bind
    bool bind_failed = false;  // this attempt's sshd found its host port taken (kubelet_host_ports.cpp)
    std::string node;                     // spec.nodeName
    std::vector<std::string> host_ports;  // host-network pods: the ports their containers bind
    RendezvousVerdict waiting;  // Rendezvous: the last verdict, in force until the next poll
    TimePoint rdzv_since{};     // Rendezvous: when this round's wait began
    TimePoint wait_logged{};    // Rendezvous: when the wait lines were last logged
    // torchrun's elastic agent (c10d): the pods of its last round, the restarts it has left
    // (-1: no elastic agent) and, once its workers were stopped, the training still to do.
    std::vector<std::string> group;
    size_t launcher = 0;  // index of the launcher's container
    int restarts_left = -1;
    int max_restarts = 0;
    std::string role;
    std::optional<std::chrono::milliseconds> remaining;
    // A Trainer pod's script that reports its progress (trainer_status_report.h).
    bool reports_progress = false;
    TimePoint last_report{};
  };

  void begin(const json& pod, Run& run);
  void start_containers(const json& pod, Run& run);
  // kubelet_image_pull.cpp: a container whose image names kImagePullErrorMarker never starts:
  // ErrImagePull first, then ImagePullBackOff, with the kubelet's events. Returns false when
  // every image pulls.
  bool fail_image_pull(const json& pod, Run& run);
  void write_logs(const json& pod, Run& run, TimePoint until);
  // kubelet_progress.cpp: the progress report of a Trainer pod's script, every
  // kTrainerReportInterval while it trains and once when it succeeds (done).
  void report_progress(const json& pod, Run& run, TimePoint at, bool done);
  void finish(const json& pod, Run& run);
  void terminate(const json& pod);
  void crash_restart(const json& pod, Run& run);
  void schedule_wake(const std::string& ns, const std::string& name, const Run& run);
  // kubelet_host_ports.cpp: the port (as sshd prints it) that another running host-network pod
  // of the node already holds, if any; fail_bind makes this attempt exit 255 as sshd does.
  std::optional<std::string> taken_host_port(const json& pod, Run& run) const;
  void fail_bind(Run& run, const std::string& port);
  // kubelet_rendezvous.cpp: the distributed contract, asked when the containers first start
  // and, while the pod waits, at every poll. Return true when the stage changed.
  // `at`: the simulated instant the launcher looks (its container's start, or a poll), not
  // when the kubelet gets round to it: a busy kubesim must not let names resolve that were
  // not yet published at that instant.
  RendezvousVerdict judge_rendezvous_now(const std::string& ns, const std::string& name, TimePoint at);
  bool enter_rendezvous(const std::string& ns, const std::string& name, Run& run);
  bool poll_rendezvous(const std::string& ns, const std::string& name, Run& run, TimePoint now);
  void give_up_rendezvous(const std::string& ns, const std::string& name, Run& run,
                          const RendezvousVerdict& v, TimePoint at);
  // since + wait, or kNever for a launcher that waits forever (kWaitsForever).
  static TimePoint deadline(TimePoint since, std::chrono::milliseconds wait);
  void log_wait(const std::string& ns, const std::string& name, Run& run, const RendezvousVerdict& v, TimePoint at);
  void begin_training(Run& run, TimePoint at);
  void start_members(const std::string& ns, const std::vector<std::string>& members, const std::string& self,
                     TimePoint at);
  // kubelet_elastic.cpp: torchrun's elastic agent on the c10d backend.
  void form_round(const std::string& ns, const RendezvousVerdict& v, const std::string& self, TimePoint at);
  void lose_member(const std::string& ns, const std::string& name);
  void restart_round(const std::string& ns, const std::string& name, Run& run, TimePoint now);
  std::string pod_ip(const std::string& node);

  std::map<std::pair<std::string, std::string>, Run> m_runs;
  std::map<std::string, int> m_ips_per_node;
  std::map<std::string, int> m_node_index;
};

}  // namespace kubesim
