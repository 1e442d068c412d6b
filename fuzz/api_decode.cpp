// Fuzzes the decoding of API server answers into trainctl's structs: job, pod, node and
// event lists (list_jobs, get_job with TensorBoard services and events, node_usage), single
// objects, metav1.Status error bodies (api_error_from_response), and what list/get/top
// print from them. The input is a sequence of HTTP responses (fake_client.h). Malformed
// answers must end in trainctl's own errors, never in a crash or a raw library exception.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/iostreams.h"
#include "core/log.h"
#include "fake_client.h"
#include "jobs/build_job.h"
#include "jobs/job_query.h"
#include "print/job_views.h"
#include "jobs/job_summary.h"
#include "jobs/cluster/node_usage.h"
#include "jobs/pod_status.h"
#include "jobs/pod_summary.h"
#include "kube/page_stream.h"

using namespace trainctl;

namespace {

const jobs::TimePoint kNow = jobs::TimePoint(std::chrono::seconds(1767225600));  // 2026-01-01

void print_jobs(const jobs::JobList& list, const IOStreams& io) {
  (void)print::job_list_table(list, true).render(io);
  (void)print::top_job_table(list, false).render(io);
  (void)print::top_job_footer(list);
  (void)print::jobs_json(list).dump();
  for (const auto& j : list) (void)print::job_details(j, io);
}

void list_and_get(std::string_view input, const IOStreams& io) {
  try {
    fuzz::FakeClient client(input);
    print_jobs(jobs::list_jobs(client, "", jobs::kinds_for_type(""), kNow, true), io);
  } catch (const Error&) {
  }
  try {
    fuzz::FakeClient client(input);
    jobs::GetOptions o;
    o.ns = "default";
    o.name = "mnist";
    o.kinds = jobs::kinds_for_type("");
    o.tensorboard = true;
    o.events = true;
    jobs::GetResult r = jobs::get_job(client, o, kNow);
    print_jobs({r.job}, io);
    (void)print::events_view(r.events, kNow, io);
    (void)print::events_json(r.events).dump();
  } catch (const Error&) {
  }
}

// One object as every decoder reads it: pod, node, job of each kind, event.
void decode_object(const nlohmann::json& j, std::vector<nlohmann::json>& objects) {
  (void)jobs::pod_display_status(j);
  (void)jobs::pod_restarts(j);
  (void)jobs::summarize_pod(j, true);
  for (const auto& kind : jobs::all_kinds()) {
    (void)jobs::summarize_job(kind, j);
    (void)jobs::build_job(kind, j, jobs::PodRefs{&j}, kNow).to_json().dump();
  }
  objects.push_back(j);
}

// Each response on its own: as an error body, and as a list page or a single object.
void each_response(std::string_view input, const IOStreams& io) {
  fuzz::FakeClient client(input);
  std::vector<nlohmann::json> objects;
  for (const auto& r : client.responses()) {
    const ApiError e = kube::api_error_from_response(r.status == 200 ? 500 : r.status, r.body, r.headers);
    (void)e.what();
    try {
      (void)kube::parse_list_page(
          r.body, [&](nlohmann::json& item) { decode_object(item, objects); }, "page");
    } catch (const Error&) {
    }
    try {
      decode_object(kube::parse_object(r.body, "object"), objects);
    } catch (const Error&) {
    }
  }
  jobs::NodeUsageBuilder builder(true);
  for (const auto& o : objects) builder.add_node(o);
  for (const auto& o : objects) builder.add_pod(o);
  for (const auto& n : builder.finish()) (void)n.to_json().dump();
  (void)jobs::tensorboard_url(objects, "10.0.0.1");
  (void)print::events_view(objects, kNow, io);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  log::set_level(log::Level::Error);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  static const IOStreams io = IOStreams::test(false, 120);
  list_and_get(input, io);
  each_response(input, io);
  return 0;
}
