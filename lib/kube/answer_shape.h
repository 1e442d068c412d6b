// What a decoded answer must be for the request that asked for it: a GET of an object gets
// that object (its kind, its name), a list a List of that kind whose items are objects, a
// create the object created. A server (or something in front of it) that answers anything
// else, `[1,2,3]`, `{}`, a List where one object was asked for, would otherwise give an
// empty table, a job without a name or "submitted successfully": it is an Error naming the
// request, as client-go's decoder refuses an object of another kind (rest/request.go
// Result.Into; runtime.Decode on the expected type).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "kube/client.h"
#include "kube/resource.h"

namespace trainctl::kube {

// `what` names the request ("GET /api/v1/namespaces/ns/pods/x"). An empty kind or name is
// not checked; a kind missing from the answer is tolerated (older servers, fakes) but
// another kind is not.
void expect_object(const nlohmann::json& answer, std::string_view what, std::string_view kind,
                   std::string_view name);

// A list: an object whose kind (when given) ends in "List" (kind: the expected one, e.g.
// "PodList"; empty: any), with an `items` array (or null) of objects.
void expect_list(const nlohmann::json& answer, std::string_view what, std::string_view kind = {});

// "a JSON array", "a PodList", "an object without kind"...: what an answer is, for messages.
std::string describe_answer(const nlohmann::json& answer);

// describe_answer() of a list without items: "a PodList without items".
std::string without_items(const std::string& described);

// Throws the Error of an answer of the wrong shape: "the server answered WHAT with GOT where
// WANTED was expected".
[[noreturn]] void wrong_shape(std::string_view what, const std::string& got, const std::string& wanted);

// GET of one object of `resource`, checked with expect_object.
nlohmann::json get_object(Client& client, const Resource& resource, const std::string& ns,
                          const std::string& name);
// GET of a list (`path`: a collection with its query), checked with expect_list.
nlohmann::json get_list(Client& client, const std::string& path, std::string_view kind);

}  // namespace trainctl::kube
