// CustomResourceDefinitions served at /apis/apiextensions.k8s.io/v1, --crd-drop-field and
// --kubernetes-version (/version).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "kubesim/builtin_types.h"
#include "kubesim/crd_objects.h"
#include "kubesim/server_startup.h"
#include "rest_fixture.h"
#include "support/ci.h"
#include "support/paths.h"

using namespace kubesim;
using kubesim::testing::body_json;
using kubesim::testing::kJson;
using kubesim::testing::trust_ca;

namespace {


// A kubesim server with the built-in custom resources (or the CRDs of schema_dir), their CRD
// objects published, and the given options.
struct CrdServer {
  Store store;
  LogStore logs;
  std::unique_ptr<Server> server;
  std::string token = "test-token-0123456789";

  CrdServer(const std::string& schema_dir, const std::vector<CrdFieldDrop>& drops, KubeVersion version = {}) {
    ServerOptions o;
    o.port = 0;
    o.tokens = {token};
    o.threads = 8;
    o.kubernetes_version = version;
    register_builtin_crds(store);
    if (!schema_dir.empty()) {
      register_crds_from_dir(store, schema_dir + "/crds");
      o.validator = make_schema_validator(schema_dir);
    }
    if (!drops.empty()) o.validator = with_dropped_fields(o.validator, drops);
    publish_crds(store, load_crd_documents(schema_dir.empty() ? "" : schema_dir + "/crds"), drops);
    server = std::make_unique<Server>(store, logs, o);
    server->start();
  }
  ~CrdServer() { server->stop(); }

  std::unique_ptr<httplib::SSLClient> client() {
    auto c = std::make_unique<httplib::SSLClient>("127.0.0.1", server->port());
    trust_ca(*c, server->ca().cert_pem);
    c->set_bearer_token_auth(token.c_str());
    c->set_read_timeout(10, 0);
    return c;
  }
};

const json* condition(const json& crd, const std::string& type) {
  for (const auto& c : crd["status"]["conditions"])
    if (c["type"] == type) return &c;
  return nullptr;
}

json pytorch_with_nproc() {
  json tmpl = {{"spec", {{"containers", json::array({{{"name", "pytorch"}, {"image", "pytorch:2"}}})}}}};
  return {{"apiVersion", "kubeflow.org/v1"},
          {"kind", "PyTorchJob"},
          {"metadata", {{"name", "old-operator"}}},
          {"spec",
           {{"nprocPerNode", "2"},
            {"pytorchReplicaSpecs", {{"Master", {{"replicas", 1}, {"template", tmpl}}}}}}}};
}

}  // namespace

