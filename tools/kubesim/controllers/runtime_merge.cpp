// Strategic merge patches of JobSet templates (see runtime_merge.h).
#include "kubesim/controllers/runtime_merge.h"

#include <algorithm>
#include <map>

namespace kubesim {

namespace {

// A field of a Go type: the type of its value (or of its list's elements), and the merge key
// when it is a list merged by key.
struct FieldMeta {
  const char* type;
  const char* merge_key;
};

// The types on the way to a list that merges by key; any other field merges as a plain map
// and replaces its lists.
const std::map<std::string, std::map<std::string, FieldMeta>>& patch_meta() {
  static const std::map<std::string, std::map<std::string, FieldMeta>> meta = {
      {"JobSetSpec", {{"replicatedJobs", {"ReplicatedJob", "name"}}}},
      {"ReplicatedJob", {{"template", {"JobTemplateSpec", nullptr}}, {"dependsOn", {"", "name"}}}},
      {"JobTemplateSpec", {{"spec", {"JobSpec", nullptr}}}},
      {"JobSpec", {{"template", {"PodTemplateSpec", nullptr}}}},
      {"PodTemplateSpec", {{"spec", {"PodSpec", nullptr}}}},
      {"PodSpec",
       {{"volumes", {"", "name"}},
        {"containers", {"Container", "name"}},
        {"initContainers", {"Container", "name"}},
        {"ephemeralContainers", {"Container", "name"}},
        {"imagePullSecrets", {"", "name"}},
        {"schedulingGates", {"", "name"}},
        {"resourceClaims", {"", "name"}},
        {"hostAliases", {"", "ip"}},
        {"topologySpreadConstraints", {"", "topologyKey"}}}},
      {"Container",
       {{"env", {"", "name"}},
        {"ports", {"", "containerPort"}},
        {"volumeMounts", {"", "mountPath"}},
        {"volumeDevices", {"", "devicePath"}},
        {"resources", {"ResourceRequirements", nullptr}}}},
      {"ResourceRequirements", {{"claims", {"", "name"}}}},
  };
  return meta;
}

const FieldMeta* field_meta(const std::string& type, const std::string& field) {
  const auto t = patch_meta().find(type);
  if (t == patch_meta().end()) return nullptr;
  const auto f = t->second.find(field);
  return f == t->second.end() ? nullptr : &f->second;
}

bool is_directive(const std::string& key) {
  return key == "$patch" || key == "$retainKeys" || key.rfind("$setElementOrder/", 0) == 0 ||
         key.rfind("$deleteFromPrimitiveList/", 0) == 0;
}

void smp(json& target, const json& patch, const std::string& type);

void smp_list(json& target, const json& patch, const FieldMeta& fm) {
  if (!target.is_array()) target = json::array();
  const std::string key = fm.merge_key;
  for (const auto& pe : patch) {
    if (!pe.is_object() || !pe.contains(key)) {
      target.push_back(pe);
      continue;
    }
    const bool del = pe.value("$patch", "") == "delete";
    auto it = std::find_if(target.begin(), target.end(),
                           [&](const json& e) { return e.is_object() && e.contains(key) && e[key] == pe[key]; });
    if (it != target.end()) {
      if (del) target.erase(it);
      else smp(*it, pe, fm.type);
    } else if (!del) {
      json added = pe;
      for (auto d = added.begin(); d != added.end();) d = is_directive(d.key()) ? added.erase(d) : std::next(d);
      target.push_back(std::move(added));
    }
  }
}

void smp(json& target, const json& patch, const std::string& type) {
  if (!patch.is_object()) {
    target = patch;
    return;
  }
  if (patch.value("$patch", "") == "replace") {
    target = patch;
    target.erase("$patch");
    return;
  }
  if (!target.is_object()) target = json::object();
  for (const auto& [k, v] : patch.items()) {
    if (is_directive(k)) continue;
    if (v.is_null()) {
      target.erase(k);
      continue;
    }
    if (v.is_object() && v.value("$patch", "") == "delete") {
      target.erase(k);
      continue;
    }
    const FieldMeta* fm = field_meta(type, k);
    if (v.is_array()) {
      if (fm && fm->merge_key) smp_list(target[k], v, *fm);
      else target[k] = v;
      continue;
    }
    smp(target[k], v, fm ? fm->type : "");
  }
}

}  // namespace

void strategic_merge_jobset_spec(json& spec, const json& patch) { smp(spec, patch, "JobSetSpec"); }

void merge_runtime_patches(json& spec, const json& patches) {
  std::map<std::string, size_t> order;
  if (spec.contains("replicatedJobs") && spec["replicatedJobs"].is_array())
    for (size_t i = 0; i < spec["replicatedJobs"].size(); ++i)
      order[spec["replicatedJobs"][i].value("name", "")] = i;
  if (!patches.is_array()) return;
  for (const auto& p : patches) {
    const json rs = p.value("trainingRuntimeSpec", json());
    if (!rs.is_object() || !rs.contains("template") || !rs["template"].is_object() ||
        !rs["template"].contains("spec") || rs["template"]["spec"].is_null())
      continue;
    strategic_merge_jobset_spec(spec, rs["template"]["spec"]);
  }
  if (!spec.contains("replicatedJobs") || !spec["replicatedJobs"].is_array()) return;
  auto rank = [&](const json& rj) {
    auto it = order.find(rj.value("name", ""));
    return it == order.end() ? size_t{0} : it->second;
  };
  std::vector<json> rjobs(spec["replicatedJobs"].begin(), spec["replicatedJobs"].end());
  std::stable_sort(rjobs.begin(), rjobs.end(), [&](const json& a, const json& b) { return rank(a) < rank(b); });
  spec["replicatedJobs"] = rjobs;
}

json merge_resource_requirements(const json& base, const json& override) {
  json out = base.is_object() ? base : json::object();
  if (override.is_object()) smp(out, override, "ResourceRequirements");
  for (const char* k : {"limits", "requests"})
    if (out.contains(k) && out[k].is_object() && out[k].empty()) out.erase(k);
  return out;
}

}  // namespace kubesim
