// SchemaSet: loading a schema directory, CRD info, and schema lookup by apiVersion/kind
// (core kinds parsed lazily from the OpenAPI documents).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>

#include "core/errors.h"
#include "core/file.h"
#include "schema/crd_loader.h"
#include "schema/schema.h"
#include "schema/schema_node.h"

namespace fs = std::filesystem;

namespace trainctl::schema {

// Named, not anonymous: SchemaSet::Impl holds one (a unity build would warn otherwise).
namespace detail {
struct OpenApiDoc {
  std::string path;
  std::string group_version;  // "v1", "apps/v1"
  bool parsed = false;
  nlohmann::json components;  // components.schemas
  std::unordered_map<std::string, const SchemaNode*> memo;
};
}  // namespace detail
using detail::OpenApiDoc;

namespace {

// "api__v1_openapi.json" -> "v1", "apis__apps__v1_openapi.json" -> "apps/v1".
std::string group_version_of(const std::string& file_name) {
  const std::string suffix = "_openapi.json";
  if (file_name.size() <= suffix.size() ||
      file_name.compare(file_name.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return {};
  }
  std::string stem = file_name.substr(0, file_name.size() - suffix.size());
  if (stem.rfind("api__", 0) == 0) return stem.substr(5);
  if (stem.rfind("apis__", 0) != 0) return {};
  std::string rest = stem.substr(6);
  auto sep = rest.find("__");
  if (sep == std::string::npos) return {};
  return rest.substr(0, sep) + "/" + rest.substr(sep + 2);
}

// "v1.35" -> {1, 35}; {-1} when the name is not a version.
std::vector<int> version_key(const std::string& name) {
  if (name.size() < 2 || name[0] != 'v') return {-1};
  std::vector<int> out;
  std::string part;
  for (char c : name.substr(1) + ".") {
    if (c == '.') {
      if (part.empty() || part.size() > 6) return {-1};
      out.push_back(std::stoi(part));
      part.clear();
    } else if (c >= '0' && c <= '9') {
      part += c;
    } else {
      return {-1};
    }
  }
  return out;
}

std::pair<std::string, std::string> split_api_version(std::string_view api_version) {
  auto slash = api_version.find('/');
  if (slash == std::string_view::npos) return {"", std::string(api_version)};
  return {std::string(api_version.substr(0, slash)), std::string(api_version.substr(slash + 1))};
}

}  // namespace

struct SchemaSet::Impl {
  std::vector<CrdInfo> crds;
  NodeArena arena;
  RegexCache regexes;
  std::map<std::string, std::unique_ptr<Schema>> schemas;  // "apiVersion|kind"
  std::set<std::string> missing;
  std::vector<OpenApiDoc> docs;
  std::string openapi_version;
  std::mutex mutex;

  void load_openapi_dir(const fs::path& dir);
  const Schema* find_core(const std::string& key, std::string_view api_version, std::string_view kind);
  void parse(OpenApiDoc& doc);
};

void SchemaSet::Impl::load_openapi_dir(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;
  fs::path newest;
  std::vector<int> newest_key{-1};
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_directory()) continue;
    auto key = version_key(entry.path().filename().string());
    if (key.front() >= 0 && key > newest_key) {
      newest_key = key;
      newest = entry.path();
    }
  }
  if (ec) throw ConfigError("cannot read " + dir.string() + ": " + ec.message());
  if (newest.empty()) return;
  openapi_version = newest.filename().string();
  for (const auto& entry : fs::directory_iterator(newest)) {
    std::string name = entry.path().filename().string();
    std::string gv = group_version_of(name);
    if (gv.empty()) continue;
    std::ifstream probe(entry.path());  // parsed on first use; unreadable is an error now
    if (!probe) throw ConfigError("cannot read " + entry.path().string());
    OpenApiDoc& doc = docs.emplace_back();
    doc.path = entry.path().string();
    doc.group_version = gv;
  }
}

void SchemaSet::Impl::parse(OpenApiDoc& doc) {
  if (doc.parsed) return;
  nlohmann::json j = nlohmann::json::parse(read_file(doc.path), nullptr, false);
  if (j.is_discarded()) throw ConfigError(doc.path + ": malformed JSON");
  auto schemas = j.find("components");
  if (schemas == j.end() || !schemas->is_object() || !schemas->contains("schemas") ||
      !(*schemas)["schemas"].is_object()) {
    throw ConfigError(doc.path + ": no components.schemas");
  }
  doc.components = std::move((*schemas)["schemas"]);
  doc.parsed = true;
}

