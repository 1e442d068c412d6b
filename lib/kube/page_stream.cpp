#include "kube/page_stream.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "core/errors.h"
#include "kube/answer_shape.h"

namespace trainctl::kube {

using nlohmann::json;
namespace dom = simdjson::dom;

namespace {

// Item keys (depth counted from the item's own object = 2) that nothing reads, unless a read
// names them in its fields (legacy pods' ownerReferences). Labels and annotations sit at depth
// 5, so a label that happens to share one of these names is kept.
bool skipped_key(int depth, std::string_view key) {
  if (depth == 4) {
    // metadata.managedFields, spec.volumes, status.images (nodes), metadata.ownerReferences
    static constexpr std::array<std::string_view, 4> keys = {"managedFields", "volumes", "images",
                                                             "ownerReferences"};
    for (auto k : keys)
      if (key == k) return true;
    return false;
  }
  if (depth == 5) return key == "kubectl.kubernetes.io/last-applied-configuration";
  if (depth >= 6) {
    // Container fields of pods and of job templates.
    static constexpr std::array<std::string_view, 8> keys = {
        "env",          "envFrom",       "command",        "args",
        "volumeMounts", "livenessProbe", "readinessProbe", "startupProbe"};
    for (auto k : keys)
      if (key == k) return true;
  }
  return false;
}

[[noreturn]] void not_json(const std::string& what, simdjson::error_code error) {
  throw Error("the server's answer to " + what + " is not JSON (" + simdjson::error_message(error) + ")");
}

// Builds `out` from a parsed value at `depth`, keeping what `fields` keeps (nullptr: all but
// the skipped keys). Numbers take the types nlohmann gives them: unsigned when not negative.
void build(dom::element in, json& out, int depth, const FieldSet* fields) {
  switch (in.type()) {
    case dom::element_type::OBJECT: {
      out = json::object();
      auto& object = out.get_ref<json::object_t&>();
      for (dom::key_value_pair field : dom::object(in)) {
        if (!fields && skipped_key(depth + 1, field.key)) continue;  // a named field is built
        const FieldSet* below = nullptr;
        if (fields) {
          below = fields->find(field.key);
          if (!below) continue;
          if (below->keeps_all()) below = nullptr;
        }
        // The last of repeated keys wins, as in nlohmann's parser.
        build(field.value, object[std::string(field.key)], depth + 1, below);
      }
      return;
    }
    case dom::element_type::ARRAY: {
      out = json::array();
      auto& array = out.get_ref<json::array_t&>();
      const dom::array elements(in);
      array.reserve(elements.size());
      for (dom::element e : elements) build(e, array.emplace_back(), depth + 1, fields);
      return;
    }
    case dom::element_type::STRING:
      out = std::string(std::string_view(in));
      return;
    case dom::element_type::INT64: {
      const int64_t n = int64_t(in);
      if (n >= 0)
        out = static_cast<uint64_t>(n);
      else
        out = n;
      return;
    }
    case dom::element_type::UINT64:
      out = uint64_t(in);
      return;
    case dom::element_type::DOUBLE:
      out = double(in);
      return;
    case dom::element_type::BOOL:
      out = bool(in);
      return;
    case dom::element_type::NULL_VALUE:
      out = nullptr;
      return;
  }
}

// The parser of single objects: one per thread, reused (objects are small; list pages have
// the parsers of their read, PageParsers).
dom::parser& object_parser() {
  thread_local dom::parser parser;
  return parser;
}

dom::element parse(dom::parser& parser, const std::string& body, const std::string& what) {
  dom::element root;
  if (auto error = parser.parse(body).get(root)) not_json(what, error);
  return root;
}

// metadata.continue and metadata.resourceVersion of a list, read without building its items:
// simdjson's on-demand parser indexes the page and passes over every other value, items
// included when they come first. Built-in lists have metadata first (the field order of the
// list types, e.g. PodList in k8s.io/api core/v1/types.go: TypeMeta, ListMeta, Items); custom
// resource lists have items before it (apimachinery pkg/apis/meta/v1/unstructured/helpers.go,
// unstructuredJSONScheme encodes a Go map, whose keys encoding/json sorts: apiVersion, items,
// kind, metadata). A body that is not a JSON object gives an empty head; its error comes with
// the items.
void read_head(simdjson::ondemand::parser& parser, const std::string& padded, PageInfo& info) {
  namespace od = simdjson::ondemand;
  od::document doc;
  od::object top;
  if (parser.iterate(padded).get(doc) || doc.get_object().get(top)) return;
  for (auto field : top) {
    std::string_view key;
    if (field.unescaped_key().get(key)) return;
    if (key != "metadata") continue;
    od::object metadata;
    if (field.value().get_object().get(metadata)) return;
    for (auto m : metadata) {
      std::string_view mkey, value;
      if (m.unescaped_key().get(mkey)) return;
      if (mkey == "continue" && !m.value().get_string().get(value)) info.continue_token = value;
      if (mkey == "resourceVersion" && !m.value().get_string().get(value)) info.resource_version = value;
    }
    return;
  }
}

// What a parsed value is, for messages: kube/answer_shape.h's describe_answer of a value of
// its type (of an object, only its kind is built).
std::string describe(dom::element e) {
  json shape;
  switch (e.type()) {
    case dom::element_type::OBJECT: {
      shape = json::object();
      dom::element kind;
      if (!dom::object(e)["kind"].get(kind)) build(kind, shape["kind"], 3, nullptr);
      break;
    }
    case dom::element_type::ARRAY: shape = json::array(); break;
    case dom::element_type::STRING: shape = ""; break;
    case dom::element_type::BOOL: shape = false; break;
    case dom::element_type::NULL_VALUE: break;
    default: shape = 0; break;
  }
  return describe_answer(shape);
}

// A list page: an object (its kind, when a string, ending in "List" and `kind` when given),
// with an `items` array of objects, or null.
void check_list(dom::element root, const std::string& what, std::string_view kind) {
  const std::string wanted = kind.empty() ? std::string("a list") : describe_answer(json{{"kind", kind}});
  if (root.type() != dom::element_type::OBJECT) wrong_shape(what, describe(root), wanted);
  dom::element k;
  if (!dom::object(root)["kind"].get(k)) {
    std::string_view text;
    const bool list = !k.get(text) && text.size() >= 4 && text.substr(text.size() - 4) == "List";
    if (!list || (!kind.empty() && text != kind && text != "List")) wrong_shape(what, describe(root), wanted);
  }
  dom::element items;
  if (dom::object(root)["items"].get(items)) wrong_shape(what, without_items(describe(root)), wanted);
  if (items.type() == dom::element_type::NULL_VALUE) return;
  if (items.type() != dom::element_type::ARRAY)
    wrong_shape(what, describe(root) + " whose items are not an array", wanted);
  for (dom::element e : dom::array(items))
    if (e.type() != dom::element_type::OBJECT)
      wrong_shape(what, describe(root) + " holding " + describe(e), wanted);
}

}  // namespace

struct PageParsers::Parsers {
  simdjson::ondemand::parser head;
  dom::parser page;
};

PageParsers::PageParsers(size_t page_bytes) : m_page_bytes(page_bytes), m_parsers(std::make_unique<Parsers>()) {}
PageParsers::~PageParsers() = default;

void PageParsers::fit(size_t bytes) {
  Parsers& p = *m_parsers;
  if (bytes <= p.page.capacity() && bytes <= p.head.capacity()) return;
  const size_t capacity = std::max(bytes, m_page_bytes);
  // A failed allocation leaves a parser without buffers, and its parse of the page says so.
  [[maybe_unused]] const auto page_error = p.page.allocate(capacity);
  [[maybe_unused]] const auto head_error = p.head.allocate(capacity);
}

ListPage::ListPage(std::string body, std::string what, PageParsers* parsers)
    : m_own(parsers ? nullptr : std::make_unique<PageParsers>()),
      m_parsers(parsers ? parsers : m_own.get()),
      m_body(std::move(body)),
      m_what(std::move(what)) {
  m_info.bytes = m_body.size();
  // simdjson reads up to 64 bytes past the end: make room once, so both parsers read the body
  // where it lies.
  if (m_body.capacity() - m_body.size() < simdjson::SIMDJSON_PADDING)
    m_body.reserve(m_body.size() + simdjson::SIMDJSON_PADDING);
  m_parsers->fit(m_body.size());
  read_head(m_parsers->m_parsers->head, m_body, m_info);
}

void ListPage::hand_over(const ItemHandler& on_item, const FieldSet* fields, std::string_view kind) {
  json item;
  walk(
      [&](const dom::element& e) {
        build(e, item, 2, fields);
        on_item(item);
      },
      kind);
}

void ListPage::hand_over_parsed(const PageItemHandler& on_item, std::string_view kind) {
  walk([&](const dom::element& e) { on_item(PageItem(e)); }, kind);
}

void ListPage::walk(const std::function<void(const dom::element&)>& on_element, std::string_view kind) {
  const dom::element root = parse(m_parsers->m_parsers->page, m_body, m_what);
  check_list(root, m_what, kind);
  dom::element items;
  if (!dom::object(root)["items"].get(items) && items.type() == dom::element_type::ARRAY) {
    for (dom::element e : dom::array(items)) {
      ++m_info.items;
      on_element(e);
    }
  }
  // The next page was asked for by the head's token: the whole parse must read the same one.
  dom::element metadata;
  std::string_view token;
  if (!dom::object(root)["metadata"].get(metadata) && metadata.type() == dom::element_type::OBJECT &&
      metadata["continue"].get(token))
    token = {};
  if (token != m_info.continue_token)
    throw Error("the server's answer to " + m_what + " has a continue token that could not be read ahead");
}

PageInfo parse_list_page(const std::string& body, const ItemHandler& on_item, const std::string& what,
                         const FieldSet* fields, std::string_view kind) {
  ListPage page(body, what);
  page.hand_over(on_item, fields, kind);
  return page.info();
}

json parse_object(const std::string& body, const std::string& what, const FieldSet* fields,
                  std::string_view kind, std::string_view name) {
  const dom::element root = parse(object_parser(), body, what);
  if (root.type() != dom::element_type::OBJECT) {
    const std::string wanted = kind.empty() ? std::string("an object") : describe_answer(json{{"kind", kind}});
    wrong_shape(what, describe(root), wanted + (name.empty() ? "" : " named " + std::string(name)));
  }
  json out;
  build(root, out, 2, fields);  // the object's keys get the depths they have inside a list
  // The kind and the name, read from the parsed answer (`fields` may leave them out).
  json check = json::object();
  dom::element e;
  if (!dom::object(root)["kind"].get(e)) build(e, check["kind"], 3, nullptr);
  if (!dom::object(root)["metadata"].get(e) && e.type() == dom::element_type::OBJECT &&
      !dom::object(e)["name"].get(e))
    build(e, check["metadata"]["name"], 4, nullptr);
  expect_object(check, what, kind, name);
  return out;
}

}  // namespace trainctl::kube
