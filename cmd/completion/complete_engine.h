// The engine behind the hidden `trainctl __complete WORDS...` command that the completion
// scripts call: given the words typed after `trainctl` (the last one being completed, maybe
// empty), it returns candidates and a directive, like cobra's __complete.
//
// Static candidates (subcommands, flags, enumerated values) come from the command tree;
// dynamic ones from a ClusterLookup, by these rules on the tree:
//   a positional whose help starts with "Job name"  -> job names of the namespace
//   a positional named "nodes" or "node"            -> node names
//   -n/--namespace                                  -> namespaces
//   --context                                       -> contexts of the kubeconfig
//   -i/--instance                                   -> instances (pods) of the job named before
//   -d/--data                                       -> PVC names followed by ':'
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cmd/cli_fwd.h"

namespace trainctl::completion {

// Bits of the last line (":N") of __complete's output; the values are cobra's.
enum Directive : int { kDefault = 0, kError = 1, kNoSpace = 2, kNoFileComp = 4 };

struct Result {
  std::vector<std::string> candidates;
  int directive = kDefault;
};

// What the words said about where to look in the cluster.
struct Scope {
  std::string kubeconfig;
  std::string context;
  std::string namespace_;  // -n as typed; empty = the default namespace
  std::string type;        // -T/--type as typed
};

// Answers from the cluster or kubeconfig. Implementations return nothing on any error.
class ClusterLookup {
 public:
  virtual ~ClusterLookup() = default;
  virtual std::vector<std::string> jobs(const Scope& s) = 0;
  virtual std::vector<std::string> instances(const Scope& s, const std::string& job) = 0;
  virtual std::vector<std::string> namespaces(const Scope& s) = 0;
  virtual std::vector<std::string> pvcs(const Scope& s) = 0;
  virtual std::vector<std::string> nodes(const Scope& s) = 0;
  virtual std::vector<std::string> contexts(const Scope& s) = 0;
};

// Whether a positional argument or a flag's value is completed from the cluster or the
// kubeconfig (the rules above); the scripts then ask __complete instead of the file system.
bool is_dynamic_positional(const CLI::Option& positional);
bool is_dynamic_flag(const std::vector<std::string>& flag_names);

// `words` are the arguments after the program name; the last is the word being completed.
// Candidates are filtered by its prefix and sorted for dynamic lists.
Result complete(CLI::App& root, const std::vector<std::string>& words, ClusterLookup& cluster);

}  // namespace trainctl::completion
