// Reads several collections and objects in one round trip. The first requests go out
// together through Client::send_all; the lists that have more pages (limit/continue) are
// then continued together too: each round sends the next page of every unfinished list.
// Pages are parsed as they are read (page_stream.h) and each item is handed to its read's
// handler, so a caller that reduces items to what it needs never holds a whole list.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/errors.h"
#include "kube/client.h"
#include "kube/page_stream.h"
#include "kube/query.h"
#include "kube/resource.h"

namespace trainctl::kube {

inline constexpr int kPageSize = 500;
// A list's later pages ask for as many items as fit in about this many bytes, going by the
// bytes per item of its page before (at most the page size): a page of 500 pods as a kubelet
// leaves them is 4 MB, and a read holds two rounds of pages of every list it reads.
inline constexpr size_t kPageBytes = size_t(1) << 20;
// A list's first page, whose bytes per item are not known yet, asks for at most this many
// items: 100 pods as a kubelet leaves them are 0.8 MB, where 500 (kubectl's chunk size) are
// 4 MB, and the page's parsers would keep buffers for 4 MB pages for the whole read
// (docs/performance.md, "Fifth round").
inline constexpr int kFirstPageItems = 100;

struct Read {
  std::string path;  // the collection or the object (Resource::collection_path, object_path)
  bool list = true;  // a collection (paged) or one object
  ListQuery query;   // of a list: its selectors (limit and continue are set page by page)
};

struct StreamRead {
  std::string path;     // as Read::path
  bool list = true;     // a collection (paged) or one object
  ListQuery query;      // as Read::query; with query.limit > 0 only the first page, of that many items
  ItemHandler on_item;  // every item of the list, or the object of a single read
  // A list's metadata.resourceVersion, page by page (the pages of one list share it): where a
  // watch of the collection starts (kube/reflector.h).
  std::function<void(const std::string&)> on_version = nullptr;
  // A read that may be refused: an API error answering its first request (403 Forbidden,
  // 404, ...) is handed here and the read is reported missing, instead of failing the round.
  std::function<void(const ApiError&)> on_error = nullptr;
  // The fields its handler reads (field_set.h): items are built with only these. nullptr:
  // all but the keys no command reads. Must outlive the read.
  const FieldSet* fields = nullptr;
  // When set, a list's items go here as parsed (page_stream.h PageItem), not built; on_item
  // is then not called for them.
  PageItemHandler on_page_item = nullptr;
  // What the answer must be (kube/answer_shape.h), set by list_read and object_read: the
  // kind of a list ("PodList") or of the object, and the object's name. Empty: any list or
  // object.
  std::string kind;
  std::string name;
};

// The read of the collection of `resource` in `ns` ("" = all namespaces) with `query`.
StreamRead list_read(const Resource& resource, const std::string& ns, ListQuery query, ItemHandler on_item);
// The read of one object.
StreamRead object_read(const Resource& resource, const std::string& ns, const std::string& name,
                       ItemHandler on_item);

// Sends the reads in parallel rounds as described above. Returns, per read, whether it
// was not found (404: no such object, or the resource is not served: nothing was handed
// over) or, for a read with on_error, refused. Any other failure is rethrown (the first
// one, in request order, of its round).
// A later page answered 410 Expired (its continue token outlived the server's compaction)
// makes it start every read again from its first page, once, after calling `restart` (which
// must forget what the handlers were given), as client-go's pager does
// (tools/pager/pager.go); a second expiry, or one without `restart`, is an Error with one line.
std::vector<bool> stream_all(Client& client, const std::vector<StreamRead>& reads, int page_size = kPageSize,
                             const std::function<void()>& restart = nullptr);

struct ReadResult {
  bool not_found = false;             // 404: no such object, or the resource is not served
  std::vector<nlohmann::json> items;  // list items
  nlohmann::json object;              // the object of a single read
};

// stream_all keeping every item: for small reads (one job's pods, services, PVCs).
std::vector<ReadResult> read_all(Client& client, const std::vector<Read>& reads, int page_size = kPageSize);

}  // namespace trainctl::kube
