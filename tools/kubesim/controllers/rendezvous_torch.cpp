// PyTorch launch arguments and environment -> the rendezvous they ask for (sources in
// rendezvous_torch.h).
#include "kubesim/controllers/rendezvous_torch.h"

#include <map>
#include <optional>
#include <regex>
#include <set>

namespace kubesim {

namespace {

using Kind = TorchRendezvous::Kind;

// One argument of torch/distributed/run.py's parser: its option strings, and whether it
// takes a value. argparse's dest is the first long option with '-' turned into '_'; the
// `env` and `check_env` actions read PET_<DEST> when the option is not given.
struct Option {
  std::vector<std::string> names;
  bool takes_value = true;
  std::string dest() const {
    for (const auto& n : names)
      if (n.rfind("--", 0) == 0) {
        std::string d = n.substr(2);
        for (auto& c : d) c = c == '-' ? '_' : c;
        return d;
      }
    return names.front().substr(1);
  }
};

const std::vector<Option>& torchrun_options() {
  static const std::vector<Option> opts = {
      {{"--nnodes"}},
      {{"--nproc-per-node", "--nproc_per_node"}},
      {{"--rdzv-backend", "--rdzv_backend"}},
      {{"--rdzv-endpoint", "--rdzv_endpoint"}},
      {{"--rdzv-id", "--rdzv_id"}},
      {{"--rdzv-conf", "--rdzv_conf"}},
      {{"--standalone"}, false},
      {{"--max-restarts", "--max_restarts"}},
      {{"--monitor-interval", "--monitor_interval"}},
      {{"--start-method", "--start_method"}},
      {{"--event-log-handler", "--event_log_handler"}},
      {{"--role"}},
      {{"-m", "--module"}, false},
      {{"--no-python", "--no_python"}, false},
      {{"--run-path", "--run_path"}, false},
      {{"--log-dir", "--log_dir"}},
      {{"-r", "--redirects"}},
      {{"-t", "--tee"}},
      {{"--local-ranks-filter", "--local_ranks_filter"}},
      {{"--node-rank", "--node_rank"}},
      {{"--master-addr", "--master_addr"}},
      {{"--master-port", "--master_port"}},
      {{"--local-addr", "--local_addr"}},
      {{"--logs-specs", "--logs_specs"}},
      {{"--numa-binding", "--numa_binding"}},
      {{"--signals-to-handle", "--signals_to_handle"}},
      {{"--use-env", "--use_env"}, false},  // torch/distributed/launch.py only
  };
  return opts;
}

// argparse's lookup: an exact option string, else an unambiguous prefix of a long one.
const Option* find_option(const std::string& name) {
  const Option* found = nullptr;
  for (const auto& o : torchrun_options())
    for (const auto& n : o.names)
      if (n == name) return &o;
  if (name.rfind("--", 0) != 0) return nullptr;
  for (const auto& o : torchrun_options())
    for (const auto& n : o.names)
      if (n.rfind(name, 0) == 0) {
        if (found && found != &o) return nullptr;
        found = &o;
      }
  return found;
}

std::optional<long long> to_int(const std::string& s) {
  static const std::regex re("\\s*[+-]?[0-9]+\\s*");
  if (!std::regex_match(s, re)) return std::nullopt;
  try {
    return std::stoll(s);
  } catch (...) {
    return std::nullopt;
  }
}

// utils.py parse_rendezvous_endpoint: "host[:port]", "[v6]:port"; nullopt port = none given.
bool parse_endpoint(const std::string& endpoint, int default_port, std::string* host, int* port) {
  std::string e = endpoint;
  while (!e.empty() && std::isspace(static_cast<unsigned char>(e.back()))) e.pop_back();
  if (e.empty()) {
    *host = "localhost";
    *port = default_port;
    return true;
  }
  std::string h = e, p;
  if (!(e.front() == '[' && e.back() == ']')) {
    const size_t colon = e.rfind(':');
    if (colon != std::string::npos) {
      h = e.substr(0, colon);
      p = e.substr(colon + 1);
    }
  }
  if (h.size() > 1 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  *host = h;
  if (p.empty()) {
    *port = default_port;
    return e.find(':') == std::string::npos || e.front() == '[';
  }
  auto n = to_int(p);
  if (!n || *n < 0 || *n >= 65536) return false;
  *port = static_cast<int>(*n);
  return true;
}

// utils.py _parse_rendezvous_config: "k1=v1,k2=v2".
std::map<std::string, std::string> rdzv_conf(const std::string& text) {
  std::map<std::string, std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string kv = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const size_t eq = kv.find('=');
    if (eq != std::string::npos) out[kv.substr(0, eq)] = kv.substr(eq + 1);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::chrono::seconds conf_seconds(const std::map<std::string, std::string>& conf, const std::string& key,
                                  long long fallback) {
  auto it = conf.find(key);
  auto n = it == conf.end() ? std::nullopt : to_int(it->second);
  return std::chrono::seconds(n && *n > 0 ? *n : fallback);
}

std::vector<std::string> traceback(const std::string& last) {
  return {"Traceback (most recent call last):", last};
}

TorchRendezvous torchrun(const std::vector<Word>& args, const ContainerEnv& env) {
  TorchRendezvous out;
  out.program = "torchrun";
  std::map<std::string, Word> given;
  bool script = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].known) return out;
    const std::string& a = args[i].text;
    if (a == "--") {
      script = i + 1 < args.size();
      break;
    }
    if (a.size() < 2 || a[0] != '-') {
      script = true;
      break;
    }
    std::string name = a, attached;
    bool has_attached = false;
    if (a.rfind("--", 0) == 0) {
      const size_t eq = a.find('=');
      if (eq != std::string::npos) {
        name = a.substr(0, eq);
        attached = a.substr(eq + 1);
        has_attached = true;
      }
    } else if (a.size() > 2) {  // -r3
      name = a.substr(0, 2);
      attached = a.substr(2);
      has_attached = true;
    }
    const Option* o = find_option(name);
    if (!o || (!o->takes_value && has_attached)) return out;
    if (!o->takes_value) {
      given[o->dest()] = Word{"1", true};
    } else if (has_attached) {
      given[o->dest()] = Word{attached, true};
    } else {
      if (i + 1 >= args.size()) return out;
      given[o->dest()] = args[++i];
    }
  }
  if (!script) return out;  // torchrun would stop at once with a usage error
  bool unknown = false;
  auto arg = [&](const std::string& dest, const std::string& fallback) {
    auto it = given.find(dest);
    if (it != given.end()) {
      unknown |= !it->second.known;
      return it->second.text;
    }
    std::string pet = "PET_";
    for (char c : dest) pet += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (!env.known(pet)) unknown = true;
    return env.value(pet).value_or(fallback);
  };
  const std::string nnodes = arg("nnodes", "1:1");
  out.nproc_per_node = arg("nproc_per_node", "1");
  std::string backend = arg("rdzv_backend", "static");
  std::string endpoint = arg("rdzv_endpoint", "");
  const auto conf = rdzv_conf(arg("rdzv_conf", ""));
  const std::string node_rank = arg("node_rank", "0");
  const std::string master_addr = arg("master_addr", "127.0.0.1");
  const std::string master_port = arg("master_port", "29500");
  const std::string standalone = arg("standalone", "0");
  const std::string max_restarts = arg("max_restarts", "0");
  out.role = arg("role", "default");
  if (unknown) return out;
  // check_env: bool(int(value)); anything else stops torchrun with a ValueError (not judged).
  auto standalone_flag = to_int(standalone);
  if (!standalone_flag) return out;
  if (*standalone_flag != 0) {  // run(): a local c10d store on a free port
    backend = "c10d";
    endpoint = "localhost:0";
  }
  // parse_min_max_nnodes.
  const size_t colon = nnodes.find(':');
  auto lo = to_int(nnodes.substr(0, colon));
  auto hi = colon == std::string::npos ? lo : to_int(nnodes.substr(colon + 1));
  if (!lo || !hi || *lo < 1 || *hi < *lo) return out;
  out.min_nodes = static_cast<int>(*lo);
  out.max_nodes = static_cast<int>(*hi);
  if (backend == "static") {
    // get_rdzv_endpoint, then static_tcp_rendezvous.create_rdzv_handler.
    if (endpoint.empty()) endpoint = master_addr + ":" + master_port;
    auto rank = to_int(node_rank);
    if (!rank) return out;
    if (!parse_endpoint(endpoint, -1, &out.host, &out.port)) return out;
    if (out.port == -1) {
      out.kind = Kind::Error;  // launcher/api.py _get_addr_and_port
      out.error_lines =
          traceback("ValueError: port is missing in endpoint: " + endpoint + ". Try to specify --master-port");
      return out;
    }
    out.kind = Kind::Static;
    out.rank = static_cast<int>(*rank);
    out.world = out.max_nodes;
    out.timeout = conf_seconds(conf, "timeout", 900);  // LaunchConfig.__post_init__
    out.connect_timeout = out.timeout;
    return out;
  }
  if (backend == "c10d") {
    if (!parse_endpoint(endpoint, 29400, &out.host, &out.port)) return out;
    auto restarts = to_int(max_restarts);
    if (!restarts || *restarts < 0) return out;
    out.kind = Kind::C10d;
    out.max_restarts = static_cast<int>(*restarts);
    out.world = out.max_nodes;
    out.timeout = conf_seconds(conf, "join_timeout", 600);
    out.connect_timeout = conf_seconds(conf, "read_timeout", 60);
    return out;
  }
  return out;  // etcd, etcd-v2 or a custom backend: not judged
}

TorchRendezvous env_init(const std::vector<Word>& script_args, const ContainerEnv& env) {
  TorchRendezvous out;
  out.program = "python";
  if (!env.known("WORLD_SIZE")) return out;
  auto world = to_int(env.value("WORLD_SIZE").value_or(""));
  if (!world || *world <= 1) return out;
  std::map<std::string, std::string> v;
  for (const char* name : {"RANK", "MASTER_ADDR", "MASTER_PORT"}) {
    if (!env.known(name)) return out;
    v[name] = env.value(name).value_or("");
  }
  for (const char* name : {"RANK", "MASTER_ADDR", "MASTER_PORT"})
    if (v[name].empty()) {  // _get_env_or_raise, in this order
      out.kind = Kind::Error;
      out.error_lines = traceback(
          "ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable " +
          std::string(name) + " expected, but not set");
      return out;
    }
  auto rank = to_int(v["RANK"]);
  auto port = to_int(v["MASTER_PORT"]);
  if (!rank || !port) return out;
  out.kind = Kind::Env;
  out.host = v["MASTER_ADDR"];
  out.port = static_cast<int>(*port);
  out.rank = static_cast<int>(*rank);
  out.world = static_cast<int>(*world);
  bool nccl = false;
  for (size_t i = 0; i < script_args.size(); ++i) {
    const std::string& a = script_args[i].text;
    for (const char* flag : {"--backend", "--dist-backend", "--dist_backend"}) {
      const std::string f = flag;
      if (a == f && i + 1 < script_args.size()) nccl |= script_args[i + 1].text == "nccl";
      if (a == f + "=nccl") nccl = true;
    }
  }
  out.timeout = std::chrono::seconds(nccl ? 600 : 1800);
  out.connect_timeout = out.timeout;
  return out;
}

}  // namespace

