// CustomResourceDefinition objects as kube-apiserver serves them (see crd_objects.h).
#include "kubesim/crd_objects.h"

#include <algorithm>
#include <mutex>
#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>

#include "core/file.h"
#include "yaml/read.h"

namespace kubesim {

namespace {

std::vector<std::string> split_field_path(const std::string& path) {
  std::vector<std::string> parts;
  std::stringstream ss(path);
  for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
  return parts;
}

// kube-apiserver's status of an established CRD (apiextensions-apiserver
// pkg/controller/establish and the naming controller).
json established_status(const json& crd, const std::string& now) {
  const json& spec = crd["spec"];
  json stored = json::array();
  for (const auto& v : spec.value("versions", json::array()))
    if (v.value("storage", false)) stored.push_back(v.value("name", ""));
  return {{"acceptedNames", spec.value("names", json::object())},
          {"conditions", json::array({{{"lastTransitionTime", now},
                                       {"message", "no conflicts found"},
                                       {"reason", "NoConflicts"},
                                       {"status", "True"},
                                       {"type", "NamesAccepted"}},
                                      {{"lastTransitionTime", now},
                                       {"message", "the initial names have been accepted"},
                                       {"reason", "InitialNamesAccepted"},
                                       {"status", "True"},
                                       {"type", "Established"}}})},
          {"storedVersions", stored}};
}

std::string format_now(std::chrono::system_clock::time_point t) {
  const std::time_t tt = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

CrdFieldDrop parse_crd_drop_field(const std::string& arg) {
  const auto colon = arg.find(':');
  const std::string how = " (write PLURAL.GROUP:FIELD.PATH, e.g. pytorchjobs.kubeflow.org:spec.nprocPerNode)";
  if (colon == std::string::npos || colon == 0 || colon + 1 == arg.size())
    throw std::invalid_argument("--crd-drop-field \"" + arg + "\": expected CRD:FIELD" + how);
  CrdFieldDrop d{arg.substr(0, colon), arg.substr(colon + 1)};
  if (d.crd.find('.') == std::string::npos)
    throw std::invalid_argument("--crd-drop-field \"" + arg + "\": \"" + d.crd + "\" is not PLURAL.GROUP" +
                                how);
  for (const auto& p : split_field_path(d.path))
    if (p.empty()) throw std::invalid_argument("--crd-drop-field \"" + arg + "\": empty field name" + how);
  return d;
}

namespace {

std::vector<std::filesystem::path> crd_files(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  if (dir.empty() || !fs::is_directory(dir)) return files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const auto ext = e.path().extension().string();
    if (e.is_regular_file() && (ext == ".yaml" || ext == ".yml" || ext == ".json")) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

std::string crd_dir_signature(const std::string& dir) {
  namespace fs = std::filesystem;
  if (dir.empty()) return "";
  std::string sig = fs::absolute(dir).string();
  for (const auto& f : crd_files(dir)) {
    std::error_code ec;
    sig += "|" + f.filename().string() + ":" + std::to_string(fs::file_size(f, ec)) + ":" +
           std::to_string(fs::last_write_time(f, ec).time_since_epoch().count());
  }
  return sig;
}

std::vector<json> load_crd_documents(const std::string& dir) {
  // Parsing the real CRDs' YAML (about 3 MB) is most of a server's start, and a test process
  // starts dozens of servers on one directory: each directory, as its files are now, is parsed
  // once per process and copied from then on.
  static std::mutex mu;
  static std::map<std::string, std::vector<json>> parsed;
  if (dir.empty()) return {};
  const std::string key = crd_dir_signature(dir);
  {
    std::lock_guard lock(mu);
    if (auto it = parsed.find(key); it != parsed.end()) return it->second;
  }
  std::vector<json> out;
  for (const auto& f : crd_files(dir)) {
    for (auto& doc : trainctl::yaml::parse_all(trainctl::read_file(f.string()), f.string()))
      if (doc.is_object() && doc.value("kind", "") == "CustomResourceDefinition")
        out.push_back(std::move(doc));
  }
  std::lock_guard lock(mu);
  return parsed.emplace(key, std::move(out)).first->second;
}

bool drop_crd_field(json& crd, const std::string& path) {
  const auto parts = split_field_path(path);
  bool dropped = false;
  for (auto& v : crd["spec"]["versions"]) {
    json* node = &v["schema"]["openAPIV3Schema"];
    for (size_t i = 0; node && i < parts.size(); ++i) {
      if (!node->is_object() || !node->contains("properties") || !(*node)["properties"].contains(parts[i])) {
        node = nullptr;
        break;
      }
      if (i + 1 == parts.size()) {
        (*node)["properties"].erase(parts[i]);
        if (node->contains("required") && (*node)["required"].is_array()) {
          json req = json::array();
          for (const auto& r : (*node)["required"])
            if (r != parts[i]) req.push_back(r);
          (*node)["required"] = req;
        }
        dropped = true;
      } else {
        node = &(*node)["properties"][parts[i]];
      }
    }
  }
  return dropped;
}

void serve_crd_at_version(Store& store, std::vector<json>& docs, const std::string& arg) {
  const auto eq = arg.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size())
    throw std::invalid_argument("--crd-version \"" + arg + "\": expected PLURAL.GROUP=VERSION, e.g. mpijobs.kubeflow.org=v1");
  const std::string name = arg.substr(0, eq), version = arg.substr(eq + 1);
  const ResourceType* served = nullptr;
  for (const ResourceType* rt : store.types())
    if (!store.is_builtin(*rt) && rt->crd_name() == name &&
        (!served || rt->storage_version.empty() || rt->storage_version == rt->version))
      served = rt;
  if (!served) throw std::invalid_argument("--crd-version: kubesim serves no custom resource \"" + name + "\"");
  ResourceType renamed = *served;
  const std::string old_version = renamed.storage_version.empty() ? renamed.version : renamed.storage_version;
  renamed.version = version;
  renamed.storage_version.clear();
  store.unregister_type(renamed.group, renamed.plural);
  store.register_type(renamed);
  for (auto& d : docs) {
    if (d["metadata"].value("name", "") != name) continue;
    json kept = json::array();
    for (const auto& v : d["spec"].value("versions", json::array()))
      if (v.value("name", "") == old_version) kept.push_back(v);
    if (kept.empty() && !d["spec"].value("versions", json::array()).empty()) kept.push_back(d["spec"]["versions"][0]);
    for (auto& v : kept) {
      v["name"] = version;
      v["served"] = true;
      v["storage"] = true;
    }
    d["spec"]["versions"] = kept;
  }
}

void publish_crds(Store& store, const std::vector<json>& docs, const std::vector<CrdFieldDrop>& drops) {
  const ResourceType* crds = store.find("apiextensions.k8s.io", "v1", "customresourcedefinitions");
  if (!crds) return;
  std::map<std::string, json> by_name;
  for (const ResourceType* rt : store.types()) {
    if (store.is_builtin(*rt)) continue;
    const std::string name = rt->crd_name();
    if (by_name.count(name)) continue;
    json doc;
    for (const auto& d : docs)
      if (d["metadata"].value("name", "") == name) doc = d;
    by_name[name] = doc.is_null() ? builtin_crd_document(*rt) : doc;
  }
  for (const auto& d : drops) {
    auto it = by_name.find(d.crd);
    if (it == by_name.end())
      throw std::invalid_argument("--crd-drop-field: kubesim serves no CRD \"" + d.crd +
                                  "\" (kubectl get crd lists the served ones)");
    if (!drop_crd_field(it->second, d.path))
      throw std::invalid_argument("--crd-drop-field: the CRD " + d.crd + " has no field \"" + d.path + "\"");
  }
  const std::string now = format_now(store.now());
  for (auto& [name, crd] : by_name) {
    json obj = crd;
    json meta = {{"name", name}};
    if (crd["metadata"].contains("annotations")) meta["annotations"] = crd["metadata"]["annotations"];
    if (crd["metadata"].contains("labels")) meta["labels"] = crd["metadata"]["labels"];
    meta["generation"] = 1;
    obj["metadata"] = meta;
    if (!obj["spec"].contains("conversion")) obj["spec"]["conversion"] = {{"strategy", "None"}};
    obj["status"] = established_status(crd, now);
    if (store.get(*crds, "", name)) store.remove(*crds, "", name);
    store.create(*crds, std::move(obj));
  }
}

Validator with_dropped_fields(Validator base, std::vector<CrdFieldDrop> drops) {
  return [base = std::move(base), drops = std::move(drops)](const ResourceType& rt, json& obj) {
    ValidationResult out;
    std::vector<std::string> dropped;
    for (const auto& d : drops) {
      if (d.crd != rt.crd_name()) continue;
      const auto parts = split_field_path(d.path);
      json* node = &obj;
      for (size_t i = 0; node && i + 1 < parts.size(); ++i)
        node = node->is_object() && node->contains(parts[i]) ? &(*node)[parts[i]] : nullptr;
      if (!node || !node->is_object() || !node->contains(parts.back())) continue;
      node->erase(parts.back());  // pruned, as an unknown field is
      dropped.push_back(d.path);
    }
    if (base) out = base(rt, obj);
    out.unknown_fields.insert(out.unknown_fields.begin(), dropped.begin(), dropped.end());
    return out;
  };
}

}  // namespace kubesim
