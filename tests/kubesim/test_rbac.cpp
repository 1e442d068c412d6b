// RBAC, SelfSubjectAccessReviews and --token-auth-file, against the rules of kube-apiserver's
// RBAC authorizer (plugin/pkg/auth/authorizer/rbac/rbac.go, pkg/registry/rbac/validation/rule.go,
// pkg/apis/rbac/v1/evaluation_helpers.go) and its review registry
// (pkg/registry/authorization/selfsubjectaccessreview/rest.go). The real kubectl judges the
// same reviews in tests/integration/doctor_permissions.sh.
#include <catch2/catch.hpp>

#include "kubesim/rbac.h"
#include "kubesim/token_file.h"
#include "rest_fixture.h"

using namespace kubesim;
using kubesim::testing::body_json;
using kubesim::testing::kJson;
using kubesim::testing::SimServer;

namespace {

const ResourceType& rbac(const Store& s, const char* plural) {
  return *s.find("rbac.authorization.k8s.io", "v1", plural);
}

void add_role(Store& s, const std::string& ns, const std::string& name, json rules) {
  const bool cluster = ns.empty();
  json md = {{"name", name}};
  if (!cluster) md["namespace"] = ns;
  s.create(rbac(s, cluster ? "clusterroles" : "roles"),
           {{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", cluster ? "ClusterRole" : "Role"},
            {"metadata", md}, {"rules", std::move(rules)}});
}

void bind_role(Store& s, const std::string& ns, const std::string& name, const std::string& role_kind,
          const std::string& role, json subjects) {
  const bool cluster = ns.empty();
  json md = {{"name", name}};
  if (!cluster) md["namespace"] = ns;
  s.create(rbac(s, cluster ? "clusterrolebindings" : "rolebindings"),
           {{"apiVersion", "rbac.authorization.k8s.io/v1"},
            {"kind", cluster ? "ClusterRoleBinding" : "RoleBinding"},
            {"metadata", md},
            {"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", role_kind}, {"name", role}}},
            {"subjects", std::move(subjects)}});
}

json user(const std::string& name) { return json::array({{{"kind", "User"}, {"name", name}}}); }

AuthAttributes attrs(std::string verb, std::string group, std::string resource, std::string ns,
                     std::string sub = "", std::string name = "") {
  AuthAttributes a;
  a.verb = std::move(verb);
  a.group = std::move(group);
  a.resource = std::move(resource);
  a.namespace_ = std::move(ns);
  a.subresource = std::move(sub);
  a.name = std::move(name);
  return a;
}

}  // namespace

