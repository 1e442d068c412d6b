// Store internals shared by store.cpp (objects) and store_types.cpp (registry, watch).
#pragma once

#include "kubesim/store.h"

#include <atomic>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <shared_mutex>

namespace kubesim {

struct StoredObject {
  std::shared_ptr<const json> obj;
  std::shared_ptr<const std::string> enc;
  FieldValues fields;  // selectable_values() of obj, for the field selectors of lists
  LabelValues labels;  // its metadata.labels, for the label selectors of lists
};

using ObjectMap = std::map<std::pair<std::string, std::string>, StoredObject>;  // (ns, name)

struct TypeData {
  std::unique_ptr<ResourceType> rt;
  bool builtin = false;
  bool served = true;
  // Shared by every version of the same group/plural; objects carry the storage version's
  // apiVersion (storage_api_version) and are converted on the way out.
  std::shared_ptr<ObjectMap> objects_ptr = std::make_shared<ObjectMap>();
  std::string storage_api_version;
  bool conversion = false;  // storage_api_version is not this version's
  ObjectMap& objects() const { return *objects_ptr; }
  bool converts() const { return conversion; }
};

// so as read through td (apiVersion of td's version; the same object when no conversion).
StoredObject converted(const TypeData* td, const StoredObject& so);
std::shared_ptr<const json> converted(const ResourceType& to, const std::shared_ptr<const json>& obj);

struct Store::Impl {
  mutable std::shared_mutex mu;
  std::vector<std::unique_ptr<TypeData>> all_types;  // never shrinks (pointers stay valid)
  std::map<std::string, TypeData*> by_key;           // served types: group/version/plural
  uint64_t rv = 1;
  Store::CreateAdmission admit;  // set once at startup, before any create
  std::atomic<uint64_t> delivered_rv{1};
  // Compaction (see Store::set_compaction_interval), advanced lazily on the store's clock.
  std::mutex compaction_mu;
  std::chrono::seconds compaction_interval{300};
  std::chrono::system_clock::time_point next_compaction{};  // epoch = not started
  uint64_t rv_at_last_compaction = 0;
  uint64_t compacted_rv = 0;  // continue tokens of lists at or before it have expired
  void advance_compaction(std::chrono::system_clock::time_point now);
  // Where a continue token resumes: after (ns, name), at the token's revision (-1: the
  // latest; none for an empty token). Advances compaction to the clock first; throws 400 for
  // a malformed token and continue_expired() for one older than the last compaction.
  struct ContinuePoint {
    std::string ns, name;
    int64_t rv = -1;
  };
  ContinuePoint continue_point(const std::string& continue_token);
  std::deque<WatchEvent> history;
  size_t history_limit = 20000;
  std::function<std::chrono::system_clock::time_point()> clock;

  // Events queued under mu, delivered in order after it is released.
  std::mutex pending_mu;
  std::deque<WatchEvent> pending;
  std::recursive_mutex notify_mu;
  std::map<uint64_t, std::pair<const ResourceType*, WatchFn>> watchers;
  uint64_t next_watch = 1;

  std::chrono::system_clock::time_point now() const {
    return clock ? clock() : std::chrono::system_clock::now();
  }
  TypeData* data(const ResourceType& rt) const;
  TypeData* data_any(const ResourceType& rt) const;  // also unserved types
  // With mu held: the object as read through rt's version; null pointers when absent.
  StoredObject find(const ResourceType& rt, const std::string& ns, const std::string& name) const;
  // With mu held exclusively:
  void emit(TypeData* td, EventType type, const StoredObject& so, std::shared_ptr<const json> prev = nullptr);
  // Stores obj (given in td's version) and sends its event; returns it as stored.
  StoredObject put(TypeData* td, json obj, EventType type);
  // Removes the object (a namespace takes what it contains with it) and sends DELETED.
  // Returns it as it was, in td's version.
  json erase(TypeData* td, const std::string& ns, const std::string& name, int depth);
  // An update of an object being deleted that leaves it without finalizers deletes it
  // (store.go shouldDeleteDuringUpdate); otherwise obj is stored. Returns what the update
  // answers: the stored object, or the removed one.
  json write_update(TypeData* td, const json& old, json obj);
  void deliver();
};

std::string random_suffix(size_t n);
std::string new_uid();

}  // namespace kubesim
