// Volcano Job (batch.volcano.sh/v1alpha1): one task per --task, gang-scheduled with
// minAvailable, with the job's and each task's lifecycle policies.
#include "submit/kinds/volcanojob.h"

#include "submit/flags.h"
#include "submit/job_template.h"
#include "submit/kind_part.h"
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
      : SubmitKind(
            jobs::kind_named("volcanojob"),
            {.command = "volcano",
             .alias = "volcanojob",
             .help = "Submit a Volcano Job (batch.volcano.sh/v1alpha1)",
             .examples =
                 "  trainctl submit volcano --name=paddle --task=pserver:2 --task=trainer:2 "
                 "--image=paddlepaddle/paddle \"python train.py\"\n"
                 "  # paddle_k8s lists pods and endpoints: the pods run as a ServiceAccount allowed to\n"
                 "  trainctl submit volcano --name=ctr --image=paddlepaddle/paddle:1.5.2 "
                 "--service-account=paddle \\\n"
                 "      --task=\"pserver:2:paddlepaddle/paddle:1.5.2:paddle_k8s start_pserver\" \\\n"
                 "      --task=\"trainer:2:paddlepaddle/paddle:1.5.2:paddle_k8s start_trainer\"\n",
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
    for (const auto& t : kind_part<VolcanoPlan>(p).tasks)
      names.push_back(p.name + "-" + t.name + "-" + std::to_string(t.replicas - 1));
    return names;
  }

  void plan_gang(const SubmitOptions& o, Plan& p) const override { plan_volcano_tasks(o, p); }

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
    const VolcanoPlan& vp = kind_part<VolcanoPlan>(p);
    v["policies"] = volcano_policy_list(vp.policies);
    json tasks = json::array();
    std::vector<json> pods;
    for (size_t i = 0; i < vp.tasks.size(); ++i) {
      const Task& task = vp.tasks[i];
      PodRole role{task.name, "Never", task.image, true, task.command};
      role.job_info_env = false;
      if (vp.task_port > 0) role.ports = json::array({{{"name", "job-port"}, {"port", vp.task_port}}});
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

 protected:
  // Arena's volcanojob flags plus the common pod flags.
  void add_flags(FlagSet& f, SubmitOptions& o) const override {
    VolcanoOptions& v = set_kind_part<VolcanoOptions>(o);
    add_pod_flags(f, o);
    f.repeatable("--task", v.tasks,
                 "Task NAME:REPLICAS[:IMAGE[:COMMAND]] (repeatable; default image and command: "
                 "--image and the positional command)");
    f.repeatable("--task-images", v.task_images,
                 "Arena style: one task per image, named TASK-NAME-I (comma-separated or repeated)")
        .split_on(',');
    f.alias("--taskImages", v.task_images);
    f.repeatable(
        "--task-label", v.task_labels,
        "Label on one task's pods TASK:KEY=VALUE, e.g. pserver:paddle-job-pserver=fluid-ctr (repeatable)");
    f.repeatable("--task-policy", v.task_policies,
                 "Policy of one task TASK:EVENT=ACTION, e.g. trainer:TaskCompleted=CompleteJob (repeatable)");
    f.repeatable(
        "--policy", v.policies,
        "Job policy EVENT=ACTION, replacing the default PodEvicted=RestartJob and PodFailed=RestartJob "
        "(repeatable)");
    f.option("--task-replicas", v.task_replicas, "Arena style: replicas of each --task-images task")
        .with_default();
    f.alias("--taskReplicas", v.task_replicas);
    f.option("--task-name", v.task_name, "Arena style: name (prefix) of the tasks").with_default();
    f.alias("--taskName", v.task_name);
    f.option("--task-cpu", o.cpu, "Arena style: same as --cpu");
    f.alias("--taskCPU", o.cpu);
    f.option("--task-memory", o.memory, "Arena style: same as --memory");
    f.alias("--taskMemory", o.memory);
    f.option("--task-port", v.task_port, "Container port of every task");
    f.alias("--taskPort", v.task_port);
    f.option("--min-available", o.min_available, "Pods that must be schedulable together (default: all)");
    f.alias("--minAvailable", o.min_available);
    f.option("--queue", o.queue, "Volcano queue (default: default)");
    // Kueue does not manage Volcano jobs: hidden, so that plan_kueue says so in one line.
    f.option("--kueue-queue", o.kueue_queue).hide();
    f.option("--scheduler-name", v.scheduler_name, "schedulerName (default volcano)");
    f.alias("--schedulerName", v.scheduler_name);
    f.alias("--scheduler", v.scheduler_name);
    add_output_flags(f, o);
  }
};

}  // namespace

const SubmitKind& volcanojob() {
  static const VolcanoJobKind kind;
  return kind;
}

}  // namespace trainctl::submit::kinds
