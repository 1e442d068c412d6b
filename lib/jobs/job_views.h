// How list, get and top job print jobs: tables in Arena's layouts, names, JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "core/iostreams.h"
#include "jobs/training_job.h"
#include "print/table.h"

namespace trainctl::jobs {

// list: [NAMESPACE] NAME STATUS TRAINER DURATION GPU(Requested) GPU(Allocated) NODE
print::Table job_list_table(const JobList& jobs, bool all_namespaces);

// top job: [NAMESPACE] NAME STATUS TRAINER AGE GPU(Requested) GPU(Allocated) NODE
print::Table top_job_table(const JobList& jobs, bool all_namespaces);
// top job NAME: one row per instance (only `instance` when not empty), Arena's per-job
// layout NAME STATUS GPU(Request) NODE GPU(DeviceIndex) GPU(DutyCycle) GPU_MEMORY(Used/Total).
// There is no GPU metrics source: the device index comes from the GPU-share annotation
// ALIYUN_COM_GPU_MEM_IDX when present, duty cycle and memory are N/A.
// Throws NotFoundError when `instance` is not one of the job's.
print::Table top_job_instances_table(const TrainingJob& job);
// Keeps only the instance named `instance` ("" keeps all); NotFoundError when the job has none
// of that name.
void keep_instance(TrainingJob& job, const std::string& instance);
// "\nTotal Allocated/Requested GPUs of Training Jobs: a/r\n" over RUNNING jobs.
std::string top_job_footer(const JobList& jobs);

// -o name: "pytorchjob/NAME" lines.
std::string job_names(const JobList& jobs);
nlohmann::ordered_json jobs_json(const JobList& jobs);
// The text print::to_json / print::to_yaml make of jobs_json(jobs), written one job at a
// time so that the whole document never exists in memory.
void write_jobs_json(std::ostream& out, const JobList& jobs);
void write_jobs_yaml(std::ostream& out, const JobList& jobs);

// get: the key/value block, the Instances table and the TensorBoard URL.
std::string render_job_details(const TrainingJob& job, const IOStreams& io);

// get -e: "Events:" and a SOURCE TYPE AGE MESSAGE table, or "No events for resources".
std::string render_events(const std::vector<nlohmann::json>& events, TimePoint now, const IOStreams& io);
nlohmann::ordered_json events_json(const std::vector<nlohmann::json>& events);

}  // namespace trainctl::jobs
