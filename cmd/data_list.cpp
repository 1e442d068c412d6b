// trainctl data list: the bound PVCs a job can mount with --data PVC:/path.
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/run.h"
#include "core/duration.h"
#include "jobs/json_util.h"
#include "jobs/parallel_list.h"
#include "jobs/time.h"
#include "print/output.h"
#include "print/table.h"

namespace trainctl {

namespace {

struct DataListOptions {
  bool all_namespaces = false;
  std::string output;
};

void run_data_list(const DataListOptions& o, Factory& f) {
  using jobs::at;
  using jobs::str;
  using print::OutputFormat;
  const auto format =
      print::parse_output(o.output, {OutputFormat::Wide, OutputFormat::Json, OutputFormat::Yaml});
  const std::string path = o.all_namespaces
                               ? "/api/v1/persistentvolumeclaims"
                               : "/api/v1/namespaces/" + f.namespace_() + "/persistentvolumeclaims";
  auto results = jobs::read_all(f.client(), {{path, true}});
  const auto now = f.clock()();
  // Arena: NAMESPACE is the second column with --all-namespaces.
  std::vector<std::string> header = {"NAME", "ACCESSMODE", "DESCRIPTION", "OWNER", "AGE"};
  if (o.all_namespaces) header.insert(header.begin() + 1, "NAMESPACE");
  print::Table t(header);
  auto arr = nlohmann::ordered_json::array();
  for (const auto& pvc : results[0].items) {
    if (str(at(pvc, "status"), "phase") != "Bound" ||
        at(at(pvc, "metadata"), "deletionTimestamp").is_string())
      continue;
    const auto& modes = jobs::at_path(pvc, {"spec", "accessModes"});
    const std::string mode =
        modes.is_array() && !modes.empty() && modes[0].is_string() ? modes[0].get<std::string>() : "";
    const auto created = jobs::parse_time(str(at(pvc, "metadata"), "creationTimestamp")).value_or(now);
    const auto age = jobs::seconds_between(created, now);
    std::vector<std::string> row = {jobs::name_of(pvc), mode, jobs::annotation(pvc, "description"),
                                    jobs::annotation(pvc, "owner"), short_human_duration(age)};
    if (o.all_namespaces) row.insert(row.begin() + 1, jobs::namespace_of(pvc));
    t.add_row(std::move(row));
    nlohmann::ordered_json j;
    j["name"] = jobs::name_of(pvc);
    j["namespace"] = jobs::namespace_of(pvc);
    j["accessModes"] = modes.is_array() ? modes : nlohmann::json::array();
    j["description"] = jobs::annotation(pvc, "description");
    j["owner"] = jobs::annotation(pvc, "owner");
    j["volumeName"] = str(at(pvc, "spec"), "volumeName");
    j["storageClass"] = str(at(pvc, "spec"), "storageClassName");
    j["capacity"] = str(jobs::at_path(pvc, {"status", "capacity"}), "storage");
    j["age"] = std::to_string(age.count()) + "s";
    arr.push_back(std::move(j));
  }
  auto& out = f.io().out();
  if (format == OutputFormat::Json) {
    out << print::to_json(arr);
  } else if (format == OutputFormat::Yaml) {
    out << print::to_yaml(arr);
  } else {
    out << t.render(f.io());
  }
}

}  // namespace

void setup_data_list(CLI::App& data, Factory& f) {
  auto opts = std::make_shared<DataListOptions>();
  auto* cmd = data.add_subcommand("list", "List the PVCs usable with --data");
  cmd->alias("ls");
  cmd->add_flag("-A,--all-namespaces", opts->all_namespaces, "PVCs of all namespaces");
  cmd->add_flag("--allNamespaces", opts->all_namespaces, "Deprecated spelling of --all-namespaces")
      ->group("");
  cmd->add_option("-o,--output", opts->output, "Output format: wide (default), json or yaml");
  set_examples(cmd,
               "  # Volumes to mount with --data NAME:/path\n"
               "  trainctl data list\n"
               "  trainctl data list -A\n");
  bind_run(cmd, f, [opts, &f] { run_data_list(*opts, f); });
}

}  // namespace trainctl
