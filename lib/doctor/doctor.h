// trainctl doctor: can this cluster, for this user and namespace, run trainctl's jobs? One
// round of parallel requests (discovery, CRDs, runtimes, queues, nodes, Prometheus Services,
// server-side dry-run creates, SelfSubjectAccessReviews), then one query to the Prometheus
// found, if any. docs/doctor.md lists every finding and where its rule comes from.
#pragma once

#include <string>

#include "doctor/report.h"
#include "jobs/kind.h"
#include "kube/client.h"
#include "metrics/source.h"
#include "render/templates.h"

namespace trainctl::doctor {

struct DoctorOptions {
  std::string namespace_;
  std::string server;   // for the report's header
  std::string context;  // the kubeconfig context
  // The kind whose readiness decides Report::ready; null: submit pytorch's PyTorchJob.
  const jobs::JobKind* default_kind = nullptr;
  // The templates submit would render: the dry-run creates send what submit would send.
  const render::TemplateSet* templates = nullptr;
  metrics::PrometheusSettings prometheus;  // --prometheus, else a Service found in the cluster
};

Report run_doctor(kube::Client& client, const DoctorOptions& options);

}  // namespace trainctl::doctor
