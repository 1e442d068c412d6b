// RBAC as kube-apiserver evaluates it (see rbac.h for the upstream files).
#include "kubesim/rbac.h"

#include <algorithm>

namespace kubesim {

namespace {

constexpr const char* kRbacGroup = "rbac.authorization.k8s.io";

bool has(const json& list, const std::string& value) {
  if (!list.is_array()) return false;
  return std::any_of(list.begin(), list.end(), [&](const json& v) { return v.is_string() && v == value; });
}

bool any_is(const json& list, const char* all, const std::string& value) {
  return has(list, all) || has(list, value);
}

// evaluation_helpers.go ResourceMatches: "*", the exact "resource/subresource", or "*/sub".
bool resource_matches(const json& rule_resources, const AuthAttributes& a) {
  const std::string combined = a.subresource.empty() ? a.resource : a.resource + "/" + a.subresource;
  if (!rule_resources.is_array()) return false;
  for (const auto& r : rule_resources) {
    if (!r.is_string()) continue;
    const std::string s = r.get<std::string>();
    if (s == "*" || s == combined) return true;
    if (!a.subresource.empty() && s == "*/" + a.subresource) return true;
  }
  return false;
}

// NonResourceURLMatches: "*", the exact path, or a prefix ending in "*".
bool url_matches(const json& urls, const std::string& path) {
  if (!urls.is_array()) return false;
  for (const auto& u : urls) {
    if (!u.is_string()) continue;
    const std::string s = u.get<std::string>();
    if (s == "*" || s == path) return true;
    if (!s.empty() && s.back() == '*' && path.rfind(s.substr(0, s.size() - 1), 0) == 0) return true;
  }
  return false;
}

// rbac.go RuleAllows.
bool rule_allows(const json& rule, const AuthAttributes& a) {
  if (!rule.is_object() || !any_is(rule.value("verbs", json()), "*", a.verb)) return false;
  if (!a.resource_request) return url_matches(rule.value("nonResourceURLs", json()), a.path);
  if (!any_is(rule.value("apiGroups", json()), "*", a.group)) return false;
  if (!resource_matches(rule.value("resources", json()), a)) return false;
  const json names = rule.value("resourceNames", json::array());
  return !names.is_array() || names.empty() || has(names, a.name);
}

// rule.go appliesToUser; the describeSubject wording of the reason.
bool applies_to(const UserInfo& user, const json& subject, const std::string& binding_ns, std::string& described) {
  const std::string kind = subject.value("kind", ""), name = subject.value("name", "");
  if (kind == "User" && user.name == name) {
    described = "User \"" + name + "\"";
    return true;
  }
  if (kind == "Group" && std::find(user.groups.begin(), user.groups.end(), name) != user.groups.end()) {
    described = "Group \"" + name + "\"";
    return true;
  }
  if (kind == "ServiceAccount") {
    const std::string ns = subject.value("namespace", "").empty() ? binding_ns : subject.value("namespace", "");
    if (ns.empty() || user.name != "system:serviceaccount:" + ns + ":" + name) return false;
    described = "ServiceAccount \"" + name + "/" + ns + "\"";
    return true;
  }
  return false;
}

const ResourceType& rbac_type(const Store& store, const char* plural) {
  const ResourceType* rt = store.find(kRbacGroup, "v1", plural);
  if (!rt) throw std::logic_error(std::string("kubesim serves no ") + plural);
  return *rt;
}

// GetRoleReferenceRules: the rules of a binding's roleRef, or the lister's not-found error.
json role_rules(const Store& store, const json& role_ref, const std::string& binding_ns, std::string& error) {
  const std::string kind = role_ref.value("kind", ""), name = role_ref.value("name", "");
  std::shared_ptr<const json> role;
  if (kind == "Role") {
    role = store.get_shared(rbac_type(store, "roles"), binding_ns, name);
    if (!role) error = "role.rbac.authorization.k8s.io \"" + name + "\" not found";
  } else if (kind == "ClusterRole") {
    role = store.get_shared(rbac_type(store, "clusterroles"), "", name);
    if (!role) error = "clusterrole.rbac.authorization.k8s.io \"" + name + "\" not found";
  } else {
    error = "unsupported role reference kind: \"" + kind + "\"";
  }
  return role ? role->value("rules", json::array()) : json::array();
}

// VisitRulesFor over one kind of binding; true once a rule allows.
bool visit(const Store& store, const UserInfo& user, const AuthAttributes& a, const char* plural,
           const std::string& ns, AuthDecision& d, std::vector<std::string>& errors) {
  const bool cluster = ns.empty();
  for (const auto& binding : store.list(rbac_type(store, plural), ns).items) {
    const json md = binding->value("metadata", json::object());
    std::string subject;
    bool applies = false;
    for (const auto& s : binding->value("subjects", json::array()))
      if ((applies = applies_to(user, s, ns, subject))) break;
    if (!applies) continue;
    const json ref = binding->value("roleRef", json::object());
    std::string error;
    const json rules = role_rules(store, ref, ns, error);
    if (!error.empty()) {
      errors.push_back(error);
      continue;
    }
    for (const auto& rule : rules) {
      if (!rule_allows(rule, a)) continue;
      const std::string name = md.value("name", "") + (cluster ? "" : "/" + md.value("namespace", ""));
      d.allowed = true;
      d.reason = "RBAC: allowed by " + std::string(cluster ? "ClusterRoleBinding" : "RoleBinding") + " \"" + name +
                 "\" of " + ref.value("kind", "") + " \"" + ref.value("name", "") + "\" to " + subject;
      return true;
    }
  }
  return false;
}

json rule(json verbs, json groups, json resources) {
  return {{"verbs", std::move(verbs)}, {"apiGroups", std::move(groups)}, {"resources", std::move(resources)}};
}

}  // namespace

bool is_master(const UserInfo& user) {
  return std::find(user.groups.begin(), user.groups.end(), "system:masters") != user.groups.end();
}

AuthDecision authorize(const Store& store, const UserInfo& user, const AuthAttributes& a) {
  AuthDecision d;
  if (is_master(user)) {
    d.allowed = true;
    return d;
  }
  std::vector<std::string> errors;
  if (visit(store, user, a, "clusterrolebindings", "", d, errors)) return d;
  if (!a.namespace_.empty() && visit(store, user, a, "rolebindings", a.namespace_, d, errors)) return d;
  if (errors.size() == 1) d.reason = "RBAC: " + errors[0];
  if (errors.size() > 1) {
    d.reason = "RBAC: [";
    for (size_t i = 0; i < errors.size(); ++i) d.reason += (i ? ", " : "") + errors[i];
    d.reason += "]";
  }
  return d;
}

std::vector<ResourceType> rbac_types() {
  auto make = [](const std::string& group, const std::string& kind, const std::string& plural, bool namespaced) {
    ResourceType rt;
    rt.group = group;
    rt.version = "v1";
    rt.kind = kind;
    rt.plural = plural;
    rt.singular = plural.substr(0, plural.size() - 1);
    rt.namespaced = namespaced;
    return rt;
  };
  ResourceType ssar = make("authorization.k8s.io", "SelfSubjectAccessReview", "selfsubjectaccessreviews", false);
  ssar.verbs = {"create"};  // pkg/registry/authorization/selfsubjectaccessreview/rest.go: Create only
  return {make(kRbacGroup, "ClusterRole", "clusterroles", false),
          make(kRbacGroup, "ClusterRoleBinding", "clusterrolebindings", false),
          make(kRbacGroup, "Role", "roles", true),
          make(kRbacGroup, "RoleBinding", "rolebindings", true),
          ssar};
}

void bootstrap_rbac(Store& store) {
  const json cluster_admin = json::array({rule({"*"}, {"*"}, {"*"}), {{"verbs", {"*"}}, {"nonResourceURLs", {"*"}}}});
  // json::array: a one-element brace list is the element itself under clang, an array under gcc.
  const json discovery = json::array({{{"verbs", {"get"}},
                                       {"nonResourceURLs",
                                        {"/healthz", "/livez", "/readyz", "/version", "/version/", "/openapi",
                                         "/openapi/*", "/api", "/api/*", "/apis", "/apis/*"}}}});
  const json basic_user = json::array(
      {rule({"create"}, {"authorization.k8s.io"}, {"selfsubjectaccessreviews", "selfsubjectrulesreviews"})});
  const struct {
    const char* name;
    const json& rules;
    const char* group;
  } roles[] = {{"cluster-admin", cluster_admin, "system:masters"},
               {"system:discovery", discovery, "system:authenticated"},
               {"system:basic-user", basic_user, "system:authenticated"}};
  const ResourceType& cr = rbac_type(store, "clusterroles");
  const ResourceType& crb = rbac_type(store, "clusterrolebindings");
  const json bootstrap_labels = {{"kubernetes.io/bootstrapping", "rbac-defaults"}};
  const json autoupdate = {{"rbac.authorization.kubernetes.io/autoupdate", "true"}};
  for (const auto& r : roles) {
    if (!store.get_shared(cr, "", r.name))
      store.create(cr, {{"apiVersion", "rbac.authorization.k8s.io/v1"},
                        {"kind", "ClusterRole"},
                        {"metadata", {{"name", r.name}, {"labels", bootstrap_labels}, {"annotations", autoupdate}}},
                        {"rules", r.rules}});
    if (!store.get_shared(crb, "", r.name))
      store.create(crb, {{"apiVersion", "rbac.authorization.k8s.io/v1"},
                         {"kind", "ClusterRoleBinding"},
                         {"metadata", {{"name", r.name}, {"labels", bootstrap_labels}, {"annotations", autoupdate}}},
                         {"roleRef", {{"apiGroup", kRbacGroup}, {"kind", "ClusterRole"}, {"name", r.name}}},
                         {"subjects", json::array({{{"apiGroup", kRbacGroup}, {"kind", "Group"}, {"name", r.group}}})}});
  }
}

}  // namespace kubesim
