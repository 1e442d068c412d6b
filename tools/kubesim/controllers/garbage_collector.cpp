// The garbage collector (see garbage_collector.h for what it follows upstream).
#include "kubesim/controllers/garbage_collector.h"

#include <algorithm>

#include "core/log.h"

namespace kubesim {

namespace {

std::vector<std::string> finalizers_of(const json& obj) {
  std::vector<std::string> out;
  const json& md = obj.value("metadata", json::object());
  for (const auto& f : md.value("finalizers", json::array()))
    if (f.is_string()) out.push_back(f.get<std::string>());
  return out;
}

bool has(const std::vector<std::string>& v, const char* s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool being_deleted(const json& obj) {
  const json& md = obj.value("metadata", json::object());
  return md.contains("deletionTimestamp") && md["deletionTimestamp"].is_string();
}

}  // namespace

void GarbageCollector::observe(const WatchEvent& ev) {
  if (!ev.object) return;
  const json& obj = *ev.object;
  const std::string uid = meta_uid(obj);
  if (uid.empty()) return;
  std::lock_guard<std::mutex> lock(m_mutex);
  if (ev.type == EventType::Deleted) {
    auto it = m_nodes.find(uid);
    if (it == m_nodes.end()) return;
    // Its dependents may have lost their last owner; an owner deleting its dependents in the
    // foreground may have lost its last blocking one.
    for (const auto& dep : it->second.dependents) m_to_delete.insert(dep);
    drop_from_owners(uid, it->second.owners);
    m_nodes.erase(it);
    return;
  }
  std::vector<Ref> refs;
  const json& md = obj.value("metadata", json::object());
  for (const auto& r : md.value("ownerReferences", json::array())) {
    if (!r.is_object() || r.value("uid", "").empty()) continue;
    refs.push_back(Ref{r.value("uid", ""), r.value("apiVersion", ""), r.value("kind", ""),
                       r.value("name", ""), r.value("blockOwnerDeletion", false)});
  }
  Node& n = m_nodes[uid];  // a placeholder for an owner not seen yet becomes the real node
  n.key = ObjectKey{ev.resource, meta_ns(obj), meta_name(obj)};
  for (const auto& old : n.owners) {
    auto same = std::find_if(refs.begin(), refs.end(), [&](const Ref& r) { return r.uid == old.uid; });
    if (same != refs.end() && same->block == old.block) continue;
    auto owner = m_nodes.find(old.uid);
    if (owner == m_nodes.end()) continue;
    if (owner->second.deleting_dependents) m_to_delete.insert(old.uid);  // blocked by one fewer
    if (same != refs.end()) continue;
    owner->second.dependents.erase(uid);
    if (!owner->second.key.rt && owner->second.dependents.empty()) m_nodes.erase(owner);
  }
  for (const auto& ref : refs) {
    if (std::any_of(n.owners.begin(), n.owners.end(), [&](const Ref& r) { return r.uid == ref.uid; }))
      continue;
    auto owner = m_nodes.find(ref.uid);
    // An owner not seen (yet): check it exists. One waiting for its dependents: delete this too.
    if (owner == m_nodes.end() || !owner->second.key.rt || owner->second.deleting_dependents)
      m_to_delete.insert(uid);
    m_nodes[ref.uid].dependents.insert(uid);
  }
  Node& node = n;  // std::map: still valid after the inserts above
  node.owners = std::move(refs);
  // processTransitions: deletion starting with the orphan or foregroundDeletion finalizer.
  const auto fins = finalizers_of(obj);
  const bool orphaning = being_deleted(obj) && has(fins, kOrphanFinalizer);
  const bool deleting_dependents = being_deleted(obj) && has(fins, kForegroundFinalizer);
  if (orphaning && !node.orphaning) m_to_orphan.insert(uid);
  if (deleting_dependents && !node.deleting_dependents) {
    for (const auto& dep : node.dependents) m_to_delete.insert(dep);
    m_to_delete.insert(uid);
  }
  node.orphaning = orphaning;
  node.deleting_dependents = deleting_dependents;
}

bool GarbageCollector::has_work() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return !m_to_delete.empty() || !m_to_orphan.empty();
}

void GarbageCollector::run() {
  // Store writes made here come back through observe() and may queue more work.
  for (int guard = 0; guard < 100000; ++guard) {
    std::string uid;
    bool orphan = false;
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      if (!m_to_orphan.empty()) {
        uid = *m_to_orphan.begin();
        m_to_orphan.erase(m_to_orphan.begin());
        orphan = true;
      } else if (!m_to_delete.empty()) {
        uid = *m_to_delete.begin();
        m_to_delete.erase(m_to_delete.begin());
      } else {
        return;
      }
    }
    try {
      if (orphan)
        attempt_to_orphan(uid);
      else
        attempt_to_delete(uid);
    } catch (const StatusError& e) {
      // A conflict or a vanished object: the event it causes brings the item back.
      trainctl::log::debug("kubesim: garbage collector: {}: {}", uid, e.message);
    }
  }
}

