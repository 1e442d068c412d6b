// Lists (selectors, paging, Table) and request-body decoding/validation.
#include "kubesim/rest.h"
#include "kubesim/trainer_admission.h"

#include "kubesim/list_body.h"
#include "kubesim/response_gzip.h"
#include "kubesim/watch.h"
#include "kubesim/selectable_fields.h"

#include <algorithm>
#include <regex>

namespace kubesim {

namespace {

// A name format of apimachinery pkg/util/validation/validation.go (IsDNS1123Subdomain,
// IsDNS1123Label, IsDNS1035Label): MaxLenError past max_len, else RegexError's message.
struct NameFormat {
  size_t max_len;
  std::string pattern, rule;
  std::vector<std::string> examples;
  std::regex re{pattern};
  std::string check(const std::string& v) const {
    if (v.size() > max_len) return "must be no more than " + std::to_string(max_len) + " characters";
    if (std::regex_match(v, re)) return "";
    std::string msg = rule + " (e.g. ";
    for (size_t i = 0; i < examples.size(); ++i) msg += (i ? " or '" : "'") + examples[i] + "', ";
    return msg + "regex used for validation is '" + pattern + "')";
  }
};

}  // namespace

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
  return matches(obj, fields.empty() ? FieldValues() : selectable_values(*rt, obj));
}

bool ListFilter::matches(const json& obj, const FieldValues& values) const {
  // The fields first: the store keeps their values packed beside the object, the labels are
  // read from its JSON.
  if (!fields.empty() && !fields.matches(values)) return false;
  if (!labels.empty()) {
    static const json no_labels;
    const json& md = obj["metadata"];
    auto it = md.find("labels");
    // Not `cond ? json() : *it`: that copies every object's labels.
    if (!labels.matches(it == md.end() ? no_labels : *it)) return false;
  }
  return true;
}

std::string check_dns_subdomain(const std::string& v) {
  static const NameFormat f{
      253,
      "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*",
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
      "'-' or '.', and must start and end with an alphanumeric character",
      {"example.com"}};
  return f.check(v);
}

std::string check_dns_label(const std::string& v) {
  static const NameFormat f{
      63,
      "[a-z0-9]([-a-z0-9]*[a-z0-9])?",
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
      "and must start and end with an alphanumeric character",
      {"my-name", "123-abc"}};
  return f.check(v);
}

std::string check_dns1035_label(const std::string& v) {
  static const NameFormat f{
      63,
      "[a-z]([-a-z0-9]*[a-z0-9])?",
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start "
      "with an alphabetic character, and end with an alphanumeric character",
      {"my-name", "abc-123"}};
  return f.check(v);
}

namespace {

json cause(const std::string& reason, const std::string& field, const std::string& message) {
  return {{"reason", reason}, {"message", message}, {"field", field}};
}

}  // namespace

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
    if (!filter.empty()) fn = [&filter](const json& o, const FieldValues& v) { return filter.matches(o, v); };
    const Store::ListResult list = m_store.list_stored(rt, ns, fn, limit, continue_token);
    // Valid only for a store nobody wrote to while it was read (0 is no resourceVersion).
    a.store_rv = m_store.resource_version() == before ? before : 0;
    a.continue_token = list.continue_token;
    ListFrame frame = list_frame(rt, m_store.is_builtin(rt), list);
    a.body = join_list_body(std::move(frame.head), list.encoded, frame.tail);
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
  if (ahead && !token.empty()) {
    std::optional<PageAhead::Answer> a = m_ahead.take(key + token, m_store.resource_version());
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
  if (!filter.empty()) fn = [&](const json& o, const FieldValues& v) { return filter.matches(o, v); };
  auto list = m_store.list_stored(*p.rt, ns, fn, limit, token);
  if (table) {
    send_json(req.res, 200, table_for(*p.rt, list, req.param("includeObject") == "Object", m_store.now()));
    return;
  }
  if (ahead && !list.continue_token.empty()) list_ahead(key, *p.rt, ns, filter, limit, list.continue_token, gzip);
  // A truncate fault cuts the whole body, so it gets one.
  ListFrame frame = list_frame(*p.rt, m_store.is_builtin(*p.rt), list);
  send_list_body(req.http, req.res, std::move(frame.head), std::move(list.encoded), std::move(frame.tail),
                 !req.fault);
}