TEST_CASE("CRDs of the built-in custom resources are served with their fields", "[kubesim][crd]") {
  CrdServer sim("", {});
  auto c = sim.client();
  auto r = c->Get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/pytorchjobs.kubeflow.org");
  REQUIRE(r);
  REQUIRE(r->status == 200);
  json crd = body_json(r);
  CHECK(crd["kind"] == "CustomResourceDefinition");
  CHECK(crd["apiVersion"] == "apiextensions.k8s.io/v1");
  CHECK(crd["spec"]["group"] == "kubeflow.org");
  CHECK(crd["spec"]["names"]["kind"] == "PyTorchJob");
  CHECK(crd["spec"]["versions"][0]["name"] == "v1");
  const json spec_props =
      crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
  CHECK(spec_props["nprocPerNode"]["type"] == "string");
  CHECK(crd["status"]["acceptedNames"]["plural"] == "pytorchjobs");
  REQUIRE(condition(crd, "Established") != nullptr);
  CHECK((*condition(crd, "Established"))["status"] == "True");
  CHECK(crd["status"]["storedVersions"] == json::array({"v1"}));

  r = c->Get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/mpijobs.kubeflow.org");
  REQUIRE(r->status == 200);
  CHECK(body_json(r)["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
            .contains("launcherCreationPolicy"));
  r = c->Get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/tfjobs.kubeflow.org");
  REQUIRE(r->status == 200);
  CHECK(body_json(r)["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
            .contains("tfReplicaSpecs"));
  r = c->Get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/workloads.kueue.x-k8s.io");
  CHECK(r->status == 404);
  CHECK(body_json(r)["message"] ==
        "customresourcedefinitions.apiextensions.k8s.io \"workloads.kueue.x-k8s.io\" not found");

  // Discovery names the group and the resource, as kube-apiserver does.
  r = c->Get("/apis");
  bool found = false;
  const json groups = body_json(r)["groups"];
  for (const auto& g : groups) found = found || g["name"] == "apiextensions.k8s.io";
  CHECK(found);
  r = c->Get("/apis/apiextensions.k8s.io/v1");
  REQUIRE(r->status == 200);
  found = false;
  const json resources = body_json(r)["resources"];
  for (const auto& res : resources)
    if (res["name"] == "customresourcedefinitions") {
      found = true;
      CHECK(res["namespaced"] == false);
      CHECK(res["kind"] == "CustomResourceDefinition");
    }
  CHECK(found);
}

TEST_CASE("CRDs loaded from --schemas are the real documents, all of them", "[kubesim][crd]") {
  auto dir = trainctl::testing::schema_dir_for_case();
  if (!dir) return;
  CrdServer sim(*dir, {});
  auto c = sim.client();
  auto r = c->Get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions");
  REQUIRE(r->status == 200);
  json list = body_json(r);
  std::set<std::string> names;
  for (const auto& i : list["items"]) names.insert(i["metadata"]["name"]);
  for (const char* n :
       {"pytorchjobs.kubeflow.org", "tfjobs.kubeflow.org", "mpijobs.kubeflow.org", "jobs.batch.volcano.sh",
        "podgroups.scheduling.volcano.sh", "queues.scheduling.volcano.sh", "clusterqueues.kueue.x-k8s.io",
        "localqueues.kueue.x-k8s.io", "workloads.kueue.x-k8s.io", "resourceflavors.kueue.x-k8s.io",
        "trainjobs.trainer.kubeflow.org", "trainingruntimes.trainer.kubeflow.org",
        "clustertrainingruntimes.trainer.kubeflow.org", "jobsets.jobset.x-k8s.io"})
    CHECK(names.count(n) == 1);
  // And Volcano's bus Commands, whose CRD the schemas lack: kubesim's own document.
  CHECK(names.count("commands.bus.volcano.sh") == 1);
  CHECK(names.size() == 15);
  r = c->Get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/pytorchjobs.kubeflow.org");
  json crd = body_json(r);
  // The real document: controller-gen's annotation and the full schema with descriptions.
  CHECK(crd["metadata"]["annotations"].contains("controller-gen.kubebuilder.io/version"));
  CHECK(crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
           ["nprocPerNode"]
               .contains("description"));
}

TEST_CASE("--crd-drop-field: the served CRD and the validation lack the field", "[kubesim][crd]") {
  const std::vector<CrdFieldDrop> drops = {
      parse_crd_drop_field("pytorchjobs.kubeflow.org:spec.nprocPerNode")};
  auto dir = trainctl::testing::schema_dir_for_case();  // both without and with the schemas
  for (const std::string schema_dir : {std::string(), dir.value_or("")}) {
    if (!schema_dir.empty() || !dir) INFO("schemas: " << schema_dir);
    CrdServer sim(schema_dir, drops);
    auto c = sim.client();
    auto r = c->Get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/pytorchjobs.kubeflow.org");
    REQUIRE(r->status == 200);
    const json props =
        body_json(r)["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
    CHECK_FALSE(props.contains("nprocPerNode"));
    CHECK(props.contains("pytorchReplicaSpecs"));
    // kube-apiserver's answer to an unknown field under fieldValidation=Strict.
    r = c->Post("/apis/kubeflow.org/v1/namespaces/default/pytorchjobs?fieldValidation=Strict",
                pytorch_with_nproc().dump(), kJson);
    REQUIRE(r);
    CHECK(r->status == 400);
    CHECK(body_json(r)["reason"] == "BadRequest");
    CHECK(body_json(r)["message"] ==
          "PyTorchJob in version \"v1\" cannot be handled as a PyTorchJob: strict decoding error: unknown "
          "field "
          "\"spec.nprocPerNode\"");
    // Without Strict the field is pruned, as an unknown field is.
    r = c->Post("/apis/kubeflow.org/v1/namespaces/default/pytorchjobs?fieldValidation=Ignore",
                pytorch_with_nproc().dump(), kJson);
    REQUIRE(r->status == 201);
    CHECK_FALSE(body_json(r)["spec"].contains("nprocPerNode"));
    if (!dir) break;
  }
}

TEST_CASE("--crd-drop-field: bad arguments get one line saying how to write them", "[kubesim][crd]") {
  CHECK_THROWS_WITH(
      parse_crd_drop_field("spec.nprocPerNode"),
      Catch::Contains("expected CRD:FIELD") && Catch::Contains("pytorchjobs.kubeflow.org:spec.nprocPerNode"));
  CHECK_THROWS_WITH(parse_crd_drop_field("pytorchjobs:spec.x"), Catch::Contains("is not PLURAL.GROUP"));
  Store store;
  register_builtin_crds(store);
  CHECK_THROWS_WITH(publish_crds(store, {}, {parse_crd_drop_field("pytorchjobs.kubeflow.org:spec.nope")}),
                    "--crd-drop-field: the CRD pytorchjobs.kubeflow.org has no field \"spec.nope\"");
  CHECK_THROWS_WITH(publish_crds(store, {}, {parse_crd_drop_field("workloads.kueue.x-k8s.io:spec.x")}),
                    Catch::Contains("serves no CRD \"workloads.kueue.x-k8s.io\""));
}

TEST_CASE("--crd-version: a custom resource served at another version only, CRD and discovery alike",
          "[kubesim][crd]") {
  auto dir = trainctl::testing::find_schema_dir();
  for (const std::string schema_dir : {std::string(), dir.value_or("")}) {
    Store store;
    register_builtin_crds(store);
    if (!schema_dir.empty()) register_crds_from_dir(store, schema_dir + "/crds");
    auto docs = load_crd_documents(schema_dir.empty() ? "" : schema_dir + "/crds");
    serve_crd_at_version(store, docs, "mpijobs.kubeflow.org=v1");
    publish_crds(store, docs, {});
    CHECK(store.find("kubeflow.org", "v1", "mpijobs"));
    CHECK_FALSE(store.find("kubeflow.org", "v2beta1", "mpijobs"));
    const ResourceType* crds = store.find("apiextensions.k8s.io", "v1", "customresourcedefinitions");
    const auto crd = store.get_shared(*crds, "", "mpijobs.kubeflow.org");
    REQUIRE(crd);
    REQUIRE((*crd)["spec"]["versions"].size() == 1);
    CHECK((*crd)["spec"]["versions"][0]["name"] == "v1");
    CHECK((*crd)["status"]["storedVersions"] == json::array({"v1"}));
    if (!dir) break;
  }
  Store store;
  register_builtin_crds(store);
  std::vector<json> none;
  CHECK_THROWS_WITH(serve_crd_at_version(store, none, "mpijobs.kubeflow.org"), Catch::Contains("PLURAL.GROUP=VERSION"));
  CHECK_THROWS_WITH(serve_crd_at_version(store, none, "nope.example.com=v1"), Catch::Contains("serves no custom resource"));
}

TEST_CASE("--kubernetes-version: /version answers the emulated release", "[kubesim][version]") {
  CrdServer sim("", {}, parse_kubernetes_version("1.26"));
  auto r = sim.client()->Get("/version");
  REQUIRE(r->status == 200);
  json v = body_json(r);
  CHECK(v["major"] == "1");
  CHECK(v["minor"] == "26");
  CHECK(v["gitVersion"] == "v1.26.0");
  CHECK(parse_kubernetes_version("v1.28.3").git_version() == "v1.28.3");
  CHECK_THROWS_WITH(parse_kubernetes_version("latest"), Catch::Contains("expected MAJOR.MINOR"));
  CHECK_THROWS_WITH(parse_kubernetes_version("1.19"), Catch::Contains("1.21 or newer"));
  CrdServer dflt("", {});
  CHECK(body_json(dflt.client()->Get("/version"))["gitVersion"] == "v1.31.0");
}

TEST_CASE("--crds reads CRD files as kubectl reads YAML", "[kubesim][crd]") {
  // served: yes and storage: on are booleans to kubectl (go-yaml v2 resolveMap); kubesim's own
  // reader kept them as strings and then failed on the string where it wanted a bool.
  const std::string dir =
      std::filesystem::temp_directory_path() / ("kubesim-crds-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream out(dir + "/widgets.yaml");
    out << R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions:
  - {name: v1, served: yes, storage: on}
  - {name: v0, served: no, storage: off}
)";
  }
  Store store;
  CHECK(register_crds_from_dir(store, dir) == 1);
  const ResourceType* rt = store.find("example.com", "v1", "widgets");
  REQUIRE(rt);
  CHECK(rt->singular == "widget");
  CHECK(rt->storage_version == "v1");
  CHECK_FALSE(store.find("example.com", "v0", "widgets"));
  std::filesystem::remove_all(dir);
  CHECK_THROWS(register_crds_from_dir(store, dir));  // a --crds directory that is not there
}
