// Deletion as kube-apiserver's generic registry does it (k8s.io/apiserver, tag v0.33.0):
// registry/generic/registry/store.go (Delete, updateForGracefulDeletionAndFinalizers,
// deletionFinalizersForGarbageCollection, shouldDeleteDuringUpdate, markAsDeleting) and
// registry/rest/delete.go (BeforeDelete), with the pod strategy's CheckGracefulDelete
// (k8s.io/kubernetes pkg/registry/core/pod/strategy.go) and batch/v1 Job's default
// OrphanDependents policy (pkg/registry/batch/job/strategy.go).
#include <algorithm>

#include "kubesim/store_impl.h"

namespace kubesim {

namespace {

// The object member KEY when it is an object, else nullptr (without adding it).
const json* field_of(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_object() ? &*it : nullptr;
}

bool is_pod(const ResourceType& rt) { return rt.group.empty() && rt.kind == "Pod"; }

// DefaultGarbageCollectionPolicy: batch/v1 Jobs orphan their pods unless told otherwise
// (kept for backward compatibility); every other resource here deletes dependents.
bool orphans_by_default(const ResourceType& rt) {
  return rt.group == "batch" && rt.version == "v1" && rt.kind == "Job";
}

std::vector<std::string> finalizers_of(const json& obj) {
  std::vector<std::string> out;
  const json& md = obj["metadata"];
  auto it = md.find("finalizers");
  if (it == md.end() || !it->is_array()) return out;
  for (const auto& f : *it)
    if (f.is_string()) out.push_back(f.get<std::string>());
  return out;
}

// shouldOrphanDependents: the request's policy, else a GC finalizer already there, else the
// resource's default.
bool should_orphan(const ResourceType& rt, const std::vector<std::string>& fins, const DeleteOptions& o) {
  if (o.orphan_dependents) return *o.orphan_dependents;
  if (o.propagation == "Orphan") return true;
  if (o.propagation == "Background" || o.propagation == "Foreground") return false;
  for (const auto& f : fins) {
    if (f == kOrphanFinalizer) return true;
    if (f == kForegroundFinalizer) return false;
  }
  return orphans_by_default(rt);
}

// shouldDeleteDependents
bool should_delete_dependents(const std::vector<std::string>& fins, const DeleteOptions& o) {
  if (o.orphan_dependents) return false;
  if (o.propagation == "Foreground") return true;
  if (o.propagation == "Background" || o.propagation == "Orphan") return false;
  for (const auto& f : fins) {
    if (f == kForegroundFinalizer) return true;
    if (f == kOrphanFinalizer) return false;
  }
  return false;
}

// deletionFinalizersForGarbageCollection: the finalizers with orphan / foregroundDeletion
// set as the policy says; nullopt when they stay as they are.
std::optional<std::vector<std::string>> gc_finalizers(const ResourceType& rt,
                                                      const std::vector<std::string>& fins,
                                                      const DeleteOptions& o) {
  std::vector<std::string> out;
  for (const auto& f : fins)
    if (f != kOrphanFinalizer && f != kForegroundFinalizer) out.push_back(f);
  if (should_orphan(rt, fins, o)) out.push_back(kOrphanFinalizer);
  if (should_delete_dependents(fins, o)) out.push_back(kForegroundFinalizer);
  std::vector<std::string> a = fins, b = out;
  std::sort(a.begin(), a.end());
  a.erase(std::unique(a.begin(), a.end()), a.end());
  std::sort(b.begin(), b.end());
  b.erase(std::unique(b.begin(), b.end()), b.end());
  if (a == b) return std::nullopt;
  return out;
}

int64_t grace_of(const json& md) {
  auto it = md.find("deletionGracePeriodSeconds");
  return it != md.end() && it->is_number_integer() ? it->get<int64_t>() : -1;  // -1: unset
}

enum class Graceful { No, Yes, Pending };

// rest.BeforeDelete for the one graceful strategy kubesim serves (pods). On Yes, obj has
// deletionTimestamp = now + grace and deletionGracePeriodSeconds = grace.
Graceful before_delete(const ResourceType& rt, json& obj, DeleteOptions& o,
                       std::chrono::system_clock::time_point now) {
  if (o.grace_period_seconds && *o.grace_period_seconds < 0) o.grace_period_seconds = 1;
  if (!is_pod(rt)) return Graceful::No;
  json& md = obj["metadata"];
  if (md.contains("deletionTimestamp") && md["deletionTimestamp"].is_string()) {
    const int64_t current = grace_of(md);
    // Already being deleted with grace 0 (finalizers hold it): the delete goes on at once.
    if (current <= 0) return Graceful::No;
    if (!o.grace_period_seconds || *o.grace_period_seconds >= current) return Graceful::Pending;
    // Only a shorter grace period may be asked for.
    auto ts = parse_rfc3339(md["deletionTimestamp"].get<std::string>()).value_or(now);
    ts += std::chrono::seconds(*o.grace_period_seconds - current);
    md["deletionTimestamp"] = format_rfc3339(ts);
    md["deletionGracePeriodSeconds"] = *o.grace_period_seconds;
    return Graceful::Yes;
  }
  // CheckGracefulDelete: the request's grace, else spec.terminationGracePeriodSeconds
  // (defaulted to 30 on create); 0 for a pod never scheduled or already terminated.
  int64_t period = 30;
  if (o.grace_period_seconds) {
    period = *o.grace_period_seconds;
  } else {
    const json* spec = field_of(obj, "spec");
    if (spec && spec->contains("terminationGracePeriodSeconds") &&
        (*spec)["terminationGracePeriodSeconds"].is_number_integer())
      period = (*spec)["terminationGracePeriodSeconds"].get<int64_t>();
  }
  // Read through field_of: obj is not const, and its operator[] would store a null spec or
  // status in a pod that has none.
  const json* spec = field_of(obj, "spec");
  if (!spec || !(*spec).contains("nodeName") || !(*spec)["nodeName"].is_string() ||
      (*spec)["nodeName"].get<std::string>().empty())
    period = 0;
  const json* status = field_of(obj, "status");
  const std::string phase =
      status && status->contains("phase") && (*status)["phase"].is_string() ? (*status)["phase"].get<std::string>() : "";
  if (phase == "Succeeded" || phase == "Failed") period = 0;
  o.grace_period_seconds = period;
  md["deletionTimestamp"] = format_rfc3339(now + std::chrono::seconds(period));
  md["deletionGracePeriodSeconds"] = period;
  if (md.contains("generation") && md["generation"].is_number_integer() &&
      md["generation"].get<int64_t>() > 0)
    md["generation"] = md["generation"].get<int64_t>() + 1;
  return Graceful::Yes;
}

// markAsDeleting: deletionTimestamp now (unless earlier already), grace 0.
void mark_as_deleting(json& obj, std::chrono::system_clock::time_point now) {
  json& md = obj["metadata"];
  const bool had = md.contains("deletionTimestamp") && md["deletionTimestamp"].is_string();
  if (!had && md.contains("generation") && md["generation"].is_number_integer() &&
      md["generation"].get<int64_t>() > 0)
    md["generation"] = md["generation"].get<int64_t>() + 1;
  std::optional<std::chrono::system_clock::time_point> existing;
  if (had) existing = parse_rfc3339(md["deletionTimestamp"].get<std::string>());
  if (!existing || *existing > now) md["deletionTimestamp"] = format_rfc3339(now);
  md["deletionGracePeriodSeconds"] = 0;
}

}  // namespace

std::shared_ptr<const json> converted(const ResourceType& to, const std::shared_ptr<const json>& obj) {
  if (!obj) return obj;
  auto it = obj->find("apiVersion");
  if (it == obj->end() || !it->is_string() || it->get_ref<const std::string&>() == to.api_version())
    return obj;
  auto copy = std::make_shared<json>(*obj);
  (*copy)["apiVersion"] = to.api_version();
  return copy;
}

StoredObject converted(const TypeData* td, const StoredObject& so) {
  if (!td->converts() || !so.obj) return so;
  StoredObject out;
  out.obj = converted(*td->rt, so.obj);
  out.enc = out.obj == so.obj ? so.enc : std::make_shared<const std::string>(out.obj->dump());
  out.fields = so.fields;  // the same fields and labels in every version
  out.labels = so.labels;
  return out;
}

DeleteResult Store::remove(const ResourceType& rt, const std::string& ns_in, const std::string& name,
                           DeleteOptions o) {
  DeleteResult r;
  {
    std::unique_lock lock(m->mu);
    TypeData* td = m->data(rt);
    if (!td) throw StatusError(404, "NotFound", "the server could not find the requested resource");
    const std::string ns = rt.namespaced ? ns_in : "";
    auto it = td->objects().find({ns, name});
    if (it == td->objects().end()) throw not_found(rt, name);
    const json stored = *converted(td, it->second).obj;
    const json& smd = stored["metadata"];
    const std::string uid = smd.value("uid", ""), rv = smd.value("resourceVersion", "");
    if (!o.precondition_uid.empty() && o.precondition_uid != uid)
      throw conflict(
          rt, name,
          "Precondition failed: UID in precondition: " + o.precondition_uid + ", UID in object meta: " + uid);
    if (!o.precondition_resource_version.empty() && o.precondition_resource_version != rv)
      throw conflict(rt, name,
                     "Precondition failed: ResourceVersion in precondition: " +
                         o.precondition_resource_version + ", ResourceVersion in object meta: " + rv);
    const auto now = m->now();
    json obj = stored;
    const Graceful graceful = before_delete(rt, obj, o, now);
    if (graceful == Graceful::Pending) {
      // Finalizers cannot be changed by a delete once a graceful deletion has started.
      r.object = stored;
      return r;
    }
    const auto fins = finalizers_of(obj);
    const auto new_fins = gc_finalizers(rt, fins, o);
    bool delete_now = true;
    if (graceful == Graceful::Yes || !fins.empty() || new_fins) {
      if (new_fins) {
        if (new_fins->empty())
          obj["metadata"].erase("finalizers");
        else
          obj["metadata"]["finalizers"] = *new_fins;
      }
      const bool pending_finalizers = !finalizers_of(obj).empty();
      if (graceful != Graceful::Yes && pending_finalizers) mark_as_deleting(obj, now);
      json current = stored;
      if (obj != stored) current = *converted(td, m->put(td, obj, EventType::Modified)).obj;
      const bool grace_left = graceful == Graceful::Yes && o.grace_period_seconds.value_or(0) > 0;
      if (pending_finalizers || grace_left) {
        r.object = std::move(current);
        delete_now = false;
      }
    }
    if (delete_now) {
      r.object = m->erase(td, ns, name, 0);
      r.removed = true;
    }
  }
  m->deliver();
  return r;
}

json Store::Impl::erase(TypeData* td, const std::string& ns, const std::string& name, int depth) {
  auto it = td->objects().find({ns, name});
  if (it == td->objects().end()) throw not_found(*td->rt, name);
  StoredObject so = it->second;
  td->objects().erase(it);
  json gone = *so.obj;
  gone["metadata"]["resourceVersion"] = std::to_string(++rv);
  StoredObject dead{std::make_shared<const json>(gone), nullptr};
  dead.enc = std::make_shared<const std::string>(dead.obj->dump());
  emit(td, EventType::Deleted, dead, dead.obj);
  // A namespace takes what it contains with it (at once: the namespace controller's
  // graceful, finalizer-aware sweep is not modelled).
  if (td->rt->group.empty() && td->rt->plural == "namespaces" && depth < 2) {
    std::set<const ObjectMap*> swept;
    for (auto& t : all_types) {
      if (!t->rt->namespaced || !swept.insert(t->objects_ptr.get()).second) continue;
      std::vector<std::string> names;
      for (auto i = t->objects().lower_bound({name, ""}); i != t->objects().end() && i->first.first == name;
           ++i)
        names.push_back(i->first.second);
      for (const auto& n : names) erase(t.get(), name, n, depth + 1);
    }
  }
  return *converted(td, dead).obj;
}

json Store::Impl::write_update(TypeData* td, const json& old, json obj) {
  const json& omd = old["metadata"];
  const bool deleting = omd.contains("deletionTimestamp") && omd["deletionTimestamp"].is_string();
  if (deleting && grace_of(omd) <= 0 && finalizers_of(obj).empty()) {
    const std::string ns = td->rt->namespaced ? omd.value("namespace", "") : "";
    return erase(td, ns, omd.value("name", ""), 0);
  }
  return *converted(td, put(td, std::move(obj), EventType::Modified)).obj;
}

}  // namespace kubesim
