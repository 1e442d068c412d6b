// How list, get and top job print jobs: tables in Arena's layouts, names, JSON.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/iostreams.h"
#include "jobs/training_job.h"
#include "metrics/gpu_metrics.h"
#include "metrics/idle.h"
#include "print/output.h"
#include "print/table.h"

namespace trainctl::print {

// Jobs made one at a time, in the order printed: a list too long to hold as TrainingJobs
// (jobs::ListedJobs). job(i) may be called more than once for a job.
struct JobSource {
  size_t size = 0;
  std::function<jobs::TrainingJob(size_t)> job;
  bool any_elastic = false;   // whether some job has TrainingJob::elastic
  bool any_progress = false;  // whether some job has TrainingJob::progress
};

// list: [NAMESPACE] NAME STATUS TRAINER DURATION GPU(Requested) GPU(Allocated) NODE
Table job_list_table(const jobs::JobList& jobs, bool all_namespaces);
// The same table written without holding its rows: each job is made twice (table.h). With
// `reason` (-o wide) a last column REASON: why a PENDING or FAILED job is so
// (TrainingJob::reason), after PROGRESS when a job reports its progress (TrainingJob::progress:
// "42% (ETA 1h)").
void write_job_list_table(std::ostream& out, const IOStreams& io, const JobSource& jobs, bool all_namespaces,
                          bool reason = false);
// list -w: the same columns for jobs that changed; a deleted one's STATUS is DELETED.
Table job_change_table(const jobs::JobList& jobs, const std::vector<bool>& deleted, bool all_namespaces);

// list --idle: [NAMESPACE] NAME STATUS TRAINER DURATION GPU(Allocated) GPU(Idle) MAX_UTIL NODE,
// one row per job with idle[i] its idle GPUs (metrics/idle.h) and the highest utilisation any
// of them reached over the window.
Table idle_jobs_table(const jobs::JobList& jobs, const std::vector<metrics::PodIdleGpus>& idle, bool all_namespaces);

// top job: [NAMESPACE] NAME STATUS TRAINER AGE GPU(Requested) GPU(Allocated) NODE
Table top_job_table(const jobs::JobList& jobs, bool all_namespaces);
// top job NAME: Arena's per-job layout NAME STATUS GPU(Request) NODE GPU(DeviceIndex)
// GPU(DutyCycle) GPU_MEMORY(Used/Total), one row per GPU an instance holds in `gpus` (its
// metrics, "%.1f%" and "%.1f/%.1f(MiB)" as Arena prints them), else one row per instance
// with the GPU-share annotation's device index (ALIYUN_COM_GPU_MEM_IDX) and N/A. With
// `idle_column`, GPU(Idle) says whether each GPU is idle (GpuMetric::idle: yes, no, N/A).
Table top_job_instances_table(const jobs::TrainingJob& job, const std::vector<metrics::GpuMetric>& gpus = {},
                              bool idle_column = false);
// top job NAME -o json: the job's document with each instance's "gpuMetrics" (Arena's keys:
// {"<device index>": {"gpuDutyCycle": %, "usedGPUMemory": bytes, "totalGPUMemory": bytes,
// "maxGPUDutyCycle": %, "idle": bool}},
// null numbers when unknown), or null everywhere when there are no metrics (`gpus` nullopt).
nlohmann::ordered_json job_json_with_gpus(const jobs::TrainingJob& job,
                                          const std::optional<std::vector<metrics::GpuMetric>>& gpus);
// "\nTotal Allocated/Requested GPUs of Training Jobs: a/r\n" over RUNNING jobs.
std::string top_job_footer(const jobs::JobList& jobs);

// -o name: "pytorchjob/NAME" lines.
std::string job_names(const jobs::JobList& jobs);
std::string job_names(const JobSource& jobs);
nlohmann::ordered_json jobs_json(const jobs::JobList& jobs);
// The text print::to_json / print::to_yaml make of jobs_json(jobs), written one job at a
// time so that the whole document never exists in memory.
void write_jobs_json(std::ostream& out, const jobs::JobList& jobs);
void write_jobs_yaml(std::ostream& out, const jobs::JobList& jobs);
void write_jobs_json(std::ostream& out, const JobSource& jobs);
void write_jobs_yaml(std::ostream& out, const JobSource& jobs);
// One of the two, for format Json or Yaml.
void write_jobs(std::ostream& out, const jobs::JobList& jobs, OutputFormat format);
void write_jobs(std::ostream& out, const JobSource& jobs, OutputFormat format);

// get: the key/value block, the Instances table, `gpus_section` (get -g) and the TensorBoard URL.
std::string job_details(const jobs::TrainingJob& job, const IOStreams& io, const std::string& gpus_section = {});
// get -g: Arena's "GPUs:" table INSTANCE NODE(IP) GPU(Requested) GPU(IndexId) GPU(DutyCycle)
// GPU Memory(Used/Total), one row per GPU an instance holds in `gpus` (N/A for an instance
// without metrics), then "Allocated/Requested GPUs of Job: a/r".
std::string job_gpus_view(const jobs::TrainingJob& job, const std::vector<metrics::GpuMetric>& gpus,
                          const IOStreams& io);

// get -e: "Events:" and a SOURCE TYPE AGE MESSAGE table, or "No events for resources".
std::string events_view(const std::vector<nlohmann::json>& events, jobs::TimePoint now, const IOStreams& io);
nlohmann::ordered_json events_json(const std::vector<nlohmann::json>& events);

}  // namespace trainctl::print
