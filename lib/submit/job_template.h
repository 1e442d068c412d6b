// A kind's job template (templates/<dir>/job.yaml) and the pod templates that go into it.
// The job is rendered to JSON once and each rendered pod template is set at its place
// (spec.pytorchReplicaSpecs.Master.template, spec.tasks[i].template...), so a pod template is
// rendered and parsed once, never dumped into the job's text and parsed again.
//
// A job.yaml exported before this (`template: {{master_template_json}}` and the like) still
// renders: a template that names such a value receives the pod template as that value, and
// the `template:` it writes is kept. A job.yaml that writes a `template:` of its own at a
// place trainctl fills is refused with one line (docs/templates.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "render/templates.h"

namespace trainctl::submit {

class JobTemplate {
 public:
  // Reads template NAME of the kind directory KIND (see render::TemplateSet::get).
  JobTemplate(const render::TemplateSet& templates, const std::string& kind,
              const std::string& name = "job.yaml");

  // Whether the template uses the value VALUE_NAME ({{VALUE_NAME}}, {{{VALUE_NAME}}},
  // {{&VALUE_NAME}}): an older job.yaml that writes the pod template itself.
  bool uses(const std::string& value_name) const;
  // Gives `values` the pod template as VALUE_NAME when the template uses it (see above).
  void offer(const std::string& value_name, const nlohmann::json& pod, nlohmann::json& values) const;

  // Renders the job; throws Error unless it renders exactly one object.
  nlohmann::json render(const nlohmann::json& values) const;

  // Sets `pod` as the `template` of the replica at `replica` ("/spec/pytorchReplicaSpecs/Master"),
  // which must be an object. When it has a `template` already: kept if the template wrote it
  // through VALUE_NAME (uses()), else Error (a template of the template's own).
  void put_pod_template(nlohmann::json& job, const std::string& replica, const std::string& value_name,
                        nlohmann::json pod) const;

  const std::string& source() const { return m_source; }

 private:
  std::string m_source;
  std::string m_text;
};

}  // namespace trainctl::submit