TEST_CASE("RBAC: bindings, scopes, subresources and names as kube-apiserver matches them", "[kubesim][rbac]") {
  Store s;
  s.create(*s.find("", "v1", "namespaces"), {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "team-a"}}}});
  const UserInfo alice{"alice", {"team-a", "system:authenticated"}};
  const UserInfo admin{"admin", {"system:masters", "system:authenticated"}};
  CHECK(authorize(s, admin, attrs("delete", "", "nodes", "")).allowed);  // the privileged group
  CHECK_FALSE(authorize(s, alice, attrs("list", "", "pods", "default")).allowed);
  CHECK(authorize(s, alice, attrs("list", "", "pods", "default")).reason.empty());  // no opinion, no error

  add_role(s, "team-a", "runner",
           {{{"verbs", {"create", "list"}}, {"apiGroups", {"kubeflow.org"}}, {"resources", {"pytorchjobs"}}},
            {{"verbs", {"get"}}, {"apiGroups", {""}}, {"resources", {"pods/log"}}},
            {{"verbs", {"get"}}, {"apiGroups", {""}}, {"resources", {"configmaps"}}, {"resourceNames", {"only-this"}}}});
  bind_role(s, "team-a", "runner-binding", "Role", "runner", user("alice"));
  const auto yes = authorize(s, alice, attrs("create", "kubeflow.org", "pytorchjobs", "team-a"));
  CHECK(yes.allowed);
  CHECK(yes.reason == "RBAC: allowed by RoleBinding \"runner-binding/team-a\" of Role \"runner\" to User \"alice\"");
  // A RoleBinding grants in its namespace only; a request at the cluster scope sees none.
  CHECK_FALSE(authorize(s, alice, attrs("create", "kubeflow.org", "pytorchjobs", "default")).allowed);
  CHECK_FALSE(authorize(s, alice, attrs("list", "kubeflow.org", "pytorchjobs", "")).allowed);
  CHECK_FALSE(authorize(s, alice, attrs("delete", "kubeflow.org", "pytorchjobs", "team-a")).allowed);
  CHECK_FALSE(authorize(s, alice, attrs("create", "", "pytorchjobs", "team-a")).allowed);  // another group
  // "pods/log" is the subresource only; "pods" does not grant it, nor it "pods".
  CHECK(authorize(s, alice, attrs("get", "", "pods", "team-a", "log")).allowed);
  CHECK_FALSE(authorize(s, alice, attrs("get", "", "pods", "team-a")).allowed);
  // resourceNames limit a rule to those names.
  CHECK(authorize(s, alice, attrs("get", "", "configmaps", "team-a", "", "only-this")).allowed);
  CHECK_FALSE(authorize(s, alice, attrs("get", "", "configmaps", "team-a", "", "other")).allowed);

  // A ClusterRole bound to a group, with "*" and "*/subresource".
  add_role(s, "", "reader",
           {{{"verbs", {"get", "list", "watch"}}, {"apiGroups", {"*"}}, {"resources", {"*"}}},
            {{"verbs", {"update"}}, {"apiGroups", {"*"}}, {"resources", {"*/status"}}}});
  bind_role(s, "", "readers", "ClusterRole", "reader", json::array({{{"kind", "Group"}, {"name", "team-a"}}}));
  const auto read = authorize(s, alice, attrs("list", "", "nodes", ""));
  CHECK(read.allowed);
  CHECK(read.reason == "RBAC: allowed by ClusterRoleBinding \"readers\" of ClusterRole \"reader\" to Group \"team-a\"");
  CHECK(authorize(s, alice, attrs("update", "batch", "jobs", "x", "status")).allowed);
  CHECK_FALSE(authorize(s, alice, attrs("update", "batch", "jobs", "x")).allowed);

  // A binding whose role is missing: refused, the error in the reason.
  bind_role(s, "", "dangling", "ClusterRole", "nope", user("bob"));
  const auto missing = authorize(s, UserInfo{"bob", {"system:authenticated"}}, attrs("list", "", "pods", "default"));
  CHECK_FALSE(missing.allowed);
  CHECK(missing.reason == "RBAC: clusterrole.rbac.authorization.k8s.io \"nope\" not found");

  // A ServiceAccount subject without a namespace takes the RoleBinding's.
  bind_role(s, "team-a", "sa", "Role", "runner", json::array({{{"kind", "ServiceAccount"}, {"name", "ci"}}}));
  CHECK(authorize(s, UserInfo{"system:serviceaccount:team-a:ci", {}}, attrs("list", "kubeflow.org", "pytorchjobs", "team-a"))
            .allowed);
  CHECK_FALSE(authorize(s, UserInfo{"system:serviceaccount:other:ci", {}}, attrs("list", "kubeflow.org", "pytorchjobs", "team-a"))
                  .allowed);
}

TEST_CASE("RBAC: the bootstrap policy lets every authenticated user review itself and read discovery",
          "[kubesim][rbac]") {
  Store s;
  bootstrap_rbac(s);
  const UserInfo carol{"carol", {"system:authenticated"}};
  CHECK(authorize(s, carol, attrs("create", "authorization.k8s.io", "selfsubjectaccessreviews", "")).allowed);
  AuthAttributes discovery;
  discovery.resource_request = false;
  discovery.verb = "get";
  discovery.path = "/apis/kubeflow.org/v1";
  CHECK(authorize(s, carol, discovery).allowed);
  CHECK_FALSE(authorize(s, carol, attrs("list", "", "pods", "default")).allowed);
  // Kept, not replaced, when they exist: a seed may define its own.
  bootstrap_rbac(s);
  CHECK(s.list(rbac(s, "clusterrolebindings"), "").items.size() == 3);
}

