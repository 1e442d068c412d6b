// Progress reports of Trainer pods (see trainer_status_report.h).
#include "kubesim/controllers/trainer_status_report.h"

#include "kubesim/controllers/trainer_model.h"

namespace kubesim {

namespace {

std::string status_url(const json& pod) {
  for (const auto& c : pod.value("spec", json::object()).value("containers", json::array()))
    for (const auto& e : c.value("env", json::array()))
      if (e.value("name", "") == "KUBEFLOW_TRAINER_SERVER_URL" && e.contains("value")) return e.value("value", "");
  return "";
}

}  // namespace

bool reports_trainer_progress(const json& pod) {
  return !status_url(pod).empty() && annotation(pod, "batch.kubernetes.io/job-completion-index") == "0" &&
         annotation(pod, kProgressAnnotation) != "none";
}

void report_trainer_progress(Context& ctx, const json& pod, int percentage, int64_t remaining, const std::string& loss) {
  // statusserver StatusUrl: .../namespaces/{namespace}/trainjobs/{name}/status; the token's
  // namespace must be the TrainJob's (auth.go), so a pod reports for its own namespace only.
  const std::string url = status_url(pod);
  const std::string marker = "/namespaces/";
  const size_t at = url.find(marker);
  if (at == std::string::npos) return;
  const std::string rest = url.substr(at + marker.size());
  const size_t slash = rest.find('/');
  const std::string ns = rest.substr(0, slash);
  const std::string tail = slash == std::string::npos ? "" : rest.substr(slash + 1);
  if (ns != meta_ns(pod) || tail.rfind("trainjobs/", 0) != 0) return;
  const std::string name = tail.substr(10, tail.find('/', 10) - 10);
  const ResourceType* trainjobs = TrainerTypes::find(ctx.store).trainjobs;
  if (!trainjobs) return;
  json ts = {{"progressPercentage", percentage},
             {"estimatedRemainingSeconds", std::max<int64_t>(0, remaining)},
             {"lastUpdatedTime", ctx.now_str()}};
  if (!loss.empty()) ts["metrics"] = json::array({{{"name", "loss"}, {"value", loss}}});
  ctx.patch(*trainjobs, ns, name, [&](json& tj) { tj["status"]["trainerStatus"] = ts; });
}

}  // namespace kubesim
