// Objects: create, get, update, mutate, remove (with ownerReference cascade), list.
#include "kubesim/store_impl.h"

#include "kubesim/builtin_types.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

namespace kubesim {

namespace {

std::string obj_ns(const ResourceType& rt, const json& obj) {
  if (!rt.namespaced) return "";
  auto it = obj.find("metadata");
  if (it == obj.end() || !it->is_object()) return "";
  return it->value("namespace", "");
}

std::string obj_name(const json& obj) {
  auto it = obj.find("metadata");
  if (it == obj.end() || !it->is_object()) return "";
  return it->value("name", "");
}

bool same_spec(const json& a, const json& b) {
  // generation moves when anything but metadata and status changes
  for (const auto& [k, v] : a.items())
    if (k != "metadata" && k != "status" && (!b.contains(k) || b[k] != v)) return false;
  for (const auto& [k, v] : b.items())
    if (k != "metadata" && k != "status" && !a.contains(k)) return false;
  return true;
}

std::string b64(const std::string& s) {
  std::string out(4 * ((s.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(s.data()), static_cast<int>(s.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

std::optional<std::string> unb64(const std::string& s) {
  if (s.empty() || s.size() % 4 != 0) return std::nullopt;
  std::string out(s.size() / 4 * 3 + 1, '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(s.data()), static_cast<int>(s.size()));
  if (n < 0) return std::nullopt;
  size_t len = static_cast<size_t>(n);
  for (size_t i = s.size(); i > 0 && s[i - 1] == '='; --i) --len;
  out.resize(len);
  return out;
}

}  // namespace

std::string random_suffix(size_t n) {
  static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";  // k8s.io/apimachinery rand
  unsigned char buf[32];
  RAND_bytes(buf, static_cast<int>(n));
  std::string s;
  for (size_t i = 0; i < n; ++i) s += alphabet[buf[i] % 27];
  return s;
}

std::string new_uid() {
  unsigned char b[16];
  RAND_bytes(b, sizeof b);
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
  char out[37];
  std::snprintf(out, sizeof out, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return out;
}

Store::Store() : m(std::make_unique<Impl>()) {
  for (const auto& rt : builtin_core_types()) register_builtin_type(rt);
  const ResourceType* ns = find("", "v1", "namespaces");
  for (const char* name : {"default", "kube-system", "kube-public", "kube-node-lease"})
    create(*ns, json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}},
                     {"spec", {{"finalizers", {"kubernetes"}}}}, {"status", {{"phase", "Active"}}}});
}

Store::~Store() = default;

namespace {

// The defaults kube-apiserver gives a pod that matter here: terminationGracePeriodSeconds
// 30 (k8s.io/kubernetes pkg/apis/core/v1/defaults.go SetDefaults_PodSpec).
void default_object(const ResourceType& rt, json& obj) {
  if (!rt.group.empty() || rt.kind != "Pod") return;
  json& spec = obj["spec"];
  if (!spec.is_object()) return;
  if (!spec.contains("terminationGracePeriodSeconds") || spec["terminationGracePeriodSeconds"].is_null())
    spec["terminationGracePeriodSeconds"] = 30;
}

}  // namespace

void Store::set_create_admission(CreateAdmission admit) { m->admit = std::move(admit); }

json Store::create(const ResourceType& rt, json obj) {
  if (!obj.is_object()) throw StatusError(400, "BadRequest", "the object is not a JSON object");
  json& md = obj["metadata"];
  if (!md.is_object()) md = json::object();
  if (m->admit) m->admit(rt, obj);
  json result;
  {
    std::unique_lock lock(m->mu);
    TypeData* td = m->data(rt);
    if (!td) throw StatusError(404, "NotFound", "the server could not find the requested resource");
    if (rt.namespaced) {
      if (md.value("namespace", "").empty()) md["namespace"] = "default";
    } else {
      md.erase("namespace");
    }
    std::string ns = obj_ns(rt, obj);
    if (rt.namespaced) {
      TypeData* nsd = m->by_key.count("/v1/namespaces") ? m->by_key["/v1/namespaces"] : nullptr;
      if (nsd && !nsd->objects().count({"", ns})) {
        ResourceType nrt = *nsd->rt;
        throw not_found(nrt, ns);
      }
    }
    std::string name = md.value("name", "");
    if (name.empty() && md.contains("generateName") && md["generateName"].is_string()) {
      std::string base = md["generateName"].get<std::string>();
      for (int attempt = 0; attempt < 8; ++attempt) {
        name = base + random_suffix(5);
        if (!td->objects().count({ns, name})) break;
      }
      md["name"] = name;
    }
    if (td->objects().count({ns, name})) throw already_exists(rt, name);
    md["uid"] = new_uid();
    // A given creationTimestamp is kept (seeding a cluster with history); the REST layer
    // clears it from client requests as kube-apiserver does.
    if (!md.contains("creationTimestamp") || !md["creationTimestamp"].is_string())
      md["creationTimestamp"] = format_rfc3339(m->now());
    md.erase("resourceVersion");
    md.erase("deletionTimestamp");
    md.erase("deletionGracePeriodSeconds");
    if (!rt.group.empty()) md["generation"] = 1;  // core/v1 types here track no generation
    obj["apiVersion"] = rt.api_version();
    obj["kind"] = rt.kind;
    default_object(rt, obj);
    result = *converted(td, m->put(td, std::move(obj), EventType::Added)).obj;
  }
  m->deliver();
  return result;
}

std::optional<json> Store::get(const ResourceType& rt, const std::string& ns, const std::string& name) const {
  auto p = get_shared(rt, ns, name);
  if (!p) return std::nullopt;
  return *p;
}

StoredObject Store::Impl::find(const ResourceType& rt, const std::string& ns, const std::string& name) const {
  TypeData* td = data(rt);
  if (!td) return {};
  auto it = td->objects().find({rt.namespaced ? ns : "", name});
  return it == td->objects().end() ? StoredObject{} : converted(td, it->second);
}

std::shared_ptr<const json> Store::get_shared(const ResourceType& rt, const std::string& ns,
                                              const std::string& name) const {
  std::shared_lock lock(m->mu);
  return m->find(rt, ns, name).obj;
}

std::shared_ptr<const std::string> Store::get_encoded(const ResourceType& rt, const std::string& ns,
                                                      const std::string& name) const {
  std::shared_lock lock(m->mu);
  return m->find(rt, ns, name).enc;
}

size_t Store::count(const ResourceType& rt) const {
  std::shared_lock lock(m->mu);
  TypeData* td = m->data(rt);
  return td ? td->objects().size() : 0;
}

namespace {

// Carries over what a client may not change, and bumps generation on spec changes.
void carry_over(const ResourceType& rt, const json& old, json& obj) {
  json& md = obj["metadata"];
  const json& omd = old["metadata"];
  for (const char* k :
       {"uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "namespace", "name"}) {
    if (omd.contains(k))
      md[k] = omd[k];
    else
      md.erase(k);
  }
  if (omd.contains("generation")) {
    int64_t g = omd["generation"].get<int64_t>();
    md["generation"] = same_spec(old, obj) ? g : g + 1;
  }
  obj["apiVersion"] = rt.api_version();
  obj["kind"] = rt.kind;
}

}  // namespace

json Store::update(const ResourceType& rt, json obj) {
  if (!obj.is_object() || !obj.contains("metadata") || !obj["metadata"].is_object())
    throw StatusError(400, "BadRequest", "the object has no metadata");
  json result;
  {
    std::unique_lock lock(m->mu);
    TypeData* td = m->data(rt);
    if (!td) throw StatusError(404, "NotFound", "the server could not find the requested resource");
    std::string ns = rt.namespaced ? obj["metadata"].value("namespace", "default") : "";
    std::string name = obj_name(obj);
    auto it = td->objects().find({ns, name});
    if (it == td->objects().end()) throw not_found(rt, name);
    const json old = *converted(td, it->second).obj;
    std::string want = obj["metadata"].value("resourceVersion", "");
    if (!want.empty() && want != old["metadata"].value("resourceVersion", ""))
      throw conflict(
          rt, name,
          "the object has been modified; please apply your changes to the latest version and try again");
    carry_over(rt, old, obj);
    result = m->write_update(td, old, std::move(obj));
  }
  m->deliver();
  return result;
}

std::optional<json> Store::mutate(const ResourceType& rt, const std::string& ns, const std::string& name,
                                  const std::function<bool(json&)>& fn) {
  std::optional<json> result;
  {
    std::unique_lock lock(m->mu);
    TypeData* td = m->data(rt);
    if (!td) return std::nullopt;
    auto it = td->objects().find({rt.namespaced ? ns : "", name});
    if (it == td->objects().end()) return std::nullopt;
    const json old = *converted(td, it->second).obj;
    json obj = old;
    if (!fn(obj)) return std::nullopt;
    if (obj == old) return obj;  // no change, no event (like a no-op update)
    carry_over(rt, old, obj);
    result = m->write_update(td, old, std::move(obj));
  }
  m->deliver();
  return result;
}

void Store::Impl::advance_compaction(std::chrono::system_clock::time_point t) {
  if (compaction_interval.count() <= 0) return;
  if (next_compaction == std::chrono::system_clock::time_point{}) {
    next_compaction = t + compaction_interval;
    rv_at_last_compaction = rv;
    return;
  }
  while (t >= next_compaction) {  // compact to the revision seen one interval ago
    compacted_rv = std::max(compacted_rv, rv_at_last_compaction);
    rv_at_last_compaction = rv;
    next_compaction += compaction_interval;
  }
}

Store::ListResult Store::list(const ResourceType& rt, const std::string& ns,
                              const std::function<bool(const json&)>& filter, size_t limit,
                              const std::string& continue_token) const {
  StoredFilter stored;
  if (filter) stored = [&filter](const json& obj, const FieldValues&, const LabelValues&) { return filter(obj); };
  return list_stored(rt, ns, stored, limit, continue_token);
}

Store::Impl::ContinuePoint Store::Impl::continue_point(const std::string& continue_token) {
  uint64_t compacted;
  {
    std::lock_guard clock_lock(compaction_mu);
    advance_compaction(now());
    compacted = compacted_rv;
  }
  ContinuePoint at;
  if (continue_token.empty()) return at;
  auto raw = unb64(continue_token);
  json tok = raw ? json::parse(*raw, nullptr, false) : json();
  if (!tok.is_object() || !tok.contains("ns") || !tok.contains("name") || !tok["ns"].is_string() ||
      !tok["name"].is_string())
    throw StatusError(400, "BadRequest", "continue key is not valid: invalid continue token");
  at.ns = tok["ns"].get<std::string>();
  at.name = tok["name"].get<std::string>();
  at.rv = tok.value("rv", static_cast<int64_t>(0));
  if (at.rv >= 0 && static_cast<uint64_t>(at.rv) < compacted) {
    json again = {{"ns", at.ns}, {"name", at.name}, {"rv", -1}};
    throw continue_expired(b64(again.dump()));
  }
  return at;
}

void Store::check_continue(const std::string& continue_token) const {
  std::shared_lock lock(m->mu);
  m->continue_point(continue_token);
}

Store::ListResult Store::list_stored(const ResourceType& rt, const std::string& ns, const StoredFilter& filter,
                                     size_t limit, const std::string& continue_token) const {
  ListResult r;
  std::shared_lock lock(m->mu);
  r.resource_version = m->rv;
  TypeData* td = m->data(rt);
  if (!td) return r;
  const ObjectMap& objects = td->objects();
  std::string scope = rt.namespaced ? ns : "";
  auto it = objects.begin();
  if (!scope.empty()) it = objects.lower_bound({scope, ""});
  // A continued list keeps the resourceVersion of its first page (the snapshot it reads);
  // -1 continues at the latest one (the token of an expired list's 410).
  int64_t list_rv = static_cast<int64_t>(m->rv);
  // Every list advances compaction to the clock; a continued one resumes after its token.
  const Impl::ContinuePoint at = m->continue_point(continue_token);
  if (!continue_token.empty()) {
    if (at.rv >= 0) {
      list_rv = at.rv;
      r.resource_version = static_cast<uint64_t>(at.rv);
    }
    it = objects.upper_bound({at.ns, at.name});
  }
  for (; it != objects.end(); ++it) {
    if (!scope.empty() && it->first.first != scope) break;
    if (filter && !filter(*it->second.obj, it->second.fields, it->second.labels)) continue;
    if (limit && r.items.size() == limit) {
      const auto& last = r.items.back();
      json tok = {{"ns", (*last)["metadata"].value("namespace", "")},
                  {"name", (*last)["metadata"].value("name", "")},
                  {"rv", list_rv}};
      r.continue_token = b64(tok.dump());
      if (!filter) {
        int64_t rest = 0;
        for (; it != objects.end() && (scope.empty() || it->first.first == scope); ++it) ++rest;
        r.remaining = rest;
      }
      break;
    }
    if (!td->converts()) {
      r.items.push_back(it->second.obj);
      r.encoded.push_back(it->second.enc);
      continue;
    }
    StoredObject so = converted(td, it->second);
    r.items.push_back(so.obj);
    r.encoded.push_back(so.enc);
  }
  return r;
}

void Store::expire_continue(const std::string& continue_token) const {
  auto raw = unb64(continue_token);
  json tok = raw ? json::parse(*raw, nullptr, false) : json();
  if (!tok.is_object() || !tok.contains("ns") || !tok.contains("name"))
    throw StatusError(400, "BadRequest", "continue key is not valid: invalid continue token");
  tok["rv"] = -1;
  throw continue_expired(b64(tok.dump()));
}

uint64_t Store::resource_version() const {
  std::shared_lock lock(m->mu);
  return m->rv;
}

uint64_t Store::delivered_resource_version() const { return m->delivered_rv.load(); }

void Store::set_compaction_interval(std::chrono::seconds interval) {
  std::lock_guard lock(m->compaction_mu);
  m->compaction_interval = interval;
  m->next_compaction = {};
}

void Store::compact() {
  std::shared_lock lock(m->mu);
  std::lock_guard clock_lock(m->compaction_mu);
  m->compacted_rv = m->rv;
  m->rv_at_last_compaction = m->rv;
}

}  // namespace kubesim