json Api::decode_body(ApiRequest& req, const ResourceType& rt, const std::string& body) {
  json obj = parse_body(body, req.http.get_header_value("Content-Type"));
  if (!obj.is_object()) throw bad_request("the body of the request is not a JSON object");
  std::string av = obj.value("apiVersion", ""), kind = obj.value("kind", "");
  if (!av.empty() && av != rt.api_version())
    throw bad_request("the API version in the data (" + av + ") does not match the expected API version (" +
                      rt.api_version() + ")");
  if (!kind.empty() && kind != rt.kind)
    throw bad_request(kind + " in version \"" + rt.version + "\" cannot be handled as a " + rt.kind +
                      ": no kind \"" + kind + "\" is registered for version \"" + rt.api_version() + "\"");
  if (!obj.contains("metadata") || !obj["metadata"].is_object()) obj["metadata"] = json::object();
  return obj;
}

void Api::validate_object(ApiRequest& req, const ResourceType& rt, json& obj, bool create) {
  // Admission of the main resource (trainer_admission.h): defaults and mutating webhooks first.
  const bool main_resource = req.path.sub.empty();
  std::shared_ptr<const json> old;
  if (!create && main_resource && obj["metadata"].is_object())
    old = m_store.get_shared(rt, rt.namespaced ? obj["metadata"].value("namespace", "") : "",
                             obj["metadata"].value("name", ""));
  if (main_resource) trainer_admission_mutate(m_store, rt, obj, old.get());
  json causes = json::array();
  json& md = obj["metadata"];
  std::string name = md.value("name", "");
  std::string gen = md.value("generateName", "");
  bool core = rt.group.empty();
  auto check_name = [&](const std::string& v) {
    if (core && rt.kind == "Service") return check_dns1035_label(v);
    if (core && rt.kind == "Namespace") return check_dns_label(v);
    return check_dns_subdomain(v);
  };
  if (name.empty() && (gen.empty() || !create)) {
    causes.push_back(cause("FieldValueRequired", "metadata.name", "Required value: name or generateName is required"));
  } else if (!name.empty()) {
    std::string why = check_name(name);
    if (!why.empty()) causes.push_back(cause("FieldValueInvalid", "metadata.name", "Invalid value: \"" + name + "\": " + why));
  } else {
    std::string why = check_name(gen + "x");
    if (!why.empty())
      causes.push_back(cause("FieldValueInvalid", "metadata.generateName", "Invalid value: \"" + gen + "\": " + why));
  }
  if (core && rt.kind == "Pod") {
    const json& spec = obj.contains("spec") ? obj["spec"] : json();
    if (!spec.is_object() || !spec.contains("containers") || !spec["containers"].is_array() || spec["containers"].empty())
      causes.push_back(cause("FieldValueRequired", "spec.containers", "Required value"));
    else
      for (size_t i = 0; i < spec["containers"].size(); ++i) {
        const json& c = spec["containers"][i];
        std::string f = "spec.containers[" + std::to_string(i) + "]";
        if (!c.is_object() || c.value("name", "").empty()) causes.push_back(cause("FieldValueRequired", f + ".name", "Required value"));
        if (!c.is_object() || c.value("image", "").empty()) causes.push_back(cause("FieldValueRequired", f + ".image", "Required value"));
      }
  }
  std::string mode = req.param("fieldValidation");
  if (m_validator && !m_store.is_builtin(rt)) {
    ValidationResult vr = m_validator(rt, obj);
    if (!vr.unknown_fields.empty()) {
      if (mode == "Strict") {
        std::string msg = rt.kind + " in version \"" + rt.version + "\" cannot be handled as a " + rt.kind +
                          ": strict decoding error: ";
        for (size_t i = 0; i < vr.unknown_fields.size(); ++i)
          msg += (i ? ", " : "") + std::string("unknown field \"") + vr.unknown_fields[i] + "\"";
        throw bad_request(msg);
      }
      if (mode == "Warn")
        for (const auto& f : vr.unknown_fields)
          req.res.set_header("Warning", "299 - \"unknown field \\\"" + f + "\\\"\"");
    }
    for (const auto& c : vr.causes) causes.push_back(c);
  }
  trainer_crd_rules(rt, obj, old.get(), causes);
  if (!causes.empty()) throw invalid(rt, name.empty() ? gen : name, causes);
  if (main_resource)
    for (const auto& w : trainer_admission_validate(m_store, rt, obj, old.get()))
      req.res.set_header("Warning", "299 - " + json(w).dump());
}

}  // namespace kubesim
