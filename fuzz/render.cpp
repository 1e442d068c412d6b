// Fuzzes manifest rendering: the built-in templates with arbitrary values (a JSON object,
// or raw byte strings as command-line flags deliver them, valid UTF-8 or not), and
// arbitrary template text (--template-dir overrides) with realistic values; then the YAML
// stream back to objects and the objects to YAML (--dry-run). Problems must end in
// trainctl's own errors.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/errors.h"
#include "render/render.h"
#include "render/templates.h"
#include "yaml/write.h"

using namespace trainctl;
using nlohmann::json;

namespace {

// Scalar variables and {key, value} / {name, value} sections the templates use.
const char* const kScalars[] = {"name", "namespace", "image", "command", "container_name", "restart_policy",
                                "scheduler", "priority_class", "subdomain", "source", "repo", "logdir",
                                "working_dir", "queue", "shell", "path", "claim", "replicas", "workers",
                                "worker_replicas", "master_port", "shm_size", "clean_pod_policy"};
const char* const kPairSections[] = {"labels", "annotations", "pod_labels", "pod_annotations", "node_selector",
                                     "selector", "match_labels", "resources", "sync_resources"};

// Values made of raw strings, taken in turn from the parts of `text` split at NUL bytes.
json raw_values(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    const size_t end = text.find('\0', start);
    parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  size_t i = 0;
  auto next = [&] { return parts[i++ % parts.size()]; };
  json v = json::object();
  for (const char* key : kScalars) v[key] = next();
  for (const char* key : kPairSections) v[key] = json::array({{{"key", next()}, {"value", next()}}});
  v["user_env"] = json::array({{{"name", next()}, {"value", next()}}});
  v["env"] = v["user_env"];
  v["command"] = next();
  v["has_resources"] = true;
  v["tolerations_json"] = json::array({{{"key", next()}, {"operator", "Exists"}}});
  v["sync"] = json::object({{"git", true}, {"image", next()}, {"source", next()}, {"repo", next()}});
  v["ports"] = json::array({{{"name", next()}, {"port", 23456}}});
  return v;
}

void render_and_emit(const std::string& source, const std::string& tmpl, const json& values) {
  try {
    const auto objects = render::render_objects(source, tmpl, values);
    (void)yaml::to_yaml_stream(objects);
  } catch (const Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const auto& templates = render::embedded_templates();
  auto it = templates.begin();
  std::advance(it, (data[0] & 0x3f) % templates.size());
  const std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);

  switch (data[0] >> 6) {
    case 0: {  // a built-in template, values from a JSON object
      const json values = json::parse(rest, nullptr, false);
      if (values.is_object()) render_and_emit(it->first, it->second, values);
      break;
    }
    case 1:  // a built-in template, values as raw byte strings
    case 2:
      render_and_emit(it->first, it->second, raw_values(rest));
      break;
    default:  // the input is the template
      render_and_emit("fuzz.yaml", rest, raw_values(it->first));
      break;
  }
  return 0;
}
