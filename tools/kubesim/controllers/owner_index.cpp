// The owner index: which objects a controller owns, kept current from the watch stream.
#include "kubesim/controllers/context.h"

namespace kubesim {

void OwnerIndex::observe(const WatchEvent& ev) {
  if (!ev.object) return;
  const json& obj = *ev.object;
  ObjectKey key{ev.resource, meta_ns(obj), meta_name(obj)};
  std::lock_guard<std::mutex> lock(m_mutex);
  auto old = m_owner.find(key);
  if (old != m_owner.end()) {
    auto c = m_children.find(old->second);
    if (c != m_children.end()) {
      c->second.erase(key);
      if (c->second.empty()) m_children.erase(c);
    }
    m_owner.erase(old);
  }
  if (ev.type == EventType::Deleted) return;
  const json* ref = controller_of(obj);
  if (!ref) return;
  const std::string uid = ref->value("uid", "");
  m_owner[key] = uid;
  m_children[uid].insert(key);
}

void OwnerIndex::add(const ResourceType* rt, const json& obj) {
  WatchEvent ev{EventType::Added, rt, std::make_shared<const json>(obj), 0};
  observe(ev);
}

std::vector<ObjectKey> OwnerIndex::children(const std::string& owner_uid) const {
  std::lock_guard<std::mutex> lock(m_mutex);
  auto it = m_children.find(owner_uid);
  if (it == m_children.end()) return {};
  return {it->second.begin(), it->second.end()};
}

std::vector<std::shared_ptr<const json>> Context::children(const ResourceType& rt, const json& owner) const {
  std::vector<std::shared_ptr<const json>> out;
  for (const auto& k : owners.children(meta_uid(owner))) {
    if (k.rt != &rt) continue;
    auto obj = store.get_shared(rt, k.ns, k.name);
    if (obj && owned_by(*obj, owner)) out.push_back(std::move(obj));
  }
  return out;
}

}  // namespace kubesim
