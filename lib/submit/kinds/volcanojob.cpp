// Volcano Job (batch.volcano.sh/v1alpha1): one task per --task, gang-scheduled with
// minAvailable, with the job's and each task's lifecycle policies.
#include "submit/job_template.h"
#include "submit/kinds/kinds.h"
#include "submit/manifest_parts.h"

namespace trainctl::submit::kinds {

using nlohmann::json;

namespace {

// Always a list, empty too: a task without policies must not see the job's through the
// mustache context stack.
json volcano_policy_list(const std::vector<Policy>& policies) {
  json out = json::array();
  for (const auto& p : policies) out.push_back({{"event", p.event}, {"action", p.action}});
  return out;
}

class VolcanoJobKind final : public SubmitKind {
 public:
  VolcanoJobKind()
      : SubmitKind(jobs::Trainer::Volcano, {.command = "volcano",
                                            .template_dir = "volcano",
                                            .not_installed_hint = "install Volcano",
                                            .code_flags = false,
                                            .image_required = false,
                                            .command_required = false,
                                            .shm = false,
                                            .kube_queue = false,
                                            .no_kueue_reason = "--kueue-queue: Kueue does not manage Volcano "
                                                               "jobs; --queue names the Volcano queue"}) {}

  std::vector<std::string> derived_names(const Plan& p) const override {
    std::vector<std::string> names;
    for (const auto& t : p.tasks)
      names.push_back(p.name + "-" + t.name + "-" + std::to_string(t.replicas - 1));
    return names;
  }

  void plan_gang(const SubmitOptions& o, Plan& p) const override { plan_tasks(o, p); }

  std::vector<json> build(const Plan& p, const render::TemplateSet& t) const override {
    const JobTemplate job_yaml(t, p.template_kind);
    json v = job_values(p);
    v["scheduler"] = p.scheduler;
    v["min_available"] = p.min_available;
    v["queue"] = p.queue;
    // volcano's mutating webhook turns maxRetry 0 into its default 3 (pkg/webhooks/admission/jobs/
    // mutate/mutate_job.go patchDefaultMaxRetry): only a positive count is sent.
    v["max_retry"] = p.retry && *p.retry > 0 ? json(*p.retry) : json();
    v["priority_class"] = or_null(p.priority);
    v["policies"] = volcano_policy_list(p.policies);
    json tasks = json::array();
    std::vector<json> pods;
    for (size_t i = 0; i < p.tasks.size(); ++i) {
      const Task& task = p.tasks[i];
      PodRole role{task.name, "Never", task.image, true, task.command};
      role.job_info_env = false;
      for (const auto& l : task.labels) role.extra_labels[l.key] = l.value;
      // Arena's volcanojob chart labels the first task's pods; its get/logs take them as chief.
      if (i == 0) role.extra_labels["volcano-role"] = "driver";
      pods.push_back(pod_template(p, t, role));
      json item = {
          {"name", task.name}, {"replicas", task.replicas}, {"policies", volcano_policy_list(task.policies)}};
      job_yaml.offer("template_json", pods.back(), item);
      tasks.push_back(std::move(item));
    }
    v["tasks"] = tasks;
    json job = job_yaml.render(v);
    for (size_t i = 0; i < pods.size(); ++i)
      job_yaml.put_pod_template(job, "/spec/tasks/" + std::to_string(i), "template_json", std::move(pods[i]));
    return {std::move(job)};
  }

  // Volcano takes no --tensorboard (Rules::code_flags): no pod to follow.
  std::vector<KeyValue> chief_pod_labels(const Plan&) const override { return {}; }
};

}  // namespace

const SubmitKind& volcanojob() {
  static const VolcanoJobKind kind;
  return kind;
}

}  // namespace trainctl::submit::kinds
