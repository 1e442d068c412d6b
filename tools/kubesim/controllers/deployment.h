// apps/v1 Deployment and ReplicaSet controllers, enough for TensorBoard: a Deployment owns a
// ReplicaSet NAME-<pod-template-hash>, which owns pods NAME-<hash>-<suffix> labelled
// pod-template-hash; status replicas/readyReplicas/availableReplicas/updatedReplicas and the
// Available/Progressing conditions.
#pragma once

#include "kubesim/controllers/controller.h"

namespace kubesim {

class DeploymentController : public Controller {
 public:
  explicit DeploymentController(Context& ctx) : Controller(ctx, ctx.deployments) {}
  void reconcile(const std::string& ns, const std::string& name) override;
};

class ReplicaSetController : public Controller {
 public:
  explicit ReplicaSetController(Context& ctx) : Controller(ctx, ctx.replicasets) {}
  void reconcile(const std::string& ns, const std::string& name) override;
};

// A stable 10-character pod-template-hash of a pod template (alphabet of generateName).
std::string pod_template_hash(const json& tmpl);

}  // namespace kubesim
