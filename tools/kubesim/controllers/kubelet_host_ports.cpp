// Pods on the host network share their node's network namespace, so two of them on one node
// that listen on the same port cannot both bind it. Nothing upstream stops them earlier:
// the scheduler's NodePorts filter and the kubelet's admission (lifecycle/predicate.go
// GeneralPredicates -> nodeports.Fits) compare declared hostPorts only
// (kubernetes/kubernetes pkg/scheduler/framework/plugins/nodeports/node_ports.go fitsPorts,
// pkg/scheduler/framework/types.go HostPortInfo.CheckConflict: a port <= 0 never conflicts),
// and a port a process opens without declaring it is no hostPort (API defaulting copies
// containerPort to hostPort on host-network pods, pkg/apis/core/v1/defaults.go
// defaultHostNetworkPorts, but only for the ports the spec lists). So the pod is admitted,
// its container starts, and the process fails to bind.
//
// Modelled: sshd, which mpi-operator v2beta1 runs in every worker container that has no
// command (pkg/controller/mpi_job_controller.go newWorker: /usr/sbin/sshd -De). Its port is
// -p PORT, else -o Port=PORT, else the image's /etc/ssh/sshd_config, taken as OpenSSH's
// default 22 (one image binds one port: the workers of one job always collide); with -f FILE
// and no port on the command line kubesim cannot tell and judges nothing. An sshd whose every
// port is taken prints what openssh-portable sshd.c listen_on_addrs / server_listen print on
// stderr (-e: no "error:"/"fatal:" prefix, log.c do_log) and exits 255 (fatal, cleanup_exit):
//   Bind to port 22 on 0.0.0.0 failed: Address already in use.
//   Bind to port 22 on :: failed: Address already in use.
//   Cannot bind any address.
// The kubelet then restarts it per restartPolicy (CrashLoopBackOff) and the pod is never Ready
// while the other pod holds the port.
#include <algorithm>

#include "core/text.h"
#include "kubesim/controllers/kubelet.h"

namespace kubesim {

namespace {

// A port sshd binds: `key` says which pods share it, `shown` is what sshd prints.
struct SshdPort {
  std::string key;
  std::string shown;
};

std::vector<std::string> argv_of(const json& container) {
  std::vector<std::string> argv;
  for (const char* key : {"command", "args"})
    for (const auto& a : container.value(key, json::array()))
      if (a.is_string()) argv.push_back(a.get<std::string>());
  return argv;
}

// `Port 2222` or `Port=2222` (sshd_config syntax, as -o takes it): the number, else "".
std::string port_option(const std::string& option) {
  const size_t sep = option.find_first_of("= \t");
  if (sep == std::string::npos || trainctl::ascii_lower(option.substr(0, sep)) != "port") return "";
  std::string value = trainctl::trim(option.substr(sep + 1));
  if (!value.empty() && value[0] == '=') value = trainctl::trim(value.substr(1));
  return value;
}

// The ports sshd in `container` binds, or nothing when the container runs no sshd (as far as
// its command says) or kubesim cannot tell which port.
std::vector<SshdPort> sshd_ports(const json& container) {
  const std::vector<std::string> argv = argv_of(container);
  if (argv.empty()) return {};
  const std::string& exe = argv[0];
  if (exe != "sshd" && (exe.size() < 5 || exe.compare(exe.size() - 5, 5, "/sshd") != 0)) return {};
  // sshd's getopt string (openssh-portable sshd.c main): these letters take an argument.
  static const std::string with_arg = "CEbcfghkopu";
  std::vector<std::string> ports;
  bool config_file = false;
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.size() < 2 || a[0] != '-') break;  // sshd takes no operands
    for (size_t j = 1; j < a.size(); ++j) {
      if (with_arg.find(a[j]) == std::string::npos) continue;
      std::string value = j + 1 < a.size() ? a.substr(j + 1) : (i + 1 < argv.size() ? argv[++i] : "");
      if (a[j] == 'p') ports.push_back(value);
      if (a[j] == 'o' && !port_option(value).empty()) ports.push_back(port_option(value));
      if (a[j] == 'f') config_file = true;
      break;
    }
  }
  std::vector<SshdPort> out;
  for (const auto& p : ports) out.push_back({"tcp/" + p, p});
  if (out.empty() && !config_file) out.push_back({"sshd_config of " + container.value("image", ""), "22"});
  return out;
}

std::vector<SshdPort> pod_sshd_ports(const json& pod) {
  std::vector<SshdPort> out;
  const json spec = pod.value("spec", json::object());
  if (!spec.value("hostNetwork", false)) return out;
  for (const auto& c : spec.value("containers", json::array()))
    for (auto& p : sshd_ports(c)) out.push_back(std::move(p));
  return out;
}

}  // namespace

std::optional<std::string> Kubelet::taken_host_port(const json& pod, Run& run) const {
  const std::vector<SshdPort> ports = pod_sshd_ports(pod);
  run.node = pod.value("spec", json::object()).value("nodeName", "");
  run.host_ports.clear();
  for (const auto& p : ports) run.host_ports.push_back(p.key);
  if (ports.empty()) return std::nullopt;
  auto held = [&](const std::string& key) {
    for (const auto& entry : m_runs) {
      const Run& other = entry.second;
      if (&other == &run || other.node != run.node) continue;
      if (other.stage != Stage::Running && other.stage != Stage::Rendezvous) continue;
      if (other.bind_failed) continue;
      if (std::find(other.host_ports.begin(), other.host_ports.end(), key) != other.host_ports.end()) return true;
    }
    return false;
  };
  // sshd runs while it could bind one of its ports (server_listen fails only with none).
  for (const auto& p : ports)
    if (!held(p.key)) return std::nullopt;
  return ports.front().shown;
}

void Kubelet::fail_bind(Run& run, const std::string& port) {
  std::vector<std::string> lines;
  for (const char* addr : {"0.0.0.0", "::"})
    lines.push_back("Bind to port " + port + " on " + addr + " failed: Address already in use.");
  lines.push_back("Cannot bind any address.");
  for (auto& log : run.logs) log->set_final_lines(lines);
  run.bind_failed = true;
  run.exit_code = 255;
  run.stage_end = run.started;  // exits as soon as it starts
  run.next_line = kNever;
}

}  // namespace kubesim