void GarbageCollector::resync() {
  for (const ResourceType* rt : m_ctx.store.types()) {
    if (rt == m_ctx.events) continue;
    auto res = m_ctx.store.list(*rt, "", [](const json& o) {
      const json& md = o.value("metadata", json::object());
      return md.contains("ownerReferences") && !being_deleted(o);
    });
    for (const auto& obj : res.items) {
      const std::string uid = meta_uid(*obj);
      for (const auto& r : (*obj)["metadata"]["ownerReferences"]) {
        if (!r.is_object()) continue;
        const ResourceType* ort = m_ctx.store.find_kind(r.value("apiVersion", ""), r.value("kind", ""));
        if (!ort) continue;
        auto owner = m_ctx.store.get_shared(*ort, ort->namespaced ? meta_ns(*obj) : "", r.value("name", ""));
        if (owner && meta_uid(*owner) == r.value("uid", "")) continue;
        trainctl::log::debug("kubesim: garbage collector: resync: {} {}/{} has an absent owner {} {}", rt->plural,
                             meta_ns(*obj), meta_name(*obj), r.value("kind", ""), r.value("name", ""));
        observe(WatchEvent{EventType::Modified, rt, obj, 0});  // in the graph, whatever it missed
        std::lock_guard<std::mutex> lock(m_mutex);
        m_to_delete.insert(uid);
        break;
      }
    }
  }
}

void GarbageCollector::forget(const std::string& uid) {
  std::lock_guard<std::mutex> lock(m_mutex);
  auto it = m_nodes.find(uid);
  if (it == m_nodes.end()) return;
  for (const auto& dep : it->second.dependents) m_to_delete.insert(dep);
  drop_from_owners(uid, it->second.owners);
  m_nodes.erase(it);
}

void GarbageCollector::drop_from_owners(const std::string& uid, const std::vector<Ref>& owners) {
  for (const auto& ref : owners) {
    auto owner = m_nodes.find(ref.uid);
    if (owner == m_nodes.end()) continue;
    owner->second.dependents.erase(uid);
    if (owner->second.deleting_dependents) m_to_delete.insert(ref.uid);
    // A placeholder for an owner never seen is not needed once nothing refers to it.
    if (!owner->second.key.rt && owner->second.dependents.empty()) m_nodes.erase(owner);
  }
}

std::vector<std::string> GarbageCollector::blocking_dependents(const std::string& uid) const {
  std::lock_guard<std::mutex> lock(m_mutex);
  std::vector<std::string> out;
  auto it = m_nodes.find(uid);
  if (it == m_nodes.end()) return out;
  for (const auto& dep : it->second.dependents) {
    auto d = m_nodes.find(dep);
    if (d == m_nodes.end()) continue;
    for (const auto& ref : d->second.owners)
      if (ref.uid == uid && ref.block) out.push_back(dep);
  }
  return out;
}

void GarbageCollector::remove_finalizer(const std::string& uid, const ObjectKey& key,
                                        const std::string& finalizer) {
  m_ctx.store.mutate(*key.rt, key.ns, key.name, [&](json& obj) {
    if (meta_uid(obj) != uid) return false;
    json& md = obj["metadata"];
    if (!md.contains("finalizers") || !md["finalizers"].is_array()) return false;
    json kept = json::array();
    for (const auto& f : md["finalizers"])
      if (f != finalizer) kept.push_back(f);
    if (kept.size() == md["finalizers"].size()) return false;
    if (kept.empty())
      md.erase("finalizers");  // a merge patch of finalizers: null
    else
      md["finalizers"] = kept;
    return true;
  });
}

