// kubesim's object store: every object of every resource, with resourceVersion, uid,
// creationTimestamp, generateName, kube-apiserver's deletion rules (graceful deletion,
// finalizers, propagation policies; store_delete.cpp) and watch fan-out. Thread-safe.
// The HTTP layer (server.cpp) and the controllers (controllers/*.cpp) both work through it.
// Dependents are not deleted here: the garbage collector (controllers/garbage_collector.h)
// does that after their owner is gone, as kube-controller-manager does.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/rfc3339.h"
#include "kubesim/field_values.h"
#include "kubesim/label_values.h"

namespace kubesim {

using json = nlohmann::json;

// A resource the simulator serves (built in, or loaded from a CRD).
struct ResourceType {
  std::string group;  // "" = core
  std::string version;
  std::string kind;
  std::string plural;
  std::string singular;
  bool namespaced = true;
  std::vector<std::string> short_names;
  std::vector<std::string> categories;
  bool status_subresource = false;
  // The version objects are stored in (a CRD's version with storage: true); "" = this one.
  // Every served version of a group/plural reads and writes the same objects, converted by
  // rewriting apiVersion (a CRD's conversion strategy None).
  std::string storage_version;
  // The verbs it serves when not every verb of a stored resource (discovery's "verbs"):
  // selfsubjectaccessreviews take "create" only. Empty: all of them.
  std::vector<std::string> verbs;

  std::string api_version() const { return group.empty() ? version : group + "/" + version; }
  std::string key() const { return group + "/" + version + "/" + plural; }
  std::string crd_name() const { return plural + "." + group; }  // the CRD object's name
  // Versions of the same group and plural share their objects.
  bool same_storage(const ResourceType& o) const { return plural == o.plural && group == o.group; }
};

// A metav1.Status error: HTTP code, reason and message, as kube-apiserver words them.
struct StatusError : std::exception {
  int code;
  std::string reason;   // NotFound, AlreadyExists, Conflict, Invalid, BadRequest, ...
  std::string message;
  json details;               // {name, group, kind, causes:[{reason,message,field}]}
  std::string list_continue;  // metadata.continue of the Status (an expired continue token)
  StatusError(int c, std::string r, std::string m, json d = json::object())
      : code(c), reason(std::move(r)), message(std::move(m)), details(std::move(d)) {}
  const char* what() const noexcept override { return message.c_str(); }
  json to_status() const;  // the metav1.Status body
};

// Helpers that build the errors kube-apiserver returns, with its wording.
StatusError not_found(const ResourceType& rt, const std::string& name);
StatusError already_exists(const ResourceType& rt, const std::string& name);
StatusError conflict(const ResourceType& rt, const std::string& name, const std::string& why);
// 410 Expired for a watch from a resourceVersion older than the history window, with the
// watch cache's wording "too old resource version: RV (OLDEST-1)" (apiserver
// pkg/storage/cacher/watch_cache.go).
StatusError too_old_resource_version(uint64_t rv, uint64_t oldest_kept);
// 410 Expired for a continue token older than the last compaction, with etcd3's wording and
// a token to go on inconsistently (apiserver pkg/storage/etcd3/errors.go).
StatusError continue_expired(const std::string& inconsistent_continue);

// "2026-01-02T03:04:05Z" (metav1.Time), "2026-01-02T03:04:05.123456789Z" (kubelet logs), and
// parsing them: trainctl's helpers (core/rfc3339.h), shared with the client.
using trainctl::format_rfc3339;
using trainctl::format_rfc3339_nano;
using trainctl::parse_rfc3339;

enum class EventType { Added, Modified, Deleted };
const char* event_type_name(EventType t);  // "ADDED", "MODIFIED", "DELETED"

// metav1.DeleteOptions of one delete.
struct DeleteOptions {
  std::string propagation;                      // Background, Foreground, Orphan; "" = the resource's default
  std::optional<bool> orphan_dependents;        // the deprecated orphanDependents field
  std::optional<int64_t> grace_period_seconds;  // pods only; unset = spec.terminationGracePeriodSeconds
  std::string precondition_uid;                 // "" = none
  std::string precondition_resource_version;    // "" = none
};

struct DeleteResult {
  json object;           // as it is now (deletionTimestamp set), or as it was when removed
  bool removed = false;  // gone from the store (a DELETED event was sent)
};

// The finalizers the garbage collector acts on (metav1.FinalizerOrphanDependents,
// metav1.FinalizerDeleteDependents).
inline constexpr const char* kOrphanFinalizer = "orphan";
inline constexpr const char* kForegroundFinalizer = "foregroundDeletion";

struct WatchEvent {
  EventType type;
  const ResourceType* resource;
  std::shared_ptr<const json> object;
  uint64_t resource_version;
  std::shared_ptr<const std::string> encoded = nullptr;  // object->dump(), cached
  // The object before the change (nullptr for a create; the object itself for a delete), so
  // that a filtered watch can tell an object that stops matching (k8s.io/apiserver
  // pkg/storage/cacher/cache_watcher.go convertToWatchEvent).
  std::shared_ptr<const json> prev = nullptr;
};

class Store {
public:
  Store();
  ~Store();

  // ---- resource registry ----
  void register_type(const ResourceType& rt);
  void unregister_all_custom();  // drops non-built-in types (for tests)
  const ResourceType* find(const std::string& group, const std::string& version, const std::string& plural) const;
  const ResourceType* find_kind(const std::string& api_version, const std::string& kind) const;
  std::vector<const ResourceType*> types() const;
  // Registers rt as built in (kept by unregister_all_custom()).
  void register_builtin_type(const ResourceType& rt);
  // Stops serving a resource (a CRD that is not installed); its objects are dropped.
  // Pointers to the ResourceType stay valid. Returns false when it was not registered.
  bool unregister_type(const std::string& group, const std::string& plural);
  bool is_builtin(const ResourceType& rt) const;
  // Finds a served resource by plural, singular, kind (case-insensitive) or short name,
  // optionally qualified as "plural.group" (like kubectl's resource arguments).
  const ResourceType* resolve(const std::string& name) const;

