// trainctl data list: the bound PVCs a job can mount with --data PVC:/path.
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/run.h"
#include "core/duration.h"
#include "jobs/data_volumes.h"
#include "print/output.h"
#include "print/table.h"

namespace trainctl {

namespace {

struct DataListOptions {
  bool all_namespaces = false;
  std::string output;
};

void run_data_list(const DataListOptions& o, Factory& f) {
  using print::OutputFormat;
  const auto format =
      print::parse_output(o.output, {OutputFormat::Wide, OutputFormat::Json, OutputFormat::Yaml});
  const auto volumes = jobs::list_data_volumes(f.client(), o.all_namespaces ? "" : f.namespace_(), f.clock()());
  // Arena: NAMESPACE is the second column with --all-namespaces.
  std::vector<std::string> header = {"NAME", "ACCESSMODE", "DESCRIPTION", "OWNER", "AGE"};
  if (o.all_namespaces) header.insert(header.begin() + 1, "NAMESPACE");
  print::Table t(header);
  auto arr = nlohmann::ordered_json::array();
  for (const auto& v : volumes) {
    std::vector<std::string> row = {v.name, v.access_mode, v.description, v.owner, short_human_duration(v.age)};
    if (o.all_namespaces) row.insert(row.begin() + 1, v.namespace_);
    t.add_row(std::move(row));
    nlohmann::ordered_json j;
    j["name"] = v.name;
    j["namespace"] = v.namespace_;
    j["accessModes"] = v.access_modes;
    j["description"] = v.description;
    j["owner"] = v.owner;
    j["volumeName"] = v.volume_name;
    j["storageClass"] = v.storage_class;
    j["capacity"] = v.capacity;
    j["age"] = std::to_string(v.age.count()) + "s";
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