TEST_CASE("SelfSubjectAccessReview: the decision that requests get, for the requesting user", "[kubesim][rbac]") {
  ServerOptions o;
  o.token_users = parse_token_auth_file("alice-token,alice,1001,\"team-a,ml\"\n", "tokens.csv");
  SimServer sim(nullptr, o);
  bootstrap_rbac(sim.store);
  add_role(sim.store, "default", "pods-reader", {{{"verbs", {"list"}}, {"apiGroups", {""}}, {"resources", {"pods"}}}});
  bind_role(sim.store, "default", "alice-pods", "Role", "pods-reader", json::array({{{"kind", "Group"}, {"name", "ml"}}}));
  auto alice = sim.client(false);
  alice->set_bearer_token_auth("alice-token");
  auto review = [&](const std::string& verb, const std::string& resource) {
    json body = {{"apiVersion", "authorization.k8s.io/v1"},
                 {"kind", "SelfSubjectAccessReview"},
                 {"spec", {{"resourceAttributes", {{"namespace", "default"}, {"verb", verb}, {"resource", resource}}}}}};
    auto r = alice->Post("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", body.dump(), kJson);
    REQUIRE(r);
    REQUIRE(r->status == 201);
    return body_json(r);
  };
  const json yes = review("list", "pods");
  CHECK(yes["status"]["allowed"] == true);
  CHECK(yes["status"]["reason"] == "RBAC: allowed by RoleBinding \"alice-pods/default\" of Role \"pods-reader\" to Group \"ml\"");
  CHECK(yes["kind"] == "SelfSubjectAccessReview");
  CHECK(yes["spec"]["resourceAttributes"]["verb"] == "list");
  const json no = review("create", "pods");
  CHECK(no["status"]["allowed"] == false);
  CHECK_FALSE(no["status"].contains("reason"));
  // The requests themselves get the same answers.
  auto r = alice->Get("/api/v1/namespaces/default/pods");
  REQUIRE(r);
  CHECK(r->status == 200);
  r = alice->Post("/api/v1/namespaces/default/pods",
                  json{{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"name", "p"}}},
                       {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}}
                      .dump(),
                  kJson);
  REQUIRE(r);
  CHECK(r->status == 403);
  CHECK(body_json(r)["message"] ==
        "pods is forbidden: User \"alice\" cannot create resource \"pods\" in API group \"\" in the namespace "
        "\"default\"");
  // Exactly one of resourceAttributes and nonResourceAttributes.
  r = alice->Post("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
                  json{{"kind", "SelfSubjectAccessReview"}, {"spec", json::object()}}.dump(), kJson);
  REQUIRE(r);
  CHECK(r->status == 422);
  CHECK(body_json(r)["details"]["causes"][0]["field"] == "spec.resourceAttributes");
  // Create is all the resource serves (authorization comes first: alice may not list them).
  r = alice->Get("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews");
  REQUIRE(r);
  CHECK(r->status == 403);
  auto admin = sim.client();
  r = admin->Get("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews");
  REQUIRE(r);
  CHECK(r->status == 405);
  r = admin->Get("/apis/authorization.k8s.io/v1");
  REQUIRE(r);
  bool listed = false;
  const json list = body_json(r);
  for (const auto& res : list["resources"])
    if (res["name"] == "selfsubjectaccessreviews") listed = res["verbs"] == json::array({"create"});
  CHECK(listed);
}

TEST_CASE("--token-auth-file: kube-apiserver's CSV of token, user, uid and groups", "[kubesim][rbac]") {
  const auto users = parse_token_auth_file(
      "t1,alice,1001\n"
      "\n"
      "t2, bob ,1002,\"ml, team-b\"\r\n",
      "f.csv");
  REQUIRE(users.size() == 2);
  CHECK(users[0].user.name == "alice");
  CHECK(users[0].user.groups == std::vector<std::string>{"system:authenticated"});
  CHECK(users[1].token == "t2");
  CHECK(users[1].user.name == "bob ");
  CHECK(users[1].user.groups == std::vector<std::string>{"ml", "team-b", "system:authenticated"});
  CHECK_THROWS_WITH(parse_token_auth_file("t3,carol\n", "f.csv"),
                    Catch::Contains("must have at least 3 columns (token, user name, user uid), found 2"));
}
