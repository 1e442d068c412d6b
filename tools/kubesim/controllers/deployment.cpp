// Deployments -> ReplicaSets -> pods, as kube-controller-manager does for a simple rollout.
#include "kubesim/controllers/deployment.h"

#include "kubesim/controllers/pod_status.h"
#include "kubesim/controllers/run_policy.h"

namespace kubesim {

namespace {

json deployment_condition(const std::string& type, const std::string& value, const std::string& reason,
                          const std::string& message, const std::string& now) {
  return {{"type", type},       {"status", value},       {"reason", reason},
          {"message", message}, {"lastUpdateTime", now}, {"lastTransitionTime", now}};
}

}  // namespace

std::string pod_template_hash(const json& tmpl) {
  static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (char c : tmpl.dump()) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  std::string out;
  for (int i = 0; i < 10; ++i) {
    out += alphabet[h % (sizeof(alphabet) - 1)];
    h /= (sizeof(alphabet) - 1);
    if (h == 0) h = 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(i);
  }
  return out;
}

void DeploymentController::reconcile(const std::string& ns, const std::string& name) {
  auto ptr = m_ctx.store.get_shared(*m_ctx.deployments, ns, name);
  if (!ptr || !ptr->contains("spec") || !m_ctx.replicasets) return;
  const json dep = *ptr;
  const json& spec = dep["spec"];
  const json tmpl = spec.value("template", json::object());
  const std::string hash = pod_template_hash(tmpl);
  const int64_t replicas = int_or(spec, "replicas", 1);
  const std::string rs_name = name + "-" + hash;
  json rs_tmpl = tmpl;
  rs_tmpl["metadata"]["labels"]["pod-template-hash"] = hash;
  inherit_sim_annotations(dep, rs_tmpl["metadata"]);
  json selector = spec.value("selector", json::object());
  if (selector.contains("matchLabels")) selector["matchLabels"]["pod-template-hash"] = hash;
  json rs_labels = tmpl.value("metadata", json::object()).value("labels", json::object());
  rs_labels["pod-template-hash"] = hash;
  const std::string revision = "1";
  json rs = owned_object("apps/v1", "ReplicaSet", dep,
                         {{"name", rs_name},
                          {"labels", rs_labels},
                          {"annotations",
                           {{"deployment.kubernetes.io/desired-replicas", std::to_string(replicas)},
                            {"deployment.kubernetes.io/max-replicas", std::to_string(replicas + 1)},
                            {"deployment.kubernetes.io/revision", revision}}}});
  rs["spec"] = {{"replicas", replicas}, {"selector", selector}, {"template", rs_tmpl}};
  m_ctx.create_if_absent(*m_ctx.replicasets, std::move(rs));
  // Scale the current ReplicaSet; drop the ones of older templates.
  int64_t ready = 0, total = 0;
  for (const auto& rs : m_ctx.children(*m_ctx.replicasets, dep)) {
    if (meta_name(*rs) != rs_name) {
      try {
        m_ctx.store.remove(*m_ctx.replicasets, ns, meta_name(*rs));
      } catch (const StatusError&) {
      }
      continue;
    }
    m_ctx.patch(*m_ctx.replicasets, ns, rs_name, [&](json& obj) { obj["spec"]["replicas"] = replicas; });
    const json st = rs->value("status", json::object());
    ready = int_or(st, "readyReplicas", 0);
    total = int_or(st, "replicas", 0);
  }
  const std::string now = m_ctx.now_str();
  m_ctx.patch(*m_ctx.deployments, ns, name, [&](json& obj) {
    json& st = obj["status"];
    st["observedGeneration"] = obj["metadata"].value("generation", 1);
    st["replicas"] = total;
    st["updatedReplicas"] = total;
    st["readyReplicas"] = ready;
    st["availableReplicas"] = ready;
    st["unavailableReplicas"] = std::max<int64_t>(0, replicas - ready);
    if (ready == 0) st.erase("readyReplicas"), st.erase("availableReplicas");
    if (st["unavailableReplicas"] == 0) st.erase("unavailableReplicas");
    const bool available = ready >= replicas;
    json conds = json::array();
    json old = st.value("conditions", json::array());
    auto keep_time = [&](json c) {
      for (const auto& o : old)
        if (o.value("type", "") == c.value("type", "") && o.value("status", "") == c.value("status", "") &&
            o.value("reason", "") == c.value("reason", "")) {
          c["lastTransitionTime"] = o.value("lastTransitionTime", now);
          c["lastUpdateTime"] = o.value("lastUpdateTime", now);
        }
      return c;
    };
    conds.push_back(
        keep_time(available ? deployment_condition("Available", "True", "MinimumReplicasAvailable",
                                                   "Deployment has minimum availability.", now)
                            : deployment_condition("Available", "False", "MinimumReplicasUnavailable",
                                                   "Deployment does not have minimum availability.", now)));
    conds.push_back(keep_time(
        available ? deployment_condition("Progressing", "True", "NewReplicaSetAvailable",
                                         "ReplicaSet \"" + rs_name + "\" has successfully progressed.", now)
                  : deployment_condition("Progressing", "True", "ReplicaSetUpdated",
                                         "ReplicaSet \"" + rs_name + "\" is progressing.", now)));
    st["conditions"] = conds;
  });
}

void ReplicaSetController::reconcile(const std::string& ns, const std::string& name) {
  auto ptr = m_ctx.store.get_shared(*m_ctx.replicasets, ns, name);
  if (!ptr || !ptr->contains("spec")) return;
  const json rs = *ptr;
  const int64_t replicas = int_or(rs["spec"], "replicas", 1);
  const ObjectList pods = m_ctx.children(*m_ctx.pods, rs);
  int64_t alive = 0, ready = 0;
  for (const auto& p : pods) {
    if (pod_terminal(*p)) {
      // A finished pod of a ReplicaSet is replaced.
      try {
        m_ctx.store.remove(*m_ctx.pods, ns, meta_name(*p));
      } catch (const StatusError&) {
      }
      continue;
    }
    if (alive >= replicas) {
      try {
        m_ctx.store.remove(*m_ctx.pods, ns, meta_name(*p));
      } catch (const StatusError&) {
      }
      continue;
    }
    ++alive;
    if (condition_true(*p, "Ready")) ++ready;
  }
  const json tmpl = rs["spec"].value("template", json::object());
  for (int64_t i = alive; i < replicas; ++i) {
    json meta = tmpl.value("metadata", json::object());
    meta["namespace"] = ns;
    meta["ownerReferences"] = json::array({owner_reference(rs)});
    meta.erase("creationTimestamp");
    for (int attempt = 0; attempt < 5; ++attempt) {
      meta["name"] = name + "-" + m_ctx.random_suffix();
      if (m_ctx.store.get_shared(*m_ctx.pods, ns, meta["name"])) continue;
      m_ctx.store.create(*m_ctx.pods, {{"apiVersion", "v1"},
                                       {"kind", "Pod"},
                                       {"metadata", meta},
                                       {"spec", tmpl.value("spec", json::object())}});
      break;
    }
  }
  m_ctx.patch(*m_ctx.replicasets, ns, name, [&](json& obj) {
    json& st = obj["status"];
    st["replicas"] = std::max(alive, replicas);
    st["fullyLabeledReplicas"] = std::max(alive, replicas);
    st["observedGeneration"] = obj["metadata"].value("generation", 1);
    if (ready) {
      st["readyReplicas"] = ready;
      st["availableReplicas"] = ready;
    } else {
      st.erase("readyReplicas");
      st.erase("availableReplicas");
    }
  });
}

}  // namespace kubesim
