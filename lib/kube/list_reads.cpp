#include "kube/list_reads.h"

#include <algorithm>
#include <optional>

#include "core/errors.h"
#include "core/log.h"
#include "kube/round_sender.h"
#include "kube/watch.h"

namespace trainctl::kube {

namespace {

std::string page_path(const StreamRead& r, int page_size, const std::string& cont) {
  ListQuery q = r.query;
  if (q.limit <= 0) q.limit = page_size;
  q.continue_token = cont;
  return r.path + q.encode();
}

// True when the error is a 404 (logged); rethrows anything else.
bool not_found(const std::exception_ptr& error, const std::string& path) {
  try {
    std::rethrow_exception(error);
  } catch (const ApiError& e) {
    if (!e.is_not_found()) throw;
    log::debug("{}: not found ({})", path, e.what());
    return true;
  }
}

// True when the error is an API error, handed to the read's on_error; rethrows anything else.
bool refused(const std::exception_ptr& error, const StreamRead& r) {
  try {
    std::rethrow_exception(error);
  } catch (const ApiError& e) {
    log::debug("{}: {} {}", r.path, e.http_status(), e.what());
    r.on_error(e);
    return true;
  }
}

// A later page of a list answered 410 Expired: its continue token is older than the last
// compaction of the server's storage.
struct ContinueExpired {
  std::string path;     // the request that failed
  std::string message;  // its reason: Expired (or Gone)
};

// The resource a list path names ("pods" of "/api/v1/namespaces/ns/pods?labelSelector=...").
std::string plural_of(const std::string& path) {
  const std::string p = path.substr(0, path.find('?'));
  return p.substr(p.rfind('/') + 1);
}

// The limit of a list's next page: as many items as fit in kPageBytes at the bytes per item
// of the page before (`bytes` for `limit` items, a full page as it has a continue token),
// between 1 and the page size.
int next_limit(size_t bytes, int limit, int page_size) {
  if (bytes == 0) return page_size;
  const auto fit = static_cast<long long>(kPageBytes * static_cast<size_t>(limit) / bytes);
  return static_cast<int>(std::clamp<long long>(fit, 1, page_size));
}

// The requests of one round: each pending read's next page, or its object, with its limit.
std::vector<Request> round_requests(const std::vector<StreamRead>& reads,
                                    const std::vector<std::pair<size_t, std::string>>& pending,
                                    const std::vector<int>& limits) {
  std::vector<Request> requests;
  for (const auto& [i, cont] : pending) {
    const auto& r = reads[i];
    Request req;
    req.path = r.list ? page_path(r, limits[i], cont) : r.path;
    // A later page, asked for by its bytes (with simdjson's padding).
    if (r.list && !cont.empty()) req.expected_bytes = kPageBytes + kPageBytes / 4 + 64;
    requests.push_back(std::move(req));
  }
  return requests;
}

std::vector<Client::Result> checked(std::vector<Client::Result> results, size_t sent) {
  if (results.size() != sent)
    throw Error("the client answered " + std::to_string(results.size()) + " of " + std::to_string(sent) +
                " requests");
  return results;
}

// The heads of each round's pages are read first, which tells their continue tokens; the
// next round is then sent from a second thread (one for the whole read: round_sender.h) while
// this one builds the items and hands them over, so that the server prepares the next pages
// while the client digests these (the client is used by one thread at a time: the handlers
// never touch it).
std::vector<bool> stream_pass(Client& client, const std::vector<StreamRead>& reads, int page_size) {
  std::vector<bool> missing(reads.size(), false);
  // Reads still to send this round, with the continue token of their next page.
  std::vector<std::pair<size_t, std::string>> pending;
  for (size_t i = 0; i < reads.size(); ++i) pending.emplace_back(i, "");
  std::vector<int> limits(reads.size(), std::min(page_size, kFirstPageItems));  // of each list's next page
  std::vector<Request> requests = round_requests(reads, pending, limits);
  std::vector<Client::Result> results = checked(client.send_all(requests), requests.size());
  // Sends every later round; its destructor waits for a round still on its way.
  RoundSender ahead(client);
  PageParsers parsers(kPageBytes + kPageBytes / 2);  // freed with the read
  for (bool first = true; !pending.empty(); first = false) {
    // Answers read: errors sorted out, pages parsed, the next round known.
    std::vector<std::optional<ListPage>> pages(results.size());
    std::vector<std::optional<nlohmann::json>> objects(results.size());
    std::vector<std::pair<size_t, std::string>> next;
    for (size_t n = 0; n < results.size(); ++n) {
      const size_t i = pending[n].first;
      const auto& r = reads[i];
      auto& res = results[n];
      if (res.error) {
        if (!pending[n].second.empty()) {
          try {
            std::rethrow_exception(res.error);
          } catch (const ApiError& e) {
            if (is_expired(e)) throw ContinueExpired{requests[n].path, e.reason()};
          } catch (...) {
          }
        }
        // A 404 on a later page means the list went away while we read it: an error.
        if (!first || !(r.on_error ? refused(res.error, r) : not_found(res.error, r.path)))
          std::rethrow_exception(res.error);
        missing[i] = true;
        continue;
      }
      if (!r.list) {
        objects[n] = parse_object(res.response.body, "GET " + r.path, r.fields, r.kind, r.name);
        continue;
      }
      pages[n].emplace(std::move(res.response.body), "GET " + requests[n].path, &parsers);
      const PageInfo& page = pages[n]->info();
      if (!page.continue_token.empty() && r.query.limit <= 0) {
        next.emplace_back(i, page.continue_token);
        limits[i] = next_limit(page.bytes, limits[i], page_size);
      }
    }
    std::vector<Request> next_requests = round_requests(reads, next, limits);
    if (!next.empty()) ahead.send(next_requests);
    // The items, in the order of the reads. A handler that throws leaves `ahead` to finish
    // (its destructor waits) before the error goes on.
    for (size_t n = 0; n < results.size(); ++n) {
      const auto& r = reads[pending[n].first];
      if (objects[n]) {
        if (r.on_item) r.on_item(*objects[n]);
        continue;
      }
      if (!pages[n]) continue;
      static const ItemHandler ignore = [](nlohmann::json&) {};
      if (r.on_page_item)
        pages[n]->hand_over_parsed(r.on_page_item, r.kind);
      else
        pages[n]->hand_over(r.on_item ? r.on_item : ignore, r.fields, r.kind);
      if (r.on_version) r.on_version(pages[n]->info().resource_version);
      pages[n].reset();  // its body, before the next page's
    }
    pending = std::move(next);
    requests = std::move(next_requests);
    if (!pending.empty()) results = checked(ahead.take(), requests.size());
  }
  return missing;
}

}  // namespace

StreamRead list_read(const Resource& resource, const std::string& ns, ListQuery query, ItemHandler on_item) {
  StreamRead r{resource.collection_path(ns), true, std::move(query), std::move(on_item), nullptr};
  r.kind = resource.kind + "List";
  return r;
}

StreamRead object_read(const Resource& resource, const std::string& ns, const std::string& name,
                       ItemHandler on_item) {
  StreamRead r{resource.object_path(ns, name), false, {}, std::move(on_item), nullptr};
  r.kind = resource.kind;
  r.name = name;
  return r;
}

std::vector<bool> stream_all(Client& client, const std::vector<StreamRead>& reads, int page_size,
                             const std::function<void()>& restart) {
  try {
    return stream_pass(client, reads, page_size);
  } catch (const ContinueExpired& e) {
    if (!restart)
      throw Error("the server expired the list of " + plural_of(e.path) +
                  " while it was read page by page (410 " + e.message + "); try again");
    // client-go's pager (tools/pager/pager.go) lists again from the start once; it drops the
    // page size for that, trainctl keeps it (memory) and so may meet a second expiry.
    log::debug("GET {}: the continue token expired (410 {}); listing again from the start", e.path,
               e.message);
  }
  restart();
  try {
    return stream_pass(client, reads, page_size);
  } catch (const ContinueExpired& e) {
    throw Error("the server expired the list of " + plural_of(e.path) +
                " twice while trainctl read it page by page (410 Expired: the cluster compacted its history "
                "meanwhile); try again");
  }
}

std::vector<ReadResult> read_all(Client& client, const std::vector<Read>& reads, int page_size) {
  std::vector<ReadResult> out(reads.size());
  std::vector<StreamRead> streams;
  for (size_t i = 0; i < reads.size(); ++i) {
    auto* result = &out[i];
    StreamRead s{reads[i].path, reads[i].list, reads[i].query, nullptr};
    if (reads[i].list)
      s.on_item = [result](nlohmann::json& item) { result->items.push_back(std::move(item)); };
    else
      s.on_item = [result](nlohmann::json& object) { result->object = std::move(object); };
    streams.push_back(std::move(s));
  }
  const auto missing = stream_all(client, streams, page_size, [&out] {
    for (auto& r : out) r = ReadResult{};
  });
  for (size_t i = 0; i < reads.size(); ++i) out[i].not_found = missing[i];
  return out;
}

}  // namespace trainctl::kube
