// Seed files: nodes, namespaces, PVCs and arbitrary manifests loaded into the store.
#include "kubesim/seed.h"

#include <stdexcept>

#include "core/file.h"
#include "kubesim/seed_objects.h"
#include "kubesim/store.h"
#include "yaml/read.h"

namespace kubesim {

namespace {

json list_of(const json& doc, const char* key) {
  return doc.contains(key) && doc[key].is_array() ? doc[key] : json::array();
}

void create_or_replace(Store& store, const ResourceType& rt, json obj) {
  const std::string ns = obj["metadata"].value("namespace", "");
  const std::string name = obj["metadata"].value("name", "");
  if (store.get(rt, ns, name)) {
    obj["metadata"].erase("resourceVersion");
    store.update(rt, std::move(obj));
    return;
  }
  store.create(rt, std::move(obj));
}

PrometheusOptions prometheus_of(const json& v, const std::string& path) {
  PrometheusOptions o;
  o.enabled = true;
  if (v.is_boolean()) {
    o.enabled = v.get<bool>();
    return o;
  }
  if (!v.is_object()) throw std::runtime_error(path + ": prometheus must be a mapping");
  o.exporter = v.value("exporter", o.exporter);
  o.ns = v.value("namespace", o.ns);
  o.service = v.value("service", o.service);
  o.port = v.value("port", o.port);
  o.endpoint = v.value("endpoint", o.endpoint);
  try {
    check_prometheus_exporter(o.exporter);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  return o;
}

}  // namespace

SeedStats load_seed_file(Store& store, const std::string& path) {
  std::string error;
  const std::optional<std::string> text = trainctl::read_file(path, error);
  if (!text) throw std::runtime_error("cannot read seed file " + path + ": " + error);
  SeedStats stats;
  for (const json& doc : trainctl::yaml::parse_all(*text, path)) {
    if (!doc.is_object()) continue;
    const ResourceType* ns_rt = store.find("", "v1", "namespaces");
    for (const auto& ns : list_of(doc, "namespaces")) {
      const std::string name = ns.is_string() ? ns.get<std::string>() : ns.value("name", "");
      if (name.empty() || !ns_rt) continue;
      if (!store.get(*ns_rt, "", name)) store.create(*ns_rt, make_namespace(name));
      ++stats.namespaces;
    }
    const ResourceType* node_rt = store.find("", "v1", "nodes");
    for (const auto& n : list_of(doc, "nodes")) {
      if (!node_rt) break;
      create_or_replace(store, *node_rt, make_node(n));
      ++stats.nodes;
    }
    const ResourceType* pvc_rt = store.find("", "v1", "persistentvolumeclaims");
    for (const auto& p : list_of(doc, "pvcs")) {
      if (!pvc_rt) break;
      json pvc = make_pvc(p);
      const std::string ns = pvc["metadata"].value("namespace", "default");
      if (ns_rt && !store.get(*ns_rt, "", ns)) store.create(*ns_rt, make_namespace(ns));
      create_or_replace(store, *pvc_rt, pvc);
      ++stats.pvcs;
    }
    json objects = list_of(doc, "objects");
    for (const auto& o : list_of(doc, "jobs")) objects.push_back(o);
    if (doc.contains("apiVersion") && doc.contains("kind")) objects.push_back(doc);
    for (json o : objects) {
      const ResourceType* rt = store.find_kind(o.value("apiVersion", ""), o.value("kind", ""));
      if (!rt)
        throw std::runtime_error(path + ": unknown kind " + o.value("kind", "?") + " in " +
                                 o.value("apiVersion", "?"));
      if (rt->namespaced) {
        if (!o["metadata"].contains("namespace")) o["metadata"]["namespace"] = "default";
        const std::string ns = o["metadata"]["namespace"];
        if (ns_rt && !store.get(*ns_rt, "", ns)) store.create(*ns_rt, make_namespace(ns));
      }
      create_or_replace(store, *rt, o);
      ++stats.objects;
    }
    if (doc.contains("prometheus")) {
      stats.prometheus = prometheus_of(doc["prometheus"], path);
      if (stats.prometheus->enabled) install_prometheus_service(store, *stats.prometheus);
    }
  }
  return stats;
}

GenerateOptions parse_generate_options(const std::string& text) {
  GenerateOptions o;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("expected key=value in --generate, got " + item);
    const std::string key = item.substr(0, eq);
    if (key == "mix") {
      const std::string mix = item.substr(eq + 1);
      if (mix != "pytorch" && mix != "all")
        throw std::invalid_argument("mix= in --generate must be all or pytorch, got " + mix);
      o.pytorch_only = mix == "pytorch";
      continue;
    }
    if (key == "objects") {
      const std::string shape = item.substr(eq + 1);
      if (shape != "real" && shape != "lean")
        throw std::invalid_argument("objects= in --generate must be real or lean, got " + shape);
      o.real_objects = shape == "real";
      continue;
    }
    unsigned long long v = 0;
    try {
      v = std::stoull(item.substr(eq + 1));
    } catch (const std::exception&) {
      throw std::invalid_argument("not a number in --generate: " + item);
    }
    if (key == "nodes")
      o.nodes = v;
    else if (key == "jobs")
      o.jobs = v;
    else if (key == "pods")
      o.pods = v;
    else if (key == "gpus")
      o.gpus_per_node = static_cast<int>(v);
    else if (key == "namespaces")
      o.namespaces = v;
    else if (key == "seed")
      o.random_seed = v;
    else if (key == "trainjobs")
      o.trainjobs = v;
    else
      throw std::invalid_argument("unknown --generate key " + key +
                                  " (nodes, jobs, pods, gpus, namespaces, seed, trainjobs, objects, mix)");
  }
  return o;
}

}  // namespace kubesim
