#include "submit/job_template.h"

#include <regex>

#include "core/errors.h"
#include "render/render.h"

namespace trainctl::submit {

using nlohmann::json;

namespace {

// "/spec/tasks/0/template" -> "spec.tasks[0].template", as the error names it.
std::string dotted(const std::string& pointer) {
  std::string out;
  size_t start = 1;
  while (start <= pointer.size()) {
    const size_t slash = pointer.find('/', start);
    const std::string token =
        pointer.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    const bool index = !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
    out += index ? "[" + token + "]" : (out.empty() ? "" : ".") + token;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return out;
}

}  // namespace

JobTemplate::JobTemplate(const render::TemplateSet& templates, const std::string& kind,
                         const std::string& name)
    : m_text(templates.get(kind, name, &m_source)) {}

bool JobTemplate::uses(const std::string& value_name) const {
  // Variables only: {{name}}, {{ name }}, {{{name}}}, {{&name}}; sections ({{#name}}) are not.
  const std::regex tag("\\{\\{\\{?\\s*&?\\s*" + value_name + "\\s*\\}?\\}\\}");
  return std::regex_search(m_text, tag);
}

void JobTemplate::offer(const std::string& value_name, const json& pod, json& values) const {
  if (uses(value_name)) values[value_name] = pod;
}

json JobTemplate::render(const json& values) const {
  auto objs = render::render_objects(m_source, m_text, values);
  if (objs.size() != 1 || !objs[0].is_object())
    throw Error("template " + m_source + " must render exactly one object, it rendered " +
                std::to_string(objs.size()));
  return std::move(objs[0]);
}

void JobTemplate::put_pod_template(json& job, const std::string& replica, const std::string& value_name,
                                   json pod) const {
  const json::json_pointer at(replica);
  if (!job.contains(at) || !job[at].is_object())
    throw Error("template " + m_source + " renders no " + dotted(replica) +
                ": trainctl puts the pod template at " + dotted(replica + "/template"));
  json& target = job[at];
  if (target.contains("template")) {
    if (uses(value_name)) return;  // an older job.yaml: `template: {{VALUE_NAME}}`
    throw Error(
        "template " + m_source + " writes " + dotted(replica + "/template") +
        " itself, where trainctl puts the rendered pod template: remove that template: line (pods are "
        "changed in pod.yaml)");
  }
  target["template"] = std::move(pod);
}

}  // namespace trainctl::submit
