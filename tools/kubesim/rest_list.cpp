// Lists: selectors, paging, Table.
#include "kubesim/rest.h"

#include "kubesim/list_body.h"
#include "kubesim/response_gzip.h"
#include "kubesim/watch.h"
#include "kubesim/selectable_fields.h"

#include <algorithm>

namespace kubesim {

ListFilter ListFilter::parse(const ResourceType& rt, const std::string& label_selector,
                             const std::string& field_selector) {
  ListFilter f;
  f.rt = &rt;
  f.labels = LabelSelector::parse(label_selector);
  f.fields = FieldSelector::parse(field_selector);
  // Only the kind's selectable fields (its field label conversion funcs in kube-apiserver).
  if (const std::string unknown = f.fields.bind(selectable_fields(rt)); !unknown.empty())
    throw bad_request("field label not supported: " + unknown);
  return f;
}

bool ListFilter::matches(const json& obj) const {
  return matches(fields.empty() ? FieldValues() : selectable_values(*rt, obj),
                 labels.empty() ? LabelValues() : LabelValues::of(obj));
}

bool ListFilter::matches(const FieldValues& values, const LabelValues& object_labels) const {
  // Neither walks the object's JSON: the store keeps both beside it.
  if (!fields.empty() && !fields.matches(values)) return false;
  return labels.empty() || labels.matches(object_labels);
}

namespace {

// What a list's items go between, in kube-apiserver's key order. A built-in list is a Go
// struct, encoded in its field order: kind, apiVersion, metadata, items (k8s.io/api
// core/v1/types.go, TypeMeta, ListMeta, Items). A custom resource list is an
// UnstructuredList, encoded as a Go map, whose keys encoding/json sorts: apiVersion, items,
// kind, metadata (apimachinery pkg/apis/meta/v1/unstructured/helpers.go,
// unstructuredJSONScheme.doEncode).
struct ListFrame {
  std::string head, tail;
};

ListFrame list_frame(const ResourceType& rt, bool builtin, const Store::ListResult& list) {
  json meta = {{"resourceVersion", std::to_string(list.resource_version)}};
  if (!list.continue_token.empty()) meta["continue"] = list.continue_token;
  if (list.remaining) meta["remainingItemCount"] = *list.remaining;
  const std::string kind = R"("kind":")" + rt.kind + R"(List")";
  const std::string api_version = R"("apiVersion":")" + rt.api_version() + R"(")";
  const std::string metadata = R"("metadata":)" + meta.dump();
  if (builtin) return {"{" + kind + "," + api_version + "," + metadata + R"(,"items":[)", "]}"};
  return {"{" + api_version + R"(,"items":[)", "]," + kind + "," + metadata + "}"};
}

}  // namespace

void Api::list_ahead(const std::string& key, const ResourceType& rt, const std::string& ns, const ListFilter& filter,
                     size_t limit, const std::string& continue_token, bool gzip) {
  m_ahead.start(key + continue_token, [this, &rt, ns, filter, limit, continue_token, gzip] {
    PageAhead::Answer a;
    const uint64_t before = m_store.resource_version();
    Store::StoredFilter fn;
    if (!filter.empty())
      fn = [&filter](const json&, const FieldValues& v, const LabelValues& l) { return filter.matches(v, l); };
    const Store::ListResult list = m_store.list_stored(rt, ns, fn, limit, continue_token);
    // Valid only for a store nobody wrote to while it was read (0 is no resourceVersion).
    a.store_rv = m_store.resource_version() == before ? before : 0;
    if (!a.store_rv) return a;  // never answered: neither joined nor compressed
    a.continue_token = list.continue_token;
    ListFrame frame = list_frame(rt, m_store.is_builtin(rt), list);
    a.body = join_list_body(std::move(frame.head), list.encoded, frame.tail);
    if (m_store.resource_version() != before) {
      a.store_rv = 0;
      return a;
    }
    if (gzip && a.body.size() > kGzipThresholdBytes) {
      a.body = gzip_compress(a.body);
      a.gzip = true;
    }
    return a;
  });
}

void Api::do_list(ApiRequest& req) {
  const ApiPath& p = req.path;
  ListFilter filter = ListFilter::parse(*p.rt, req.param("labelSelector"), req.param("fieldSelector"));
  size_t limit = 0;
  if (!req.param("limit").empty()) {
    try {
      long long l = std::stoll(req.param("limit"));
      limit = l > 0 ? static_cast<size_t>(l) : 0;
    } catch (...) {
      throw bad_request("invalid limit: " + req.param("limit"));
    }
  }
  if (req.fault && req.fault->action == "expire") {
    // Fault injection: the list's revision was compacted away (etcd3/errors.go wording).
    if (!req.param("continue").empty()) m_store.expire_continue(req.param("continue"));
    throw StatusError(410, "Expired", "The resourceVersion for the provided list is too old.",
                      json::object());
  }
  const std::string ns = p.has_ns ? p.ns : "", token = req.param("continue");
  const bool table = wants_table(req.http);
  // A paged JSON list without a fault rule: its next page is computed ahead (page_ahead.h).
  const bool ahead = limit > 0 && !table && !req.fault;
  const bool gzip = accepts_gzip(req.http);
  const std::string key = p.rt->key() + '\n' + ns + '\n' + req.param("labelSelector") + '\n' +
                          req.param("fieldSelector") + '\n' + std::to_string(limit) + (gzip ? "\ngzip\n" : "\n\n");
  // Written since the list's page before this one was answered: its next page is not computed
  // ahead, it would be thrown away too.
  bool written = false;
  if (ahead && !token.empty()) {
    std::optional<PageAhead::Answer> a = m_ahead.take(key + token, m_store.resource_version(), &written);
    if (a) {
      try {
        m_store.check_continue(token);  // expired since: answered below, as any list
      } catch (const StatusError&) {
        a.reset();
      }
    }
    if (a) {
      if (!a->continue_token.empty()) list_ahead(key, *p.rt, ns, filter, limit, a->continue_token, gzip);
      disable_compression(req.http);
      if (a->gzip) {
        req.res.set_header("Content-Encoding", "gzip");
        req.res.set_header("Vary", "Accept-Encoding");
      }
      req.res.status = 200;
      req.res.set_content(std::move(a->body), "application/json");
      return;
    }
  }
  Store::StoredFilter fn;
  if (!filter.empty()) fn = [&](const json&, const FieldValues& v, const LabelValues& l) { return filter.matches(v, l); };
  auto list = m_store.list_stored(*p.rt, ns, fn, limit, token);
  if (table) {
    send_json(req.res, 200, table_for(*p.rt, list, req.param("includeObject") == "Object", m_store.now()));
    return;
  }
  if (ahead && !list.continue_token.empty()) {
    if (written)
      m_ahead.skip(key + list.continue_token, m_store.resource_version());
    else
      list_ahead(key, *p.rt, ns, filter, limit, list.continue_token, gzip);
  }
  // A truncate fault cuts the whole body, so it gets one.
  ListFrame frame = list_frame(*p.rt, m_store.is_builtin(*p.rt), list);
  send_list_body(req.http, req.res, std::move(frame.head), std::move(list.encoded), std::move(frame.tail),
                 !req.fault);
}

}  // namespace kubesim
