// OpenMPI's mpirun in an MPIJob launcher (open-mpi/ompi v4.1.x, the ORTE launcher that the
// mpi-operator's OpenMPI images run): the rsh/ssh launcher starts an orted daemon on every
// host of the hostfile with `ssh HOST` (orte/mca/plm/rsh/plm_rsh_module.c); ssh resolves the
// name first and exits 255 at once when it cannot ("ssh: Could not resolve hostname %s: %s",
// openssh-portable ssh.c resolve_host). A daemon that fails to start makes mpirun print the
// help text [failed-daemon-launch] (orte/mca/errmgr/base/help-errmgr-base.txt, shown by
// errmgr_default_hnp.c) and exit with the daemon's status (rsh_wait_daemon:
// ORTE_UPDATE_EXIT_STATUS(WEXITSTATUS) = 255). The hostfile is the one mpi-operator v0.8.0
// writes (pkg/controller/mpi_job_controller.go newConfigMap: NAME-worker-I.NAME.NS.svc) and
// points OMPI_MCA_orte_default_hostfile at (/etc/mpi/hostfile); the names resolve through
// the job's headless Service, which publishes ready pods only unless runLauncherAsWorker
// (newService: publishNotReadyAddresses).
#include <set>

#include "kubesim/controllers/context.h"
#include "kubesim/controllers/rendezvous.h"
#include "kubesim/controllers/rendezvous_shell.h"

namespace kubesim {

using nlohmann::json;

namespace {

std::string dir_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos || slash == 0 ? "/" : path.substr(0, slash);
}

// The text of `path` in the container when a ConfigMap volume is mounted over its directory.
std::optional<std::string> config_map_file(const RendezvousInput& in, const json& container,
                                           const std::string& path) {
  const json spec = in.pod->value("spec", json::object());
  for (const auto& m : container.value("volumeMounts", json::array())) {
    std::string mount = m.value("mountPath", "");
    while (mount.size() > 1 && mount.back() == '/') mount.pop_back();
    if (mount != dir_of(path)) continue;
    const std::string file = path.substr(path.rfind('/') + 1);
    for (const auto& vol : spec.value("volumes", json::array())) {
      if (vol.value("name", "") != m.value("name", "") || !vol.contains("configMap")) continue;
      const json& cm = vol["configMap"];
      std::string key = file;
      if (cm.contains("items") && cm["items"].is_array()) {
        key.clear();
        for (const auto& item : cm["items"])
          if (item.value("path", "") == file) key = item.value("key", "");
      }
      auto data = in.config_maps.find(cm.value("name", ""));
      if (key.empty() || data == in.config_maps.end() || !data->second.contains(key) ||
          !data->second[key].is_string())
        return std::nullopt;
      return data->second[key].get<std::string>();
    }
  }
  return std::nullopt;
}

const std::vector<std::string>& failed_daemon_launch() {
  static const std::vector<std::string> text = {
      "--------------------------------------------------------------------------",
      "ORTE was unable to reliably start one or more daemons.",
      "This usually is caused by:",
      "",
      "* not finding the required libraries and/or binaries on",
      "  one or more nodes. Please check your PATH and LD_LIBRARY_PATH",
      "  settings, or configure OMPI with --enable-orterun-prefix-by-default",
      "",
      "* lack of authority to execute on one or more specified nodes.",
      "  Please verify your allocation and authorities.",
      "",
      "* the inability to write startup files into /tmp (--tmpdir/orte_tmpdir_base).",
      "  Please check with your sys admin to determine the correct location to use.",
      "",
      "*  compilation of the orted with dynamic libraries when static are required",
      "  (e.g., on Cray). Please check your configure cmd line and consider using",
      "  one of the contrib/platform definitions for your system type.",
      "",
      "* an inability to create a connection back to mpirun due to a",
      "  lack of common network interfaces and/or no route found between",
      "  them. Please check network connectivity (including firewalls",
      "  and network routing requirements).",
      "--------------------------------------------------------------------------"};
  return text;
}

}  // namespace

RendezvousVerdict judge_mpirun(const RendezvousInput& in, size_t index, const ClusterDns& dns) {
  using State = RendezvousVerdict::State;
  const json container = in.pod->value("spec", json::object()).value("containers", json::array())[index];
  const LaunchCommand cmd = launch_command(*in.pod, container);
  // orterun's options naming the hosts (orte/mca/schizo/ompi/schizo_ompi.c: -H/--host,
  // --hostfile, --machinefile, --default-hostfile = MCA orte_default_hostfile; OPAL's
  // command line takes long options after one dash too), anywhere in the command.
  static const std::set<std::string> host_opts = {"-H", "--host", "-host"};
  static const std::set<std::string> file_opts = {"--hostfile",     "-hostfile",          "--machinefile",
                                                  "-machinefile",   "--default-hostfile", "-default-hostfile"};
  std::optional<std::string> hosts_arg, hostfile;
  for (size_t i = 1; i + 1 < cmd.argv.size(); ++i) {
    const Word& a = cmd.argv[i];
    const Word& next = cmd.argv[i + 1];
    const bool mca = a.text == "--mca" || a.text == "-mca";
    if (!host_opts.count(a.text) && !file_opts.count(a.text) &&
        !(mca && next.text == "orte_default_hostfile" && i + 2 < cmd.argv.size()))
      continue;
    const Word& value = mca ? cmd.argv[i + 2] : next;
    if (!a.known || !value.known) return {};
    (host_opts.count(a.text) ? hosts_arg : hostfile) = value.text;
  }
  if (!hostfile && !hosts_arg) {
    if (!cmd.env.known("OMPI_MCA_orte_default_hostfile")) return {};
    hostfile = cmd.env.value("OMPI_MCA_orte_default_hostfile");
  }
  std::vector<std::string> hosts;
  if (hosts_arg) {
    size_t start = 0;
    while (start <= hosts_arg->size()) {
      const size_t comma = hosts_arg->find(',', start);
      std::string h = hosts_arg->substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      h = h.substr(0, h.find(':'));  // host:slots
      if (!h.empty()) hosts.push_back(h);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  } else if (hostfile) {
    auto text = config_map_file(in, container, *hostfile);
    if (!text) return {};  // a file kubesim cannot read
    size_t start = 0;
    while (start < text->size()) {
      size_t nl = text->find('\n', start);
      if (nl == std::string::npos) nl = text->size();
      const std::string line = text->substr(start, nl - start);
      start = nl + 1;
      const size_t b = line.find_first_not_of(" \t");
      if (b == std::string::npos || line[b] == '#') continue;
      hosts.push_back(line.substr(b, line.find_first_of(" \t", b) - b));
    }
  } else {
    return {};  // no hosts: mpirun starts its processes on the launcher itself
  }
  RendezvousVerdict v;
  std::vector<std::string> unresolved;
  for (const auto& h : hosts)
    if (h != "localhost" && dns.resolve(h, *in.pod).empty()) unresolved.push_back(h);
  if (unresolved.empty()) {
    v.state = State::Formed;
    v.members.push_back(meta_name(*in.pod));
    return v;
  }
  v.state = State::Failed;
  v.exit_code = 255;
  for (const auto& h : unresolved)
    v.fail_lines.push_back("ssh: Could not resolve hostname " + h + ": Name or service not known");
  for (const auto& l : failed_daemon_launch()) v.fail_lines.push_back(l);
  v.reason = "mpirun cannot resolve " + unresolved.front() +
             (unresolved.size() > 1 ? " and " + std::to_string(unresolved.size() - 1) + " more hosts" : "");
  return v;
}

}  // namespace kubesim
