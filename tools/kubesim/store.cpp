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

json Store::create(const ResourceType& rt, json obj) {
  if (!obj.is_object()) throw StatusError(400, "BadRequest", "the object is not a JSON object");
  json& md = obj["metadata"];
  if (!md.is_object()) md = json::object();
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
      if (nsd && !nsd->objects.count({"", ns})) {
        ResourceType nrt = *nsd->rt;
        throw not_found(nrt, ns);
      }
    }
    std::string name = md.value("name", "");
    if (name.empty() && md.contains("generateName") && md["generateName"].is_string()) {
      std::string base = md["generateName"].get<std::string>();
      for (int attempt = 0; attempt < 8; ++attempt) {
        name = base + random_suffix(5);
        if (!td->objects.count({ns, name})) break;
      }
      md["name"] = name;
    }
    if (td->objects.count({ns, name})) throw already_exists(rt, name);
    md["uid"] = new_uid();
    // A given creationTimestamp is kept (seeding a cluster with history); the REST layer
    // clears it from client requests as kube-apiserver does.
    if (!md.contains("creationTimestamp") || !md["creationTimestamp"].is_string())
      md["creationTimestamp"] = format_rfc3339(m->clock ? m->clock() : std::chrono::system_clock::now());
    md.erase("resourceVersion");
    md.erase("deletionTimestamp");
    if (!rt.group.empty()) md["generation"] = 1;  // core/v1 types here track no generation
    obj["apiVersion"] = rt.api_version();
    obj["kind"] = rt.kind;
    result = *m->put(td, std::move(obj), EventType::Added).obj;
    if (m->owners_all_deleted(result)) m->erase(td, ns, name, "Background", 0);
  }
  m->deliver();
  return result;
}

std::optional<json> Store::get(const ResourceType& rt, const std::string& ns, const std::string& name) const {
  auto p = get_shared(rt, ns, name);
  if (!p) return std::nullopt;
  return *p;
}

std::shared_ptr<const json> Store::get_shared(const ResourceType& rt, const std::string& ns,
                                              const std::string& name) const {
  std::shared_lock lock(m->mu);
  TypeData* td = m->data(rt);
  if (!td) return nullptr;
  auto it = td->objects.find({rt.namespaced ? ns : "", name});
  return it == td->objects.end() ? nullptr : it->second.obj;
}

std::shared_ptr<const std::string> Store::get_encoded(const ResourceType& rt, const std::string& ns,
                                                      const std::string& name) const {
  std::shared_lock lock(m->mu);
  TypeData* td = m->data(rt);
  if (!td) return nullptr;
  auto it = td->objects.find({rt.namespaced ? ns : "", name});
  return it == td->objects.end() ? nullptr : it->second.enc;
}

size_t Store::count(const ResourceType& rt) const {
  std::shared_lock lock(m->mu);
  TypeData* td = m->data(rt);
  return td ? td->objects.size() : 0;
}

namespace {

// Carries over what a client may not change, and bumps generation on spec changes.
void carry_over(const ResourceType& rt, const json& old, json& obj) {
  json& md = obj["metadata"];
  const json& omd = old["metadata"];
  for (const char* k : {"uid", "creationTimestamp", "deletionTimestamp", "namespace", "name"})
    if (omd.contains(k)) md[k] = omd[k];
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
  std::unique_lock lock(m->mu);
  TypeData* td = m->data(rt);
  if (!td) throw StatusError(404, "NotFound", "the server could not find the requested resource");
  std::string ns = rt.namespaced ? obj["metadata"].value("namespace", "default") : "";
  std::string name = obj_name(obj);
  auto it = td->objects.find({ns, name});
  if (it == td->objects.end()) throw not_found(rt, name);
  const json& old = *it->second.obj;
  std::string want = obj["metadata"].value("resourceVersion", "");
  if (!want.empty() && want != old["metadata"].value("resourceVersion", ""))
    throw conflict(rt, name,
                   "the object has been modified; please apply your changes to the latest version and try again");
  carry_over(rt, old, obj);
  json result = *m->put(td, std::move(obj), EventType::Modified).obj;
  lock.unlock();
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
    auto it = td->objects.find({rt.namespaced ? ns : "", name});
    if (it == td->objects.end()) return std::nullopt;
    json obj = *it->second.obj;
    json old = obj;
    if (!fn(obj)) return std::nullopt;
    if (obj == old) return obj;  // no change, no event (like a no-op update)
    carry_over(rt, old, obj);
    result = *m->put(td, std::move(obj), EventType::Modified).obj;
  }
  m->deliver();
  return result;
}

json Store::remove(const ResourceType& rt, const std::string& ns, const std::string& name,
                   const std::string& propagation) {
  json out;
  {
    std::unique_lock lock(m->mu);
    TypeData* td = m->data(rt);
    if (!td) throw StatusError(404, "NotFound", "the server could not find the requested resource");
    out = m->erase(td, rt.namespaced ? ns : "", name, propagation, 0);
  }
  m->deliver();
  return out;
}

