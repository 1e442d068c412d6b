// How list, get and top job print jobs: tables in Arena's layouts, names, JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "core/iostreams.h"
#include "jobs/training_job.h"
#include "print/output.h"
#include "print/table.h"

namespace trainctl::print {

// list: [NAMESPACE] NAME STATUS TRAINER DURATION GPU(Requested) GPU(Allocated) NODE
Table job_list_table(const jobs::JobList& jobs, bool all_namespaces);

// top job: [NAMESPACE] NAME STATUS TRAINER AGE GPU(Requested) GPU(Allocated) NODE
Table top_job_table(const jobs::JobList& jobs, bool all_namespaces);
// top job NAME: one row per instance (only `instance` when not empty), Arena's per-job
// layout NAME STATUS GPU(Request) NODE GPU(DeviceIndex) GPU(DutyCycle) GPU_MEMORY(Used/Total).
// There is no GPU metrics source: the device index comes from the GPU-share annotation
// ALIYUN_COM_GPU_MEM_IDX when present, duty cycle and memory are N/A.
// Throws NotFoundError when `instance` is not one of the job's.
Table top_job_instances_table(const jobs::TrainingJob& job);
// "\nTotal Allocated/Requested GPUs of Training Jobs: a/r\n" over RUNNING jobs.
std::string top_job_footer(const jobs::JobList& jobs);

// -o name: "pytorchjob/NAME" lines.
std::string job_names(const jobs::JobList& jobs);
nlohmann::ordered_json jobs_json(const jobs::JobList& jobs);
// The text print::to_json / print::to_yaml make of jobs_json(jobs), written one job at a
// time so that the whole document never exists in memory.
void write_jobs_json(std::ostream& out, const jobs::JobList& jobs);
void write_jobs_yaml(std::ostream& out, const jobs::JobList& jobs);
// One of the two, for format Json or Yaml.
void write_jobs(std::ostream& out, const jobs::JobList& jobs, OutputFormat format);

// get: the key/value block, the Instances table and the TensorBoard URL.
std::string job_details(const jobs::TrainingJob& job, const IOStreams& io);

// get -e: "Events:" and a SOURCE TYPE AGE MESSAGE table, or "No events for resources".
std::string events_view(const std::vector<nlohmann::json>& events, jobs::TimePoint now, const IOStreams& io);
nlohmann::ordered_json events_json(const std::vector<nlohmann::json>& events);

}  // namespace trainctl::print
