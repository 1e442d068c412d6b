// The Service of kubesim's simulated Prometheus (prometheus_options.h).
#include <stdexcept>

#include "kubesim/prometheus_options.h"
#include "kubesim/seed_objects.h"
#include "kubesim/store.h"

namespace kubesim {

void check_prometheus_exporter(const std::string& exporter) {
  if (exporter != "dcgm" && exporter != "dcgm-exported" && exporter != "arena")
    throw std::invalid_argument("prometheus exporter must be dcgm, dcgm-exported or arena, not \"" +
                                exporter + "\"");
}

void install_prometheus_service(Store& store, const PrometheusOptions& options) {
  const ResourceType* ns_rt = store.find("", "v1", "namespaces");
  const ResourceType* svc_rt = store.find("", "v1", "services");
  if (!ns_rt || !svc_rt) return;
  if (!store.get(*ns_rt, "", options.ns)) store.create(*ns_rt, make_namespace(options.ns));
  if (store.get(*svc_rt, options.ns, options.service)) return;
  const json labels = {{"kubernetes.io/service-name", options.service},
                       {"app.kubernetes.io/name", "prometheus"}};
  store.create(
      *svc_rt,
      {{"apiVersion", "v1"},
       {"kind", "Service"},
       {"metadata", {{"name", options.service}, {"namespace", options.ns}, {"labels", labels}}},
       {"spec",
        {{"type", "ClusterIP"},
         {"selector", {{"app.kubernetes.io/name", "prometheus"}}},
         {"ports",
          json::array(
              {{{"name", "http"}, {"port", options.port}, {"protocol", "TCP"}, {"targetPort", 9090}}})}}}});
}

}  // namespace kubesim
