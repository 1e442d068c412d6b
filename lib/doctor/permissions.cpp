// What the current user may do, for every verb trainctl needs: one SelfSubjectAccessReview per
// verb and resource, as `kubectl auth can-i VERB RESOURCE` sends it (k8s.io/kubectl
// pkg/cmd/auth/cani.go RunAccessCheck), answered by the API server's authorizer for the
// user of the request. The review of a cluster-scoped need carries no namespace, as the
// request itself would not (kubectl's can-i sends its namespace anyway; RBAC ignores
// RoleBindings for an attribute without one).
#include <map>

#include "doctor/checks.h"
#include "kube/object_ops.h"
#include "kube/resource.h"

namespace trainctl::doctor {

namespace {

using nlohmann::json;

// Where a need applies: the namespace, every namespace (a list of a namespaced resource
// across them), or a cluster-scoped resource. The last two are asked at the cluster scope.
enum class Scope { Namespace, AllNamespaces, Cluster };

struct Need {
  std::string verb, group, resource, subresource;
  Scope scope = Scope::Namespace;
  std::string why;       // what needs it: "submit pytorch"
  // Reported only when this kind's API is served (null: always); or only when group_served is.
  const submit::SubmitKind* kind = nullptr;
  std::string only_if_group;
};

std::vector<Need> needs(const Context& c) {
  std::vector<Need> out;
  for (const auto* k : c.kinds) {
    const kube::Resource& r = k->job.resource;
    const std::string cmd = submit_command(*k).substr(std::string("trainctl ").size());
    out.push_back({"create", r.group, r.plural, "", Scope::Namespace, cmd, k});
    out.push_back({"list", r.group, r.plural, "", Scope::Namespace, "list, get, top job", k});
    out.push_back({"delete", r.group, r.plural, "", Scope::Namespace, "delete", k});
    if (!k->rules.runs_on_runtime) continue;
    // submit trainjob reads the runtime it names; --sync-mode gives the job a TrainingRuntime
    // of its own (trainjob_code_sync.cpp).
    for (const char* verb : {"get", "list"}) {
      out.push_back({verb, r.group, "clustertrainingruntimes", "", Scope::Cluster, "submit trainjob, runtime list", k});
      out.push_back({verb, r.group, "trainingruntimes", "", Scope::Namespace, "submit trainjob, runtime list", k});
    }
    out.push_back({"create", r.group, "trainingruntimes", "", Scope::Namespace, "submit trainjob --sync-mode", k});
  }
  out.push_back({"list", "", "pods", "", Scope::Namespace, "list, get, logs, top job"});
  out.push_back({"watch", "", "pods", "", Scope::Namespace, "logs -f, submit --wait, list -w"});
  out.push_back({"get", "", "pods", "log", Scope::Namespace, "logs"});
  out.push_back({"list", "", "events", "", Scope::Namespace, "get -e, why a job is pending"});
  out.push_back({"create", "", "services", "", Scope::Namespace, "submit --tensorboard, submit pytorch --operator none"});
  out.push_back({"create", "apps", "deployments", "", Scope::Namespace, "submit --tensorboard"});
  out.push_back({"list", "", "persistentvolumeclaims", "", Scope::Namespace, "data list, submit --data"});
  out.push_back({"list", "kueue.x-k8s.io", "workloads", "", Scope::Namespace, "get (a queued job's position)", nullptr,
                 "kueue.x-k8s.io"});
  out.push_back({"list", "", "nodes", "", Scope::Cluster, "top node, get (node addresses)"});
  out.push_back({"list", "", "pods", "", Scope::AllNamespaces, "top node (GPUs in use on each node)"});
  out.push_back({"list", "", "services", "", Scope::AllNamespaces, "finding Prometheus for GPU metrics"});
  out.push_back({"get", "apiextensions.k8s.io", "customresourcedefinitions", "", Scope::Cluster,
                 "submit (the operator's optional fields; without it, a current release is assumed)"});
  return out;
}

std::string resource_name(const Need& n) {
  std::string s = n.group.empty() ? n.resource : n.resource + "." + n.group;
  return n.subresource.empty() ? s : s + "/" + n.subresource;
}

std::string need_key(const Need& n) {
  return "can-i:" + n.verb + ":" + resource_name(n) + (n.scope == Scope::Namespace ? "" : ":cluster");
}

json review(const Need& n, const std::string& ns) {
  json attrs = {{"verb", n.verb}, {"group", n.group}, {"resource", n.resource}};
  if (!n.subresource.empty()) attrs["subresource"] = n.subresource;
  if (n.scope == Scope::Namespace) attrs["namespace"] = ns;
  return {{"apiVersion", "authorization.k8s.io/v1"},
          {"kind", "SelfSubjectAccessReview"},
          {"spec", {{"resourceAttributes", attrs}}}};
}

bool relevant(const Probe& p, const Need& n) {
  if (n.kind) {
    const kube::Resource& r = n.kind->job.resource;
    return n.kind->rules.built_in_api || serves(p, r.group, r.version, r.plural);
  }
  return n.only_if_group.empty() || p.answer("kueue:group").ok();
}

}  // namespace

void ask_permissions(Probe& p, const Context& c) {
  for (const auto& n : needs(c))
    p.ask(need_key(n), kube::create_request(kube::self_subject_access_reviews(), "", review(n, c.options.namespace_)));
}

void judge_permissions(const Probe& p, const Context& c, Report& r) {
  // One finding per resource (and scope), in the order of needs().
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Need*>> by_resource;
  const auto all = needs(c);
  for (const auto& n : all) {
    if (!relevant(p, n)) continue;
    const std::string key = resource_name(n) + (n.scope == Scope::AllNamespaces ? " (all namespaces)" : "");
    if (!by_resource.count(key)) order.push_back(key);
    by_resource[key].push_back(&n);
  }
  for (const auto& key : order) {
    const auto& list = by_resource[key];
    const Need& first = *list.front();
    const bool in_namespace = first.scope == Scope::Namespace;
    Finding f{Section::Permissions, "perm." + resource_name(first) + (first.scope == Scope::AllNamespaces ? ".all" : ""), key};
    std::vector<std::string> allowed, denied, unknown;
    json verbs = json::object();
    for (const Need* n : list) {
      const Answer& a = p.answer(need_key(*n));
      const json status = a.ok() && a.body.is_object() ? a.body.value("status", json::object()) : json();
      if (!status.is_object()) {
        unknown.push_back(n->verb);
        verbs[n->verb] = nullptr;
        f.reason += std::string(f.reason.empty() ? "" : "; ") + "the review of " + n->verb + " failed: " + a.error;
        continue;
      }
      const bool yes = status.value("allowed", false);
      verbs[n->verb] = yes;
      (yes ? allowed : denied).push_back(n->verb);
      if (!yes)
        f.reason += std::string(f.reason.empty() ? "" : "; ") + n->verb + " is needed by " + n->why;
    }
    f.details = {{"verbs", verbs}, {"namespace", in_namespace ? c.options.namespace_ : ""}};
    const std::string scope = in_namespace ? " in namespace " + c.options.namespace_
                              : first.scope == Scope::AllNamespaces ? " in every namespace"
                                                                    : " at the cluster scope";
    if (denied.empty() && unknown.empty()) {
      f.status = Status::Ok;
      f.result = joined(allowed) + ": allowed";
    } else if (!denied.empty()) {
      f.status = Status::Missing;
      f.result = (allowed.empty() ? "" : joined(allowed) + ": allowed; ") + joined(denied) + ": denied";
      f.fix = "ask the cluster admin to allow " + joined(denied) + " on " + resource_name(first) + scope +
              " (kubectl auth can-i " + denied.front() + " " + resource_name(first) +
              (in_namespace ? " -n " + c.options.namespace_ : first.scope == Scope::AllNamespaces ? " -A" : "") +
              " answers the same)";
    } else {
      f.status = Status::Info;
      f.result = (allowed.empty() ? "" : joined(allowed) + ": allowed; ") + joined(unknown) + ": not known";
      f.fix = "the API server did not answer the SelfSubjectAccessReviews; kubectl auth can-i asks the same";
    }
    r.add(std::move(f));
  }
}

}  // namespace trainctl::doctor
