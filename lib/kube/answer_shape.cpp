#include "kube/answer_shape.h"

#include "core/errors.h"

namespace trainctl::kube {

using nlohmann::json;

namespace {

bool ends_with(std::string_view s, std::string_view end) {
  return s.size() >= end.size() && s.substr(s.size() - end.size()) == end;
}

std::string a(std::string_view noun) {
  const bool vowel = !noun.empty() && std::string_view("AEIOUaeiou").find(noun[0]) != std::string_view::npos;
  return std::string(vowel ? "an " : "a ") + std::string(noun);
}

}  // namespace

std::string describe_answer(const json& answer) {
  switch (answer.type()) {
    case json::value_t::object: {
      const auto kind = answer.find("kind");
      if (kind == answer.end()) return "an object without kind";
      if (!kind->is_string()) return "an object whose kind is not a string";
      return a(kind->get<std::string>().substr(0, 100));
    }
    case json::value_t::array:
      return "a JSON array";
    case json::value_t::string:
      return "a JSON string";
    case json::value_t::boolean:
      return "a JSON boolean";
    case json::value_t::null:
      return "JSON null";
    default:
      return "a JSON number";
  }
}

std::string without_items(const std::string& described) {
  return described == "an object without kind" ? "an object without kind or items"
                                               : described + " without items";
}

void wrong_shape(std::string_view what, const std::string& got, const std::string& wanted) {
  throw Error("the server answered " + std::string(what) + " with " + got + " where " + wanted +
              " was expected");
}

void expect_object(const json& answer, std::string_view what, std::string_view kind, std::string_view name) {
  const std::string wanted = (kind.empty() ? std::string("an object") : a(kind)) +
                             (name.empty() ? "" : " named " + std::string(name));
  if (!answer.is_object()) wrong_shape(what, describe_answer(answer), wanted);
  const auto k = answer.find("kind");
  if (k != answer.end() && (!k->is_string() || (!kind.empty() && *k != kind) ||
                            (kind.empty() && ends_with(k->get<std::string>(), "List"))))
    wrong_shape(what, describe_answer(answer), wanted);
  if (name.empty()) return;
  const auto md = answer.find("metadata");
  const json* n = nullptr;
  if (md != answer.end() && md->is_object()) {
    const auto it = md->find("name");
    if (it != md->end() && it->is_string()) n = &*it;
  }
  if (n == nullptr) wrong_shape(what, describe_answer(answer) + " without metadata.name", wanted);
  if (*n != name)
    wrong_shape(what, describe_answer(answer) + " named \"" + n->get<std::string>().substr(0, 100) + "\"",
                wanted);
}

void expect_list(const json& answer, std::string_view what, std::string_view kind) {
  const std::string wanted = kind.empty() ? std::string("a list") : a(kind);
  if (!answer.is_object()) wrong_shape(what, describe_answer(answer), wanted);
  const auto k = answer.find("kind");
  if (k != answer.end() && (!k->is_string() || !ends_with(k->get<std::string>(), "List") ||
                            (!kind.empty() && *k != kind && *k != "List")))
    wrong_shape(what, describe_answer(answer), wanted);
  const auto items = answer.find("items");
  if (items == answer.end() || !(items->is_array() || items->is_null()))
    wrong_shape(what,
                items == answer.end() ? without_items(describe_answer(answer))
                                      : describe_answer(answer) + " whose items are not an array",
                wanted);
  if (items->is_array())
    for (const auto& item : *items)
      if (!item.is_object())
        wrong_shape(what, describe_answer(answer) + " holding " + describe_answer(item), wanted);
}

json get_object(Client& client, const Resource& resource, const std::string& ns, const std::string& name) {
  const std::string path = resource.object_path(ns, name);
  json answer = client.get_json(path);
  expect_object(answer, "GET " + path, resource.kind, name);
  return answer;
}

json get_list(Client& client, const std::string& path, std::string_view kind) {
  json answer = client.get_json(path);
  expect_list(answer, "GET " + path, kind);
  return answer;
}

}  // namespace trainctl::kube
