// Which events are a job's own: involvedObject as client-go's recorder writes it (tools/record
// with tools/reference GetReference: kind, namespace, name, uid, apiVersion, resourceVersion).
#include <catch2/catch.hpp>

#include "jobs/diagnose/job_events.h"

using nlohmann::json;
using trainctl::jobs::may_be_about;
using trainctl::jobs::OwnObjects;

namespace {

json ev_about(const std::string& kind, const std::string& name, const std::string& uid) {
  json io = {{"kind", kind}, {"namespace", "default"}, {"name", name}};
  if (!uid.empty()) io["uid"] = uid;
  return {{"involvedObject", io}, {"type", "Warning"}, {"reason", "FailedScheduling"}};
}

}  // namespace

TEST_CASE("job events: a name prefix is no job's; NAME and NAME-... may be") {
  CHECK(may_be_about("train", ev_about("PyTorchJob", "train", "")));
  CHECK(may_be_about("train", ev_about("Pod", "train-worker-0", "")));
  CHECK_FALSE(may_be_about("train", ev_about("PyTorchJob", "train2", "")));
  CHECK_FALSE(may_be_about("train", ev_about("Pod", "train2-master-0", "")));
  CHECK_FALSE(may_be_about("train", ev_about("Pod", "trai", "")));
}

TEST_CASE("job events: by UID, so another job's NAME-... and an earlier job of the same name are left out") {
  OwnObjects own;
  own.add("job-uid-2", "train");
  own.add(json{{"metadata", {{"name", "train-master-0"}, {"uid", "pod-uid-2"}}}});
  CHECK(own.about(ev_about("PyTorchJob", "train", "job-uid-2")));
  CHECK(own.about(ev_about("Pod", "train-master-0", "pod-uid-2")));
  // train-big's pods start with "train-"; the earlier train (deleted, submitted again) had the
  // same names and other UIDs.
  CHECK_FALSE(own.about(ev_about("Pod", "train-big-master-0", "pod-uid-9")));
  CHECK_FALSE(own.about(ev_about("PyTorchJob", "train", "job-uid-1")));
  CHECK_FALSE(own.about(ev_about("Pod", "train-master-0", "pod-uid-1")));
  // An event written without a UID: the exact name.
  CHECK(own.about(ev_about("Pod", "train-master-0", "")));
  CHECK_FALSE(own.about(ev_about("Pod", "train-big-master-0", "")));
}
