// Parses one page of a Kubernetes list and hands over its items one at a time, each dropped
// once its handler returns, so a page never exists as a whole document of nlohmann::json.
// Keys no command reads (managedFields, ownerReferences, container env, volumes, node
// images...) are never built unless a read names them, and a read that names its fields
// (field_set.h) gets only those.
//
// The page is parsed and validated with simdjson, which indexes a page several times faster
// than nlohmann's parser reads it; only the kept values are then built as nlohmann::json,
// the one JSON model every caller sees. simdjson stays inside page_stream.cpp.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "kube/field_set.h"

namespace simdjson::dom {
class element;
}

namespace trainctl::kube {

// Receives one list item; it may move from it.
using ItemHandler = std::function<void(nlohmann::json& item)>;

// One list item as simdjson parsed it, for the few readers that turn items straight into
// their summaries instead of building them (jobs/pod_summary_read.cpp): only such a reader
// includes simdjson and reads it. Valid during the handler's call.
class PageItem {
 public:
  explicit PageItem(const simdjson::dom::element& element) : m_element(&element) {}
  const simdjson::dom::element& element() const { return *m_element; }

 private:
  const simdjson::dom::element* m_element;
};
using PageItemHandler = std::function<void(const PageItem& item)>;

struct PageInfo {
  std::string continue_token;    // metadata.continue, "" on the last page
  std::string resource_version;  // metadata.resourceVersion
  size_t items = 0;              // how many items were handed over
  size_t bytes = 0;              // the body's size
};

// The simdjson parsers that read a list's pages: one that reads each page's head, one that
// parses it whole. Each keeps the buffers of the largest page it read (several times the
// page's size), so they belong to one paged read and go with it: a view that lists once and
// then watches does not hold them (docs/performance.md, "Fifth round").
class PageParsers {
 public:
  // `page_bytes`: the size of pages the read asks for. The buffers are made for pages of that
  // size at the first page (or of the page's, when larger), so that pages a little larger
  // than the one before do not make them again, each time a little larger, leaving the heap
  // the holes of the ones before.
  explicit PageParsers(size_t page_bytes = 0);
  ~PageParsers();
  PageParsers(const PageParsers&) = delete;
  PageParsers& operator=(const PageParsers&) = delete;

 private:
  friend class ListPage;
  struct Parsers;
  // Buffers for a page of `bytes`, made anew only when it is larger than they are.
  void fit(size_t bytes);
  size_t m_page_bytes;
  std::unique_ptr<Parsers> m_parsers;
};

// One page of a list whose head (continue token, resourceVersion) is read before its items
// are built, so that the next page can be asked for meanwhile (list_reads.cpp). The page
// owns its body; the whole body is parsed and checked when the items are handed over.
class ListPage {
 public:
  // With `parsers`, those of the read the page is part of; without, its own.
  ListPage(std::string body, std::string what, PageParsers* parsers = nullptr);

  // metadata.continue and metadata.resourceVersion; items counts what hand_over handed.
  const PageInfo& info() const { return m_info; }
  // Parses the page, builds each item (with `fields`, only those) and hands it to on_item.
  // Throws Error naming the request when the body is not JSON, or not a list (an object
  // whose kind, when there is one, is `kind` or ends in "List" when `kind` is empty, with an
  // `items` array of objects): kube/answer_shape.h.
  void hand_over(const ItemHandler& on_item, const FieldSet* fields = nullptr, std::string_view kind = {});
  // The same checks; each item goes to on_item as parsed, without being built.
  void hand_over_parsed(const PageItemHandler& on_item, std::string_view kind = {});

 private:
  void walk(const std::function<void(const simdjson::dom::element&)>& on_element, std::string_view kind);
  std::unique_ptr<PageParsers> m_own;  // without a read's parsers
  PageParsers* m_parsers;
  std::string m_body;
  std::string m_what;
  PageInfo m_info;
};

// Parses a page and hands over its items. Throws Error naming `what` when the body is not JSON. With `fields`, each item is built
// with only those fields. The body is parsed where it lies when its capacity leaves
// simdjson's padding (64 bytes) past its end, and copied once otherwise.
PageInfo parse_list_page(const std::string& body, const ItemHandler& on_item, const std::string& what,
                         const FieldSet* fields = nullptr, std::string_view kind = {});

// Parses a single object with the same key filter. Throws Error naming the request when it
// is not JSON, not an object, or (when given) not of that kind or not of that name.
nlohmann::json parse_object(const std::string& body, const std::string& what,
                            const FieldSet* fields = nullptr, std::string_view kind = {},
                            std::string_view name = {});

}  // namespace trainctl::kube
