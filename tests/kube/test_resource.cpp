// REST paths and queries as kube-apiserver serves them (the API conventions: /api/v1 for the
// core group, /apis/GROUP/VERSION for the others, namespaces/NS for namespaced objects,
// NAME and SUBRESOURCE after the plural), written out by hand here, and the requests of
// create and delete.
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "kube/object_ops.h"
#include "kube/query.h"
#include "kube/resource.h"
#include "support/fake_client.h"

using nlohmann::json;
using namespace trainctl;
using namespace trainctl::kube;
using trainctl::testing::FakeClient;

namespace {
const Resource kPyTorchJobs{"kubeflow.org", "v1", "pytorchjobs", "PyTorchJob"};
}  // namespace

TEST_CASE("core resources live under /api/v1, in a namespace or across all of them") {
  CHECK(pods().collection_path("default") == "/api/v1/namespaces/default/pods");
  CHECK(pods().collection_path("") == "/api/v1/pods");
  CHECK(pods().object_path("default", "p-0") == "/api/v1/namespaces/default/pods/p-0");
  CHECK(pods().subresource_path("team-a", "p-0", "log") == "/api/v1/namespaces/team-a/pods/p-0/log");
  CHECK(config_maps().object_path("ns", "job-a-pytorchjob") ==
        "/api/v1/namespaces/ns/configmaps/job-a-pytorchjob");
  CHECK(persistent_volume_claims().collection_path("ns") == "/api/v1/namespaces/ns/persistentvolumeclaims");
  CHECK(events().collection_path("ns") == "/api/v1/namespaces/ns/events");
  CHECK(services().api_version() == "v1");
}

