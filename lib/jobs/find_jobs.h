// Finding jobs by name among the kinds --type leaves: the one way get, delete, logs, wait, top
// job and suspend resolve a name to a job. Each name is found (exactly one kind has a job of
// that name), missing (none) or ambiguous (several: --type chooses), and each outcome that is
// not found has one message, the same for every command. As kubectl's resource builder
// (kubernetes/cli-runtime@v0.36.2:pkg/resource/builder.go visitByName, one Info per name;
// ContinueOnError, so that one missing name does not hide the others): a command with one
// name fails with that name's error, a command with several handles each and sums up.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jobs/kind.h"
#include "kube/client.h"

namespace trainctl::jobs {

// One name and what holds it.
struct NameMatch {
  enum class Outcome { Found, Missing, Ambiguous };

  std::string name;
  Outcome outcome = Outcome::Missing;
  // Found: the kind and its job object. Ambiguous: every kind that has a job of the name.
  std::vector<const JobKind*> kinds;
  nlohmann::json object;  // Found: the job object

  bool found() const { return outcome == Outcome::Found; }
  const JobKind& kind() const { return *kinds.front(); }  // Found only
  // Missing: "job NAME not found in namespace NS"; Ambiguous: "there is more than one training
  // job named NAME (pytorchjob, mpijob): choose one with -T/--type"; Found: "".
  std::string message(const std::string& ns) const;
  // Throws the error of a name not found (NotFoundError) or ambiguous (UsageError).
  void throw_unless_found(const std::string& ns) const;
};

// The names asked for, in their order, each with its outcome.
struct FoundJobs {
  std::string ns;
  std::vector<NameMatch> names;

  size_t missing() const;
  size_t ambiguous() const;
};

// The outcome of `name` given, for each of `kinds`, whether that kind holds a job of the name
// (`holds[k]`) and its object (`objects[k]`, read only where held): for callers that read the
// job objects themselves, in a round trip of their own (get_job reads the pods at once).
NameMatch match_name(const std::string& name, const std::vector<const JobKind*>& kinds,
                     const std::vector<bool>& holds, std::vector<nlohmann::json> objects);

// Whether `object`, a job object of `kind`'s resource, is a job of that kind (the operator-free
// kind shares batch/v1 Jobs with everything else: only its list_selector's labels count).
bool is_job_of(const JobKind& kind, const nlohmann::json& object);

// Every name of `names` in `ns` among `kinds`: one GET of each name in each kind, all sent
// together. A kind whose resource is not served holds none.
FoundJobs find_jobs(kube::Client& client, const std::string& ns, const std::vector<std::string>& names,
                    const std::vector<const JobKind*>& kinds);
// One name: its match, found, or the name's error thrown (NameMatch::throw_unless_found).
NameMatch find_job(kube::Client& client, const std::string& ns, const std::string& name,
                   const std::vector<const JobKind*>& kinds);

}  // namespace trainctl::jobs
