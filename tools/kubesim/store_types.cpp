// Store: resource registry, the write primitive (put/emit) and watch fan-out.
#include "kubesim/store_impl.h"

#include <algorithm>

#include "core/text.h"
#include "kubesim/selectable_fields.h"

namespace kubesim {

using trainctl::ascii_lower;

namespace {

thread_local int g_delivering = 0;

// ev as a watcher of `as` sees it: the object in as's version.
WatchEvent converted_event(const ResourceType& as, const WatchEvent& ev) {
  auto obj = converted(as, ev.object);
  if (obj == ev.object) return ev;
  return WatchEvent{ev.type, &as, obj, ev.resource_version, std::make_shared<const std::string>(obj->dump()),
                    ev.prev ? converted(as, ev.prev) : nullptr};
}

}  // namespace

TypeData* Store::Impl::data(const ResourceType& rt) const {
  auto it = by_key.find(rt.key());
  return it == by_key.end() ? nullptr : it->second;
}

TypeData* Store::Impl::data_any(const ResourceType& rt) const {
  for (const auto& t : all_types)
    if (t->rt.get() == &rt) return t.get();
  return data(rt);
}

void Store::Impl::emit(TypeData* td, EventType type, const StoredObject& so, std::shared_ptr<const json> prev) {
  WatchEvent ev{type, td->rt.get(), so.obj, rv, so.enc, std::move(prev)};
  history.push_back(ev);
  while (history.size() > history_limit) history.pop_front();
  std::lock_guard lock(pending_mu);
  pending.push_back(std::move(ev));
}

StoredObject Store::Impl::put(TypeData* td, json obj, EventType type) {
  const json& md = obj["metadata"];
  std::pair<std::string, std::string> key{td->rt->namespaced ? md.value("namespace", "") : "",
                                          md.value("name", "")};
  obj["apiVersion"] = td->storage_api_version;
  obj["metadata"]["resourceVersion"] = std::to_string(++rv);
  StoredObject so;
  so.obj = std::make_shared<const json>(std::move(obj));
  so.enc = std::make_shared<const std::string>(so.obj->dump());
  so.fields = selectable_values(*td->rt, *so.obj);
  so.labels = LabelValues::of(*so.obj);
  StoredObject& slot = td->objects()[key];
  std::shared_ptr<const json> prev = slot.obj;
  slot = so;
  emit(td, type, so, std::move(prev));
  return so;
}

void Store::Impl::deliver() {
  std::lock_guard nlock(notify_mu);
  ++g_delivering;
  for (;;) {
    WatchEvent ev;
    {
      std::lock_guard lock(pending_mu);
      if (pending.empty()) break;
      ev = std::move(pending.front());
      pending.pop_front();
    }
    std::vector<uint64_t> ids;
    for (const auto& [id, w] : watchers)
      if (!w.first || w.first->same_storage(*ev.resource)) ids.push_back(id);
    for (uint64_t id : ids) {
      auto it = watchers.find(id);
      if (it == watchers.end()) continue;
      WatchFn fn = it->second.second;  // copy: fn may unwatch itself
      const ResourceType* as = it->second.first;
      bool keep = true;
      try {
        keep = fn(as ? converted_event(*as, ev) : ev);
      } catch (...) {
        keep = false;
      }
      if (!keep) watchers.erase(id);
    }
    delivered_rv.store(ev.resource_version);
  }
  --g_delivering;
}

void Store::register_type(const ResourceType& rt) {
  std::unique_lock lock(m->mu);
  auto td = std::make_unique<TypeData>();
  td->rt = std::make_unique<ResourceType>(rt);
  const std::string storage_version = rt.storage_version.empty() ? rt.version : rt.storage_version;
  td->storage_api_version = rt.group.empty() ? storage_version : rt.group + "/" + storage_version;
  // Another served version of the same resource: the same objects.
  for (const auto& [key, other] : m->by_key)
    if (other->rt->same_storage(rt)) {
      td->objects_ptr = other->objects_ptr;
      td->storage_api_version = other->storage_api_version;
      break;
    }
  td->conversion = td->storage_api_version != rt.api_version();
  m->by_key[rt.key()] = td.get();
  m->all_types.push_back(std::move(td));
}

void Store::register_builtin_type(const ResourceType& rt) {
  register_type(rt);
  std::unique_lock lock(m->mu);
  m->by_key[rt.key()]->builtin = true;
}

bool Store::unregister_type(const std::string& group, const std::string& plural) {
  std::unique_lock lock(m->mu);
  bool found = false;
  for (auto it = m->by_key.begin(); it != m->by_key.end();) {
    if (it->second->rt->group == group && it->second->rt->plural == plural) {
      it->second->served = false;
      it->second->objects().clear();
      it = m->by_key.erase(it);
      found = true;
    } else {
      ++it;
    }
  }
  return found;
}

void Store::unregister_all_custom() {
  std::unique_lock lock(m->mu);
  for (auto it = m->by_key.begin(); it != m->by_key.end();) {
    if (!it->second->builtin) {
      it->second->served = false;
      it->second->objects().clear();
      it = m->by_key.erase(it);
    } else {
      ++it;
    }
  }
}

bool Store::is_builtin(const ResourceType& rt) const {
  std::shared_lock lock(m->mu);
  TypeData* td = m->data(rt);
  return td && td->builtin;
}

const ResourceType* Store::find(const std::string& group, const std::string& version,
                                const std::string& plural) const {
  std::shared_lock lock(m->mu);
  auto it = m->by_key.find(group + "/" + version + "/" + plural);
  return it == m->by_key.end() ? nullptr : it->second->rt.get();
}

const ResourceType* Store::find_kind(const std::string& api_version, const std::string& kind) const {
  std::shared_lock lock(m->mu);
  for (const auto& [key, td] : m->by_key)
    if (td->rt->api_version() == api_version && td->rt->kind == kind) return td->rt.get();
  return nullptr;
}

std::vector<const ResourceType*> Store::types() const {
  std::shared_lock lock(m->mu);
  std::vector<const ResourceType*> out;
  for (const auto& t : m->all_types)
    if (t->served && m->by_key.count(t->rt->key()) && m->by_key.at(t->rt->key()) == t.get())
      out.push_back(t->rt.get());
  return out;
}

const ResourceType* Store::resolve(const std::string& name) const {
  std::string n = ascii_lower(name), group;
  auto dot = n.find('.');
  if (dot != std::string::npos) {
    group = n.substr(dot + 1);
    n = n.substr(0, dot);
  }
  std::shared_lock lock(m->mu);
  const ResourceType* best = nullptr;
  for (const auto& t : m->all_types) {
    const ResourceType& rt = *t->rt;
    if (!t->served || (!group.empty() && rt.group != group)) continue;
    bool hit = rt.plural == n || rt.singular == n || ascii_lower(rt.kind) == n ||
               std::find(rt.short_names.begin(), rt.short_names.end(), n) != rt.short_names.end();
    if (!hit) continue;
    if (!best || (best->group != "" && rt.group == "")) best = &rt;  // core wins, like kubectl
  }
  return best;
}

void Store::set_clock(std::function<std::chrono::system_clock::time_point()> now) {
  std::unique_lock lock(m->mu);
  m->clock = std::move(now);
}

std::chrono::system_clock::time_point Store::now() const {
  std::shared_lock lock(m->mu);
  return m->clock ? m->clock() : std::chrono::system_clock::now();
}

uint64_t Store::watch(const ResourceType* rt, WatchFn fn) {
  std::lock_guard lock(m->notify_mu);
  uint64_t id = m->next_watch++;
  m->watchers[id] = {rt, std::move(fn)};
  return id;
}

void Store::unwatch(uint64_t handle) {
  std::lock_guard lock(m->notify_mu);  // waits for a delivery in progress on another thread
  m->watchers.erase(handle);
}

void Store::set_history_limit(size_t events) {
  std::unique_lock lock(m->mu);
  m->history_limit = events == 0 ? 1 : events;
  while (m->history.size() > m->history_limit) m->history.pop_front();
}

std::vector<WatchEvent> Store::events_since(const ResourceType& rt, uint64_t rv) const {
  std::shared_lock lock(m->mu);
  std::vector<WatchEvent> out;
  if (rv >= m->rv) return out;
  if (m->history.empty() || m->history.front().resource_version > rv + 1)
    throw too_old_resource_version(rv, m->history.empty() ? m->rv + 1 : m->history.front().resource_version);
  for (const auto& ev : m->history)
    if (ev.resource_version > rv && ev.resource->same_storage(rt))
      out.push_back(converted_event(rt, ev));
  return out;
}

}  // namespace kubesim