TorchRendezvous torch_rendezvous(const LaunchCommand& cmd) {
  if (!cmd.judged || cmd.argv.empty()) return {};
  const std::string prog = program_name(cmd.argv[0].text);
  const std::vector<Word>& argv = cmd.argv;
  if (prog == "torchrun") return torchrun({argv.begin() + 1, argv.end()}, cmd.env);
  if (!is_python(prog)) return {};
  // The interpreter's own options, then a script, -m MODULE or -c CODE.
  static const std::set<std::string> with_value = {"-W", "-X"};
  for (size_t i = 1; i < argv.size(); ++i) {
    if (!argv[i].known) return {};
    const std::string& a = argv[i].text;
    std::string module;
    if (a == "-m" && i + 1 < argv.size()) {
      module = argv[i + 1].text;
      ++i;
    } else if (a.rfind("-m", 0) == 0 && a.size() > 2) {
      module = a.substr(2);
    } else if (a == "-c") {
      return env_init({argv.begin() + std::min(i + 2, argv.size()), argv.end()}, cmd.env);
    } else if (with_value.count(a)) {
      ++i;
      continue;
    } else if (a.size() > 1 && a[0] == '-') {
      continue;
    } else {
      return env_init({argv.begin() + i + 1, argv.end()}, cmd.env);
    }
    if (module == "torch.distributed.run" || module == "torch.distributed.launch")
      return torchrun({argv.begin() + i + 1, argv.end()}, cmd.env);
    return env_init({argv.begin() + i + 1, argv.end()}, cmd.env);
  }
  return {};  // an interactive interpreter
}

}  // namespace kubesim
