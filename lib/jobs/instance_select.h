// Which of a job's instances the user names with -i (logs, top job): the whole pod name; the
// replica as logs --all prefixes its lines ("worker-1"); a rank as --rank counts it ("1":
// the replica of index 1, worker-1); or the start of one pod's name ("bad-1" for the pod
// bad-1-hrhts of an operator-free job, whose name ends in a random suffix).
#pragma once

#include <string>
#include <vector>

#include "jobs/replica.h"
#include "jobs/training_job.h"

namespace trainctl::jobs {

// The instance `wanted` names. `replicas` holds the role and rank of the job's pods
// (GetResult::replicas). NotFoundError when it names none, UsageError when it names several;
// both list the instances to choose from as lines of the error (core/errors.h).
const Instance& select_instance(const TrainingJob& job, const std::vector<Replica>& replicas,
                                const std::string& wanted);

// Keeps only the instance `wanted` names ("" keeps all), as select_instance finds it.
void keep_instance(TrainingJob& job, const std::vector<Replica>& replicas, const std::string& wanted);

// The job's instances as an error lists them to choose from, one a line: the name, then the
// replica when the name does not end with it ("bad-0-dmrq9  master-0 (chief)",
// "dist-worker-1"); `only` narrows them to those instances (empty: all).
std::vector<std::string> instance_choices(const TrainingJob& job, const std::vector<Replica>& replicas,
                                          const std::vector<const Instance*>& only = {});

}  // namespace trainctl::jobs