  // Clock for creationTimestamp/deletionTimestamp (default: the system clock).
  void set_clock(std::function<std::chrono::system_clock::time_point()> now);
  std::chrono::system_clock::time_point now() const;

  // ---- objects ----
  // Assigns metadata.uid, resourceVersion, creationTimestamp (unless given), generation; resolves
  // generateName; defaults metadata.namespace for namespaced types. Throws StatusError
  // (409 AlreadyExists, 404 namespace not found).
  json create(const ResourceType& rt, json obj);
  // Admission run before every create (as kube-apiserver's validating admission plugins are):
  // it throws a StatusError to refuse the object. It may read the store.
  using CreateAdmission = std::function<void(const ResourceType&, const json&)>;
  void set_create_admission(CreateAdmission admit);
  std::optional<json> get(const ResourceType& rt, const std::string& ns, const std::string& name) const;
  // Shared pointer to the stored object (no copy), for hot paths.
  std::shared_ptr<const json> get_shared(const ResourceType& rt, const std::string& ns,
                                         const std::string& name) const;
  // The cached serialisation of the stored object (nullptr when absent).
  std::shared_ptr<const std::string> get_encoded(const ResourceType& rt, const std::string& ns,
                                                 const std::string& name) const;
  // Number of objects of rt (all namespaces).
  size_t count(const ResourceType& rt) const;
  // Full replace. A non-empty metadata.resourceVersion must match (else 409 Conflict).
  json update(const ResourceType& rt, json obj);
  // Read-modify-write under the store lock; fn returns false to leave the object alone.
  // Returns the new object, or nullopt if it does not exist (or fn declined).
  std::optional<json> mutate(const ResourceType& rt, const std::string& ns, const std::string& name,
                             const std::function<bool(json&)>& fn);
  // Deletes as kube-apiserver's generic registry does (registry/generic/registry/store.go
  // Delete): a pod is deleted gracefully (deletionTimestamp = now + its grace period, removed
  // when its kubelet deletes it again with grace 0); the propagation policy puts the orphan
  // or foregroundDeletion finalizer on the object; an object with finalizers only gets
  // deletionTimestamp and stays until they are removed (update or mutate removing the last
  // one deletes it); anything else is removed at once. Dependents are left to the garbage
  // collector. Throws 404 when absent, 409 when a precondition fails.
  DeleteResult remove(const ResourceType& rt, const std::string& ns, const std::string& name,
                      DeleteOptions options = {});

  struct ListResult {
    std::vector<std::shared_ptr<const json>> items;
    uint64_t resource_version = 0;
    std::string continue_token;       // empty on the last page
    std::optional<int64_t> remaining;  // remainingItemCount when paging
    std::vector<std::shared_ptr<const std::string>> encoded;  // items[i]->dump(), cached
  };
  // Objects of rt in ns ("" = all namespaces) that pass filter, ordered by namespace/name,
  // at most limit (0 = all) starting after the continue token. A token older than the last
  // compaction throws continue_expired().
  ListResult list(const ResourceType& rt, const std::string& ns,
                  const std::function<bool(const json&)>& filter = nullptr, size_t limit = 0,
                  const std::string& continue_token = "") const;
  // The same, with a filter that also gets the values of the object's selectable fields
  // (selectable_fields.h) and its labels (label_values.h), kept beside it since it was written.
  using StoredFilter = std::function<bool(const json&, const FieldValues&, const LabelValues&)>;
  ListResult list_stored(const ResourceType& rt, const std::string& ns, const StoredFilter& filter,
                         size_t limit = 0, const std::string& continue_token = "") const;

  // Throws what list() would for this continue token: 400 when it is malformed,
  // continue_expired() when its revision was compacted.
  void check_continue(const std::string& continue_token) const;

  // Throws continue_expired() for the list a continue token belongs to, as if its revision
  // had been compacted (400 when the token is malformed). For fault injection.
  [[noreturn]] void expire_continue(const std::string& continue_token) const;

  uint64_t resource_version() const;
  // The resourceVersion of the last event handed to every watcher (what a watch BOOKMARK may
  // announce: no event at or below it is still on its way).
  uint64_t delivered_resource_version() const;

  // Compaction of old revisions, as kube-apiserver asks etcd every --etcd-compaction-interval
  // (default 5m; apiserver pkg/storage/etcd3/compact.go): at each interval of the store's
  // clock, revisions older than the one seen at the previous interval are compacted, and
  // continue tokens of lists started before it expire. 0 turns compaction off.
  void set_compaction_interval(std::chrono::seconds interval);
  // Compacts now, up to the current resourceVersion (tests, fault injection).
  void compact();

  // ---- watch ----
  // Calls fn for every change of rt (nullptr = every resource) from now on, on the thread
  // that made the change, after the store lock is released. fn returns false to stop.
  // Returns a handle for unwatch().
  using WatchFn = std::function<bool(const WatchEvent&)>;
  uint64_t watch(const ResourceType* rt, WatchFn fn);
  void unwatch(uint64_t handle);
  // Events of rt after resource_version rv still in the history window (for watch with
  // ?resourceVersion=). Throws 410 Gone (reason Expired) when rv is older than the window.
  std::vector<WatchEvent> events_since(const ResourceType& rt, uint64_t rv) const;
  // How many events the history window keeps (default 20,000).
  void set_history_limit(size_t events);

private:
  struct Impl;
  std::unique_ptr<Impl> m;
};

}  // namespace kubesim
