// trainctl __complete WORDS...: hidden; prints completion candidates for the words typed
// after `trainctl` (the last one is being completed), one per line, then ":DIRECTIVE" (see
// cmd/complete_engine.h). The completion scripts call it for what they cannot know
// statically: job, instance, namespace, PVC and node names and kubeconfig contexts. Cluster
// requests time out after 2 seconds; any failure just yields no candidates, exit 0.
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/completion/complete_cluster.h"
#include "cmd/run.h"

namespace trainctl {

namespace {

constexpr std::chrono::milliseconds kLookupTimeout{2000};

// The Factory of the words' --kubeconfig, --context and -n, whose client gives up quickly.
std::unique_ptr<Factory> scope_factory(const IOStreams& io, const completion::Scope& s) {
  GlobalOptions g;
  g.kubeconfig = s.kubeconfig;
  g.context = s.context;
  g.namespace_ = s.namespace_;
  auto f = std::make_unique<Factory>(io, std::move(g));
  kube::ClientOptions opts;
  opts.request_timeout = kLookupTimeout;
  opts.connect_timeout = kLookupTimeout;
  opts.max_retries = 0;
  f->set_client_options(opts);
  return f;
}

}  // namespace

void setup_complete(CLI::App& root, Factory& f) {
  auto* cmd = root.add_subcommand("__complete", "Print completion candidates for the words after 'trainctl'");
  cmd->group("");
  cmd->prefix_command();
  cmd->fallthrough(false);  // every word after __complete is data, global flags too
  bind_run(cmd, f, [cmd, &root, &f] {
    completion::ClientLookup cluster([&f](const completion::Scope& s) { return scope_factory(f.io(), s); });
    completion::Result r;
    try {
      r = completion::complete(root, cmd->remaining(), cluster);
    } catch (const std::exception&) {
      r = {{}, completion::kError};
    }
    for (const auto& c : r.candidates) f.io().out() << c << '\n';
    f.io().out() << ':' << r.directive << '\n';
  });
}

}  // namespace trainctl