TEST_CASE("cluster-scoped resources never take a namespace") {
  CHECK(nodes().collection_path() == "/api/v1/nodes");
  CHECK(nodes().collection_path("default") == "/api/v1/nodes");
  CHECK(nodes().object_path("", "node-1") == "/api/v1/nodes/node-1");
  CHECK(namespaces().collection_path() == "/api/v1/namespaces");
  CHECK(custom_resource_definitions().object_path("", "pytorchjobs.kubeflow.org") ==
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/pytorchjobs.kubeflow.org");
}

TEST_CASE("resources of other groups live under /apis/GROUP/VERSION") {
  CHECK(kPyTorchJobs.collection_path("team-a") == "/apis/kubeflow.org/v1/namespaces/team-a/pytorchjobs");
  CHECK(kPyTorchJobs.collection_path("") == "/apis/kubeflow.org/v1/pytorchjobs");
  CHECK(kPyTorchJobs.object_path("team-a", "mnist") ==
        "/apis/kubeflow.org/v1/namespaces/team-a/pytorchjobs/mnist");
  CHECK(kPyTorchJobs.subresource_path("team-a", "mnist", "status") ==
        "/apis/kubeflow.org/v1/namespaces/team-a/pytorchjobs/mnist/status");
  CHECK(deployments().collection_path("ns") == "/apis/apps/v1/namespaces/ns/deployments");
  CHECK(kPyTorchJobs.api_version() == "kubeflow.org/v1");
  CHECK(kPyTorchJobs.display() == "PyTorchJob (kubeflow.org/v1)");
}

TEST_CASE("an object of a namespaced resource needs a namespace") {
  CHECK_THROWS_AS(pods().object_path("", "p-0"), Error);
  CHECK_THROWS_AS(kPyTorchJobs.object_path("", "mnist"), Error);
}

TEST_CASE("names are escaped as one path segment; names the server would read as another path are refused") {
  // Go's url.URL escapes a path this way (net/url shouldEscape, encodePath), so client-go sends these.
  CHECK(path_segment("a b") == "a%20b");
  CHECK(path_segment("a?b#c") == "a%3Fb%23c");
  CHECK(path_segment("\xC3\xBC") == "%C3%BC");
  CHECK(path_segment("x:y@z$&+,;=-_.~") == "x:y@z$&+,;=-_.~");
  CHECK(pods().object_path("my ns", "a?b") == "/api/v1/namespaces/my%20ns/pods/a%3Fb");
  // client-go's IsValidPathSegmentName: "." and ".." and names with '/' or '%' never leave.
  CHECK_THROWS_WITH(pods().object_path("default", "../../nodes"),
                    "invalid name \"../../nodes\": it may not contain '/'");
  CHECK_THROWS_WITH(pods().object_path("default", ".."), "invalid name \"..\": it may not be '..'");
  CHECK_THROWS_WITH(pods().object_path("default", "."), "invalid name \".\": it may not be '.'");
  CHECK_THROWS_WITH(pods().object_path("default", "a%2Fb"), "invalid name \"a%2Fb\": it may not contain '%'");
  CHECK_THROWS_WITH(pods().collection_path("a/b"), "invalid namespace \"a/b\": it may not contain '/'");
  CHECK_THROWS_AS(pods().object_path("default", "a/b"), UsageError);
}

TEST_CASE("a list query: labelSelector, fieldSelector, limit, continue, each value percent-encoded") {
  CHECK(ListQuery{}.encode().empty());
  ListQuery q;
  q.label_selector = "app=pytorchjob,release=mnist";
  CHECK(q.encode() == "?labelSelector=app%3Dpytorchjob%2Crelease%3Dmnist");
  q.field_selector = "status.phase!=Failed,spec.nodeName=node-1";
  q.limit = 500;
  q.continue_token = "eyJ2Ijo/1+=";
  CHECK(q.encode() ==
        "?labelSelector=app%3Dpytorchjob%2Crelease%3Dmnist"
        "&fieldSelector=status.phase%21%3DFailed%2Cspec.nodeName%3Dnode-1&limit=500&continue=eyJ2Ijo%2F1%2B%"
        "3D");
  CHECK(ListQuery{.field_selector = "metadata.name=a b"}.encode() == "?fieldSelector=metadata.name%3Da%20b");
  CHECK(ListQuery{.label_selector = "env in (a,b)", .limit = 1}.encode() ==
        "?labelSelector=env%20in%20%28a%2Cb%29&limit=1");
  CHECK(pods().collection_path("ns") +
            ListQuery{.label_selector = "training.kubeflow.org/job-name"}.encode() ==
        "/api/v1/namespaces/ns/pods?labelSelector=training.kubeflow.org%2Fjob-name");
}

TEST_CASE("other queries keep their parameters in order") {
  Query q;
  CHECK(q.encode().empty());
  q.add("container", "init code").add("follow", "true").add("sinceTime", "2024-05-01T10:00:00+08:00");
  CHECK(q.encode() == "?container=init%20code&follow=true&sinceTime=2024-05-01T10%3A00%3A00%2B08%3A00");
}

TEST_CASE("the resource of a manifest comes from its apiVersion and kind") {
  const Resource svc = resource_of({{"apiVersion", "v1"}, {"kind", "Service"}});
  CHECK(svc.collection_path("a") == "/api/v1/namespaces/a/services");
  CHECK(resource_of({{"apiVersion", "batch/v1"}, {"kind", "Job"}}).collection_path("a") ==
        "/apis/batch/v1/namespaces/a/jobs");
  CHECK(resource_of({{"apiVersion", "batch.volcano.sh/v1alpha1"}, {"kind", "Job"}}).collection_path("a") ==
        "/apis/batch.volcano.sh/v1alpha1/namespaces/a/jobs");
  CHECK(resource_of({{"apiVersion", "kubeflow.org/v2beta1"}, {"kind", "MPIJob"}}).collection_path("a") ==
        "/apis/kubeflow.org/v2beta1/namespaces/a/mpijobs");
  CHECK(resource_of({{"apiVersion", "kubeflow.org/v1"}, {"kind", "PyTorchJob"}}).plural == "pytorchjobs");
  // apimachinery's UnsafeGuessKindToResource: ...y -> ...ies, ...s -> ...ses, endpoints unchanged.
  CHECK(
      resource_of({{"apiVersion", "networking.k8s.io/v1"}, {"kind", "NetworkPolicy"}}).collection_path("a") ==
      "/apis/networking.k8s.io/v1/namespaces/a/networkpolicies");
  CHECK(resource_of({{"apiVersion", "networking.k8s.io/v1"}, {"kind", "Ingress"}}).plural == "ingresses");
  CHECK(resource_of({{"apiVersion", "v1"}, {"kind", "Endpoints"}}).plural == "endpoints");
  CHECK(resource_of({{"apiVersion", "scheduling.volcano.sh/v1beta1"}, {"kind", "PodGroup"}}).plural ==
        "podgroups");
  // Known resources keep their scope; the manifest's version is used.
  CHECK_FALSE(resource_of({{"apiVersion", "v1"}, {"kind", "Namespace"}}).namespaced);
  CHECK(resource_of({{"apiVersion", "apps/v1beta2"}, {"kind", "Deployment"}}).collection_path("a") ==
        "/apis/apps/v1beta2/namespaces/a/deployments");
  CHECK_THROWS_AS(resource_of({{"kind", "Service"}}), Error);
}

TEST_CASE("create posts with strict field validation; delete sends one DeleteOptions body") {
  FakeClient c;
  c.on("POST", "/apis/kubeflow.org/v1/namespaces/ns1/pytorchjobs?fieldValidation=Strict", 201,
       json{{"kind", "PyTorchJob"}, {"metadata", {{"name", "a"}, {"uid", "u1"}}}});
  c.on("DELETE", "/api/v1/namespaces/ns1/configmaps/a-pytorchjob", 200, json{{"kind", "Status"}});
  c.on("DELETE", "/apis/kubeflow.org/v1/namespaces/ns1/pytorchjobs/a", 200, json{{"kind", "PyTorchJob"}});
  const json job = {{"apiVersion", "kubeflow.org/v1"}, {"kind", "PyTorchJob"}, {"metadata", {{"name", "a"}}}};
  CHECK(create_object(c, kPyTorchJobs, "ns1", job)["metadata"]["uid"] == "u1");
  CHECK(delete_object(c, config_maps(), "ns1", "a-pytorchjob", Propagation::Background)["kind"] == "Status");
  CHECK(delete_object(c, kPyTorchJobs, "ns1", "a", Propagation::Foreground)["kind"] == "PyTorchJob");
  REQUIRE(c.requests().size() == 3);
  CHECK(json::parse(c.requests()[0].body) == job);
  CHECK(c.requests()[1].body ==
        R"({"apiVersion":"v1","kind":"DeleteOptions","propagationPolicy":"Background"})");
  CHECK(c.requests()[2].body ==
        R"({"apiVersion":"v1","kind":"DeleteOptions","propagationPolicy":"Foreground"})");
  CHECK_NOTHROW(c.verify());
}