const Schema* SchemaSet::Impl::find_core(const std::string& key, std::string_view api_version,
                                         std::string_view kind) {
  auto doc = std::find_if(docs.begin(), docs.end(),
                          [&](const OpenApiDoc& d) { return d.group_version == api_version; });
  if (doc == docs.end()) return nullptr;
  parse(*doc);
  auto [group, version] = split_api_version(api_version);
  for (const auto& [name, schema] : doc->components.items()) {
    auto gvks = schema.find("x-kubernetes-group-version-kind");
    if (gvks == schema.end() || !gvks->is_array()) continue;
    for (const auto& gvk : *gvks) {
      if (gvk.value("group", "") != group || gvk.value("version", "") != version ||
          gvk.value("kind", "") != kind) {
        continue;
      }
      NodeCompiler compiler(arena, regexes, &doc->components, doc->memo, doc->path, false);
      const SchemaNode* root = compiler.component(name);
      auto made = std::make_unique<Schema>(std::string(api_version), std::string(kind), false, root);
      return schemas.emplace(key, std::move(made)).first->second.get();
    }
  }
  return nullptr;
}

SchemaSet::SchemaSet() : m_impl(std::make_unique<Impl>()) {}
SchemaSet::~SchemaSet() = default;
SchemaSet::SchemaSet(SchemaSet&&) noexcept = default;
SchemaSet& SchemaSet::operator=(SchemaSet&&) noexcept = default;

SchemaSet SchemaSet::load_dir(const std::string& dir, bool with_openapi) {
  SchemaSet set;
  Impl& impl = *set.m_impl;
  const fs::path crd_dir = fs::path(dir) / "crds";
  std::error_code ec;
  if (!fs::is_directory(crd_dir, ec)) {
    throw ConfigError("schema directory " + dir + " has no crds/ folder");
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(crd_dir, ec)) {
    auto ext = entry.path().extension().string();
    if (ext == ".yaml" || ext == ".yml" || ext == ".json") files.push_back(entry.path());
  }
  if (ec) throw ConfigError("cannot read " + crd_dir.string() + ": " + ec.message());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    for (auto& crd : load_crd_file(file.string(), impl.arena, impl.regexes)) {
      for (const auto& [version, root] : crd.version_schemas) {
        std::string api_version = crd.info.group + "/" + version;
        impl.schemas[api_version + "|" + crd.info.kind] =
            std::make_unique<Schema>(api_version, crd.info.kind, true, root);
      }
      impl.crds.push_back(std::move(crd.info));
    }
  }
  std::sort(impl.crds.begin(), impl.crds.end(),
            [](const CrdInfo& a, const CrdInfo& b) { return a.name < b.name; });
  if (with_openapi) impl.load_openapi_dir(fs::path(dir) / "openapi");
  return set;
}

const std::vector<CrdInfo>& SchemaSet::crds() const { return m_impl->crds; }

const CrdInfo* SchemaSet::find_crd(std::string_view group, std::string_view kind) const {
  for (const auto& crd : m_impl->crds) {
    if (crd.group == group && crd.kind == kind) return &crd;
  }
  return nullptr;
}

const Schema* SchemaSet::find(std::string_view api_version, std::string_view kind) const {
  std::lock_guard lock(m_impl->mutex);
  std::string key = std::string(api_version) + "|" + std::string(kind);
  if (auto it = m_impl->schemas.find(key); it != m_impl->schemas.end()) return it->second.get();
  if (m_impl->missing.count(key) != 0) return nullptr;
  const Schema* found = m_impl->find_core(key, api_version, kind);
  if (found == nullptr) m_impl->missing.insert(key);
  return found;
}

ValidationResult SchemaSet::validate(const nlohmann::json& obj, Mode mode) const {
  const Schema* schema = find_for(obj);
  if (schema == nullptr) {
    ValidationResult result;
    result.schema_found = false;
    return result;
  }
  return schema->validate(obj, mode);
}

nlohmann::json SchemaSet::prune(const nlohmann::json& obj) const {
  const Schema* schema = find_for(obj);
  return schema != nullptr ? schema->prune(obj) : obj;
}

const Schema* SchemaSet::find_for(const nlohmann::json& obj) const {
  if (!obj.is_object()) return nullptr;
  auto api_version = obj.find("apiVersion");
  auto kind = obj.find("kind");
  if (api_version == obj.end() || !api_version->is_string() || kind == obj.end() || !kind->is_string()) {
    return nullptr;
  }
  return find(api_version->get<std::string>(), kind->get<std::string>());
}

nlohmann::json SchemaSet::apply_defaults(const nlohmann::json& obj) const {
  const Schema* schema = find_for(obj);
  return schema != nullptr ? schema->apply_defaults(obj) : obj;
}

const std::string& SchemaSet::openapi_version() const { return m_impl->openapi_version; }

}  // namespace trainctl::schema
