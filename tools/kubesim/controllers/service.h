// Fills in what kube-apiserver allocates for a Service when the create path did not:
// spec.clusterIP (10.96.0.0/12) and, for NodePort/LoadBalancer, spec.ports[].nodePort.
#pragma once

#include "kubesim/controllers/controller.h"

namespace kubesim {

class ServiceController : public Controller {
 public:
  explicit ServiceController(Context& ctx) : Controller(ctx, ctx.services) {}
  void reconcile(const std::string& ns, const std::string& name) override;

 private:
  uint32_t m_next_ip = 10;
};

}  // namespace kubesim
