#include "print/job_views.h"

#include <algorithm>
#include <fmt/format.h>

#include "core/duration.h"
#include "jobs/json_util.h"
#include "print/escape.h"
#include "print/gpu_metric_text.h"
#include "print/output.h"

namespace trainctl::print {

using jobs::at;
using jobs::format_local;
using jobs::format_rfc3339;
using jobs::JobList;
using jobs::JobStatus;
using jobs::parse_time;
using jobs::seconds_between;
using jobs::str;
using jobs::TimePoint;
using jobs::TrainingJob;

namespace {

std::vector<std::string> with_namespace(bool all, const std::string& ns, std::vector<std::string> cells) {
  if (all) cells.insert(cells.begin(), ns);
  return cells;
}

// Arena's columns, and WORKERS last only when an elastic job is listed: running workers and
// the range its elasticPolicy allows.
// -o wide also shows PROGRESS when a job reports it (TrainJob's trainerStatus).
std::vector<std::string> jobs_header(bool all, const char* age_header, bool elastic, bool reason,
                                     bool progress = false) {
  std::vector<std::string> header = {"NAME",           "STATUS",         "TRAINER", age_header,
                                     "GPU(Requested)", "GPU(Allocated)", "NODE"};
  if (elastic) header.push_back("WORKERS");
  if (progress) header.push_back("PROGRESS");
  if (reason) header.push_back("REASON");
  return with_namespace(all, "NAMESPACE", std::move(header));
}

std::vector<std::string> job_cells(const TrainingJob& j, bool all, bool numeric_allocated, bool elastic,
                                   bool reason, bool deleted, bool progress = false) {
  std::vector<std::string> cells = {
      j.name,
      deleted ? "DELETED" : status_name(j.status),
      j.trainer(),
      short_human_duration(j.duration),
      std::to_string(j.gpus_requested),
      numeric_allocated ? std::to_string(j.gpus_allocated) : j.allocated_display(),
      j.node_display()};
  if (elastic) cells.push_back(j.elastic ? j.workers_display() : "-");
  if (progress) cells.push_back(j.progress ? j.progress->display() : "-");
  if (reason) cells.push_back(j.reason.empty() ? "-" : j.reason);
  return with_namespace(all, j.namespace_, std::move(cells));
}

// The tables made from a JobList: list's REASON column is only written from a JobSource.
Table jobs_table(const JobList& jobs, bool all, const char* age_header, bool numeric_allocated,
                 const std::vector<bool>* deleted = nullptr) {
  const bool elastic =
      std::any_of(jobs.begin(), jobs.end(), [](const TrainingJob& j) { return j.elastic.has_value(); });
  Table t(jobs_header(all, age_header, elastic, false));
  t.set_status_column(all ? 2 : 1);
  for (size_t n = 0; n < jobs.size(); ++n)
    t.add_row(job_cells(jobs[n], all, numeric_allocated, elastic, false, deleted && deleted->at(n)));
  return t;
}

TimePoint event_time(const nlohmann::json& e) {
  for (const char* key : {"lastTimestamp", "eventTime", "firstTimestamp"})
    if (auto t = parse_time(str(e, key))) return *t;
  return parse_time(str(at(e, "metadata"), "creationTimestamp")).value_or(TimePoint{});
}

}  // namespace

Table job_list_table(const JobList& jobs, bool all) { return jobs_table(jobs, all, "DURATION", false); }

void write_job_list_table(std::ostream& out, const IOStreams& io, const JobSource& jobs, bool all,
                          bool reason) {
  const bool progress = reason && jobs.any_progress;
  render_rows_to(out, io, jobs_header(all, "DURATION", jobs.any_elastic, reason, progress), all ? 2 : 1,
                 jobs.size, [&](size_t i) {
                   return job_cells(jobs.job(i), all, false, jobs.any_elastic, reason, false, progress);
                 });
}

Table job_change_table(const JobList& jobs, const std::vector<bool>& deleted, bool all) {
  return jobs_table(jobs, all, "DURATION", false, &deleted);
}

Table top_job_table(const JobList& jobs, bool all) { return jobs_table(jobs, all, "AGE", true); }

Table idle_jobs_table(const JobList& jobs, const std::vector<metrics::PodIdleGpus>& idle, bool all) {
  Table t(with_namespace(all, "NAMESPACE",
                         {"NAME", "STATUS", "TRAINER", "DURATION", "GPU(Allocated)", "GPU(Idle)", "MAX_UTIL", "NODE"}));
  t.set_status_column(all ? 2 : 1);
  size_t k = 0;
  for (const auto& j : jobs) {
    const auto& i = idle.at(k++);
    t.add_row(with_namespace(all, j.namespace_,
                             {j.name, status_name(j.status), j.trainer(), short_human_duration(j.duration),
                              std::to_string(j.gpus_allocated), std::to_string(i.idle) + "/" + std::to_string(i.held),
                              i.highest ? fmt::format("{:.1f}%", *i.highest) : "N/A", j.node_display()}));
  }
  return t;
}

std::string top_job_footer(const JobList& jobs) {
  long long allocated = 0, requested = 0;
  for (const auto& j : jobs) {
    if (j.status != JobStatus::Running) continue;
    allocated += j.gpus_allocated;
    requested += j.gpus_requested;
  }
  return "\nTotal Allocated/Requested GPUs of Training Jobs: " + std::to_string(allocated) + "/" +
         std::to_string(requested) + "\n";
}

std::string job_names(const JobList& jobs) {
  std::string out;
  for (const auto& j : jobs) out += j.type() + "/" + sanitize(j.name) + "\n";
  return out;
}

std::string job_names(const JobSource& jobs) {
  std::string out;
  for (size_t i = 0; i < jobs.size; ++i) {
    const TrainingJob j = jobs.job(i);
    out += j.type() + "/" + sanitize(j.name) + "\n";
  }
  return out;
}

nlohmann::ordered_json jobs_json(const JobList& jobs) {
  auto arr = nlohmann::ordered_json::array();
  for (const auto& j : jobs) arr.push_back(j.to_json());
  return arr;
}

namespace {

// `job(i)` the i-th job, a TrainingJob or a reference to one.
template <class JobAt>
void write_json(std::ostream& out, size_t n, const JobAt& job) {
  if (n == 0) {
    out << to_json(nlohmann::ordered_json::array());
    return;
  }
  out << "[\n";
  for (size_t i = 0; i < n; ++i) {
    // As dump(2) nests an element: every line indented by two more spaces. Strings in
    // dumped JSON never hold a raw newline, so lines are safe to indent.
    const std::string text =
        job(i).to_json().dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    out << "  ";
    for (char c : text) {
      out << c;
      if (c == '\n') out << "  ";
    }
    out << (i + 1 < n ? ",\n" : "\n");
  }
  out << "]\n";
}

template <class JobAt>
void write_yaml(std::ostream& out, size_t n, const JobAt& job) {
  if (n == 0) {
    out << to_yaml(nlohmann::ordered_json::array());
    return;
  }
  // A block sequence is the concatenation of its one-element sequences.
  for (size_t i = 0; i < n; ++i) out << to_yaml(nlohmann::ordered_json::array({job(i).to_json()}));
}

}  // namespace

void write_jobs_json(std::ostream& out, const JobList& jobs) {
  write_json(out, jobs.size(), [&](size_t i) -> const TrainingJob& { return jobs[i]; });
}

void write_jobs_yaml(std::ostream& out, const JobList& jobs) {
  write_yaml(out, jobs.size(), [&](size_t i) -> const TrainingJob& { return jobs[i]; });
}

void write_jobs_json(std::ostream& out, const JobSource& jobs) { write_json(out, jobs.size, jobs.job); }

void write_jobs_yaml(std::ostream& out, const JobSource& jobs) { write_yaml(out, jobs.size, jobs.job); }

void write_jobs(std::ostream& out, const JobList& jobs, OutputFormat format) {
  if (format == OutputFormat::Json)
    write_jobs_json(out, jobs);
  else
    write_jobs_yaml(out, jobs);
}

void write_jobs(std::ostream& out, const JobSource& jobs, OutputFormat format) {
  if (format == OutputFormat::Json)
    write_jobs_json(out, jobs);
  else
    write_jobs_yaml(out, jobs);
}

Table top_job_instances_table(const TrainingJob& job, const std::vector<metrics::GpuMetric>& gpus, bool idle_column) {
  std::vector<std::string> header = {"NAME", "STATUS", "GPU(Request)", "NODE", "GPU(DeviceIndex)", "GPU(DutyCycle)",
                                     "GPU_MEMORY(Used/Total)"};
  if (idle_column) header.push_back("GPU(Idle)");
  Table t(header);
  t.set_status_column(1);
  for (const auto& i : job.instances) {
    const std::string node = i.node_name.empty() ? "N/A" : i.node_name;
    const auto held = gpus_of(gpus, i.name);
    std::vector<std::vector<std::string>> rows;
    if (held.empty())
      rows.push_back({i.name, i.status, std::to_string(i.gpus), node, i.gpu_index.empty() ? "N/A" : i.gpu_index,
                      "N/A", "N/A", "N/A"});
    for (const auto* g : held)
      rows.push_back({i.name, i.status, std::to_string(i.gpus), node, gpu_device_index(*g), duty_cycle_text(*g),
                      gpu_memory_text(*g), idle_text(*g)});
    for (auto& row : rows) {
      if (!idle_column) row.pop_back();
      t.add_row(std::move(row));
    }
  }
  return t;
}

nlohmann::ordered_json job_json_with_gpus(const TrainingJob& job,
                                          const std::optional<std::vector<metrics::GpuMetric>>& gpus) {
  nlohmann::ordered_json j = job.to_json();
  for (auto& ij : j["instances"]) {
    if (!gpus) {
      ij["gpuMetrics"] = nullptr;
      continue;
    }
    nlohmann::ordered_json per = nlohmann::ordered_json::object();
    for (const auto* g : gpus_of(*gpus, ij.value("name", ""))) per[gpu_device_index(*g)] = gpu_metric_json(*g);
    ij["gpuMetrics"] = std::move(per);
  }
  return j;
}

std::string job_details(const TrainingJob& job, const IOStreams& io, const std::string& gpus_section) {
  std::vector<std::pair<std::string, std::string>> fields = {
      {"Name:", job.name},
      {"Status:", status_name(job.status)},
      {"Namespace:", job.namespace_},
      {"Priority:", job.priority},
      {"Trainer:", job.trainer()},
      {"Duration:", short_human_duration(job.duration)},
      {"CreateTime:", format_local(job.created)},
      {"EndTime:", job.ended ? format_local(*job.ended) : ""},
  };
  // Arena's fields; an elastic job also says how many workers run and what it may run with.
  if (job.elastic) fields.insert(fields.begin() + 6, {"Workers:", job.workers_display()});
  // What the job reports of its training (TrainJob's trainerStatus): after the duration.
  if (job.progress) {
    auto at = fields.begin() + 6;
    at = fields.insert(at, {"Progress:", job.progress->display()}) + 1;
    if (!job.progress->metrics.empty())
      at = fields.insert(at, {"Metrics:", job.progress->metrics_display()}) + 1;
    if (auto t = parse_time(job.progress->updated)) fields.insert(at, {"Reported:", format_local(*t)});
  }
  std::string out;
  for (const auto& [key, value] : fields) {
    std::string line = key;
    if (!value.empty()) line += std::string(13 - key.size(), ' ') + sanitize(value);
    out += line + "\n";
  }
  out += "\nInstances:\n";
  Table t({"NAME", "STATUS", "AGE", "IS_CHIEF", "GPU(Requested)", "NODE"});
  t.set_underline(true);
  t.set_status_column(1);
  for (const auto& i : job.instances)
    t.add_row({i.name, i.status, short_human_duration(job.duration), i.is_chief ? "true" : "false",
               std::to_string(i.gpus), i.node_name.empty() ? "N/A" : i.node_name});
  out += t.render(io);
  out += gpus_section;
  if (!job.tensorboard.empty())
    out += "\nYour tensorboard will be available on:\n" + sanitize(job.tensorboard) + "\n";
  return out;
}

std::string job_gpus_view(const TrainingJob& job, const std::vector<metrics::GpuMetric>& gpus, const IOStreams& io) {
  Table t({"INSTANCE", "NODE(IP)", "GPU(Requested)", "GPU(IndexId)", "GPU(DutyCycle)", "GPU Memory(Used/Total)"});
  for (const auto& i : job.instances) {
    const std::string ip = i.node_ip.empty() ? "N/A" : i.node_ip;
    const auto held = gpus_of(gpus, i.name);
    if (held.empty()) t.add_row({i.name, ip, std::to_string(i.gpus), i.gpu_index.empty() ? "N/A" : i.gpu_index, "N/A", "N/A"});
    for (const auto* g : held)
      t.add_row({i.name, ip, std::to_string(i.gpus), gpu_device_index(*g), duty_cycle_text(*g), gpu_memory_text(*g)});
  }
  return "\nGPUs:\n" + t.render(io) + "\nAllocated/Requested GPUs of Job: " + std::to_string(job.gpus_allocated) + "/" +
         std::to_string(job.gpus_requested) + "\n";
}

std::string events_view(const std::vector<nlohmann::json>& events, TimePoint now, const IOStreams& io) {
  std::string out = "\nEvents:\n";
  if (events.empty()) return out + "No events for resources\n";
  std::vector<const nlohmann::json*> sorted;
  for (const auto& e : events) sorted.push_back(&e);
  std::stable_sort(sorted.begin(), sorted.end(), [](const nlohmann::json* a, const nlohmann::json* b) {
    return event_time(*a) < event_time(*b);
  });
  Table t({"SOURCE", "TYPE", "AGE", "MESSAGE"});
  t.set_underline(true);
  for (const auto* e : sorted) {
    const auto& obj = at(*e, "involvedObject");
    std::string kind = str(obj, "kind");
    std::transform(kind.begin(), kind.end(), kind.begin(), [](unsigned char c) { return std::tolower(c); });
    t.add_row({kind + "/" + str(obj, "name"), str(*e, "type"),
               short_human_duration(seconds_between(event_time(*e), now)),
               "[" + str(*e, "reason") + "] " + str(*e, "message")});
  }
  return out + t.render(io);
}

nlohmann::ordered_json events_json(const std::vector<nlohmann::json>& events) {
  auto arr = nlohmann::ordered_json::array();
  for (const auto& e : events) {
    nlohmann::ordered_json j;
    j["source"] = str(at(e, "involvedObject"), "kind") + "/" + str(at(e, "involvedObject"), "name");
    j["type"] = str(e, "type");
    j["reason"] = str(e, "reason");
    j["message"] = str(e, "message");
    j["time"] = format_rfc3339(event_time(e));
    arr.push_back(std::move(j));
  }
  return arr;
}

}  // namespace trainctl::print
