// watch=true: a chunked stream of {"type":..., "object":...} lines.
#include "kubesim/watch.h"

#include "kubesim/rest.h"

#include <thread>

namespace kubesim {

namespace {

std::string event_line(const char* type, const std::string& encoded) {
  std::string s = R"({"type":")";
  s += type;
  s += R"(","object":)";
  s += encoded;
  s += "}\n";
  return s;
}

}  // namespace

void Api::do_watch(ApiRequest& req) {
  const ApiPath& p = req.path;
  auto filter = std::make_shared<ListFilter>(
      ListFilter::parse(*p.rt, req.param("labelSelector"), req.param("fieldSelector")));
  std::string ns = p.has_ns ? p.ns : "";
  int timeout = 1800;
  if (!req.param("timeoutSeconds").empty()) {
    try {
      timeout = std::stoi(req.param("timeoutSeconds"));
    } catch (...) {
      throw bad_request("invalid timeoutSeconds: " + req.param("timeoutSeconds"));
    }
  }
  uint64_t since = 0;
  std::string rv_param = req.param("resourceVersion");
  if (!rv_param.empty()) {
    try {
      since = std::stoull(rv_param);
    } catch (...) {
      throw bad_request("invalid resource version: " + rv_param);
    }
  }
  auto queue = std::make_shared<StreamQueue>();
  // kubectl get --watch asks for Table objects: each event then carries a one-row Table.
  const ResourceType* rt = p.rt;
  Store* st = &m_store;
  bool table = wants_table(req.http);
  bool full = req.param("includeObject") == "Object";
  auto encode = [rt, st, table, full](const std::shared_ptr<const json>& obj, const std::shared_ptr<const std::string>& enc) {
    if (!table) return enc ? *enc : obj->dump();
    Store::ListResult one;
    one.items.push_back(obj);
    one.resource_version = std::stoull((*obj)["metadata"].value("resourceVersion", "0"));
    return table_for(*rt, one, full, st->now());
  };
  auto last_sent = std::make_shared<std::atomic<uint64_t>>(0);
  auto matches = [filter, ns](const json& obj) {
    if (!ns.empty() && obj["metadata"].value("namespace", "") != ns) return false;
    return filter->matches(obj);
  };
  // Buffer live events from now on; drop those already covered by the initial state.
  auto pending = std::make_shared<std::vector<WatchEvent>>();
  auto ready = std::make_shared<std::atomic<bool>>(false);
  auto pending_mu = std::make_shared<std::mutex>();
  uint64_t handle = m_store.watch(p.rt, [=](const WatchEvent& ev) {
    std::lock_guard lock(*pending_mu);
    if (!ready->load()) {
      pending->push_back(ev);
      return true;
    }
    if (ev.resource_version > last_sent->load() && matches(*ev.object)) {
      queue->push(event_line(event_type_name(ev.type), encode(ev.object, ev.encoded)));
      last_sent->store(ev.resource_version);
    }
    return true;
  });
  try {
    std::lock_guard lock(*pending_mu);
    uint64_t covered;
    if (since == 0) {
      auto list = m_store.list(*p.rt, ns, [&](const json& o) { return matches(o); });
      for (size_t i = 0; i < list.items.size(); ++i) queue->push(event_line("ADDED", encode(list.items[i], list.encoded[i])));
      covered = list.resource_version;
    } else {
      auto events = m_store.events_since(*p.rt, since);
      covered = since;
      for (const auto& ev : events) {
        if (matches(*ev.object)) queue->push(event_line(event_type_name(ev.type), encode(ev.object, ev.encoded)));
        covered = std::max(covered, ev.resource_version);
      }
    }
    last_sent->store(covered);
    for (const auto& ev : *pending)
      if (ev.resource_version > covered && matches(*ev.object)) {
        queue->push(event_line(event_type_name(ev.type), encode(ev.object, ev.encoded)));
        last_sent->store(ev.resource_version);
      }
    pending->clear();
    ready->store(true);
  } catch (...) {
    m_store.unwatch(handle);
    throw;
  }
  int fd = request_socket(req.http);
  int cut_after = req.fault && req.fault->action == "cut" ? std::max(req.fault->lines, 0) : -1;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout);
  Store* store = &m_store;
  const std::atomic<bool>* stopping = &m_stopping;
  auto sent = std::make_shared<int>(0);
  disable_compression(req.http);
  req.res.status = 200;
  req.res.set_header("Cache-Control", "no-cache, private");
  req.res.set_chunked_content_provider(
      "application/json",
      [=](size_t, httplib::DataSink& sink) {
        auto lines = queue->take(std::chrono::milliseconds(500));
        for (auto& l : lines) {
          if (cut_after >= 0 && *sent >= cut_after) return false;  // fault: cut the stream
          if (!sink.write(l.data(), l.size())) return false;
          ++*sent;
        }
        if (cut_after >= 0 && *sent >= cut_after) return false;
        if (std::chrono::steady_clock::now() >= deadline || stopping->load() || peer_closed(fd)) {
          sink.done();
          return true;
        }
        return true;
      },
      [=](bool) {
        queue->close();
        store->unwatch(handle);
      });
}

}  // namespace kubesim