void GarbageCollector::attempt_to_orphan(const std::string& uid) {
  Node n;
  std::vector<Node> dependents;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_nodes.find(uid);
    if (it == m_nodes.end() || !it->second.key.rt) return;
    n = it->second;
    for (const auto& dep : n.dependents) {
      auto d = m_nodes.find(dep);
      if (d != m_nodes.end() && d->second.key.rt) dependents.push_back(d->second);
    }
  }
  for (const auto& d : dependents) {
    m_ctx.store.mutate(*d.key.rt, d.key.ns, d.key.name, [&](json& obj) {
      json& md = obj["metadata"];
      if (!md.contains("ownerReferences") || !md["ownerReferences"].is_array()) return false;
      json kept = json::array();
      for (const auto& r : md["ownerReferences"])
        if (!r.is_object() || r.value("uid", "") != uid) kept.push_back(r);
      if (kept.size() == md["ownerReferences"].size()) return false;
      if (kept.empty())
        md.erase("ownerReferences");
      else
        md["ownerReferences"] = kept;
      return true;
    });
  }
  remove_finalizer(uid, n.key, kOrphanFinalizer);
}

void GarbageCollector::attempt_to_delete(const std::string& uid) {
  Node n;
  bool has_dependents = false;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_nodes.find(uid);
    if (it == m_nodes.end() || !it->second.key.rt) return;  // a placeholder: its dependents check it
    n = it->second;
    has_dependents = !n.dependents.empty();
  }
  auto latest = m_ctx.store.get_shared(*n.key.rt, n.key.ns, n.key.name);
  if (!latest || meta_uid(*latest) != uid) {
    forget(uid);  // gone (a "virtual delete event")
    return;
  }
  const auto fins = finalizers_of(*latest);
  if (being_deleted(*latest)) {
    // "Being deleted" is a one-way trip: only an owner deleting its dependents has work.
    if (!has(fins, kForegroundFinalizer)) return;
    const auto blocking = blocking_dependents(uid);
    if (blocking.empty()) {
      remove_finalizer(uid, n.key, kForegroundFinalizer);
      return;
    }
    std::lock_guard<std::mutex> lock(m_mutex);
    for (const auto& dep : blocking) {
      auto d = m_nodes.find(dep);
      if (d != m_nodes.end() && !d->second.deleting_dependents) m_to_delete.insert(dep);
    }
    return;
  }
  const json& refs = (*latest)["metadata"].value("ownerReferences", json::array());
  if (refs.empty()) return;
  std::vector<std::string> solid, dangling, waiting;
  for (const auto& r : refs) {
    if (!r.is_object()) continue;
    const std::string ref_uid = r.value("uid", "");
    const ResourceType* ort = m_ctx.store.find_kind(r.value("apiVersion", ""), r.value("kind", ""));
    if (!ort) {
      // A kind this cluster does not serve: left alone (the collector retries, never deletes).
      trainctl::log::debug("kubesim: garbage collector: {}/{} refers to an unknown kind {} {}", n.key.ns,
                           n.key.name, r.value("apiVersion", ""), r.value("kind", ""));
      return;
    }
    if (ort->namespaced && !n.key.rt->namespaced)
      return;  // invalid: a cluster object with a namespaced owner
    auto owner = m_ctx.store.get_shared(*ort, ort->namespaced ? n.key.ns : "", r.value("name", ""));
    if (!owner || meta_uid(*owner) != ref_uid) {
      dangling.push_back(ref_uid);
    } else if (being_deleted(*owner) && has(finalizers_of(*owner), kForegroundFinalizer)) {
      waiting.push_back(ref_uid);
    } else {
      solid.push_back(ref_uid);
    }
  }
  if (!solid.empty()) {
    if (dangling.empty() && waiting.empty()) return;
    // Another owner keeps it: only the references to owners gone or going are removed.
    std::set<std::string> drop(dangling.begin(), dangling.end());
    drop.insert(waiting.begin(), waiting.end());
    m_ctx.store.mutate(*n.key.rt, n.key.ns, n.key.name, [&](json& obj) {
      if (meta_uid(obj) != uid) return false;
      json kept = json::array();
      for (const auto& r : obj["metadata"]["ownerReferences"])
        if (!r.is_object() || !drop.count(r.value("uid", ""))) kept.push_back(r);
      obj["metadata"]["ownerReferences"] = kept;
      return true;
    });
    return;
  }
  DeleteOptions o;
  o.precondition_uid = uid;
  if (!waiting.empty() && has_dependents) {
    o.propagation = "Foreground";  // an owner waits: this one's dependents go first too
  } else if (has(fins, kOrphanFinalizer)) {
    o.propagation = "Orphan";
  } else if (has(fins, kForegroundFinalizer)) {
    o.propagation = "Foreground";
  } else {
    o.propagation = "Background";
  }
  trainctl::log::debug("kubesim: garbage collector deletes {} {}/{} ({})", n.key.rt->plural, n.key.ns,
                       n.key.name, o.propagation);
  m_ctx.store.remove(*n.key.rt, n.key.ns, n.key.name, o);
}

}  // namespace kubesim
