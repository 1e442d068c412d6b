// kubesim: a local Kubernetes API simulator (REST API + simulated operators and kubelets).
#include "core/log.h"
#include "kubesim/builtin_types.h"
#include "kubesim/controllers/simulation.h"
#include "kubesim/crd_objects.h"
#include "kubesim/kubeconfig_out.h"
#include "kubesim/operators.h"
#include "kubesim/server_startup.h"
#include "kubesim/server.h"
#include "kubesim/trainer_runtimes.h"
#include "kubesim/token_file.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <openssl/rand.h>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <thread>

namespace {

volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

std::string random_token() {
  unsigned char b[24];
  RAND_bytes(b, sizeof b);
  return fmt::format("{:02x}", fmt::join(b, ""));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kubesim: a local Kubernetes API simulator"};
  kubesim::ServerOptions opts;
  std::string kubeconfig_out, token, schemas, crds_dir, faults_file, seed_file, generate;
  std::vector<std::string> no_crds, crd_drop_fields, crd_versions;
  std::string kubernetes_version, operators, trainer_gates, token_auth_file;
  std::vector<std::string> runtimes_dirs;
  bool plain_http = false, no_auth = false, no_controllers = false, manual_clock = false;
  kubesim::SimulationOptions sim;
  std::string default_duration;
  std::string compaction_interval = "5m", bookmark_interval = "60s";
  app.add_option("--listen", opts.listen, "address to listen on")->capture_default_str();
  app.add_option("--port", opts.port, "port (0 = pick a free one)")->capture_default_str();
  app.add_flag("--plain-http", plain_http, "serve plain HTTP instead of HTTPS (debugging)");
  app.add_flag("--no-auth", no_auth, "accept requests without credentials");
  app.add_option("--token", token, "bearer token to accept (default: a random one, see --kubeconfig-out)");
  app.add_option("--token-auth-file", token_auth_file,
                 "more bearer tokens, as kube-apiserver's: CSV lines token,user,uid[,\"group1,group2\"]; "
                 "RBAC decides what those users may do");
  app.add_option("--cert", opts.cert_file, "server certificate (PEM); generated when absent");
  app.add_option("--key", opts.key_file, "server private key (PEM)");
  app.add_option("--ca-cert", opts.ca_cert_file, "CA certificate (PEM) for client certificates");
  app.add_option("--ca-key", opts.ca_key_file, "CA private key (PEM), to issue the kubeconfig's client certificate");
  app.add_option("--kubeconfig-out", kubeconfig_out, "write a kubeconfig for this server (mode 0600)");
  app.add_option("--threads", opts.threads, "HTTP threads kept waiting for connections (every connection gets one)")->capture_default_str();
  app.add_option("--schemas", schemas, "schema directory (crds/, openapi/) to validate custom resources")
      ->envname("TRAINCTL_SCHEMAS");
  app.add_option("--crds", crds_dir, "serve the CustomResourceDefinitions found in this directory");
  app.add_option("--no-crd", no_crds, "do not serve this custom resource (plural, kind or plural.group)");
  app.add_option("--crd-drop-field", crd_drop_fields,
                 "serve CRD:FIELD as an older operator release without it, e.g. "
                 "pytorchjobs.kubeflow.org:spec.nprocPerNode (repeatable)");
  app.add_option("--operators", operators,
                 "serve only these operators' custom resources: training-operator, mpi-operator, volcano, trainer, "
                 "jobset, kueue (comma-separated; default all), e.g. trainer,jobset,kueue,volcano for a cluster "
                 "with only Kubeflow Trainer v2");
  app.add_option("--runtimes", runtimes_dirs,
                 "load the Kubeflow Trainer ClusterTrainingRuntimes and TrainingRuntimes of this directory "
                 "(repeatable; a later one replaces a runtime of the same name)");
  app.add_option("--trainer-feature-gates", trainer_gates,
                 "Kubeflow Trainer feature gates: TrainJobStatus=true makes trainer pods report their progress in "
                 "status.trainerStatus");
  app.add_option("--crd-version", crd_versions,
                 "serve PLURAL.GROUP at this version only, as an older release did, e.g. mpijobs.kubeflow.org=v1 "
                 "(training-operator's MPIJob) (repeatable)");
  app.add_option("--kubernetes-version", kubernetes_version,
                 "Kubernetes release to emulate, e.g. 1.26 (/version, Job pod labels; default 1.31)");
  app.add_option("--faults", faults_file, "fault-injection rules (JSON or YAML)");
  app.add_option("--seed", seed_file, "seed file (nodes, namespaces, PVCs, objects)");
  app.add_option("--generate", generate, "preload a large cluster: nodes=N,jobs=N,pods=N[,trainjobs=N][,objects=real|lean]");
  std::string prometheus_exporter;
  app.add_option(
      "--prometheus", prometheus_exporter,
      "serve simulated GPU metrics through the service proxy of monitoring/prometheus-server:9090: "
      "dcgm, dcgm-exported, dcgm-before-3.1.6 or arena (as the seed key prometheus:)");
  std::string prometheus_endpoint;
  app.add_option("--prometheus-endpoint", prometheus_endpoint,
                 "HOST:PORT of a real Prometheus: the service proxy of monitoring/prometheus-server:9090 forwards "
                 "there (its pod and Endpoints are created; see /kubesim/exporters/ for what it scrapes)");
  app.add_flag("--no-controllers", no_controllers, "do not run the simulated operators, scheduler and kubelets");
  app.add_flag("--manual-clock", manual_clock, "simulated time moves only when stepped");
  app.add_option("--speed", sim.speed, "simulated seconds per real second")->capture_default_str();
  app.add_option("--default-outcome", sim.default_outcome, "succeed|fail|crash|oom|evicted|run-forever")->capture_default_str();
  app.add_option("--default-duration", default_duration, "how long containers run (e.g. 60s, 5m)");
  app.add_option("--kubeflow-pod-labels", sim.kubeflow_pod_labels,
                 "label PyTorchJob and TFJob pods as this release does: v1.6 (and later), v1.4 (both label sets), "
                 "v1.3 or pytorch-operator-v0.7")
      ->check(CLI::IsMember({"v1.6", "v1.4", "v1.3", "pytorch-operator-v0.7"}))
      ->capture_default_str();
  std::string rendezvous_timeout;
  app.add_option("--rendezvous-timeout", rendezvous_timeout,
                 "how long a PyTorch job whose ranks cannot meet waits before failing (default: PyTorch's own "
                 "timeouts, 10 to 30 minutes)");
  app.add_option("--etcd-compaction-interval", compaction_interval,
                 "simulated time between compactions; continue tokens expire after one or two (0 = never)")
      ->capture_default_str();
  app.add_option("--watch-bookmark-interval", bookmark_interval,
                 "real time between BOOKMARK events of watches that allow them")
      ->capture_default_str();
  std::string kueue_integrations, kueue_visibility = "v1beta2,v1beta1";
  for (const auto& f : kubesim::KueueConfig::default_frameworks())
    kueue_integrations += (kueue_integrations.empty() ? "" : ",") + f;
  app.add_option("--kueue-integrations", kueue_integrations,
                 "Kueue's integrations.frameworks, comma-separated: the kinds whose jobs its webhook suspends "
                 "into a queue (default: what Kueue v0.19.2 ships, without kubeflow.org/pytorchjob and tfjob)")
      ->capture_default_str();
  app.add_option("--kueue-visibility-versions", kueue_visibility,
                 "versions of Kueue's visibility API to serve, comma-separated (v1beta2, v1beta1)")
      ->capture_default_str();
  std::string loglevel = "info";
  app.add_option("--loglevel", loglevel, "log level on stderr: debug, info, warn or error")
      ->check(CLI::IsMember({"debug", "info", "warn", "error"}))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  trainctl::log::set_level(trainctl::log::parse_level(loglevel));

  try {
    opts.tls = !plain_http;
    opts.auth = !no_auth;
    if (token.empty()) token = random_token();
    opts.tokens = {token};
    if (!token_auth_file.empty()) opts.token_users = kubesim::load_token_auth_file(token_auth_file);
    sim.manual_clock = manual_clock;
    sim.kueue = opts.kueue = kubesim::KueueConfig::parse(kueue_integrations, kueue_visibility);
    if (!default_duration.empty()) sim.default_duration = kubesim::parse_sim_duration(default_duration);
    if (!rendezvous_timeout.empty()) sim.rendezvous_timeout = kubesim::parse_sim_duration(rendezvous_timeout);
    if (!trainer_gates.empty()) {
      if (trainer_gates != "TrainJobStatus=true" && trainer_gates != "TrainJobStatus=false")
        throw std::runtime_error("--trainer-feature-gates: only TrainJobStatus=true|false is modelled, not \"" +
                                 trainer_gates + "\"");
      sim.trainjob_status = trainer_gates == "TrainJobStatus=true";
    }

    std::vector<kubesim::CrdFieldDrop> drops;
    for (const auto& d : crd_drop_fields) drops.push_back(kubesim::parse_crd_drop_field(d));
    if (!kubernetes_version.empty()) {
      opts.kubernetes_version = kubesim::parse_kubernetes_version(kubernetes_version);
      sim.kubernetes_minor = opts.kubernetes_version.minor;
    }
    opts.bookmark_interval = kubesim::parse_sim_duration(bookmark_interval);
    if (opts.bookmark_interval.count() <= 0) throw std::runtime_error("--watch-bookmark-interval must be positive");

    kubesim::Store store;
    store.set_compaction_interval(
        std::chrono::duration_cast<std::chrono::seconds>(kubesim::parse_sim_duration(compaction_interval)));
    kubesim::LogStore logs;
    if (!schemas.empty()) opts.validator = kubesim::make_schema_validator(schemas);
    if (!drops.empty()) opts.validator = kubesim::with_dropped_fields(opts.validator, drops);
    kubesim::register_builtin_crds(store);
    if (!crds_dir.empty()) kubesim::register_crds_from_dir(store, crds_dir);
    else if (!schemas.empty()) kubesim::register_crds_from_dir(store, schemas + "/crds");
    std::unique_ptr<kubesim::Simulation> simulation;
    if (!no_controllers) simulation = std::make_unique<kubesim::Simulation>(store, logs, sim);
    if (!operators.empty()) kubesim::serve_only_operators(store, operators);
    for (const auto& name : no_crds) {
      const kubesim::ResourceType* rt = store.resolve(name);
      if (!rt || store.is_builtin(*rt)) throw std::runtime_error("--no-crd: no custom resource \"" + name + "\"");
      store.unregister_type(rt->group, rt->plural);
    }
    // The CRD objects of what is served (after --no-crd), from the documents when there are some.
    const std::string crd_docs_dir = !crds_dir.empty() ? crds_dir : (!schemas.empty() ? schemas + "/crds" : "");
    std::vector<kubesim::json> crd_docs = kubesim::load_crd_documents(crd_docs_dir);
    for (const auto& v : crd_versions) kubesim::serve_crd_at_version(store, crd_docs, v);
    kubesim::publish_crds(store, crd_docs, drops);
    if (!prometheus_exporter.empty()) kubesim::check_prometheus_exporter(prometheus_exporter);
    kubesim::load_startup_objects(store, seed_file, generate, opts.prometheus);
    for (const auto& dir : runtimes_dirs)
      std::cerr << "kubesim: loaded " << kubesim::load_trainer_runtimes(store, dir) << " Trainer runtimes from " << dir
                << "\n";
    kubesim::bootstrap_rbac(store);  // after the seed: its own roles and bindings of those names win
    if (!prometheus_exporter.empty()) {
      opts.prometheus.enabled = true;
      opts.prometheus.exporter = prometheus_exporter;
      kubesim::install_prometheus_service(store, opts.prometheus);
    }
    if (!prometheus_endpoint.empty()) {
      opts.prometheus.enabled = true;
      opts.prometheus.endpoint = prometheus_endpoint;
      kubesim::install_prometheus_service(store, opts.prometheus);
    }
    kubesim::install_prometheus_endpoint(store, opts.prometheus);
    if (simulation) opts.clock = [sim_ptr = simulation.get()] { return sim_ptr->now(); };

    kubesim::Server server(store, logs, opts);
    if (!faults_file.empty()) server.faults().set(kubesim::FaultInjector::load_file(faults_file));
    server.start();
    if (simulation && !manual_clock) simulation->start();
    if (!kubeconfig_out.empty()) {
      kubesim::KubeconfigParams kp;
      kp.server_url = server.url();
      if (opts.tls) kp.ca_pem = server.ca().cert_pem;
      kp.token = token;
      if (opts.tls && !server.ca().key_pem.empty()) kp.client = server.client_cert("kubesim-admin");
      kubesim::write_kubeconfig(kubeconfig_out, kp);
    }
    std::cout << "kubesim listening on " << server.url() << std::endl;
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    while (!g_stop) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (simulation) simulation->stop();
    server.stop();
  } catch (const std::exception& e) {
    std::cerr << "kubesim: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