void Store::Impl::remember_deleted(const std::string& uid) {
  if (!deleted_uids.insert(uid).second) return;
  deleted_order.push_back(uid);
  forget_oldest_deleted();
}

void Store::Impl::forget_oldest_deleted() {
  while (deleted_order.size() > deleted_uid_limit) {
    deleted_uids.erase(deleted_order.front());
    deleted_order.pop_front();
  }
}

bool Store::Impl::owners_all_deleted(const json& obj) const {
  auto md = obj.find("metadata");
  if (md == obj.end()) return false;
  auto refs = md->find("ownerReferences");
  if (refs == md->end() || !refs->is_array() || refs->empty()) return false;
  for (const auto& r : *refs)
    if (!r.is_object() || !deleted_uids.count(r.value("uid", ""))) return false;
  return true;
}

json Store::Impl::erase(TypeData* td, const std::string& ns, const std::string& name,
                        const std::string& propagation, int depth) {
  auto it = td->objects.find({ns, name});
  if (it == td->objects.end()) throw not_found(*td->rt, name);
  StoredObject so = it->second;
  std::string uid = (*so.obj)["metadata"].value("uid", "");
  td->objects.erase(it);
  if (!uid.empty()) remember_deleted(uid);
  index_owners(td, *so.obj, false);
  json gone = *so.obj;
  gone["metadata"]["resourceVersion"] = std::to_string(++rv);
  StoredObject dead{std::make_shared<const json>(gone), nullptr};
  dead.enc = std::make_shared<const std::string>(dead.obj->dump());
  emit(td, EventType::Deleted, dead);
  // dependents: namespaced objects of a deleted namespace, and ownerReferences to uid
  if (td->rt->group.empty() && td->rt->plural == "namespaces") {
    for (auto& t : all_types) {
      if (!t->rt->namespaced) continue;
      std::vector<std::string> names;
      for (auto i = t->objects.lower_bound({name, ""}); i != t->objects.end() && i->first.first == name; ++i)
        names.push_back(i->first.second);
      for (const auto& n : names)
        if (t->objects.count({name, n})) erase(t.get(), name, n, "Background", depth + 1);
    }
  }
  auto dit = dependents.find(uid);
  if (dit != dependents.end() && depth < 64) {
    std::vector<ObjectRef> deps(dit->second.begin(), dit->second.end());
    dependents.erase(dit);
    for (const auto& [dtd, dns, dname] : deps) {
      auto d = dtd->objects.find({dns, dname});
      if (d == dtd->objects.end()) continue;
      if (propagation == "Orphan") {
        json obj = *d->second.obj;
        json& refs = obj["metadata"]["ownerReferences"];
        json kept = json::array();
        for (const auto& r : refs)
          if (r.value("uid", "") != uid) kept.push_back(r);
        if (kept.empty()) obj["metadata"].erase("ownerReferences");
        else refs = kept;
        put(dtd, std::move(obj), EventType::Modified);
      } else {
        erase(dtd, dns, dname, propagation, depth + 1);
      }
    }
  }
  return gone;
}

Store::ListResult Store::list(const ResourceType& rt, const std::string& ns,
                              const std::function<bool(const json&)>& filter, size_t limit,
                              const std::string& continue_token) const {
  ListResult r;
  std::shared_lock lock(m->mu);
  r.resource_version = m->rv;
  TypeData* td = m->data(rt);
  if (!td) return r;
  std::string scope = rt.namespaced ? ns : "";
  auto it = td->objects.begin();
  if (!scope.empty()) it = td->objects.lower_bound({scope, ""});
  if (!continue_token.empty()) {
    auto raw = unb64(continue_token);
    json tok = raw ? json::parse(*raw, nullptr, false) : json();
    if (!tok.is_object() || !tok.contains("ns") || !tok.contains("name"))
      throw StatusError(400, "BadRequest", "continue key is not valid: invalid continue token");
    it = td->objects.upper_bound({tok["ns"].get<std::string>(), tok["name"].get<std::string>()});
  }
  for (; it != td->objects.end(); ++it) {
    if (!scope.empty() && it->first.first != scope) break;
    if (filter && !filter(*it->second.obj)) continue;
    if (limit && r.items.size() == limit) {
      const auto& last = r.items.back();
      json tok = {{"ns", (*last)["metadata"].value("namespace", "")},
                  {"name", (*last)["metadata"].value("name", "")},
                  {"rv", r.resource_version}};
      r.continue_token = b64(tok.dump());
      if (!filter) {
        int64_t rest = 0;
        for (; it != td->objects.end() && (scope.empty() || it->first.first == scope); ++it) ++rest;
        r.remaining = rest;
      }
      break;
    }
    r.items.push_back(it->second.obj);
    r.encoded.push_back(it->second.enc);
  }
  return r;
}

uint64_t Store::resource_version() const {
  std::shared_lock lock(m->mu);
  return m->rv;
}

}  // namespace kubesim
