// Loading Trainer runtimes at start (see trainer_runtimes.h).
#include "kubesim/trainer_runtimes.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "core/file.h"
#include "kubesim/controllers/trainer_model.h"
#include "kubesim/seed_objects.h"
#include "yaml/read.h"

namespace kubesim {

size_t load_trainer_runtimes(Store& store, const std::string& dir) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(dir)) throw std::runtime_error("--runtimes: no directory " + dir);
  const TrainerTypes t = TrainerTypes::find(store);
  if (!t.clustertrainingruntimes || !t.trainingruntimes)
    throw std::runtime_error("--runtimes: Kubeflow Trainer is not served (add trainer to --operators)");
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string ext = e.path().extension().string();
    if (e.is_regular_file() && (ext == ".yaml" || ext == ".yml" || ext == ".json")) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  size_t n = 0;
  const ResourceType* namespaces = store.find("", "v1", "namespaces");
  for (const auto& f : files) {
    std::string error;
    const auto text = trainctl::read_file(f.string(), error);
    if (!text) throw std::runtime_error("--runtimes: cannot read " + f.string() + ": " + error);
    for (json doc : trainctl::yaml::parse_all(*text, f.string())) {
      if (!doc.is_object() || doc.value("apiVersion", "") != kTrainerApiVersion) continue;
      const std::string kind = doc.value("kind", "");
      const bool cluster = kind == "ClusterTrainingRuntime";
      if (!cluster && kind != "TrainingRuntime") continue;
      doc = runtime_with_defaults(std::move(doc));
      json& md = doc["metadata"];
      md.erase("resourceVersion");
      std::string ns;
      if (cluster) {
        md.erase("namespace");
      } else {
        ns = md.value("namespace", "default");
        md["namespace"] = ns;
        if (namespaces && !store.get(*namespaces, "", ns)) store.create(*namespaces, make_namespace(ns));
      }
      const ResourceType& rt = cluster ? *t.clustertrainingruntimes : *t.trainingruntimes;
      if (store.get(rt, ns, md.value("name", ""))) store.update(rt, std::move(doc));
      else store.create(rt, std::move(doc));
      ++n;
    }
  }
  return n;
}

}  // namespace kubesim
