// Store internals shared by store.cpp (objects) and store_types.cpp (registry, watch).
#pragma once

#include "kubesim/store.h"

#include <deque>
#include <map>
#include <set>
#include <shared_mutex>
#include <unordered_map>
#include <unordered_set>

namespace kubesim {

struct StoredObject {
  std::shared_ptr<const json> obj;
  std::shared_ptr<const std::string> enc;
};

struct TypeData {
  std::unique_ptr<ResourceType> rt;
  bool builtin = false;
  bool served = true;
  std::map<std::pair<std::string, std::string>, StoredObject> objects;  // (ns, name)
};

using ObjectRef = std::tuple<TypeData*, std::string, std::string>;  // type, ns, name

struct Store::Impl {
  mutable std::shared_mutex mu;
  std::vector<std::unique_ptr<TypeData>> all_types;  // never shrinks (pointers stay valid)
  std::map<std::string, TypeData*> by_key;           // served types: group/version/plural
  std::unordered_map<std::string, std::set<ObjectRef>> dependents;  // owner uid -> objects
  // uids of recently deleted objects: a dependent created after its owner is gone (a
  // controller that read the owner just before the delete) is collected at once, as the
  // garbage collector would. That race lasts moments, so only the newest
  // deleted_uid_limit deletions are remembered (oldest forgotten first).
  size_t deleted_uid_limit = 100000;
  std::unordered_set<std::string> deleted_uids;
  std::deque<std::string> deleted_order;
  void remember_deleted(const std::string& uid);
  void forget_oldest_deleted();  // down to deleted_uid_limit
  uint64_t rv = 1;
  std::deque<WatchEvent> history;
  size_t history_limit = 20000;
  std::function<std::chrono::system_clock::time_point()> clock;

  // Events queued under mu, delivered in order after it is released.
  std::mutex pending_mu;
  std::deque<WatchEvent> pending;
  std::recursive_mutex notify_mu;
  std::map<uint64_t, std::pair<const ResourceType*, WatchFn>> watchers;
  uint64_t next_watch = 1;

  TypeData* data(const ResourceType& rt) const;
  TypeData* data_any(const ResourceType& rt) const;  // also unserved types
  // With mu held exclusively:
  void emit(TypeData* td, EventType type, const StoredObject& so);
  StoredObject put(TypeData* td, json obj, EventType type);
  void index_owners(TypeData* td, const json& obj, bool add);
  bool owners_all_deleted(const json& obj) const;  // every ownerReference names a deleted uid
  json erase(TypeData* td, const std::string& ns, const std::string& name, const std::string& propagation,
             int depth);
  void deliver();
};

std::string random_suffix(size_t n);
std::string new_uid();

}  // namespace kubesim
